// scotch and bisection (libscotch).

#include <map>

#include <gtest/gtest.h>

#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/ScotchSupport.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

int overloaded_nodes(std::span<const NodeId> node_of_rank, int capacity) {
  std::map<NodeId, int> load;
  for (const auto node : node_of_rank) ++load[node];
  int over = 0;
  for (const auto& [node, count] : load) over += count > capacity ? 1 : 0;
  return over;
}

TEST(ScotchMapper, StencilOnATorusThatHoldsItGetsDilationOne) {
  // A five-point stencil fits a torus (and mesh) of its own size with every neighbour one hop
  // away, and the mapper's runs find it. (Not for every stencil: periodic ones come out with
  // dilation 3 or more, and from 32x32 on Scotch misses it too; see the report.)
  for (const auto& [spec, side] :
       {std::pair{"torus:8x8", 8}, std::pair{"mesh:8x8", 8}, std::pair{"torus:12x12", 12},
        std::pair{"torus:16x16", 16}, std::pair{"torus:4x4x4", 0}}) {
    const auto machine = topo::make_topology(spec);
    const auto matrix =
        side > 0 ? testing::stencil_2d(side, side, false) : testing::stencil_3d(4, 4, 4, false);
    for (const Seed seed : {0, 1, 2}) {
      const auto m =
          metrics::evaluate(matrix, *machine, make_mapper("scotch")->map(matrix, *machine, seed));
      EXPECT_EQ(m.dilation_max, 1) << spec << " seed " << seed;
    }
  }
}

TEST(ScotchMapper, OneToOneWhereScotchsDefaultStrategyOverloads) {
  const auto machine = topo::make_topology("torus:8x8x8");
  const auto matrix = testing::random_matrix(512, 4, 1);
  // Scotch's default strategy (a few percent of imbalance) puts two ranks on some node here.
  std::vector<NodeId> raw;
  {
    const CommGraph graph(matrix);
    const auto guard = scotch::lock();
    scotch::Context context(0);
    const auto data = scotch::process_graph(graph);
    scotch::Graph g(data, &context);
    scotch::Arch arch;
    scotch::build_target(arch, *machine, context);
    SCOTCH_Strat strategy;
    SCOTCH_stratInit(&strategy);
    std::vector<scotch::Num> terminal(512);
    ASSERT_EQ(SCOTCH_graphMap(g.get(), arch.get(), &strategy, terminal.data()), 0);
    SCOTCH_stratExit(&strategy);
    raw.assign(terminal.begin(), terminal.end());
  }
  ASSERT_GT(overloaded_nodes(raw, 1), 0) << "pick an instance where Scotch overloads";
  for (const Seed seed : {0, 1, 2}) {
    const auto mapping = make_mapper("scotch")->map(matrix, *machine, seed);
    EXPECT_EQ(overloaded_nodes(mapping.nodes(), 1), 0);
  }
}

TEST(ScotchMapper, RespectsSeveralCoresPerNode) {
  const auto machine = topo::make_topology("mesh:4x4:cores=4");
  const auto matrix = testing::stencil_2d(8, 8, false);
  const auto mapping = make_mapper("scotch")->map(matrix, *machine);
  EXPECT_EQ(overloaded_nodes(mapping.nodes(), 4), 0);
  // A 2x2 block of the stencil per node is the best placement: 2 * 8 * 3 cut edges each way.
  EXPECT_LE(metrics::evaluate(matrix, *machine, mapping).dilation_max, 2);
}

TEST(ScotchMapper, MapsOntoHaecAndTianhe) {
  for (const char* spec : {"haec:4x4x2", "tianhe3:2x2:nodes=8"}) {
    const auto machine = topo::make_topology(spec);
    const auto matrix = testing::stencil_2d(8, 4, true);
    const auto scotch = make_mapper("scotch")->map(matrix, *machine, 1);
    const auto random = make_mapper("random")->map(matrix, *machine, 1);
    EXPECT_LT(metrics::hop_bytes(matrix, *machine, scotch),
              metrics::hop_bytes(matrix, *machine, random))
        << spec;
  }
}

TEST(ScotchMapper, BeatsNaturalOrderOnSmallTianhe3Machines) {
  // An 8x8 stencil on 4 chips of 16 nodes (or 8 chips of 8): natural order puts rows of 8 on one
  // side of a chip, so a vertical neighbour is on the other side (2 hops) or another chip (3-6).
  // A mapping that keeps 2x4 or 4x4 blocks together on a chip side does strictly better; Scotch's
  // exact decomposition-defined target on these machines did worse than natural order.
  for (const char* spec : {"tianhe3:2x2:nodes=16", "tianhe3:4x2:nodes=8"}) {
    const auto machine = topo::make_topology(spec);
    const auto matrix = testing::stencil_2d(8, 8, false);
    const auto scotch = make_mapper("scotch")->map(matrix, *machine, 1);
    const auto in_order = make_mapper("in-order")->map(matrix, *machine, 1);
    EXPECT_LT(metrics::hop_bytes(matrix, *machine, scotch),
              metrics::hop_bytes(matrix, *machine, in_order))
        << spec;
  }
}

TEST(BisectionMapper, SeparatesIndependentGroupsIntoMachineHalves) {
  // Two groups of 8 ranks, all-to-all inside, nothing across; ranks interleaved (even/odd).
  traces::CommMatrixBuilder builder(16);
  for (Rank a = 0; a < 16; ++a) {
    for (Rank b = 0; b < 16; ++b) {
      if (a != b && a % 2 == b % 2) builder.add(a, b, 1, 100);
    }
  }
  const auto matrix = builder.build();
  const auto machine = topo::make_topology("mesh:4x4");
  const auto mapping = make_mapper("bisection")->map(matrix, *machine);
  // The first cut splits the machine into two 2x4 (or 4x2) halves and the ranks into the groups.
  bool x_halves = true;
  bool y_halves = true;
  for (Rank r = 0; r < 16; ++r) {
    const auto c = machine->coordinates(mapping.node(r));
    const auto c0 = machine->coordinates(mapping.node(r % 2));
    x_halves = x_halves && (c[0] < 2) == (c0[0] < 2);
    y_halves = y_halves && (c[1] < 2) == (c0[1] < 2);
  }
  EXPECT_TRUE(x_halves || y_halves);
}

TEST(BisectionMapper, KeepsAStencilCompact) {
  const auto machine = topo::make_topology("torus:8x8");
  const auto matrix = testing::stencil_2d(8, 8, true);
  const auto m =
      metrics::evaluate(matrix, *machine, make_mapper("bisection")->map(matrix, *machine));
  // Random placement averages 4 hops on this torus (2 per dimension); halving both graphs keeps
  // most neighbours within a block, so well under 3.
  EXPECT_LT(m.dilation_average, 3.0);
}

TEST(BisectionMapper, SpreadsSpareCapacityEvenly) {
  // 12 ranks on a 4x4 mesh: halves get 6 and 6, quarters 3 and 3.
  const auto machine = topo::make_topology("mesh:4x4");
  const auto mapping = make_mapper("bisection")->map(testing::stencil_2d(4, 3, false), *machine);
  int left = 0;
  for (const auto node : mapping.nodes()) left += machine->coordinates(node)[0] < 2 ? 1 : 0;
  const int bottom = [&] {
    int count = 0;
    for (const auto node : mapping.nodes()) count += machine->coordinates(node)[1] < 2 ? 1 : 0;
    return count;
  }();
  EXPECT_TRUE(left == 6 || bottom == 6);
}

TEST(BisectionMapper, OrientsEachSplitTowardsTheTrafficOutsideIt) {
  // A chain 0-1-...-15 on a 1-D mesh of 16 nodes. Every split of a contiguous piece of the chain
  // cuts it in the middle (one edge), and orient=traffic puts the half that talks to the rest
  // of the chain on the side nearer to it: the chain is laid out without a gap (hop-bytes =
  // 15 edges x 100 bytes x 1 hop), whatever the seed. Without orientation each split keeps the
  // partitioner's arbitrary sides, which leaves gaps for some seed.
  traces::CommMatrixBuilder builder(16);
  for (Rank r = 0; r + 1 < 16; ++r) builder.add(r, r + 1, 1, 100);
  const auto matrix = builder.build();
  const auto machine = topo::make_topology("mesh:16");
  bool gap_without = false;
  for (const Seed seed : {1, 2, 3, 4, 5, 6}) {
    SCOPED_TRACE(seed);
    const auto oriented = make_mapper("bisection")->map(matrix, *machine, seed);
    EXPECT_EQ(metrics::hop_bytes(matrix, *machine, oriented), 1500U);
    const auto as_split =
        make_mapper("bisection", {{"orient", "none"}})->map(matrix, *machine, seed);
    gap_without = gap_without || metrics::hop_bytes(matrix, *machine, as_split) > 1500U;
  }
  EXPECT_TRUE(gap_without);
  EXPECT_THROW((void)make_mapper("bisection", {{"orient", "sideways"}}), InputError);
}

}  // namespace
}  // namespace mapsim::map
