#pragma once
// The canonical dragonfly (Kim, Dally, Scott & Abts, ISCA 2008): G groups of A routers; each
// router serves P hosts and has H global ports; the routers of a group are joined all-to-all by
// local links, and the global links join the groups.
//
// Spec notation, after "dragonfly:":  G,A,P,H[:global=ARRANGEMENT]
//   G groups, A routers per group, P hosts per router, H global ports per router, each a positive
//   integer; G - 1 <= A H so that every pair of groups is joined (and the arrangement's own
//   condition below); G = 1 is one group without global links. The canonical text adds
//   ":global=..." only when it is not the default.
// Global-link arrangements (which global port of which router joins which group). The global
// ports of a group are numbered j = r H + k (router r, its port k); M = G - 1.
//   absolute   (default: SST/Merlin's default global_route_mode with its default global_link_map,
//              and BookSim's dragonfly) n = floor(A H / M) links join each pair of groups. The
//              n M used ports are numbered v = 0, 1, ... router by router, ceil(n M / A) on each
//              router, one fewer on the last routers when they do not divide evenly (Merlin's
//              map); the rest stay unconnected. Port v carries link number v / M to the group of
//              index v mod M among the others in increasing order (skipping its own group).
//   relative   (Merlin's other mode) the same ports, to group (g + 1 + v mod M) mod G.
//   circulant  (SST/macro's default) H even; port k of router r has offset e = r H/2 + k/2 + 1:
//              an even k joins group g + e, an odd k group g - e (mod G), always router r there,
//              whose opposite port it takes; ports with e = 0 (mod G) stay unconnected. The
//              offsets +-1 .. +-A H / 2 reach every group since A H >= G - 1 and A H is even.
//              The number of links between two groups depends on their distance round the ring.
//   palmtree   (Camarero, Vallejo & Beivide 2014, after Garcia's palm-tree; CAMINOS' default)
//              needs M to divide A H; n = A H / M. Port j of group g joins port A H - 1 - j
//              (router A - 1 - r, port H - 1 - k) of group (g + 1 + (A H - 1 - j) mod M) mod G.
// Slices: the n(g, h) links joining groups g and h are numbered 0 .. n - 1 the same way from both
// ends: absolute and relative by link number; palmtree in the port order of the lower-numbered
// group of the two; circulant by the lower group's +e links in increasing e, then its -e links.
//
// Node order: group-major, then router, then host: node = (g A + r) P + p; coordinates
// (group, router, host), a full grid. Vertices: the nodes, then the routers, router (g, r) at
// node_count() + g A + r. Links: node n up (to its router) 2n, down 2n + 1 (class df-host); the
// local links, A - 1 out of each router in router order (df-local); the global links, the used
// ports of group 0 in port order, then group 1, ... (df-global, one directed link per port).
//
// Minimal route from a (group g, router r) to b (group h, router q): a's router; if h == g, a
// local link to q; otherwise slice s = (r + q) mod n(g, h) (so that traffic between two groups
// spreads over their parallel links, the same slice both ways): a local link to the router x of
// g that holds slice s (unless x == r), its global link to the router y of h at its other end, a
// local link to q (unless y == q); then b. hops(a, b) = routers traversed: 1 on one router, 2 in
// one group, 2 + [x != r] + [y != q] between groups.
// Valiant route (routing=valiant, and UGAL's alternative; alternative_route_into): between
// groups, the intermediate group m is the (choice mod (G - 2))-th of the groups other than g and
// h in increasing order; with c = choice / (G - 2), the route takes slice c mod n(g, m) from g
// to m, enters m at that link's router, goes by a local link (if needed) to the router holding
// slice (c / n(g, m)) mod n(m, h) towards h, and continues minimally from there (no router of m
// is drawn: the detour crosses m from its entry to its exit router). With G = 2 it is the minimal
// route. Within a group (as Merlin's Valiant), the detour is through the
// (choice mod (A - 2))-th router other than r and q (local, local); the minimal route when
// A = 2 or r == q.
// Blocks are prefixes (prefix_blocks): the first n nodes fill a router, then a group.

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
ShapeText parse_dragonfly_shape(std::string_view spec, std::span<const std::string_view> positional,
                                std::span<const SpecOption> options);

/// Builds the machine from its canonical shape text.
std::unique_ptr<Topology> make_dragonfly(std::string_view shape, int cores);

enum class GlobalArrangement : std::uint8_t { Absolute, Relative, Circulant, Palmtree };
std::string_view name(GlobalArrangement arrangement);

struct DragonflyShape {
  int groups = 1;        ///< G
  int routers = 1;       ///< A, per group
  int hosts = 1;         ///< P, per router
  int global_ports = 1;  ///< H, per router
  GlobalArrangement arrangement = GlobalArrangement::Absolute;
};

class Dragonfly final : public Topology {
 public:
  /// Preconditions (checked by the spec parser): a shape parse_dragonfly_shape accepts.
  Dragonfly(const DragonflyShape& shape, int cores_per_node);

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "dragonfly"; }
  [[nodiscard]] VertexId vertex_count() const override { return node_count() + router_count(); }
  [[nodiscard]] bool nodes_are_routers() const override { return false; }

  /// Dimensions: group, router, host.
  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override;
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override;
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override;

  [[nodiscard]] LinkId link_count() const override { return global_base_ + groups() * used_; }
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

  [[nodiscard]] const DragonflyShape& shape() const { return shape_; }
  /// Global links joining groups g and h != g: the same number both ways.
  [[nodiscard]] int links_between(int g, int h) const;
  /// The router (index in its group) of group g holding slice s towards group h.
  [[nodiscard]] int slice_router(int g, int h, int s) const { return router_of(port(g, h, s)); }

 private:
  [[nodiscard]] int groups() const { return shape_.groups; }
  [[nodiscard]] int router_count() const { return shape_.groups * shape_.routers; }
  [[nodiscard]] VertexId router_vertex(int g, int r) const {
    return node_count() + g * shape_.routers + r;
  }
  // Used global ports of a group are ranked 0 .. used_ - 1 (the port order of the file comment).
  /// The rank of the port of group g carrying slice s towards group h.
  [[nodiscard]] int port(int g, int h, int s) const;
  /// The router (index in its group) of a port rank.
  [[nodiscard]] int router_of(int rank) const;
  /// The group at the other end of port `rank` of group g, and its slice.
  [[nodiscard]] std::pair<int, int> slice_of(int g, int rank) const;

  // One hop each: a host link, a local link from router r to q (r != q) of group g, the global
  // link of slice s from group g towards h.
  [[nodiscard]] LinkId host_link(NodeId node, bool up) const { return 2 * node + (up ? 0 : 1); }
  [[nodiscard]] LinkId local_link(int g, int r, int q) const;
  [[nodiscard]] LinkId global_link(int g, int h, int s) const {
    return global_base_ + g * used_ + port(g, h, s);
  }
  /// From router r of group g to router q of group h, minimally, slice s between the groups;
  /// returns nothing, appends the inter-router links.
  void between_routers(int g, int r, int h, int q, int s, std::vector<LinkId>& path) const;

  DragonflyShape shape_;
  int group_nodes_;     // A P
  int per_pair_;        // absolute, relative, palmtree: n; circulant: unused
  int used_;            // used global ports of a group
  int per_router_;      // absolute, relative: used ports on the first routers (Merlin's map)
  int full_routers_;    // absolute, relative: routers with per_router_ used ports
  LinkId local_base_;   // first local link
  LinkId global_base_;  // first global link
};

}  // namespace mapsim::topo
