#include "mappers/MappingScore.hpp"

#include <limits>

#include "mappers/LinkLoadTracker.hpp"
#include "support/Error.hpp"

namespace mapsim::map {

MappingScorer::MappingScorer(std::string_view word, const CommGraph& graph,
                             const topo::Topology& topology,
                             std::span<const topo::NodeId> reference,
                             const topo::LinkTable& link_table)
    : topology_(topology) {
  if (links(word)) {
    goal_ = parse_search_goal(word);
    MAPSIM_EXPECTS(reference.size() == static_cast<std::size_t>(graph.rank_count()),
                   "a link objective without its reference mapping");
    const LinkLoadTracker check(graph, topology, reference);  // throws if the loads pass 64 bits
    HybridReference hybrid;
    if (*goal_ == SearchGoal::Hybrid) hybrid = hybrid_reference(graph, topology, reference);
    space_ = std::make_unique<const SearchSpace>(graph, topology, 1, 1, nullptr, hybrid);
    return;
  }
  objective_ = parse_objective(word);
  inputs_.emplace(objective_, graph, topology, link_table);
}

MappingCost MappingScorer::operator()(std::span<const topo::NodeId> node_of_rank) const {
  if (!goal_) {
    return {objective_cost_serial(objective_, inputs_->graph(), topology_, node_of_rank,
                                  inputs_->distance()),
            0};
  }
  const SearchCost c = search_cost(*space_, *goal_, node_of_rank);
  MAPSIM_EXPECTS(c.primary <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()),
                 "a link objective past 63 bits");
  return {static_cast<std::int64_t>(c.primary), c.secondary};
}

std::vector<topo::NodeId> reference(std::string_view word, const Problem& p) {
  if (!MappingScorer::links(word)) return {};
  const auto in_order = make_mapper("in-order")->map(p.matrix, p.topology, p.seed);
  return {in_order.nodes().begin(), in_order.nodes().end()};
}

double MappingScorer::fitness(const MappingCost& cost) const {
  if (cardinality()) return static_cast<double>(-cost.first);
  const double c =
      cost.first != 0 ? static_cast<double>(cost.first) : static_cast<double>(cost.second);
  return 1.0 / (c + 1.0);
}

}  // namespace mapsim::map
