#pragma once
// Nodes near each node, for the search-based mappers:
//   adjacent(n)  every node m != n with hops(n, m) <= 1: the processor graph whose edges
//                Bokhari's cardinality counts (a link on meshes, tori and the HAEC Box; the same
//                side router on Tianhe-3)
//   near(n)      at most `near_limit` nodes close to n for local-search moves: a breadth-first
//                search over the links, layer by layer, until a layer brings near_limit nodes;
//                of those, the nearest by hops, then by the coordinate distance
//                sum |c_k(n) - c_k(m)| (so that, among the 512 wireless neighbours of a HAEC
//                node, the ones straight above and below come first), then by id
// Found from the link graph and checked against Topology::hops; nothing dense. Adjacent nodes
// are reached through a link or through one router that is not a node.

#include <span>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::map {

class NodeNeighbors {
 public:
  NodeNeighbors(const topo::Topology& topology, std::size_t near_limit);

  /// In increasing id order.
  [[nodiscard]] std::span<const topo::NodeId> adjacent(topo::NodeId n) const {
    return span_of(adjacent_start_, adjacent_, n);
  }
  /// Nearest first.
  [[nodiscard]] std::span<const topo::NodeId> near(topo::NodeId n) const {
    return span_of(near_start_, near_, n);
  }

 private:
  static std::span<const topo::NodeId> span_of(const std::vector<std::size_t>& start,
                                               const std::vector<topo::NodeId>& items,
                                               topo::NodeId n) {
    const auto k = static_cast<std::size_t>(n);
    return {items.data() + start[k], start[k + 1] - start[k]};
  }

  std::vector<std::size_t> adjacent_start_;
  std::vector<topo::NodeId> adjacent_;
  std::vector<std::size_t> near_start_;
  std::vector<topo::NodeId> near_;
};

}  // namespace mapsim::map
