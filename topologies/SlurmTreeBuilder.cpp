// The tree of a topology.conf's SwitchName lines: switches, levels, edges and ancestor tables
// (SlurmTopologyFile.hpp; the rules are SlurmTree.hpp's).

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
namespace {

using Location = SlurmLocation;
using Pair = SlurmPair;
using Declaration = SlurmSwitchLine;

[[noreturn]] void fail_at(const Location& at, std::string_view what) {
  fail_slurm_at(at, what);
}

[[noreturn]] void fail_file(std::string_view file, std::string_view what) {
  fail_slurm_file(file, what);
}

/// Slurm's hostlist text as support/Hostlist.hpp reads it: Slurm also splits items at blanks
/// and skips empty ones ("a,,b", "a b" in a quoted value).
std::string normalised_hostlist(std::string_view value) {
  std::string out;
  int depth = 0;
  bool separate = false;
  for (const char c : value) {
    if (depth <= 0 && (c == ',' || is_slurm_blank(c))) {
      separate = !out.empty();
      continue;
    }
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (separate) out += ',';
    separate = false;
    out += c;
  }
  return out;
}

std::vector<std::string> expand(const Pair& pair, const Declaration& d) {
  const Location at{d.at.file, pair.line};
  const auto text = normalised_hostlist(pair.value);
  if (text.empty()) fail_at(at, fmt::format("{}= of switch '{}' names nothing", pair.key, d.name));
  return expand_hostlist(text, fmt::format("Slurm topology file {}:{}: {} of switch '{}'", at.file,
                                           at.line, pair.key, d.name));
}

std::string where(const Location& at) {
  return fmt::format("{}:{}", at.file, at.line);
}

struct Edge {
  std::int32_t child = 0;
  std::int32_t parent = 0;
  Location listed;  // the Switches= that lists the child
};

class Builder {
 public:
  Builder(std::vector<Declaration> declarations, std::vector<std::string> sources,
          std::string_view top)
      : decl_(std::move(declarations)), top_(top) {
    tree_->sources = std::move(sources);
  }

  std::unique_ptr<SlurmTreeStructure> build() {
    if (decl_.empty()) {
      fail_file(top_,
                "defines no switch and no node (a topology/tree file has lines "
                "SwitchName=NAME Nodes=HOSTLIST)");
    }
    name_switches();
    attach_nodes();
    if (tree_->nodes() == 0) fail_file(top_, "names no node");
    link_switches();
    order_by_level();
    check_connected();
    ancestor_tables();
    return std::move(tree_);
  }

 private:
  void name_switches() {
    auto& t = *tree_;
    for (const auto& d : decl_) {
      const auto s = static_cast<std::int32_t>(t.names.size());
      const auto [it, inserted] = t.index.emplace(d.name, s);
      if (!inserted) {
        fail_at(d.at, fmt::format("switch '{}' is defined twice (first at {})", d.name,
                                  where(decl_[static_cast<std::size_t>(it->second)].at)));
      }
      t.names.push_back(d.name);
      t.link_speed.push_back(d.link_speed);
    }
    t.leaf_nodes.assign(t.names.size(), 0);
  }

  void attach_nodes() {
    auto& t = *tree_;
    std::unordered_map<std::string, NodeId> node_index;
    for (std::size_t s = 0; s < decl_.size(); ++s) {
      const auto& d = decl_[s];
      if (!d.nodes) continue;
      const Location at{d.at.file, d.nodes->line};
      const auto context =
          fmt::format("Slurm topology file {}: Nodes of switch '{}'", where(at), d.name);
      for (auto& host : expand(*d.nodes, d)) {
        check_host_name(host, context);
        const auto [it, inserted] = node_index.emplace(host, t.nodes());
        if (!inserted) {
          const auto other = t.leaf_of[static_cast<std::size_t>(it->second)];
          if (other == static_cast<std::int32_t>(s)) {
            fail_at(at, fmt::format("node '{}' is listed twice under switch '{}'", host, d.name));
          }
          fail_at(at, fmt::format("node '{}' is under leaf switch '{}' and under '{}' (at {}); a "
                                  "node attaches to one leaf switch",
                                  host, d.name, t.names[static_cast<std::size_t>(other)],
                                  where(decl_[static_cast<std::size_t>(other)].at)));
        }
        if (t.leaf_of.size() >= static_cast<std::size_t>(kMaxNodes)) {
          fail_at(at, fmt::format("more than {} nodes; mapsim models machines up to that size",
                                  kMaxNodes));
        }
        t.hosts.push_back(std::move(host));
        t.leaf_of.push_back(static_cast<std::int32_t>(s));
        ++t.leaf_nodes[s];
      }
    }
  }

  void link_switches() {
    auto& t = *tree_;
    const std::vector<std::string>& all_names = t.names;
    std::vector<std::int32_t> listed_by(t.names.size(), -1);  // the last switch listing each
    for (std::size_t p = 0; p < decl_.size(); ++p) {
      const auto& d = decl_[p];
      if (!d.switches) continue;
      const Location at{d.at.file, d.switches->line};
      for (const auto& child : expand(*d.switches, d)) {
        const auto it = t.index.find(child);
        if (it == t.index.end()) {
          fail_at(at, fmt::format("switch '{}' lists '{}' in Switches=, which no SwitchName line "
                                  "defines{}",
                                  d.name, child, suggest_suffix(child, all_names)));
        }
        auto& lister = listed_by[static_cast<std::size_t>(it->second)];
        if (lister == static_cast<std::int32_t>(p)) {
          fail_at(at, fmt::format("switch '{}' lists '{}' twice in Switches=", d.name, child));
        }
        lister = static_cast<std::int32_t>(p);
        edges_.push_back({it->second, static_cast<std::int32_t>(p), at});
      }
    }
    // Edges in order of the child, its parents in file order (a stable sort keeps that order).
    std::stable_sort(edges_.begin(), edges_.end(),
                     [](const Edge& x, const Edge& y) { return x.child < y.child; });
    const auto switches = static_cast<std::size_t>(t.switches());
    const auto links = 2 * static_cast<std::int64_t>(t.nodes()) + 2 * std::ssize(edges_);
    if (links > std::numeric_limits<LinkId>::max()) {
      fail_file(top_, fmt::format("{} links are too many to model", links));
    }
    t.parent_begin.assign(switches + 1, 0);
    for (const auto& e : edges_) {
      ++t.parent_begin[static_cast<std::size_t>(e.child) + 1];
      t.parent.push_back(e.parent);
      t.edge_child.push_back(e.child);
    }
    std::partial_sum(t.parent_begin.begin(), t.parent_begin.end(), t.parent_begin.begin());
    // Children, for the level order and for the search of a root.
    child_begin_.assign(switches + 1, 0);
    for (const auto& e : edges_) ++child_begin_[static_cast<std::size_t>(e.parent) + 1];
    std::partial_sum(child_begin_.begin(), child_begin_.end(), child_begin_.begin());
    child_edges_.resize(edges_.size());
    auto fill = child_begin_;
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      child_edges_[static_cast<std::size_t>(fill[static_cast<std::size_t>(edges_[e].parent)]++)] =
          static_cast<std::int32_t>(e);
    }
  }

  [[nodiscard]] std::span<const std::int32_t> child_edges(std::int32_t s) const {
    const auto u = static_cast<std::size_t>(s);
    return {child_edges_.data() + child_begin_[u],
            static_cast<std::size_t>(child_begin_[u + 1] - child_begin_[u])};
  }

  // Levels bottom-up (Kahn's order: every switch after the switches below it); cycles are what
  // never comes out.
  void order_by_level() {
    auto& t = *tree_;
    const auto switches = static_cast<std::size_t>(t.switches());
    t.level.assign(switches, 1);
    std::vector<std::int32_t> pending(switches);
    for (std::size_t s = 0; s < switches; ++s) {
      pending[s] = child_begin_[s + 1] - child_begin_[s];
      if (pending[s] == 0) order_.push_back(static_cast<std::int32_t>(s));
    }
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const auto s = static_cast<std::size_t>(order_[i]);
      if (t.level[s] > kMaxTreeLevels) {
        fail_at(decl_[s].at, fmt::format("switch '{}' is at level {} (a chain of {} switches from "
                                         "a leaf switch up to it); mapsim models trees of at most "
                                         "{} levels",
                                         t.names[s], t.level[s], t.level[s], kMaxTreeLevels));
      }
      t.levels = std::max(t.levels, t.level[s]);
      for (auto e = t.parent_begin[s]; e < t.parent_begin[s + 1]; ++e) {
        const auto p = static_cast<std::size_t>(t.parent[static_cast<std::size_t>(e)]);
        t.level[p] = std::max(t.level[p], t.level[s] + 1);
        if (--pending[p] == 0) order_.push_back(static_cast<std::int32_t>(p));
      }
    }
    if (order_.size() == switches) return;
    // A switch left over has a child left over: walk down them until one repeats.
    auto s = static_cast<std::int32_t>(
        std::find_if(pending.begin(), pending.end(), [](std::int32_t n) { return n > 0; }) -
        pending.begin());
    std::vector<std::int32_t> seen_at(switches, -1);
    std::vector<const Edge*> walk;
    while (seen_at[static_cast<std::size_t>(s)] < 0) {
      seen_at[static_cast<std::size_t>(s)] = static_cast<std::int32_t>(walk.size());
      for (const auto e : child_edges(s)) {
        const auto& edge = edges_[static_cast<std::size_t>(e)];
        if (pending[static_cast<std::size_t>(edge.child)] > 0) {
          walk.push_back(&edge);
          s = edge.child;
          break;
        }
      }
    }
    std::vector<std::string> steps;
    for (auto i = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(s)]); i < walk.size();
         ++i) {
      steps.push_back(
          fmt::format("'{}' lists '{}' (at {})", t.names[static_cast<std::size_t>(walk[i]->parent)],
                      t.names[static_cast<std::size_t>(walk[i]->child)], where(walk[i]->listed)));
    }
    const auto& first = *walk[static_cast<std::size_t>(seen_at[static_cast<std::size_t>(s)])];
    fail_at(first.listed,
            fmt::format("the switches form a cycle, so switch '{}' is below itself: "
                        "{}; a tree has no cycles",
                        t.names[static_cast<std::size_t>(s)], fmt::join(steps, ", ")));
  }

  // Some switch must reach every node (a root: a switch that does has no parent, or its parent
  // would too). Nodes below several roots and no common one cannot be routed between.
  void check_connected() {
    auto& t = *tree_;
    const auto switches = static_cast<std::size_t>(t.switches());
    std::vector<std::int32_t> stamp(switches, -1);
    std::vector<std::int32_t> stack;
    std::vector<std::pair<std::int32_t, std::int64_t>> roots;  // switch, nodes below
    for (std::size_t r = 0; r < switches; ++r) {
      if (t.parent_begin[r] != t.parent_begin[r + 1]) continue;
      std::int64_t reached = 0;
      stack.assign(1, static_cast<std::int32_t>(r));
      stamp[r] = static_cast<std::int32_t>(r);
      while (!stack.empty()) {
        const auto s = stack.back();
        stack.pop_back();
        reached += t.leaf_nodes[static_cast<std::size_t>(s)];
        for (const auto e : child_edges(s)) {
          const auto c = static_cast<std::size_t>(edges_[static_cast<std::size_t>(e)].child);
          if (stamp[c] == static_cast<std::int32_t>(r)) continue;
          stamp[c] = static_cast<std::int32_t>(r);
          stack.push_back(static_cast<std::int32_t>(c));
        }
      }
      if (reached == t.nodes()) {
        root_ = static_cast<std::int32_t>(r);
        return;
      }
      roots.emplace_back(static_cast<std::int32_t>(r), reached);
    }
    std::vector<std::string> listed;
    for (std::size_t i = 0; i < roots.size() && i < 6; ++i) {
      const auto s = static_cast<std::size_t>(roots[i].first);
      listed.push_back(
          fmt::format("'{}' ({}, {} nodes)", t.names[s], where(decl_[s].at), roots[i].second));
    }
    if (roots.size() > 6) listed.push_back(fmt::format("and {} more", roots.size() - 6));
    fail_file(top_, fmt::format("no switch reaches every node: the {} roots {} have no common "
                                "ancestor, and mapsim needs one connected tree to route between "
                                "their nodes. Add a line above them, e.g. 'SwitchName=top "
                                "Switches={},{}'",
                                roots.size(), fmt::join(listed, ", "),
                                t.names[static_cast<std::size_t>(roots[0].first)],
                                t.names[static_cast<std::size_t>(roots[1].first)]));
  }

  // Top-down (reverse Kahn order): a switch's ancestors are itself and its parents' ancestors one
  // link further, each at the fewest links.
  void ancestor_tables() {
    auto& t = *tree_;
    const auto switches = static_cast<std::size_t>(t.switches());
    t.anc_begin.assign(switches, 0);
    t.anc_size.assign(switches, 0);
    std::vector<std::pair<std::int32_t, std::uint8_t>> merged;
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const auto s = static_cast<std::size_t>(*it);
      merged.assign(1, {*it, 0});
      for (auto e = t.parent_begin[s]; e < t.parent_begin[s + 1]; ++e) {
        const auto p = t.parent[static_cast<std::size_t>(e)];
        const auto ancestors = t.ancestors(p);
        const auto* dist = t.distances(p);
        for (std::size_t i = 0; i < ancestors.size(); ++i) {
          merged.emplace_back(ancestors[i], static_cast<std::uint8_t>(dist[i] + 1));
        }
      }
      std::sort(merged.begin(), merged.end());
      merged.erase(std::unique(merged.begin(), merged.end(),
                               [](const auto& x, const auto& y) { return x.first == y.first; }),
                   merged.end());
      t.anc_begin[s] = static_cast<std::int32_t>(t.anc_switch.size());
      t.anc_size[s] = static_cast<std::int32_t>(merged.size());
      for (const auto& [a, d] : merged) {
        t.anc_switch.push_back(a);
        t.anc_dist.push_back(d);
      }
      if (t.anc_switch.size() >
          static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        fail_file(top_, "the switches have too many ancestors to model (a dense mesh of switches)");
      }
    }
    // The longest route is at most up from one leaf switch to the root that reaches all and down
    // to another: the two farthest leaf switches from it (exact on a balanced tree).
    std::array<int, 2> farthest{0, 0};
    for (std::size_t s = 0; s < switches; ++s) {
      if (t.leaf_nodes[s] == 0) continue;
      const int d = t.up_distance(static_cast<std::int32_t>(s), root_);
      if (d > farthest[0]) {
        farthest = {d, farthest[0]};
      } else {
        farthest[1] = std::max(farthest[1], d);
      }
    }
    t.max_route_links = 2 + farthest[0] + farthest[1];
  }

  std::vector<Declaration> decl_;
  std::string top_;
  std::unique_ptr<SlurmTreeStructure> tree_ = std::make_unique<SlurmTreeStructure>();
  std::vector<Edge> edges_;
  std::vector<std::int32_t> child_begin_;
  std::vector<std::int32_t> child_edges_;
  std::vector<std::int32_t> order_;  // switches bottom-up
  std::int32_t root_ = 0;
};

}  // namespace

std::unique_ptr<SlurmTreeStructure> build_slurm_tree(SlurmConf conf, std::string_view top) {
  return Builder(std::move(conf.switches), std::move(conf.sources), top).build();
}

}  // namespace mapsim::topo
