// The job placement policies (mappers/JobPlacements.cpp) by hand on a small dragonfly:
// dragonfly:3,2,2,1 has 3 groups of 2 routers of 2 hosts: router k holds nodes 2k and 2k + 1,
// group g nodes 4g .. 4g + 3.

#include <set>

#include <gtest/gtest.h>

#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

std::vector<NodeId> nodes_of(const char* mapper, Rank ranks, const char* machine, Seed seed = 0) {
  const auto topology = topo::make_topology(machine);
  const auto mapping = make_mapper(mapper)->map(traces::CommMatrix(ranks), *topology, seed);
  return {mapping.nodes().begin(), mapping.nodes().end()};
}

// Contiguous: the first nodes in natural order, as in-order.
TEST(JobPlacements, ContiguousTakesTheFirstNodes) {
  EXPECT_EQ(nodes_of("contiguous", 5, "dragonfly:3,2,2,1"), (std::vector<NodeId>{0, 1, 2, 3, 4}));
  EXPECT_EQ(nodes_of("contiguous", 5, "dragonfly:3,2,2,1:cores=2"),
            (std::vector<NodeId>{0, 0, 1, 1, 2}));
}

// Group-striped: node k of the job in group k mod 3, the groups' nodes in natural order:
// nodes 0 (group 0), 4 (group 1), 8 (group 2), then 1, 5. With two cores, a node's worth of
// ranks (two) per turn: ranks 0-1 on node 0, 2-3 on node 4, 4 on node 8.
TEST(JobPlacements, GroupStripedDealsNodesOverTheGroups) {
  EXPECT_EQ(nodes_of("group-striped", 5, "dragonfly:3,2,2,1"),
            (std::vector<NodeId>{0, 4, 8, 1, 5}));
  EXPECT_EQ(nodes_of("group-striped", 5, "dragonfly:3,2,2,1:cores=2"),
            (std::vector<NodeId>{0, 0, 4, 4, 8}));
}

// On an allocation the groups are those the allocated nodes are in, each dealt until it is full:
// allocated nodes 1 (group 0), 4, 5, 6 (group 1), 9 (group 2); 5 ranks: 1, 4, 9, then group 0 and
// 2 are full: 5, 6.
TEST(JobPlacements, GroupStripedSkipsFullGroupsOfAnAllocation) {
  EXPECT_EQ(nodes_of("group-striped", 5, "dragonfly:3,2,2,1:allocation=1,4-6,9"),
            (std::vector<NodeId>{1, 4, 9, 5, 6}));
}

// Random-router: whole routers drawn at random, their nodes in order: with 6 ranks (three
// routers' worth) ranks 2k and 2k + 1 share a router, the three routers differ, and the draw
// depends on the seed only.
TEST(JobPlacements, RandomRouterFillsWholeRandomRouters) {
  std::set<std::vector<NodeId>> draws;
  for (Seed seed = 0; seed < 20; ++seed) {
    const auto nodes = nodes_of("random-router", 6, "dragonfly:3,2,2,1", seed);
    EXPECT_EQ(nodes, nodes_of("random-router", 6, "dragonfly:3,2,2,1", seed));
    std::set<NodeId> routers;
    for (std::size_t k = 0; k < 6; k += 2) {
      EXPECT_EQ(nodes[k] / 2, nodes[k + 1] / 2);  // one router's two hosts
      EXPECT_EQ(nodes[k] % 2, 0);                 // in natural order
      routers.insert(nodes[k] / 2);
    }
    EXPECT_EQ(routers.size(), 3U);
    draws.insert(nodes);
  }
  EXPECT_GT(draws.size(), 5U);  // 120 ordered draws of 3 of 6 routers: 20 seeds give many
}

// Random-node: with one core per node, the same shuffle as `random`; with two, whole nodes: ranks
// 2k and 2k + 1 share a node.
TEST(JobPlacements, RandomNodeFillsWholeRandomNodes) {
  for (Seed seed = 0; seed < 5; ++seed) {
    EXPECT_EQ(nodes_of("random-node", 9, "dragonfly:3,2,2,1", seed),
              nodes_of("random", 9, "dragonfly:3,2,2,1", seed));
    const auto nodes = nodes_of("random-node", 6, "dragonfly:3,2,2,1:cores=2", seed);
    for (std::size_t k = 0; k < 6; k += 2) EXPECT_EQ(nodes[k], nodes[k + 1]);
  }
}

// Any machine with levels has routers and groups: on the fat-tree fattree:3;2,2,2;1,2,2;1,1,1
// the routers are the leaves (2 nodes) and the groups the pods (4 nodes, the top level of one
// group is the root): group-striped takes nodes 0, 4, 1, 5.
TEST(JobPlacements, WorkOnEveryHierarchy) {
  EXPECT_EQ(nodes_of("group-striped", 4, "fattree:3;2,2,2;1,2,2;1,1,1"),
            (std::vector<NodeId>{0, 4, 1, 5}));
  const auto nodes = nodes_of("random-router", 4, "fattree:3;2,2,2;1,2,2;1,1,1", 3);
  EXPECT_EQ(nodes[0] / 2, nodes[1] / 2);
  EXPECT_EQ(nodes[2] / 2, nodes[3] / 2);
}

// Placements of the whole machine: a small job is not confined to the compact block.
TEST(JobPlacements, PlaceOverTheWholeMachine) {
  for (const char* name : {"contiguous", "random-node", "random-router", "group-striped"}) {
    EXPECT_EQ(make_mapper(name)->scope(), Scope::WholeMachine) << name;
  }
}

// Without levels there are no routers or groups to place on.
TEST(JobPlacements, RandomRouterRefusesAMachineWithoutLevels) {
  EXPECT_THROW((void)nodes_of("random-router", 3, "mesh:8"), InputError);
  EXPECT_THROW((void)nodes_of("group-striped", 3, "torus:4:allocation=0,2"), InputError);
  EXPECT_NO_THROW((void)nodes_of("contiguous", 3, "mesh:8"));
  EXPECT_NO_THROW((void)nodes_of("random-node", 3, "mesh:8"));
}

}  // namespace
}  // namespace mapsim::map
