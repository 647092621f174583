#include "mappers/Placement.hpp"

#include "support/Error.hpp"

namespace mapsim::map {

Placement::Placement(const topo::Topology& topology, std::span<const topo::NodeId> node_of_rank)
    : cores_(topology.cores_per_node()),
      node_of_rank_(node_of_rank.begin(), node_of_rank.end()),
      slot_of_rank_(node_of_rank.size(), -1),
      occupant_(static_cast<std::size_t>(topology.node_count()) *
                    static_cast<std::size_t>(topology.cores_per_node()),
                -1) {
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const Slot first = node_of_rank[r] * cores_;
    Slot s = first;
    while (s < first + cores_ && occupant_[static_cast<std::size_t>(s)] != -1) ++s;
    MAPSIM_EXPECTS(s < first + cores_, "a placement started from a mapping over capacity");
    occupant_[static_cast<std::size_t>(s)] = static_cast<Rank>(r);
    slot_of_rank_[r] = s;
  }
}

Slot Placement::idle_slot(topo::NodeId n) const {
  for (Slot s = n * cores_; s < (n + 1) * cores_; ++s) {
    if (occupant_[static_cast<std::size_t>(s)] == -1) return s;
  }
  return -1;
}

void Placement::exchange(Slot a, Slot b) {
  const Rank ra = occupant_[static_cast<std::size_t>(a)];
  const Rank rb = occupant_[static_cast<std::size_t>(b)];
  occupant_[static_cast<std::size_t>(a)] = rb;
  occupant_[static_cast<std::size_t>(b)] = ra;
  if (ra != -1) {
    slot_of_rank_[static_cast<std::size_t>(ra)] = b;
    node_of_rank_[static_cast<std::size_t>(ra)] = b / cores_;
  }
  if (rb != -1) {
    slot_of_rank_[static_cast<std::size_t>(rb)] = a;
    node_of_rank_[static_cast<std::size_t>(rb)] = a / cores_;
  }
}

}  // namespace mapsim::map
