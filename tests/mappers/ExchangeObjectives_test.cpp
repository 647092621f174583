// The exchange searches of bokhari and ohtma under `best`'s objectives (GoalCosts.hpp): bokhari
// and ohtma under congestion relieving a shared link, solved by hand; bokhari ending no worse than
// its sweep start and in a local minimum of single exchanges (brute force, idle cores included),
// and its descent the listed one (a brute-force replica); ohtma's exchanges checked one by one
// against a brute force over the unlocked pairs, with their costs after, gains, backtracking and
// the number of exchanges; hop-bytes ohtma unchanged; thread independence; and the inputs
// refused. Costs under congestion, congestion-smooth and latency are counted here from the
// routes; hybrid's through search_cost, on a space built here as GoalSetup builds it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "mappers/CommGraph.hpp"
#include "mappers/LinkLoadTracker.hpp"
#include "mappers/LocalSearch.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Ohtma.hpp"
#include "mappers/RouteDistance.hpp"
#include "support/Error.hpp"
#include "tests/mappers/SameOnThreads.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::LinkClass;
using topo::LinkId;
using topo::NodeId;

constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

/// Calls f(src, dst, traffic) for every entry between distinct ranks.
void for_each_pair(const traces::CommMatrix& m,
                   const std::function<void(Rank, Rank, traces::Traffic)>& f) {
  for (Rank s = 0; s < m.rank_count(); ++s)
    for (std::size_t k = 0; k < m.destinations(s).size(); ++k)
      if (m.destinations(s)[k] != s) f(s, m.destinations(s)[k], m.traffic(s)[k]);
}

/// L_l: the bytes routed over every directed link.
std::vector<std::uint64_t> link_bytes(const traces::CommMatrix& m, const topo::Topology& t,
                                      std::span<const NodeId> f) {
  std::vector<std::uint64_t> bytes(static_cast<std::size_t>(t.link_count()), 0);
  std::vector<LinkId> route;
  for_each_pair(m, [&](Rank s, Rank d, traces::Traffic x) {
    if (f[s] == f[d]) return;
    route.clear();
    t.route_into(f[s], f[d], route);
    for (const LinkId l : route) bytes[static_cast<std::size_t>(l)] += x.bytes;
  });
  return bytes;
}

/// A class's default latency in ps.
std::int64_t ps(LinkClass c) {
  return std::llround(topo::LinkTable{}[c].latency * 1e12);
}

/// The cost of `f` under congestion (max_l T_l, sum_l T_l^2), congestion-smooth
/// (0, sum_l T_l L_l) or latency (sum of messages x the route's latencies, the intra-node
/// channel's on one node), T_l = w_l L_l with the classes' weights.
SearchCost counted_cost(SearchGoal goal, const traces::CommMatrix& m, const topo::Topology& t,
                        std::span<const NodeId> f) {
  if (goal == SearchGoal::Latency) {
    std::uint64_t sum = 0;
    std::vector<LinkId> route;
    for_each_pair(m, [&](Rank s, Rank d, traces::Traffic x) {
      std::int64_t latency = f[s] == f[d] ? ps(LinkClass::IntraNode) : 0;
      if (f[s] != f[d]) {
        route.clear();
        t.route_into(f[s], f[d], route);
        for (const LinkId l : route) latency += ps(t.link(l).link_class);
      }
      sum += x.messages * static_cast<std::uint64_t>(latency);
    });
    return {sum, 0};
  }
  const auto weights = link_time_weights(t);
  const auto bytes = link_bytes(m, t, f);
  SearchCost c;
  Uint128 squares = 0;
  Uint128 smooth = 0;
  for (LinkId l = 0; l < t.link_count(); ++l) {
    const auto load = bytes[static_cast<std::size_t>(l)];
    const auto time = weights[static_cast<std::size_t>(t.link(l).link_class)] * load;
    c.primary = std::max(c.primary, time);
    squares += static_cast<Uint128>(time) * time;
    smooth += static_cast<Uint128>(time) * load;
  }
  if (goal == SearchGoal::CongestionSmooth) return {0, smooth};
  c.secondary = squares;
  return c;
}

std::vector<NodeId> nodes_of(const topo::Mapping& mapping) {
  return {mapping.nodes().begin(), mapping.nodes().end()};
}

/// The costs of mappings of one matrix on one machine under the goals of the exchange searches:
/// congestion, congestion-smooth and latency counted from the routes; hybrid by search_cost on a
/// space built as GoalSetup builds it, relative to in-order.
class Costs {
 public:
  Costs(const traces::CommMatrix& m, const topo::Topology& t)
      : matrix_(m),
        topology_(t),
        graph_(m),
        reference_(nodes_of(make_mapper("in-order")->map(m, t, 1))),
        hybrid_(graph_, t, 8, 8, nullptr, hybrid_reference(graph_, t, reference_)),
        messages_(graph_.by_messages()),
        latency_(t, RouteWeight::Latency),
        latency_space_(messages_, t, 8, 8, &latency_),
        links_(graph_, t) {}

  [[nodiscard]] SearchCost operator()(SearchGoal goal, std::span<const NodeId> f) const {
    if (goal == SearchGoal::Hybrid) return search_cost(hybrid_, goal, f);
    return counted_cost(goal, matrix_, topology_, f);
  }
  /// search_cost's own answer, to check the counts above against.
  [[nodiscard]] SearchCost searched(SearchGoal goal, std::span<const NodeId> f) const {
    if (goal == SearchGoal::Hybrid) return search_cost(hybrid_, goal, f);
    if (goal == SearchGoal::Latency) return search_cost(latency_space_, goal, f);
    return search_cost(links_, goal, f);
  }
  [[nodiscard]] const std::vector<NodeId>& reference() const { return reference_; }
  [[nodiscard]] const CommGraph& graph() const { return graph_; }

 private:
  const traces::CommMatrix& matrix_;
  const topo::Topology& topology_;
  CommGraph graph_;
  std::vector<NodeId> reference_;
  SearchSpace hybrid_;
  CommGraph messages_;
  RouteDistance latency_;
  SearchSpace latency_space_;
  SearchSpace links_;
};

const char* word_of(SearchGoal goal) {
  switch (goal) {
    case SearchGoal::Congestion:
      return "congestion";
    case SearchGoal::CongestionSmooth:
      return "congestion-smooth";
    case SearchGoal::Latency:
      return "latency";
    case SearchGoal::Hybrid:
      return "hybrid";
    default:
      return "other";
  }
}

/// 0 -> 2 3000 bytes, 1 -> 3 2000 bytes: in rank order on a line both routes cross link 1 -> 2.
traces::CommMatrix crossing_pairs() {
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 2, 1, 3000);
  builder.add(1, 3, 1, 2000);
  return builder.build();
}

LinkId link_between(const topo::Topology& t, NodeId from, NodeId to) {
  for (LinkId l = 0; l < t.link_count(); ++l)
    if (t.link(l).from == from && t.link(l).to == to) return l;
  ADD_FAILURE() << "no link " << from << " -> " << to;
  return 0;
}

TEST(ExchangeObjectives, CountedCostsAgreeWithSearchCost) {
  // The counts this file checks the searches against are search_cost's sums (a guard on the
  // helpers, not on the searches): random mappings on two machines, one of two bandwidths.
  for (const auto& [spec, ranks] : {std::pair{"haec:2x2x2:cores=2", 14}, {"mesh:4x4", 12}}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const auto matrix = testing::random_matrix(ranks, 3, 7);
    const Costs costs(matrix, *machine);
    std::vector<NodeId> f(
        static_cast<std::size_t>(machine->node_count() * machine->cores_per_node()));
    for (std::size_t k = 0; k < f.size(); ++k)
      f[k] = static_cast<NodeId>(k) / machine->cores_per_node();
    std::mt19937 rng(5);
    for (int trial = 0; trial < 10; ++trial) {
      std::shuffle(f.begin(), f.end(), rng);
      const std::span<const NodeId> nodes(f.data(), static_cast<std::size_t>(ranks));
      for (const auto goal :
           {SearchGoal::Congestion, SearchGoal::CongestionSmooth, SearchGoal::Latency}) {
        SCOPED_TRACE(word_of(goal));
        EXPECT_EQ(costs(goal, nodes), costs.searched(goal, nodes));
      }
    }
  }
  // The hand-solved case below: in rank order, link 1 -> 2 carries both pairs.
  const auto line = topo::make_topology("mesh:4");
  const auto matrix = crossing_pairs();
  const std::vector<NodeId> in_order{0, 1, 2, 3};
  EXPECT_EQ(
      link_bytes(matrix, *line, in_order)[static_cast<std::size_t>(link_between(*line, 1, 2))],
      5000U);
  EXPECT_EQ(counted_cost(SearchGoal::Congestion, matrix, *line, in_order),
            (SearchCost{5000, 38000000}));
}

TEST(ExchangeObjectives, BokhariRelievesALinkSharedByTwoHeavyPairs) {
  // mesh:4 (a line of nodes 0-1-2-3, one bandwidth: T_l = L_l): rank 0 sends 3000 bytes to rank
  // 2, rank 1 2000 to rank 3. The start, sweep, is rank order: both routes cross link 1 -> 2,
  // (max, squares) = (5000, 3000^2 + 5000^2 + 2000^2 = 38e6). No mapping does better than
  // (3000, 13e6): the 3000 bytes load some link, and the two messages at least one link each.
  // The descent (ties: the lowest slot; slot = node here):
  //   pass 1, u = 0 on node 0: with slot 1 (5000, 33e6), slot 2 (3000, 26e6), slot 3 (3000,
  //     13e6): exchanges with rank 3, f = (3, 1, 2, 0), both pairs one hop on links of their own.
  //     Then only ties are left, each taken (cost after <= cost now) at the lowest slot: u = 1
  //     with slot 0, f = (3, 0, 2, 1); u = 2 with slot 3, f = (2, 0, 3, 1); u = 3 with slot 0,
  //     f = (2, 1, 3, 0).
  //   pass 2 (improved in pass 1): u = 0 ties at slot 3, f = (3, 1, 2, 0); u = 1 at slot 0,
  //     f = (3, 0, 2, 1); u = 2 at slot 3, f = (2, 0, 3, 1); u = 3 at slot 0, f = (2, 1, 3, 0).
  //     Nothing improved: B = (2, 1, 3, 0), max-jumps = 0 ends there. Busiest link 2 -> 3, 3000.
  const auto line = topo::make_topology("mesh:4");
  const auto matrix = crossing_pairs();
  const auto sweep = make_mapper("sweep")->map(matrix, *line, 1);
  ASSERT_EQ(nodes_of(sweep), (std::vector<NodeId>{0, 1, 2, 3}));
  EXPECT_EQ(counted_cost(SearchGoal::Congestion, matrix, *line, sweep.nodes()),
            (SearchCost{5000, 38000000}));
  const auto descent =
      make_mapper("bokhari", {{"objective", "congestion"}, {"max-jumps", "0"}})->map(matrix, *line);
  EXPECT_EQ(nodes_of(descent), (std::vector<NodeId>{2, 1, 3, 0}));
  const auto loads = link_bytes(matrix, *line, descent.nodes());
  EXPECT_EQ(*std::max_element(loads.begin(), loads.end()), 3000U);
  EXPECT_EQ(loads[static_cast<std::size_t>(link_between(*line, 2, 3))], 3000U);
  EXPECT_EQ(loads[static_cast<std::size_t>(link_between(*line, 1, 0))], 2000U);
  EXPECT_EQ(counted_cost(SearchGoal::Congestion, matrix, *line, descent.nodes()),
            (SearchCost{3000, 13000000}));
  // With the jumps (the default 50), B never gets worse than the first descent's optimum.
  const auto jumped = make_mapper("bokhari", {{"objective", "congestion"}})->map(matrix, *line, 4);
  EXPECT_EQ(counted_cost(SearchGoal::Congestion, matrix, *line, jumped.nodes()),
            (SearchCost{3000, 13000000}));
}

TEST(ExchangeObjectives, OhtmaRelievesALinkSharedByTwoHeavyPairs) {
  // The same matrix on mesh:4. Greedy phase (Ohtma.hpp): volumes (3000, 2000, 3000, 2000),
  // hops to all nodes (6, 4, 4, 6). k = 0: rank 0 to node 1; k = 1: rank 2 (3000 + 3000) to
  // node 2 (1 + 4 against 1 + 6 and 2 + 6); k = 2: rank 1 (2000, tie with rank 3) to node 0
  // (2 x 3 + 6, tie with node 3); k = 3: rank 3 to node 3. f = (1, 0, 2, 3): rank 1's route
  // 0 -> 3 crosses link 1 -> 2 beside rank 0's: (5000, 4e6 + 25e6 + 4e6 = 33e6).
  // Exchange phase under congestion, every pair (after):
  //   (0, 1) (5000, 38e6)  (0, 2) (3000, 21e6)  (0, 3) (3000, 13e6)
  //   (1, 2) (3000, 13e6)  (1, 3) (3000, 21e6)  (2, 3) (5000, 38e6)
  // (0, 3) wins the tie with (1, 2): f = (3, 0, 2, 1), both pairs one hop on links of their
  // own, busiest link 3000. Then only (1, 2) is unlocked: f = (3, 2, 0, 1), rank 0 three hops
  // 3 -> 0 and rank 1 on 2 -> 1: (5000, 9e6 + 25e6 + 9e6 = 43e6), made anyway. Backtracking
  // keeps the first exchange.
  const auto line = topo::make_topology("mesh:4");
  const auto matrix = crossing_pairs();
  const CommGraph graph(matrix);
  const auto result = run_ohtma(graph, *line, {.goal = SearchGoal::Congestion});
  EXPECT_EQ(result.greedy, (std::vector<NodeId>{1, 0, 2, 3}));
  EXPECT_EQ(counted_cost(SearchGoal::Congestion, matrix, *line, result.greedy),
            (SearchCost{5000, 33000000}));
  EXPECT_EQ(result.exchanges, (std::vector<OhtmaExchange>{{0, 3, 2000, {3000, 13000000}},
                                                          {1, 2, -2000, {5000, 43000000}}}));
  EXPECT_EQ(result.kept, 1U);
  EXPECT_EQ(result.final, (std::vector<NodeId>{3, 0, 2, 1}));
  const auto loads = link_bytes(matrix, *line, result.final);
  EXPECT_EQ(*std::max_element(loads.begin(), loads.end()), 3000U);
  EXPECT_EQ(loads[static_cast<std::size_t>(link_between(*line, 3, 2))], 3000U);
  EXPECT_EQ(loads[static_cast<std::size_t>(link_between(*line, 0, 1))], 2000U);
  // The mapper returns it.
  const auto mapped = make_mapper("ohtma", {{"objective", "congestion"}})->map(matrix, *line);
  EXPECT_EQ(nodes_of(mapped), result.final);
}

/// The result of `f` with the contents of two places exchanged: ranks i and j swap nodes.
std::vector<NodeId> swapped(std::vector<NodeId> f, Rank i, Rank j) {
  std::swap(f[static_cast<std::size_t>(i)], f[static_cast<std::size_t>(j)]);
  return f;
}

/// An exchange of `f` that lowers its cost under `goal` ("u <-> v": ranks u and v swap nodes;
/// "u -> y": u moves to an idle core of node y), or "" if none does: f is a local minimum.
std::string improving_exchange(const Costs& costs, SearchGoal goal, const topo::Topology& machine,
                               const std::vector<NodeId>& f) {
  const SearchCost cost = costs(goal, f);
  const auto ranks = static_cast<Rank>(f.size());
  std::vector<int> used(static_cast<std::size_t>(machine.node_count()), 0);
  for (const NodeId n : f) ++used[static_cast<std::size_t>(n)];
  for (Rank u = 0; u < ranks; ++u) {
    const auto at = f[static_cast<std::size_t>(u)];
    for (Rank v = u + 1; v < ranks; ++v) {
      if (f[static_cast<std::size_t>(v)] == at) continue;  // the same mapping
      if (costs(goal, swapped(f, u, v)) < cost)
        return std::to_string(u) + " <-> " + std::to_string(v);
    }
    for (NodeId y = 0; y < machine.node_count(); ++y) {
      if (y == at || used[static_cast<std::size_t>(y)] == machine.cores_per_node()) continue;
      auto moved = f;
      moved[static_cast<std::size_t>(u)] = y;
      if (costs(goal, moved) < cost) return std::to_string(u) + " -> " + std::to_string(y);
    }
  }
  return "";
}

struct Instance {
  const char* machine;
  traces::CommMatrix matrix;
};

/// Machines the ranks fill (no compact block): bokhari searches all of them. One bandwidth, two
/// (the HAEC Box's wireless links weigh twice its optical ones), and idle cores.
std::vector<Instance> bokhari_instances() {
  std::vector<Instance> instances;
  instances.push_back({"mesh:4x4", testing::random_matrix(16, 3, 31)});
  instances.push_back({"haec:2x2x2:cores=2", testing::random_matrix(15, 3, 32)});
  instances.push_back({"mesh:3x3:cores=2", testing::random_matrix(17, 2, 33)});
  return instances;
}

TEST(ExchangeObjectives, BokhariEndsBelowSweep) {
  for (const auto& [spec, matrix] : bokhari_instances()) {
    const auto machine = topo::make_topology(spec);
    const Costs costs(matrix, *machine);
    const auto start = nodes_of(make_mapper("sweep")->map(matrix, *machine, 2));
    for (const auto goal :
         {SearchGoal::Congestion, SearchGoal::CongestionSmooth, SearchGoal::Hybrid}) {
      SCOPED_TRACE(std::string(word_of(goal)) + " on " + spec);
      const auto found =
          nodes_of(make_mapper("bokhari", {{"objective", word_of(goal)}, {"max-jumps", "5"}})
                       ->map(matrix, *machine, 2));
      EXPECT_NO_THROW(validate(topo::Mapping(found), *machine));
      // Sweep is no local minimum here (a brute force finds an improving exchange or move), and
      // the search goes below it. The result need not be a local minimum: as listed, an exchange
      // of equal cost made late in the last pass may open an improving one to a rank examined
      // earlier (torus:4x4 with random_matrix(16, 1, 113) under congestion); the next test
      // checks the descent itself.
      EXPECT_NE(improving_exchange(costs, goal, *machine, start), "");
      EXPECT_LT(costs(goal, found), costs(goal, start));
    }
  }
}

/// Bokhari's descent as listed (Bokhari.cpp), by brute force from `f`: ranks on slots (the
/// lowest free core of their node, in rank order); in each pass every rank u in turn takes the
/// exchange of least cost after with any other slot (a rank or an idle core; ties: the lowest
/// slot) if that cost is not above the cost now; passes repeat while one strictly improved.
std::vector<NodeId> listed_descent(const Costs& costs, SearchGoal goal,
                                   const topo::Topology& machine, std::vector<NodeId> f) {
  const int cores = machine.cores_per_node();
  const int slots = machine.node_count() * cores;
  const auto ranks = static_cast<Rank>(f.size());
  std::vector<Rank> occupant(static_cast<std::size_t>(slots), -1);
  std::vector<int> slot(f.size());
  for (Rank r = 0; r < ranks; ++r) {
    int s = f[static_cast<std::size_t>(r)] * cores;
    while (occupant[static_cast<std::size_t>(s)] != -1) ++s;
    occupant[static_cast<std::size_t>(s)] = r;
    slot[static_cast<std::size_t>(r)] = s;
  }
  for (bool improved = true; improved;) {
    improved = false;
    for (Rank u = 0; u < ranks; ++u) {
      const auto from = slot[static_cast<std::size_t>(u)];
      const SearchCost now = costs(goal, f);
      SearchCost least;
      int to = -1;
      for (int s = 0; s < slots; ++s) {
        if (s == from) continue;
        auto g = f;
        g[static_cast<std::size_t>(u)] = s / cores;
        const Rank v = occupant[static_cast<std::size_t>(s)];
        if (v != -1) g[static_cast<std::size_t>(v)] = from / cores;
        const SearchCost c = costs(goal, g);
        if (to < 0 || c < least) {
          least = c;
          to = s;
        }
      }
      if (to < 0 || now < least) continue;
      const Rank v = occupant[static_cast<std::size_t>(to)];
      occupant[static_cast<std::size_t>(from)] = v;
      occupant[static_cast<std::size_t>(to)] = u;
      slot[static_cast<std::size_t>(u)] = to;
      f[static_cast<std::size_t>(u)] = to / cores;
      if (v != -1) {
        slot[static_cast<std::size_t>(v)] = from;
        f[static_cast<std::size_t>(v)] = from / cores;
      }
      if (least < now) improved = true;
    }
  }
  return f;
}

TEST(ExchangeObjectives, BokhariDescentIsTheListedOneByBruteForce) {
  // Without jumps (max-jumps = 0) bokhari returns its first descent from sweep: the same
  // exchanges as the brute force above, costs counted from the routes. On the last instance,
  // under congestion and congestion-smooth, both end with an improving exchange left (ranks 5
  // and 9: an exchange of equal cost late in the last pass opened it), as the listed loop
  // allows.
  auto instances = bokhari_instances();
  instances.push_back({"torus:4x4", testing::random_matrix(16, 1, 113)});
  for (const auto& [spec, matrix] : instances) {
    const auto machine = topo::make_topology(spec);
    const Costs costs(matrix, *machine);
    const auto start = nodes_of(make_mapper("sweep")->map(matrix, *machine, 2));
    for (const auto goal :
         {SearchGoal::Congestion, SearchGoal::CongestionSmooth, SearchGoal::Hybrid}) {
      SCOPED_TRACE(std::string(word_of(goal)) + " on " + spec);
      const auto descent = listed_descent(costs, goal, *machine, start);
      EXPECT_NE(descent, start);
      EXPECT_EQ(nodes_of(make_mapper("bokhari", {{"objective", word_of(goal)}, {"max-jumps", "0"}})
                             ->map(matrix, *machine, 2)),
                descent);
    }
  }
}

/// ohtma's exchange phase under `goal` checked step by step against a brute force.
void expect_exact_exchanges(const Instance& instance, SearchGoal goal) {
  SCOPED_TRACE(std::string(word_of(goal)) + " on " + instance.machine);
  const auto machine = topo::make_topology(instance.machine);
  const auto& matrix = instance.matrix;
  const Costs costs(matrix, *machine);
  const Rank n = matrix.rank_count();
  OhtmaOptions options;
  options.goal = goal;
  if (goal == SearchGoal::Hybrid) options.reference = costs.reference();
  const auto result = run_ohtma(costs.graph(), *machine, options);
  // The greedy phase is the paper's whatever the goal.
  EXPECT_EQ(result.greedy, ohtma_greedy(costs.graph(), *machine));
  // (d) loop = -1: n / 2 exchanges.
  ASSERT_EQ(result.exchanges.size(), static_cast<std::size_t>(n / 2));
  auto f = result.greedy;
  std::vector<char> locked(static_cast<std::size_t>(n), 0);
  std::vector<SearchCost> prefix{costs(goal, f)};  // the cost after t exchanges
  for (std::size_t t = 0; t < result.exchanges.size(); ++t) {
    SCOPED_TRACE(t);
    const auto& e = result.exchanges[t];
    // (b) the least cost after over every unlocked pair, ties to the smallest (m, n).
    SearchCost least;
    Rank least_m = -1;
    Rank least_n = -1;
    for (Rank i = 0; i < n; ++i) {
      if (locked[static_cast<std::size_t>(i)] != 0) continue;
      for (Rank j = i + 1; j < n; ++j) {
        if (locked[static_cast<std::size_t>(j)] != 0) continue;
        const SearchCost c = costs(goal, swapped(f, i, j));
        if (least_m < 0 || c < least) {
          least = c;
          least_m = i;
          least_n = j;
        }
      }
    }
    EXPECT_EQ(std::pair(e.m, e.n), std::pair(least_m, least_n));
    EXPECT_EQ(e.after, least);
    ASSERT_GE(e.m, 0);
    ASSERT_LT(e.m, e.n);
    ASSERT_LT(e.n, n);
    EXPECT_EQ(locked[static_cast<std::size_t>(e.m)] + locked[static_cast<std::size_t>(e.n)], 0);
    // (a) `after` is the cost of greedy with the first t + 1 exchanges made.
    f = swapped(f, e.m, e.n);
    locked[static_cast<std::size_t>(e.m)] = 1;
    locked[static_cast<std::size_t>(e.n)] = 1;
    const SearchCost now = costs(goal, f);
    EXPECT_EQ(e.after, now);
    // The gain: the drop of the leading sum (congestion-smooth's is its second).
    const SearchCost& before = prefix.back();
    if (goal == SearchGoal::CongestionSmooth) {
      EXPECT_EQ(now.primary, 0U);
      EXPECT_EQ(static_cast<Uint128>(e.gain + static_cast<std::int64_t>(now.secondary)),
                before.secondary);
    } else {
      EXPECT_EQ(e.gain,
                static_cast<std::int64_t>(before.primary) - static_cast<std::int64_t>(now.primary));
    }
    prefix.push_back(now);
  }
  // (c) the shortest prefix of the least cost, none unless below the greedy mapping's.
  std::size_t kept = 0;
  for (std::size_t t = 1; t < prefix.size(); ++t)
    if (prefix[t] < prefix[kept]) kept = t;
  EXPECT_EQ(result.kept, kept);
  auto final = result.greedy;
  for (std::size_t t = 0; t < kept; ++t)
    final = swapped(final, result.exchanges[t].m, result.exchanges[t].n);
  EXPECT_EQ(result.final, final);
  EXPECT_FALSE(prefix.front() < costs(goal, result.final));
}

std::vector<Instance> ohtma_instances() {
  return {
      // Two link classes, 3 idle cores, an odd number of ranks (one left unlocked).
      {"haec:2x2x2:cores=2", testing::random_matrix(13, 3, 41)},
      // Idle nodes.
      {"mesh:4x4", testing::random_matrix(12, 3, 42)},
  };
}

TEST(ExchangeObjectives, OhtmaExchangesAreTheExactArgminAndBacktrackingKeepsTheLeastPrefix) {
  for (const auto& instance : ohtma_instances()) {
    for (const auto goal : {SearchGoal::Congestion, SearchGoal::CongestionSmooth,
                            SearchGoal::Latency, SearchGoal::Hybrid})
      expect_exact_exchanges(instance, goal);
  }
}

TEST(ExchangeObjectives, OhtmaMakesTheLeastOfLoopAndHalfTheRanksExchanges) {
  const auto machine = topo::make_topology("haec:2x2x2:cores=2");
  const auto matrix = testing::random_matrix(13, 3, 43);
  const CommGraph graph(matrix);
  const auto reference = nodes_of(make_mapper("in-order")->map(matrix, *machine, 1));
  for (const auto goal : {SearchGoal::Congestion, SearchGoal::Hybrid}) {
    SCOPED_TRACE(word_of(goal));
    OhtmaOptions options;
    options.goal = goal;
    options.reference = reference;
    const auto all = run_ohtma(graph, *machine, options);
    for (const std::int64_t loop : {-1, 0, 1, 3, 6, 7, 100}) {
      SCOPED_TRACE(loop);
      options.loop = loop;
      const auto result = run_ohtma(graph, *machine, options);
      const std::int64_t expected = loop < 0 ? 13 / 2 : std::min<std::int64_t>(loop, 13 / 2);
      EXPECT_EQ(result.exchanges.size(), static_cast<std::size_t>(expected));
      // A shorter loop makes the same first exchanges.
      EXPECT_TRUE(
          std::equal(result.exchanges.begin(), result.exchanges.end(), all.exchanges.begin()));
      EXPECT_LE(result.kept, result.exchanges.size());
      if (loop == 0) {
        EXPECT_EQ(result.final, result.greedy);
      }
    }
  }
}

TEST(ExchangeObjectives, OhtmaUnderHopBytesIsUnchanged) {
  // The paper's phase: `after` stays zero, the mapper's objective=hop-bytes is its default.
  const Instance instances[] = {
      {"torus:4x4", testing::random_matrix(16, 3, 51)},
      {"haec:2x2x2:cores=2", testing::random_matrix(13, 3, 52)},
  };
  for (const auto& [spec, matrix] : instances) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const CommGraph graph(matrix);
    const auto plain = run_ohtma(graph, *machine);
    const auto named = run_ohtma(graph, *machine, {.goal = SearchGoal::HopBytes});
    ASSERT_FALSE(plain.exchanges.empty());
    for (const auto& e : plain.exchanges) EXPECT_EQ(e.after, SearchCost{});
    EXPECT_EQ(named.exchanges, plain.exchanges);
    EXPECT_EQ(named.kept, plain.kept);
    EXPECT_EQ(named.final, plain.final);
    const auto by_default = make_mapper("ohtma")->map(matrix, *machine, 3);
    EXPECT_EQ(make_mapper("ohtma", {{"objective", "hop-bytes"}})->map(matrix, *machine, 3),
              by_default);
    if (matrix.rank_count() == machine->node_count() * machine->cores_per_node()) {
      EXPECT_EQ(nodes_of(by_default), plain.final);
    }
  }
}

using testing::expect_same_on_one_and_two_threads;

TEST(ExchangeObjectives, SameMappingOnOneAndTwoThreads) {
  // bokhari evaluates the cores in parallel from 64 of them, ohtma the pairs from 8 unlocked
  // ranks.
  const auto mesh = topo::make_topology("mesh:8x8");
  const auto many = testing::random_matrix(64, 3, 61);
  for (const char* objective : {"congestion", "congestion-smooth", "hybrid"}) {
    SCOPED_TRACE(std::string("bokhari ") + objective);
    expect_same_on_one_and_two_threads(
        *make_mapper("bokhari", {{"objective", objective}, {"max-jumps", "2"}}), many, *mesh);
  }
  const auto haec = topo::make_topology("haec:3x2x2:cores=2");
  const auto some = testing::random_matrix(22, 3, 62);
  for (const char* objective : {"congestion", "hybrid"}) {
    SCOPED_TRACE(std::string("ohtma ") + objective);
    expect_same_on_one_and_two_threads(*make_mapper("ohtma", {{"objective", objective}}), some,
                                       *haec);
  }
}

/// Ranks 0 and 1 exchange `bytes` bytes in one message; the others are idle.
traces::CommMatrix one_pair(Rank ranks, std::uint64_t bytes) {
  traces::CommMatrixBuilder builder(ranks);
  builder.add(0, 1, 1, bytes);
  return builder.build();
}

TEST(ExchangeObjectives, UnknownWordsAndLoadsPast63BitsAreRefused) {
  EXPECT_THROW((void)make_mapper("ohtma", {{"objective", "cardinality"}}), InputError);
  EXPECT_THROW((void)make_mapper("ohtma", {{"objective", "time+energy"}}), InputError);
  EXPECT_THROW((void)make_mapper("ohtma", {{"objective", "congestion-max"}}), InputError);
  EXPECT_THROW((void)make_mapper("bokhari", {{"objective", "time+energy"}}), InputError);
  EXPECT_THROW((void)make_mapper("bokhari", {{"objective", "hybrid2"}}), InputError);
  // haec:4x1x2 (8 ranks: the whole machine): routes of up to 2 links, the wireless weight 2000.
  // bytes x 2 x 2000 past 2^63 - 1 cannot be tracked; one byte less can.
  const auto haec = topo::make_topology("haec:4x1x2");
  ASSERT_EQ(haec->max_route_links(), 2);
  ASSERT_EQ(link_time_weights(*haec)[static_cast<std::size_t>(LinkClass::HaecWireless)], 2000U);
  const auto most = kMax / (2 * 2000);
  const auto fits = one_pair(8, most);
  const auto over = one_pair(8, most + 1);
  for (const char* name : {"bokhari", "ohtma"}) {
    for (const char* objective : {"congestion", "congestion-smooth", "hybrid"}) {
      SCOPED_TRACE(std::string(name) + " " + objective);
      const auto mapper = make_mapper(name, {{"objective", objective}});
      EXPECT_THROW((void)mapper->map(over, *haec, 1), InputError);
      EXPECT_NO_THROW(validate(mapper->map(fits, *haec, 1), *haec));
    }
    // ohtma refuses it without an exchange phase too (loop=0: the greedy mapping alone).
    if (std::string_view(name) == "ohtma") {
      EXPECT_THROW((void)make_mapper(name, {{"objective", "congestion"}, {"loop", "0"}})
                       ->map(over, *haec, 1),
                   InputError);
    }
    // Hop-bytes never tracks the loads: the same matrix maps.
    EXPECT_NO_THROW((void)make_mapper(name, {{"objective", "hop-bytes"}})->map(over, *haec, 1))
        << name;
  }
}

}  // namespace
}  // namespace mapsim::map
