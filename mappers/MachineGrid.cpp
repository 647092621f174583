#include "mappers/MachineGrid.hpp"

#include "support/Error.hpp"

namespace mapsim::map {

MachineGrid::MachineGrid(const topo::Topology& topology) {
  const auto dims = topology.dimensions();
  if (topology.kind() == "tianhe3") {
    // Dimensions are (row, column, side, slot); a chip's nodes are consecutive.
    extents_ = {dims[1], dims[0]};
    nodes_per_cell_ = dims[2] * dims[3];
  } else {
    extents_.assign(dims.begin(), dims.end());
    nodes_per_cell_ = 1;
  }
  cell_count_ = 1;
  for (const int e : extents_) cell_count_ *= e;
  MAPSIM_EXPECTS(cell_count_ * nodes_per_cell_ == topology.node_count(),
                 "cells must cover the machine's nodes exactly");
  cell_capacity_ = nodes_per_cell_ * topology.cores_per_node();
}

std::vector<int> MachineGrid::coordinates(int cell) const {
  std::vector<int> c(extents_.size());
  for (std::size_t d = 0; d < extents_.size(); ++d) {
    c[d] = cell % extents_[d];
    cell /= extents_[d];
  }
  return c;
}

int MachineGrid::cell_at(std::span<const int> coords) const {
  int cell = 0;
  for (std::size_t d = extents_.size(); d-- > 0;) cell = cell * extents_[d] + coords[d];
  return cell;
}

}  // namespace mapsim::map
