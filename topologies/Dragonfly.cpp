#include "topologies/Dragonfly.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"
#include "topologies/Choice.hpp"
#include "topologies/SpecText.hpp"

namespace mapsim::topo {
namespace {

constexpr std::array<Routing, 3> kRoutings{Routing::Minimal, Routing::Valiant, Routing::Ugal};
constexpr std::array<std::string_view, 4> kArrangementNames{"absolute", "relative", "circulant",
                                                            "palmtree"};
constexpr std::string_view kValidOptions = "global, cores, routing, allocation, hosts";

/// a mod m in [0, m).
int wrap(std::int64_t a, int m) {
  const auto r = static_cast<int>(a % m);
  return r < 0 ? r + m : r;
}

/// Global ports of a group the arrangement connects (see the header); 0 with one group.
std::int64_t used_ports(const DragonflyShape& s) {
  if (s.groups == 1) return 0;
  const std::int64_t ports = std::int64_t{s.routers} * s.global_ports;
  const std::int64_t others = s.groups - 1;
  switch (s.arrangement) {
    case GlobalArrangement::Absolute:
    case GlobalArrangement::Relative:
      return ports / others * others;
    case GlobalArrangement::Palmtree:
      return ports;
    case GlobalArrangement::Circulant:
      return 2 * (ports / 2 - ports / 2 / s.groups);
  }
  return 0;
}

/// Throws unless every pair of groups is joined, the arrangement's own condition holds, and the
/// machine fits mapsim's limits.
void validate(std::string_view spec, const DragonflyShape& s) {
  const std::int64_t nodes = std::int64_t{s.groups} * s.routers * s.hosts;
  if (nodes > kMaxNodes) {
    fail_spec(spec, fmt::format("G A P = {} nodes; mapsim models machines up to {} nodes", nodes,
                                kMaxNodes));
  }
  const std::int64_t ports = std::int64_t{s.routers} * s.global_ports;
  if (s.groups - 1 > ports) {
    fail_spec(spec,
              fmt::format("G = {} groups cannot all be joined: each group needs a global link to "
                          "each of the G - 1 = {} others, but has only A H = {} x {} = {} global "
                          "ports",
                          s.groups, s.groups - 1, s.routers, s.global_ports, ports));
  }
  if (s.arrangement == GlobalArrangement::Circulant) {
    if (s.global_ports % 2 != 0) {
      fail_spec(spec,
                fmt::format("global=circulant pairs each router's global ports into +e and -e "
                            "offsets, so H must be even, got H = {}",
                            s.global_ports));
    }
    // Every pair of groups is then joined: offsets 1 .. A H / 2 and their negatives cover every
    // group when A H / 2 >= floor(G / 2), which A H >= G - 1 implies for an even A H.
  }
  if (s.arrangement == GlobalArrangement::Palmtree && s.groups > 1 && ports % (s.groups - 1) != 0) {
    fail_spec(spec,
              fmt::format("global=palmtree gives every pair of groups the same number of links, "
                          "so G - 1 = {} must divide the A H = {} global ports of a group",
                          s.groups - 1, ports));
  }
  const std::int64_t links =
      2 * nodes + std::int64_t{s.groups} * s.routers * (s.routers - 1) + s.groups * used_ports(s);
  if (links > std::numeric_limits<LinkId>::max()) {
    fail_spec(spec,
              fmt::format("the machine has {} directed links; link ids are 32-bit (at most {})",
                          links, std::numeric_limits<LinkId>::max()));
  }
}

DragonflyShape parse_shape(std::string_view spec, std::span<const std::string_view> positional,
                           std::span<const SpecOption> options) {
  if (positional.size() > 1) {
    fail_spec(spec,
              fmt::format("option '{}' has no value; expected KEY=VALUE such as global=relative",
                          positional[1]));
  }
  const auto values = split_fields(positional[0], ',');
  if (values.size() != 4) {
    fail_spec(spec,
              fmt::format("the shape '{}' has {} value(s); a dragonfly is G,A,P,H (groups, "
                          "routers per group, hosts per router, global ports per router), e.g. "
                          "9,4,2,2",
                          positional[0], values.size()));
  }
  DragonflyShape shape;
  shape.groups = parse_positive(spec, values[0], "G (groups)", kMaxNodes);
  shape.routers = parse_positive(spec, values[1], "A (routers per group)", kMaxNodes);
  shape.hosts = parse_positive(spec, values[2], "P (hosts per router)", kMaxNodes);
  shape.global_ports = parse_positive(spec, values[3], "H (global ports per router)", kMaxNodes);
  for (const auto& option : options) {
    if (option.key != "global") {
      const std::array<std::string_view, 5> keys{"global", "cores", "routing", "allocation",
                                                 "hosts"};
      fail_spec(spec, fmt::format("unknown option '{}'; valid options: {}{}", option.key,
                                  kValidOptions, suggest_suffix(option.key, keys)));
    }
    const auto* found = std::find(kArrangementNames.begin(), kArrangementNames.end(), option.value);
    if (found == kArrangementNames.end()) {
      fail_spec(spec, fmt::format("global={} is not a global-link arrangement; valid: {}{}",
                                  option.value, fmt::join(kArrangementNames, ", "),
                                  suggest_suffix(option.value, kArrangementNames)));
    }
    shape.arrangement = static_cast<GlobalArrangement>(found - kArrangementNames.begin());
  }
  validate(spec, shape);
  return shape;
}

std::string shape_text(const DragonflyShape& s) {
  std::string text = fmt::format("{},{},{},{}", s.groups, s.routers, s.hosts, s.global_ports);
  if (s.arrangement != GlobalArrangement::Absolute) {
    text += fmt::format(":global={}", name(s.arrangement));
  }
  return text;
}

/// Routers r in [0, routers) with r mod n == u (0 <= u < n).
std::uint64_t residue_count(int routers, int n, int u) {
  return u < routers ? static_cast<std::uint64_t>((routers - 1 - u) / n + 1) : 0;
}

}  // namespace

std::string_view name(GlobalArrangement arrangement) {
  return kArrangementNames[static_cast<std::size_t>(arrangement)];
}

ShapeText parse_dragonfly_shape(std::string_view spec, std::span<const std::string_view> positional,
                                std::span<const SpecOption> options) {
  return ShapeText{shape_text(parse_shape(spec, positional, options))};
}

std::unique_ptr<Topology> make_dragonfly(std::string_view shape, int cores) {
  const auto fields = split_fields(shape, ':');
  std::vector<SpecOption> options;
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const auto eq = fields[i].find('=');
    options.push_back({fields[i].substr(0, eq), eq == std::string_view::npos
                                                    ? std::string_view{}
                                                    : fields[i].substr(eq + 1)});
  }
  const std::string spec = fmt::format("dragonfly:{}", shape);
  return std::make_unique<Dragonfly>(parse_shape(spec, std::span(fields).first(1), options), cores);
}

Dragonfly::Dragonfly(const DragonflyShape& shape, int cores_per_node)
    : Topology({shape.groups, shape.routers, shape.hosts},
               shape.groups * shape.routers * shape.hosts, cores_per_node),
      shape_(shape),
      group_nodes_(shape.routers * shape.hosts),
      per_pair_(0),
      used_(static_cast<int>(used_ports(shape))),
      per_router_(0),
      full_routers_(0),
      local_base_(2 * node_count()),
      global_base_(local_base_ + shape.groups * shape.routers * (shape.routers - 1)) {
  const bool by_pair = shape.arrangement != GlobalArrangement::Circulant;
  if (by_pair && shape.groups > 1) per_pair_ = used_ / (shape.groups - 1);
  // Merlin's map: ceil(used / A) ports on each router, one fewer on the last routers.
  per_router_ = (used_ + shape.routers - 1) / shape.routers;
  full_routers_ = shape.routers - (per_router_ * shape.routers - used_);
}

std::string Dragonfly::machine_spec() const {
  std::string text = fmt::format("dragonfly:{}", shape_text(shape_));
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  return text;
}

std::string_view Dragonfly::dimension_name(int dim) const {
  static constexpr std::array<std::string_view, 3> kNames{"group", "router", "host"};
  return kNames[static_cast<std::size_t>(dim)];
}

std::vector<int> Dragonfly::coordinates(NodeId node) const {
  return {node / group_nodes_, node / shape_.hosts % shape_.routers, node % shape_.hosts};
}

NodeId Dragonfly::node_at(std::span<const int> coords) const {
  if (coords.size() != 3) {
    throw InputError(fmt::format("{} has 3 coordinates per node (group, router, host), got {}",
                                 spec(), coords.size()));
  }
  const auto dims = dimensions();
  for (std::size_t d = 0; d < 3; ++d) {
    if (coords[d] < 0 || coords[d] >= dims[d]) {
      throw InputError(fmt::format("coordinate {} = {} is outside {} (0 to {})",
                                   dimension_name(static_cast<int>(d)), coords[d], spec(),
                                   dims[d] - 1));
    }
  }
  return (coords[0] * shape_.routers + coords[1]) * shape_.hosts + coords[2];
}

// ---- The global-link arrangements (the header's definitions) ----

int Dragonfly::links_between(int g, int h) const {
  if (shape_.arrangement != GlobalArrangement::Circulant) return per_pair_;
  // Plus ports of g with offset e = d (mod G), minus ports with e = -d, e in 1 .. A H / 2.
  const int groups = shape_.groups;
  const int half = used_ == 0 ? 0 : shape_.routers * (shape_.global_ports / 2);
  const int d = wrap(h - g, groups);
  const int plus = d <= half ? (half - d) / groups + 1 : 0;
  const int minus = groups - d <= half ? (half - (groups - d)) / groups + 1 : 0;
  return plus + minus;
}

int Dragonfly::port(int g, int h, int s) const {
  const int groups = shape_.groups;
  const int others = groups - 1;
  switch (shape_.arrangement) {
    case GlobalArrangement::Absolute:
      return s * others + (h < g ? h : h - 1);
    case GlobalArrangement::Relative:
      return s * others + wrap(h - g - 1, groups);
    case GlobalArrangement::Palmtree: {
      // Ports of g towards h are j = y + u M; the lower group's u is the slice.
      const int y = others - 1 - wrap(h - g - 1, groups);
      return y + (g < h ? s : per_pair_ - 1 - s) * others;
    }
    case GlobalArrangement::Circulant: {
      const int half = shape_.routers * (shape_.global_ports / 2);
      const int d = wrap(h - g, groups);
      const int plus = d <= half ? (half - d) / groups + 1 : 0;
      const int minus = groups - d <= half ? (half - (groups - d)) / groups + 1 : 0;
      // The lower group lists its plus ports first; from the upper end those are minus ports.
      bool is_minus = false;
      int t = s;
      if (g < h) {
        is_minus = s >= plus;
        if (is_minus) t = s - plus;
      } else {
        is_minus = s < minus;
        if (!is_minus) t = s - minus;
      }
      const int e = (is_minus ? groups - d : d) + t * groups;
      return 2 * (e - 1 - e / groups) + (is_minus ? 1 : 0);
    }
  }
  return 0;
}

int Dragonfly::router_of(int rank) const {
  switch (shape_.arrangement) {
    case GlobalArrangement::Absolute:
    case GlobalArrangement::Relative: {
      const int full = full_routers_ * per_router_;
      return rank < full ? rank / per_router_ : full_routers_ + (rank - full) / (per_router_ - 1);
    }
    case GlobalArrangement::Palmtree:
      return rank / shape_.global_ports;
    case GlobalArrangement::Circulant: {
      const int c = rank / 2;
      const int e = c + 1 + c / (shape_.groups - 1);
      return (e - 1) / (shape_.global_ports / 2);
    }
  }
  return 0;
}

std::pair<int, int> Dragonfly::slice_of(int g, int rank) const {
  const int groups = shape_.groups;
  const int others = groups - 1;
  switch (shape_.arrangement) {
    case GlobalArrangement::Absolute: {
      const int index = rank % others;
      return {index < g ? index : index + 1, rank / others};
    }
    case GlobalArrangement::Relative:
      return {(g + 1 + rank % others) % groups, rank / others};
    case GlobalArrangement::Palmtree: {
      const int far = shape_.routers * shape_.global_ports - 1 - rank;
      const int h = (g + 1 + far % others) % groups;
      const int u = rank / others;
      return {h, g < h ? u : per_pair_ - 1 - u};
    }
    case GlobalArrangement::Circulant: {
      const int c = rank / 2;
      const bool is_minus = rank % 2 == 1;
      const int e = c + 1 + c / others;
      const int h = wrap(is_minus ? std::int64_t{g} - e : std::int64_t{g} + e, groups);
      const int d = wrap(h - g, groups);
      const int t = (e - (is_minus ? groups - d : d)) / groups;
      const int half = shape_.routers * (shape_.global_ports / 2);
      if (g < h) {
        const int plus = d <= half ? (half - d) / groups + 1 : 0;
        return {h, is_minus ? plus + t : t};
      }
      const int minus = groups - d <= half ? (half - (groups - d)) / groups + 1 : 0;
      return {h, is_minus ? t : minus + t};
    }
  }
  return {0, 0};
}

// ---- Links and routes ----

LinkId Dragonfly::local_link(int g, int r, int q) const {
  return local_base_ + (g * shape_.routers + r) * (shape_.routers - 1) + (q < r ? q : q - 1);
}

Link Dragonfly::link(LinkId id) const {
  if (id < local_base_) {
    const NodeId node = id / 2;
    const VertexId router = node_count() + node / shape_.hosts;
    return id % 2 == 0 ? Link{node, router, LinkClass::DfHost}
                       : Link{router, node, LinkClass::DfHost};
  }
  if (id < global_base_) {
    const int i = id - local_base_;
    const int from = i / (shape_.routers - 1);  // global router index
    const int r = from % shape_.routers;
    const int j = i % (shape_.routers - 1);
    const int q = j < r ? j : j + 1;
    return {node_count() + from, node_count() + from - r + q, LinkClass::DfLocal};
  }
  const int i = id - global_base_;
  const int g = i / used_;
  const int rank = i % used_;
  const auto [h, s] = slice_of(g, rank);
  return {router_vertex(g, router_of(rank)), router_vertex(h, router_of(port(h, g, s))),
          LinkClass::DfGlobal};
}

int Dragonfly::hops(NodeId a, NodeId b) const {
  if (a == b) return 0;
  const int ra = a / shape_.hosts;
  const int rb = b / shape_.hosts;
  if (ra == rb) return 1;
  const int g = ra / shape_.routers;
  const int h = rb / shape_.routers;
  if (g == h) return 2;
  const int r = ra - g * shape_.routers;
  const int q = rb - h * shape_.routers;
  const int s = (r + q) % links_between(g, h);
  return 2 + (slice_router(g, h, s) != r ? 1 : 0) + (slice_router(h, g, s) != q ? 1 : 0);
}

void Dragonfly::between_routers(int g, int r, int h, int q, int s,
                                std::vector<LinkId>& path) const {
  if (g == h) {
    if (r != q) path.push_back(local_link(g, r, q));
    return;
  }
  const int exit_port = port(g, h, s);
  const int exit = router_of(exit_port);
  if (exit != r) path.push_back(local_link(g, r, exit));  // up to the group's exit router
  path.push_back(global_base_ + g * used_ + exit_port);   // across
  const int entry = slice_router(h, g, s);
  if (entry != q) path.push_back(local_link(h, entry, q));  // down to the destination router
}

void Dragonfly::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  path.clear();
  if (a == b) return;
  const int ra = a / shape_.hosts;
  const int rb = b / shape_.hosts;
  const int g = ra / shape_.routers;
  const int h = rb / shape_.routers;
  const int r = ra - g * shape_.routers;
  const int q = rb - h * shape_.routers;
  path.push_back(host_link(a, true));
  between_routers(g, r, h, q, g == h ? 0 : (r + q) % links_between(g, h), path);
  path.push_back(host_link(b, false));
}

std::span<const Routing> Dragonfly::routings() const {
  return kRoutings;
}

void Dragonfly::alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                                       std::vector<LinkId>& path) const {
  const int ra = a / shape_.hosts;
  const int rb = b / shape_.hosts;
  const int g = ra / shape_.routers;
  const int h = rb / shape_.routers;
  const int r = ra - g * shape_.routers;
  const int q = rb - h * shape_.routers;
  const int routers = shape_.routers;
  if (a == b || ra == rb || (g == h && routers <= 2) || (g != h && groups() <= 2)) {
    route_into(a, b, path);
    return;
  }
  path.clear();
  path.push_back(host_link(a, true));
  if (g == h) {  // through another router of the group
    const int m = skipping(choice % static_cast<std::uint64_t>(routers - 2), r, q);
    path.push_back(local_link(g, r, m));
    path.push_back(local_link(g, m, q));
  } else {  // through another group, entered and left on slices of the choice
    const auto others = static_cast<std::uint64_t>(groups() - 2);
    const int m = skipping(choice % others, g, h);
    std::uint64_t rest = choice / others;
    const auto first_links = static_cast<std::uint64_t>(links_between(g, m));
    const auto first = static_cast<int>(rest % first_links);
    rest /= first_links;
    const auto second = static_cast<int>(rest % static_cast<std::uint64_t>(links_between(m, h)));
    const int entry = slice_router(m, g, first);
    between_routers(g, r, m, entry, first, path);
    between_routers(m, entry, h, q, second, path);
  }
  path.push_back(host_link(b, false));
}

int Dragonfly::max_route_links() const {
  const bool local = shape_.routers >= 2;
  int longest = local ? 3 : 2;           // within a group
  if (shape_.routers >= 3) longest = 4;  // Valiant within a group
  if (groups() >= 2) longest = std::max(longest, local ? 5 : 3);
  if (groups() >= 3) longest = std::max(longest, local ? 7 : 4);  // Valiant between groups
  return longest;
}

std::string Dragonfly::vertex_name(VertexId v) const {
  if (v < node_count()) {
    const auto c = coordinates(v);
    return fmt::format("node {} (group {}, router {}, host {})", v, c[0], c[1], c[2]);
  }
  const int router = v - node_count();
  return fmt::format("router (group {}, {})", router / shape_.routers, router % shape_.routers);
}

std::vector<NodeLevel> Dragonfly::levels() const {
  NodeLevel routers{"router", router_count(), {}};
  NodeLevel group{"group", groups(), {}};
  routers.group.reserve(static_cast<std::size_t>(node_count()));
  group.group.reserve(static_cast<std::size_t>(node_count()));
  for (NodeId node = 0; node < node_count(); ++node) {
    routers.group.push_back(node / shape_.hosts);
    group.group.push_back(node / group_nodes_);
  }
  return {std::move(routers), std::move(group)};
}

HopHistogram Dragonfly::hop_histogram() const {
  const auto p = static_cast<std::uint64_t>(shape_.hosts);
  const auto a = static_cast<std::uint64_t>(shape_.routers);
  const auto routers = static_cast<std::uint64_t>(router_count());
  std::vector<std::uint64_t> counts(5, 0);
  counts[0] = static_cast<std::uint64_t>(node_count());
  counts[1] = routers * p * (p - 1);
  counts[2] = routers * (a - 1) * p * p;
  // Between groups g < h (the same both ways): for each slice s, the router pairs (r, q) with
  // (r + q) mod n = s take it; 2 hops if r and q hold its two ends, 3 if one of them does.
  std::uint64_t two = 0;
  std::uint64_t three = 0;
  std::uint64_t group_pairs = 0;
  for (int g = 0; g < groups(); ++g) {
    for (int h = g + 1; h < groups(); ++h) {
      ++group_pairs;
      const int n = links_between(g, h);
      for (int s = 0; s < n; ++s) {
        const int x = slice_router(g, h, s);
        const int y = slice_router(h, g, s);
        const std::uint64_t both = (x + y) % n == s ? 1 : 0;
        two += both;
        three += residue_count(shape_.routers, n, wrap(s - x, n)) +
                 residue_count(shape_.routers, n, wrap(s - y, n)) - 2 * both;
      }
    }
  }
  counts[2] += 2 * two * p * p;
  counts[3] = 2 * three * p * p;
  counts[4] = 2 * (group_pairs * a * a - two - three) * p * p;
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  return HopHistogram{std::move(counts)};
}

std::array<std::int64_t, kLinkClassCount> Dragonfly::links_per_class() const {
  std::array<std::int64_t, kLinkClassCount> counts{};
  counts[static_cast<std::size_t>(LinkClass::DfHost)] = 2 * std::int64_t{node_count()};
  counts[static_cast<std::size_t>(LinkClass::DfLocal)] = global_base_ - local_base_;
  counts[static_cast<std::size_t>(LinkClass::DfGlobal)] = std::int64_t{groups()} * used_;
  return counts;
}

std::unique_ptr<Topology> Dragonfly::block(std::span<const int> /*extents*/) const {
  MAPSIM_EXPECTS(false, "a dragonfly's blocks are prefixes (prefix_blocks)");
  return nullptr;
}

}  // namespace mapsim::topo
