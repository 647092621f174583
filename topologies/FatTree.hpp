#pragma once
// Fat-trees: the parallel generalised fat-tree (PGFT, Zahavi 2010) exactly as SimGrid's
// FatTreeZone builds and routes it, in SimGrid's notation, so that a platform means the same in
// both tools.
//
// Spec notation, after "fattree:" (one of):
//   H;M1,...,MH;W1,...,WH;P1,...,PH   SimGrid's: H switch levels (1 to 8, level 0 is the nodes);
//                                     Ml children of a level-l switch; Wl parents of a level-(l-1)
//                                     vertex; Pl parallel links between a level-(l-1) vertex and
//                                     each of its parents. N = M1 x ... x MH nodes.
//   k-ary-n-tree:K,N                  Petrini & Vanneschi's k-ary n-tree, N levels of K^(N-1)
//                                     switches and K^N nodes: N;K,...,K;1,K,...,K;1,...,1
//   leaf-spine:L,H[,B]                L leaf switches of H nodes, H/B spines (blocking factor
//                                     B >= 1 divides H, 1 by default), one link from each leaf
//                                     to each spine: 2;H,L;1,H/B;1,1
// Every value is a positive integer. The canonical text is SimGrid's notation. No option of its
// own: cores, routing, allocation and hosts are every kind's.
//
// Labels (SimGrid's): a level-l vertex has digits x0 .. x(H-1), xi ranging over W(i+1) for
// i < l and over M(i+1) for i >= l; its position in its level is that mixed-radix number, x0
// fastest. A level-l switch and a level-(l-1) vertex are joined iff their labels differ at most
// in digit l-1, by Pl parallel links. So the subtree of a level-l switch holds the nodes whose
// digits l .. H-1 equal its own: M1 x ... x Ml consecutive node ids.
// Node order: SimGrid's host order: node n is position n at level 0, xi = (n / (M1...Mi)) mod
// M(i+1), and its coordinates are these digits (dimensions port, leaf, subtree-2, ...).
// Vertices: the nodes, then the switches level by level, in position order within a level:
// "switch (level l, q)" is SimGrid's switch of that level and position.
// Links, in SimGrid's order of creation: for l = 1 .. H, for each level-(l-1) vertex c in
// position order, for each parent in position order, for each parallel link j: SimGrid's link
// number u ("link_from_<c>_<parent>_<u>"), whose up direction has id 2u and down direction 2u + 1.
// Classes: node to leaf switch ft-host; level l to level l + 1 tree_link_class(l) (ft-1, ...).
//
// Route from a to b != a (routing minimal: D-mod-K, Zahavi, as SimGrid routes it). Let L be the
// nearest common level: the lowest whose switch has both in its subtree (a / (M1..ML) ==
// b / (M1..ML)). Up, from the level-i vertex to level i + 1 (i = 0 .. L-1), the up-port
//     d = floor(b / (W1 ... Wi)) mod (W(i+1) P(i+1)):   parent digit d mod W(i+1),
//                                                       parallel link floor(d / W(i+1));
// then down through the one switch of each level whose subtree holds b, into the level-(l-1)
// vertex on parallel link a mod Pl (SimGrid's cable rule). hops(a, b) = 2L - 1 switches; the
// route has 2L links. a == b: no link (SimGrid without a loopback climbs to the leaf and back).
// Departure from SimGrid, on purpose: SimGrid's downward port scan does not stop at the
// matching port; it carries its port index down to the next level and takes the first matching
// port after it there, falling back to a mod Pl only when there is none. Below the route's top
// level, with Pl > 1, its parallel link thus depends on the index used one level up. mapsim
// applies the rule SimGrid states, a mod Pl, at every level. Everything else is SimGrid's: over
// every pair of 19 shapes compared with SimGrid 3.32 (its routes printed by a program against
// libsimgrid), routes are identical link for link, except that parallel link below the top
// where some Pl > 1.
//
// ECMP (routing=ecmp; alternative_route_into): the same climb to level L and descent, but the
// up-port at each level (W(i+1) P(i+1) equal-cost choices) and the parallel link of each
// downward step are drawn from `choice` by a 64-bit mix of (choice, level, direction): the same
// choice gives the same route, and over many choices every one of the prod (Wl Pl) up-paths and
// prod Pl descents is taken. Same length as the minimal route.
//
// Levels (levels()): level l groups each level-l subtree's nodes ("leaf switch", "level-2
// subtree", ...). Blocks are prefixes (prefix_blocks): the first n nodes fill a leaf, then a
// subtree.

#include <array>
#include <memory>
#include <span>
#include <string_view>

#include "topologies/Topology.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {

/// Parses the shape of a spec of this kind: `positional` are the fields after the kind that are
/// not KEY=VALUE (at least one), `options` the KEY=VALUE options that are not every kind's.
/// Returns the canonical text of the shape and its options; throws InputError quoting `spec`.
ShapeText parse_fat_tree_shape(std::string_view spec, std::span<const std::string_view> positional,
                               std::span<const SpecOption> options);

/// Builds the machine from its canonical shape text.
std::unique_ptr<Topology> make_fat_tree(std::string_view shape, int cores);

/// SimGrid's parameters; entries 0 .. levels - 1 are levels 1 .. H.
struct FatTreeShape {
  int levels = 0;                              ///< H
  std::array<int, kMaxTreeLevels> down{};      ///< M: children of a switch
  std::array<int, kMaxTreeLevels> up{};        ///< W: parents of a vertex one level below
  std::array<int, kMaxTreeLevels> parallel{};  ///< P: links between a vertex and each parent
};

class FatTree final : public Topology {
 public:
  /// Preconditions (checked by the spec parser): 1 <= levels <= kMaxTreeLevels, values >= 1,
  /// at most kMaxNodes nodes and 2^31 - 1 links.
  FatTree(const FatTreeShape& shape, int cores_per_node);

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "fattree"; }
  [[nodiscard]] VertexId vertex_count() const override { return vertex_count_; }
  [[nodiscard]] bool nodes_are_routers() const override { return false; }

  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override;
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override {
    return a == b ? 0 : 2 * common_level(a, b) - 1;
  }
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override { return 2 * shape_.levels; }

  [[nodiscard]] LinkId link_count() const override {
    return first_link_[level_index(height() + 1)];
  }
  [[nodiscard]] Link link(LinkId id) const override;
  [[nodiscard]] std::string vertex_name(VertexId v) const override;

  [[nodiscard]] std::span<const Routing> routings() const override;
  void alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                              std::vector<LinkId>& path) const override;

  [[nodiscard]] std::vector<NodeLevel> levels() const override;
  [[nodiscard]] HopHistogram hop_histogram() const override;
  [[nodiscard]] std::array<std::int64_t, kLinkClassCount> links_per_class() const override;

  [[nodiscard]] std::optional<BlockStats> block_stats(
      std::span<const int> /*extents*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> extents) const override;
  [[nodiscard]] bool prefix_blocks() const override { return true; }

  [[nodiscard]] const FatTreeShape& shape() const { return shape_; }
  /// The vertex of switch (level, position); 1 <= level <= H.
  [[nodiscard]] VertexId switch_vertex(int level, int position) const {
    return first_switch_[level_index(level)] + position;
  }

 private:
  static std::size_t level_index(int level) { return static_cast<std::size_t>(level); }
  [[nodiscard]] int height() const { return shape_.levels; }
  /// The lowest switch level whose subtree holds both a and b (a != b).
  [[nodiscard]] int common_level(NodeId a, NodeId b) const {
    int level = 1;
    while (a / subtree_[level_index(level)] != b / subtree_[level_index(level)]) ++level;
    return level;
  }
  /// The link between the level-(level-1) vertex at `child` and its parent of digit `parent`,
  /// parallel link `cable`: upwards, or downwards.
  [[nodiscard]] LinkId tree_link(int level, int child, int parent, int cable, bool down) const;
  /// The minimal route (choice empty) or the ECMP route of `choice`.
  void route(NodeId a, NodeId b, const std::uint64_t* choice, std::vector<LinkId>& path) const;

  FatTreeShape shape_;
  // Per level l = 0 .. H (index l): nodes in a level-l subtree (M1 ... Ml), product W1 ... Wl,
  // vertex of switch (l, 0); first link id between levels l - 1 and l (index H + 1: the count).
  std::array<int, kMaxTreeLevels + 1> subtree_{};
  std::array<int, kMaxTreeLevels + 1> upper_{};
  std::array<VertexId, kMaxTreeLevels + 2> first_switch_{};
  std::array<LinkId, kMaxTreeLevels + 2> first_link_{};
  VertexId vertex_count_ = 0;
};

}  // namespace mapsim::topo
