// Mappers built on libscotch (Pellegrini & Roman 1996), Debian's Scotch 7.
//
// scotch — Scotch's static mapping (dual recursive bipartitioning) of the process graph (edge
// weight: bytes both ways) onto the machine's target architecture (ScotchSupport.hpp: mesh or
// torus with exact hop distances; a tree of Tianhe-3 and of the levels of fat-trees, dragonflies,
// Cascade and Slurm trees; the HAEC Box from its link graph; on an allocation or a small job's
// first nodes of a hierarchical machine, the whole machine's target restricted to those nodes).
// Scotch balances load only up to a tolerance — its default strategy allows a few percent, which
// puts two ranks on one node where the machine has one core per node — so the strategy is built
// with SCOTCH_STRATBALANCE and the `imbalance` parameter (0 by default), and whatever imbalance
// Scotch still leaves is repaired exactly: ranks beyond a node's capacity move to the nearest free
// node (repair_capacity). With one core per node and as many nodes as ranks the result is
// one-to-one. Scotch's result depends on its random seed, sometimes much (an 8x8 stencil on an 8x8
// torus gets dilation 1 or 3), and on a torus its recursive bipartitioning often misaligns the
// halves of a graph without wrap-around edges, which it places well on the mesh of the same size (a
// sub-graph of the torus: a mesh placement is at least as good on the torus). So the mapper
// runs Scotch `runs` times with seeds derived from the mapper's seed, on a torus alternately
// with the torus and the mesh architecture, and keeps the repaired mapping of least hop-bytes
// (the first on a tie).
//
// bisection — recursive bisection of graph and machine (Hoefler & Snir 2011; Tuncer et al.
// 2015's RGrB), with Scotch's graph partitioning: the machine is halved by Scotch's own
// recursive bipartitioning of the target architecture (SCOTCH_archDomBipart: the longest
// dimension of a mesh or torus; the tree of Tianhe-3 and of hierarchical machines' levels; a
// graph bipartition of the HAEC Box's link graph; a sub-architecture's own halves on an
// allocation);
// the ranks are split by a Scotch bipartition of the process graph into two parts sized to the
// halves' capacities (a weighted complete graph of two vertices, SCOTCH_archCmpltw), made exact
// by moving the vertices with the best cut gain; then both halves recurse, level by level. Each
// half receives ranks in proportion to its capacity, so spare nodes spread evenly over the
// machine. Which machine half takes which half of the ranks is free; with orient=traffic (the
// default) it is the cheaper of the two ways for the traffic leaving the domain being split:
//   cost(H0 -> D0, H1 -> D1) = sum_{v in H0} sum_{u outside} A_vu dist(D0, D(u))
//                            + sum_{v in H1} sum_{u outside} A_vu dist(D1, D(u))
// with D(u) the domain u is in at that level and dist Scotch's domain distance
// (SCOTCH_archDomDist), when both ways fit the capacities (a light form of the terminal
// propagation of Dunlop & Kernighan 1985; the cut is the same either way). Without it, each
// split keeps the sides Scotch's partitioner happened to give, which tears chains and stencils
// apart at the joints between halves (NPB LU on a 8x8x8 torus: hop-bytes 0.99 -> 0.62 of
// in-order; MG 2.93 -> 1.43). orient=none keeps them.

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>

#include "mappers/Factories.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/NodePool.hpp"
#include "mappers/ScotchSupport.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

constexpr ParamSpec kScotchParams[] = {
    {"strategy", ParamType::Choice, "quality",
     "Scotch strategy flavour (SCOTCH_STRATQUALITY, SCOTCH_STRATSPEED or the default)", 0, 0,
     "quality|speed|default"},
    {"imbalance", ParamType::Real, "0",
     "load imbalance Scotch may leave (capacity is repaired exactly afterwards)", 0, 1},
    {"runs", ParamType::Integer, "4",
     "Scotch runs (seeds derived from the seed; on a torus every other run sees the mesh); the "
     "mapping of least hop-bytes is kept",
     1, 64},
};

constexpr ParamSpec kBisectionParams[] = {
    {"orient", ParamType::Choice, "traffic",
     "which machine half takes which half of the ranks: none (as split), or traffic (the one "
     "nearer the other ranks' traffic, by Scotch's domain distances)",
     0, 0, "none|traffic"},
};

scotch::Num strategy_flags(const std::string& flavour) {
  scotch::Num flags = SCOTCH_STRATBALANCE;
  if (flavour == "quality") flags |= SCOTCH_STRATQUALITY;
  if (flavour == "speed") flags |= SCOTCH_STRATSPEED;
  return flags;
}

class ScotchMapper final : public Mapper {
 public:
  explicit ScotchMapper(const ParamValues& params)
      : flags_(strategy_flags(params.text("strategy"))),
        imbalance_(params.real("imbalance")),
        runs_(static_cast<int>(params.integer("runs"))) {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    // Without messages between distinct ranks every placement costs nothing: keep the natural
    // order (and keep away from Scotch 7.0.3, which leaks memory mapping an edgeless graph).
    if (p.graph.edge_count() == 0) return topo::in_order_mapping(p.ranks(), p.topology);
    std::vector<NodeId> best;
    std::uint64_t best_cost = 0;
    for (int run = 0; run < runs_; ++run) {
      // Scotch's generator ignores the seed's lowest bit: hash it per run instead.
      const Seed seed = Random::stream(p.seed, static_cast<std::uint64_t>(run)).next();
      auto node_of = map_once(p, seed, run % 2 == 1);
      repair_capacity(node_of, p.graph, p.topology);
      const auto cost = metrics::hop_bytes(p.graph, p.topology, node_of);
      if (run == 0 || cost < best_cost) {
        best = std::move(node_of);
        best_cost = cost;
      }
    }
    return topo::Mapping(std::move(best));
  }

 private:
  std::vector<NodeId> map_once(const Problem& p, Seed seed, bool torus_as_mesh) const {
    const auto guard = scotch::lock();
    scotch::Context context(seed);
    const auto data = scotch::process_graph(p.graph);
    scotch::Graph graph(data, &context);
    scotch::Target target;
    scotch::build_target(target, p.topology, context, torus_as_mesh);
    scotch::Strategy strategy(flags_, p.topology.node_count(), imbalance_);
    const auto terminal = scotch::map_graph(graph, target.get(), strategy, data.vertex_count());
    return {terminal.begin(), terminal.end()};
  }

  scotch::Num flags_;
  double imbalance_;
  int runs_;
};

class Bisection final : public Mapper {
 public:
  explicit Bisection(const ParamValues& params) : orient_(params.text("orient") == "traffic") {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    std::vector<NodeId> node_of(static_cast<std::size_t>(p.ranks()), -1);
    const auto guard = scotch::lock();
    scotch::Context context(p.seed);
    scotch::Target arch;
    scotch::build_target(arch, p.topology, context);
    scotch::Strategy halves(SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, 2, 0.0);
    Recursion c{p, context, arch, halves, node_of, {}, {}, {}, {}};
    c.domains.emplace_back();
    SCOTCH_archDomFrst(arch.get(), &c.domains.back());
    c.domain_of.assign(static_cast<std::size_t>(p.ranks()), 0);
    // Level by level (first in, first out), so that the traffic that orients a split sees every
    // other rank in a domain of about the same size.
    std::deque<std::pair<std::size_t, std::vector<Rank>>> jobs;
    std::vector<Rank> all(static_cast<std::size_t>(p.ranks()));
    for (Rank r = 0; r < p.ranks(); ++r) all[static_cast<std::size_t>(r)] = r;
    jobs.emplace_back(0, std::move(all));
    while (!jobs.empty()) {
      auto [domain, ranks] = std::move(jobs.front());
      jobs.pop_front();
      place(c, domain, ranks, jobs);
    }
    return topo::Mapping(std::move(node_of));
  }

 private:
  struct Recursion {
    const Problem& problem;
    scotch::Context& context;
    scotch::Target& arch;
    scotch::Strategy& halves;
    std::vector<NodeId>& node_of;
    std::vector<SCOTCH_ArchDom> domains;  // every domain handed out so far
    std::vector<std::size_t> domain_of;   // each rank's current domain
    std::vector<std::size_t> stamp;       // swap_pays(): distances cached for the current split
    std::vector<std::array<std::int64_t, 2>> distance;
  };

  void place(Recursion& c, std::size_t index, const std::vector<Rank>& ranks,
             std::deque<std::pair<std::size_t, std::vector<Rank>>>& jobs) const {
    if (ranks.empty()) return;
    SCOTCH_ArchDom domain = c.domains[index];
    const auto size = SCOTCH_archDomSize(c.arch.get(), &domain);
    if (size == 1) {
      const auto node = static_cast<NodeId>(SCOTCH_archDomNum(c.arch.get(), &domain));
      for (const Rank r : ranks) c.node_of[static_cast<std::size_t>(r)] = node;
      return;
    }
    SCOTCH_ArchDom part[2];
    MAPSIM_EXPECTS(SCOTCH_archDomBipart(c.arch.get(), &domain, &part[0], &part[1]) == 0,
                   "Scotch could not bipartition a domain of several terminals");
    const std::int64_t cores = c.problem.cores();
    const std::int64_t cap0 = SCOTCH_archDomSize(c.arch.get(), &part[0]) * cores;
    const std::int64_t cap1 = SCOTCH_archDomSize(c.arch.get(), &part[1]) * cores;
    const auto count = static_cast<std::int64_t>(ranks.size());
    const auto share = static_cast<std::int64_t>(std::llround(
        static_cast<double>(count) * static_cast<double>(cap0) / static_cast<double>(cap0 + cap1)));
    const std::int64_t first = std::clamp(share, count - cap1, cap0);
    auto [ranks0, ranks1] = split(c, ranks, first);
    const bool fits_swapped = static_cast<std::int64_t>(ranks0.size()) <= cap1 &&
                              static_cast<std::int64_t>(ranks1.size()) <= cap0;
    if (orient_ && fits_swapped && swap_pays(c, index, part, ranks0, ranks1))
      std::swap(ranks0, ranks1);
    for (int k = 0; k < 2; ++k) {
      const std::size_t at = c.domains.size();
      c.domains.push_back(part[k]);
      auto& half = k == 0 ? ranks0 : ranks1;
      for (const Rank r : half) c.domain_of[static_cast<std::size_t>(r)] = at;
      jobs.emplace_back(at, std::move(half));
    }
  }

  // orient=traffic: the traffic of the two halves of domain `inside` with the ranks outside it,
  // weighted by the distance from each machine half to their domains (Scotch's
  // SCOTCH_archDomDist): true if it costs less with the halves exchanged.
  static bool swap_pays(Recursion& c, std::size_t inside, SCOTCH_ArchDom (&part)[2],
                        const std::vector<Rank>& ranks0, const std::vector<Rank>& ranks1) {
    const std::size_t current = c.domains.size() + 1;  // unique per split: domains only grow
    c.stamp.resize(c.domains.size(), 0);
    c.distance.resize(c.domains.size());
    // Bytes (up to 2^63) times Scotch's domain distances, which may exceed the machine's hops
    // (Tianhe-3's tree, a large HAEC Box's torus): summed in 128 bits, never wrapping.
    __extension__ using Wide = __int128;
    auto external = [&](const std::vector<Rank>& half) {
      std::array<Wide, 2> cost{0, 0};  // placed in part 0, in part 1
      for (const Rank v : half) {
        for (const auto& nb : c.problem.graph.neighbors(v)) {
          const std::size_t d = c.domain_of[static_cast<std::size_t>(nb.rank)];
          if (d == inside) continue;
          if (c.stamp[d] != current) {
            c.stamp[d] = current;
            for (int k = 0; k < 2; ++k)
              c.distance[d][static_cast<std::size_t>(k)] =
                  SCOTCH_archDomDist(c.arch.get(), &part[k], &c.domains[d]);
          }
          const auto bytes = static_cast<Wide>(nb.bytes());
          cost[0] += bytes * c.distance[d][0];
          cost[1] += bytes * c.distance[d][1];
        }
      }
      return cost;
    };
    const auto cost0 = external(ranks0);
    const auto cost1 = external(ranks1);
    return cost0[1] + cost1[0] < cost0[0] + cost1[1];
  }

  // Splits `ranks` into exactly `first` and ranks.size() - first ranks with a small edge cut.
  static std::pair<std::vector<Rank>, std::vector<Rank>> split(Recursion& c,
                                                               const std::vector<Rank>& ranks,
                                                               std::int64_t first) {
    const auto n = static_cast<std::int64_t>(ranks.size());
    std::vector<int> side(ranks.size(), 1);
    const auto data = scotch::process_graph(c.problem.graph, ranks);
    if (first == 0 || first == n) {
      std::fill(side.begin(), side.end(), first == 0 ? 1 : 0);
    } else if (data.targets.empty()) {
      // No edges: keep rank order, which is what the application's layout usually follows.
      for (std::int64_t k = 0; k < first; ++k) side[static_cast<std::size_t>(k)] = 0;
    } else {
      scotch::Graph graph(data, &c.context);
      scotch::Arch two;
      const scotch::Num weights[2] = {static_cast<scotch::Num>(first),
                                      static_cast<scotch::Num>(n - first)};
      MAPSIM_EXPECTS(SCOTCH_archCmpltw(two.get(), 2, weights) == 0, "SCOTCH_archCmpltw failed");
      const auto part = scotch::map_graph(graph, two.get(), c.halves, data.vertex_count());
      side.assign(part.begin(), part.end());
      balance(data, side, first);
    }
    std::pair<std::vector<Rank>, std::vector<Rank>> out;
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      (side[k] == 0 ? out.first : out.second).push_back(ranks[k]);
    }
    return out;
  }

  // Moves vertices across until side 0 has exactly `first` of them, each time the vertex of the
  // overfull side whose move costs the least cut weight (ties: the lowest index).
  static void balance(const scotch::GraphData& g, std::vector<int>& side, std::int64_t first) {
    auto count0 = static_cast<std::int64_t>(std::count(side.begin(), side.end(), 0));
    while (count0 != first) {
      const int from = count0 > first ? 0 : 1;
      std::int64_t best_gain = 0;
      std::size_t best = side.size();
      for (std::size_t v = 0; v < side.size(); ++v) {
        if (side[v] != from) continue;
        std::int64_t gain = 0;  // cut weight saved by moving v
        for (auto a = g.start[v]; a < g.start[v + 1]; ++a) {
          const auto w = static_cast<std::int64_t>(g.weights[static_cast<std::size_t>(a)]);
          gain += side[static_cast<std::size_t>(g.targets[static_cast<std::size_t>(a)])] == from
                      ? -w
                      : w;
        }
        if (best == side.size() || gain > best_gain) {
          best = v;
          best_gain = gain;
        }
      }
      side[best] = 1 - from;
      count0 += from == 0 ? -1 : 1;
    }
  }

  bool orient_;
};

}  // namespace

std::span<const ParamSpec> scotch_params() {
  return kScotchParams;
}
std::unique_ptr<Mapper> make_scotch(const ParamValues& params) {
  return std::make_unique<ScotchMapper>(params);
}
std::span<const ParamSpec> bisection_params() {
  return kBisectionParams;
}
std::unique_ptr<Mapper> make_bisection(const ParamValues& params) {
  return std::make_unique<Bisection>(params);
}

}  // namespace mapsim::map
