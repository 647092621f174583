#include "topologies/Tianhe3.hpp"

#include <array>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::topo {

Tianhe3::Tianhe3(int rows, int columns, int nodes_per_chip, int cores_per_node)
    : Tianhe3(rows, columns, nodes_per_chip, cores_per_node, 2) {}

Tianhe3::Tianhe3(int rows, int columns, int nodes_per_chip, int cores_per_node, int sides)
    : Topology({rows, columns, sides, nodes_per_chip / sides}, rows * columns * nodes_per_chip,
               cores_per_node),
      rows_(rows),
      columns_(columns),
      sides_(sides),
      half_(nodes_per_chip / sides) {
  MAPSIM_EXPECTS(sides == 1 || sides == 2, "a chip has one or two sides");
  MAPSIM_EXPECTS(nodes_per_chip >= sides && nodes_per_chip % sides == 0,
                 "checked by the spec parser");
  place_.reserve(static_cast<std::size_t>(node_count()));
  for (NodeId node = 0; node < node_count(); ++node) {
    const auto c = coordinates(node);
    place_.push_back(static_cast<std::uint64_t>(c[0]) << 32 |
                     static_cast<std::uint64_t>(c[1]) << 1 | static_cast<std::uint64_t>(c[2]));
  }
}

std::string Tianhe3::machine_spec() const {
  std::string text = fmt::format("tianhe3:{}x{}", rows_, columns_);
  if (sides_ == 2 && half_ * 2 != 96) text += fmt::format(":nodes={}", half_ * 2);
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  if (sides_ == 1) text += fmt::format(" (a block: {} nodes on the left side of each chip)", half_);
  return text;
}

VertexId Tianhe3::vertex_count() const {
  return node_count() + router_count() + rows_ + columns_;
}

std::string_view Tianhe3::dimension_name(int dim) const {
  static constexpr std::array<std::string_view, 4> kNames{"row", "column", "side", "slot"};
  return kNames[static_cast<std::size_t>(dim)];
}

std::vector<NodeLevel> Tianhe3::levels() const {
  std::vector<NodeLevel> result;
  for (const auto& [name, size] :
       {std::pair{"side router", half_}, std::pair{"chip", sides_ * half_}}) {
    const NodeId groups = node_count() / size;
    if (groups < 2 || (!result.empty() && result.back().groups == groups)) continue;
    NodeLevel level{name, groups,
                    std::vector<std::int32_t>(static_cast<std::size_t>(node_count()))};
    for (NodeId n = 0; n < node_count(); ++n) level.group[static_cast<std::size_t>(n)] = n / size;
    result.push_back(std::move(level));
  }
  return result;
}

std::vector<int> Tianhe3::coordinates(NodeId node) const {
  const int half = node / half_;
  const int chip = half / sides_;
  return {chip / columns_, chip % columns_, half % sides_, node % half_};
}

NodeId Tianhe3::node_at(std::span<const int> coords) const {
  if (coords.size() != 4) {
    throw InputError(fmt::format("{} has 4 coordinates per node (row, column, side, slot), got {}",
                                 spec(), coords.size()));
  }
  const auto dims = dimensions();
  for (std::size_t d = 0; d < 4; ++d) {
    if (coords[d] < 0 || coords[d] >= dims[d]) {
      throw InputError(fmt::format("coordinate {} = {} is outside {} (0 to {})",
                                   dimension_name(static_cast<int>(d)), coords[d], spec(),
                                   dims[d] - 1));
    }
  }
  return (((coords[0] * columns_ + coords[1]) * sides_) + coords[2]) * half_ + coords[3];
}

LinkId Tianhe3::cross_link(int router) const {
  return 2 * node_count() + router;
}

LinkId Tianhe3::row_link(int router, bool up) const {
  return 2 * node_count() + cross_links() + router * 2 + (up ? 0 : 1);
}

LinkId Tianhe3::column_link(int router, bool up) const {
  return 2 * node_count() + cross_links() + 2 * router_count() + router * 2 + (up ? 0 : 1);
}

LinkId Tianhe3::link_count() const {
  return 2 * node_count() + cross_links() + 4 * router_count();
}

void Tianhe3::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  path.clear();
  if (a == b) return;
  const int side = (a / half_) % sides_;
  const int chip_a = a / half_ / sides_;
  const int chip_b = b / half_ / sides_;
  const int row_a = chip_a / columns_;
  const int row_b = chip_b / columns_;
  const int column_b = chip_b % columns_;

  path.push_back(node_link(a, /*up=*/true));
  int router = chip_a * sides_ + side;
  if (chip_a % columns_ != column_b) {  // along the row, through the row switch
    path.push_back(row_link(router, true));
    router = (row_a * columns_ + column_b) * sides_ + side;
    path.push_back(row_link(router, false));
  }
  if (row_a != row_b) {  // along the column, through the column switch
    path.push_back(column_link(router, true));
    router = chip_b * sides_ + side;
    path.push_back(column_link(router, false));
  }
  if ((b / half_) % sides_ != side) {  // the side change happens at the destination chip
    path.push_back(cross_link(router));
  }
  path.push_back(node_link(b, /*up=*/false));
}

Link Tianhe3::link(LinkId id) const {
  const LinkId nodes_end = 2 * node_count();
  const int routers = router_count();
  if (id < nodes_end) {
    const NodeId node = id / 2;
    const VertexId router = router_vertex(node / half_);
    return id % 2 == 0 ? Link{node, router, LinkClass::Th3Node}
                       : Link{router, node, LinkClass::Th3Node};
  }
  id -= nodes_end;
  if (id < cross_links()) {
    return {router_vertex(id), router_vertex(id ^ 1), LinkClass::Th3Cross};
  }
  id -= cross_links();
  const bool row = id < 2 * routers;
  if (!row) id -= 2 * routers;
  const int router = id / 2;
  const int chip = router / sides_;
  const VertexId switch_vertex = row ? node_count() + routers + chip / columns_
                                     : node_count() + routers + rows_ + chip % columns_;
  return id % 2 == 0 ? Link{router_vertex(router), switch_vertex, LinkClass::Th3Switch}
                     : Link{switch_vertex, router_vertex(router), LinkClass::Th3Switch};
}

std::string Tianhe3::vertex_name(VertexId v) const {
  if (v < node_count()) {
    const auto c = coordinates(v);
    return fmt::format("node {} (chip {},{} {} #{})", v, c[0], c[1], c[2] == 0 ? "left" : "right",
                       c[3]);
  }
  const int routers = router_count();
  const int r = v - node_count();
  if (r < routers) {
    const int chip = r / sides_;
    return fmt::format("router (chip {},{} {})", chip / columns_, chip % columns_,
                       r % sides_ == 0 ? "left" : "right");
  }
  if (r < routers + rows_) return fmt::format("row switch {}", r - routers);
  return fmt::format("column switch {}", r - routers - rows_);
}

namespace {

// Ordered pairs per hop count of an R x C machine of chips of S sides of H nodes: every chip pair
// contributes S H^2 same-side and S (S - 1) H^2 cross-side node pairs; within one chip there are
// S H (H - 1) same-side pairs.
std::vector<std::uint64_t> tianhe3_counts(int rows, int columns, int sides, int half) {
  const auto h = static_cast<std::uint64_t>(half);
  const auto r = static_cast<std::uint64_t>(rows);
  const auto c = static_cast<std::uint64_t>(columns);
  const auto s = static_cast<std::uint64_t>(sides);
  const std::uint64_t chips = r * c;
  const std::uint64_t line_pairs = r * c * (c - 1) + c * r * (r - 1);  // same row or column
  const std::uint64_t far_pairs = chips * (r - 1) * (c - 1);
  std::vector<std::uint64_t> counts{chips * s * h,
                                    chips * s * h * (h - 1),
                                    chips * s * (s - 1) * h * h,
                                    line_pairs * s * h * h,
                                    line_pairs * s * (s - 1) * h * h,
                                    far_pairs * s * h * h,
                                    far_pairs * s * (s - 1) * h * h};
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  return counts;
}

}  // namespace

HopHistogram Tianhe3::hop_histogram() const {
  return HopHistogram{tianhe3_counts(rows_, columns_, sides_, half_)};
}

std::optional<BlockStats> Tianhe3::block_stats(std::span<const int> extents) const {
  MAPSIM_EXPECTS(extents.size() == 4, "one block extent per dimension");
  for (std::size_t d = 0; d < 4; ++d) {
    MAPSIM_EXPECTS(extents[d] >= 1 && extents[d] <= dimensions()[d],
                   "a block extent lies between 1 and the dimension's");
  }
  // The nodes of a side are all one router apart however many they are: cutting sides only
  // spreads a job over more sides and chips, so a block spanning several sides takes them whole.
  const bool one_side = extents[0] == 1 && extents[1] == 1 && extents[2] == 1;
  if (!one_side && extents[3] != half_) return std::nullopt;
  const auto counts = tianhe3_counts(extents[0], extents[1], extents[2], extents[3]);
  BlockStats stats;
  for (std::size_t h = 1; h < counts.size(); ++h) {
    if (counts[h] == 0) continue;
    stats.diameter = static_cast<int>(h);
    stats.total_hops += static_cast<double>(counts[h]) * static_cast<double>(h);
  }
  return stats;
}

std::unique_ptr<Topology> Tianhe3::block(std::span<const int> extents) const {
  MAPSIM_EXPECTS(block_stats(extents).has_value(), "a block that is a machine of its own");
  return std::make_unique<Tianhe3>(extents[0], extents[1], extents[2] * extents[3],
                                   cores_per_node(), extents[2]);
}

}  // namespace mapsim::topo
