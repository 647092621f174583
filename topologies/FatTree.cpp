#include "topologies/FatTree.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"
#include "topologies/SpecText.hpp"

namespace mapsim::topo {
namespace {

constexpr std::string_view kKaryNTree = "k-ary-n-tree";
constexpr std::string_view kLeafSpine = "leaf-spine";
constexpr std::string_view kNotation = "H;M1,...,MH;W1,...,WH;P1,...,PH";
constexpr std::array<Routing, 2> kRoutings{Routing::Minimal, Routing::Ecmp};

bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

/// One ';' group of SimGrid's notation: H comma-separated values.
void parse_list(std::string_view spec, std::string_view group, int levels, char letter,
                std::string_view meaning, std::int64_t max, std::array<int, kMaxTreeLevels>& out) {
  const auto values = split_fields(group, ',');
  if (static_cast<int>(values.size()) != levels) {
    fail_spec(spec, fmt::format("{} ({}) has {} value(s) '{}' but H = {} levels need one per level",
                                letter, meaning, values.size(), group, levels));
  }
  for (int l = 0; l < levels; ++l) {
    out[static_cast<std::size_t>(l)] =
        parse_positive(spec, values[static_cast<std::size_t>(l)],
                       fmt::format("{}{} ({} at level {})", letter, l + 1, meaning, l + 1), max);
  }
}

/// Throws unless the tree has at most kMaxNodes nodes and its link ids fit in 32 bits.
void check_size(std::string_view spec, const FatTreeShape& shape) {
  std::int64_t nodes = 1;
  for (int l = 0; l < shape.levels; ++l) {
    nodes *= shape.down[static_cast<std::size_t>(l)];
    if (nodes > kMaxNodes) {
      fail_spec(spec,
                fmt::format("more than {} nodes (M1 x ... x M{}); mapsim models machines up to "
                            "that size",
                            kMaxNodes, l + 1));
    }
  }
  // Level l has n(l-1) W(l) P(l) links each way, n(l) = n(l-1) / M(l) * W(l) vertices; a level
  // has no more vertices than links below it, so each factor stays below 2^31 until the check.
  constexpr std::int64_t kMaxLinks = std::numeric_limits<LinkId>::max();
  const auto too_many = [&](std::string_view where) {
    fail_spec(spec, fmt::format("more than {} directed links, the most 32-bit link ids allow: {}",
                                kMaxLinks, where));
  };
  std::int64_t below = nodes;  // vertices at level l
  std::int64_t links = 0;
  for (std::size_t l = 0; l < static_cast<std::size_t>(shape.levels); ++l) {
    const std::int64_t up = below * shape.up[l];
    if (up > kMaxLinks || up * shape.parallel[l] > kMaxLinks) {
      too_many(
          fmt::format("between levels {} and {} alone, {} vertices x {} parents (W{}) x {} "
                      "parallel links (P{}) x 2 directions",
                      l, l + 1, below, shape.up[l], l + 1, shape.parallel[l], l + 1));
    }
    links += 2 * up * shape.parallel[l];
    if (links > kMaxLinks) too_many(fmt::format("{} in all", links));
    below = below / shape.down[l] * shape.up[l];
  }
}

FatTreeShape parse_notation(std::string_view spec, std::string_view text) {
  const auto groups = split_fields(text, ';');
  if (groups.size() != 4) {
    fail_spec(spec,
              fmt::format("the shape '{}' has {} ';'-separated group(s); SimGrid's notation has "
                          "four, {} (e.g. 2;4,4;1,2;1,2)",
                          text, groups.size(), kNotation));
  }
  FatTreeShape shape;
  shape.levels = parse_positive(spec, groups[0], "H (switch levels)", kMaxTreeLevels);
  constexpr std::int64_t kMaxValue = std::numeric_limits<std::int32_t>::max();
  parse_list(spec, groups[1], shape.levels, 'M', "children per switch", kMaxNodes, shape.down);
  parse_list(spec, groups[2], shape.levels, 'W', "parents per vertex", kMaxValue, shape.up);
  parse_list(spec, groups[3], shape.levels, 'P', "parallel links per parent", kMaxValue,
             shape.parallel);
  return shape;
}

FatTreeShape k_ary_n_tree(std::string_view spec, std::string_view params) {
  const auto values = split_fields(params, ',');
  if (values.size() != 2) {
    fail_spec(spec, fmt::format("{} takes K,N (arity, levels), e.g. {}:4,3; got '{}'", kKaryNTree,
                                kKaryNTree, params));
  }
  const int k = parse_positive(spec, values[0], "K (the arity)", kMaxNodes);
  const int n = parse_positive(spec, values[1], "N (the levels)", kMaxTreeLevels);
  FatTreeShape shape;
  shape.levels = n;
  for (std::size_t l = 0; l < static_cast<std::size_t>(n); ++l) {
    shape.down[l] = k;
    shape.up[l] = l == 0 ? 1 : k;
    shape.parallel[l] = 1;
  }
  return shape;
}

FatTreeShape leaf_spine(std::string_view spec, std::string_view params) {
  const auto values = split_fields(params, ',');
  if (values.size() != 2 && values.size() != 3) {
    fail_spec(spec,
              fmt::format("{} takes L,H[,B] (leaf switches, nodes per leaf, blocking factor), "
                          "e.g. {}:8,16,2; got '{}'",
                          kLeafSpine, kLeafSpine, params));
  }
  const int leaves = parse_positive(spec, values[0], "L (leaf switches)", kMaxNodes);
  const int hosts = parse_positive(spec, values[1], "H (nodes per leaf)", kMaxNodes);
  const int blocking = values.size() == 3
                           ? parse_positive(spec, values[2], "B (the blocking factor)", kMaxNodes)
                           : 1;
  if (hosts % blocking != 0) {
    fail_spec(spec,
              fmt::format("the blocking factor B = {} does not divide H = {} nodes per leaf (a "
                          "leaf has H/B up-links, one to each spine)",
                          blocking, hosts));
  }
  FatTreeShape shape;
  shape.levels = 2;
  shape.down = {hosts, leaves};
  shape.up = {1, hosts / blocking};
  shape.parallel = {1, 1};
  return shape;
}

std::string notation(const FatTreeShape& shape) {
  const auto n = static_cast<std::size_t>(shape.levels);
  return fmt::format("{};{};{};{}", shape.levels, fmt::join(std::span(shape.down).first(n), ","),
                     fmt::join(std::span(shape.up).first(n), ","),
                     fmt::join(std::span(shape.parallel).first(n), ","));
}

/// 64-bit mix (splitmix64's finaliser) of a choice and a salt, reduced to [0, n).
int pick(std::uint64_t choice, int salt, int n) {
  std::uint64_t z = choice + static_cast<std::uint64_t>(salt + 1) * 0x9E37'79B9'7F4A'7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EBull;
  z ^= z >> 31;
  return static_cast<int>(z % static_cast<std::uint64_t>(n));
}

}  // namespace

ShapeText parse_fat_tree_shape(std::string_view spec, std::span<const std::string_view> positional,
                               std::span<const SpecOption> options) {
  if (!options.empty()) {
    static constexpr std::array<std::string_view, 4> kValid{"cores", "routing", "allocation",
                                                            "hosts"};
    fail_spec(spec, fmt::format("unknown option '{}'; valid options: {}{}", options[0].key,
                                fmt::join(kValid, ", "), suggest_suffix(options[0].key, kValid)));
  }
  MAPSIM_EXPECTS(!positional.empty(), "the spec parser passes the shape field");
  const auto form = positional[0];
  const bool named = form == kKaryNTree || form == kLeafSpine;
  if (!named && form.find(';') == std::string_view::npos && !all_digits(form)) {
    static constexpr std::array<std::string_view, 2> kForms{kKaryNTree, kLeafSpine};
    fail_spec(spec,
              fmt::format("'{}' is not a fat-tree shape; expected SimGrid's notation {} (e.g. "
                          "2;4,4;1,2;1,2), {}:K,N or {}:L,H[,B]{}",
                          form, kNotation, kKaryNTree, kLeafSpine, suggest_suffix(form, kForms)));
  }
  const std::size_t fields = named ? 2 : 1;
  if (named && positional.size() < 2) {
    fail_spec(spec, fmt::format("{} needs its parameters, e.g. fattree:{}", form,
                                form == kKaryNTree ? "k-ary-n-tree:4,3" : "leaf-spine:8,16"));
  }
  if (positional.size() > fields) {
    fail_spec(spec,
              fmt::format("unexpected field '{}' after the shape; options are KEY=VALUE such as "
                          "cores=4",
                          positional[fields]));
  }
  const FatTreeShape shape = form == kKaryNTree   ? k_ary_n_tree(spec, positional[1])
                             : form == kLeafSpine ? leaf_spine(spec, positional[1])
                                                  : parse_notation(spec, form);
  check_size(spec, shape);
  return ShapeText{notation(shape)};
}

std::unique_ptr<Topology> make_fat_tree(std::string_view shape, int cores) {
  const auto spec = fmt::format("fattree:{}", shape);
  const auto parsed = parse_notation(spec, shape);
  check_size(spec, parsed);
  return std::make_unique<FatTree>(parsed, cores);
}

namespace {

NodeId node_total(const FatTreeShape& shape) {
  NodeId nodes = 1;
  for (int l = 0; l < shape.levels; ++l) nodes *= shape.down[static_cast<std::size_t>(l)];
  return nodes;
}

std::vector<int> extents(const FatTreeShape& shape) {
  return {shape.down.begin(), shape.down.begin() + shape.levels};
}

}  // namespace

FatTree::FatTree(const FatTreeShape& shape, int cores_per_node)
    : Topology(extents(shape), node_total(shape), cores_per_node), shape_(shape) {
  MAPSIM_EXPECTS(shape.levels >= 1 && shape.levels <= kMaxTreeLevels, "checked by the parser");
  const auto h = level_index(height());
  subtree_[0] = 1;
  upper_[0] = 1;
  int below = node_count();  // vertices at level l - 1
  VertexId vertex = node_count();
  LinkId link = 0;
  for (std::size_t l = 1; l <= h; ++l) {
    const int m = shape.down[l - 1];
    const int w = shape.up[l - 1];
    subtree_[l] = subtree_[l - 1] * m;
    upper_[l] = upper_[l - 1] * w;
    first_link_[l] = link;
    link += 2 * below * w * shape.parallel[l - 1];
    below = below / m * w;
    first_switch_[l] = vertex;
    vertex += below;
  }
  first_link_[h + 1] = link;
  first_switch_[h + 1] = vertex;
  vertex_count_ = vertex;
}

std::string FatTree::machine_spec() const {
  std::string text = fmt::format("fattree:{}", notation(shape_));
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  return text;
}

std::string_view FatTree::dimension_name(int dim) const {
  // Dimension d: which level-d subtree (a leaf for d = 1, the node's port for d = 0) the node
  // lies in within its level-(d+1) subtree.
  static constexpr std::array<std::string_view, kMaxTreeLevels> kNames{
      "port", "leaf", "subtree-2", "subtree-3", "subtree-4", "subtree-5", "subtree-6", "subtree-7"};
  return kNames[static_cast<std::size_t>(dim)];
}

std::vector<int> FatTree::coordinates(NodeId node) const {
  std::vector<int> digits(level_index(height()));
  for (std::size_t d = 0; d < digits.size(); ++d) digits[d] = node / subtree_[d] % shape_.down[d];
  return digits;
}

NodeId FatTree::node_at(std::span<const int> coords) const {
  if (static_cast<int>(coords.size()) != height()) {
    throw InputError(fmt::format("{} has {} coordinates per node (one per switch level), got {}",
                                 spec(), height(), coords.size()));
  }
  NodeId node = 0;
  for (std::size_t d = 0; d < coords.size(); ++d) {
    if (coords[d] < 0 || coords[d] >= shape_.down[d]) {
      throw InputError(fmt::format("coordinate {} = {} is outside {} (0 to {})",
                                   dimension_name(static_cast<int>(d)), coords[d], spec(),
                                   shape_.down[d] - 1));
    }
    node += coords[d] * subtree_[d];
  }
  return node;
}

LinkId FatTree::tree_link(int level, int child, int parent, int cable, bool down) const {
  const auto l = level_index(level);
  return first_link_[l] +
         2 * ((child * shape_.up[l - 1] + parent) * shape_.parallel[l - 1] + cable) +
         (down ? 1 : 0);
}

void FatTree::route(NodeId a, NodeId b, const std::uint64_t* choice,
                    std::vector<LinkId>& path) const {
  path.clear();
  if (a == b) return;
  const int top = common_level(a, b);
  // The vertex at level i has position low + (a / subtree_[i]) * upper_[i] on the way up (its
  // digits below i are the parents taken, its digits from i on a's) and low + (b / subtree_[i])
  // * upper_[i] on the way down.
  std::array<int, kMaxTreeLevels> parent{};  // digit i of the switches from level i + 1 up
  int low = 0;
  for (std::size_t i = 0; i < level_index(top); ++i) {
    const int w = shape_.up[i];
    const int ports = w * shape_.parallel[i];
    const int port = choice != nullptr ? pick(*choice, static_cast<int>(i), ports)
                                       : b / upper_[i] % ports;  // D-mod-K
    parent[i] = port % w;
    path.push_back(tree_link(static_cast<int>(i) + 1, low + a / subtree_[i] * upper_[i], parent[i],
                             port / w, false));
    low += parent[i] * upper_[i];
  }
  for (std::size_t i = level_index(top); i-- > 0;) {
    low -= parent[i] * upper_[i];
    const int cable = choice != nullptr
                          ? pick(*choice, kMaxTreeLevels + static_cast<int>(i), shape_.parallel[i])
                          : a % shape_.parallel[i];
    path.push_back(tree_link(static_cast<int>(i) + 1, low + b / subtree_[i] * upper_[i], parent[i],
                             cable, true));
  }
}

void FatTree::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  route(a, b, nullptr, path);
}

void FatTree::alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                                     std::vector<LinkId>& path) const {
  route(a, b, &choice, path);
}

std::span<const Routing> FatTree::routings() const {
  return kRoutings;
}

Link FatTree::link(LinkId id) const {
  MAPSIM_EXPECTS(id >= 0 && id < link_count(), "a link of the machine");
  std::size_t l = 1;
  while (id >= first_link_[l + 1]) ++l;
  const int w = shape_.up[l - 1];
  const int m = shape_.down[l - 1];
  int rest = (id - first_link_[l]) / 2;
  rest /= shape_.parallel[l - 1];  // the parallel link does not change the ends
  const int parent_digit = rest % w;
  const int child = rest / w;
  // The parent's label is the child's with digit l - 1 (of radix M(l) in the child, W(l) in the
  // parent) replaced.
  const int low = child % upper_[l - 1];
  const int high = child / upper_[l - 1] / m;
  const VertexId parent = first_switch_[l] + low + (parent_digit + high * w) * upper_[l - 1];
  const VertexId child_vertex = l == 1 ? child : first_switch_[l - 1] + child;
  const LinkClass link_class = tree_link_class(static_cast<int>(l) - 1);
  return id % 2 == 0 ? Link{child_vertex, parent, link_class}
                     : Link{parent, child_vertex, link_class};
}

std::string FatTree::vertex_name(VertexId v) const {
  MAPSIM_EXPECTS(v >= 0 && v < vertex_count_, "a vertex of the machine");
  if (v < node_count()) return Topology::vertex_name(v);
  std::size_t l = 1;
  while (v >= first_switch_[l + 1]) ++l;
  return fmt::format("switch (level {}, {})", l, v - first_switch_[l]);
}

std::vector<NodeLevel> FatTree::levels() const {
  std::vector<NodeLevel> result;
  for (std::size_t l = 1; l <= level_index(height()); ++l) {
    NodeLevel level;
    level.name = l == 1 ? "leaf switch" : fmt::format("level-{} subtree", l);
    level.groups = node_count() / subtree_[l];
    level.group.resize(static_cast<std::size_t>(node_count()));
    for (NodeId n = 0; n < node_count(); ++n) {
      level.group[static_cast<std::size_t>(n)] = n / subtree_[l];
    }
    result.push_back(std::move(level));
  }
  return result;
}

HopHistogram FatTree::hop_histogram() const {
  // From each node, subtree_[l] - subtree_[l - 1] nodes have their nearest common switch at level
  // l, at 2 l - 1 hops; the node itself is at 0.
  const auto n = static_cast<std::uint64_t>(node_count());
  std::vector<std::uint64_t> counts(2 * level_index(height()), 0);
  counts[0] = n;
  for (std::size_t l = 1; l <= level_index(height()); ++l) {
    counts[2 * l - 1] = n * static_cast<std::uint64_t>(subtree_[l] - subtree_[l - 1]);
  }
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  return HopHistogram{std::move(counts)};
}

std::array<std::int64_t, kLinkClassCount> FatTree::links_per_class() const {
  std::array<std::int64_t, kLinkClassCount> counts{};
  for (std::size_t l = 1; l <= level_index(height()); ++l) {
    counts[static_cast<std::size_t>(tree_link_class(static_cast<int>(l) - 1))] =
        first_link_[l + 1] - first_link_[l];
  }
  return counts;
}

std::unique_ptr<Topology> FatTree::block(std::span<const int> /*extents*/) const {
  MAPSIM_EXPECTS(false, "a fat-tree's blocks are prefixes (prefix_blocks)");
  return nullptr;
}

}  // namespace mapsim::topo
