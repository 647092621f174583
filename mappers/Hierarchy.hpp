#pragma once
// Internal: the machine's hierarchy above its nodes (Topology::levels) as a tree, for the mappers
// that follow it: treematch, round-robin and the job placement policies on hierarchical
// machines, and Scotch's tree-leaf target.
//
// Tree level 0 holds the nodes; level t = 1 .. height() - 1 the groups of the t-th level kept
// from levels(), innermost first (leaf switch or router, pod or group, ...); level height() the
// root, one vertex above everything. A level is kept if it has more than one group and differs
// from the level below (a level of one group is the root; equal partitions are one level), so a
// machine without levels is its nodes under the root (height() = 1). Vertices of a level are
// numbered in natural order (by their first node) and so are the children of every vertex.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::map {

class Hierarchy {
 public:
  /// The machine's own levels (Topology::levels).
  explicit Hierarchy(const topo::Topology& topology);
  /// Given levels of `nodes` nodes, innermost first, each nesting in the next.
  Hierarchy(topo::NodeId nodes, std::vector<topo::NodeLevel> levels);

  /// Tree levels above the nodes, the root's included: 1 when the machine has no levels.
  [[nodiscard]] int height() const { return static_cast<int>(width_.size()) - 1; }
  /// Vertices at tree level t (0: the nodes).
  [[nodiscard]] std::int32_t width(int t) const { return width_[static_cast<std::size_t>(t)]; }
  /// The name of tree level t (0 "node"; the root "machine").
  [[nodiscard]] const std::string& name(int t) const { return names_[static_cast<std::size_t>(t)]; }
  /// The vertex of tree level t above node n (t = 0: n itself).
  [[nodiscard]] std::int32_t group(int t, topo::NodeId n) const {
    if (t == 0) return n;
    return group_[static_cast<std::size_t>(t)][static_cast<std::size_t>(n)];
  }
  /// The vertices of level t - 1 below vertex v of level t >= 1, in natural order.
  [[nodiscard]] std::span<const std::int32_t> children(int t, std::int32_t v) const {
    const auto& start = child_start_[static_cast<std::size_t>(t)];
    const auto& list = children_[static_cast<std::size_t>(t)];
    const auto k = static_cast<std::size_t>(v);
    return {list.data() + start[k], start[k + 1] - start[k]};
  }
  /// Nodes below vertex v of level t.
  [[nodiscard]] topo::NodeId nodes_under(int t, std::int32_t v) const {
    return t == 0 ? 1 : size_[static_cast<std::size_t>(t)][static_cast<std::size_t>(v)];
  }
  /// A middle node of vertex v of level t: the median in natural order of the nodes below it.
  [[nodiscard]] topo::NodeId middle_node(int t, std::int32_t v) const {
    return t == 0 ? v : middle_[static_cast<std::size_t>(t)][static_cast<std::size_t>(v)];
  }
  /// The nodes of every vertex of level t, each in natural order.
  [[nodiscard]] std::vector<std::vector<topo::NodeId>> members(int t) const;

 private:
  std::vector<std::int32_t> width_;                    // per tree level
  std::vector<std::string> names_;                     // per tree level
  std::vector<std::vector<std::int32_t>> group_;       // [t][node], t >= 1
  std::vector<std::vector<std::size_t>> child_start_;  // [t][v], CSR, t >= 1
  std::vector<std::vector<std::int32_t>> children_;    // [t]
  std::vector<std::vector<topo::NodeId>> size_;        // [t][v]
  std::vector<std::vector<topo::NodeId>> middle_;      // [t][v]
};

/// Deals `count` items over `groups` (lists of nodes) one per group in turn, skipping full
/// groups; within a group its nodes in order, `per_node` items each: the node of every item.
/// Precondition: the groups hold at least `count` items.
std::vector<topo::NodeId> deal(const std::vector<std::vector<topo::NodeId>>& groups,
                               std::int64_t count, int per_node);

/// Nested boxes of a machine's grid (MachineGrid cells), innermost first: the whole grid halved
/// across its longest side (ties: the slowest dimension; the lower half takes the odd cell),
/// each half again, down to single cells, and within a cell the machine's own levels finer than
/// it (Tianhe-3's side routers): a binary tree of compact blocks, the way Scotch bipartitions a
/// mesh, for machines whose levels only approximate a hierarchy. Restricted to `nodes` (node k
/// of the result is machine node nodes[k]), groups renumbered in order of first use.
/// Precondition: machine.has_grid().
std::vector<topo::NodeLevel> box_levels(const topo::Topology& machine,
                                        std::span<const topo::NodeId> nodes);

}  // namespace mapsim::map
