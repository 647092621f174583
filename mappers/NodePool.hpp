#pragma once
// Free capacity of the machine's nodes while a constructive mapper places ranks one by one, and
// the "find the nearest free node" query every greedy heuristic needs (Bhatele's findNext, the
// HAEC thesis's NEARESTNEIGHBOR, Hoefler & Snir's closest free vertex).
//
// Queries are exact: they scan the free nodes and take the smallest cost, ties to the lowest
// node id, so the answer never depends on the thread count (large scans run in parallel with a
// deterministic arg-min). A node with room left (fewer ranks than cores) is free, so with
// several cores per node the nearest free node of a node with room is the node itself.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "support/Ids.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

class NodePool {
 public:
  explicit NodePool(const topo::Topology& topology);

  [[nodiscard]] bool has_room(topo::NodeId node) const {
    return room_[static_cast<std::size_t>(node)] > 0;
  }
  [[nodiscard]] int room(topo::NodeId node) const { return room_[static_cast<std::size_t>(node)]; }
  [[nodiscard]] std::int64_t free_nodes() const { return static_cast<std::int64_t>(free_.size()); }
  /// The free nodes, in no particular order.
  [[nodiscard]] std::span<const topo::NodeId> free_list() const { return free_; }

  /// Uses one core of `node`. Precondition: has_room(node).
  void take(topo::NodeId node);

  /// The free node with the fewest hops from `from`, ties to the lowest id. Precondition: a free
  /// node exists.
  [[nodiscard]] topo::NodeId nearest(topo::NodeId from) const;
  /// The free node with the smallest cost(node), ties to the lowest id.
  [[nodiscard]] topo::NodeId best(const std::function<std::int64_t(topo::NodeId)>& cost) const;
  /// Among the free nodes with the fewest hops from `from`, the one with the smallest
  /// tie_cost(node), then the lowest id.
  [[nodiscard]] topo::NodeId nearest(
      topo::NodeId from, const std::function<std::int64_t(topo::NodeId)>& tie_cost) const;

 private:
  const topo::Topology* topology_;
  std::vector<int> room_;
  std::vector<topo::NodeId> free_;
  std::vector<std::int32_t> position_;  // index of a free node in free_, -1 if full
};

/// rank_order[k] goes to node_order[k / cores]: consecutive ranks of the order fill a node.
/// Preconditions: rank_order is a permutation of the ranks; node_order lists distinct nodes,
/// enough of them.
topo::Mapping fill_in_order(std::span<const Rank> rank_order,
                            std::span<const topo::NodeId> node_order, int cores);
/// Ranks 0, 1, 2, ... in order onto node_order.
topo::Mapping fill_in_order(Rank ranks, std::span<const topo::NodeId> node_order, int cores);

/// Makes `node_of_rank` respect the capacity of every node: ranks beyond a node's cores (the
/// highest ranks on it) move, in rank order, to the nearest free node, the cheapest in hop-bytes
/// among equally near ones (then the lowest id). Returns how many ranks moved.
std::int64_t repair_capacity(std::vector<topo::NodeId>& node_of_rank, const CommGraph& graph,
                             const topo::Topology& topology);

/// The node nearest the machine's centre: coordinates (floor(d_k / 2)) for every dimension k.
topo::NodeId centre_node(const topo::Topology& topology);

}  // namespace mapsim::map
