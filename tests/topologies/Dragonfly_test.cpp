// The canonical dragonfly (Kim et al. 2008): the shared invariants on small instances of every
// global-link arrangement, hand-checked arrangements, routes and Valiant detours, and every spec
// error.

#include "topologies/Dragonfly.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/topologies/EveryPair.hpp"

namespace mapsim::topo {
namespace {

// n = floor(A H / (G - 1)) parallel links between two groups: 1 on the canonical 9,4,2,2 and
// 5,2,2,2, 3 on 3,2,1,3, 6 on 2,3,2,2; 6,3,1,2 leaves one of Merlin's ports unconnected;
// circulant 4,3,1,2 has the opposite group reached twice from one router, 5,3,1,4 and 7,4,2,4 have
// offsets past G (unconnected ports at e = G); palmtree 4,2,2,3 has two links per pair.
INSTANTIATE_TEST_SUITE_P(
    Dragonflies, EveryPair,
    ::testing::Values("dragonfly:9,4,2,2", "dragonfly:9,4,2,2:global=relative",
                      "dragonfly:9,4,2,2:global=circulant", "dragonfly:9,4,2,2:global=palmtree",
                      "dragonfly:5,2,2,2:cores=2", "dragonfly:6,3,1,2", "dragonfly:3,2,1,3",
                      "dragonfly:3,2,1,3:global=relative", "dragonfly:4,3,1,2:global=circulant",
                      "dragonfly:5,3,1,4:global=circulant", "dragonfly:7,4,2,4:global=circulant",
                      "dragonfly:4,2,2,3:global=palmtree", "dragonfly:7,3,2,2:global=palmtree",
                      "dragonfly:2,3,2,2", "dragonfly:1,3,2,1", "dragonfly:1,1,3,1",
                      "dragonfly:5,2,2,2:routing=ugal:cores=2"),
    SpecName);

// One link per pair of groups (n = 1): never two links between the same two routers.
INSTANTIATE_TEST_SUITE_P(Dragonflies, DistinctLinks,
                         ::testing::Values("dragonfly:9,4,2,2", "dragonfly:9,4,2,2:global=relative",
                                           "dragonfly:9,4,2,2:global=circulant",
                                           "dragonfly:9,4,2,2:global=palmtree", "dragonfly:5,2,2,2",
                                           "dragonfly:6,3,1,2",
                                           "dragonfly:7,3,2,2:global=palmtree"),
                         SpecName);

// The Cascades' instances live here too: EveryPair.hpp defines its tests, so only one file of
// the binary may include it. 2,2;2,2;2,1;2 is the machine (parallel blue and black
// links); 3,4;4,3;5,1;2 SimGrid's examples/platforms/cluster_dragonfly.xml; 2,1;3,1;6,1;4 the
// spec example; 1,3;1,2;1,1;3 a single router.
INSTANTIATE_TEST_SUITE_P(Cascades, EveryPair,
                         ::testing::Values("cascade:2,2;2,2;2,1;2", "cascade:3,1;2,1;3,1;2",
                                           "cascade:1,1;3,1;2,1;1", "cascade:2,1;3,1;6,1;4",
                                           "cascade:3,4;4,3;5,1;2", "cascade:1,3;1,2;1,1;3",
                                           "cascade:2,1;1,1;2,2;3:cores=2",
                                           "cascade:3,2;2,1;3,2;1:routing=valiant"),
                         SpecName);

// Lane counts of 1: no two links join the same routers.
INSTANTIATE_TEST_SUITE_P(Cascades, DistinctLinks,
                         ::testing::Values("cascade:3,1;2,1;3,1;2", "cascade:1,1;3,1;2,1;1",
                                           "cascade:2,1;3,1;6,1;4"),
                         SpecName);

std::unique_ptr<Topology> machine(std::string_view spec) {
  return make_topology(spec);
}

/// The message of the InputError `spec` throws ("" if none).
std::string error_of(std::string_view spec) {
  try {
    (void)make_topology(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// Vertex names along a route, starting with the source.
std::vector<std::string> walk(const Topology& t, const std::vector<LinkId>& path, NodeId from) {
  std::vector<std::string> names{t.vertex_name(from)};
  for (const LinkId id : path) names.push_back(t.vertex_name(t.link(id).to));
  return names;
}

using Router = std::pair<int, int>;  // (group, router)

/// Per router, the routers its global links lead to, read from link(id).
std::map<Router, std::multiset<Router>> global_peers(const Topology& t, int routers_per_group) {
  std::map<Router, std::multiset<Router>> peers;
  const auto router = [&](VertexId v) {
    const int index = v - t.node_count();
    return Router{index / routers_per_group, index % routers_per_group};
  };
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const Link l = t.link(id);
    if (l.link_class == LinkClass::DfGlobal) peers[router(l.from)].insert(router(l.to));
  }
  return peers;
}

TEST(Dragonfly, CountsOfTheCanonicalNineGroupMachine) {
  // 9 groups of 4 routers, 2 hosts each: 72 nodes, 36 routers. Links: 2 per node, 4 x 3 local
  // per group, and A H = 8 = G - 1 global ports per group, each used once.
  const auto t = machine("dragonfly:9,4,2,2");
  EXPECT_EQ(t->node_count(), 72);
  EXPECT_EQ(t->vertex_count(), 72 + 36);
  EXPECT_FALSE(t->nodes_are_routers());
  EXPECT_EQ(t->link_count(), 144 + 108 + 72);
  const auto per_class = t->links_per_class();
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfHost)], 144);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfLocal)], 108);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::DfGlobal)], 72);
  // Diameter: source router, its group's exit router, the entry router, the destination's.
  EXPECT_EQ(distance_stats(t->hop_histogram()).diameter, 4);
  EXPECT_EQ(t->max_route_links(), 7);  // a Valiant route: 2 node, 3 local, 2 global links
  EXPECT_TRUE(t->prefix_blocks());
  EXPECT_FALSE(t->block_stats(std::vector<int>{1, 1, 1}).has_value());
  EXPECT_THROW((void)t->block(std::vector<int>{1, 1, 1}), InternalError);
}

TEST(Dragonfly, NodeOrderIsGroupRouterHost) {
  // node = (g A + r) P + p with A = 4, P = 2: (2, 3, 1) is (8 + 3) 2 + 1 = 23.
  const auto t = machine("dragonfly:9,4,2,2");
  EXPECT_EQ(t->node_at(std::vector<int>{2, 3, 1}), 23);
  EXPECT_EQ(t->coordinates(23), (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(t->dimension_name(0), "group");
  EXPECT_EQ(t->dimension_name(2), "host");
  EXPECT_TRUE(t->has_grid());
  EXPECT_EQ(t->vertex_name(23), "node 23 (group 2, router 3, host 1)");
  EXPECT_EQ(t->vertex_name(72 + 2 * 4 + 3), "router (group 2, 3)");
  EXPECT_THROW((void)t->node_at(std::vector<int>{9, 0, 0}), InputError);
  EXPECT_THROW((void)t->node_at(std::vector<int>{0, 0}), InputError);
}

TEST(Dragonfly, LevelsAreRouterThenGroup) {
  const auto t = machine("dragonfly:5,2,2,2");
  const auto levels = t->levels();
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].name, "router");
  EXPECT_EQ(levels[0].groups, 10);
  EXPECT_EQ(levels[1].name, "group");
  EXPECT_EQ(levels[1].groups, 5);
  // Node 13 = (g 3, r 0, p 1): router 6 of 10, group 3.
  EXPECT_EQ(levels[0].group[13], 6);
  EXPECT_EQ(levels[1].group[13], 3);
}

// The four arrangements on dragonfly:5,2,2,2 (G = 5, A = 2, H = 2: 4 = G - 1 ports per group,
// one link per pair of groups), worked out from the header's definitions.
TEST(Dragonfly, AbsoluteArrangementByHand) {
  // Merlin's map: 2 ports per router, v = 0, 1 on router 0 and 2, 3 on router 1; port v leads to
  // the v-th other group. Group 0: router 0 to groups 1, 2, router 1 to 3, 4. Group 3: router 0
  // to 0, 1, router 1 to 2, 4. The far end is the port of the same rule in the other group, so
  // 0-3 joins (0, 1) and (3, 0).
  const auto t = machine("dragonfly:5,2,2,2");
  const auto peers = global_peers(*t, 2);
  using S = std::multiset<Router>;
  EXPECT_EQ(peers.at({0, 0}), (S{{1, 0}, {2, 0}}));
  EXPECT_EQ(peers.at({0, 1}), (S{{3, 0}, {4, 0}}));
  EXPECT_EQ(peers.at({1, 0}), (S{{0, 0}, {2, 0}}));
  EXPECT_EQ(peers.at({1, 1}), (S{{3, 0}, {4, 0}}));
  EXPECT_EQ(peers.at({2, 0}), (S{{0, 0}, {1, 0}}));
  EXPECT_EQ(peers.at({2, 1}), (S{{3, 1}, {4, 1}}));
  EXPECT_EQ(peers.at({3, 0}), (S{{0, 1}, {1, 1}}));
  EXPECT_EQ(peers.at({3, 1}), (S{{2, 1}, {4, 1}}));
  EXPECT_EQ(peers.at({4, 0}), (S{{0, 1}, {1, 1}}));
  EXPECT_EQ(peers.at({4, 1}), (S{{2, 1}, {3, 1}}));
}

TEST(Dragonfly, RelativeArrangementByHand) {
  // Port v leads to group g + 1 + v: router 0 to g + 1, g + 2, router 1 to g + 3, g + 4. From
  // g + 1 and g + 2, g is 4 and 3 groups ahead (router 1); from g + 3 and g + 4, 2 and 1 (router
  // 0).
  const auto t = machine("dragonfly:5,2,2,2:global=relative");
  const auto peers = global_peers(*t, 2);
  using S = std::multiset<Router>;
  for (int g = 0; g < 5; ++g) {
    EXPECT_EQ(peers.at({g, 0}), (S{{(g + 1) % 5, 1}, {(g + 2) % 5, 1}})) << g;
    EXPECT_EQ(peers.at({g, 1}), (S{{(g + 3) % 5, 0}, {(g + 4) % 5, 0}})) << g;
  }
}

TEST(Dragonfly, CirculantArrangementByHand) {
  // H = 2: router r has offset e = r + 1, its two ports lead to router r of groups g + e, g - e.
  const auto t = machine("dragonfly:5,2,2,2:global=circulant");
  const auto peers = global_peers(*t, 2);
  using S = std::multiset<Router>;
  for (int g = 0; g < 5; ++g) {
    EXPECT_EQ(peers.at({g, 0}), (S{{(g + 1) % 5, 0}, {(g + 4) % 5, 0}})) << g;
    EXPECT_EQ(peers.at({g, 1}), (S{{(g + 2) % 5, 1}, {(g + 3) % 5, 1}})) << g;
  }
}

TEST(Dragonfly, PalmtreeArrangementByHand) {
  // Port j = 2 r + k leads to group g + 1 + (3 - j) = g - 1 - j, to port 3 - j: router 1 - r.
  // Router 0 (j = 0, 1) reaches g - 1, g - 2; router 1 (j = 2, 3) reaches g - 3, g - 4.
  const auto t = machine("dragonfly:5,2,2,2:global=palmtree");
  const auto peers = global_peers(*t, 2);
  using S = std::multiset<Router>;
  for (int g = 0; g < 5; ++g) {
    EXPECT_EQ(peers.at({g, 0}), (S{{(g + 4) % 5, 1}, {(g + 3) % 5, 1}})) << g;
    EXPECT_EQ(peers.at({g, 1}), (S{{(g + 2) % 5, 0}, {(g + 1) % 5, 0}})) << g;
  }
  // The global links are numbered in port order: group 0's first is port 0 (router 0) to g - 1.
  const auto global = t->links_per_class()[static_cast<std::size_t>(LinkClass::DfGlobal)];
  const Link first = t->link(t->link_count() - static_cast<LinkId>(global));
  EXPECT_EQ(t->vertex_name(first.from), "router (group 0, 0)");
  EXPECT_EQ(t->vertex_name(first.to), "router (group 4, 1)");
}

TEST(Dragonfly, MerlinMapLeavesTrailingPortsOfTheLastRoutersUnconnected) {
  // G = 6, A = 3, H = 2: n = floor(6 / 5) = 1, 5 used ports, ceil(5 / 3) = 2 on routers 0 and 1,
  // 1 on router 2 (Merlin's start_skip): router 2 of every group has one global link.
  const auto t = machine("dragonfly:6,3,1,2");
  const auto peers = global_peers(*t, 3);
  for (int g = 0; g < 6; ++g) {
    EXPECT_EQ(peers.at({g, 0}).size(), 2u);
    EXPECT_EQ(peers.at({g, 1}).size(), 2u);
    EXPECT_EQ(peers.at({g, 2}).size(), 1u);
  }
  EXPECT_EQ(t->links_per_class()[static_cast<std::size_t>(LinkClass::DfGlobal)], 6 * 5);
}

TEST(Dragonfly, CirculantSkipsOffsetsThatWrapToTheOwnGroup) {
  // G = 5, A = 3, H = 4: offsets e = 1 .. 6; e = 5 = G leads nowhere (router 2's first two
  // ports), e = 6 = 1 (mod 5) doubles the link to g + 1. Groups g, g + 1: e = 1 (+), 6 (+) and
  // 4 (-) from the lower one: 3 links. Groups g, g + 2: e = 2 (+), 3 (-): 2 links.
  const auto t = machine("dragonfly:5,3,1,4:global=circulant");
  const auto& df = dynamic_cast<const Dragonfly&>(*t);
  EXPECT_EQ(df.links_between(0, 1), 3);
  EXPECT_EQ(df.links_between(1, 0), 3);
  EXPECT_EQ(df.links_between(0, 2), 2);
  EXPECT_EQ(df.links_between(4, 0), 3);
  EXPECT_EQ(t->links_per_class()[static_cast<std::size_t>(LinkClass::DfGlobal)], 5 * 10);
  EXPECT_EQ(global_peers(*t, 3).at({0, 2}).size(), 2u);  // e = 6 only: +6 and -6
}

TEST(Dragonfly, MinimalRoutesByHand) {
  // dragonfly:9,4,2,2, absolute: group 0 reaches group 5 (its 5th other group, v = 4) from
  // router 4 / 2 = 2, and group 5 reaches group 0 (v = 0) from router 0.
  const auto t = machine("dragonfly:9,4,2,2");
  const NodeId a = t->node_at(std::vector<int>{0, 0, 0});
  const NodeId b = t->node_at(std::vector<int>{5, 0, 1});
  const NodeId c = t->node_at(std::vector<int>{5, 3, 0});
  // To (5, 0, 1): local to the exit router 2, across onto router 0 of group 5, which is b's.
  EXPECT_EQ(walk(*t, t->route(a, b), a),
            (std::vector<std::string>{"node 0 (group 0, router 0, host 0)", "router (group 0, 0)",
                                      "router (group 0, 2)", "router (group 5, 0)",
                                      "node 41 (group 5, router 0, host 1)"}));
  EXPECT_EQ(t->hops(a, b), 3);
  // To (5, 3, 0): one more local link in group 5; the longest minimal route.
  EXPECT_EQ(t->hops(a, c), 4);
  EXPECT_EQ(t->route(a, c).size(), 5u);
  // From router 2 of group 0 the exit is its own router: 2 hops to b.
  EXPECT_EQ(t->hops(t->node_at(std::vector<int>{0, 2, 1}), b), 2);
  // One group: router, router. One router: just it.
  EXPECT_EQ(t->hops(a, t->node_at(std::vector<int>{0, 3, 1})), 2);
  EXPECT_EQ(t->hops(a, a + 1), 1);
  const auto classes = [&](NodeId x, NodeId y) {
    std::vector<LinkClass> out;
    for (const LinkId id : t->route(x, y)) out.push_back(t->link(id).link_class);
    return out;
  };
  EXPECT_EQ(classes(a, c),
            (std::vector<LinkClass>{LinkClass::DfHost, LinkClass::DfLocal, LinkClass::DfGlobal,
                                    LinkClass::DfLocal, LinkClass::DfHost}));
}

TEST(Dragonfly, ParallelGlobalLinksAreSplitBySourceAndDestinationRouter) {
  // dragonfly:3,2,1,3: n = 3 links between each pair. Merlin's map gives router 0 the values
  // 0, 1, 2 and router 1 3, 4, 5; value v is slice v / 2 towards the (v mod 2)-th other group.
  // Groups 0 and 1: slices 0 and 1 join router 0 to router 0 (v = 0 and 2 both ends), slice 2
  // router 1 to router 1 (v = 4). Slice = (r + q) mod 3.
  const auto t = machine("dragonfly:3,2,1,3");
  const auto& df = dynamic_cast<const Dragonfly&>(*t);
  EXPECT_EQ(df.links_between(0, 1), 3);
  EXPECT_EQ(df.slice_router(0, 1, 0), 0);
  EXPECT_EQ(df.slice_router(0, 1, 1), 0);
  EXPECT_EQ(df.slice_router(0, 1, 2), 1);
  EXPECT_EQ(df.slice_router(1, 0, 2), 1);
  // Nodes are routers' only hosts (P = 1): node 2 r + ... = group 0 router 0 is node 0.
  EXPECT_EQ(t->hops(0, 2), 2);  // r 0 -> q 0: slice 0, router 0 to router 0
  EXPECT_EQ(t->hops(0, 3), 3);  // r 0 -> q 1: slice 1, lands on router 0, local to router 1
  EXPECT_EQ(t->hops(1, 3), 2);  // r 1 -> q 1: slice 2, router 1 to router 1
  EXPECT_EQ(t->hops(1, 2), 3);  // r 1 -> q 0: slice 1 leaves from router 0
  // Slices 0 and 1 are distinct links between the same two routers: 0 -> 2 and 0 -> 3 cross
  // different ones; 2 -> 0 crosses slice 0 backwards.
  const auto global_of = [&](NodeId x, NodeId y) {
    for (const LinkId id : t->route(x, y)) {
      if (t->link(id).link_class == LinkClass::DfGlobal) return id;
    }
    return LinkId{-1};
  };
  EXPECT_NE(global_of(0, 2), global_of(0, 3));
  EXPECT_EQ(t->link(global_of(0, 2)).from, t->link(global_of(2, 0)).to);
  EXPECT_EQ(t->link(global_of(0, 2)).to, t->link(global_of(2, 0)).from);
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

TEST(Dragonfly, ValiantRoutesAreChainsThroughTheChosenGroup) {
  const auto t = machine("dragonfly:9,4,2,2:routing=valiant");
  std::vector<LinkId> path;
  path.reserve(static_cast<std::size_t>(t->max_route_links()));
  for (NodeId a = 0; a < t->node_count(); a += 5) {
    for (NodeId b = 0; b < t->node_count(); ++b) {
      for (const std::uint64_t choice : {0ull, 3ull, 0x9E3779B97F4A7C15ull}) {
        t->alternative_route_into(a, b, choice, path);
        SCOPED_TRACE(testing::Message() << a << " -> " << b << " choice " << choice);
        VertexId at = a;
        for (const LinkId id : path) {
          ASSERT_EQ(t->link(id).from, at);
          at = t->link(id).to;
        }
        ASSERT_EQ(at, b);
        ASSERT_LE(static_cast<int>(path.size()), t->max_route_links());
        const int ga = a / 8;
        const int gb = b / 8;
        if (ga != gb) {
          // The intermediate group: the (choice mod 7)-th of the groups other than ga and gb.
          std::vector<int> others;
          for (int g = 0; g < 9; ++g) {
            if (g != ga && g != gb) others.push_back(g);
          }
          const int m = others[choice % 7];
          EXPECT_EQ(groups_visited(*t, path, 4), (std::vector<int>{ga, m, gb}));
          EXPECT_EQ(std::count_if(
                        path.begin(), path.end(),
                        [&](LinkId id) { return t->link(id).link_class == LinkClass::DfGlobal; }),
                    2);
        }
      }
    }
  }
}

TEST(Dragonfly, ValiantRouteIsDeterministicAndReachesEveryIntermediateGroup) {
  const auto t = machine("dragonfly:9,4,2,2");
  const NodeId a = 0;   // group 0
  const NodeId b = 70;  // group 8
  std::set<int> seen;
  for (std::uint64_t i = 0; i < 200; ++i) {
    const std::uint64_t choice = i * 0x9E3779B97F4A7C15ull;
    std::vector<LinkId> first;
    std::vector<LinkId> second;
    t->alternative_route_into(a, b, choice, first);
    t->alternative_route_into(a, b, choice, second);
    EXPECT_EQ(first, second);
    const auto groups = groups_visited(*t, first, 4);
    ASSERT_EQ(groups.size(), 3u);
    seen.insert(groups[1]);
  }
  EXPECT_EQ(seen, (std::set<int>{1, 2, 3, 4, 5, 6, 7}));
}

TEST(Dragonfly, ValiantWithinAGroupGoesThroughTheChosenRouter) {
  // Routers 0 and 3 of group 1; the others are 1 and 2: choice 0 takes router 1, choice 1
  // router 2, choice 2 router 1 again.
  const auto t = machine("dragonfly:9,4,2,2");
  const NodeId a = t->node_at(std::vector<int>{1, 0, 0});
  const NodeId b = t->node_at(std::vector<int>{1, 3, 1});
  std::vector<LinkId> path;
  t->alternative_route_into(a, b, 1, path);
  EXPECT_EQ(walk(*t, path, a),
            (std::vector<std::string>{"node 8 (group 1, router 0, host 0)", "router (group 1, 0)",
                                      "router (group 1, 2)", "router (group 1, 3)",
                                      "node 15 (group 1, router 3, host 1)"}));
  t->alternative_route_into(a, b, 2, path);
  EXPECT_EQ(t->vertex_name(t->link(path[1]).to), "router (group 1, 1)");
  // On one router there is nothing to balance: the minimal route.
  t->alternative_route_into(a, a + 1, 5, path);
  EXPECT_EQ(path, t->route(a, a + 1));
}

TEST(Dragonfly, ValiantIsMinimalWithTwoGroups) {
  // No third group to go through: every pair between the groups keeps its minimal route.
  const auto t = machine("dragonfly:2,3,2,2");
  std::vector<LinkId> path;
  for (NodeId a = 0; a < 6; ++a) {
    for (NodeId b = 6; b < 12; ++b) {
      for (const std::uint64_t choice : {0ull, 1ull, 12345ull}) {
        t->alternative_route_into(a, b, choice, path);
        EXPECT_EQ(path, t->route(a, b));
      }
    }
  }
}

TEST(Dragonfly, ClosedFormHistogramMatchesEveryPairOnLargerInstances) {
  for (const char* spec :
       {"dragonfly:17,4,3,4", "dragonfly:17,4,3,4:global=relative",
        "dragonfly:17,4,3,4:global=circulant", "dragonfly:17,4,3,4:global=palmtree",
        "dragonfly:10,6,2,3", "dragonfly:8,6,2,4:global=circulant",
        "dragonfly:4,6,3,4:global=palmtree", "dragonfly:3,5,2,7"}) {
    const auto t = machine(spec);
    EXPECT_EQ(t->hop_histogram().counts, t->Topology::hop_histogram().counts) << spec;
  }
}

TEST(Dragonfly, SlicesMatchTheLinksOnEveryValidSmallShape) {
  // Every arrangement on every shape G <= 9, A <= 4, H <= 5 (P = 1) the parser accepts: the
  // global links read from link(id) between groups g and h are exactly the slices the routes
  // take, (slice_router(g, h, s), slice_router(h, g, s)) for s < links_between(g, h), the same
  // number both ways; hops are symmetric and the closed-form histogram is the brute force one.
  int machines = 0;
  for (const char* arrangement : {"absolute", "relative", "circulant", "palmtree"}) {
    for (int g_count = 1; g_count <= 9; ++g_count) {
      for (int a = 1; a <= 4; ++a) {
        for (int h_ports = 1; h_ports <= 5; ++h_ports) {
          const auto spec =
              fmt::format("dragonfly:{},{},1,{}:global={}", g_count, a, h_ports, arrangement);
          if (!error_of(spec).empty()) continue;
          ++machines;
          SCOPED_TRACE(spec);
          const auto t = machine(spec);
          const auto& df = dynamic_cast<const Dragonfly&>(*t);
          std::map<Router, std::multiset<Router>> links;  // (g, h) -> router pairs
          for (LinkId id = 0; id < t->link_count(); ++id) {
            const Link l = t->link(id);
            if (l.link_class != LinkClass::DfGlobal) continue;
            const int x = l.from - t->node_count();
            const int y = l.to - t->node_count();
            links[{x / a, y / a}].insert({x % a, y % a});
          }
          std::map<Router, std::multiset<Router>> slices;
          for (int g = 0; g < g_count; ++g) {
            for (int h = 0; h < g_count; ++h) {
              if (g == h) continue;
              const int n = df.links_between(g, h);
              ASSERT_GE(n, 1);
              ASSERT_EQ(n, df.links_between(h, g));
              for (int s = 0; s < n; ++s) {
                slices[{g, h}].insert({df.slice_router(g, h, s), df.slice_router(h, g, s)});
              }
            }
          }
          ASSERT_EQ(links, slices);
          std::vector<std::uint64_t> counts;
          for (NodeId x = 0; x < t->node_count(); ++x) {
            for (NodeId y = 0; y < t->node_count(); ++y) {
              ASSERT_EQ(t->hops(x, y), t->hops(y, x));
              const auto h = static_cast<std::size_t>(t->hops(x, y));
              if (h >= counts.size()) counts.resize(h + 1);
              ++counts[h];
            }
          }
          ASSERT_EQ(t->hop_histogram().counts, counts);
        }
      }
    }
  }
  EXPECT_GT(machines, 400);
}

TEST(Dragonfly, HundredThousandNodesInClosedForm) {
  // A balanced dragonfly (a = 2p = 2h, g = a h + 1): 339 groups of 26 routers of 13 hosts.
  const auto t = machine("dragonfly:339,26,13,13");
  EXPECT_EQ(t->node_count(), 114582);
  const auto counts = t->hop_histogram().counts;
  std::uint64_t total = 0;
  for (const auto c : counts) total += c;
  EXPECT_EQ(total, std::uint64_t{114582} * 114582);
  EXPECT_EQ(counts.size(), 5u);  // diameter 4
}

TEST(Dragonfly, CanonicalTextOmitsTheDefaultArrangement) {
  EXPECT_EQ(machine("dragonfly:9,4,2,2:global=absolute")->spec(), "dragonfly:9,4,2,2");
  EXPECT_EQ(machine("dragonfly:09,4,2,2:global=palmtree:cores=2")->spec(),
            "dragonfly:9,4,2,2:global=palmtree:cores=2");
  EXPECT_EQ(to_string(parse_topology_spec("dragonfly:9,4,2,2:cores=4:global=relative")),
            "dragonfly:9,4,2,2:global=relative:cores=4");
  EXPECT_EQ(machine("dragonfly:9,4,2,2:routing=ugal")->spec(), "dragonfly:9,4,2,2:routing=ugal");
  const auto offered = machine("dragonfly:9,4,2,2")->routings();
  EXPECT_EQ(std::vector<Routing>(offered.begin(), offered.end()),
            (std::vector<Routing>{Routing::Minimal, Routing::Valiant, Routing::Ugal}));
}

TEST(Dragonfly, RejectsEverySpecError) {
  const auto expect_error = [](std::string_view spec, std::string_view part) {
    const auto message = error_of(spec);
    EXPECT_NE(message.find(part), std::string::npos) << spec << ": '" << message << "'";
    EXPECT_NE(message.find(spec), std::string::npos) << "the message quotes the spec: " << spec;
  };
  expect_error("dragonfly:9,4,2", "has 3 value(s); a dragonfly is G,A,P,H");
  expect_error("dragonfly:9,4,2,2,1", "has 5 value(s)");
  expect_error("dragonfly:9,0,2,2", "A (routers per group) is 0");
  expect_error("dragonfly:9,4,x,2", "P (hosts per router) is 'x'");
  expect_error("dragonfly:9,4,2,", "H (global ports per router) is empty");
  expect_error("dragonfly:0,4,2,2", "G (groups) is 0");
  expect_error("dragonfly:10,4,2,2", "G = 10 groups cannot all be joined");
  expect_error("dragonfly:9,4,2,2:global=circulent", "did you mean 'circulant'");
  expect_error("dragonfly:9,4,2,2:globl=relative", "unknown option 'globl'; valid options: global");
  expect_error("dragonfly:9,4,2,2:nodes=4", "unknown option 'nodes'");
  expect_error("dragonfly:9,4,2,2:oops", "option 'oops' has no value");
  expect_error("dragonfly:9,8,2,1:global=circulant", "H must be even");
  expect_error("dragonfly:8,2,1,4:global=palmtree", "G - 1 = 7 must divide the A H = 8");
  expect_error("dragonfly:3000,1000,1,3", "mapsim models machines up to");
  expect_error("dragonfly:2,1000,1,2000000", "link ids are 32-bit");
  expect_error("dragonfly:9,4,2,2:routing=ecmp", "routing=ecmp is not one of dragonfly's");
  expect_error("dragonfly:9,4,2,2:global=relative:global=palmtree", "given twice");
}

}  // namespace
}  // namespace mapsim::topo
