#include "topologies/Mapping.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::topo {

Mapping::Mapping(std::vector<NodeId> node_of_rank, std::vector<std::int32_t> core_of_rank)
    : node_of_rank_(std::move(node_of_rank)), core_of_rank_(std::move(core_of_rank)) {
  MAPSIM_EXPECTS(core_of_rank_.size() == node_of_rank_.size(), "a core for every rank");
  if (core_of_rank_ == rank_order_cores(node_of_rank_)) core_of_rank_.clear();
}

std::vector<std::int32_t> rank_order_cores(std::span<const NodeId> node_of_rank) {
  std::vector<std::int32_t> cores(node_of_rank.size());
  NodeId top = 0;
  for (const NodeId node : node_of_rank) top = std::max(top, node);
  std::vector<std::int32_t> next(static_cast<std::size_t>(top) + 1, 0);
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const auto node = node_of_rank[r];
    cores[r] = node < 0 ? 0 : next[static_cast<std::size_t>(node)]++;
  }
  return cores;
}

std::vector<std::int32_t> cores_of(const Mapping& mapping) {
  if (!mapping.cores().empty()) return {mapping.cores().begin(), mapping.cores().end()};
  return rank_order_cores(mapping.nodes());
}

std::vector<std::int32_t> sockets_of(const Mapping& mapping, const Topology& topology) {
  auto sockets = cores_of(mapping);
  for (auto& core : sockets) core = topology.socket_of_core(core);
  return sockets;
}

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
  const auto cores = mapping.cores();
  if (cores.empty()) return;
  // (node, core, rank) of every rank, sorted: a core two ranks share shows as a repeated pair.
  std::vector<std::array<std::int64_t, 3>> seats;
  seats.reserve(cores.size());
  for (Rank rank = 0; rank < mapping.rank_count(); ++rank) {
    const auto core = cores[static_cast<std::size_t>(rank)];
    const NodeId node = mapping.node(rank);
    if (core < 0 || core >= topology.cores_per_node()) {
      throw InputError(fmt::format("rank {} is on core {} of node {}, which has cores 0 to {}",
                                   rank, core, topology.host_name(node),
                                   topology.cores_per_node() - 1));
    }
    seats.push_back({node, core, rank});
  }
  std::sort(seats.begin(), seats.end());
  for (std::size_t i = 1; i < seats.size(); ++i) {
    if (seats[i][0] == seats[i - 1][0] && seats[i][1] == seats[i - 1][1]) {
      throw InputError(fmt::format("ranks {} and {} are both on core {} of node {}",
                                   seats[i - 1][2], seats[i][2], seats[i][1],
                                   topology.host_name(static_cast<NodeId>(seats[i][0]))));
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
