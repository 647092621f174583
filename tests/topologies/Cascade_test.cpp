// The Cray Cascade as SimGrid's DRAGONFLY cluster builds it: the shared invariants, SimGrid's host
// order and routes counted by hand (checked against the routes SimGrid 3.32 prints), the chassis
// departure, Valiant detours and spec errors.

#include "topologies/Cascade.hpp"

#include <set>

#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

// The shared invariants (EveryPair, DistinctLinks) on small Cascades are instantiated in
// Dragonfly_test.cpp: EveryPair.hpp defines its tests, so one file per binary may include it.

std::string error_of(std::string_view spec) {
  try {
    (void)make_topology(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// The machine: 2 groups (2 blue lanes), 2 chassis (2 black lanes), 2 blades (1 green
/// lane), 2 nodes per blade; 16 nodes, 8 routers. Router (g, c, b) is (2 g + c) 2 + b, vertex
/// 16 + router. Link ids: node n up 2n, down 2n + 1 (0 .. 31); green from router i to its other
/// blade 32 + i; black from router i to its other chassis, lane l, 40 + 2 i + l; blue from group
/// 0 to 1, lane l, 56 + l, from 1 to 0 58 + l. 60 links.
class Cascade2x2x2 : public ::testing::Test {
 protected:
  std::unique_ptr<Topology> t_ = make_topology("cascade:2,2;2,2;2,1;2");
  static LinkId up(NodeId n) { return 2 * n; }
  static LinkId down(NodeId n) { return 2 * n + 1; }
  static LinkId green(int router) { return 32 + router; }
  static LinkId black(int router, int lane) { return 40 + 2 * router + lane; }
  static LinkId blue(int from_group, int lane) { return 56 + 2 * from_group + lane; }
};

TEST_F(Cascade2x2x2, CountsAndLinkIds) {
  EXPECT_EQ(t_->node_count(), 16);
  EXPECT_EQ(t_->vertex_count(), 24);
  EXPECT_EQ(t_->link_count(), 60);
  const auto per_class = t_->links_per_class();
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfHost)], 32);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfGreen)], 8);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfBlack)], 16);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfBlue)], 4);
  // Black lane 1 from router 3 (0, 1, 1) to chassis 0: router 1 (0, 0, 1).
  const Link black31 = t_->link(black(3, 1));
  EXPECT_EQ(t_->vertex_name(black31.from), "router (group 0, chassis 1, blade 1)");
  EXPECT_EQ(t_->vertex_name(black31.to), "router (group 0, chassis 0, blade 1)");
  // Both blue lanes from group 1 leave router (1, 0, 0) for router (0, 0, 1): blade h of chassis 0
  // holds the link to group h.
  for (const int lane : {0, 1}) {
    const Link b = t_->link(blue(1, lane));
    EXPECT_EQ(t_->vertex_name(b.from), "router (group 1, chassis 0, blade 0)");
    EXPECT_EQ(t_->vertex_name(b.to), "router (group 0, chassis 0, blade 1)");
    EXPECT_EQ(b.link_class, LinkClass::DfBlue);
  }
}

TEST_F(Cascade2x2x2, HostOrderIsSimGrids) {
  // SimGrid's rankId_to_coords: group, chassis, blade, node. simgrid-routes on this platform
  // names node-4's link "local_link_from_router_2_to_node_0_4" (router 2 = group 0, chassis 1,
  // blade 0) and node-13's "local_link_from_router_6_to_node_1_13" (group 1, chassis 1, blade 0).
  EXPECT_EQ(t_->coordinates(4), (std::vector<int>{0, 1, 0, 0}));
  EXPECT_EQ(t_->coordinates(13), (std::vector<int>{1, 1, 0, 1}));
  EXPECT_EQ(t_->link(up(4)).to, 16 + 2);
  EXPECT_EQ(t_->link(up(13)).to, 16 + 6);
  EXPECT_EQ(t_->vertex_name(13), "node 13 (group 1, chassis 1, blade 0, node 1)");
  EXPECT_EQ(t_->node_at(std::vector<int>{1, 1, 0, 1}), 13);
  EXPECT_EQ(t_->dimension_name(1), "chassis");
}

TEST_F(Cascade2x2x2, RoutesWithinAGroupAsSimGrid) {
  using P = std::vector<LinkId>;
  // One blade: up and down (SimGrid: the two node links).
  EXPECT_EQ(t_->route(0, 1), (P{up(0), down(1)}));
  EXPECT_EQ(t_->hops(0, 1), 1);
  // Other blade, same chassis: the green link of router 0 (green_link_in_chassis_0 0 and 1).
  EXPECT_EQ(t_->route(0, 2), (P{up(0), green(0), down(2)}));
  // Same blade, other chassis: the black link, lane (0 + 4) mod 2 = 0; node 5 takes lane 1.
  EXPECT_EQ(t_->route(0, 4), (P{up(0), black(0, 0), down(4)}));
  EXPECT_EQ(t_->route(0, 5), (P{up(0), black(0, 1), down(5)}));
  // Other blade and chassis: green in chassis 0, then black at blade 1 (router 1), lane 0.
  EXPECT_EQ(t_->route(0, 6), (P{up(0), green(0), black(1, 0), down(6)}));
  EXPECT_EQ(t_->hops(0, 6), 3);
}

TEST_F(Cascade2x2x2, RoutesBetweenGroupsAsSimGrid) {
  using P = std::vector<LinkId>;
  // 0 (0,0,0) to 8 (1,0,0): green to blade 1 (the blade of group 1), blue lane (0 + 8) mod 2 = 0
  // onto router (1, 0, 0), which is 8's: 3 hops.
  EXPECT_EQ(t_->route(0, 8), (P{up(0), green(0), blue(0, 0), down(8)}));
  EXPECT_EQ(t_->hops(0, 8), 3);
  // From node 1 the blue lane is 1: the parallel link between the same two routers.
  EXPECT_EQ(t_->route(1, 8), (P{up(1), green(0), blue(0, 1), down(8)}));
  EXPECT_EQ(t_->link(blue(0, 0)).from, t_->link(blue(0, 1)).from);
  EXPECT_EQ(t_->link(blue(0, 0)).to, t_->link(blue(0, 1)).to);
  // 0 to 14 (1,1,1): then green from blade 0 (group 0's) to 1 in chassis 0 of group 1 (router 4),
  // black at blade 1 (router 5) to chassis 1: 5 routers, SimGrid's 6 links.
  EXPECT_EQ(t_->route(0, 14), (P{up(0), green(0), blue(0, 0), green(4), black(5, 0), down(14)}));
  EXPECT_EQ(t_->hops(0, 14), 5);
  // 4 (0,1,0) to 8: green in chassis 1 to blade 1 (router 2), black to chassis 0 at blade 1
  // (router 3), blue: the longest way out of a group.
  EXPECT_EQ(t_->route(4, 8), (P{up(4), green(2), black(3, 0), blue(0, 0), down(8)}));
  // 6 (0,1,1) to 15 (1,1,1), lanes 21 mod 2 = 1: already on blade 1 (group 1's), black down to
  // chassis 0, blue, then green and black in group 1: 5 routers. 4 to 14 needs one more green
  // link in group 0: 6, the diameter.
  EXPECT_EQ(t_->route(6, 15), (P{up(6), black(3, 1), blue(0, 1), green(4), black(5, 1), down(15)}));
  EXPECT_EQ(t_->hops(6, 15), 5);
  EXPECT_EQ(t_->hops(4, 14), 6);
  EXPECT_EQ(distance_stats(t_->hop_histogram()).diameter, 6);
}

TEST_F(Cascade2x2x2, ChassisDepartureTakesTheMachinesRoute) {
  using P = std::vector<LinkId>;
  // 4 (0,1,0) to 2 (0,0,1): SimGrid sends up(4), green in chassis 1, down(2): after the green
  // link it believes it is in chassis 0 and takes no black link, so its route never reaches
  // router 1. The machine's: green in chassis 1 to blade 1 (router 3), black to chassis 0.
  EXPECT_EQ(t_->route(4, 2), (P{up(4), green(2), black(3, 0), down(2)}));
  EXPECT_EQ(t_->hops(4, 2), 3);
  // 4 (0,1,0) to 6 (0,1,1): SimGrid adds a black link from chassis 0 to 1 at blade 1 after the
  // green one; the machine needs only the green link in chassis 1.
  EXPECT_EQ(t_->route(4, 6), (P{up(4), green(2), down(6)}));
  EXPECT_EQ(t_->hops(4, 6), 2);
}

TEST_F(Cascade2x2x2, ValiantIsMinimalWithTwoGroups) {
  std::vector<LinkId> path;
  for (NodeId a = 0; a < 8; ++a) {
    for (NodeId b = 8; b < 16; ++b) {
      t_->alternative_route_into(a, b, 7 * static_cast<std::uint64_t>(a + b), path);
      EXPECT_EQ(path, t_->route(a, b));
    }
  }
}

/// The groups of the routers a route enters, in order, without repeats.
std::vector<int> groups_visited(const Topology& t, const std::vector<LinkId>& path, int per_group) {
  std::vector<int> groups;
  for (const LinkId id : path) {
    const VertexId to = t.link(id).to;
    if (to < t.node_count()) continue;
    const int g = (to - t.node_count()) / per_group;
    if (groups.empty() || groups.back() != g) groups.push_back(g);
  }
  return groups;
}

TEST(Cascade, ValiantGoesThroughTheChosenGroupBladeToBlade) {
  // cascade:3,1;2,1;3,1;2: 3 groups of 2 chassis of 3 blades, 2 nodes: 12 nodes per group.
  // From group 0 to group 2 the only other group is 1: enter at its blade 0 (towards group 0),
  // green to blade 2 (towards group 2), leave.
  const auto t = make_topology("cascade:3,1;2,1;3,1;2");
  const NodeId a = t->node_at(std::vector<int>{0, 1, 1, 0});
  const NodeId b = t->node_at(std::vector<int>{2, 1, 0, 1});
  std::vector<LinkId> path;
  t->alternative_route_into(a, b, 12345, path);
  EXPECT_EQ(groups_visited(*t, path, 6), (std::vector<int>{0, 1, 2}));
  std::vector<std::string> middle;
  for (const LinkId id : path) {
    const Link l = t->link(id);
    if (l.link_class == LinkClass::DfGreen && (l.from - t->node_count()) / 6 == 1) {
      middle.push_back(t->vertex_name(l.from) + " -> " + t->vertex_name(l.to));
    }
  }
  EXPECT_EQ(middle, (std::vector<std::string>{
                        "router (group 1, chassis 0, blade 0) -> router (group 1, chassis 0, "
                        "blade 2)"}));
  // Chain, and within the longest route.
  VertexId at = a;
  for (const LinkId id : path) {
    ASSERT_EQ(t->link(id).from, at);
    at = t->link(id).to;
  }
  EXPECT_EQ(at, b);
  EXPECT_LE(static_cast<int>(path.size()), t->max_route_links());
}

TEST(Cascade, ValiantReachesEveryIntermediateAndIsDeterministic) {
  // SimGrid's example platform: 3 groups of 4 chassis of 5 blades; 40 nodes per group.
  const auto t = make_topology("cascade:3,4;4,3;5,1;2");
  std::vector<LinkId> path;
  std::vector<LinkId> again;
  // Between groups 0 and 2: always through 1, over every blue lane.
  std::set<LinkId> blue;
  for (std::uint64_t choice = 0; choice < 50; ++choice) {
    t->alternative_route_into(3, 95, choice, path);
    t->alternative_route_into(3, 95, choice, again);
    EXPECT_EQ(path, again);
    EXPECT_EQ(groups_visited(*t, path, 20), (std::vector<int>{0, 1, 2}));
    for (const LinkId id : path) {
      if (t->link(id).link_class == LinkClass::DfBlue) blue.insert(id);
    }
  }
  EXPECT_EQ(blue.size(), 2u * 4u);  // two blue hops, 4 lanes each
  // Within group 0, from router 0 to router 19 (nodes 0 and 39): through router
  // 1 + choice mod 18, the (choice mod 18)-th of the others; every one over 200 choices.
  std::set<int> intermediates;
  for (std::uint64_t choice = 0; choice < 200; ++choice) {
    t->alternative_route_into(0, 39, choice, path);
    VertexId at = 0;
    bool through = false;
    const int m = 1 + static_cast<int>(choice % 18);
    for (const LinkId id : path) {
      ASSERT_EQ(t->link(id).from, at);
      at = t->link(id).to;
      through = through || at == t->node_count() + m;
    }
    ASSERT_EQ(at, 39);
    EXPECT_TRUE(through) << choice;
    EXPECT_LE(static_cast<int>(path.size()), t->max_route_links());
    intermediates.insert(m);
  }
  EXPECT_EQ(intermediates.size(), 18u);
}

TEST(Cascade, ValiantWithinAGroupGoesThroughTheChosenRouter) {
  // cascade:1,1;3,1;2,1;1: router (chassis c, blade b) is 2 c + b and serves node 2 c + b. From
  // router 0 to router 5 the others are 1 .. 4: choice 2 takes the third, router 3 = (1, 1).
  const auto t = make_topology("cascade:1,1;3,1;2,1;1");
  std::vector<LinkId> path;
  t->alternative_route_into(0, 5, 2, path);
  std::vector<std::string> names{t->vertex_name(0)};
  for (const LinkId id : path) names.push_back(t->vertex_name(t->link(id).to));
  // (0,0) -> green (0,1) -> black (1,1) = router 3; then (1,1) -> black at blade 1 to (2,1) = 5.
  EXPECT_EQ(
      names,
      (std::vector<std::string>{
          "node 0 (group 0, chassis 0, blade 0, node 0)", "router (group 0, chassis 0, blade 0)",
          "router (group 0, chassis 0, blade 1)", "router (group 0, chassis 1, blade 1)",
          "router (group 0, chassis 2, blade 1)", "node 5 (group 0, chassis 2, blade 1, node 0)"}));
}

TEST(Cascade, LevelsAreBladeChassisGroup) {
  const auto t = make_topology("cascade:2,1;3,1;6,1;4");
  const auto levels = t->levels();
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].name, "blade");
  EXPECT_EQ(levels[0].groups, 36);
  EXPECT_EQ(levels[1].name, "chassis");
  EXPECT_EQ(levels[1].groups, 6);
  EXPECT_EQ(levels[2].name, "group");
  EXPECT_EQ(levels[2].groups, 2);
  // Node 30 = blade 7 (30 / 4), chassis 1 (30 / 24), group 0 (30 / 72).
  EXPECT_EQ(levels[0].group[30], 7);
  EXPECT_EQ(levels[1].group[30], 1);
  EXPECT_EQ(levels[2].group[30], 0);
  // Node 100: blade 25, chassis 4, group 1.
  EXPECT_EQ(levels[0].group[100], 25);
  EXPECT_EQ(levels[1].group[100], 4);
  EXPECT_EQ(levels[2].group[100], 1);
}

TEST(Cascade, ClosedFormHistogramMatchesEveryPair) {
  for (const char* spec : {"cascade:2,1;3,1;6,1;4", "cascade:4,1;3,2;5,1;3",
                           "cascade:1,2;4,1;1,1;5", "cascade:5,1;1,1;5,3;2"}) {
    const auto t = make_topology(spec);
    EXPECT_EQ(t->hop_histogram().counts, t->Topology::hop_histogram().counts) << spec;
  }
}

TEST(Cascade, CanonicalTextIsSimGridsNotation) {
  EXPECT_EQ(make_topology("cascade:2,1;3,1;6,1;4")->spec(), "cascade:2,1;3,1;6,1;4");
  EXPECT_EQ(make_topology("cascade:02,1;3,1;6,1;4:cores=4")->spec(),
            "cascade:2,1;3,1;6,1;4:cores=4");
  EXPECT_EQ(make_topology("cascade:2,1;3,1;6,1;4:routing=valiant")->spec(),
            "cascade:2,1;3,1;6,1;4:routing=valiant");
}

TEST(Cascade, RejectsEverySpecError) {
  const auto expect_error = [](std::string_view spec, std::string_view part) {
    const auto message = error_of(spec);
    EXPECT_NE(message.find(part), std::string::npos) << spec << ": '" << message << "'";
    EXPECT_NE(message.find(spec), std::string::npos) << "the message quotes the spec: " << spec;
  };
  expect_error("cascade:2,1;3,1;6,1", "has 3 ';'-separated part(s); SimGrid's notation is");
  expect_error("cascade:2;3,1;6,1;4", "'2' has 1 value(s)");
  expect_error("cascade:2,1;3,1,5;6,1;4", "'3,1,5' has 3 value(s)");
  expect_error("cascade:2,1;3,0;6,1;4", "CL (black links between two chassis) is 0");
  expect_error("cascade:2,1;3,1;6,1;x", "N (nodes per blade) is 'x'");
  expect_error("cascade:2,1;3,1;,1;4", "R (blades per chassis) is empty");
  expect_error("cascade:7,1;3,1;6,1;4", "at most R groups");
  expect_error("cascade:2,1;1000,1;1000,1;2", "mapsim models machines up to");
  expect_error("cascade:1,1;1,1;1000,2000000;1", "link ids are 32-bit");
  expect_error("cascade:2,1;3,1;6,1;4:global=relative", "unknown option 'global'");
  expect_error("cascade:2,1;3,1;6,1;4:extra", "option 'extra' has no value");
  expect_error("cascade:2,1;3,1;6,1;4:routing=ecmp", "routing=ecmp is not one of cascade's");
}

}  // namespace
}  // namespace mapsim::topo
