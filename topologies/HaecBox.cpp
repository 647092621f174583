#include "topologies/HaecBox.hpp"

#include <array>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::topo {

HaecBox::HaecBox(int x, int y, int z, int cores_per_node)
    : HaecBox(x, y, z, cores_per_node, {true, true}) {}

HaecBox::HaecBox(int x, int y, int z, int cores_per_node, std::array<bool, 2> board_wraps)
    : Topology({x, y, z}, x * y * z, cores_per_node),
      board_({x, y}, std::vector<bool>{board_wraps[0], board_wraps[1]}, 1),
      boards_(z),
      board_nodes_(x * y),
      board_links_(board_.link_count()) {}

std::string HaecBox::machine_spec() const {
  const auto dims = dimensions();
  std::string text = fmt::format("haec:{}x{}x{}", dims[0], dims[1], dims[2]);
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  if (!is_torus(0) || !is_torus(1)) {
    text += fmt::format(" (a block: boards without wrap-around in {})",
                        is_torus(0) ? "y" : (is_torus(1) ? "x" : "x, y"));
  }
  return text;
}

std::string_view HaecBox::dimension_name(int dim) const {
  static constexpr std::array<std::string_view, 3> kNames{"x", "y", "z"};
  return kNames[static_cast<std::size_t>(dim)];
}

std::vector<NodeLevel> HaecBox::levels() const {
  if (boards_ < 2) return {};
  NodeLevel level{"board", boards_,
                  std::vector<std::int32_t>(static_cast<std::size_t>(node_count()))};
  for (NodeId n = 0; n < node_count(); ++n)
    level.group[static_cast<std::size_t>(n)] = n / board_nodes_;
  return {std::move(level)};
}

std::vector<int> HaecBox::coordinates(NodeId node) const {
  auto xy = board_.coordinates(node % board_nodes_);
  xy.push_back(node / board_nodes_);
  return xy;
}

NodeId HaecBox::node_at(std::span<const int> coords) const {
  if (coords.size() != 3) {
    throw InputError(fmt::format("{} has 3 coordinates per node, got {}", spec(), coords.size()));
  }
  if (coords[2] < 0 || coords[2] >= boards_) {
    throw InputError(
        fmt::format("coordinate z = {} is outside {} (0 to {})", coords[2], spec(), boards_ - 1));
  }
  return board_.node_at(coords.first(2)) + coords[2] * board_nodes_;
}

LinkId HaecBox::wireless_link(int from, int z, int to, bool up) const {
  const int lower = up ? z : z - 1;  // the board pair (lower, lower + 1)
  const LinkId base = board_links_ * boards_;
  return base + ((lower * 2 + (up ? 0 : 1)) * board_nodes_ + from) * board_nodes_ + to;
}

void HaecBox::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  const int za = a / board_nodes_;
  const int zb = b / board_nodes_;
  const int pa = a % board_nodes_;
  const int pb = b % board_nodes_;
  if (za == zb) {
    board_.route_into(pa, pb, path);
    for (auto& id : path) id += za * board_links_;
    return;
  }
  path.clear();
  const bool up = zb > za;
  path.push_back(wireless_link(pa, za, pb, up));
  for (int z = za + (up ? 1 : -1); z != zb; z += up ? 1 : -1) {
    path.push_back(wireless_link(pb, z, pb, up));
  }
}

int HaecBox::max_route_links() const {
  return std::max(board_.max_route_links(), boards_ - 1);
}

LinkId HaecBox::link_count() const {
  return board_links_ * boards_ + 2 * (boards_ - 1) * board_nodes_ * board_nodes_;
}

Link HaecBox::link(LinkId id) const {
  const LinkId optical = board_links_ * boards_;
  if (id < optical) {
    const int z = id / board_links_;
    Link l = board_.link(id % board_links_);
    l.from += z * board_nodes_;
    l.to += z * board_nodes_;
    l.link_class = LinkClass::HaecOptical;
    return l;
  }
  LinkId rest = id - optical;
  const int to = rest % board_nodes_;
  rest /= board_nodes_;
  const int from = rest % board_nodes_;
  rest /= board_nodes_;
  const bool up = rest % 2 == 0;
  const int lower = rest / 2;
  const int z_from = up ? lower : lower + 1;
  const int z_to = up ? lower + 1 : lower;
  return {from + z_from * board_nodes_, to + z_to * board_nodes_, LinkClass::HaecWireless};
}

HopHistogram HaecBox::hop_histogram() const {
  // Same-board pairs: Z copies of the board's histogram. Pairs on boards dz apart: there are
  // 2 (Z - dz) ordered board pairs, each with board_nodes^2 node pairs, all at dz hops.
  auto counts = board_.hop_histogram().counts;
  for (auto& c : counts) c *= static_cast<std::uint64_t>(boards_);
  const auto per_board_pair = static_cast<std::uint64_t>(board_nodes_) * board_nodes_;
  if (static_cast<int>(counts.size()) < boards_)
    counts.resize(static_cast<std::size_t>(boards_), 0);
  for (int dz = 1; dz < boards_; ++dz) {
    counts[static_cast<std::size_t>(dz)] +=
        2 * static_cast<std::uint64_t>(boards_ - dz) * per_board_pair;
  }
  return HopHistogram{std::move(counts)};
}

}  // namespace mapsim::topo

namespace mapsim::topo {

std::array<std::int64_t, kLinkClassCount> HaecBox::links_per_class() const {
  std::array<std::int64_t, kLinkClassCount> counts{};
  counts[static_cast<std::size_t>(LinkClass::HaecOptical)] =
      static_cast<std::int64_t>(board_links_) * boards_;
  counts[static_cast<std::size_t>(LinkClass::HaecWireless)] =
      2 * static_cast<std::int64_t>(boards_ - 1) * board_nodes_ * board_nodes_;
  return counts;
}

std::optional<BlockStats> HaecBox::block_stats(std::span<const int> extents) const {
  MAPSIM_EXPECTS(extents.size() == 3, "one block extent per dimension");
  MAPSIM_EXPECTS(extents[2] >= 1 && extents[2] <= boards_, "a block extent lies in the machine");
  const auto board = board_.block_stats(extents.first(2));
  if (!board) return std::nullopt;
  // Boards dz apart: 2 (z - dz) ordered board pairs, each of (x y)^2 node pairs at dz hops;
  // summed over dz, (z^3 - z) / 3 board-pair hops.
  const double z = extents[2];
  const double board_nodes = static_cast<double>(extents[0]) * extents[1];
  BlockStats stats;
  stats.diameter = std::max(board->diameter, extents[2] - 1);
  stats.total_hops = z * board->total_hops + board_nodes * board_nodes * (z * z * z - z) / 3;
  return stats;
}

std::unique_ptr<Topology> HaecBox::block(std::span<const int> extents) const {
  MAPSIM_EXPECTS(block_stats(extents).has_value(), "a block that is a machine of its own");
  const auto dims = dimensions();
  return std::make_unique<HaecBox>(extents[0], extents[1], extents[2], cores_per_node(),
                                   std::array<bool, 2>{is_torus(0) && extents[0] == dims[0],
                                                       is_torus(1) && extents[1] == dims[1]});
}

}  // namespace mapsim::topo
