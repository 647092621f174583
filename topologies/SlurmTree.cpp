#include "topologies/SlurmTree.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "support/Error.hpp"
#include "support/Hostlist.hpp"
#include "support/Suggest.hpp"
#include "topologies/SlurmTopologyFile.hpp"

namespace mapsim::topo {

namespace fs = std::filesystem;

namespace {

constexpr std::array<Routing, 2> kRoutings{Routing::Minimal, Routing::Ecmp};

/// Picks one of several equal ways: D-mod-K on the destination, or a hash of the message (ECMP).
class Chooser {
 public:
  Chooser(std::uint64_t value, bool ecmp) : value_(value), ecmp_(ecmp) {}

  std::size_t pick(std::size_t count) {
    if (count <= 1) return 0;
    if (ecmp_) {
      // splitmix64 of the choice and the step: each branching an independent draw.
      std::uint64_t z = value_ + 0x9E37'79B9'7F4A'7C15ull * ++step_;
      z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EBull;
      return static_cast<std::size_t>((z ^ (z >> 31)) % count);
    }
    const auto index = static_cast<std::size_t>((value_ / divisor_) % count);
    divisor_ = divisor_ > std::numeric_limits<std::uint64_t>::max() / count
                   ? std::numeric_limits<std::uint64_t>::max()
                   : divisor_ * count;
    return index;
  }

 private:
  std::uint64_t value_;
  bool ecmp_;
  std::uint64_t divisor_ = 1;
  std::uint64_t step_ = 0;
};

/// The index in [first, end) of the match that `chooser` picks among those `matches` accepts (at
/// least one does: the route is on a shortest way).
template <typename Matches>
std::int32_t nth_match(std::int32_t first, std::int32_t end, Chooser& chooser,
                       const Matches& matches) {
  std::size_t count = 0;
  for (auto i = first; i < end; ++i) count += matches(i) ? 1 : 0;
  MAPSIM_EXPECTS(count > 0, "a shortest way continues from every switch on it");
  auto k = chooser.pick(count);
  for (auto i = first; i < end; ++i) {
    if (!matches(i)) continue;
    if (k == 0) return i;
    --k;
  }
  return end;
}

}  // namespace

// ---- The machine -------------------------------------------------------------------------------

SlurmTree::SlurmTree(const std::filesystem::path& path, int cores_per_node)
    : SlurmTree(read_slurm_topology(path), path.string(), cores_per_node) {}

SlurmTree::SlurmTree(std::unique_ptr<SlurmTreeStructure> tree, std::string path, int cores_per_node)
    : Topology({static_cast<int>(tree->nodes())}, tree->nodes(), cores_per_node),
      path_(std::move(path)),
      max_route_links_(tree->max_route_links) {
  if (static_cast<std::int64_t>(node_count()) * cores_per_node >
      std::numeric_limits<std::int32_t>::max()) {
    fail_slurm_file(
        path_, fmt::format("{} nodes x {} cores are too many ranks", node_count(), cores_per_node));
  }
  set_host_names(std::make_shared<const HostNames>(std::move(tree->hosts),
                                                   fmt::format("Slurm topology file {}", path_)),
                 "");
  tree_ = std::move(tree);
}

SlurmTree::~SlurmTree() = default;

std::string SlurmTree::machine_spec() const {
  std::string text = fmt::format("slurm:{}", path_);
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  return text;
}

VertexId SlurmTree::vertex_count() const {
  return node_count() + tree_->switches();
}

NodeId SlurmTree::node_at(std::span<const int> coords) const {
  if (coords.size() != 1) {
    throw InputError(
        fmt::format("{} has 1 coordinate per node (its id), got {}", spec(), coords.size()));
  }
  check_node(coords[0], "coordinate");
  return coords[0];
}

int SlurmTree::hops(NodeId a, NodeId b) const {
  if (a == b) return 0;
  const auto la = tree_->leaf_of[static_cast<std::size_t>(a)];
  const auto lb = tree_->leaf_of[static_cast<std::size_t>(b)];
  if (la == lb) return 1;
  return 1 + tree_->up_down(la, lb);
}

void SlurmTree::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  walk(a, b, static_cast<std::uint64_t>(b), false, path);
}

void SlurmTree::alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                                       std::vector<LinkId>& path) const {
  if (routing() == Routing::Ecmp) {
    walk(a, b, choice, true, path);
  } else {
    route_into(a, b, path);
  }
}

void SlurmTree::walk(NodeId a, NodeId b, std::uint64_t choice, bool ecmp,
                     std::vector<LinkId>& path) const {
  path.clear();
  if (a == b) return;
  const auto& t = *tree_;
  const LinkId edge_links = 2 * node_count();
  Chooser chooser(choice, ecmp);
  path.push_back(2 * a);
  const auto lb = t.leaf_of[static_cast<std::size_t>(b)];
  auto x = t.leaf_of[static_cast<std::size_t>(a)];
  if (x != lb) {
    int remaining = t.up_down(x, lb);
    // Up, until the way straight down from x is a shortest one: to a parent on a shortest way.
    while (t.up_distance(lb, x) != remaining) {
      const auto first = t.parent_begin[static_cast<std::size_t>(x)];
      const auto end = t.parent_begin[static_cast<std::size_t>(x) + 1];
      auto chosen = first;
      if (end - first > 1) {
        chosen = nth_match(first, end, chooser, [&](std::int32_t e) {
          return 1 + t.up_down(t.parent[static_cast<std::size_t>(e)], lb) == remaining;
        });
      }
      path.push_back(edge_links + 2 * chosen);
      x = t.parent[static_cast<std::size_t>(chosen)];
      --remaining;
    }
    // Down: to a child of x that is an ancestor of b's leaf switch one link closer to it.
    const auto ancestors = t.ancestors(lb);
    const auto* dist = t.distances(lb);
    while (remaining > 0) {
      const auto below_x = [&](std::int32_t i) {
        const auto u = static_cast<std::size_t>(i);
        return dist[u] + 1 == remaining && t.edge(ancestors[u], x) >= 0;
      };
      const auto i = nth_match(0, static_cast<std::int32_t>(ancestors.size()), chooser, below_x);
      const auto child = ancestors[static_cast<std::size_t>(i)];
      path.push_back(edge_links + 2 * t.edge(child, x) + 1);
      x = child;
      --remaining;
    }
  }
  path.push_back(2 * b + 1);
}

std::span<const Routing> SlurmTree::routings() const {
  return kRoutings;
}

LinkId SlurmTree::link_count() const {
  return 2 * node_count() + 2 * static_cast<LinkId>(tree_->parent.size());
}

Link SlurmTree::link(LinkId id) const {
  const auto& t = *tree_;
  const NodeId nodes = node_count();
  if (id < 2 * nodes) {
    const NodeId node = id / 2;
    const VertexId leaf = nodes + t.leaf_of[static_cast<std::size_t>(node)];
    return id % 2 == 0 ? Link{node, leaf, LinkClass::FtHost} : Link{leaf, node, LinkClass::FtHost};
  }
  const auto e = static_cast<std::size_t>((id - 2 * nodes) / 2);
  const VertexId child = nodes + t.edge_child[e];
  const VertexId parent = nodes + t.parent[e];
  const auto link_class = tree_link_class(t.level[static_cast<std::size_t>(t.edge_child[e])]);
  return id % 2 == 0 ? Link{child, parent, link_class} : Link{parent, child, link_class};
}

std::string SlurmTree::vertex_name(VertexId v) const {
  if (v < node_count()) return fmt::format("node {} ({})", v, host_name(v));
  return fmt::format("switch {}", tree_->names[static_cast<std::size_t>(v - node_count())]);
}

std::vector<std::filesystem::path> SlurmTree::source_files() const {
  return {tree_->sources.begin(), tree_->sources.end()};
}

std::vector<NodeLevel> SlurmTree::levels() const {
  const auto& t = *tree_;
  // Per switch, its group switch at each level along its first-parent chain, computed per leaf.
  std::vector<std::array<std::int32_t, kMaxTreeLevels>> group_of(
      static_cast<std::size_t>(t.switches()));
  std::vector<bool> done(group_of.size(), false);
  for (const auto leaf : t.leaf_of) {
    if (done[static_cast<std::size_t>(leaf)]) continue;
    done[static_cast<std::size_t>(leaf)] = true;
    auto& groups = group_of[static_cast<std::size_t>(leaf)];
    auto s = leaf;
    for (int l = 1; l <= t.levels; ++l) {
      // Climb while the first parent is still at or below level l.
      for (;;) {
        const auto u = static_cast<std::size_t>(s);
        if (t.parent_begin[u] == t.parent_begin[u + 1]) break;
        const auto p = t.parent[static_cast<std::size_t>(t.parent_begin[u])];
        if (t.level[static_cast<std::size_t>(p)] > l) break;
        s = p;
      }
      groups[static_cast<std::size_t>(l - 1)] = s;
    }
  }
  std::vector<NodeLevel> levels;
  std::vector<std::int32_t> renumber(group_of.size());
  for (int l = 1; l <= t.levels; ++l) {
    NodeLevel level;
    level.name = l == 1 ? "leaf switch" : fmt::format("level-{} switch", l);
    level.group.reserve(t.leaf_of.size());
    std::fill(renumber.begin(), renumber.end(), -1);
    for (const auto leaf : t.leaf_of) {
      const auto s = group_of[static_cast<std::size_t>(leaf)][static_cast<std::size_t>(l - 1)];
      auto& g = renumber[static_cast<std::size_t>(s)];
      if (g < 0) g = level.groups++;
      level.group.push_back(g);
    }
    levels.push_back(std::move(level));
  }
  return levels;
}

HopHistogram SlurmTree::hop_histogram() const {
  const auto& t = *tree_;
  // Leaf switches with the same ancestors (at the same distances) form a class: all pairs of
  // nodes in two classes are the same hops apart, and two leaf switches of one class 3 hops (up
  // to a common parent and down).
  struct Class {
    std::vector<std::pair<std::int32_t, std::uint8_t>> above;  // ancestors but the leaf itself
    std::int64_t nodes = 0;
    std::int64_t squares = 0;  // sum over its leaf switches of nodes^2
  };
  std::map<std::vector<std::pair<std::int32_t, std::uint8_t>>, std::size_t> index;
  std::vector<Class> classes;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(max_route_links_), 0);
  counts[0] = static_cast<std::uint64_t>(node_count());
  for (std::int32_t s = 0; s < t.switches(); ++s) {
    const std::int64_t n = t.leaf_nodes[static_cast<std::size_t>(s)];
    if (n == 0) continue;
    counts[1] += static_cast<std::uint64_t>(n * (n - 1));
    std::vector<std::pair<std::int32_t, std::uint8_t>> above;
    const auto ancestors = t.ancestors(s);
    for (std::size_t i = 0; i < ancestors.size(); ++i) {
      if (ancestors[i] != s) above.emplace_back(ancestors[i], t.distances(s)[i]);
    }
    const auto [it, inserted] = index.emplace(above, classes.size());
    if (inserted) classes.push_back({std::move(above), 0, 0});
    auto& c = classes[it->second];
    c.nodes += n;
    c.squares += n * n;
  }
  for (const auto& c : classes) {
    if (c.above.empty() || c.nodes * c.nodes == c.squares) continue;
    int nearest = INT_MAX;
    for (const auto& [s, d] : c.above) nearest = std::min(nearest, static_cast<int>(d));
    counts[static_cast<std::size_t>(1 + 2 * nearest)] +=
        static_cast<std::uint64_t>(c.nodes * c.nodes - c.squares);
  }
  using Counts = std::vector<std::uint64_t>;
  const auto between = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, classes.size()), Counts(counts.size(), 0),
      [&](const tbb::blocked_range<std::size_t>& rows, Counts local) {
        for (auto i = rows.begin(); i != rows.end(); ++i) {
          const auto& x = classes[i].above;
          for (auto j = i + 1; j < classes.size(); ++j) {
            const auto& y = classes[j].above;
            int best = INT_MAX;
            for (std::size_t p = 0, q = 0; p < x.size() && q < y.size();) {
              if (x[p].first < y[q].first) {
                ++p;
              } else if (y[q].first < x[p].first) {
                ++q;
              } else {
                best = std::min(best, x[p++].second + y[q++].second);
              }
            }
            local[static_cast<std::size_t>(1 + best)] +=
                2 * static_cast<std::uint64_t>(classes[i].nodes * classes[j].nodes);
          }
        }
        return local;
      },
      [](Counts x, const Counts& y) {
        for (std::size_t h = 0; h < x.size(); ++h) x[h] += y[h];
        return x;
      });
  for (std::size_t h = 0; h < counts.size(); ++h) counts[h] += between[h];
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  return HopHistogram{std::move(counts)};
}

std::array<std::int64_t, kLinkClassCount> SlurmTree::links_per_class() const {
  std::array<std::int64_t, kLinkClassCount> counts{};
  counts[static_cast<std::size_t>(LinkClass::FtHost)] = 2 * static_cast<std::int64_t>(node_count());
  for (const auto child : tree_->edge_child) {
    counts[static_cast<std::size_t>(
        tree_link_class(tree_->level[static_cast<std::size_t>(child)]))] += 2;
  }
  return counts;
}

std::unique_ptr<Topology> SlurmTree::block(std::span<const int> /*extents*/) const {
  MAPSIM_EXPECTS(false, "a Slurm tree's blocks are prefixes (prefix_blocks)");
  return nullptr;
}

std::int32_t SlurmTree::switch_count() const {
  return tree_->switches();
}

const std::string& SlurmTree::switch_name(std::int32_t s) const {
  return tree_->names[static_cast<std::size_t>(s)];
}

std::optional<std::int32_t> SlurmTree::find_switch(std::string_view name) const {
  const auto it = tree_->index.find(std::string(name));
  if (it == tree_->index.end()) return std::nullopt;
  return it->second;
}

int SlurmTree::switch_level(std::int32_t s) const {
  return tree_->level[static_cast<std::size_t>(s)];
}

std::uint32_t SlurmTree::link_speed(std::int32_t s) const {
  return tree_->link_speed[static_cast<std::size_t>(s)];
}

std::span<const std::int32_t> SlurmTree::parents(std::int32_t s) const {
  const auto u = static_cast<std::size_t>(s);
  return {tree_->parent.data() + tree_->parent_begin[u],
          static_cast<std::size_t>(tree_->parent_begin[u + 1] - tree_->parent_begin[u])};
}

std::int32_t SlurmTree::leaf_switch(NodeId node) const {
  return tree_->leaf_of[static_cast<std::size_t>(node)];
}

int SlurmTree::tree_levels() const {
  return tree_->levels;
}

ShapeText parse_slurm_shape(std::string_view spec, std::span<const std::string_view> positional,
                            std::span<const SpecOption> options) {
  const auto fail = [&](std::string_view what) {
    throw InputError(fmt::format("topology spec '{}': {}", spec, what));
  };
  if (positional.empty() || positional[0].empty()) {
    fail("the path of a Slurm topology.conf is missing; expected e.g. slurm:topology.conf");
  }
  if (positional.size() > 1) {
    fail(
        fmt::format("slurm takes one field, the path of its topology.conf, but '{}' follows it "
                    "(a path in a spec cannot hold ':'; options are KEY=VALUE)",
                    positional[1]));
  }
  if (!options.empty()) {
    static constexpr std::array<std::string_view, 3> kValid{"cores", "routing", "allocation"};
    fail(
        fmt::format("unknown option '{}' of slurm; valid options: cores, routing, allocation "
                    "(hosts= is not one: the topology file names the hosts){}",
                    options[0].key, suggest_suffix(options[0].key, kValid)));
  }
  return ShapeText{std::string(positional[0])};
}

std::unique_ptr<Topology> make_slurm_tree(std::string_view path, int cores) {
  return std::make_unique<SlurmTree>(std::filesystem::path(path), cores);
}

}  // namespace mapsim::topo
