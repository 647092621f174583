#pragma once
// A cluster read from Slurm's topology.conf for the topology/tree plugin: spec "slurm:PATH".
//
// Notation (Slurm's topology.conf(5), read as Slurm's parse_config.c and hostlist.c read it):
//   SwitchName=NAME Nodes=HOSTLIST [LinkSpeed=N]      a leaf switch and its nodes
//   SwitchName=NAME Switches=HOSTLIST [LinkSpeed=N]   a switch and the switches below it
// One switch per line; SwitchName first, the other keys in any order; keys in any case; spaces
// allowed around '='; a value is a run of non-blanks or "quoted"; '#' starts a comment (not
// after '\'); a line ending in '\' goes on with the next; '\x' reads as x; "Include FILE" reads
// another file there (a relative FILE is taken from the topology file's folder, as Slurm takes it
// from slurm.conf's, which is the same). A hostlist is Slurm's: "nid[0001-0004,0007]", items
// split by commas or blanks (support/Hostlist.hpp). LinkSpeed is checked as Slurm checks it (a
// 32-bit count: decimal, 0x hex, 0 octal, a k suffix for x1024, UNLIMITED) and otherwise unused:
// its units are arbitrary and Slurm does not use it either; bandwidths are the link classes'.
// Stricter than Slurm, which warns or keeps the last value: a key twice on a line, an operator
// (Nodes+=), a switch with neither or both Nodes and Switches, a node under two leaf switches, a
// switch listed twice, and no switch above every node are errors (see SlurmTree.cpp).
//
// Model: nodes attach to their leaf switch; a switch links to each parent (every switch whose
// Switches= lists it: a switch listed under several is a multi-parent switch, e.g. a leaf under
// parallel spines). Levels: a leaf switch is level 1, a switch 1 + the highest level below it;
// at most kMaxTreeLevels (8). Some switch must reach every node (Slurm's RouteTree needs it too).
// Node order: as the file first lists the nodes, hostlists expanded (node 0 is the first host of
// the first Nodes=). Host names: the file's. Coordinates: one, the node id (no grid).
// Vertices after the nodes: the switches in the order of their SwitchName lines.
// Links: node <-> leaf switch ft-host; a switch of level l <-> each parent ft-l (tree_link_class).
// Link ids: node n up 2n, down 2n + 1; then per edge e (a switch and one parent, edges in order of
// the child switch, its parents in the order the file lists it under them): up 2N + 2e, down + 1.
//
// Route rule: up from a's leaf switch to a nearest common ancestor of a's and b's, then down to
// b's leaf switch: a shortest up-down way. hops(a, b) = switches traversed = 1 + the fewest
// switch links of such a way (1 for the same leaf switch). At a switch with several parents the
// route takes one of those on a shortest way (all of them in a regular tree) by D-mod-K: the first
// such choice takes index b mod k1 among k1 candidates, the next (b / k1) mod k2, and so on
// (Zahavi's D-mod-K, which spreads destinations over all top switches); likewise going down,
// where a switch has several children on a shortest way. routing=ecmp takes each choice from a
// hash of the message instead: the same choice, the same route; every parent over many choices.
// levels(): per switch level l, each node's group is the highest switch of level <= l on its
// first-parent chain (its leaf switch, the switch that first lists that, ...): its ancestor at
// level l, or the highest one below l where the chain skips level l.
// Cost: per switch, its ancestors and the fewest links up to each (a chain in a tree, the spines
// of a leaf-spine); hops merges two leaf switches' lists; a route step weighs the parents of a
// multi-parent switch; hop_histogram works on classes of leaf switches with equal ancestors. A
// 100,000-node file loads and is described (histogram, levels, links) in about 0.1 s.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "topologies/Topology.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {

struct SlurmTreeStructure;  // the switches, edges and ancestor tables (SlurmTopologyFile.hpp)

class SlurmTree final : public Topology {
 public:
  /// Reads the file; throws InputError naming the file, line and value for anything wrong in it.
  SlurmTree(const std::filesystem::path& path, int cores_per_node);
  ~SlurmTree() override;

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "slurm"; }
  [[nodiscard]] VertexId vertex_count() const override;
  [[nodiscard]] bool nodes_are_routers() const override { return false; }

  [[nodiscard]] std::string_view dimension_name(int /*dim*/) const override { return "node"; }
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override { return {node}; }
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override;
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override { return max_route_links_; }
  [[nodiscard]] std::span<const Routing> routings() const override;
  void alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                              std::vector<LinkId>& path) const override;

  [[nodiscard]] LinkId link_count() const override;
  [[nodiscard]] Link link(LinkId id) const override;
  [[nodiscard]] std::string vertex_name(VertexId v) const override;
  [[nodiscard]] std::vector<std::filesystem::path> source_files() const override;

  [[nodiscard]] std::vector<NodeLevel> levels() const override;
  [[nodiscard]] bool has_grid() const override { return false; }
  /// Exact, by classes of leaf switches with the same ancestors: no loop over node pairs.
  [[nodiscard]] HopHistogram hop_histogram() const override;
  [[nodiscard]] std::array<std::int64_t, kLinkClassCount> links_per_class() const override;

  [[nodiscard]] std::optional<BlockStats> block_stats(
      std::span<const int> /*extents*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> extents) const override;
  [[nodiscard]] bool prefix_blocks() const override { return true; }

  // The switches, numbered in the order of their SwitchName lines (vertex node_count() + s).
  [[nodiscard]] std::int32_t switch_count() const;
  [[nodiscard]] const std::string& switch_name(std::int32_t s) const;
  [[nodiscard]] std::optional<std::int32_t> find_switch(std::string_view name) const;
  [[nodiscard]] int switch_level(std::int32_t s) const;
  /// The switch's LinkSpeed (1, Slurm's default, if the file gives none).
  [[nodiscard]] std::uint32_t link_speed(std::int32_t s) const;
  /// Parents in the order the file lists the switch under them; empty for a root.
  [[nodiscard]] std::span<const std::int32_t> parents(std::int32_t s) const;
  [[nodiscard]] std::int32_t leaf_switch(NodeId node) const;
  /// Switch levels: the highest switch's level.
  [[nodiscard]] int tree_levels() const;

 private:
  SlurmTree(std::unique_ptr<SlurmTreeStructure> tree, std::string path, int cores_per_node);
  void walk(NodeId a, NodeId b, std::uint64_t choice, bool ecmp, std::vector<LinkId>& path) const;

  std::string path_;  // as the spec gives it
  std::unique_ptr<const SlurmTreeStructure> tree_;
  int max_route_links_ = 2;
};

/// Parses the shape of a spec of this kind: `positional` are the fields after the kind that are
/// not KEY=VALUE (one: the path), `options` the KEY=VALUE options that are not every kind's
/// (none). Returns the path as the canonical shape; throws InputError quoting `spec`.
ShapeText parse_slurm_shape(std::string_view spec, std::span<const std::string_view> positional,
                            std::span<const SpecOption> options);

/// Builds the machine from its canonical shape text (the path).
std::unique_ptr<Topology> make_slurm_tree(std::string_view path, int cores);

}  // namespace mapsim::topo
