// in-order, round-robin, random and the space-filling-curve mappers.

#include <gtest/gtest.h>

#include "mappers/MachineGrid.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "tests/mappers/TestMatrices.hpp"
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

TEST(InOrderMapper, FillsNodesCoreByCore) {
  EXPECT_EQ(nodes_of("in-order", traces::CommMatrix(6), "mesh:2x2:cores=2"),
            (std::vector<NodeId>{0, 0, 1, 1, 2, 2}));
}

TEST(RoundRobinMapper, DealsOverPlanesOfTheSlowestDimension) {
  // torus:2x2x3 has 3 planes z of 4 nodes: ranks go to planes 0, 1, 2, 0, 1, 2.
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(6), "torus:2x2x3"),
            (std::vector<NodeId>{0, 4, 8, 1, 5, 9}));
}

TEST(RoundRobinMapper, DealsOverTianheChipsAndHaecBoards) {
  // Two chips of 4 nodes: chip 0 holds nodes 0-3, chip 1 nodes 4-7.
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(4), "tianhe3:1x2:nodes=4"),
            (std::vector<NodeId>{0, 4, 1, 5}));
  // Two boards of 2x2 nodes.
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(3), "haec:2x2x2"),
            (std::vector<NodeId>{0, 4, 1}));
}

TEST(RoundRobinMapper, FillsCoresWithinAGroupInOrder) {
  // mesh:2x2 has two rows (groups) of two nodes and 2 cores each: a group's 1st and 2nd ranks
  // share its first node.
  EXPECT_EQ(nodes_of("round-robin", traces::CommMatrix(8), "mesh:2x2:cores=2"),
            (std::vector<NodeId>{0, 2, 0, 2, 1, 3, 1, 3}));
}

TEST(RandomMapper, DependsOnTheSeedOnly) {
  const traces::CommMatrix matrix(64);
  const auto a = nodes_of("random", matrix, "torus:4x4x4", 1);
  EXPECT_EQ(a, nodes_of("random", matrix, "torus:4x4x4", 1));
  EXPECT_NE(a, nodes_of("random", matrix, "torus:4x4x4", 2));
}

TEST(RandomMapper, IsUniformOverNodes) {
  // Rank 0's node over 4000 seeds on 4 nodes: each about 1000 times (4 standard deviations
  // of a binomial(4000, 1/4) is about 110).
  const auto machine = topo::make_topology("mesh:4");
  const auto mapper = make_mapper("random");
  std::vector<int> count(4, 0);
  for (Seed seed = 0; seed < 4000; ++seed) {
    ++count[static_cast<std::size_t>(mapper->map(traces::CommMatrix(2), *machine, seed).node(0))];
  }
  for (const int c : count) {
    EXPECT_GT(c, 1000 - 110);
    EXPECT_LT(c, 1000 + 110);
  }
}

TEST(CurveMappers, SweepIsTheNaturalOrderOnGrids) {
  const traces::CommMatrix matrix(24);
  EXPECT_EQ(nodes_of("sweep", matrix, "mesh:4x3x2"), nodes_of("in-order", matrix, "mesh:4x3x2"));
}

TEST(CurveMappers, ScanSnakesOverTheMachine) {
  EXPECT_EQ(nodes_of("scan", traces::CommMatrix(8), "mesh:3x3"),
            (std::vector<NodeId>{0, 1, 2, 5, 4, 3, 6, 7}));
}

TEST(CurveMappers, ContinuousCurvesGiveDilationOneToAChain) {
  // A chain 0-1-2-... mapped along a continuous curve has every neighbour pair one hop apart.
  traces::CommMatrixBuilder chain(64);
  for (Rank r = 0; r + 1 < 64; ++r) chain.add(r, r + 1, 1, 100);
  const auto matrix = chain.build();
  for (const char* mapper : {"scan", "hilbert"}) {
    const auto machine = topo::make_topology("mesh:4x4x4");
    const auto m = metrics::evaluate(matrix, *machine, make_mapper(mapper)->map(matrix, *machine));
    EXPECT_EQ(m.dilation_max, 1) << mapper;
  }
  const auto nine = topo::make_topology("mesh:9x9");
  traces::CommMatrixBuilder chain81(81);
  for (Rank r = 0; r + 1 < 81; ++r) chain81.add(r, r + 1, 1, 100);
  const auto m81 = chain81.build();
  EXPECT_EQ(metrics::evaluate(m81, *nine, make_mapper("peano")->map(m81, *nine)).dilation_max, 1);
}

TEST(CurveMappers, OrderTianheChipsAndKeepAChipsNodesTogether) {
  // tianhe3:2x2:nodes=4: the curve runs over the 2x2 chip grid; each chip's 4 nodes in a row.
  const auto nodes = nodes_of("hilbert", traces::CommMatrix(16), "tianhe3:2x2:nodes=4");
  const auto machine = topo::make_topology("tianhe3:2x2:nodes=4");
  const MachineGrid grid(*machine);
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    EXPECT_EQ(nodes[r] % 4, static_cast<NodeId>(r % 4));  // within a chip in natural order
    if (r % 4 == 0 && r > 0) {
      // Consecutive chips are neighbours in the chip grid: same row or same column.
      const auto a = grid.coordinates(grid.cell_of(nodes[r - 1]));
      const auto b = grid.coordinates(grid.cell_of(nodes[r]));
      EXPECT_EQ(std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]), 1);
    }
  }
}

TEST(CurveMappers, LeaveTheCurvesTailEmptyWithSpareNodes) {
  // 5 ranks on a 4x4 mesh run on its compact block, the 3x2 rectangle (Mapper.hpp). Hilbert
  // there follows the 4x4 curve, skipping cells outside: (0,0), (1,0), (1,1), (0,1), then (2,1)
  // after the cells of rows 2 and 3; its last cell, (2,0), stays empty.
  const auto nodes = nodes_of("hilbert", traces::CommMatrix(5), "mesh:4x4");
  EXPECT_EQ(nodes, (std::vector<NodeId>{0, 1, 5, 4, 6}));
}

}  // namespace
}  // namespace mapsim::map
