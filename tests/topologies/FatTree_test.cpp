// Tests of the fat-tree kind (topologies/FatTree.hpp): the shared invariants on small trees,
// hand-counted routes, SimGrid's own routes as recorded from SimGrid 3.32, ECMP, coordinates,
// levels, closed forms and every spec error.
//
// This binary also replaces operator new (tests/support/CountingNew.hpp, to check that routes do
// not allocate), so it stays a binary of its own. CountingNew.hpp's namespace mapsim::testing
// hides ::testing inside namespace mapsim: this file writes ::testing.

#include <cstdio>
#include <map>
#include <numeric>
#include <ostream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/CountingNew.hpp"
#include "tests/topologies/EveryPair.hpp"

namespace mapsim::topo {
namespace {

// Small trees: one and two levels, W > 1 under the leaves, parallel links at the top and below
// it, a level with a single child (M = 1), four levels, cores, both aliases, ECMP.
INSTANTIATE_TEST_SUITE_P(
    FatTrees, EveryPair,
    ::testing::Values("fattree:1;5;1;1", "fattree:1;4;3;2", "fattree:2;4,4;1,2;1,2",
                      "fattree:2;4,4;1,2;1,2:cores=2", "fattree:2;3,4;2,3;1,1",
                      "fattree:2;2,3;2,2;2,1", "fattree:3;2,2,3;1,2,2;1,1,1",
                      "fattree:3;2,3,2;2,2,3;2,1,2", "fattree:3;2,1,2;1,2,1;1,1,1",
                      "fattree:4;2,2,2,2;1,2,2,2;1,1,1,1", "fattree:k-ary-n-tree:2,3",
                      "fattree:leaf-spine:3,4,2", "fattree:2;4,4;1,2;1,2:routing=ecmp"),
    SpecName);

// The same trees without parallel links (every P = 1).
INSTANTIATE_TEST_SUITE_P(FatTrees, DistinctLinks,
                         ::testing::Values("fattree:1;5;1;1", "fattree:2;3,4;2,3;1,1",
                                           "fattree:3;2,2,3;1,2,2;1,1,1",
                                           "fattree:3;2,1,2;1,2,1;1,1,1",
                                           "fattree:4;2,2,2,2;1,2,2,2;1,1,1,1",
                                           "fattree:k-ary-n-tree:2,3", "fattree:leaf-spine:3,4,2"),
                         SpecName);

/// The vertices a path visits, starting at a.
std::vector<VertexId> vertices(const Topology& t, NodeId a, const std::vector<LinkId>& path) {
  std::vector<VertexId> chain{a};
  for (const LinkId id : path) chain.push_back(t.link(id).to);
  return chain;
}

/// Checks that `path` is a chain of links from a to b.
void expect_chain(const Topology& t, NodeId a, NodeId b, const std::vector<LinkId>& path) {
  VertexId at = a;
  for (const LinkId id : path) {
    ASSERT_GE(id, 0);
    ASSERT_LT(id, t.link_count());
    ASSERT_EQ(t.link(id).from, at) << "link " << id << " does not continue the chain";
    at = t.link(id).to;
  }
  ASSERT_EQ(at, b);
}

// fattree:2;4,4;1,2;1,2 (SimGrid's own example): 16 nodes; 4 leaves (level-1 positions 0..3 =
// vertices 16..19), each with the 4 consecutive nodes whose digit x0 differs; 2 spines (vertices
// 20, 21), each joined to every leaf by 2 parallel links. SimGrid link numbers u: the 16 node
// links first (node n's is u = n), then per leaf q, per spine s, per parallel link j:
// u = 16 + (2q + s) * 2 + j. Link id 2u goes up, 2u + 1 down.
TEST(FatTree, HandCountedRoutesOnTwoLevels) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(t->node_count(), 16);
  EXPECT_EQ(t->vertex_count(), 22);  // 16 nodes, 4 leaves, 2 spines
  EXPECT_EQ(t->link_count(), 64);    // 2 x (16 node links + 4 x 2 x 2 leaf-spine links)

  // 0 -> 1, one leaf: up node 0's link (u = 0), down node 1's (u = 1); one switch.
  EXPECT_EQ(t->route(0, 1), (std::vector<LinkId>{0, 3}));
  EXPECT_EQ(vertices(*t, 0, t->route(0, 1)), (std::vector<VertexId>{0, 16, 1}));
  EXPECT_EQ(t->hops(0, 1), 1);

  // 0 -> 5: up to leaf 0; the leaf's D-mod-K port is 5 / W1 mod (W2 P2) = 5 mod 4 = 1: spine
  // 1 mod 2 = 1 (vertex 21) on parallel link 1 / 2 = 0, u = 16 + (0 + 1) * 2 + 0 = 18. Down to
  // leaf 1 (5 / 4) on parallel link a mod P2 = 0: u = 16 + (2 + 1) * 2 + 0 = 22, id 45; then
  // into node 5 (u = 5, id 11). Three switches.
  EXPECT_EQ(t->route(0, 5), (std::vector<LinkId>{0, 36, 45, 11}));
  EXPECT_EQ(vertices(*t, 0, t->route(0, 5)), (std::vector<VertexId>{0, 16, 21, 17, 5}));
  EXPECT_EQ(t->hops(0, 5), 3);

  // 5 -> 0: port 0 mod 4 = 0, spine 0 on link 0: u = 16 + (2 + 0) * 2 = 20; down to leaf 0 on
  // parallel link 5 mod 2 = 1: u = 16 + 0 + 1 = 17, id 35; into node 0: id 1.
  EXPECT_EQ(t->route(5, 0), (std::vector<LinkId>{10, 40, 35, 1}));
  EXPECT_EQ(vertices(*t, 5, t->route(5, 0)), (std::vector<VertexId>{5, 17, 20, 16, 0}));

  // 3 -> 14: port 14 mod 4 = 2: spine 0 on parallel link 1, u = 16 + 0 + 1 = 17 (id 34); down
  // to leaf 3 on link 3 mod 2 = 1: u = 16 + 6 * 2 + 1 = 29, id 59; into node 14: id 29.
  EXPECT_EQ(t->route(3, 14), (std::vector<LinkId>{6, 34, 59, 29}));
  EXPECT_EQ(vertices(*t, 3, t->route(3, 14)), (std::vector<VertexId>{3, 16, 20, 19, 14}));
}

// fattree:3;2,2,3;1,2,2;1,1,1: 12 nodes, digits (x0, x1, x2) of radices 2, 2, 3. Switches: 6
// leaves (vertices 12..17, position x1 + 2 x2 with x0 = 0 of radix W1 = 1), 6 level-2 switches
// (18..23, position x1 + 2 x2 with x1 of radix W2 = 2), 4 top switches (24..27, position x1 +
// 2 x2, x1 and x2 of radix 2). Links: 24 node links (ids 0..23), then 24 ids from level 1 to 2
// (first 24, u = 12 + 2 leaf + parent), then 24 from level 2 to 3 (first 48).
TEST(FatTree, HandCountedRouteOnThreeLevels) {
  const auto t = make_topology("fattree:3;2,2,3;1,2,2;1,1,1");
  EXPECT_EQ(t->vertex_count(), 28);
  EXPECT_EQ(t->link_count(), 72);
  // 0 = (0,0,0) and 11 = (1,1,2) meet only at the top: 5 switches, 6 links.
  // Up: node 0 -> leaf 0 (id 0). Leaf port 11 / W1 mod W2 = 1: level-2 switch x1 = 1, position
  // 1 (vertex 19), id 24 + 2 (0 * 2 + 1) = 26. Its port 11 / (W1 W2) mod W3 = 5 mod 2 = 1: top
  // switch x2 = 1, position 1 + 2 = 3 (vertex 27), id 48 + 2 (1 * 2 + 1) = 54.
  // Down: to the level-2 switch of 11's subtree with x1 = 1: position 1 + 2 * 2 = 5 (vertex 23),
  // id 48 + 2 (5 * 2 + 1) + 1 = 71; to 11's leaf, position 5 (vertex 17), id 24 + 2 (5 * 2 + 1)
  // + 1 = 47; into node 11, id 2 * 11 + 1 = 23.
  EXPECT_EQ(t->route(0, 11), (std::vector<LinkId>{0, 26, 54, 71, 47, 23}));
  EXPECT_EQ(vertices(*t, 0, t->route(0, 11)), (std::vector<VertexId>{0, 12, 19, 27, 23, 17, 11}));
  EXPECT_EQ(t->hops(0, 11), 5);
  // 5 = (1,0,1) and 6 = (0,1,1) share the level-2 subtree 4..7: 3 switches, 4 links. 5's leaf
  // is position 0 + 2 * 1 = 2 (vertex 14); its port 6 mod W2 = 0 leads to the level-2 switch
  // x1 = 0, x2 = 1, position 2 (vertex 20); down to 6's leaf, position 1 + 2 = 3 (vertex 15).
  EXPECT_EQ(t->hops(5, 6), 3);
  EXPECT_EQ(vertices(*t, 5, t->route(5, 6)), (std::vector<VertexId>{5, 14, 20, 15, 6}));
  EXPECT_EQ(t->vertex_name(27), "switch (level 3, 3)");
  EXPECT_EQ(t->vertex_name(12), "switch (level 1, 0)");
  EXPECT_EQ(t->vertex_name(5), "node 5 (1,0,1)");
}

// SimGrid 3.32's routes, printed by a program against libsimgrid for a FAT_TREE cluster of
// these parameters and hosts node-0 .. node-(N-1). A SimGrid link "link_from_C_P_U_DIR" is link
// id 2U (UP) or 2U + 1 (DOWN) here, from C to P or back. SimGrid numbers the switches 2N - 1,
// 2N - 2, ... in our vertex order, so our switch vertex v is its 3N - 1 - v (with more switches
// than nodes its switch ids run into the hosts' range: only the name's position tells them
// apart, so the test maps our vertices to SimGrid's ids and not back).
struct SimGridRoute {
  const char* spec;
  NodeId from;
  NodeId to;
  const char* links;
};

void PrintTo(const SimGridRoute& route, std::ostream* out) {
  *out << route.spec << " " << route.from << " -> " << route.to;
}

class MatchesSimGrid : public ::testing::TestWithParam<SimGridRoute> {};

TEST_P(MatchesSimGrid, RouteEqualsSimGridsLinkForLink) {
  const auto& param = GetParam();
  const auto t = make_topology(param.spec);
  const VertexId n = t->node_count();
  const auto simgrid = [&](VertexId v) { return v < n ? v : 3 * n - 1 - v; };
  std::vector<LinkId> expected;
  std::istringstream in(param.links);
  std::string name;
  while (in >> name) {
    VertexId child = 0;
    VertexId parent = 0;
    LinkId u = 0;
    char dir[8] = {};
    ASSERT_EQ(std::sscanf(name.c_str(), "link_from_%d_%d_%d_%7s", &child, &parent, &u, dir), 4);
    const bool up = std::string(dir) == "UP";
    expected.push_back(2 * u + (up ? 0 : 1));
    const Link link = t->link(expected.back());
    EXPECT_EQ(simgrid(up ? link.from : link.to), child) << name;
    EXPECT_EQ(simgrid(up ? link.to : link.from), parent) << name;
  }
  EXPECT_EQ(t->route(param.from, param.to), expected);
}

INSTANTIATE_TEST_SUITE_P(
    FatTree, MatchesSimGrid,
    ::testing::Values(
        SimGridRoute{"fattree:2;4,4;1,2;1,2", 0, 5,
                     "link_from_0_31_0_UP link_from_31_26_18_UP link_from_30_26_22_DOWN "
                     "link_from_5_30_5_DOWN"},
        SimGridRoute{"fattree:2;4,4;1,2;1,2", 3, 12,
                     "link_from_3_31_3_UP link_from_31_27_16_UP link_from_28_27_29_DOWN "
                     "link_from_12_28_12_DOWN"},
        SimGridRoute{"fattree:3;2,2,3;1,2,2;1,1,1", 0, 11,
                     "link_from_0_23_0_UP link_from_23_16_13_UP link_from_16_8_27_UP "
                     "link_from_12_8_35_DOWN link_from_18_12_23_DOWN link_from_11_18_11_DOWN"},
        SimGridRoute{"fattree:3;2,2,3;1,2,2;1,1,1", 11, 0,
                     "link_from_11_18_11_UP link_from_18_13_22_UP link_from_13_11_32_UP "
                     "link_from_17_11_24_DOWN link_from_23_17_12_DOWN link_from_0_23_0_DOWN"},
        SimGridRoute{"fattree:3;2,2,3;1,2,2;1,1,1", 2, 3,
                     "link_from_2_22_2_UP link_from_3_22_3_DOWN"},
        SimGridRoute{"fattree:2;3,4;2,3;1,1", 0, 11,
                     "link_from_0_22_1_UP link_from_22_10_29_UP link_from_16_10_47_DOWN "
                     "link_from_11_16_23_DOWN"},
        SimGridRoute{"fattree:2;3,4;2,3;1,1", 7, 2,
                     "link_from_7_19_14_UP link_from_19_13_37_UP link_from_23_13_25_DOWN "
                     "link_from_2_23_4_DOWN"},
        // Parallel links under the leaves, but 1 -> 5 enters node 5 on the link SimGrid's
        // carried-over scan also lands on (1 mod P1 = 1).
        SimGridRoute{"fattree:2;2,3;2,2;2,1", 1, 5,
                     "link_from_1_10_6_UP link_from_10_4_26_UP link_from_6_4_34_DOWN "
                     "link_from_5_6_23_DOWN"}));

// The documented departure: on fattree:2;2,3;2,2;2,1, SimGrid routes 0 -> 5 as
//   link_from_0_10_2_UP link_from_10_4_26_UP link_from_6_4_34_DOWN link_from_5_6_23_DOWN
// Its top switch scans its ports from (0 mod P2) M2 = 0 for x1(5) = 2, takes port 2 and carries
// index 3 down to the leaf, whose ports are x0 + 2 j; the first match at or after 3 is port 3
// (x0(5) = 1, j = 1): parallel link 1, u = 5 * 4 + 1 * 2 + 1 = 23. mapsim takes a mod P1 = 0:
// u = 22, id 45. Everything else is SimGrid's.
TEST(FatTree, DepartsFromSimGridOnlyInTheParallelLinkBelowTheTop) {
  const auto t = make_topology("fattree:2;2,3;2,2;2,1");
  EXPECT_EQ(t->route(0, 5), (std::vector<LinkId>{2 * 2, 2 * 26, 2 * 34 + 1, 2 * 22 + 1}));
}

// D-mod-K at the leaves of fattree:2;4,4;1,2;1,2: from leaf 0, destination b leaves by port
// b mod 4: spine b mod 2 on parallel link (b / 2) mod 2, u = 16 + 2 (b mod 2) + (b / 2) mod 2:
// b = 4, 5, 6, 7 take u = 16, 18, 17, 19 (ids 32, 36, 34, 38), and so on with period 4.
TEST(FatTree, DModKUpPortsByHand) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2");
  const std::array<LinkId, 4> period{32, 36, 34, 38};
  for (NodeId a = 0; a < 4; ++a) {
    for (NodeId b = 4; b < 16; ++b) {
      EXPECT_EQ(t->route(a, b)[1], period[static_cast<std::size_t>(b % 4)]) << a << " " << b;
    }
  }
  // The spines split the destinations evenly: even ones go through spine 0 (vertex 20).
  for (NodeId b = 4; b < 16; ++b) EXPECT_EQ(t->link(t->route(0, b)[1]).to, 20 + b % 2);
}

// ECMP: for every pair and many choices the route is a chain from a to b as long as the minimal
// one (2L links through 2L - 1 switches), and the same choice gives the same route.
TEST(FatTree, EcmpRoutesAreValidMinimalAndDeterministic) {
  for (const char* spec : {"fattree:2;4,4;1,2;1,2", "fattree:3;2,3,2;2,2,3;2,1,2",
                           "fattree:2;2,3;2,2;2,1", "fattree:1;4;3;2"}) {
    const auto t = make_topology(spec);
    std::vector<LinkId> path;
    std::vector<LinkId> again;
    for (NodeId a = 0; a < t->node_count(); ++a) {
      for (NodeId b = 0; b < t->node_count(); ++b) {
        for (std::uint64_t choice = 0; choice < 40; ++choice) {
          const std::uint64_t c = choice * 0x1234'5678'9ABCull;  // far-apart choices too
          t->alternative_route_into(a, b, c, path);
          SCOPED_TRACE(::testing::Message() << spec << " " << a << " -> " << b << " choice " << c);
          expect_chain(*t, a, b, path);
          ASSERT_EQ(path.size(), t->route(a, b).size());
          ASSERT_EQ(t->route_hops(path), t->hops(a, b));
          t->alternative_route_into(a, b, c, again);
          ASSERT_EQ(path, again);
        }
      }
    }
  }
}

// On fattree:3;2,2,2;2,2,2;2,2,2 a pair meeting only at the top (0 and 7) has
// (W1 P1)(W2 P2)(W3 P3) = 4^3 = 64 up-paths (port at each level) and P1 P2 P3 = 8 ways down (the
// parallel link of each step): 512 routes, all of them taken by 20,000 consecutive choices.
TEST(FatTree, EcmpReachesEveryEqualCostPath) {
  const auto t = make_topology("fattree:3;2,2,2;2,2,2;2,2,2");
  ASSERT_EQ(t->hops(0, 7), 5);
  std::set<std::vector<LinkId>> ups;
  std::set<std::vector<LinkId>> routes;
  std::set<VertexId> tops;
  std::vector<LinkId> path;
  for (std::uint64_t choice = 0; choice < 20'000; ++choice) {
    t->alternative_route_into(0, 7, choice, path);
    routes.insert(path);
    ups.emplace(path.begin(), path.begin() + 3);
    tops.insert(t->link(path[2]).to);
  }
  EXPECT_EQ(ups.size(), 64u);
  EXPECT_EQ(routes.size(), 512u);
  EXPECT_EQ(tops.size(), 8u);  // every top switch: W1 W2 W3 = 8
  // Within a leaf (0 -> 1) there are W1 P1 = 4 ways up and P1 = 2 down.
  routes.clear();
  for (std::uint64_t choice = 0; choice < 1'000; ++choice) {
    t->alternative_route_into(0, 1, choice, path);
    routes.insert(path);
  }
  EXPECT_EQ(routes.size(), 8u);
}

TEST(FatTree, OffersMinimalAndEcmp) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2:routing=ecmp");
  EXPECT_EQ(std::vector<Routing>(t->routings().begin(), t->routings().end()),
            (std::vector<Routing>{Routing::Minimal, Routing::Ecmp}));
  EXPECT_EQ(t->routing(), Routing::Ecmp);
  EXPECT_EQ(t->spec(), "fattree:2;4,4;1,2;1,2:routing=ecmp");
  // D-mod-K is the minimal routing under its own name.
  EXPECT_EQ(make_topology("fattree:2;4,4;1,2;1,2:routing=dmodk")->routing(), Routing::Minimal);
}

// SimGrid's host order (generate_labels in src/kernel/routing/FatTreeZone.cpp: a node's label
// digits count up with x0 fastest, host i gets position i; are_related joins a leaf to the
// nodes whose labels differ only in x0), confirmed with simgrid-routes on fattree:2;4,4;1,2;1,2,
// where 0 -> 1 .. 0 -> 3 go up to switch 31 and straight down, and 0 -> 4 climbs to a spine:
// nodes M1 k .. M1 k + M1 - 1 share leaf k, and node n has coordinates
// (n mod M1, (n / M1) mod M2, ...).
TEST(FatTree, NodesFollowSimGridsHostOrder) {
  const auto t = make_topology("fattree:3;2,3,2;2,2,3;2,1,2");  // M = 2, 3, 2: 12 nodes
  for (NodeId a = 0; a < 12; ++a) {
    for (NodeId b = 0; b < 12; ++b) {
      const int expected = a == b ? 0 : a / 2 == b / 2 ? 1 : a / 6 == b / 6 ? 3 : 5;
      EXPECT_EQ(t->hops(a, b), expected) << a << " " << b;
    }
  }
  EXPECT_EQ(t->coordinates(7), (std::vector<int>{1, 0, 1}));  // 7 = 1 + 2 (0 + 3 * 1)
  EXPECT_EQ(t->coordinates(10), (std::vector<int>{0, 2, 1}));
}

TEST(FatTree, CoordinatesRoundTripAndRejectBadInput) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(t->dimensions().size(), 2u);
  EXPECT_EQ(t->dimension_name(0), "port");
  EXPECT_EQ(t->dimension_name(1), "leaf");
  EXPECT_FALSE(t->is_torus(0));
  EXPECT_TRUE(t->has_grid());
  EXPECT_EQ(t->coordinates(5), (std::vector<int>{1, 1}));
  EXPECT_EQ(t->vertex_name(5), "node 5 (1,1)");
  EXPECT_EQ(t->node_at(std::vector<int>{3, 2}), 11);
  EXPECT_THROW((void)t->node_at(std::vector<int>{1}), InputError);
  EXPECT_THROW((void)t->node_at(std::vector<int>{1, 1, 0}), InputError);
  try {
    (void)t->node_at(std::vector<int>{4, 0});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("coordinate port = 4 is outside"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)t->node_at(std::vector<int>{0, -1}), InputError);
}

TEST(FatTree, VerticesAndLinkClasses) {
  const auto t = make_topology("fattree:3;2,2,3;1,2,2;1,1,1");
  EXPECT_FALSE(t->nodes_are_routers());
  EXPECT_EQ(t->vertex_name(20), "switch (level 2, 2)");
  std::map<LinkClass, int> classes;
  for (LinkId id = 0; id < t->link_count(); ++id) ++classes[t->link(id).link_class];
  // 24 node links, 24 leaf to level-2 (ft-1), 24 level-2 to top (ft-2), both directions.
  EXPECT_EQ(classes, (std::map<LinkClass, int>{
                         {LinkClass::FtHost, 24}, {LinkClass::Ft1, 24}, {LinkClass::Ft2, 24}}));
  EXPECT_EQ(t->link(0).link_class, LinkClass::FtHost);
  EXPECT_EQ(t->link(24).link_class, tree_link_class(1));
  EXPECT_EQ(t->link(48).link_class, tree_link_class(2));
}

TEST(FatTree, LevelsAreTheSubtrees) {
  const auto t = make_topology("fattree:3;2,2,3;1,2,2;1,1,1");
  const auto levels = t->levels();
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].name, "leaf switch");
  EXPECT_EQ(levels[1].name, "level-2 subtree");
  EXPECT_EQ(levels[2].name, "level-3 subtree");
  // 6 leaves of 2 nodes, 3 level-2 subtrees of 4, one top subtree of all 12.
  EXPECT_EQ(levels[0].groups, 6);
  EXPECT_EQ(levels[1].groups, 3);
  EXPECT_EQ(levels[2].groups, 1);
  EXPECT_EQ(levels[0].group, (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
  EXPECT_EQ(levels[1].group, (std::vector<std::int32_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(levels[2].group, std::vector<std::int32_t>(12, 0));
  // Two nodes share the level-l group exactly when their route turns at level l or below.
  for (NodeId a = 0; a < 12; ++a) {
    for (NodeId b = 0; b < 12; ++b) {
      for (std::size_t l = 0; l < 3; ++l) {
        const auto ua = static_cast<std::size_t>(a);
        const auto ub = static_cast<std::size_t>(b);
        EXPECT_EQ(levels[l].group[ua] == levels[l].group[ub],
                  t->hops(a, b) <= 2 * static_cast<int>(l + 1) - 1);
      }
    }
  }
}

// fattree:2;4,4;1,2;1,2: each node has 3 nodes at 1 hop (its leaf) and 12 at 3 hops.
TEST(FatTree, HopHistogramInClosedForm) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(t->hop_histogram().counts, (std::vector<std::uint64_t>{16, 48, 0, 192}));
  // A top level with one child adds no pair: the histogram ends at 1 hop.
  EXPECT_EQ(make_topology("fattree:2;4,1;1,1;1,1")->hop_histogram().counts,
            (std::vector<std::uint64_t>{4, 12}));
  // Versus the base class's pair-by-pair count, on a tree with W and P > 1 everywhere.
  const auto u = make_topology("fattree:3;2,3,2;2,2,3;2,1,2");
  EXPECT_EQ(u->hop_histogram().counts, u->Topology::hop_histogram().counts);
}

TEST(FatTree, LinksPerClassInClosedForm) {
  for (const char* spec : {"fattree:2;4,4;1,2;1,2", "fattree:3;2,3,2;2,2,3;2,1,2",
                           "fattree:4;2,2,2,2;1,2,2,2;1,1,1,1"}) {
    const auto t = make_topology(spec);
    EXPECT_EQ(t->links_per_class(), t->Topology::links_per_class()) << spec;
  }
  // fattree:2;4,4;1,2;1,2: 16 node links and 4 x 2 x 2 leaf-spine links, each both ways.
  const auto counts = make_topology("fattree:2;4,4;1,2;1,2")->links_per_class();
  EXPECT_EQ(counts[static_cast<std::size_t>(LinkClass::FtHost)], 32);
  EXPECT_EQ(counts[static_cast<std::size_t>(LinkClass::Ft1)], 32);
}

// Both aliases are read into SimGrid's notation, which is the canonical text.
TEST(FatTree, AliasesCanonicaliseToSimGridsNotation) {
  // A 4-ary 3-tree: 3 levels of 4^2 = 16 switches, 64 nodes; every switch but the top ones has
  // 4 parents.
  EXPECT_EQ(to_string(parse_topology_spec("fattree:k-ary-n-tree:4,3")),
            "fattree:3;4,4,4;1,4,4;1,1,1");
  const auto tree = make_topology("fattree:k-ary-n-tree:4,3");
  EXPECT_EQ(tree->node_count(), 64);
  EXPECT_EQ(tree->vertex_count(), 64 + 3 * 16);
  // 4 leaves of 8 nodes, blocking factor 2: 8 / 2 = 4 spines.
  EXPECT_EQ(to_string(parse_topology_spec("fattree:leaf-spine:4,8,2:cores=2")),
            "fattree:2;8,4;1,4;1,1:cores=2");
  EXPECT_EQ(to_string(parse_topology_spec("fattree:leaf-spine:4,8")), "fattree:2;8,4;1,8;1,1");
  const auto leaf_spine = make_topology("fattree:leaf-spine:4,8,2:cores=2");
  EXPECT_EQ(leaf_spine->spec(), "fattree:2;8,4;1,4;1,1:cores=2");
  EXPECT_EQ(leaf_spine->machine_spec(), "fattree:2;8,4;1,4;1,1:cores=2");
  EXPECT_EQ(leaf_spine->vertex_count(), 32 + 4 + 4);
  // The canonical text reads back to the same spec.
  for (const char* text : {"fattree:k-ary-n-tree:4,3", "fattree:leaf-spine:4,8,2:cores=2",
                           "fattree:k-ary-n-tree:2,1:routing=ecmp"}) {
    const auto spec = parse_topology_spec(text);
    EXPECT_EQ(parse_topology_spec(to_string(spec)), spec) << text;
  }
}

TEST(FatTree, MachineSpecCarriesCores) {
  EXPECT_EQ(make_topology("fattree:2;4,4;1,2;1,2")->machine_spec(), "fattree:2;4,4;1,2;1,2");
  const auto t = make_topology("fattree:2;4,4;1,2;1,2:cores=4:routing=ecmp");
  EXPECT_EQ(t->machine_spec(), "fattree:2;4,4;1,2;1,2:cores=4");
  EXPECT_EQ(t->spec(), "fattree:2;4,4;1,2;1,2:cores=4:routing=ecmp");
  EXPECT_EQ(t->cores_per_node(), 4);
  EXPECT_EQ(t->kind(), "fattree");
}

TEST(FatTree, BlocksArePrefixes) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2");
  EXPECT_TRUE(t->prefix_blocks());
  EXPECT_FALSE(t->block_stats(std::vector<int>{2, 2}).has_value());
  EXPECT_THROW((void)t->block(std::vector<int>{2, 2}), InternalError);
}

/// The message of the InputError `spec` raises (empty if none).
std::string error_of(const std::string& spec) {
  try {
    (void)make_topology(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FatTree, RejectsBadSpecsSayingWhatIsWrong) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"fattree:2;4,4;1,2", "has 3 ';'-separated group(s); SimGrid's notation has four"},
      {"fattree:2;4,4;1,2;1,2;1", "has 5 ';'-separated group(s)"},
      {"fattree:2", "has 1 ';'-separated group(s)"},
      {"fattree:2;4;1,2;1,2", "M (children per switch) has 1 value(s) '4' but H = 2 levels"},
      {"fattree:2;4,4;1,2,3;1,2", "W (parents per vertex) has 3 value(s) '1,2,3'"},
      {"fattree:2;4,4;1,2;1", "P (parallel links per parent) has 1 value(s)"},
      {"fattree:0;4;1;1", "H (switch levels) is 0; it must be a positive integer"},
      {"fattree:x;4;1;1", "H (switch levels) is 'x', which is not a positive integer"},
      {"fattree:9;1,1,1,1,1,1,1,1,1;1,1,1,1,1,1,1,1,1;1,1,1,1,1,1,1,1,1",
       "H (switch levels) is 9, which is too large (limit 8)"},
      {"fattree:2;4,0;1,2;1,2", "M2 (children per switch at level 2) is 0"},
      {"fattree:2;4,4;0,2;1,2", "W1 (parents per vertex at level 1) is 0"},
      {"fattree:2;4,4;1,2;1,0", "P2 (parallel links per parent at level 2) is 0"},
      {"fattree:2;4,x;1,2;1,2", "M2 (children per switch at level 2) is 'x', which is not"},
      {"fattree:2;4,-4;1,2;1,2", "is '-4', which is not a positive integer"},
      {"fattree:2;4,;1,2;1,2", "M2 (children per switch at level 2) is empty"},
      {"fattree:2;4,4;1,99999999999999999999;1,2", "is 99999999999999999999, which is too large"},
      {"fattree:2;2048,2048;1,1;1,1", "more than 2097152 nodes (M1 x ... x M2)"},
      {"fattree:1;1000;3000000;1",
       "more than 2147483647 directed links, the most 32-bit link ids allow: between levels 0 "
       "and 1 alone, 1000 vertices x 3000000 parents (W1) x 1 parallel links (P1) x 2"},
      {"fattree:2;1024,1024;1,100000;1,100000",
       "between levels 1 and 2 alone, 1024 vertices x 100000 parents (W2) x 100000 parallel"},
      // 2 x 1024 x 1024 node links + 2 x 1024 leaves x 2000 x 1000 leaf-spine links.
      {"fattree:2;1024,1024;1,2000;1,1000",
       "more than 2147483647 directed links, the most 32-bit link ids allow: 4098097152 in all"},
      {"fattree:2;4,4;1,2;1,2:color=red",
       "unknown option 'color'; valid options: cores, routing, allocation, hosts"},
      {"fattree:2;4,4;1,2;1,2:rooting=ecmp", "did you mean 'routing'"},
      {"fattree:2;4,4;1,2;1,2:extra", "unexpected field 'extra' after the shape"},
      {"fattree:fat:4,3", "'fat' is not a fat-tree shape; expected SimGrid's notation"},
      {"fattree:k-ary-n-tre:4,3", "did you mean 'k-ary-n-tree'"},
      {"fattree:k-ary-n-tree", "k-ary-n-tree needs its parameters"},
      {"fattree:k-ary-n-tree:4", "k-ary-n-tree takes K,N (arity, levels)"},
      {"fattree:k-ary-n-tree:4,3,2", "k-ary-n-tree takes K,N"},
      {"fattree:k-ary-n-tree:0,3", "K (the arity) is 0"},
      {"fattree:k-ary-n-tree:4,9", "N (the levels) is 9, which is too large (limit 8)"},
      {"fattree:k-ary-n-tree:64,4", "more than 2097152 nodes"},
      {"fattree:k-ary-n-tree:4,3:extra", "unexpected field 'extra' after the shape"},
      {"fattree:leaf-spine", "leaf-spine needs its parameters"},
      {"fattree:leaf-spine:4", "leaf-spine takes L,H[,B]"},
      {"fattree:leaf-spine:4,6,4", "the blocking factor B = 4 does not divide H = 6"},
      {"fattree:leaf-spine:4,6,0", "B (the blocking factor) is 0"},
      {"fattree:leaf-spine:0,6", "L (leaf switches) is 0"},
      {"fattree:leaf-spine:4,y", "H (nodes per leaf) is 'y'"},
  };
  for (const auto& [spec, expected] : cases) {
    const auto message = error_of(spec);
    EXPECT_NE(message.find(expected), std::string::npos)
        << spec << "\n  message:  " << message << "\n  expected: " << expected;
    EXPECT_EQ(message.rfind("topology spec '" + spec + "'", 0), 0u) << message;
  }
}

// A ~100,000-node tree is described without per-pair tables: the closed forms count all N^2
// pairs and every link (no assertion on time; see the report for it).
TEST(FatTree, LargeTreeInClosedForm) {
  const auto t = make_topology("fattree:3;48,48,48;1,24,24;1,1,1");
  const auto n = static_cast<std::uint64_t>(t->node_count());
  EXPECT_EQ(n, 48u * 48 * 48);
  const auto counts = t->hop_histogram().counts;
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}), n * n);
  EXPECT_EQ(counts[5], n * (n - 48 * 48));  // pairs in different level-2 subtrees
  const auto per_class = t->links_per_class();
  EXPECT_EQ(std::accumulate(per_class.begin(), per_class.end(), std::int64_t{0}), t->link_count());
  std::vector<LinkId> path;
  for (const NodeId b : {1, 47, 48, 2303, 2304, 110591}) {
    t->route_into(0, b, path);
    expect_chain(*t, 0, b, path);
    EXPECT_EQ(t->route_hops(path), t->hops(0, b));
  }
}

// hops(), route_into() and alternative_route_into() into a reserved buffer must not allocate:
// the simulator and the metrics call them per message.
TEST(FatTree, RoutesDoNotAllocate) {
  for (const char* spec : {"fattree:3;2,3,2;2,2,3;2,1,2", "fattree:k-ary-n-tree:4,3"}) {
    const auto t = make_topology(spec);
    std::vector<LinkId> path;
    path.reserve(static_cast<std::size_t>(t->max_route_links()));
    long total = 0;
    const long before = mapsim::testing::allocations.load();
    for (NodeId a = 0; a < t->node_count(); ++a) {
      for (NodeId b = 0; b < t->node_count(); ++b) {
        total += t->hops(a, b);
        t->route_into(a, b, path);
        total -= t->route_hops(path);
        t->alternative_route_into(a, b, static_cast<std::uint64_t>(a * 7919 + b), path);
        total += static_cast<long>(path.size()) - t->hops(a, b) - 1 + (a == b ? 1 : 0);
      }
    }
    EXPECT_EQ(mapsim::testing::allocations.load() - before, 0) << spec;
    EXPECT_EQ(total, 0) << spec;
  }
}

}  // namespace
}  // namespace mapsim::topo
