#pragma once
// Each node's near set N(z) = {z} + adjacent(z) (hops <= 1, NodeNeighbors.hpp), written as whole
// blocks plus a few explicit nodes, so that Bokhari's table of partners near each node costs
// little to keep (Bokhari.cpp):
//   blocks   the nodes grouped by their coordinates outside a set S of dimensions (the nodes of
//            a block differ only in the dimensions of S): S = {x, y} gives the boards of the
//            HAEC Box, S = {slot} the side routers of Tianhe-3, S = {} single nodes
//   G(z)     the blocks of two nodes or more that lie wholly inside N(z)
//   E(z)     the nodes of N(z) in no block of G(z), so that N(z) = E(z) + the blocks of G(z),
//            disjointly
// S is the set of dimensions (of the 2^dims, tried in order of size, then of bits) with the
// least sum over z of |E(z)| + |G(z)|: ties go to the smaller S, so S = {} (E(z) = N(z), no
// blocks) unless a grouping saves something. HAEC X x Y x Z (X, Y >= 4): S = {x, y},
// |E(z)| = 5, |G(z)| <= 2 (the boards above and below); Tianhe-3: S = {slot}, E(z) empty,
// G(z) = z's side router; meshes and tori with sides >= 4: S = {}.

#include <cstdint>
#include <span>
#include <vector>

#include "mappers/NodeNeighbors.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

class NearBlocks {
 public:
  NearBlocks(const topo::Topology& topology, const NodeNeighbors& neighbors);

  /// S: bit k set when dimension k is grouped into the blocks (0: single nodes, no blocks).
  [[nodiscard]] unsigned grouped_dimensions() const { return grouped_; }
  [[nodiscard]] std::int32_t block_count() const { return block_count_; }
  [[nodiscard]] std::int32_t block(topo::NodeId n) const {
    return block_[static_cast<std::size_t>(n)];
  }
  /// G(z), in increasing order.
  [[nodiscard]] std::span<const std::int32_t> whole_blocks(topo::NodeId z) const {
    return span_of(whole_start_, whole_, z);
  }
  /// E(z), in increasing order.
  [[nodiscard]] std::span<const topo::NodeId> explicit_nodes(topo::NodeId z) const {
    return span_of(explicit_start_, explicit_, z);
  }
  /// The nodes z with x in E(z), in increasing order.
  [[nodiscard]] std::span<const topo::NodeId> explicit_in(topo::NodeId x) const {
    return span_of(explicit_in_start_, explicit_in_, x);
  }
  [[nodiscard]] bool any_explicit() const { return !explicit_.empty(); }
  [[nodiscard]] bool any_whole() const { return !whole_.empty(); }
  /// Sum over z of |E(z)| + |G(z)|.
  [[nodiscard]] std::size_t cost() const { return explicit_.size() + whole_.size(); }

 private:
  template <typename T>
  static std::span<const T> span_of(const std::vector<std::size_t>& start,
                                    const std::vector<T>& items, topo::NodeId n) {
    const auto k = static_cast<std::size_t>(n);
    return {items.data() + start[k], start[k + 1] - start[k]};
  }

  unsigned grouped_ = 0;
  std::int32_t block_count_ = 0;
  std::vector<std::int32_t> block_;
  std::vector<std::size_t> whole_start_;
  std::vector<std::int32_t> whole_;
  std::vector<std::size_t> explicit_start_;
  std::vector<topo::NodeId> explicit_;
  std::vector<std::size_t> explicit_in_start_;
  std::vector<topo::NodeId> explicit_in_;
};

}  // namespace mapsim::map
