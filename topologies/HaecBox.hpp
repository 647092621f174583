#pragma once
// The HAEC Box (Besmer 2016, sec. 2.4): Z boards, each an X x Y 2-D torus of optical links;
// adjacent boards are fully interconnected by wireless links (every node of board z has a direct
// wireless link to every node of boards z - 1 and z + 1).
//
// Node (x, y, z) has id x + X * (y + Y * z).
// Routing: on one board, 2-D torus dimension order (x, then y). Across boards, |dz| wireless hops:
// the first lands directly on the destination's (x, y) column of the next board, the others go
// straight up or down that column.
// hops(a, b) = 2-D torus distance if z(a) == z(b), else |z(b) - z(a)|.
// levels(): the boards (group = z), when there are several.
// A block of the box (Block.hpp) has boards that may be cut in x or y: the internal constructor
// takes the boards' wrap-around per dimension (a cut board is a 2-D mesh there).

#include <array>

#include "topologies/GridTopology.hpp"

namespace mapsim::topo {

class HaecBox final : public Topology {
 public:
  /// Preconditions (checked by the spec parser): x, y, z >= 1.
  HaecBox(int x, int y, int z, int cores_per_node);
  /// Boards wrap around in x iff board_wraps[0], in y iff board_wraps[1].
  HaecBox(int x, int y, int z, int cores_per_node, std::array<bool, 2> board_wraps);

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "haec"; }

  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int dim) const override { return dim < 2 && board_.is_torus(dim); }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override;
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override {
    const int za = a / board_nodes_;
    const int zb = b / board_nodes_;
    if (za == zb) return board_.hops(a - za * board_nodes_, b - zb * board_nodes_);
    return za < zb ? zb - za : za - zb;
  }
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override;

  [[nodiscard]] LinkId link_count() const override;
  [[nodiscard]] Link link(LinkId id) const override;

  [[nodiscard]] HopHistogram hop_histogram() const override;
  [[nodiscard]] std::vector<NodeLevel> levels() const override;
  [[nodiscard]] std::array<std::int64_t, kLinkClassCount> links_per_class() const override;

  [[nodiscard]] std::optional<BlockStats> block_stats(std::span<const int> extents) const override;
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> extents) const override;

 private:
  /// Id of the wireless link from board position `from` on board z to position `to` on board
  /// z + 1 (up) or z - 1 (down).
  [[nodiscard]] LinkId wireless_link(int from, int z, int to, bool up) const;

  GridTopology board_;  // one board's 2-D torus; board z's links are shifted by z * its links
  int boards_;
  int board_nodes_;
  LinkId board_links_;
};

}  // namespace mapsim::topo
