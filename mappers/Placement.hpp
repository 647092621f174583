#pragma once
// A mapping under local search: the rank on every core of every node and the core of every
// rank, so that exchanging two ranks or moving a rank to an idle core is O(1).
//
// Cores are slots: slot s is core s % cores of node s / cores. A node holds at most `cores`
// ranks by construction, so a placement is always a valid mapping.

#include <span>
#include <vector>

#include "support/Ids.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

using Slot = std::int32_t;

class Placement {
 public:
  /// Precondition: `node_of_rank` is a valid mapping on `topology`.
  Placement(const topo::Topology& topology, std::span<const topo::NodeId> node_of_rank);

  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(node_of_rank_.size()); }
  [[nodiscard]] Slot slot_count() const { return static_cast<Slot>(occupant_.size()); }
  [[nodiscard]] int cores() const { return cores_; }

  [[nodiscard]] topo::NodeId node(Rank r) const {
    return node_of_rank_[static_cast<std::size_t>(r)];
  }
  /// Node of every rank, for the metrics.
  [[nodiscard]] std::span<const topo::NodeId> nodes() const { return node_of_rank_; }
  [[nodiscard]] Slot slot(Rank r) const { return slot_of_rank_[static_cast<std::size_t>(r)]; }
  /// The rank on slot s, or -1 if the core is idle.
  [[nodiscard]] Rank occupant(Slot s) const { return occupant_[static_cast<std::size_t>(s)]; }
  [[nodiscard]] topo::NodeId node_of_slot(Slot s) const { return s / cores_; }
  /// The slots of node n (cores of them).
  [[nodiscard]] Slot first_slot(topo::NodeId n) const { return n * cores_; }
  /// An idle core of node n (the lowest), or -1.
  [[nodiscard]] Slot idle_slot(topo::NodeId n) const;

  /// Exchanges the contents of two slots (a rank and a rank, or a rank and an idle core).
  void exchange(Slot a, Slot b);
  /// Exchanges the places of two ranks.
  void swap_ranks(Rank i, Rank j) { exchange(slot(i), slot(j)); }

  [[nodiscard]] topo::Mapping mapping() const { return topo::Mapping(node_of_rank_); }

 private:
  int cores_;
  std::vector<topo::NodeId> node_of_rank_;
  std::vector<Slot> slot_of_rank_;
  std::vector<Rank> occupant_;
};

}  // namespace mapsim::map
