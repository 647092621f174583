// greedy (Hoefler & Snir), minmd (HAEC thesis Algorithm 2) and rcm.

#include <gtest/gtest.h>

#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Ranks 0-1 exchange 100 bytes, 1-2 exchange 10.
traces::CommMatrix weighted_chain() {
  traces::CommMatrixBuilder builder(3);
  builder.add(0, 1, 1, 100);
  builder.add(1, 2, 1, 10);
  return builder.build();
}

std::vector<NodeId> nodes_of(const char* mapper, const traces::CommMatrix& matrix,
                             const char* machine, const ParamList& params = {}) {
  const auto topology = topo::make_topology(machine);
  const auto mapping = make_mapper(mapper, params)->map(matrix, *topology);
  return {mapping.nodes().begin(), mapping.nodes().end()};
}

TEST(GreedyMapper, HeaviestRankAtTheCentreItsHeaviestPartnerNextToIt) {
  // 3 ranks on mesh:5 run on its compact block, nodes 0 to 2 (Mapper.hpp). Rank 1 (110 bytes)
  // goes to the block's centre node 1; rank 0 (100 bytes to rank 1) to the nearest free node,
  // 0 or 2 (tie: lowest id); rank 2 then to node 2.
  EXPECT_EQ(nodes_of("greedy", weighted_chain(), "mesh:5"), (std::vector<NodeId>{0, 1, 2}));
}

TEST(GreedyMapper, WeighsByMessagesWhenAsked) {
  traces::CommMatrixBuilder builder(3);
  builder.add(0, 1, 1, 1000);  // few big messages
  builder.add(1, 2, 50, 50);   // many small ones
  builder.add(0, 2, 10, 10);
  const auto matrix = builder.build();
  // By bytes rank 1 (1050 bytes) starts on the centre node 1 of the block (nodes 0 to 2); by
  // messages rank 2 (60) does.
  EXPECT_EQ(nodes_of("greedy", matrix, "mesh:5")[1], 1);
  EXPECT_EQ(nodes_of("greedy", matrix, "mesh:5", {{"weight", "messages"}})[2], 1);
}

TEST(GreedyMapper, KeepsAStencilCompact) {
  // On its own mesh a 2-D stencil placed greedily stays far below a random placement.
  const auto machine = topo::make_topology("mesh:8x8");
  const auto matrix = testing::stencil_2d(8, 8, false);
  const auto greedy =
      metrics::hop_bytes(matrix, *machine, make_mapper("greedy")->map(matrix, *machine));
  const auto random =
      metrics::hop_bytes(matrix, *machine, make_mapper("random")->map(matrix, *machine, 3));
  EXPECT_LT(greedy * 2, random);
}

TEST(MinMdMapper, HeaviestPairAtTheCentreThenNearestFreeNodes) {
  // On mesh:7 (4 ranks: the block of nodes 0 to 3, a chain of 3 ranks and a silent one).
  // Pair (0,1) first: rank 0 on the start node floor(4/2) = 2, rank 1 on the nearest free node
  // (1 and 3 tie: lowest id 1). Pair (1,2): rank 2 nearest node 1, i.e. node 0.
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 100);
  builder.add(1, 2, 1, 10);
  EXPECT_EQ(nodes_of("minmd", builder.build(), "mesh:7"), (std::vector<NodeId>{2, 1, 0, 3}));
}

TEST(MinMdMapper, FillsANodesCoresBeforeMovingOn) {
  // Two cores per node: rank 1 joins rank 0 on the start node 1; rank 2 goes next door (0).
  EXPECT_EQ(nodes_of("minmd", weighted_chain(), "mesh:3:cores=2"), (std::vector<NodeId>{1, 1, 0}));
}

TEST(MinMdMapper, PlacesSilentRanksLastNearTheStart) {
  traces::CommMatrixBuilder builder(4);
  builder.add(2, 3, 1, 10);  // ranks 0 and 1 say nothing
  // Pair (2,3): rank 2 on the start node 2, rank 3 on node 1; then rank 0 nearest node 2: node
  // 3, and rank 1: nodes 0 and 4 are both 2 hops away, lowest id 0.
  EXPECT_EQ(nodes_of("minmd", builder.build(), "mesh:5"), (std::vector<NodeId>{3, 0, 2, 1}));
}

TEST(MinMdMapper, StartsAtTheMachinesCentre) {
  // 3 ranks on torus:4x4x4 run on its compact block, the 3x1x1 line (diameter 2): its centre
  // (1, 0, 0).
  const auto nodes = nodes_of("minmd", weighted_chain(), "torus:4x4x4");
  const auto machine = topo::make_topology("torus:4x4x4");
  EXPECT_EQ(nodes[0], machine->node_at(std::vector<int>{1, 0, 0}));
  EXPECT_EQ(machine->hops(nodes[0], nodes[1]), 1);
}

TEST(RcmMapper, MapsAChainAlongALineWithDilationOne) {
  traces::CommMatrixBuilder chain(8);
  for (Rank r : {5, 2, 7, 0, 3, 6, 1}) chain.add(r, (r + 3) % 8, 1, 10);  // a path, shuffled
  const auto matrix = chain.build();
  // Both Cuthill-McKee orders start at an end of their path and walk along it. (On a ring the
  // machine order alternates around the start, which is what RCM does to a cycle.)
  const auto topology = topo::make_topology("mesh:8");
  const auto m = metrics::evaluate(matrix, *topology, make_mapper("rcm")->map(matrix, *topology));
  EXPECT_EQ(m.dilation_max, 1);
}

TEST(RcmMapper, OrdersTheMachineThroughItsRouters) {
  // On Tianhe-3 the order comes from the graph with routers; nodes of one chip side are
  // neighbours of one router, so ranks next in order share a side: a chain keeps its hops low.
  traces::CommMatrixBuilder chain(16);
  for (Rank r = 0; r + 1 < 16; ++r) chain.add(r, r + 1, 1, 10);
  const auto matrix = chain.build();
  const auto machine = topo::make_topology("tianhe3:2x2:nodes=8");
  const auto m = metrics::evaluate(matrix, *machine, make_mapper("rcm")->map(matrix, *machine));
  EXPECT_LE(m.dilation_average, 3.0);  // mostly same-side (1 hop) neighbours
}

}  // namespace
}  // namespace mapsim::map
