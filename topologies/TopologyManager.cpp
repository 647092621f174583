#include "topologies/TopologyManager.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::topo {

NodeId TopologyManager::node_of(int rank) const {
  if (rank < 0 || rank >= rank_count()) {
    throw InputError(fmt::format("rank {} does not exist; {} has ranks 0 to {}", rank,
                                 topology_->spec(), rank_count() - 1));
  }
  return rank / cores_per_node();
}

RankCoordinates TopologyManager::rank_to_coordinates(int rank) const {
  return {topology_->coordinates(node_of(rank)), rank % cores_per_node()};
}

int TopologyManager::coordinates_to_rank(std::span<const int> node, int core) const {
  if (core < 0 || core >= cores_per_node()) {
    throw InputError(fmt::format("core {} does not exist; {} has cores 0 to {} per node", core,
                                 topology_->spec(), cores_per_node() - 1));
  }
  return topology_->node_at(node) * cores_per_node() + core;
}

int TopologyManager::hops_between_ranks(int a, int b) const {
  return topology_->hops(node_of(a), node_of(b));
}

int TopologyManager::pick_closest_rank(int rank, std::span<const int> candidates) const {
  if (candidates.empty()) throw InputError("pick_closest_rank: the list of candidates is empty");
  const NodeId from = node_of(rank);
  int best = candidates.front();
  int best_hops = topology_->hops(from, node_of(best));
  for (const int candidate : candidates.subspan(1)) {
    const int h = topology_->hops(from, node_of(candidate));
    if (h < best_hops) {
      best = candidate;
      best_hops = h;
    }
  }
  return best;
}

std::vector<int> TopologyManager::sort_ranks_by_hops(int rank,
                                                     std::span<const int> candidates) const {
  const NodeId from = node_of(rank);
  std::vector<std::pair<int, int>> keyed;  // (hops, rank)
  keyed.reserve(candidates.size());
  for (const int candidate : candidates) {
    keyed.emplace_back(topology_->hops(from, node_of(candidate)), candidate);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<int> sorted;
  sorted.reserve(keyed.size());
  for (const auto& [hops, r] : keyed) sorted.push_back(r);
  return sorted;
}

}  // namespace mapsim::topo
