#include "mappers/MachineGrid.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::map {
namespace {

// True if node n has id c0 + e0 (c1 + e1 (c2 + ...)) with its coordinates taken in `order`.
bool raster(const topo::Topology& topology, std::span<const std::size_t> order) {
  const auto dims = topology.dimensions();
  for (topo::NodeId n = 0; n < topology.node_count(); ++n) {
    const auto c = topology.coordinates(n);
    std::int64_t id = 0;
    for (std::size_t k = order.size(); k-- > 0;) id = id * dims[order[k]] + c[order[k]];
    if (id != n) return false;
  }
  return true;
}

// The order of the machine's dimensions in which its node ids run x fastest.
std::vector<std::size_t> raster_order(const topo::Topology& topology) {
  const auto dims = topology.dimensions();
  std::vector<std::size_t> order(dims.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (raster(topology, order)) return order;
  // Otherwise by the step of the node id along each dimension (dimensions of extent 1 last).
  std::vector<std::int64_t> stride(dims.size(), std::numeric_limits<std::int64_t>::max());
  const auto origin = topology.coordinates(0);
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 2) continue;
    auto c = origin;
    c[d] += 1;
    stride[d] = topology.node_at(c) - topology.node_at(origin);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return stride[a] < stride[b]; });
  if (!raster(topology, order)) {
    throw InputError(
        fmt::format("the node ids of {} do not run through its grid in any order of "
                    "its dimensions: no grid for the grid mappers",
                    topology.spec()));
  }
  return order;
}

}  // namespace

MachineGrid::MachineGrid(const topo::Topology& topology) {
  const auto dims = topology.dimensions();
  if (topology.kind() == "tianhe3") {
    // Dimensions are (row, column, side, slot); a chip's nodes are consecutive.
    extents_ = {dims[1], dims[0]};
    nodes_per_cell_ = dims[2] * dims[3];
  } else {
    for (const std::size_t d : raster_order(topology)) extents_.push_back(dims[d]);
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
