#include "topologies/Cascade.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "topologies/Choice.hpp"
#include "topologies/SpecText.hpp"

namespace mapsim::topo {
namespace {

constexpr std::array<Routing, 3> kRoutings{Routing::Minimal, Routing::Valiant, Routing::Ugal};
constexpr std::string_view kNotation =
    "G,GL;C,CL;R,RL;N (groups, blue links between two groups; chassis per group, black links "
    "between two chassis; blades per chassis, green links between two blades; nodes per blade), "
    "e.g. 2,1;3,1;6,1;4";

/// One level of the notation: "COUNT,LINKS".
std::pair<int, int> parse_level(std::string_view spec, std::string_view part,
                                std::string_view count, std::string_view links) {
  const auto values = split_fields(part, ',');
  if (values.size() != 2) {
    fail_spec(spec,
              fmt::format("'{}' has {} value(s); this part of SimGrid's notation is two values, "
                          "{} and {}",
                          part, values.size(), count, links));
  }
  return {parse_positive(spec, values[0], count, kMaxNodes),
          parse_positive(spec, values[1], links, kMaxNodes)};
}

/// a * b, saturating at 2^62 (both non-negative).
std::int64_t times(std::int64_t a, std::int64_t b) {
  constexpr std::int64_t kCap = std::int64_t{1} << 62;
  return a != 0 && b > kCap / a ? kCap : a * b;
}

CascadeShape parse_shape(std::string_view spec, std::span<const std::string_view> positional,
                         std::span<const SpecOption> options) {
  if (positional.size() > 1) {
    fail_spec(spec, fmt::format("option '{}' has no value; expected KEY=VALUE such as cores=4",
                                positional[1]));
  }
  if (!options.empty()) {
    fail_spec(spec,
              fmt::format("unknown option '{}'; valid options: cores, routing, allocation, hosts "
                          "(a Cascade has no option of its own)",
                          options.front().key));
  }
  const auto parts = split_fields(positional[0], ';');
  if (parts.size() != 4) {
    fail_spec(spec,
              fmt::format("the shape '{}' has {} ';'-separated part(s); SimGrid's notation is {}",
                          positional[0], parts.size(), kNotation));
  }
  CascadeShape s;
  std::tie(s.groups, s.blue_lanes) =
      parse_level(spec, parts[0], "G (groups)", "GL (blue links between two groups)");
  std::tie(s.chassis, s.black_lanes) =
      parse_level(spec, parts[1], "C (chassis per group)", "CL (black links between two chassis)");
  std::tie(s.blades, s.green_lanes) =
      parse_level(spec, parts[2], "R (blades per chassis)", "RL (green links between two blades)");
  s.nodes = parse_positive(spec, parts[3], "N (nodes per blade)", kMaxNodes);

  const std::int64_t routers = times(times(s.groups, s.chassis), s.blades);
  const std::int64_t nodes = times(routers, s.nodes);
  if (nodes > kMaxNodes) {
    fail_spec(spec, fmt::format("G C R N = {} nodes; mapsim models machines up to {} nodes", nodes,
                                kMaxNodes));
  }
  if (s.groups > s.blades) {
    fail_spec(spec,
              fmt::format("G = {} groups but R = {} blades per chassis: SimGrid attaches the blue "
                          "links towards group h to blade h of chassis 0 of every group, so a "
                          "Cascade has at most R groups",
                          s.groups, s.blades));
  }
  const std::int64_t links = 2 * nodes + times(times(routers, s.blades - 1), s.green_lanes) +
                             times(times(routers, s.chassis - 1), s.black_lanes) +
                             times(times(s.groups, s.groups - 1), s.blue_lanes);
  if (links > std::numeric_limits<LinkId>::max()) {
    fail_spec(spec,
              fmt::format("the machine has {}{} directed links; link ids are 32-bit (at most {})",
                          links >= std::int64_t{1} << 62 ? "more than " : "", links,
                          std::numeric_limits<LinkId>::max()));
  }
  return s;
}

std::string shape_text(const CascadeShape& s) {
  return fmt::format("{},{};{},{};{},{};{}", s.groups, s.blue_lanes, s.chassis, s.black_lanes,
                     s.blades, s.green_lanes, s.nodes);
}

}  // namespace

ShapeText parse_cascade_shape(std::string_view spec, std::span<const std::string_view> positional,
                              std::span<const SpecOption> options) {
  return ShapeText{shape_text(parse_shape(spec, positional, options))};
}

std::unique_ptr<Topology> make_cascade(std::string_view shape, int cores) {
  const std::array<std::string_view, 1> positional{shape};
  return std::make_unique<Cascade>(parse_shape(fmt::format("cascade:{}", shape), positional, {}),
                                   cores);
}

Cascade::Cascade(const CascadeShape& shape, int cores_per_node)
    : Topology({shape.groups, shape.chassis, shape.blades, shape.nodes},
               shape.groups * shape.chassis * shape.blades * shape.nodes, cores_per_node),
      shape_(shape),
      group_routers_(shape.chassis * shape.blades),
      green_base_(2 * node_count()),
      black_base_(green_base_ + router_count() * (shape.blades - 1) * shape.green_lanes),
      blue_base_(black_base_ + router_count() * (shape.chassis - 1) * shape.black_lanes),
      link_count_(blue_base_ + shape.groups * (shape.groups - 1) * shape.blue_lanes) {}

std::string Cascade::machine_spec() const {
  std::string text = fmt::format("cascade:{}", shape_text(shape_));
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  return text;
}

std::string_view Cascade::dimension_name(int dim) const {
  static constexpr std::array<std::string_view, 4> kNames{"group", "chassis", "blade", "node"};
  return kNames[static_cast<std::size_t>(dim)];
}

std::vector<int> Cascade::coordinates(NodeId node) const {
  const Place p = place(node / shape_.nodes);
  return {p.group, p.chassis, p.blade, node % shape_.nodes};
}

NodeId Cascade::node_at(std::span<const int> coords) const {
  if (coords.size() != 4) {
    throw InputError(
        fmt::format("{} has 4 coordinates per node (group, chassis, blade, node), got {}", spec(),
                    coords.size()));
  }
  const auto dims = dimensions();
  for (std::size_t d = 0; d < 4; ++d) {
    if (coords[d] < 0 || coords[d] >= dims[d]) {
      throw InputError(fmt::format("coordinate {} = {} is outside {} (0 to {})",
                                   dimension_name(static_cast<int>(d)), coords[d], spec(),
                                   dims[d] - 1));
    }
  }
  return router_index({coords[0], coords[1], coords[2]}) * shape_.nodes + coords[3];
}

Cascade::Place Cascade::place(int router) const {
  return {router / group_routers_, router / shape_.blades % shape_.chassis, router % shape_.blades};
}

Cascade::Lanes Cascade::lanes(std::uint64_t value) const {
  return {static_cast<int>(value % static_cast<std::uint64_t>(shape_.green_lanes)),
          static_cast<int>(value % static_cast<std::uint64_t>(shape_.black_lanes)),
          static_cast<int>(value % static_cast<std::uint64_t>(shape_.blue_lanes))};
}

// ---- Links ----

LinkId Cascade::green_link(int router, int blade, int lane) const {
  const int own = router % shape_.blades;
  return green_base_ +
         (router * (shape_.blades - 1) + (blade < own ? blade : blade - 1)) * shape_.green_lanes +
         lane;
}

LinkId Cascade::black_link(int router, int chassis, int lane) const {
  const int own = router / shape_.blades % shape_.chassis;
  return black_base_ +
         (router * (shape_.chassis - 1) + (chassis < own ? chassis : chassis - 1)) *
             shape_.black_lanes +
         lane;
}

LinkId Cascade::blue_link(int g, int h, int lane) const {
  return blue_base_ + (g * (shape_.groups - 1) + (h < g ? h : h - 1)) * shape_.blue_lanes + lane;
}

Link Cascade::link(LinkId id) const {
  const VertexId routers = node_count();  // vertex of router 0
  if (id < green_base_) {
    const NodeId node = id / 2;
    const VertexId router = routers + node / shape_.nodes;
    return id % 2 == 0 ? Link{node, router, LinkClass::DfHost}
                       : Link{router, node, LinkClass::DfHost};
  }
  if (id < black_base_) {
    const int i = (id - green_base_) / shape_.green_lanes;
    const int from = i / (shape_.blades - 1);
    const int own = from % shape_.blades;
    const int j = i % (shape_.blades - 1);
    return {routers + from, routers + from - own + (j < own ? j : j + 1), LinkClass::DfGreen};
  }
  if (id < blue_base_) {
    const int i = (id - black_base_) / shape_.black_lanes;
    const int from = i / (shape_.chassis - 1);
    const int own = from / shape_.blades % shape_.chassis;
    const int j = i % (shape_.chassis - 1);
    const int to = from + ((j < own ? j : j + 1) - own) * shape_.blades;
    return {routers + from, routers + to, LinkClass::DfBlack};
  }
  const int i = (id - blue_base_) / shape_.blue_lanes;
  const int g = i / (shape_.groups - 1);
  const int j = i % (shape_.groups - 1);
  const int h = j < g ? j : j + 1;
  return {routers + router_index({g, 0, h}), routers + router_index({h, 0, g}), LinkClass::DfBlue};
}

// ---- Routes ----

int Cascade::hops(NodeId a, NodeId b) const {
  if (a == b) return 0;
  const int ra = a / shape_.nodes;
  const int rb = b / shape_.nodes;
  if (ra == rb) return 1;
  const Place pa = place(ra);
  const Place pb = place(rb);
  if (pa.group == pb.group) {
    return 1 + (pa.blade != pb.blade ? 1 : 0) + (pa.chassis != pb.chassis ? 1 : 0);
  }
  return 2 + (pa.blade != pb.group ? 1 : 0) + (pa.chassis != 0 ? 1 : 0) +
         (pb.blade != pa.group ? 1 : 0) + (pb.chassis != 0 ? 1 : 0);
}

void Cascade::within_group(Place from, Place to, Lanes lanes, std::vector<LinkId>& path) const {
  if (from.blade != to.blade) {  // green, in the source chassis
    path.push_back(green_link(router_index(from), to.blade, lanes.green));
  }
  if (from.chassis != to.chassis) {  // black, at the destination blade
    path.push_back(
        black_link(router_index({from.group, from.chassis, to.blade}), to.chassis, lanes.black));
  }
}

void Cascade::between_routers(Place from, Place to, Lanes lanes, std::vector<LinkId>& path) const {
  if (from.group == to.group) {
    within_group(from, to, lanes, path);
    return;
  }
  within_group(from, {from.group, 0, to.group}, lanes, path);   // up to the group's exit router
  path.push_back(blue_link(from.group, to.group, lanes.blue));  // across
  within_group({to.group, 0, from.group}, to, lanes, path);     // down to the destination
}

void Cascade::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  path.clear();
  if (a == b) return;
  path.push_back(host_link(a, true));
  between_routers(place(a / shape_.nodes), place(b / shape_.nodes),
                  lanes(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b)), path);
  path.push_back(host_link(b, false));
}

int Cascade::max_route_links() const {
  const int local = (shape_.blades > 1 ? 1 : 0) + (shape_.chassis > 1 ? 1 : 0);
  int longest = 2 + local;                           // within a group
  if (group_routers_ >= 3) longest = 2 + 2 * local;  // Valiant within a group
  if (shape_.groups >= 2) longest = std::max(longest, 3 + 2 * local);
  if (shape_.groups >= 3) longest = std::max(longest, 5 + 2 * local);  // Valiant between groups
  return longest;
}

std::span<const Routing> Cascade::routings() const {
  return kRoutings;
}

void Cascade::alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                                     std::vector<LinkId>& path) const {
  const int ra = a / shape_.nodes;
  const int rb = b / shape_.nodes;
  const Place pa = place(ra);
  const Place pb = place(rb);
  const bool same_group = pa.group == pb.group;
  if (ra == rb || (same_group && group_routers_ <= 2) || (!same_group && shape_.groups <= 2)) {
    route_into(a, b, path);
    return;
  }
  path.clear();
  path.push_back(host_link(a, true));
  if (same_group) {  // through another router of the group
    const auto others = static_cast<std::uint64_t>(group_routers_ - 2);
    const int first = pa.group * group_routers_;
    const Place m = place(first + skipping(choice % others, ra - first, rb - first));
    const Lanes l = lanes(choice / others);
    within_group(pa, m, l, path);
    within_group(m, pb, l, path);
  } else {  // through another group, from its blade g to its blade h in chassis 0
    const auto others = static_cast<std::uint64_t>(shape_.groups - 2);
    const int m = skipping(choice % others, pa.group, pb.group);
    const Lanes l = lanes(choice / others);
    between_routers(pa, {m, 0, pa.group}, l, path);
    between_routers({m, 0, pa.group}, pb, l, path);
  }
  path.push_back(host_link(b, false));
}

std::string Cascade::vertex_name(VertexId v) const {
  if (v < node_count()) {
    const auto c = coordinates(v);
    return fmt::format("node {} (group {}, chassis {}, blade {}, node {})", v, c[0], c[1], c[2],
                       c[3]);
  }
  const Place p = place(v - node_count());
  return fmt::format("router (group {}, chassis {}, blade {})", p.group, p.chassis, p.blade);
}

std::vector<NodeLevel> Cascade::levels() const {
  NodeLevel blade{"blade", router_count(), {}};
  NodeLevel chassis{"chassis", shape_.groups * shape_.chassis, {}};
  NodeLevel group{"group", shape_.groups, {}};
  for (auto* level : {&blade, &chassis, &group}) {
    level->group.reserve(static_cast<std::size_t>(node_count()));
  }
  const int per_chassis = shape_.blades * shape_.nodes;
  for (NodeId node = 0; node < node_count(); ++node) {
    blade.group.push_back(node / shape_.nodes);
    chassis.group.push_back(node / per_chassis);
    group.group.push_back(node / (per_chassis * shape_.chassis));
  }
  return {std::move(blade), std::move(chassis), std::move(group)};
}

HopHistogram Cascade::hop_histogram() const {
  const auto g = static_cast<std::uint64_t>(shape_.groups);
  const auto c = static_cast<std::uint64_t>(shape_.chassis);
  const auto r = static_cast<std::uint64_t>(shape_.blades);
  const auto n = static_cast<std::uint64_t>(shape_.nodes);
  const auto routers = static_cast<std::uint64_t>(router_count());
  std::vector<std::uint64_t> counts(7, 0);
  counts[0] = routers * n;
  counts[1] = routers * n * (n - 1);
  // One group: the green hop if the blades differ, the black one if the chassis differ.
  counts[2] = g * (c * r * (r - 1) + r * c * (c - 1)) * n * n;
  counts[3] = g * c * (c - 1) * r * (r - 1) * n * n;
  // Between groups: 2 routers plus e1 + e2, where e1 = [b != h] + [c != 0] over the source's
  // routers and e2 likewise over the destination's take the values 0, 1, 2 for w0, w1, w2 routers.
  const std::uint64_t w0 = 1;
  const std::uint64_t w1 = (r - 1) + (c - 1);
  const std::uint64_t w2 = (r - 1) * (c - 1);
  const std::uint64_t pairs = g * (g - 1) * n * n;
  counts[2] += pairs * w0 * w0;
  counts[3] += pairs * 2 * w0 * w1;
  counts[4] += pairs * (w1 * w1 + 2 * w0 * w2);
  counts[5] += pairs * 2 * w1 * w2;
  counts[6] += pairs * w2 * w2;
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  return HopHistogram{std::move(counts)};
}

std::array<std::int64_t, kLinkClassCount> Cascade::links_per_class() const {
  std::array<std::int64_t, kLinkClassCount> counts{};
  counts[static_cast<std::size_t>(LinkClass::DfHost)] = green_base_;
  counts[static_cast<std::size_t>(LinkClass::DfGreen)] = black_base_ - green_base_;
  counts[static_cast<std::size_t>(LinkClass::DfBlack)] = blue_base_ - black_base_;
  counts[static_cast<std::size_t>(LinkClass::DfBlue)] = link_count_ - blue_base_;
  return counts;
}

std::unique_ptr<Topology> Cascade::block(std::span<const int> /*extents*/) const {
  MAPSIM_EXPECTS(false, "a Cascade's blocks are prefixes (prefix_blocks)");
  return nullptr;
}

}  // namespace mapsim::topo
