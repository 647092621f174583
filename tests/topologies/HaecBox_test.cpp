// Hand-checked values on the HAEC Box.

#include "topologies/HaecBox.hpp"

#include <gtest/gtest.h>

#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

constexpr double kTolerance = 1e-12;

class Haec4x4x4 : public ::testing::Test {
 protected:
  NodeId at(int x, int y, int z) const { return box_.node_at(std::vector<int>{x, y, z}); }
  HaecBox box_{4, 4, 4, 1};
};

TEST_F(Haec4x4x4, SameBoardUsesTheBoardTorus) {
  // (0,0,0) -> (2,2,0): 2 + 2 on the board's 2-D torus, over optical links, x first.
  EXPECT_EQ(box_.hops(at(0, 0, 0), at(2, 2, 0)), 4);
  const auto path = box_.route(at(0, 0, 0), at(2, 2, 0));
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(box_.link(path[1]).to, at(2, 0, 0));
  for (const LinkId id : path) EXPECT_EQ(box_.link(id).link_class, LinkClass::HaecOptical);
  // The board wraps: (0,0,1) -> (3,3,1) is one hop back in x and one in y.
  EXPECT_EQ(box_.hops(at(0, 0, 1), at(3, 3, 1)), 2);
}

TEST_F(Haec4x4x4, CrossBoardHopsAreTheBoardDistance) {
  // Adjacent boards are fully connected: any pair one board apart is one wireless hop, however
  // far apart on the board.
  EXPECT_EQ(box_.hops(at(0, 0, 0), at(2, 2, 1)), 1);
  const auto one = box_.route(at(0, 0, 0), at(2, 2, 1));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(box_.link(one[0]).link_class, LinkClass::HaecWireless);
  // (0,0,0) -> (3,1,3): three boards up; the first wireless hop lands on (3,1,1), then straight up.
  EXPECT_EQ(box_.hops(at(0, 0, 0), at(3, 1, 3)), 3);
  const auto three = box_.route(at(0, 0, 0), at(3, 1, 3));
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(box_.link(three[0]).to, at(3, 1, 1));
  EXPECT_EQ(box_.link(three[1]).to, at(3, 1, 2));
  EXPECT_EQ(box_.link(three[2]).to, at(3, 1, 3));
  // And down: (1,2,3) -> (0,0,1) is 2 hops.
  EXPECT_EQ(box_.hops(at(1, 2, 3), at(0, 0, 1)), 2);
}

TEST_F(Haec4x4x4, LinkCounts) {
  // Optical: 4 boards x 16 nodes x 4 directions. Wireless: 3 adjacent board pairs, both
  // directions, 16 x 16 node pairs each.
  EXPECT_EQ(box_.link_count(), 4 * 16 * 4 + 3 * 2 * 16 * 16);
}

TEST_F(Haec4x4x4, DiameterAndAverageDistance) {
  // Same board: the 4x4 torus has mean distance 2 over all 16^2 ordered pairs, so 4 boards give
  // 4 * 256 * 2 = 2048 hops. Boards dz apart: 2 (4 - dz) board pairs x 256 node pairs x dz hops,
  // 256 * (2*3*1 + 2*2*2 + 2*1*3) = 5120. Total 7168 over 64 * 63 = 4032 distinct pairs.
  // The diameter is the board's, 2 + 2 = 4 (more than the 3 boards to cross).
  const auto stats = distance_stats(box_.hop_histogram());
  EXPECT_EQ(stats.diameter, 4);
  EXPECT_NEAR(stats.average, 7168.0 / 4032.0, kTolerance);
}

TEST_F(Haec4x4x4, TorusOnBoardsOnly) {
  EXPECT_TRUE(box_.is_torus(0));
  EXPECT_TRUE(box_.is_torus(1));
  EXPECT_FALSE(box_.is_torus(2));
  EXPECT_EQ(box_.coordinates(at(1, 2, 3)), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(at(1, 2, 3), 1 + 4 * (2 + 4 * 3));
}

}  // namespace
}  // namespace mapsim::topo
