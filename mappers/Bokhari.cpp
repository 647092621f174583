// bokhari — Bokhari's MAPPER (IEEE ToC C-30(3), 1981) as the HAEC thesis lists it (Algorithm 1,
// sec. 3.1; docs/references.md):
//
//   B <- M; done <- false
//   while not done:
//     repeat
//       improved <- false
//       for each u in V_p: examine the exchange of u with every v != u; take the pair of largest
//         gain; exchange it if the gain >= 0; improved <- true if the gain > 0
//     until not improved
//     if |M| < |B|: done   else: B <- M; randomly interchange n pairs in M
//   return B
//
// On hierarchical machines two nodes are adjacent (hops <= 1) when they share a leaf switch or
// router. The objective is the cardinality |M| (SearchObjective.hpp), or hop-bytes with
// objective=hop-bytes (then "|M| < |B|" reads "M has more hop-bytes than B"), or the traffic
// energy with objective=energy, or messages x route latency with objective=latency (likewise),
// or one of `best`'s link objectives with objective=congestion, congestion-smooth or hybrid:
// their lexicographic costs (LocalSearch.hpp), every core evaluated exactly (GoalSearch below).
// The initial mapping is `sweep`, as in the thesis (in-order, the same order, on a machine without
// a grid: a Slurm cluster). n, the number of random interchanges of a jump, is the side of
// Bokhari's n x n array: round(sqrt(ranks)) (jump-pairs overrides it).
//
// Resolved here: ties go to the lowest slot (core) of the partner. When the machine has more
// cores than ranks, idle cores take part as processes without traffic (the usual padding of
// |V_p| up to |V_t|), so "exchanging" u with an idle core moves u there; the loop over u visits
// the ranks (an idle core has nothing to gain by itself). A jump interchanges a random rank with
// a random other core. "done" is tested with '<' as listed, so equal cardinality goes on jumping;
// since that may never end on a plateau, max-jumps bounds the jumps, and time-limit (0: none)
// stops the search on the wall clock (the result then depends on the machine's speed).
//
// Speed: with the cardinality, exchanging u (on node x) with the occupant v of a core on node y
// gains a_u(y) - c_u + a_v(x) - c_v - 2 [u ~ v] (1 - [y near x]), where a_w(z) counts w's
// partners near z and c_w = a_w(f(w)). a_u(y) = 0 unless y is near a partner of u, and a_v(x) = 0
// unless v has a partner near x, so only those cores (and u's partners) are evaluated exactly;
// every other core gains -c_u - c_v, and the best of them is the lowest core in the lowest
// non-empty bucket of c. With hop-bytes every core is evaluated, in parallel (deterministic
// arg-max). When those cores are many (FT's all-to-alls; the HAEC Box, where a node is
// adjacent to the whole boards above and below) the cardinality search keeps instead a table of
// a_w(z) for every rank w and node z, and evaluates every core from it, in parallel; both ways
// give the same exchanges. The table splits each near set N(z) (z and its adjacent nodes) into
// whole blocks G(z) and explicit nodes E(z) (NearBlocks.hpp: the boards of the HAEC Box, the
// side routers of Tianhe-3, single nodes on meshes and tori):
//   a_w(z) = L_w(z) + sum over g in G(z) of Q_w(g)
//   L_w(z) = w's partners on the nodes of E(z)   (nodes x ranks, if some E(z) is not empty)
//   Q_w(g) = w's partners on the nodes of block g (blocks x ranks, if some G(z) is not empty)
// and c_w for every rank. A partner of w moving from x to y updates L at the nodes z with x or y
// in E(z) and Q at the blocks of x and y (if they differ): 2 x (|E| + 1) entries instead of
// 2 x |N| (HAEC Box 16x16x16: 12 instead of 1034; Tianhe-3: 2, E being empty); c of the mover's
// partners follows from whether they are near x and y. A gain then reads a_u(y) and a_v(x),
// 1 + |G| entries each (HAEC Box: 3; Tianhe-3: 1), and c_v. The tables are kept by node (block),
// contiguous in the ranks, so that a move's updates and a scan's a_v(x) walk a few rows.
// table=auto uses the table when a rank's degree x (1 + adjacent nodes) is at least an eighth of
// the cores, and its entries are at most 2^26 (256 MiB); see use_table.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "mappers/GoalCosts.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/MappingScore.hpp"
#include "mappers/NearBlocks.hpp"
#include "mappers/NodeNeighbors.hpp"
#include "mappers/Placement.hpp"
#include "mappers/SearchFactories.hpp"
#include "mappers/SearchObjective.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;
using Clock = std::chrono::steady_clock;

constexpr ParamSpec kBokhariParams[] = {
    {"objective", ParamType::Choice, "cardinality",
     "what the exchanges optimise: Bokhari's cardinality (pairs on adjacent nodes), hop-bytes, "
     "the traffic energy (energy), messages x route latency (latency), the busiest link in "
     "seconds (congestion), sum of load^2/bandwidth (congestion-smooth) or hybrid (`best`'s "
     "objectives)",
     0, 0, "cardinality|hop-bytes|energy|latency|congestion|congestion-smooth|hybrid"},
    {"jump-pairs", ParamType::Integer, "0",
     "random interchanges per probabilistic jump; 0: round(sqrt(ranks)), Bokhari's n", 0, 1000000},
    {"max-jumps", ParamType::Integer, "50", "most probabilistic jumps before stopping", 0, 1000000},
    {"time-limit", ParamType::Real, "0",
     "wall-clock seconds, 0 for none (when it strikes the result depends on the machine's speed)",
     0, 1e9},
    {"table", ParamType::Choice, "auto",
     "cardinality: a table of partners near each node (by whole blocks of near nodes), O(1) "
     "gains (auto: when the cores near partners are many, e.g. all-to-alls or the HAEC Box)",
     0, 0, "auto|on|off"},
};

struct Choice {
  std::int64_t gain = std::numeric_limits<std::int64_t>::min();
  Slot slot = std::numeric_limits<Slot>::max();

  [[nodiscard]] bool better_than(const Choice& o) const {
    return gain > o.gain || (gain == o.gain && slot < o.slot);
  }
};

class Search {
 public:
  /// `table` ("auto", "on", "off"): keep a_w(z) for every rank w and node z (cardinality only).
  Search(const Problem& p, Objective objective, Placement placement, std::string_view table)
      : p_(p),
        objective_(objective),
        placement_(std::move(placement)),
        inputs_(objective, p.graph, p.topology, p.links),
        cost_(objective_cost(objective, inputs_.graph(), p.topology, placement_.nodes(),
                             inputs_.distance())) {
    if (objective_ == Objective::Cardinality) {
      neighbors_ = std::make_unique<NodeNeighbors>(p.topology, 0);
      if (table != "off") blocks_ = std::make_unique<NearBlocks>(p.topology, *neighbors_);
    }
    if (objective_ == Objective::Cardinality && use_table(table)) {
      table_ = true;
      ranks_ = static_cast<std::size_t>(p.ranks());
      const auto nodes = static_cast<std::size_t>(p.topology.node_count());
      if (blocks_->any_explicit()) near_explicit_.assign(nodes * ranks_, 0);
      if (blocks_->any_whole())
        in_block_.assign(static_cast<std::size_t>(blocks_->block_count()) * ranks_, 0);
      own_.assign(ranks_, 0);
      block_u_.assign(in_block_.empty() ? 0 : static_cast<std::size_t>(blocks_->block_count()), 0);
      from_mark_.assign(nodes, 0);
      to_mark_.assign(nodes, 0);
      partner_mark_.assign(ranks_, 0);
      near_mark_.assign(nodes, 0);
      for (Rank w = 0; w < p.ranks(); ++w) shift_partners(w, placement_.node(w), +1, true);
      for (Rank w = 0; w < p.ranks(); ++w)
        own_[static_cast<std::size_t>(w)] = static_cast<std::int32_t>(a(w, placement_.node(w)));
    } else if (objective_ == Objective::Cardinality) {
      count_.assign(static_cast<std::size_t>(p.ranks()), 0);
      buckets_.resize(static_cast<std::size_t>(p.graph.max_degree()) + 1);
      stamp_.assign(static_cast<std::size_t>(placement_.slot_count()), 0);
      for (Rank r = 0; r < p.ranks(); ++r)
        count_[static_cast<std::size_t>(r)] = near_partners(r, placement_.node(r));
      for (Slot s = 0; s < placement_.slot_count(); ++s) buckets_[bucket_of(s)].insert(s);
    }
  }

  [[nodiscard]] std::int64_t cost() const { return cost_; }
  [[nodiscard]] const Placement& placement() const { return placement_; }

  /// Examines u: makes its exchange of largest gain if that gain is >= 0. Returns whether the
  /// cost went down.
  bool step(Rank u) {
    const Choice choice = best_exchange(u);
    if (choice.slot == std::numeric_limits<Slot>::max() || choice.gain < 0) return false;
    exchange(u, choice.slot, choice.gain);
    return choice.gain > 0;
  }

  /// The exchange of u with the largest gain (ties: the lowest core).
  [[nodiscard]] Choice best_exchange(Rank u) {
    if (table_) return best_by_table(u);
    return objective_ == Objective::Cardinality ? best_by_cardinality(u) : best_by_hop_bytes(u);
  }

  void exchange(Rank u, Slot s, std::int64_t gain) {
    const Rank v = placement_.occupant(s);
    if (table_) {
      const NodeId x = placement_.node(u);
      const NodeId y = placement_.node_of_slot(s);
      placement_.exchange(placement_.slot(u), s);
      cost_ -= gain;
      if (x == y) return;
      move_partners(u, x, y, v);
      if (v != -1) {
        move_partners(v, y, x, u);
        own_[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(a(v, x));
      }
      own_[static_cast<std::size_t>(u)] = static_cast<std::int32_t>(a(u, y));
      return;
    }
    if (objective_ == Objective::Cardinality) {
      detach(placement_.slot(u));
      detach(s);
    }
    placement_.exchange(placement_.slot(u), s);
    cost_ -= gain;
    if (objective_ != Objective::Cardinality) return;
    buckets_[bucket_of(placement_.slot(u))].insert(placement_.slot(u));
    buckets_[bucket_of(s)].insert(s);
    // Partners of u and v (and u and v) may have gained or lost partners nearby.
    auto recount = [&](Rank r) {
      const Slot at = placement_.slot(r);
      detach(at);
      count_[static_cast<std::size_t>(r)] = near_partners(r, placement_.node(r));
      buckets_[bucket_of(at)].insert(at);
    };
    recount(u);
    for (const auto& nb : inputs_.graph().neighbors(u)) recount(nb.rank);
    if (v != -1) {
      recount(v);
      for (const auto& nb : inputs_.graph().neighbors(v)) recount(nb.rank);
    }
  }

  /// A probabilistic jump's interchange, keeping the cost exact.
  void interchange(Rank u, Slot s) {
    const auto nodes = placement_.nodes();
    const Rank v = placement_.occupant(s);
    const std::int64_t delta =
        v == -1 ? move_cost_delta(objective_, inputs_.graph(), p_.topology, nodes, u,
                                  placement_.node_of_slot(s), inputs_.distance())
                : swap_cost_delta(objective_, inputs_.graph(), p_.topology, nodes, u, v,
                                  inputs_.distance());
    exchange(u, s, -delta);
  }

 private:
  // The table pays when the cores evaluated exactly without it, each in O(deg) (about
  // deg x (1 + adjacent nodes) per rank), are a good part of all cores, which it evaluates in
  // O(1 + |G|): dense matrices, or the HAEC Box, where a node is adjacent to the whole boards
  // above and below; and when it fits (2^26 entries). Its updates, O(deg x (1 + |E|)) per move,
  // no longer grow with the adjacent nodes and weigh little beside the scan. Measured with the
  // NPB matrices (bench/mapping_quality_bench, table=on vs off, the same mappings), the two ways
  // break even between deg x (1 + adjacent) = cores / 8 and cores / 18: LU.C.512 on Tianhe-3
  // 4x4:nodes=32, at cores / 8, 0.017 s with the table, 0.013 s without; CG.C.512 on the torus
  // 8x8x8, at cores / 12, 0.15 s vs 0.18 s; CG.D.4096 on Tianhe-3 8x8:nodes=64, at cores / 18,
  // 10.7 s vs 8.1 s; BT.C.256 on Tianhe-3 4x4:nodes=16, at cores / 5, 0.005 s vs 0.03 s.
  [[nodiscard]] bool use_table(std::string_view mode) const {
    if (mode != "auto") return mode == "on";
    const auto ranks = static_cast<std::size_t>(p_.ranks());
    const auto nodes = static_cast<std::size_t>(p_.topology.node_count());
    const std::size_t rows =
        (blocks_->any_explicit() ? nodes : 0) +
        (blocks_->any_whole() ? static_cast<std::size_t>(blocks_->block_count()) : 0);
    if (ranks * rows > (std::size_t{1} << 26)) return false;
    std::size_t adjacent = 0;
    for (NodeId z = 0; z < p_.topology.node_count(); ++z)
      adjacent += neighbors_->adjacent(z).size();
    const std::size_t entries = 2 * inputs_.graph().edge_count();  // sum of degrees
    // deg x (1 + adjacent / nodes) >= slots / 8, in integers.
    return 8 * entries * (nodes + adjacent) >=
           ranks * nodes * static_cast<std::size_t>(placement_.slot_count());
  }

  // Table: w arrives at node `at` (by = +1) or leaves it (-1), seen by its partners at the
  // nodes z with `at` in E(z) and, if `with_block`, at the block of `at`: a row of a table each,
  // contiguous in the partners.
  void shift_partners(Rank w, NodeId at, std::int32_t by, bool with_block) {
    const auto partners = inputs_.graph().neighbors(w);
    auto shift_row = [&](std::int32_t* row) {
      for (const auto& nb : partners) row[static_cast<std::size_t>(nb.rank)] += by;
    };
    if (!near_explicit_.empty()) {
      for (const NodeId z : blocks_->explicit_in(at))
        shift_row(near_explicit_.data() + static_cast<std::size_t>(z) * ranks_);
    }
    if (with_block && !in_block_.empty())
      shift_row(in_block_.data() + static_cast<std::size_t>(blocks_->block(at)) * ranks_);
  }
  // Table: w went from node `from` to node `to`; c of its partners but `other` (which moves
  // too, and is read afresh afterwards) follows.
  void move_partners(Rank w, NodeId from, NodeId to, Rank other) {
    const bool other_block = blocks_->block(from) != blocks_->block(to);
    shift_partners(w, from, -1, other_block);
    shift_partners(w, to, +1, other_block);
    ++moves_;
    from_mark_[static_cast<std::size_t>(from)] = moves_;
    for (const NodeId z : neighbors_->adjacent(from))
      from_mark_[static_cast<std::size_t>(z)] = moves_;
    to_mark_[static_cast<std::size_t>(to)] = moves_;
    for (const NodeId z : neighbors_->adjacent(to)) to_mark_[static_cast<std::size_t>(z)] = moves_;
    for (const auto& nb : inputs_.graph().neighbors(w)) {
      if (nb.rank == other) continue;
      const auto at = static_cast<std::size_t>(placement_.node(nb.rank));
      own_[static_cast<std::size_t>(nb.rank)] +=
          (to_mark_[at] == moves_ ? 1 : 0) - (from_mark_[at] == moves_ ? 1 : 0);
    }
  }
  // a_w(z) = L_w(z) + the sum of Q_w(g) over the blocks g of G(z).
  [[nodiscard]] std::int64_t a(Rank w, NodeId z) const {
    const auto column = static_cast<std::size_t>(w);
    std::int64_t count = 0;
    if (!near_explicit_.empty())
      count = near_explicit_[static_cast<std::size_t>(z) * ranks_ + column];
    if (in_block_.empty()) return count;
    for (const std::int32_t g : blocks_->whole_blocks(z))
      count += in_block_[static_cast<std::size_t>(g) * ranks_ + column];
    return count;
  }

  // Every core, each gain in O(1) from the table (see the top of the file): a_v(x) from the
  // table's rows at x (contiguous in v), c_v from own_.
  Choice best_by_table(Rank u) {
    const Slot own = placement_.slot(u);
    const NodeId x = placement_.node(u);
    ++current_;
    for (const auto& nb : inputs_.graph().neighbors(u))
      partner_mark_[static_cast<std::size_t>(nb.rank)] = current_;
    near_mark_[static_cast<std::size_t>(x)] = current_;
    for (const NodeId z : neighbors_->adjacent(x))
      near_mark_[static_cast<std::size_t>(z)] = current_;
    if (!in_block_.empty()) {
      for (std::size_t g = 0; g < block_u_.size(); ++g)
        block_u_[g] = in_block_[g * ranks_ + static_cast<std::size_t>(u)];
    }
    const std::int32_t* explicit_at_x =
        near_explicit_.empty() ? nullptr
                               : near_explicit_.data() + static_cast<std::size_t>(x) * ranks_;
    const auto whole_at_x = blocks_->whole_blocks(x);
    const std::int64_t c_u = own_[static_cast<std::size_t>(u)];
    return best_core(own, [&](Slot s) {
      const NodeId y = placement_.node_of_slot(s);
      std::int64_t gain = 0;
      if (y != x) {
        std::int64_t a_u_y = near_explicit_.empty()
                                 ? 0
                                 : near_explicit_[static_cast<std::size_t>(y) * ranks_ +
                                                  static_cast<std::size_t>(u)];
        for (const std::int32_t g : blocks_->whole_blocks(y))
          a_u_y += block_u_[static_cast<std::size_t>(g)];
        gain = a_u_y - c_u;
        const Rank v = placement_.occupant(s);
        if (v != -1) {
          const auto column = static_cast<std::size_t>(v);
          std::int64_t a_v_x = explicit_at_x == nullptr ? 0 : explicit_at_x[column];
          for (const std::int32_t g : whole_at_x)
            a_v_x += in_block_[static_cast<std::size_t>(g) * ranks_ + column];
          gain += a_v_x - own_[column];
          if (partner_mark_[column] == current_ &&
              near_mark_[static_cast<std::size_t>(y)] != current_)
            gain -= 2;
        }
      }
      return gain;
    });
  }

  // The core s != own of largest gain(s) (ties: the lowest), in parallel on large machines.
  template <typename Gain>
  Choice best_core(Slot own, const Gain& gain) const {
    auto scan = [&](Slot begin, Slot end, Choice best) {
      for (Slot s = begin; s < end; ++s) {
        if (s == own) continue;
        const Choice c{gain(s), s};
        if (c.better_than(best)) best = c;
      }
      return best;
    };
    const Slot slots = placement_.slot_count();
    if (slots < 512) return scan(0, slots, Choice{});
    return tbb::parallel_reduce(
        tbb::blocked_range<Slot>(0, slots, 256), Choice{},
        [&](const tbb::blocked_range<Slot>& r, Choice best) {
          return scan(r.begin(), r.end(), best);
        },
        [](const Choice& l, const Choice& r) { return l.better_than(r) ? l : r; });
  }

  [[nodiscard]] std::int64_t near_partners(Rank r, NodeId at) const {
    std::int64_t count = 0;
    for (const auto& nb : inputs_.graph().neighbors(r))
      count += p_.topology.hops(at, placement_.node(nb.rank)) <= 1 ? 1 : 0;
    return count;
  }
  [[nodiscard]] std::size_t bucket_of(Slot s) const {
    const Rank r = placement_.occupant(s);
    return r == -1 ? 0 : static_cast<std::size_t>(count_[static_cast<std::size_t>(r)]);
  }
  void detach(Slot s) { buckets_[bucket_of(s)].erase(s); }

  [[nodiscard]] std::int64_t exact_gain(Rank u, Slot s) const {
    const auto nodes = placement_.nodes();
    const Rank v = placement_.occupant(s);
    if (v == -1) {
      return -move_cost_delta(objective_, inputs_.graph(), p_.topology, nodes, u,
                              placement_.node_of_slot(s), inputs_.distance());
    }
    return -swap_cost_delta(objective_, inputs_.graph(), p_.topology, nodes, u, v,
                            inputs_.distance());
  }

  Choice best_by_cardinality(Rank u) {
    ++current_;
    const Slot own = placement_.slot(u);
    Choice best;
    auto consider = [&](Slot s) {
      if (s == own || stamp_[static_cast<std::size_t>(s)] == current_) return;
      stamp_[static_cast<std::size_t>(s)] = current_;
      const Choice c{exact_gain(u, s), s};
      if (c.better_than(best)) best = c;
    };
    auto consider_node = [&](NodeId y) {
      for (Slot s = placement_.first_slot(y); s < placement_.first_slot(y) + placement_.cores();
           ++s)
        consider(s);
    };
    for (const auto& nb : inputs_.graph().neighbors(u)) {
      consider(placement_.slot(nb.rank));
      const NodeId fl = placement_.node(nb.rank);
      consider_node(fl);
      for (const NodeId y : neighbors_->adjacent(fl)) consider_node(y);
    }
    auto partners_near = [&](NodeId y) {
      for (Slot s = placement_.first_slot(y); s < placement_.first_slot(y) + placement_.cores();
           ++s) {
        const Rank w = placement_.occupant(s);
        if (w == -1) continue;
        for (const auto& nb : inputs_.graph().neighbors(w)) consider(placement_.slot(nb.rank));
      }
    };
    const NodeId x = placement_.node(u);
    partners_near(x);
    for (const NodeId y : neighbors_->adjacent(x)) partners_near(y);
    // Every other core gains -c_u - c_v: the lowest core of the lowest bucket.
    const std::int64_t own_count = count_[static_cast<std::size_t>(u)];
    for (std::size_t c = 0; c < buckets_.size(); ++c) {
      bool found = false;
      for (const Slot s : buckets_[c]) {
        if (s == own || stamp_[static_cast<std::size_t>(s)] == current_) continue;
        const Choice other{-own_count - static_cast<std::int64_t>(c), s};
        if (other.better_than(best)) best = other;
        found = true;
        break;
      }
      if (found) break;
    }
    return best;
  }

  Choice best_by_hop_bytes(Rank u) {
    return best_core(placement_.slot(u), [&](Slot s) { return exact_gain(u, s); });
  }

  const Problem& p_;
  Objective objective_;
  Placement placement_;
  ObjectiveInputs inputs_;  // the graph (latency: its messages) and distance
  std::int64_t cost_;
  // Cardinality only.
  std::unique_ptr<NodeNeighbors> neighbors_;
  std::vector<std::int64_t> count_;      // c_r: partners of r near r
  std::vector<std::set<Slot>> buckets_;  // cores by the count of their occupant (idle: 0)
  std::vector<std::uint32_t> stamp_;     // cores already evaluated for the current u
  std::uint32_t current_ = 0;
  // Cardinality with the table.
  std::unique_ptr<NearBlocks> blocks_;
  bool table_ = false;
  std::size_t ranks_ = 0;
  std::vector<std::int32_t> near_explicit_;  // L_w(z) at z * ranks_ + w (if some E(z) is not empty)
  std::vector<std::int32_t> in_block_;       // Q_w(g) at g * ranks_ + w (if some G(z) is not empty)
  std::vector<std::int32_t> own_;            // c_w = a_w(f(w))
  std::vector<std::int32_t> block_u_;        // Q_u(g) for the rank u examined
  std::vector<std::uint32_t> from_mark_;     // == moves_: near the node a rank leaves
  std::vector<std::uint32_t> to_mark_;       // == moves_: near the node a rank goes to
  std::uint32_t moves_ = 0;
  std::vector<std::uint32_t> partner_mark_;  // == current_: a partner of the rank examined
  std::vector<std::uint32_t> near_mark_;     // == current_: near the node of the rank examined
};

// The exchanges under a link objective (congestion, congestion-smooth, hybrid: `best`'s costs,
// GoalCosts.hpp): every core is evaluated exactly from the link loads, O(deg x route links x
// log links) each, in parallel (GoalReplicas: the same choices at any thread count). The gain
// of an exchange is the drop of the lexicographic cost; ties go to the lowest core.
class GoalSearch {
 public:
  GoalSearch(const Problem& p, SearchGoal goal, const Placement& placement,
             std::span<const NodeId> reference)
      : setup_(goal, p.graph, p.topology, reference), copies_(setup_.space(), goal, placement) {}

  [[nodiscard]] SearchCost cost() const { return copies_.cost(); }
  [[nodiscard]] const Placement& placement() const { return copies_.placement(); }

  bool step(Rank u) {
    const Slot own = placement().slot(u);
    const SearchCost now = cost();
    const GoalCandidate best =
        copies_.least(static_cast<std::size_t>(placement().slot_count()),
                      [own](GoalCost& cost, const Placement& at, std::size_t k,
                            GoalCandidate& found, std::uint64_t& work) {
                        const auto s = static_cast<Slot>(k);
                        if (s != own) found.offer(cost.after(at, own, s, work), k);
                      });
    if (best.key == GoalCandidate::kNone || now < best.after) return false;
    copies_.commit(own, static_cast<Slot>(best.key), best.after);
    return best.after < now;
  }

  void interchange(Rank u, Slot s) {
    const Slot own = placement().slot(u);
    copies_.commit(own, s, copies_.after(own, s));
  }

 private:
  GoalSetup setup_;
  GoalReplicas copies_;
};

class Bokhari final : public Mapper {
 public:
  explicit Bokhari(const ParamValues& params)
      : word_(params.text("objective")),
        jump_pairs_(params.integer("jump-pairs")),
        max_jumps_(params.integer("max-jumps")),
        time_limit_(params.real("time-limit")),
        table_(params.text("table")) {}

  [[nodiscard]] bool weighs_link_energy() const override { return word_ == "energy"; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const auto start = sweep_or_in_order(p.matrix, p.topology, p.seed);
    if (MappingScorer::links(word_)) {
      const SearchGoal goal = parse_search_goal(word_);
      const auto in_order =
          GoalSetup::needs_reference(goal) ? reference(word_, p) : std::vector<NodeId>{};
      GoalSearch search(p, goal, Placement(p.topology, start.nodes()), in_order);
      return jumps(p, search);
    }
    Search search(p, parse_objective(word_), Placement(p.topology, start.nodes()), table_);
    return jumps(p, search);
  }

 private:
  // Bokhari's loop (the top of the file) over either search.
  template <typename AnySearch>
  topo::Mapping jumps(const Problem& p, AnySearch& search) const {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(time_limit_));
    auto out_of_time = [&] { return time_limit_ > 0 && Clock::now() >= deadline; };
    const std::int64_t pairs =
        jump_pairs_ > 0
            ? jump_pairs_
            : std::max<std::int64_t>(1, std::llround(std::sqrt(static_cast<double>(p.ranks()))));
    Random random(p.seed);
    std::vector<NodeId> best(search.placement().nodes().begin(), search.placement().nodes().end());
    auto best_cost = search.cost();
    for (std::int64_t jumps = 0;; ++jumps) {
      bool improved = true;
      while (improved && !out_of_time()) {
        improved = false;
        for (Rank u = 0; u < p.ranks() && !out_of_time(); ++u) {
          if (search.step(u)) improved = true;
        }
      }
      if (best_cost < search.cost()) break;  // |M| < |B|: done
      const auto nodes = search.placement().nodes();
      best.assign(nodes.begin(), nodes.end());
      best_cost = search.cost();
      if (jumps == max_jumps_ || out_of_time()) break;
      const auto slots = static_cast<std::uint64_t>(search.placement().slot_count());
      if (slots < 2) break;
      for (std::int64_t k = 0; k < pairs; ++k) {
        const auto u = static_cast<Rank>(random.below(static_cast<std::uint64_t>(p.ranks())));
        auto s = static_cast<Slot>(random.below(slots - 1));
        if (s >= search.placement().slot(u)) ++s;  // any core but u's own
        search.interchange(u, s);
      }
    }
    return topo::Mapping(std::move(best));
  }

  std::string word_;  // the objective
  std::int64_t jump_pairs_;
  std::int64_t max_jumps_;
  double time_limit_;
  std::string table_;
};

}  // namespace

std::span<const ParamSpec> bokhari_params() {
  return kBokhariParams;
}
std::unique_ptr<Mapper> make_bokhari(const ParamValues& params) {
  return std::make_unique<Bokhari>(params);
}

}  // namespace mapsim::map
