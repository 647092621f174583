// treematch — ranks grouped recursively by their traffic to match the machine's hierarchy, after
// TreeMatch (E. Jeannot, G. Mercier, F. Tessier, "Process Placement in Multicore Clusters:
// Algorithmic Issues and Practical Techniques", IEEE TPDS 25(4):993-1002, 2014;
// docs/references.md): the heavier two ranks' traffic, the lower the level of the machine's tree
// they should share (a node, a leaf switch or router, a pod or group).
//
// The tree (Hierarchy.hpp): the nodes (their cores are its leaves), the levels of
// Topology::levels, the root. Hierarchical machines (fat-trees, dragonflies, Cascade, Slurm
// trees) give their own levels: leaf switch or router, pod, chassis, group; on an allocation or
// a small job's first nodes, restricted to those nodes. Machines whose distances are a grid's
// (meshes, tori, the HAEC Box, Tianhe-3, and nodes of them) have no such tree — the lines and
// planes of their levels() are not nearer inside than across — so their tree is the nested boxes
// of the grid (box_levels: the grid halved across its longest side, down to cells; Tianhe-3's
// side routers within a chip), restricted to the nodes mapped onto.
//
// TreeMatch groups bottom-up on a balanced tree and partitions top-down where the tree is
// constrained to some of its leaves (its k-partitioning mode). The trees here are mostly
// constrained — allocations, prefixes, uneven Slurm trees — so this is the top-down form: from
// the root down, the ranks of every vertex are divided among its children,
// filled in order up to their capacities (cores x nodes below; with fewer ranks than cores the
// last ones stay partly empty), by recursive halving of the children:
//   1. the children are cut into two runs of about equal capacity, the ranks into the first
//      run's share (its capacity, or all of them) and the rest;
//   2. the first share is grown greedily (Karypis & Kumar's greedy graph growing): from the rank
//      with the most traffic to ranks already placed before the run (less that to ranks placed
//      after it), else from a pseudo-peripheral rank (the last layer of a breadth-first search
//      from the ranks placed after it, or from the rank with the most traffic), each next rank
//      the one of largest gain = traffic into the share - traffic to the ranks not taken (ties:
//      the lowest rank; a rank of the most traffic when none has traffic into the share);
//   3. pairs of ranks are exchanged between the shares while that lowers the traffic between
//      them (each share's ranks ranked by the gain of crossing, the best of both sides paired;
//      an exchange made only if its exact gain is positive; at most kRefinePasses passes);
//   4. the shares change runs if the traffic with ranks outside the two, weighted by the hops
//      from a middle node of each run to where those ranks are, is lower that way (both ways
//      equal on a tree's equidistant children);
//   5. each run is halved again, down to single children.
// Traffic is bytes both ways (an edge of messages without bytes weighs 1).
// The tree is walked depth first: a vertex's ranks are split among its children and moved one
// level down, then each child's are placed in turn, so that step 4 of a later split sees the
// ranks already placed to their nodes (on a grid, where siblings are not equally far apart, this
// lays neighbouring parts of the traffic on neighbouring boxes). Sequential and deterministic;
// the seed is not used. Cost: per tree level O((ranks + edges) log ranks) times the depth of the
// halving of its children, plus O(edges) hops for the orientations; no table of nodes or ranks
// squared (4096 ranks: tens of milliseconds).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "mappers/Factories.hpp"
#include "mappers/Hierarchy.hpp"
#include "mappers/MachineView.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Sums of traffic (each rank's at most the matrix's total, below 2^63) and of traffic times hops:
// in 128 bits, never wrapping.
__extension__ using Wide = __int128;

// Passes of exchanges between the groups of a split (TreeMatchRun::refine).
constexpr int kRefinePasses = 8;

std::uint64_t weight(const Neighbor& nb) {
  return nb.bytes() == 0 ? 1 : nb.bytes();
}

// An indexed max-heap of local rank indices keyed by (gain, -rank); gains only grow while in it.
class Frontier {
 public:
  Frontier(std::span<const std::int64_t> gain, std::span<const Rank> ranks)
      : gain_(gain), ranks_(ranks), position_(ranks.size(), -1) {}

  [[nodiscard]] bool empty() const { return heap_.empty(); }

  /// Inserts k or moves it up after its gain grew.
  void raise(std::int32_t k) {
    auto& at = position_[static_cast<std::size_t>(k)];
    if (at < 0) {
      at = static_cast<std::int32_t>(heap_.size());
      heap_.push_back(k);
    }
    up(static_cast<std::size_t>(at));
  }

  std::int32_t pop() {
    const std::int32_t top = heap_.front();
    position_[static_cast<std::size_t>(top)] = -1;
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      position_[static_cast<std::size_t>(heap_.front())] = 0;
      down(0);
    }
    return top;
  }

  void clear() {
    for (const auto k : heap_) position_[static_cast<std::size_t>(k)] = -1;
    heap_.clear();
  }

 private:
  [[nodiscard]] bool above(std::int32_t a, std::int32_t b) const {
    const auto ua = static_cast<std::size_t>(a);
    const auto ub = static_cast<std::size_t>(b);
    if (gain_[ua] != gain_[ub]) return gain_[ua] > gain_[ub];
    return ranks_[ua] < ranks_[ub];
  }
  void place(std::size_t at, std::int32_t k) {
    heap_[at] = k;
    position_[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(at);
  }
  void up(std::size_t at) {
    const std::int32_t k = heap_[at];
    while (at > 0 && above(k, heap_[(at - 1) / 2])) {
      place(at, heap_[(at - 1) / 2]);
      at = (at - 1) / 2;
    }
    place(at, k);
  }
  void down(std::size_t at) {
    const std::int32_t k = heap_[at];
    for (;;) {
      std::size_t child = 2 * at + 1;
      if (child >= heap_.size()) break;
      if (child + 1 < heap_.size() && above(heap_[child + 1], heap_[child])) ++child;
      if (!above(heap_[child], k)) break;
      place(at, heap_[child]);
      at = child;
    }
    place(at, k);
  }

  std::span<const std::int64_t> gain_;
  std::span<const Rank> ranks_;
  std::vector<std::int32_t> position_;
  std::vector<std::int32_t> heap_;
};

class TreeMatchRun {
 public:
  explicit TreeMatchRun(const Problem& p)
      : p_(p),
        tree_(machine_tree(p.topology)),
        level_(static_cast<std::size_t>(p.ranks()), tree_.height()),
        owner_(static_cast<std::size_t>(p.ranks()), 0),
        next_(static_cast<std::size_t>(p.ranks()), -1),
        local_(static_cast<std::size_t>(p.ranks()), -1) {}

  topo::Mapping run() {
    std::vector<Rank> all(static_cast<std::size_t>(p_.ranks()));
    for (Rank r = 0; r < p_.ranks(); ++r) all[static_cast<std::size_t>(r)] = r;
    descend(tree_.height(), 0, all);
    return topo::Mapping(std::vector<NodeId>(owner_.begin(), owner_.end()));
  }

 private:
  // The state of one split: the vertex's ranks (local index k is ranks[k]) and the child each
  // goes to. While the children are bisected, part[k] is the first child of the range rank k is
  // in: the ranks of the range [lo, hi) being split are those with part == lo, the ranks placed
  // before it have part < lo and those after it part >= hi.
  struct Split {
    std::span<const Rank> ranks;
    int level = 0;
    std::int32_t vertex = 0;
    std::vector<std::int32_t> part;
    std::vector<std::uint64_t> capacity;  // prefix sums of the children's capacities
    std::vector<std::uint64_t> connection;
    std::vector<std::uint64_t> rest;
    std::vector<std::int64_t> gain;
    std::vector<char> mark;
    std::optional<Frontier> frontier;  // over gain
  };

  // Calls f(j, w) for every partner j (local index) of local rank k in the vertex, w the traffic.
  template <typename F>
  void for_partners(const Split& s, std::int32_t k, const F& f) const {
    for (const auto& nb : p_.graph.neighbors(s.ranks[static_cast<std::size_t>(k)])) {
      const auto r = static_cast<std::size_t>(nb.rank);
      if (owner_[r] == s.vertex && level_[r] == s.level)
        f(local_[static_cast<std::size_t>(nb.rank)], weight(nb));
    }
  }

  // Places the ranks of vertex v of level t: splits them among its children, moves them all one
  // level down, then places each child's in turn (depth first, so that the children split later
  // see where the ranks of those split before them are, to the node).
  void descend(int t, std::int32_t v, const std::vector<Rank>& ranks) {
    if (t == 0 || ranks.empty()) return;
    split(t, v, ranks);
    const auto children = tree_.children(t, v);
    std::vector<std::vector<Rank>> below(children.size());
    for (const Rank r : ranks) {
      const auto child = next_[static_cast<std::size_t>(r)];
      level_[static_cast<std::size_t>(r)] = t - 1;
      owner_[static_cast<std::size_t>(r)] = child;
      const auto at = std::lower_bound(children.begin(), children.end(), child) - children.begin();
      below[static_cast<std::size_t>(at)].push_back(r);
    }
    for (std::size_t c = 0; c < children.size(); ++c) descend(t - 1, children[c], below[c]);
  }

  // Splits the ranks of vertex v of level t among its children: next_[r] for every r of them.
  // Writes only the entries of its own ranks in the shared arrays.
  void split(int t, std::int32_t v, std::span<const Rank> ranks) {
    const auto children = tree_.children(t, v);
    const auto n = ranks.size();
    if (children.size() == 1) {
      for (const Rank r : ranks) next_[static_cast<std::size_t>(r)] = children[0];
      return;
    }
    for (std::size_t k = 0; k < n; ++k)
      local_[static_cast<std::size_t>(ranks[k])] = static_cast<std::int32_t>(k);
    Split s;
    s.ranks = ranks;
    s.level = t;
    s.vertex = v;
    s.part.assign(n, 0);
    s.capacity.assign(children.size() + 1, 0);
    for (std::size_t c = 0; c < children.size(); ++c) {
      s.capacity[c + 1] =
          s.capacity[c] + static_cast<std::uint64_t>(tree_.nodes_under(t - 1, children[c])) *
                              static_cast<std::uint64_t>(p_.cores());
    }
    s.connection.assign(n, 0);
    s.rest.assign(n, 0);
    s.gain.assign(n, 0);
    s.mark.assign(n, 0);
    s.frontier.emplace(s.gain, s.ranks);
    std::vector<std::int32_t> all(n);
    for (std::size_t k = 0; k < n; ++k) all[k] = static_cast<std::int32_t>(k);
    bisect(s, std::move(all), 0, static_cast<std::int32_t>(children.size()));
    for (std::size_t k = 0; k < n; ++k) {
      next_[static_cast<std::size_t>(ranks[k])] = children[static_cast<std::size_t>(s.part[k])];
    }
  }

  // Places `members` (part == lo) on the children [lo, hi): halves the range by capacity, grows
  // the first half's ranks, refines, and recurses into both halves.
  void bisect(Split& s, std::vector<std::int32_t> members, std::int32_t lo, std::int32_t hi) {
    if (members.empty()) return;
    if (hi - lo == 1) return;  // part == lo already
    auto cap = [&](std::int32_t c) { return s.capacity[static_cast<std::size_t>(c)]; };
    std::int32_t mid = lo + 1;
    for (std::int32_t m = lo + 2; m < hi; ++m) {
      const auto diff = [&](std::int32_t at) {
        const auto left = cap(at) - cap(lo);
        const auto right = cap(hi) - cap(at);
        return left > right ? left - right : right - left;
      };
      if (diff(m) < diff(mid)) mid = m;
    }
    const std::size_t first = std::min<std::size_t>(cap(mid) - cap(lo), members.size());
    if (first == members.size()) {  // the first half holds them all: fill it
      bisect(s, std::move(members), lo, mid);
      return;
    }
    grow(s, members, lo, mid, hi, first);
    refine(s, members, lo, mid);
    orient(s, members, lo, mid, hi);
    std::vector<std::int32_t> left;
    std::vector<std::int32_t> right;
    for (const auto k : members)
      (s.part[static_cast<std::size_t>(k)] == lo ? left : right).push_back(k);
    bisect(s, std::move(left), lo, mid);
    bisect(s, std::move(right), mid, hi);
  }

  // Which half of `members` takes which half [lo, mid) or [mid, hi) of the children: the cheaper
  // way for their traffic with the ranks outside the halves, weighted by the hops from a middle
  // node of each half to where those ranks are now (their node once placed, else a middle node of
  // their vertex, or of the first child of their range in this split), when both ways fit the
  // capacities (the light terminal propagation of the bisection mapper). Equal on a tree's
  // equidistant siblings.
  void orient(Split& s, const std::vector<std::int32_t>& members, std::int32_t lo, std::int32_t mid,
              std::int32_t hi) const {
    const auto& cap = s.capacity;
    std::size_t count[2] = {0, 0};
    for (const auto k : members) ++count[s.part[static_cast<std::size_t>(k)] == lo ? 0 : 1];
    const auto room = [&](std::int32_t a, std::int32_t b) {
      return cap[static_cast<std::size_t>(b)] - cap[static_cast<std::size_t>(a)];
    };
    if (count[0] > room(mid, hi) || count[1] > room(lo, mid)) return;
    const auto children = tree_.children(s.level, s.vertex);
    const auto middle = [&](std::int32_t a, std::int32_t b) {
      return tree_.middle_node(s.level - 1, children[static_cast<std::size_t>((a + b - 1) / 2)]);
    };
    const NodeId side[2] = {middle(lo, mid), middle(mid, hi)};
    Wide cost[2] = {0, 0};  // as grown; exchanged
    for (const auto k : members) {
      const int own = s.part[static_cast<std::size_t>(k)] == lo ? 0 : 1;
      for (const auto& nb : p_.graph.neighbors(s.ranks[static_cast<std::size_t>(k)])) {
        const auto r = static_cast<std::size_t>(nb.rank);
        NodeId at = 0;
        if (owner_[r] != s.vertex || level_[r] != s.level) {
          at = tree_.middle_node(level_[r], owner_[r]);
        } else {
          const auto pj = s.part[static_cast<std::size_t>(local_[r])];
          if (pj >= lo && pj < hi) continue;  // inside the halves
          at = tree_.middle_node(s.level - 1, children[static_cast<std::size_t>(pj)]);
        }
        const auto w = static_cast<Wide>(weight(nb));
        cost[0] += w * p_.topology.hops(side[own], at);
        cost[1] += w * p_.topology.hops(side[1 - own], at);
      }
    }
    if (cost[1] >= cost[0]) return;
    for (const auto k : members) {
      auto& pk = s.part[static_cast<std::size_t>(k)];
      pk = pk == lo ? mid : lo;
    }
  }

  // Grows the first `size` ranks of `members` for children [lo, mid) (part stays lo) and gives the
  // others part = mid.
  void grow(Split& s, const std::vector<std::int32_t>& members, std::int32_t lo, std::int32_t mid,
            std::int32_t hi, std::size_t size) {
    auto in_range = [&](std::int32_t j) { return s.part[static_cast<std::size_t>(j)] == lo; };
    // rest: traffic to the members not grown yet; pull: to the ranks placed before the range
    // minus to those placed after it.
    std::int64_t best_pull = 0;
    bool pushed = false;
    std::int32_t seed = -1;
    std::vector<std::int32_t> order(members);
    for (const auto k : members) {
      std::int64_t pull = 0;
      auto& rest = s.rest[static_cast<std::size_t>(k)];
      rest = 0;
      for_partners(s, k, [&](std::int32_t j, std::uint64_t w) {
        const auto pj = s.part[static_cast<std::size_t>(j)];
        if (pj == lo) {
          rest += w;
        } else {
          pull += pj < lo ? static_cast<std::int64_t>(w) : -static_cast<std::int64_t>(w);
        }
      });
      pushed = pushed || pull < 0;
      if (pull > 0 && (seed < 0 || pull > best_pull ||
                       (pull == best_pull && s.ranks[static_cast<std::size_t>(k)] <
                                                 s.ranks[static_cast<std::size_t>(seed)]))) {
        best_pull = pull;
        seed = k;
      }
    }
    auto heavier = [&](std::int32_t a, std::int32_t b) {
      const auto ua = static_cast<std::size_t>(a);
      const auto ub = static_cast<std::size_t>(b);
      if (s.rest[ua] != s.rest[ub]) return s.rest[ua] > s.rest[ub];
      return s.ranks[ua] < s.ranks[ub];
    };
    std::sort(order.begin(), order.end(), heavier);
    if (seed < 0) seed = farthest(s, members, lo, hi, pushed, order.front());
    // Greedy growth by gain = traffic into the grown ranks - traffic to the others not grown.
    Frontier& frontier = *s.frontier;
    std::size_t next_fallback = 0;
    for (std::size_t placed = 0; placed < size; ++placed) {
      std::int32_t k = seed;
      seed = -1;
      if (k < 0 && !frontier.empty()) k = frontier.pop();
      if (k < 0) {
        while (s.mark[static_cast<std::size_t>(order[next_fallback])]) ++next_fallback;
        k = order[next_fallback];
      }
      s.mark[static_cast<std::size_t>(k)] = 1;
      for_partners(s, k, [&](std::int32_t j, std::uint64_t w) {
        const auto uj = static_cast<std::size_t>(j);
        if (!in_range(j) || s.mark[uj]) return;
        s.connection[uj] += w;
        s.rest[uj] -= w;
        s.gain[uj] =
            static_cast<std::int64_t>(s.connection[uj]) - static_cast<std::int64_t>(s.rest[uj]);
        frontier.raise(j);
      });
    }
    frontier.clear();
    for (const auto k : members) {
      const auto uk = static_cast<std::size_t>(k);
      if (!s.mark[uk]) s.part[uk] = mid;
      s.mark[uk] = 0;
      s.connection[uk] = 0;
      s.gain[uk] = 0;
    }
  }

  // Where the first half starts when nothing placed before the range pulls: the last layer of a
  // breadth-first search over the range's traffic from the ranks placed after it that they talk
  // to (the far side from them) if `pushed`, else from `heaviest` (a pseudo-peripheral rank); in
  // that layer the rank with the most traffic in the range, then the lowest.
  std::int32_t farthest(Split& s, const std::vector<std::int32_t>& members, std::int32_t lo,
                        std::int32_t hi, bool pushed, std::int32_t heaviest) const {
    std::vector<std::int32_t> layer;
    if (pushed) {
      for (const auto k : members) {
        bool touches = false;
        for_partners(s, k, [&](std::int32_t j, std::uint64_t) {
          touches = touches || s.part[static_cast<std::size_t>(j)] >= hi;
        });
        if (touches) layer.push_back(k);
      }
    } else {
      layer.push_back(heaviest);
    }
    for (const auto k : layer) s.mark[static_cast<std::size_t>(k)] = 1;
    std::vector<std::int32_t> next;
    for (;;) {
      next.clear();
      for (const auto k : layer) {
        for_partners(s, k, [&](std::int32_t j, std::uint64_t) {
          const auto uj = static_cast<std::size_t>(j);
          if (s.part[uj] != lo || s.mark[uj]) return;
          s.mark[uj] = 1;
          next.push_back(j);
        });
      }
      if (next.empty()) break;
      layer.swap(next);
    }
    for (const auto k : members) s.mark[static_cast<std::size_t>(k)] = 0;
    return *std::min_element(layer.begin(), layer.end(), [&](std::int32_t a, std::int32_t b) {
      const auto ua = static_cast<std::size_t>(a);
      const auto ub = static_cast<std::size_t>(b);
      if (s.rest[ua] != s.rest[ub]) return s.rest[ua] > s.rest[ub];
      return s.ranks[ua] < s.ranks[ub];
    });
  }

  // Exchanges between the two halves (part a and b) of `members` that lower the traffic between
  // them, keeping their sizes: each half's ranks ranked by the gain of moving to the other half
  // (traffic there - traffic in their own), the best of each side paired while their gains add
  // up to more than nothing, a pair exchanged if its exact gain (now, less twice their own
  // traffic) is positive. At most kRefinePasses passes, fewer when one exchanges nothing.
  void refine(Split& s, const std::vector<std::int32_t>& members, std::int32_t a,
              std::int32_t b) const {
    struct Candidate {
      Wide gain;
      std::int32_t k;
    };
    auto move_gain = [&](std::int32_t k) {
      const auto own = s.part[static_cast<std::size_t>(k)];
      Wide g = 0;
      for_partners(s, k, [&](std::int32_t j, std::uint64_t w) {
        const auto pj = s.part[static_cast<std::size_t>(j)];
        if (pj == a || pj == b) g += pj == own ? -static_cast<Wide>(w) : static_cast<Wide>(w);
      });
      return g;
    };
    auto between = [&](std::int32_t x, std::int32_t y) -> Wide {
      const auto partners = p_.graph.neighbors(s.ranks[static_cast<std::size_t>(x)]);
      const Rank ry = s.ranks[static_cast<std::size_t>(y)];
      const auto it = std::lower_bound(partners.begin(), partners.end(), ry,
                                       [](const Neighbor& nb, Rank r) { return nb.rank < r; });
      return it != partners.end() && it->rank == ry ? static_cast<Wide>(weight(*it)) : 0;
    };
    auto by_gain = [&](const Candidate& x, const Candidate& y) {
      if (x.gain != y.gain) return x.gain > y.gain;
      return x.k < y.k;
    };
    std::vector<Candidate> side[2];
    for (int pass = 0; pass < kRefinePasses; ++pass) {
      side[0].clear();
      side[1].clear();
      for (const auto k : members) {
        const Wide g = move_gain(k);
        side[s.part[static_cast<std::size_t>(k)] == a ? 0 : 1].push_back({g, k});
      }
      std::sort(side[0].begin(), side[0].end(), by_gain);
      std::sort(side[1].begin(), side[1].end(), by_gain);
      bool any = false;
      for (std::size_t i = 0, j = 0;
           i < side[0].size() && j < side[1].size() && side[0][i].gain + side[1][j].gain > 0;
           ++i, ++j) {
        const auto x = side[0][i].k;
        const auto y = side[1][j].k;
        if (move_gain(x) + move_gain(y) - 2 * between(x, y) <= 0) continue;
        s.part[static_cast<std::size_t>(x)] = b;
        s.part[static_cast<std::size_t>(y)] = a;
        any = true;
      }
      if (!any) break;
    }
  }

  // The machine's own levels where they are its shape (fat-trees, dragonflies, Cascade, Slurm
  // trees, and some of their nodes), else the nested boxes of the grid of the machine under any
  // subsets, restricted to the nodes.
  static Hierarchy machine_tree(const topo::Topology& topology) {
    const RootView view = root_view(topology);
    if (view.machine->prefix_blocks() || !view.machine->has_grid()) return Hierarchy(topology);
    return Hierarchy(topology.node_count(), box_levels(*view.machine, view.nodes));
  }

  const Problem& p_;
  Hierarchy tree_;
  std::vector<int> level_;           // per rank: the tree level of its current vertex
  std::vector<std::int32_t> owner_;  // per rank: its current vertex (its node at level 0)
  std::vector<std::int32_t> next_;   // per rank: its vertex one level down
  std::vector<std::int32_t> local_;  // per rank: its index among its vertex's ranks
};

class TreeMatch final : public Mapper {
 protected:
  topo::Mapping compute(const Problem& p) const override { return TreeMatchRun(p).run(); }
};

}  // namespace

std::unique_ptr<Mapper> make_treematch(const ParamValues&) {
  return std::make_unique<TreeMatch>();
}

}  // namespace mapsim::map
