#include "mappers/GoalCosts.hpp"

#include <algorithm>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "support/Error.hpp"

namespace mapsim::map {

GoalCost::GoalCost(const SearchSpace& space, SearchGoal goal, const Placement& placement)
    : cost_([&]() -> decltype(cost_) {
        switch (goal) {
          case SearchGoal::HopBytes:
            return HopBytesCost(space, placement);
          case SearchGoal::Energy:
          case SearchGoal::Latency:
            return RouteCost(space, placement);
          case SearchGoal::Congestion:
            return CongestionCost<false>(space, placement);
          case SearchGoal::CongestionSmooth:
            return CongestionCost<true>(space, placement);
          case SearchGoal::Hybrid:
            return HybridCost<false>(space, placement);
          case SearchGoal::TimeEnergy:
            return HybridCost<true>(space, placement);
        }
        throw_internal_error("goal", "a search goal without its cost", __FILE__, __LINE__);
      }()) {}

GoalReplicas::GoalReplicas(const SearchSpace& space, SearchGoal goal, const Placement& placement) {
  // One per thread the search may run on: the arena's, within a global_control limit.
  const auto threads = std::min<std::size_t>(
      static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency())),
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  const auto copies = std::max<std::size_t>(1, threads);
  placements_.assign(copies, placement);
  costs_.reserve(copies);
  costs_.emplace_back(space, goal, placement);
  for (std::size_t c = 1; c < copies; ++c) costs_.push_back(costs_.front());
  found_.resize(copies);
  works_.assign(copies, 0);
}

void GoalReplicas::run_ranges(
    std::size_t n, std::size_t parallel_from,
    const std::function<void(std::size_t, std::size_t, std::size_t)>& range) {
  std::fill(found_.begin(), found_.end(), GoalCandidate{});
  if (n < parallel_from || costs_.size() == 1) {
    range(0, 0, n);
    return;
  }
  const std::size_t copies = costs_.size();
  tbb::parallel_for(std::size_t{0}, copies,
                    [&](std::size_t c) { range(c, n * c / copies, n * (c + 1) / copies); });
}

void GoalReplicas::commit(Slot a, Slot b, const SearchCost& after) {
  const std::size_t copies = costs_.size();
  if (copies == 1) {
    costs_.front().commit(placements_.front(), a, b, after, works_.front());
    return;
  }
  tbb::parallel_for(std::size_t{0}, copies, [&](std::size_t c) {
    costs_[c].commit(placements_[c], a, b, after, works_[c]);
  });
}

GoalSetup::GoalSetup(SearchGoal goal, const CommGraph& graph, const topo::Topology& topology,
                     std::span<const topo::NodeId> reference, double energy_weight,
                     std::size_t partners, std::size_t near, const topo::LinkTable& links)
    : graph_(&graph) {
  if (goal == SearchGoal::Latency) graph_ = &messages_.emplace(graph.by_messages());
  const bool energy = goal == SearchGoal::Energy || goal == SearchGoal::TimeEnergy;
  if (energy || goal == SearchGoal::Latency) {
    // The energy per bit in effect; latency keeps the default latencies.
    if (energy) {
      distance_.emplace(topology, RouteWeight::Energy, links);
    } else {
      distance_.emplace(topology, RouteWeight::Latency);
    }
    distance_->check_summable(*graph_, goal == SearchGoal::TimeEnergy ? "time+energy" : "");
  }
  if (goal != SearchGoal::HopBytes && goal != SearchGoal::Energy && goal != SearchGoal::Latency) {
    const std::vector<topo::NodeId> any(static_cast<std::size_t>(graph_->rank_count()), 0);
    const LinkLoadTracker check(*graph_, topology, any);  // throws if the loads pass 64 bits
  }
  HybridReference hybrid;
  if (needs_reference(goal)) {
    MAPSIM_EXPECTS(reference.size() == static_cast<std::size_t>(graph_->rank_count()),
                   "a hybrid goal without its reference mapping");
    hybrid = hybrid_reference(*graph_, topology, reference,
                              goal == SearchGoal::TimeEnergy ? &*distance_ : nullptr);
    hybrid.energy_weight = energy_weight;
  }
  space_.emplace(*graph_, topology, partners, near, distance_ ? &*distance_ : nullptr, hybrid);
}

}  // namespace mapsim::map
