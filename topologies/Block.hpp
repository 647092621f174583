#pragma once
// Compact blocks: the nodes a job that needs fewer nodes than the machine has should run on.
//
// A block is a sub-box at the origin (Topology::block_stats): an e0 x e1 x ... box of a mesh or
// torus; on the HAEC Box an x x y patch of z adjacent boards; on Tianhe-3 h nodes of one side of
// a chip, or r x c chips with one side (left) or both, whole (the nodes of a side are all one
// router apart, so a cut side never shortens a route; it only spreads a job over more sides). The
// compact block for n nodes is the block of at least n nodes with, in this order,
//   1. the smallest diameter: the longest hop count a message of the job can see;
//   2. the fewest nodes: the least waste (and the fewest places to scatter ranks over);
//   3. the smallest average distance over ordered pairs of distinct nodes;
//   4. the earliest last node in the machine's natural order: the block the natural order fills
//      first (on a 4x4x4 torus, 8 nodes are the 4x2x1 block in-order uses, not the equally
//      compact 2x2x2 cube), which makes the choice unique.
// Why boxes: dimension-order routes between two nodes of a box stay inside it on a mesh, on the
// HAEC Box and on Tianhe-3 (a route turns at the router of the destination's column, which the
// box holds), so the block is a machine of its own whose hops equal the machine's; among node
// sets of a given size a near-cubic box has (close to) the least diameter and average distance
// on these machines. A torus dimension is cut to at most half its ring plus one node, or kept
// whole: then every shortest way between two nodes of the block is as long inside it as
// outside, and hops stay exact (a route of exactly half a ring may still leave the block through
// the wrap-around link: same length, other links). A BFS ball has a smaller diameter for some
// sizes but is not a machine the mappers understand (no grid, no dimension-order routes).
// Why the origin: every kind looks the same from each of its boxes (tori and the HAEC boards are
// vertex-transitive, a box's distances on a mesh do not depend on where it sits, Tianhe-3's chips
// are all alike), so the box at the origin is as good as any and the first in natural order.
// Hierarchical machines (Topology::prefix_blocks: fat-trees, dragonflies, Slurm trees, subsets
// of a machine) fill a leaf switch or router, then a group, before the next in natural order:
// their compact block for n nodes is the first n nodes (a NodeSubset), which spans the fewest
// switches and groups; it has no extents.
// Cost: the candidates are the extents of every dimension but the last, which takes the least
// extent that reaches n nodes: at most prod over d < D - 1 of min(k_d, n) closed-form
// evaluations of O(D), and a machine of the block's size: independent of the machine's size.

#include <memory>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::topo {

struct Block {
  std::vector<int> extents;           ///< per dimension of the machine
  BlockStats stats;                   ///< hops within the block
  std::unique_ptr<Topology> machine;  ///< the block as a machine of its own
  std::vector<NodeId> nodes;          ///< node k of the block is node nodes[k] of the machine
};

/// The extents and stats of the compact block for `nodes` nodes, without building it.
/// Preconditions: 1 <= nodes <= topology.node_count(); not topology.prefix_blocks().
Block compact_block_shape(const Topology& topology, NodeId nodes);

/// The compact block for `nodes` nodes, built. Precondition: 1 <= nodes <= node_count().
Block compact_block(const Topology& topology, NodeId nodes);

}  // namespace mapsim::topo
