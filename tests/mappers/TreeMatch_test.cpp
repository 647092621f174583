// treematch (mappers/TreeMatch.cpp) on hand-solved cases: heavy groups of ranks share the lowest
// level of the machine's tree they fit in.

#include <set>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Both directions of every pair of `ranks`, `bytes` each way.
void connect(traces::CommMatrixBuilder& builder, const std::vector<Rank>& ranks,
             std::uint64_t bytes) {
  for (const Rank a : ranks) {
    for (const Rank b : ranks) {
      if (a != b) builder.add(a, b, 1, bytes);
    }
  }
}

// Every pair of a rank of `from` and a rank of `to`, both ways.
void bridge(traces::CommMatrixBuilder& builder, const std::vector<Rank>& from,
            const std::vector<Rank>& to, std::uint64_t bytes) {
  for (const Rank a : from) {
    for (const Rank b : to) {
      builder.add(a, b, 1, bytes);
      builder.add(b, a, 1, bytes);
    }
  }
}

// fattree:2;4,2;1,1;1,1: two leaf switches of 4 nodes (nodes 0-3 and 4-7) under one top switch.
// Two cliques of interleaved ranks, {0, 2, 4, 6} and {1, 3, 5, 7}, 1000 bytes between any two of
// a clique, 1 byte between any two of different cliques. The cheapest placement puts each clique
// on its own leaf (only the light pairs cross the top switch: 3 hops for 1 byte, 1 hop for 1000);
// in-order puts ranks 0-3 on leaf 0, splitting both cliques.
TEST(TreeMatch, TwoHeavyCliquesLandOnePerLeaf) {
  const auto machine = topo::make_topology("fattree:2;4,2;1,1;1,1");
  traces::CommMatrixBuilder builder(8);
  const std::vector<Rank> even{0, 2, 4, 6};
  const std::vector<Rank> odd{1, 3, 5, 7};
  connect(builder, even, 1000);
  connect(builder, odd, 1000);
  bridge(builder, even, odd, 1);
  const auto matrix = builder.build();
  const auto mapping = make_mapper("treematch")->map(matrix, *machine);
  auto leaf = [&](Rank r) { return mapping.node(r) / 4; };
  for (const Rank r : even) EXPECT_EQ(leaf(r), leaf(0)) << r;
  for (const Rank r : odd) EXPECT_EQ(leaf(r), leaf(1)) << r;
  EXPECT_NE(leaf(0), leaf(1));
  // 12 ordered pairs in each clique at 1 hop, 32 light ones at 3 hops.
  EXPECT_EQ(metrics::hop_bytes(matrix, *machine, mapping), 2 * 12 * 1000 + 32 * 3);
}

// fattree:3;2,2,2;1,2,2;1,1,1: leaves of 2 nodes ({0,1}, {2,3}, {4,5}, {6,7}), pods of 2 leaves
// (nodes 0-3 and 4-7), one top. Heavy pairs (1000 bytes) {0,5}, {1,4}, {2,7}, {3,6}; medium
// traffic (100) between the pairs {0,5} and {1,4} and between {2,7} and {3,6}; light (1) between
// those two halves (ranks 0 and 2 only). Optimal: each heavy pair on a leaf (1 hop), the pairs
// of a medium link in one pod (3 hops), the halves in different pods (the only 5-hop traffic is
// the light one): treematch's first split cuts only the light edge, the second only medium ones.
TEST(TreeMatch, ThreeLevelsFollowTheTrafficLevels) {
  const auto machine = topo::make_topology("fattree:3;2,2,2;1,2,2;1,1,1");
  traces::CommMatrixBuilder builder(8);
  const std::vector<std::vector<Rank>> pairs{{0, 5}, {1, 4}, {2, 7}, {3, 6}};
  for (const auto& pair : pairs) connect(builder, pair, 1000);
  bridge(builder, pairs[0], pairs[1], 100);
  bridge(builder, pairs[2], pairs[3], 100);
  bridge(builder, {0}, {2}, 1);
  const auto matrix = builder.build();
  const auto mapping = make_mapper("treematch")->map(matrix, *machine);
  auto leaf = [&](Rank r) { return mapping.node(r) / 2; };
  auto pod = [&](Rank r) { return mapping.node(r) / 4; };
  for (const auto& pair : pairs) EXPECT_EQ(leaf(pair[0]), leaf(pair[1])) << pair[0];
  EXPECT_EQ(pod(0), pod(1));
  EXPECT_EQ(pod(2), pod(3));
  EXPECT_NE(pod(0), pod(2));
  // Heavy: 8 ordered pairs x 1000 x 1 hop; medium: 16 ordered pairs x 100 x 3 hops; light: 2 x 5.
  EXPECT_EQ(metrics::hop_bytes(matrix, *machine, mapping), 8000 + 4800 + 10);
}

// dragonfly:3,2,2,1: routers of 2 hosts (nodes 2r, 2r + 1), groups of 2 routers. Six ranks in
// three heavy pairs {0,3}, {1,4}, {2,5} and nothing else: each pair shares a router (1 hop
// instead of 2 or more), whatever the routers.
TEST(TreeMatch, HeavyPairsShareADragonflyRouter) {
  const auto machine = topo::make_topology("dragonfly:3,2,2,1");
  traces::CommMatrixBuilder builder(6);
  for (Rank r = 0; r < 3; ++r) connect(builder, {r, r + 3}, 500);
  const auto mapping = make_mapper("treematch")->map(builder.build(), *machine);
  for (Rank r = 0; r < 3; ++r) EXPECT_EQ(mapping.node(r) / 2, mapping.node(r + 3) / 2) << r;
}

// Two cores per node: the heaviest pairs share a node before a router. Ranks {0,1} and {2,3} are
// heavy pairs, 0-2 and 1-3 medium: on dragonfly:3,2,2,1:cores=2 each heavy pair shares a node
// and the two nodes share a router.
TEST(TreeMatch, CoresOfANodeComeFirst) {
  const auto machine = topo::make_topology("dragonfly:3,2,2,1:cores=2");
  traces::CommMatrixBuilder builder(4);
  connect(builder, {0, 1}, 1000);
  connect(builder, {2, 3}, 1000);
  connect(builder, {0, 2}, 10);
  connect(builder, {1, 3}, 10);
  const auto mapping = make_mapper("treematch")->map(builder.build(), *machine);
  EXPECT_EQ(mapping.node(0), mapping.node(1));
  EXPECT_EQ(mapping.node(2), mapping.node(3));
  EXPECT_NE(mapping.node(0), mapping.node(2));
  EXPECT_EQ(mapping.node(0) / 2, mapping.node(2) / 2);
}

// On an allocation the tree is the machine's restricted to the allocated nodes: the two cliques
// of the first test on a fat-tree of which the job got nodes 1, 3 (leaf 0) and 4, 7 (leaf 1)
// land one clique per leaf again.
TEST(TreeMatch, FollowsTheTreeOfAnAllocation) {
  const auto machine = topo::make_topology("fattree:2;4,2;1,1;1,1:allocation=1,3,4,7");
  traces::CommMatrixBuilder builder(4);
  connect(builder, {0, 2}, 1000);
  connect(builder, {1, 3}, 1000);
  bridge(builder, {0, 2}, {1, 3}, 1);
  const auto mapping = make_mapper("treematch")->map(builder.build(), *machine);
  EXPECT_NO_THROW(validate(mapping, *machine));
  EXPECT_EQ(mapping.node(0) / 4, mapping.node(2) / 4);
  EXPECT_EQ(mapping.node(1) / 4, mapping.node(3) / 4);
  EXPECT_NE(mapping.node(0) / 4, mapping.node(1) / 4);
}

// Traffic at the limit mapsim sums exactly (a ring of 4 ranks, 2^57 bytes each way between
// neighbours, 2^60 in all; fattree:2;2,2;1,1;1,1's longest route has 4 links, so the limit is
// (2^63 - 1) / 4): the sums of traffic and of traffic times hops do not wrap. On its two leaves
// of 2 nodes the ring's cut is least with neighbours paired on each leaf (2 of its 4 links cross
// the top switch, the fewest): hop-bytes 4 x 2^57 on the leaves (1 hop) + 4 x 2^57 x 3 across.
TEST(TreeMatch, SumsHeavyTrafficExactly) {
  constexpr std::uint64_t kTwo57 = std::uint64_t{1} << 57;
  traces::CommMatrixBuilder builder(4);
  for (Rank r = 0; r < 4; ++r) {
    builder.add(r, (r + 1) % 4, 1, kTwo57);
    builder.add((r + 1) % 4, r, 1, kTwo57);
  }
  const auto matrix = builder.build();
  const auto machine = topo::make_topology("fattree:2;2,2;1,1;1,1");
  const auto mapping = make_mapper("treematch")->map(matrix, *machine);
  EXPECT_EQ(metrics::hop_bytes(matrix, *machine, mapping), 4 * kTwo57 + 3 * 4 * kTwo57);
}

// Deterministic: the seed is not used, and the thread count does not matter.
TEST(TreeMatch, IndependentOfSeedAndThreads) {
  const auto machine = topo::make_topology("dragonfly:9,4,2,2");
  const auto matrix = testing::random_matrix(72, 4, 3);
  const auto mapper = make_mapper("treematch");
  topo::Mapping one;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = mapper->map(matrix, *machine, 1);
  }
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
  EXPECT_EQ(mapper->map(matrix, *machine, 2), one);
}

// A stencil on a fat-tree: the 8x8 LU wavefront on 64 nodes of leaves of 4 under pods of 16.
// In-order puts rows of 4 on a leaf (each rank's vertical neighbours on other leaves); blocks
// keep more traffic under a leaf and a pod, so treematch does better than in-order.
TEST(TreeMatch, BeatsInOrderOnAStencilOverAFatTree) {
  const auto machine = topo::make_topology("fattree:3;4,4,4;1,4,4;1,1,1");
  const auto matrix = testing::lu_wavefront(8, 8);
  const auto in_order = metrics::hop_bytes(matrix, *machine, topo::in_order_mapping(64, *machine));
  const auto tree =
      metrics::hop_bytes(matrix, *machine, make_mapper("treematch")->map(matrix, *machine));
  EXPECT_LT(tree, in_order);
}

}  // namespace
}  // namespace mapsim::map
