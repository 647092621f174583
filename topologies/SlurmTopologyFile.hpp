#pragma once
// Reading Slurm's topology.conf (topology/tree) into the switches, edges and ancestor tables of a
// SlurmTree (SlurmTree.hpp states the grammar and the model). Internal to topologies/.

#include <climits>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "topologies/Topology.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {

struct SlurmTreeStructure {
  std::vector<std::string> sources;      // the file, then the files it includes
  std::vector<std::string> hosts;        // per node
  std::vector<std::int32_t> leaf_of;     // per node: its leaf switch
  std::vector<std::int32_t> leaf_nodes;  // per switch: nodes attached (0 unless a leaf)
  std::vector<std::string> names;        // per switch
  std::unordered_map<std::string, std::int32_t> index;
  std::vector<int> level;  // per switch, 1 for a leaf
  std::vector<std::uint32_t> link_speed;
  std::vector<std::int32_t> parent_begin;  // per switch + 1: its edges, in edge order
  std::vector<std::int32_t> parent;        // per edge: the parent switch
  std::vector<std::int32_t> edge_child;    // per edge: the child switch
  // Per switch, its ancestors (itself included, at 0) with the fewest links up to each, sorted by
  // switch: anc_switch / anc_dist[anc_begin[s] .. anc_begin[s] + anc_size[s]).
  std::vector<std::int32_t> anc_begin;
  std::vector<std::int32_t> anc_size;
  std::vector<std::int32_t> anc_switch;
  std::vector<std::uint8_t> anc_dist;
  int levels = 1;
  int max_route_links = 2;

  [[nodiscard]] NodeId nodes() const { return static_cast<NodeId>(leaf_of.size()); }
  [[nodiscard]] std::int32_t switches() const { return static_cast<std::int32_t>(names.size()); }
  [[nodiscard]] std::span<const std::int32_t> ancestors(std::int32_t s) const {
    const auto u = static_cast<std::size_t>(s);
    return {anc_switch.data() + anc_begin[u], static_cast<std::size_t>(anc_size[u])};
  }
  [[nodiscard]] const std::uint8_t* distances(std::int32_t s) const {
    return anc_dist.data() + anc_begin[static_cast<std::size_t>(s)];
  }
  /// Links up from `s` to its ancestor `c`, or -1 if c is not one.
  [[nodiscard]] int up_distance(std::int32_t s, std::int32_t c) const {
    const auto a = ancestors(s);
    const auto it = std::lower_bound(a.begin(), a.end(), c);
    if (it == a.end() || *it != c) return -1;
    return distances(s)[it - a.begin()];
  }
  /// The edge from `child` up to `parent`, or -1 if there is none.
  [[nodiscard]] std::int32_t edge(std::int32_t child, std::int32_t parent) const {
    const auto u = static_cast<std::size_t>(child);
    for (auto e = parent_begin[u]; e < parent_begin[u + 1]; ++e) {
      if (this->parent[static_cast<std::size_t>(e)] == parent) return e;
    }
    return -1;
  }
  /// The fewest switch links of a way up from x to a common ancestor and down to y.
  [[nodiscard]] int up_down(std::int32_t x, std::int32_t y) const {
    auto ax = ancestors(x);
    auto ay = ancestors(y);
    const auto* dx = distances(x);
    const auto* dy = distances(y);
    if (ax.size() > ay.size()) {
      std::swap(ax, ay);
      std::swap(dx, dy);
    }
    int best = INT_MAX;
    if (ax.size() * 8 < ay.size()) {  // few against many (a spine against a leaf): search
      for (std::size_t i = 0; i < ax.size(); ++i) {
        const auto it = std::lower_bound(ay.begin(), ay.end(), ax[i]);
        if (it != ay.end() && *it == ax[i]) best = std::min(best, dx[i] + dy[it - ay.begin()]);
      }
      return best;
    }
    for (std::size_t i = 0, j = 0; i < ax.size() && j < ay.size();) {
      if (ax[i] < ay[j]) {
        ++i;
      } else if (ay[j] < ax[i]) {
        ++j;
      } else {
        best = std::min(best, dx[i] + dy[j]);
        ++i;
        ++j;
      }
    }
    return best;
  }
};

/// Where a line or value was read.
struct SlurmLocation {
  std::string file;
  int line = 0;
};

/// KEY=VALUE as the file gives it.
struct SlurmPair {
  std::string key;
  std::string value;
  int line = 0;
};

/// One SwitchName line.
struct SlurmSwitchLine {
  SlurmLocation at;
  std::string name;
  std::optional<SlurmPair> nodes;
  std::optional<SlurmPair> switches;
  std::uint32_t link_speed = 1;  // Slurm's default
};

/// The SwitchName lines of a file and the files it includes, in order, and those files.
struct SlurmConf {
  std::vector<SlurmSwitchLine> switches;
  std::vector<std::string> sources;
};

/// Reads the file as Slurm's parse_config.c does (SlurmTopologyFile.cpp); throws InputError
/// naming the file, line and bad value.
SlurmConf read_slurm_conf(const std::filesystem::path& path);

/// The tree of the lines (SlurmTreeBuilder.cpp); throws InputError for an unknown switch, a node
/// under two leaf switches, a cycle, several roots... (`top`: the file, for messages).
std::unique_ptr<SlurmTreeStructure> build_slurm_tree(SlurmConf conf, std::string_view top);

/// read_slurm_conf, then build_slurm_tree.
std::unique_ptr<SlurmTreeStructure> read_slurm_topology(const std::filesystem::path& path);

/// Throw InputError "Slurm topology file FILE: WHAT" and "... FILE:LINE: WHAT".
[[noreturn]] void fail_slurm_file(std::string_view file, std::string_view what);
[[noreturn]] void fail_slurm_at(const SlurmLocation& at, std::string_view what);

/// Blanks as Slurm's parser takes them.
bool is_slurm_blank(char c);

}  // namespace mapsim::topo
