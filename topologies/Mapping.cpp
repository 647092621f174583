#include "topologies/Mapping.hpp"

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::topo {

void validate(const Mapping& mapping, const Topology& topology) {
  const std::int64_t capacity =
      static_cast<std::int64_t>(topology.usable_nodes()) * topology.cores_per_node();
  if (mapping.rank_count() > capacity) {
    throw InputError(fmt::format("{} ranks do not fit on {} ({} nodes x {} cores)",
                                 mapping.rank_count(), topology.spec(), topology.usable_nodes(),
                                 topology.cores_per_node()));
  }
  std::vector<int> load(static_cast<std::size_t>(topology.node_count()), 0);
  for (Rank rank = 0; rank < mapping.rank_count(); ++rank) {
    const NodeId node = mapping.node(rank);
    if (node < 0 || node >= topology.node_count()) {
      throw InputError(
          fmt::format("rank {} is mapped to node {}, which {} does not have (nodes 0 "
                      "to {})",
                      rank, node, topology.spec(), topology.node_count() - 1));
    }
    if (!topology.allocated(node)) {
      throw InputError(
          fmt::format("rank {} is mapped to node {} ({}), which is not in the allocation of {}",
                      rank, node, topology.host_name(node), topology.spec()));
    }
    if (++load[static_cast<std::size_t>(node)] > topology.cores_per_node()) {
      throw InputError(fmt::format("node {} holds more than {} rank(s) (rank {} is one too many)",
                                   node, topology.cores_per_node(), rank));
    }
  }
}

Mapping in_order_mapping(Rank ranks, const Topology& topology) {
  std::vector<NodeId> nodes(static_cast<std::size_t>(ranks));
  const auto allocation = topology.allocation();
  for (Rank r = 0; r < ranks; ++r) {
    const NodeId k = r / topology.cores_per_node();
    nodes[static_cast<std::size_t>(r)] =
        allocation.empty() || k >= static_cast<NodeId>(allocation.size())
            ? k
            : allocation[static_cast<std::size_t>(k)];
  }
  Mapping mapping(std::move(nodes));
  validate(mapping, topology);
  return mapping;
}

}  // namespace mapsim::topo
