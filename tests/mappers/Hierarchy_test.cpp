// The machine's tree (mappers/Hierarchy.hpp) and the mappers that follow levels and grids through
// allocations (mappers/MachineView.hpp): the levels of grids, the nested boxes of box_levels,
// round-robin over the outermost groups, space-filling curves on an allocation, the grid of a
// dragonfly, Scotch's tree-leaf target.

#include "mappers/Hierarchy.hpp"

#include <gtest/gtest.h>

#include "mappers/MachineGrid.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/RouterHops.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/NodeSubset.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

std::vector<NodeId> nodes_of(const char* mapper, const traces::CommMatrix& matrix,
                             const char* machine, Seed seed = 0) {
  const auto topology = topo::make_topology(machine);
  const auto mapping = make_mapper(mapper)->map(matrix, *topology, seed);
  return {mapping.nodes().begin(), mapping.nodes().end()};
}

// torus:4x4x4: 16 x lines of 4 nodes (node / 4), 4 xy planes of 16 (node / 16), then the root.
TEST(Hierarchy, GridsAreLinesAndPlanes) {
  const auto torus = topo::make_topology("torus:4x4x4");
  const Hierarchy tree(*torus);
  ASSERT_EQ(tree.height(), 3);
  EXPECT_EQ(tree.name(1), "x line");
  EXPECT_EQ(tree.width(1), 16);
  EXPECT_EQ(tree.name(2), "xy plane");
  EXPECT_EQ(tree.width(2), 4);
  EXPECT_EQ(tree.group(2, 37), 2);
  EXPECT_EQ(tree.nodes_under(2, 1), 16);
  // A dimension of extent 1 adds no level: mesh:16x1x16 has x lines only (the planes would be
  // the same groups).
  EXPECT_EQ(Hierarchy(*topo::make_topology("mesh:16x1x16")).height(), 2);
  // A 1-D machine has none: its nodes sit under the root.
  EXPECT_EQ(Hierarchy(*topo::make_topology("torus:6")).height(), 1);
}

// HAEC boards (16 nodes each), Tianhe-3 side routers (8 nodes) and chips (16 nodes).
TEST(Hierarchy, HaecBoardsAndTianheSidesAndChips) {
  const Hierarchy haec(*topo::make_topology("haec:4x4x4"));
  ASSERT_EQ(haec.height(), 2);
  EXPECT_EQ(haec.name(1), "board");
  EXPECT_EQ(haec.group(1, 17), 1);
  const Hierarchy tianhe(*topo::make_topology("tianhe3:2x2:nodes=16"));
  ASSERT_EQ(tianhe.height(), 3);
  EXPECT_EQ(tianhe.width(1), 8);
  EXPECT_EQ(tianhe.width(2), 4);
  EXPECT_EQ(tianhe.children(2, 1).size(), 2U);  // a chip's two sides
}

// A fat-tree's top level has one group (the whole machine): it is the root, not a level.
TEST(Hierarchy, LevelsOfOneGroupAreTheRoot) {
  const Hierarchy tree(*topo::make_topology("fattree:2;4,4;1,2;1,2"));
  EXPECT_EQ(tree.height(), 2);  // leaves, root
  EXPECT_EQ(tree.width(1), 4);
  EXPECT_EQ(tree.middle_node(1, 2), 9);  // the median of nodes 8 .. 11
}

// mesh:4x2 (node = x + 4 y): halved across x (the longest side) into {x < 2} = {0, 1, 4, 5} and
// {x >= 2} = {2, 3, 6, 7}; then each across y (a tie: the slowest dimension) into rows of two:
// {0, 1}, {2, 3}, {4, 5}, {6, 7} in natural order; then single nodes (not a level).
TEST(Hierarchy, BoxLevelsHalveTheLongestSide) {
  const auto mesh = topo::make_topology("mesh:4x2");
  std::vector<NodeId> all(8);
  for (NodeId n = 0; n < 8; ++n) all[static_cast<std::size_t>(n)] = n;
  const Hierarchy tree(8, box_levels(*mesh, all));
  ASSERT_EQ(tree.height(), 3);
  EXPECT_EQ(tree.members(1), (std::vector<std::vector<NodeId>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(tree.members(2), (std::vector<std::vector<NodeId>>{{0, 1, 4, 5}, {2, 3, 6, 7}}));
  // Restricted to nodes 1, 2, 5, 6 (node k of the result is all[k]): the boxes keep their order.
  const std::vector<NodeId> some{1, 2, 5, 6};
  const Hierarchy part(4, box_levels(*mesh, some));
  EXPECT_EQ(part.members(part.height() - 1), (std::vector<std::vector<NodeId>>{{0, 2}, {1, 3}}));
}

// Round-robin over the outermost groups with more than one: a dragonfly's groups (3 of 4
// nodes), one rank per turn: nodes 0, 4, 8, then the groups' next nodes 1, 5.
TEST(Hierarchy, RoundRobinDealsOverDragonflyGroups) {
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(5), "dragonfly:3,2,2,1"),
            (std::vector<NodeId>{0, 4, 8, 1, 5}));
  // Two cores: single ranks per turn, two per node: 0, 4, 8, 0, 4.
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(5), "dragonfly:3,2,2,1:cores=2"),
            (std::vector<NodeId>{0, 4, 8, 0, 4}));
}

// On an allocation of torus:2x2x3 (planes z of 4 nodes: 0-3, 4-7, 8-11), the planes its nodes
// 1, 2 | 5 | 9, 10 are in: ranks to 1, 5, 9, 2, then plane z1 is full: 10.
TEST(Hierarchy, RoundRobinDealsOverThePlanesOfAnAllocation) {
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(5), "torus:2x2x3:allocation=1,2,5,9,10"),
            (std::vector<NodeId>{1, 5, 9, 2, 10}));
}

// On an allocation a curve visits the allocated nodes in the order it visits the whole
// machine's grid: the order of hilbert over all 64 nodes, restricted to the allocation.
TEST(Hierarchy, CurvesOnAnAllocationFollowTheWholeMachinesCurve) {
  const auto whole = topo::make_topology("torus:4x4x4");
  const auto curve = make_mapper("hilbert")->map(traces::CommMatrix(64), *whole);
  const auto allocated = topo::make_topology("torus:4x4x4:allocation=3-17,40-47");
  std::vector<NodeId> expected;
  for (Rank r = 0; r < 64; ++r) {
    if (allocated->allocated(curve.node(r))) expected.push_back(curve.node(r));
  }
  EXPECT_EQ(nodes_of("hilbert", traces::CommMatrix(23), "torus:4x4x4:allocation=3-17,40-47"),
            expected);
}

// A dragonfly's coordinates are (group, router, host) but its nodes fill a router first: its grid
// runs host, router, group (x fastest), so cell k is node k.
TEST(Hierarchy, DragonflyGridRunsAsItsNodes) {
  const auto dragonfly = topo::make_topology("dragonfly:3,2,2,1");
  const MachineGrid grid(*dragonfly);
  EXPECT_EQ(std::vector<int>(grid.extents().begin(), grid.extents().end()),
            (std::vector<int>{2, 2, 3}));
  EXPECT_EQ(grid.coordinates(7), (std::vector<int>{1, 1, 1}));  // host 1, router 1, group 1
  // sweep is the natural order there, as everywhere.
  EXPECT_EQ(nodes_of("sweep", traces::CommMatrix(12), "dragonfly:3,2,2,1"),
            nodes_of("in-order", traces::CommMatrix(12), "dragonfly:3,2,2,1"));
}

// root_view sees through subsets of subsets: node k of a subset of a subset is the machine's.
TEST(Hierarchy, RootViewComposesSubsets) {
  const auto torus = topo::make_topology("torus:4x4");
  const topo::NodeSubset outer(*torus, {3, 5, 7, 9, 11});
  const topo::NodeSubset inner(outer, {1, 4});
  const auto view = root_view(inner);
  EXPECT_EQ(view.machine, torus.get());
  EXPECT_TRUE(view.subset);
  EXPECT_EQ(view.nodes, (std::vector<NodeId>{5, 11}));
}

// Scotch on a tree of leaves (fattree:2;4,2;1,1;1,1, leaves of nodes 0-3 and 4-7): two cliques of
// four interleaved ranks land one per leaf, as the tree-leaf target of its levels says they
// should; and on an allocation of two nodes per leaf (the target restricted to them), two
// cliques of two.
TEST(Hierarchy, ScotchMapsOntoTheTreeOfLevels) {
  auto cliques = [](Rank ranks) {
    traces::CommMatrixBuilder builder(ranks);
    for (Rank a = 0; a < ranks; ++a) {
      for (Rank b = 0; b < ranks; ++b) {
        if (a != b) builder.add(a, b, 1, a % 2 == b % 2 ? 1000 : 1);
      }
    }
    return builder.build();
  };
  for (const char* mapper : {"scotch", "bisection"}) {
    SCOPED_TRACE(mapper);
    const auto whole = nodes_of(mapper, cliques(8), "fattree:2;4,2;1,1;1,1");
    for (Rank r = 2; r < 8; ++r) EXPECT_EQ(whole[r] / 4, whole[r % 2] / 4) << r;
    EXPECT_NE(whole[0] / 4, whole[1] / 4);
    const auto part = nodes_of(mapper, cliques(4), "fattree:2;4,2;1,1;1,1:allocation=1,2,5,6");
    EXPECT_EQ(part[0] / 4, part[2] / 4);
    EXPECT_EQ(part[1] / 4, part[3] / 4);
    EXPECT_NE(part[0] / 4, part[1] / 4);
  }
}

// The local searches' table of router pairs gives every pair of nodes the machine's own hops on
// the hierarchical kinds and on nodes of them (an allocation, a prefix), and does not apply to
// grids, where a node is its own router.
TEST(Hierarchy, RouterHopsEqualTheMachinesHops) {
  for (const char* spec :
       {"fattree:3;2,2,2;1,2,2;1,1,1", "fattree:2;4,4;1,2;1,2", "dragonfly:9,4,2,2",
        "dragonfly:5,2,2,2", "cascade:2,1;3,1;6,1;4", "dragonfly:9,4,2,2:allocation=1-7,30-50"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    std::unique_ptr<topo::NodeSubset> allocated;
    const topo::Topology* nodes = machine.get();
    if (!machine->allocation().empty()) {
      allocated = std::make_unique<topo::NodeSubset>(
          *machine,
          std::vector<NodeId>(machine->allocation().begin(), machine->allocation().end()));
      nodes = allocated.get();
    }
    const auto table = RouterHops::of(*nodes);
    ASSERT_TRUE(table.has_value());
    for (NodeId a = 0; a < nodes->node_count(); ++a) {
      for (NodeId b = 0; b < nodes->node_count(); ++b) ASSERT_EQ((*table)(a, b), nodes->hops(a, b));
    }
  }
  // An uneven Slurm tree: leaves of 3 and 2 nodes under a spine, a leaf of 3 beside it.
  const testing::TempDir dir;
  const auto slurm = topo::make_topology(
      "slurm:" + dir.write("t.conf",
                           "SwitchName=a Nodes=n[1-3]\nSwitchName=b Nodes=n[4-5]\n"
                           "SwitchName=c Nodes=n[6-8]\nSwitchName=s Switches=a,b\n"
                           "SwitchName=top Switches=s,c\n")
                     .string());
  const auto table = RouterHops::of(*slurm);
  ASSERT_TRUE(table.has_value());
  for (NodeId a = 0; a < 8; ++a) {
    for (NodeId b = 0; b < 8; ++b) EXPECT_EQ((*table)(a, b), slurm->hops(a, b));
  }
  EXPECT_FALSE(RouterHops::of(*topo::make_topology("torus:4x4x4")).has_value());
  EXPECT_FALSE(RouterHops::of(*topo::make_topology("haec:4x4x4")).has_value());
}

}  // namespace
}  // namespace mapsim::map
