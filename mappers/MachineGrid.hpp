#pragma once
// The machine as a grid of cells, for the mappers that think in grids (space-filling curves,
// round-robin, Bhatele's heuristics). A cell is a block of nodes that are consecutive in the
// machine's natural order:
//   Tianhe-3     a cell is a chip (its nodes, left half then right half); the grid is the chip
//                grid, columns x rows (x = chip column, fastest, as in the node order)
//   every other  a cell is a node; the grid is the machine's own dimensions, ordered so that the
//   kind         node ids run x fastest: as given on meshes, tori, the HAEC Box (boards are
//                planes z) and fat-trees (port, leaf, subtree, ...); reversed on dragonflies and
//                Cascade, whose coordinates put the group first but whose nodes fill a router,
//                then a group (grid host x router x group; node x blade x chassis x group)
// Cell ids run x fastest: cell = x + e0 * (y + e1 * (z + ...)), and cell k holds nodes
// k * nodes_per_cell ... Machines without a grid (Topology::has_grid) are one line of cells.

#include <span>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::map {

class MachineGrid {
 public:
  /// Throws InputError if the machine's node ids do not run through its grid in some order of
  /// its dimensions (no kind mapsim models).
  explicit MachineGrid(const topo::Topology& topology);

  [[nodiscard]] std::span<const int> extents() const { return extents_; }
  [[nodiscard]] int dimension_count() const { return static_cast<int>(extents_.size()); }
  [[nodiscard]] int cell_count() const { return cell_count_; }
  [[nodiscard]] int nodes_per_cell() const { return nodes_per_cell_; }
  /// Ranks a cell holds: nodes per cell x cores per node.
  [[nodiscard]] int cell_capacity() const { return cell_capacity_; }
  [[nodiscard]] topo::NodeId first_node(int cell) const { return cell * nodes_per_cell_; }
  [[nodiscard]] int cell_of(topo::NodeId node) const { return node / nodes_per_cell_; }

  [[nodiscard]] std::vector<int> coordinates(int cell) const;
  /// Precondition: coordinates inside the grid.
  [[nodiscard]] int cell_at(std::span<const int> coords) const;

 private:
  std::vector<int> extents_;
  int cell_count_ = 0;
  int nodes_per_cell_ = 1;
  int cell_capacity_ = 1;
};

}  // namespace mapsim::map
