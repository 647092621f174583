#pragma once
// A mapping places every rank of an application on a node of a machine: rank -> node. A node holds
// at most cores_per_node() ranks; nodes may outnumber ranks.
//
// Cores: by default the ranks on a node take its cores in rank order (the lowest rank core 0, the
// next core 1, ...), as a launcher binds them (Open MPI's --bind-to core, a rankfile's slots as
// mapsim writes them). A mapping may instead name every rank's core (cores()), for machines whose
// nodes have several sockets (Topology::sockets_per_node): which ranks share a socket is then the
// mapping's choice (mappers/SocketGrouping.hpp).

#include <cstdint>
#include <span>
#include <vector>

#include "support/Ids.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::topo {

class Mapping {
 public:
  Mapping() = default;
  explicit Mapping(std::vector<NodeId> node_of_rank) : node_of_rank_(std::move(node_of_rank)) {}
  /// With every rank's core on its node (validate checks them); cores equal to the rank order
  /// are dropped, so a mapping has one representation.
  Mapping(std::vector<NodeId> node_of_rank, std::vector<std::int32_t> core_of_rank);

  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(node_of_rank_.size()); }
  [[nodiscard]] NodeId node(Rank rank) const {
    return node_of_rank_[static_cast<std::size_t>(rank)];
  }
  [[nodiscard]] std::span<const NodeId> nodes() const { return node_of_rank_; }
  /// Every rank's core, or empty when the ranks on each node take its cores in rank order.
  [[nodiscard]] std::span<const std::int32_t> cores() const { return core_of_rank_; }

  friend bool operator==(const Mapping&, const Mapping&) = default;

 private:
  std::vector<NodeId> node_of_rank_;
  std::vector<std::int32_t> core_of_rank_;  // empty: rank order
};

/// The cores the ranks on each node take in rank order: the k-th lowest rank of a node on core k.
std::vector<std::int32_t> rank_order_cores(std::span<const NodeId> node_of_rank);

/// Every rank's core: mapping.cores(), or the rank order.
std::vector<std::int32_t> cores_of(const Mapping& mapping);

/// Every rank's socket on its node (Topology::socket_of_core of its core).
std::vector<std::int32_t> sockets_of(const Mapping& mapping, const Topology& topology);

/// Throws InputError (naming the rank or node) unless every rank sits on an existing node of
/// `topology`, in its allocation if it has one, no node holds more than cores_per_node() ranks
/// and, where the mapping names cores, every rank has its own core, below cores_per_node().
void validate(const Mapping& mapping, const Topology& topology);

/// The identity placement in the machine's natural order: rank r on node r / cores_per_node, or
/// on the (r / cores_per_node)-th node of the allocation. Throws InputError if the machine (or
/// the allocation) has fewer cores than `ranks`.
Mapping in_order_mapping(Rank ranks, const Topology& topology);

}  // namespace mapsim::topo
