#pragma once
// The machine as a grid of cells, for the mappers that think in grids (space-filling curves,
// round-robin, Bhatele's heuristics). A cell is a block of nodes that are consecutive in the
// machine's natural order:
//   mesh, torus  a cell is a node; the grid is the machine's own (any number of dimensions)
//   HAEC Box     a cell is a node; the grid is X x Y x Z (boards are planes z)
//   Tianhe-3     a cell is a chip (its nodes, left half then right half); the grid is the chip
//                grid, columns x rows (x = chip column, fastest, as in the node order)
// Cell ids run x fastest: cell = x + e0 * (y + e1 * (z + ...)).

#include <span>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::map {

class MachineGrid {
 public:
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
