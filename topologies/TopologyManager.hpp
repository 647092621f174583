#pragma once
// The Topology Manager API of Bhatele's Charm++ work (docs/references.md) over any
// Topology: partition dimensions, torus-or-mesh per dimension, cores per node, rank <->
// coordinates, hops between ranks, closest rank, ranks sorted by hops. A rank is a core of the
// machine in natural order: rank r runs on node r / cores_per_node, core r % cores_per_node.

#include <span>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::topo {

struct RankCoordinates {
  std::vector<int> node;  ///< the node's coordinates
  int core = 0;           ///< the core within the node (the API's "t" coordinate)
};

class TopologyManager {
 public:
  explicit TopologyManager(const Topology& topology) : topology_(&topology) {}

  [[nodiscard]] int dimension_count() const {
    return static_cast<int>(topology_->dimensions().size());
  }
  [[nodiscard]] int dimension(int dim) const {
    return topology_->dimensions()[static_cast<std::size_t>(dim)];
  }
  [[nodiscard]] bool is_torus(int dim) const { return topology_->is_torus(dim); }
  [[nodiscard]] int cores_per_node() const { return topology_->cores_per_node(); }
  [[nodiscard]] int rank_count() const { return topology_->node_count() * cores_per_node(); }

  /// Throw InputError for a rank or coordinates outside the machine.
  [[nodiscard]] RankCoordinates rank_to_coordinates(int rank) const;
  [[nodiscard]] int coordinates_to_rank(std::span<const int> node, int core) const;

  [[nodiscard]] int hops_between_ranks(int a, int b) const;
  /// The rank of `candidates` with the fewest hops from `rank` (the first one on a tie).
  /// Throws InputError if `candidates` is empty.
  [[nodiscard]] int pick_closest_rank(int rank, std::span<const int> candidates) const;
  /// `candidates` sorted by hops from `rank`, stable (equal hops keep their order).
  [[nodiscard]] std::vector<int> sort_ranks_by_hops(int rank,
                                                    std::span<const int> candidates) const;

 private:
  [[nodiscard]] NodeId node_of(int rank) const;

  const Topology* topology_;
};

}  // namespace mapsim::topo
