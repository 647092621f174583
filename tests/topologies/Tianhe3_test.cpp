// Hand-checked values on the Tianhe-3 prototype model: Table 1 of the OHTMA paper.

#include "topologies/Tianhe3.hpp"

#include <gtest/gtest.h>

namespace mapsim::topo {
namespace {

class Tianhe3x4x4 : public ::testing::Test {
 protected:
  // (row, column, side 0 = left / 1 = right, slot 0..47)
  NodeId at(int row, int column, int side, int slot) const {
    return machine_.node_at(std::vector<int>{row, column, side, slot});
  }
  std::vector<LinkClass> classes(NodeId a, NodeId b) const {
    std::vector<LinkClass> result;
    for (const LinkId id : machine_.route(a, b)) result.push_back(machine_.link(id).link_class);
    return result;
  }
  Tianhe3 machine_{4, 4, 96, 1};
};

TEST_F(Tianhe3x4x4, NodeOrderIsChipMajorLeftBeforeRight) {
  EXPECT_EQ(machine_.node_count(), 16 * 96);
  EXPECT_EQ(at(0, 0, 0, 0), 0);
  EXPECT_EQ(at(0, 0, 1, 0), 48);
  EXPECT_EQ(at(0, 1, 0, 0), 96);
  EXPECT_EQ(at(1, 0, 0, 0), 4 * 96);
  EXPECT_EQ(machine_.coordinates(96 * 6 + 48 + 5), (std::vector<int>{1, 2, 1, 5}));
}

TEST_F(Tianhe3x4x4, SameChipSameSideIsOneHop) {
  EXPECT_EQ(machine_.hops(at(0, 0, 0, 0), at(0, 0, 0, 47)), 1);
  EXPECT_EQ(machine_.hops(at(2, 3, 1, 5), at(2, 3, 1, 6)), 1);
  // node -> side router -> node.
  EXPECT_EQ(classes(at(2, 3, 1, 5), at(2, 3, 1, 6)),
            (std::vector<LinkClass>{LinkClass::Th3Node, LinkClass::Th3Node}));
}

TEST_F(Tianhe3x4x4, SameChipDifferentSidesIsTwoHops) {
  EXPECT_EQ(machine_.hops(at(0, 0, 0, 0), at(0, 0, 1, 0)), 2);
  EXPECT_EQ(machine_.hops(at(3, 3, 1, 47), at(3, 3, 0, 0)), 2);
  EXPECT_EQ(classes(at(0, 0, 0, 0), at(0, 0, 1, 0)),
            (std::vector<LinkClass>{LinkClass::Th3Node, LinkClass::Th3Cross, LinkClass::Th3Node}));
}

TEST_F(Tianhe3x4x4, SameRowOrColumnSameSideIsThreeHops) {
  EXPECT_EQ(machine_.hops(at(0, 0, 0, 0), at(0, 3, 0, 0)), 3);  // same row
  EXPECT_EQ(machine_.hops(at(1, 2, 1, 3), at(3, 2, 1, 3)), 3);  // same column
  // side router -> row switch -> side router of the destination chip.
  const auto path = machine_.route(at(0, 0, 0, 0), at(0, 3, 0, 0));
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(machine_.vertex_name(machine_.link(path[1]).to), "row switch 0");
}

TEST_F(Tianhe3x4x4, SameRowOrColumnDifferentSidesIsFourHops) {
  EXPECT_EQ(machine_.hops(at(0, 0, 0, 0), at(0, 1, 1, 0)), 4);
  EXPECT_EQ(machine_.hops(at(1, 0, 0, 0), at(2, 0, 1, 9)), 4);
}

TEST_F(Tianhe3x4x4, DifferentRowAndColumnSameSideIsFiveHops) {
  EXPECT_EQ(machine_.hops(at(0, 0, 0, 0), at(1, 1, 0, 0)), 5);
  EXPECT_EQ(machine_.hops(at(3, 0, 1, 1), at(0, 3, 1, 2)), 5);
}

TEST_F(Tianhe3x4x4, DifferentRowAndColumnDifferentSidesIsSixHops) {
  EXPECT_EQ(machine_.hops(at(0, 0, 0, 0), at(3, 3, 1, 47)), 6);
  EXPECT_EQ(machine_.hops(at(1, 2, 1, 0), at(2, 1, 0, 0)), 6);
  // Row first (row switch 0 to chip (0,3)), then the column switch of column 3, then the side
  // change at the destination chip: 7 links, 6 of them into a router or switch.
  const auto path = machine_.route(at(0, 0, 0, 0), at(3, 3, 1, 47));
  EXPECT_EQ(classes(at(0, 0, 0, 0), at(3, 3, 1, 47)),
            (std::vector<LinkClass>{LinkClass::Th3Node, LinkClass::Th3Switch, LinkClass::Th3Switch,
                                    LinkClass::Th3Switch, LinkClass::Th3Switch, LinkClass::Th3Cross,
                                    LinkClass::Th3Node}));
  EXPECT_EQ(machine_.vertex_name(machine_.link(path[1]).to), "row switch 0");
  EXPECT_EQ(machine_.vertex_name(machine_.link(path[2]).to), "router (chip 0,3 left)");
  EXPECT_EQ(machine_.vertex_name(machine_.link(path[3]).to), "column switch 3");
  EXPECT_EQ(machine_.route_hops(path), 6);
}

TEST_F(Tianhe3x4x4, Counts) {
  // Vertices: nodes, 2 routers per chip, 4 row and 4 column switches. Links: 2 per node, 2 cross
  // links and 8 switch links (2 routers x 2 switches x 2 directions) per chip.
  EXPECT_EQ(machine_.vertex_count(), 1536 + 32 + 8);
  EXPECT_EQ(machine_.link_count(), 2 * 1536 + 16 * 10);
  EXPECT_FALSE(machine_.nodes_are_routers());
  const auto stats = distance_stats(machine_.hop_histogram());
  EXPECT_EQ(stats.diameter, 6);
}

}  // namespace
}  // namespace mapsim::topo
