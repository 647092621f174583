#pragma once
// A mapping places every rank of an application on a node of a machine: rank -> node. A node holds
// at most cores_per_node() ranks; nodes may outnumber ranks.

#include <span>
#include <vector>

#include "support/Ids.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::topo {

class Mapping {
 public:
  Mapping() = default;
  explicit Mapping(std::vector<NodeId> node_of_rank) : node_of_rank_(std::move(node_of_rank)) {}

  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(node_of_rank_.size()); }
  [[nodiscard]] NodeId node(Rank rank) const {
    return node_of_rank_[static_cast<std::size_t>(rank)];
  }
  [[nodiscard]] std::span<const NodeId> nodes() const { return node_of_rank_; }

  friend bool operator==(const Mapping&, const Mapping&) = default;

 private:
  std::vector<NodeId> node_of_rank_;
};

/// Throws InputError (naming the rank or node) unless every rank sits on an existing node of
/// `topology`, in its allocation if it has one, and no node holds more than cores_per_node()
/// ranks.
void validate(const Mapping& mapping, const Topology& topology);

/// The identity placement in the machine's natural order: rank r on node r / cores_per_node, or
/// on the (r / cores_per_node)-th node of the allocation. Throws InputError if the machine (or
/// the allocation) has fewer cores than `ranks`.
Mapping in_order_mapping(Rank ranks, const Topology& topology);

}  // namespace mapsim::topo
