// Hand-checked values on meshes and tori.

#include "topologies/GridTopology.hpp"

#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

constexpr double kTolerance = 1e-12;

/// The nodes a route visits after a, in order.
std::vector<VertexId> visited(const Topology& t, NodeId a, NodeId b) {
  std::vector<VertexId> nodes;
  for (const LinkId id : t.route(a, b)) nodes.push_back(t.link(id).to);
  return nodes;
}

TEST(GridTopology, RingWrapsAroundTheShorterWay) {
  // On a ring of 8, node 7 is one step back from node 0, not seven forward.
  const GridTopology ring({8}, /*torus=*/true, 1);
  EXPECT_EQ(ring.hops(0, 7), 1);
  EXPECT_EQ(visited(ring, 0, 7), (std::vector<VertexId>{7}));
  EXPECT_EQ(ring.hops(1, 6), 3);  // back 1 -> 0 -> 7 -> 6
  EXPECT_EQ(visited(ring, 1, 6), (std::vector<VertexId>{0, 7, 6}));
  EXPECT_EQ(ring.hops(6, 1), 3);  // forward 6 -> 7 -> 0 -> 1
  EXPECT_EQ(visited(ring, 6, 1), (std::vector<VertexId>{7, 0, 1}));
}

TEST(GridTopology, HalfRingTieGoesThePositiveWay) {
  // On a ring of 4, nodes 0 and 2 are 2 hops apart both ways: the route goes up (+) from both.
  const GridTopology ring({4}, /*torus=*/true, 1);
  EXPECT_EQ(ring.hops(0, 2), 2);
  EXPECT_EQ(visited(ring, 0, 2), (std::vector<VertexId>{1, 2}));
  EXPECT_EQ(visited(ring, 2, 0), (std::vector<VertexId>{3, 0}));
  // A ring of 6: 1 -> 4 is a tie of 3, so 1 -> 2 -> 3 -> 4; 4 -> 1 is 4 -> 5 -> 0 -> 1.
  const GridTopology six({6}, /*torus=*/true, 1);
  EXPECT_EQ(visited(six, 1, 4), (std::vector<VertexId>{2, 3, 4}));
  EXPECT_EQ(visited(six, 4, 1), (std::vector<VertexId>{5, 0, 1}));
}

TEST(GridTopology, TorusOfTwoHasOneLinkEachWay) {
  const GridTopology pair({2}, /*torus=*/true, 1);
  EXPECT_EQ(pair.link_count(), 2);
  EXPECT_EQ(pair.hops(0, 1), 1);
  EXPECT_EQ(visited(pair, 1, 0), (std::vector<VertexId>{0}));
}

TEST(GridTopology, MeshCornerToCornerInDimensionOrder) {
  // (0,0,0) -> (3,3,3) on a 4x4x4 mesh: 3 + 3 + 3 = 9 hops, x first, then y, then z.
  const auto mesh = make_topology("mesh:4x4x4");
  EXPECT_EQ(mesh->hops(0, 63), 9);
  EXPECT_EQ(visited(*mesh, 0, 63), (std::vector<VertexId>{1, 2, 3, 7, 11, 15, 31, 47, 63}));
  // And back: x down first.
  EXPECT_EQ(visited(*mesh, 63, 0), (std::vector<VertexId>{62, 61, 60, 56, 52, 48, 32, 16, 0}));
  // A mesh has no wrap-around: (0,0,0) -> (3,0,0) is 3 hops, not 1.
  EXPECT_EQ(mesh->hops(0, 3), 3);
}

TEST(GridTopology, LinkCounts) {
  // A k-ary n-mesh has 2 n k^(n-1) (k-1) directed links; a k-ary n-cube (k > 2) 2 n k^n.
  EXPECT_EQ(make_topology("mesh:4x4x4")->link_count(), 2 * 3 * 16 * 3);
  EXPECT_EQ(make_topology("torus:4x4x4")->link_count(), 2 * 3 * 64);
  EXPECT_EQ(make_topology("mesh:9x8")->link_count(), 2 * (8 * 8 + 9 * 7));
}

TEST(GridTopology, DiameterAndAverageDistanceOf4x4x4Mesh) {
  // Per dimension of 4, the 16 ordered coordinate pairs have |i - j| summing to
  // 2 (3*1 + 2*2 + 1*3) = 20, a mean of 1.25. Over 3 dimensions and all 64^2 ordered pairs the
  // mean is 3.75; over the 64 * 63 pairs of distinct nodes it is 3.75 * 64 / 63.
  const auto stats = distance_stats(make_topology("mesh:4x4x4")->hop_histogram());
  EXPECT_EQ(stats.diameter, 9);
  EXPECT_EQ(stats.pairs, 64u * 63u);
  EXPECT_NEAR(stats.average, 3.75 * 64.0 / 63.0, kTolerance);
}

TEST(GridTopology, DiameterAndAverageDistanceOf4x4x4Torus) {
  // Per dimension of 4 on a ring, distances 0, 1, 2, 1 from each node: mean 1; 3 over three
  // dimensions, and 3 * 64 / 63 over distinct pairs. Diameter 2 + 2 + 2.
  const auto stats = distance_stats(make_topology("torus:4x4x4")->hop_histogram());
  EXPECT_EQ(stats.diameter, 6);
  EXPECT_NEAR(stats.average, 3.0 * 64.0 / 63.0, kTolerance);
}

TEST(GridTopology, TopologyManagerView) {
  const auto mesh = make_topology("mesh:9x8");
  ASSERT_EQ(mesh->dimensions().size(), 2u);
  EXPECT_EQ(mesh->dimensions()[0], 9);
  EXPECT_EQ(mesh->dimensions()[1], 8);
  EXPECT_FALSE(mesh->is_torus(0));
  EXPECT_TRUE(make_topology("torus:3x3")->is_torus(1));
  EXPECT_EQ(mesh->coordinates(10), (std::vector<int>{1, 1}));  // x fastest
  EXPECT_EQ(mesh->node_at(std::vector<int>{8, 7}), 71);
  EXPECT_THROW((void)mesh->node_at(std::vector<int>{9, 0}), InputError);
  EXPECT_THROW((void)mesh->node_at(std::vector<int>{1, 1, 1}), InputError);
}

}  // namespace
}  // namespace mapsim::topo
