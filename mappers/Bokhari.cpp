// bokhari — Bokhari's MAPPER (IEEE ToC C-30(3), 1981) as the HAEC thesis lists it (Algorithm 1,
// sec. 3.1; ../shared/seeds/haec-mapping-thesis.txt):
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
// The objective is the cardinality |M| (SearchObjective.hpp), or hop-bytes with
// objective=hop-bytes (then "|M| < |B|" reads "M has more hop-bytes than B"). The initial mapping
// is `sweep`, as in the thesis. n, the number of random interchanges of a jump, is the side of
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
// a_w(z) for every rank w and node z (table=auto: when a rank's degree x (1 + adjacent nodes)
// is at least an eighth of the cores, and ranks x nodes <= 2^26: 256 MiB), updated in
// O(deg x adjacent) per move, and evaluates every core in O(1), in parallel; both ways give the
// same exchanges.

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
     "what the exchanges optimise: Bokhari's cardinality (pairs on adjacent nodes) or hop-bytes", 0,
     0, "cardinality|hop-bytes"},
    {"jump-pairs", ParamType::Integer, "0",
     "random interchanges per probabilistic jump; 0: round(sqrt(ranks)), Bokhari's n", 0, 1000000},
    {"max-jumps", ParamType::Integer, "50", "most probabilistic jumps before stopping", 0, 1000000},
    {"time-limit", ParamType::Real, "0",
     "wall-clock seconds, 0 for none (when it strikes the result depends on the machine's speed)",
     0, 1e9},
    {"table", ParamType::Choice, "auto",
     "cardinality: a ranks x nodes table of partners near each node, O(1) gains (auto: when "
     "the cores near partners are many, e.g. all-to-alls or the HAEC Box)",
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
        cost_(objective_cost(objective, p.graph, p.topology, placement_.nodes())) {
    if (objective_ == Objective::Cardinality)
      neighbors_ = std::make_unique<NodeNeighbors>(p.topology, 0);
    if (objective_ == Objective::Cardinality && use_table(table)) {
      nodes_ = static_cast<std::size_t>(p.topology.node_count());
      near_count_.assign(static_cast<std::size_t>(p.ranks()) * nodes_, 0);
      partner_mark_.assign(static_cast<std::size_t>(p.ranks()), 0);
      near_mark_.assign(nodes_, 0);
      tbb::parallel_for(Rank{0}, p.ranks(), [&](Rank w) {
        for (const auto& nb : p.graph.neighbors(w)) shift_near(w, placement_.node(nb.rank), +1);
      });
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

  /// The exchange of u with the largest gain (ties: the lowest core).
  [[nodiscard]] Choice best_exchange(Rank u) {
    if (!near_count_.empty()) return best_by_table(u);
    return objective_ == Objective::Cardinality ? best_by_cardinality(u) : best_by_hop_bytes(u);
  }

  void exchange(Rank u, Slot s, std::int64_t gain) {
    const Rank v = placement_.occupant(s);
    if (!near_count_.empty()) {
      const NodeId x = placement_.node(u);
      const NodeId y = placement_.node_of_slot(s);
      placement_.exchange(placement_.slot(u), s);
      cost_ -= gain;
      if (x == y) return;
      for (const auto& nb : p_.graph.neighbors(u)) {
        shift_near(nb.rank, x, -1);
        shift_near(nb.rank, y, +1);
      }
      if (v == -1) return;
      for (const auto& nb : p_.graph.neighbors(v)) {
        shift_near(nb.rank, y, -1);
        shift_near(nb.rank, x, +1);
      }
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
    for (const auto& nb : p_.graph.neighbors(u)) recount(nb.rank);
    if (v != -1) {
      recount(v);
      for (const auto& nb : p_.graph.neighbors(v)) recount(nb.rank);
    }
  }

  /// A probabilistic jump's interchange, keeping the cost exact.
  void interchange(Rank u, Slot s) {
    const auto nodes = placement_.nodes();
    const Rank v = placement_.occupant(s);
    const std::int64_t delta =
        v == -1 ? move_cost_delta(objective_, p_.graph, p_.topology, nodes, u,
                                  placement_.node_of_slot(s))
                : swap_cost_delta(objective_, p_.graph, p_.topology, nodes, u, v);
    exchange(u, s, -delta);
  }

 private:
  // The table pays when the cores evaluated exactly without it (about deg x (1 + adjacent
  // nodes) per rank) are a good part of all cores: dense matrices, or the HAEC Box, where a
  // node is adjacent to the whole boards above and below; and when it fits (2^26 entries).
  [[nodiscard]] bool use_table(std::string_view mode) const {
    if (mode != "auto") return mode == "on";
    const auto ranks = static_cast<std::size_t>(p_.ranks());
    const auto nodes = static_cast<std::size_t>(p_.topology.node_count());
    if (ranks * nodes > (std::size_t{1} << 26)) return false;
    std::size_t adjacent = 0;
    for (NodeId z = 0; z < p_.topology.node_count(); ++z)
      adjacent += neighbors_->adjacent(z).size();
    const std::size_t entries = 2 * p_.graph.edge_count();  // sum of degrees
    // deg x (1 + adjacent / nodes) >= slots / 8, in integers.
    return 8 * entries * (nodes + adjacent) >=
           ranks * nodes * static_cast<std::size_t>(placement_.slot_count());
  }

  // Table: a partner of w is at `at` (+1) or left it (-1): the nodes near `at` count it.
  void shift_near(Rank w, NodeId at, std::int32_t by) {
    std::int32_t* row = near_count_.data() + static_cast<std::size_t>(w) * nodes_;
    row[static_cast<std::size_t>(at)] += by;
    for (const NodeId z : neighbors_->adjacent(at)) row[static_cast<std::size_t>(z)] += by;
  }
  [[nodiscard]] std::int64_t a(Rank w, NodeId z) const {
    return near_count_[static_cast<std::size_t>(w) * nodes_ + static_cast<std::size_t>(z)];
  }

  // Every core, each gain in O(1) from the table (see the top of the file).
  Choice best_by_table(Rank u) {
    const Slot own = placement_.slot(u);
    const NodeId x = placement_.node(u);
    ++current_;
    for (const auto& nb : p_.graph.neighbors(u))
      partner_mark_[static_cast<std::size_t>(nb.rank)] = current_;
    near_mark_[static_cast<std::size_t>(x)] = current_;
    for (const NodeId z : neighbors_->adjacent(x))
      near_mark_[static_cast<std::size_t>(z)] = current_;
    const std::int64_t c_u = a(u, x);
    return best_core(own, [&](Slot s) {
      const NodeId y = placement_.node_of_slot(s);
      std::int64_t gain = 0;
      if (y != x) {
        gain = a(u, y) - c_u;
        const Rank v = placement_.occupant(s);
        if (v != -1) {
          gain += a(v, x) - a(v, y);
          if (partner_mark_[static_cast<std::size_t>(v)] == current_ &&
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
    for (const auto& nb : p_.graph.neighbors(r))
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
      return -move_cost_delta(objective_, p_.graph, p_.topology, nodes, u,
                              placement_.node_of_slot(s));
    }
    return -swap_cost_delta(objective_, p_.graph, p_.topology, nodes, u, v);
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
    for (const auto& nb : p_.graph.neighbors(u)) {
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
        for (const auto& nb : p_.graph.neighbors(w)) consider(placement_.slot(nb.rank));
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
  std::int64_t cost_;
  // Cardinality only.
  std::unique_ptr<NodeNeighbors> neighbors_;
  std::vector<std::int64_t> count_;      // c_r: partners of r near r
  std::vector<std::set<Slot>> buckets_;  // cores by the count of their occupant (idle: 0)
  std::vector<std::uint32_t> stamp_;     // cores already evaluated for the current u
  std::uint32_t current_ = 0;
  // Cardinality with the table.
  std::size_t nodes_ = 0;
  std::vector<std::int32_t> near_count_;     // a_w(z) at w * nodes_ + z
  std::vector<std::uint32_t> partner_mark_;  // == current_: a partner of the rank examined
  std::vector<std::uint32_t> near_mark_;     // == current_: near the node of the rank examined
};

class Bokhari final : public Mapper {
 public:
  explicit Bokhari(const ParamValues& params)
      : objective_(parse_objective(params.text("objective"))),
        jump_pairs_(params.integer("jump-pairs")),
        max_jumps_(params.integer("max-jumps")),
        time_limit_(params.real("time-limit")),
        table_(params.text("table")) {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const auto start = make_mapper("sweep")->map(p.matrix, p.topology, p.seed);
    Search search(p, objective_, Placement(p.topology, start.nodes()), table_);
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(time_limit_));
    auto out_of_time = [&] { return time_limit_ > 0 && Clock::now() >= deadline; };
    const std::int64_t pairs =
        jump_pairs_ > 0
            ? jump_pairs_
            : std::max<std::int64_t>(1, std::llround(std::sqrt(static_cast<double>(p.ranks()))));
    Random random(p.seed);
    std::vector<NodeId> best(search.placement().nodes().begin(), search.placement().nodes().end());
    std::int64_t best_cost = search.cost();
    for (std::int64_t jumps = 0;; ++jumps) {
      bool improved = true;
      while (improved && !out_of_time()) {
        improved = false;
        for (Rank u = 0; u < p.ranks() && !out_of_time(); ++u) {
          const Choice choice = search.best_exchange(u);
          if (choice.slot == std::numeric_limits<Slot>::max() || choice.gain < 0) continue;
          search.exchange(u, choice.slot, choice.gain);
          if (choice.gain > 0) improved = true;
        }
      }
      if (search.cost() > best_cost) break;  // |M| < |B|: done
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

 private:
  Objective objective_;
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
