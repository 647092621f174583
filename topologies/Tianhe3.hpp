#pragma once
// The Tianhe-3 prototype (OHTMA paper, sec. 4.2): an R x C grid of router chips; each chip
// serves P compute nodes (96 by default) split into a left and a right half.
//
// Link model (mapsim's own, docs/models.md), whose router count reproduces Table 1 of the paper
// exactly: each chip has two side routers, left and right, joined by a cross link; each chip row
// has a row switch and each chip column a column switch, linked both ways to every side router
// in that row or column; every node attaches to its side router.
// Routing (dimension order): node -> own side router -> (row switch -> router of the
// destination column, same side) -> (column switch -> router of the destination chip, same side)
// -> (cross link, if the destination is on the other side) -> destination node.
// hops(a, b) = routers and switches traversed:
//                                      same side   different sides
//   same chip                              1              2
//   same row or same column                3              4
//   different row and different column     5              6
//
// levels(): the side routers (group = node / (P / 2)), then the chips (node / (S P / 2)); a
// level of one group, or equal to the one below (one side per chip), is left out.
// Node order: chip-major (chip (r, c) row by row), left half before right half within a chip:
// node = ((r * C + c) * 2 + side) * (P / 2) + slot.
// Vertices after the nodes: side routers (chip * 2 + side), then R row switches, then C column
// switches.
//
// A block of the machine (Block.hpp) may keep only the left side of its chips: the internal
// constructor takes the number of sides S (1 or 2); with one side there are no cross links, and
// the node and router formulas above hold with 2 replaced by S.

#include "topologies/Topology.hpp"

namespace mapsim::topo {

class Tianhe3 final : public Topology {
 public:
  /// Preconditions (checked by the spec parser): rows, columns >= 1; nodes_per_chip even >= 2.
  Tianhe3(int rows, int columns, int nodes_per_chip, int cores_per_node);
  /// Chips of `sides` sides (1 or 2) of nodes_per_chip / sides nodes each.
  Tianhe3(int rows, int columns, int nodes_per_chip, int cores_per_node, int sides);

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "tianhe3"; }
  [[nodiscard]] VertexId vertex_count() const override;
  [[nodiscard]] bool nodes_are_routers() const override { return false; }

  /// Dimensions: row, column, side (0 = left, 1 = right), slot within the half.
  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override;
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override {
    if (a == b) return 0;
    const std::uint64_t diff =
        place_[static_cast<std::size_t>(a)] ^ place_[static_cast<std::size_t>(b)];
    const int side_change = static_cast<int>(diff & 1);
    const bool same_row = (diff >> 32) == 0;
    const bool same_column = (diff & 0xFFFF'FFFEu) == 0;
    if (same_row && same_column) return 1 + side_change;
    return (same_row || same_column ? 3 : 5) + side_change;
  }
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override { return 7; }

  [[nodiscard]] LinkId link_count() const override;
  [[nodiscard]] Link link(LinkId id) const override;
  [[nodiscard]] std::string vertex_name(VertexId v) const override;

  [[nodiscard]] HopHistogram hop_histogram() const override;
  [[nodiscard]] std::vector<NodeLevel> levels() const override;

  [[nodiscard]] std::optional<BlockStats> block_stats(std::span<const int> extents) const override;
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> extents) const override;

 private:
  // Link ids, in blocks: node up/down, cross, row-switch up/down, column-switch up/down.
  [[nodiscard]] LinkId node_link(NodeId node, bool up) const { return node * 2 + (up ? 0 : 1); }
  [[nodiscard]] LinkId cross_link(int router) const;  // from `router` to its chip's other side
  [[nodiscard]] int router_count() const { return rows_ * columns_ * sides_; }
  [[nodiscard]] LinkId cross_links() const { return sides_ == 2 ? router_count() : 0; }
  [[nodiscard]] LinkId row_link(int router, bool up) const;
  [[nodiscard]] LinkId column_link(int router, bool up) const;
  [[nodiscard]] VertexId router_vertex(int router) const { return node_count() + router; }

  int rows_;
  int columns_;
  int sides_;  // 2, or 1 in a block of left sides
  int half_;   // nodes per side of a chip
  // Per node: chip row << 32 | chip column << 1 | side, so that hops() needs no division.
  std::vector<std::uint64_t> place_;
};

}  // namespace mapsim::topo
