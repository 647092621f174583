#pragma once
// A mapping's cost under a search goal (LocalSearch.hpp), kept exact while the contents of slots
// (a rank and a rank, or a rank and an idle core) are exchanged: the costs of `best`'s local
// search, and of the exchange searches of bokhari and ohtma under the same objective words.
// Each cost class has
//   cost()                     the cost now
//   after(p, a, b, work)       the cost if slots a (a rank) and b were exchanged; `work` grows by
//                              the neighbour terms and route links visited (LocalSearch.hpp's
//                              work units)
//   commit(p, a, b, after, w)  exchanges them in `p` and keeps the cost exact
// GoalCost picks the class of a goal at run time; GoalSetup builds what a goal sums over.
// Internal to mapsim::map.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/LinkLoadTracker.hpp"
#include "mappers/LocalSearch.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/Placement.hpp"
#include "mappers/SearchObjective.hpp"

namespace mapsim::map {

/// The change of hop-bytes (or, kRoute, of the space's distance sum) if the contents of slots a
/// (a rank) and b (a rank or idle) were exchanged; `work` grows by the neighbour terms.
template <bool kRoute>
std::int64_t distance_delta(const SearchSpace& space, const Placement& p, Slot a, Slot b,
                            std::uint64_t& work) {
  const Rank i = p.occupant(a);
  const Rank j = p.occupant(b);
  const auto& g = space.graph();
  const auto& t = space.topology();
  auto change = [&](const auto& distance) {
    if (j == -1) return metrics::move_delta_by(g, distance, p.nodes(), i, p.node_of_slot(b));
    return metrics::swap_delta_by(g, distance, p.nodes(), i, j);
  };
  work += static_cast<std::uint64_t>(g.degree(i)) + 1 +
          (j == -1 ? 0 : static_cast<std::uint64_t>(g.degree(j)));
  if constexpr (kRoute) {
    return change(*space.distance());
  } else if (const RouterHops* table = space.router_hops()) {
    return change(*table);
  } else {
    return change(
        [&](topo::NodeId x, topo::NodeId y) { return static_cast<std::int64_t>(t.hops(x, y)); });
  }
}

/// Hop-bytes, or a distance objective (kRoute: the traffic energy, the latency sum): the same
/// moves, with the hops of the routes or their RouteDistance as the distance.
template <bool kRoute>
class DistanceCost {
 public:
  DistanceCost(const SearchSpace& space, const Placement& placement)
      : space_(space),
        // Energy and latency sum alike over the space's graph with its distance.
        cost_(kRoute ? static_cast<std::uint64_t>(
                           objective_cost(Objective::Energy, space.graph(), space.topology(),
                                          placement.nodes(), space.distance()))
                     : metrics::hop_bytes(space.graph(), space.topology(), placement.nodes())) {}

  [[nodiscard]] SearchCost cost() const { return {cost_, 0}; }

  SearchCost after(const Placement& p, Slot a, Slot b, std::uint64_t& work) {
    const std::int64_t delta = distance_delta<kRoute>(space_, p, a, b, work);
    return {static_cast<std::uint64_t>(static_cast<std::int64_t>(cost_) + delta), 0};
  }

  void commit(Placement& p, Slot a, Slot b, const SearchCost& after, std::uint64_t& /*work*/) {
    p.exchange(a, b);
    cost_ = after.primary;
  }

 private:
  const SearchSpace& space_;
  std::uint64_t cost_;
};
using HopBytesCost = DistanceCost<false>;
using RouteCost = DistanceCost<true>;

/// Congestion (max_l T_l, sum_l T_l^2), or its smooth variant (kSmooth: 0, sum_l T_l L_l).
template <bool kSmooth>
class CongestionCost {
 public:
  CongestionCost(const SearchSpace& space, const Placement& placement)
      : loads_(space.graph(), space.topology(), placement.nodes()) {}

  [[nodiscard]] SearchCost cost() const {
    if constexpr (kSmooth) return {0, loads_.smooth()};
    return {loads_.max_load(), loads_.sum_of_squares()};
  }

  SearchCost after(const Placement& p, Slot a, Slot b, std::uint64_t& work) {
    const Rank i = p.occupant(a);
    const Rank j = p.occupant(b);
    const auto r = loads_.evaluate(p.nodes(), i, p.node_of_slot(b), j, p.node_of_slot(a), work);
    if constexpr (kSmooth) return {0, r.smooth};
    return {r.max, r.sum_of_squares};
  }

  void commit(Placement& p, Slot a, Slot b, const SearchCost& /*after*/, std::uint64_t& work) {
    loads_.apply(p.nodes(), p.occupant(a), p.node_of_slot(b), p.occupant(b), p.node_of_slot(a),
                 work);
    p.exchange(a, b);
  }

 private:
  LinkLoadTracker loads_;
};

/// The hybrid cost (LocalSearch.hpp): the tracker's busiest link and smooth sum, and hop-bytes;
/// kEnergy (time+energy): and the traffic energy over the space's energy distance.
template <bool kEnergy>
class HybridCost {
 public:
  HybridCost(const SearchSpace& space, const Placement& placement)
      : space_(space),
        loads_(space.graph(), space.topology(), placement.nodes()),
        hop_bytes_(metrics::hop_bytes(space.graph(), space.topology(), placement.nodes())),
        energy_(kEnergy ? objective_cost(Objective::Energy, space.graph(), space.topology(),
                                         placement.nodes(), space.distance())
                        : 0) {}

  [[nodiscard]] SearchCost cost() const {
    return {hybrid_cost(space_.hybrid_reference(), loads_.max_load(), loads_.smooth(), hop_bytes_,
                        energy()),
            0};
  }

  SearchCost after(const Placement& p, Slot a, Slot b, std::uint64_t& work) {
    const auto hop_bytes = static_cast<std::uint64_t>(static_cast<std::int64_t>(hop_bytes_) +
                                                      distance_delta<false>(space_, p, a, b, work));
    std::optional<std::int64_t> energy;
    if constexpr (kEnergy) energy = energy_ + distance_delta<true>(space_, p, a, b, work);
    const auto r = loads_.evaluate(p.nodes(), p.occupant(a), p.node_of_slot(b), p.occupant(b),
                                   p.node_of_slot(a), work);
    return {hybrid_cost(space_.hybrid_reference(), r.max, r.smooth, hop_bytes, energy), 0};
  }

  void commit(Placement& p, Slot a, Slot b, const SearchCost& /*after*/, std::uint64_t& work) {
    hop_bytes_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(hop_bytes_) +
                                            distance_delta<false>(space_, p, a, b, work));
    if constexpr (kEnergy) energy_ += distance_delta<true>(space_, p, a, b, work);
    loads_.apply(p.nodes(), p.occupant(a), p.node_of_slot(b), p.occupant(b), p.node_of_slot(a),
                 work);
    p.exchange(a, b);
  }

 private:
  [[nodiscard]] std::optional<std::int64_t> energy() const {
    if constexpr (kEnergy) return energy_;
    return std::nullopt;
  }

  const SearchSpace& space_;
  LinkLoadTracker loads_;
  std::uint64_t hop_bytes_;
  std::int64_t energy_;
};

/// The cost class of `goal`, chosen at run time (the hop-bytes of dense matrices on meshes and
/// tori by the plain class: its per-axis tables are `best`'s alone).
class GoalCost {
 public:
  GoalCost(const SearchSpace& space, SearchGoal goal, const Placement& placement);

  [[nodiscard]] SearchCost cost() const {
    return std::visit([](const auto& c) { return c.cost(); }, cost_);
  }
  SearchCost after(const Placement& p, Slot a, Slot b, std::uint64_t& work) {
    return std::visit([&](auto& c) { return c.after(p, a, b, work); }, cost_);
  }
  void commit(Placement& p, Slot a, Slot b, const SearchCost& after, std::uint64_t& work) {
    std::visit([&](auto& c) { c.commit(p, a, b, after, work); }, cost_);
  }

 private:
  std::variant<HopBytesCost, RouteCost, CongestionCost<false>, CongestionCost<true>,
               HybridCost<false>, HybridCost<true>>
      cost_;
};

/// A candidate exchange found by GoalReplicas::least: the cost after it and its key (the
/// caller's order among equal costs: the lower key wins).
struct GoalCandidate {
  static constexpr std::uint64_t kNone = UINT64_MAX;
  SearchCost after;
  std::uint64_t key = kNone;

  [[nodiscard]] bool better_than(const GoalCandidate& o) const {
    return key != kNone && (o.key == kNone || after < o.after || (after == o.after && key < o.key));
  }
  void offer(const SearchCost& cost, std::uint64_t k) {
    const GoalCandidate c{cost, k};
    if (c.better_than(*this)) *this = c;
  }
};

/// Copies of one mapping and its GoalCost, one per worker thread, kept in step, so that many
/// exchanges are evaluated in parallel (a cost's scratch is its own). The least candidate is
/// the same whatever the number of threads: candidates are ordered by (cost after, key).
class GoalReplicas {
 public:
  GoalReplicas(const SearchSpace& space, SearchGoal goal, const Placement& placement);

  [[nodiscard]] const Placement& placement() const { return placements_.front(); }
  [[nodiscard]] SearchCost cost() const { return costs_.front().cost(); }
  /// The cost if slots a (a rank) and b were exchanged.
  [[nodiscard]] SearchCost after(Slot a, Slot b) {
    return costs_.front().after(placements_.front(), a, b, works_.front());
  }

  /// The least candidate over items [0, n): eval(cost, placement, k, best, work) offers item
  /// k's exchanges to `best` (cost.after(placement, a, b, work) evaluates one). Items are split
  /// into one contiguous range per copy, evaluated in parallel when there are at least
  /// `parallel_from` of them.
  template <typename Eval>
  GoalCandidate least(std::size_t n, const Eval& eval, std::size_t parallel_from = 64);

  /// Exchanges slots a and b in every copy (`after`: the cost after, from after() or least()).
  void commit(Slot a, Slot b, const SearchCost& after);

 private:
  void run_ranges(
      std::size_t n, std::size_t parallel_from,
      const std::function<void(std::size_t copy, std::size_t begin, std::size_t end)>& range);

  std::vector<Placement> placements_;
  std::vector<GoalCost> costs_;
  std::vector<GoalCandidate> found_;  // per copy, during least()
  std::vector<std::uint64_t> works_;  // per copy: the costs' work units, unread (no budget)
};

template <typename Eval>
GoalCandidate GoalReplicas::least(std::size_t n, const Eval& eval, std::size_t parallel_from) {
  run_ranges(n, parallel_from, [&](std::size_t copy, std::size_t begin, std::size_t end) {
    GoalCandidate best;
    for (std::size_t k = begin; k < end; ++k)
      eval(costs_[copy], placements_[copy], k, best, works_[copy]);
    found_[copy] = best;
  });
  GoalCandidate best;
  for (const auto& c : found_) {
    if (c.better_than(best)) best = c;
  }
  return best;
}

/// What a search under `goal` sums over, for `graph` on `topology`: the graph itself (latency:
/// its message graph), the routes' distance (energy, latency, time+energy; checked to sum in 64
/// bits), the link loads checked to fit 64 bits (the link goals), the reference sums of hybrid
/// and time+energy (of `reference`, the in-order mapping; reference_nodes()), and the space.
/// The energy distance weighs the energy per bit of `links` (Problem::links).
/// Throws InputError when a sum could overflow.
class GoalSetup {
 public:
  GoalSetup(SearchGoal goal, const CommGraph& graph, const topo::Topology& topology,
            std::span<const topo::NodeId> reference, double energy_weight = kTimeEnergyWeight,
            std::size_t partners = 8, std::size_t near = 8, const topo::LinkTable& links = {});
  GoalSetup(const GoalSetup&) = delete;
  GoalSetup& operator=(const GoalSetup&) = delete;

  [[nodiscard]] const SearchSpace& space() const { return *space_; }
  [[nodiscard]] const CommGraph& graph() const { return *graph_; }
  /// Whether `goal` sums over a reference mapping (hybrid, time+energy).
  [[nodiscard]] static bool needs_reference(SearchGoal goal) {
    return goal == SearchGoal::Hybrid || goal == SearchGoal::TimeEnergy;
  }

 private:
  const CommGraph* graph_;
  std::optional<CommGraph> messages_;
  std::optional<RouteDistance> distance_;
  std::optional<SearchSpace> space_;
};

}  // namespace mapsim::map
