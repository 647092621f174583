#pragma once
// The Cray Cascade / XC dragonfly (Faanes et al., SC 2012) exactly as SimGrid's DRAGONFLY cluster
// (DragonflyZone) builds and routes it, in SimGrid's notation, so that a platform means the same
// in both tools.
//
// Spec notation, after "cascade:" (SimGrid's topo_parameters):  G,GL;C,CL;R,RL;N
//   G groups, GL blue (optical) links between two groups; C chassis per group, CL black (copper)
//   links between two chassis; R blades (one router each) per chassis, RL green (backplane) links
//   between two blades; N nodes per blade. Every value is a positive integer, and G <= R: SimGrid
//   attaches the blue links towards group h to blade h of chassis 0 of every group (its header
//   states the limit). No option of its own: cores, routing, allocation and hosts are every
//   kind's. SimGrid merges parallel links into one link of GL (CL, RL) times the bandwidth; here
//   they are GL (CL, RL) links of their own ("lanes"), each of its class's bandwidth.
//
// Node order: SimGrid's host order (DragonflyZone::rankId_to_coords): node = ((g C + c) R + b) N
// + n; coordinates (group, chassis, blade, node), a full grid. Vertices: the nodes, then router
// (g, c, b) at node_count() + (g C + c) R + b.
// Links, in blocks, lane fastest (class): node n up 2n, down 2n + 1 (df-host); from each router,
// to each other blade b' of its chassis, RL green lanes (df-green); from each router, to blade b
// of each other chassis c' of its group, CL black lanes (df-black); from each group g, to each
// other group h, GL blue lanes from router (g, 0, h) to router (h, 0, g) (df-blue).
//
// Minimal route from a = (g, c, b, n) to z = (h, c', b', n') (SimGrid's, with the lane of every
// class (a + z) mod its lane count): a's router; if h != g: within g to router (g, 0, h), the blue
// link to router (h, 0, g), then within h to z's router; if h == g: within g to z's router; then
// z. "Within a group" from (c1, b1) to (c2, b2) is a green link to blade b2 of chassis c1 (if
// b1 != b2), then a black link to chassis c2 (if c1 != c2): green first, as SimGrid routes.
// hops(a, z) = routers traversed: 1 + [b != b'] + [c != c'] in one group; between groups
// 2 + [b != h] + [c != 0] + [b' != g] + [c' != 0].
// Departure from SimGrid, on purpose: between two blades of one group, SimGrid takes the green
// link in the source chassis c and then continues from chassis 0 instead of c (DragonflyZone::
// get_local_route sets the current router to blade b' of chassis 0). When c != 0 and b != b' its
// route is therefore never a chain: with c' == 0 it has no black link at all (the green link ends
// in chassis c, not at z's router); with c' == c it adds a black link from chassis 0 to c that
// the message never reaches; with any other c' its black link leaves chassis 0, not c. mapsim
// takes the machine's route: the black link from chassis c at blade b' (none when c' == c).
// Every other route is SimGrid's, link for link, lanes aside (compared pair by pair with SimGrid
// 3.32, whose routes a small program against libsimgrid printed, on seven shapes, SimGrid's example
// included). SimGrid's route from a node to itself crosses its node link up and down; mapsim's is
// empty (the intra-node channel). Valiant route (routing=valiant, and UGAL's alternative;
// alternative_route_into): between groups, through the (choice mod (G - 2))-th group m other than g
// and h in increasing order: minimally to router (m, 0, g), a green link to (m, 0, h), then
// minimally on; with G = 2 the minimal route. Within a group, through the (choice mod (C R - 2))-th
// router other than the two (in router order), each leg minimal; the minimal route when C R = 2 or
// both share a router. Lanes of a Valiant route: (choice / number of intermediates) mod the class's
// lane count. Blocks are prefixes (prefix_blocks): the first n nodes fill a blade, a chassis, a
// group.

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
ShapeText parse_cascade_shape(std::string_view spec, std::span<const std::string_view> positional,
                              std::span<const SpecOption> options);

/// Builds the machine from its canonical shape text.
std::unique_ptr<Topology> make_cascade(std::string_view shape, int cores);

/// SimGrid's topo_parameters G,GL;C,CL;R,RL;N.
struct CascadeShape {
  int groups = 1;       ///< G
  int blue_lanes = 1;   ///< GL, between two groups
  int chassis = 1;      ///< C, per group
  int black_lanes = 1;  ///< CL, between two chassis (at each blade)
  int blades = 1;       ///< R, routers per chassis
  int green_lanes = 1;  ///< RL, between two blades of a chassis
  int nodes = 1;        ///< N, per blade
};

class Cascade final : public Topology {
 public:
  /// Preconditions (checked by the spec parser): a shape parse_cascade_shape accepts.
  Cascade(const CascadeShape& shape, int cores_per_node);

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "cascade"; }
  [[nodiscard]] VertexId vertex_count() const override { return node_count() + router_count(); }
  [[nodiscard]] bool nodes_are_routers() const override { return false; }

  /// Dimensions: group, chassis, blade, node.
  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override;
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override;
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override;

  [[nodiscard]] LinkId link_count() const override { return link_count_; }
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

  [[nodiscard]] const CascadeShape& shape() const { return shape_; }

 private:
  /// A router by its place: group, chassis, blade.
  struct Place {
    int group = 0;
    int chassis = 0;
    int blade = 0;
  };
  /// Lanes of a route, per class.
  struct Lanes {
    int green = 0;
    int black = 0;
    int blue = 0;
  };
  [[nodiscard]] int router_count() const { return group_routers_ * shape_.groups; }
  [[nodiscard]] int router_index(Place p) const {
    return (p.group * shape_.chassis + p.chassis) * shape_.blades + p.blade;
  }
  [[nodiscard]] Place place(int router) const;
  [[nodiscard]] Lanes lanes(std::uint64_t value) const;

  // One hop each: a host link; green from `router` to blade b of its chassis; black from
  // `router` to chassis c of its group (same blade); blue from group g to group h.
  [[nodiscard]] LinkId host_link(NodeId node, bool up) const { return 2 * node + (up ? 0 : 1); }
  [[nodiscard]] LinkId green_link(int router, int blade, int lane) const;
  [[nodiscard]] LinkId black_link(int router, int chassis, int lane) const;
  [[nodiscard]] LinkId blue_link(int g, int h, int lane) const;
  /// Within one group, from `from` to `to`: green, then black (appended to path).
  void within_group(Place from, Place to, Lanes lanes, std::vector<LinkId>& path) const;
  /// From router `from` to router `to`, minimally (appended to path).
  void between_routers(Place from, Place to, Lanes lanes, std::vector<LinkId>& path) const;

  CascadeShape shape_;
  int group_routers_;  // C R
  LinkId green_base_;
  LinkId black_base_;
  LinkId blue_base_;
  LinkId link_count_;
};

}  // namespace mapsim::topo
