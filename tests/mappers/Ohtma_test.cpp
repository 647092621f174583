// OHTMA: a hand-solved instance, the fast implementation against the plain dense reference
// (tests/mappers/OhtmaReference.hpp) on every kind of machine, and backtracking.

#include "mappers/Ohtma.hpp"

#include <numeric>

#include <gtest/gtest.h>

#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"
#include "tests/mappers/OhtmaReference.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

// Symmetric volumes A01 = 100, A12 = 10, A23 = 1, A03 = 50 (a ring) on the line mesh:4.
traces::CommMatrix ring_of_four() {
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 60);
  builder.add(1, 0, 1, 40);
  builder.add(1, 2, 1, 10);
  builder.add(2, 3, 1, 1);
  builder.add(3, 0, 1, 50);
  return builder.build();
}

TEST(Ohtma, HandSolvedGreedyPhase) {
  // Volumes T = (150, 110, 11, 51); hops to all nodes HT = (6, 4, 4, 6).
  // k = 0: rank 0 (largest T) to node 1 (HT 4, tie with node 2 to the lower id).
  // k = 1: k S + T = (-, 100 + 110, 0 + 11, 50 + 51): rank 1; k HS + HT for nodes 0, 2, 3 =
  //        1 + 6, 1 + 4, 2 + 6: node 2.
  // k = 2: 2 S + T = (-, -, 20 + 11, 100 + 51): rank 3; nodes 0 and 3 both 2*3 + 6 = 12: node 0.
  // k = 3: rank 2 to node 3.
  const auto machine = topo::make_topology("mesh:4");
  const CommGraph graph(ring_of_four());
  EXPECT_EQ(ohtma_greedy(graph, *machine), (std::vector<topo::NodeId>{1, 2, 3, 0}));
}

TEST(Ohtma, HandSolvedExchangePhase) {
  // From f = (1, 2, 3, 0) (hop-bytes 100 + 10 + 3 * 1 + 50 = 163, optimal: a ring on a line
  // must stretch one edge over 3 hops and this stretches the lightest) every exchange loses:
  // (0,1) -60, (0,2) -98, (0,3) -99, (1,2) -99, (1,3) -18, (2,3) -60. The best, (1, 3), is made
  // anyway and both are locked; then only (0, 2) is left: -180. Backtracking keeps none.
  const auto machine = topo::make_topology("mesh:4");
  const CommGraph graph(ring_of_four());
  const auto result = run_ohtma(graph, *machine);
  EXPECT_EQ(result.exchanges, (std::vector<OhtmaExchange>{{1, 3, -18}, {0, 2, -180}}));
  EXPECT_EQ(result.kept, 0U);
  EXPECT_EQ(result.final, result.greedy);
}

struct Instance {
  const char* machine;
  traces::CommMatrix matrix;
};

std::vector<Instance> small_instances() {
  return {
      {"torus:4x4x4", testing::stencil_3d(4, 4, 4, true)},
      {"torus:4x4x4", testing::random_matrix(64, 3, 11)},
      {"mesh:8x8", testing::lu_wavefront(8, 8)},
      {"mesh:6x6", testing::random_matrix(30, 2, 12)},  // more nodes than ranks
      {"mesh:5x5x3:cores=2", testing::lu_wavefront(10, 12)},
      {"haec:4x4x4", testing::lu_wavefront(8, 8)},
      {"haec:3x3x2", testing::random_matrix(18, 4, 13)},
      {"tianhe3:2x2:nodes=16", testing::stencil_2d(8, 8, true)},
      {"tianhe3:2x3:nodes=8:cores=2", testing::random_matrix(90, 3, 14)},
      {"torus:5x5", testing::stencil_2d(5, 5, true, 7)},  // many equal gains: ties matter
      {"mesh:4x4x4", testing::all_to_all_groups(64, 8)},  // dense: the automatic choice
      {"tianhe3:2x2:nodes=8:cores=2", testing::all_to_all_groups(60, 6)},
  };
}

void expect_same_as_reference(const Instance& instance) {
  SCOPED_TRACE(instance.machine);
  const auto machine = topo::make_topology(instance.machine);
  const CommGraph graph(instance.matrix);
  const auto reference = testing::reference_ohtma(instance.matrix, *machine);
  // Both ways of keeping the gains (the automatic choice is one of them).
  for (const auto gains : {OhtmaGains::Sparse, OhtmaGains::Dense}) {
    SCOPED_TRACE(gains == OhtmaGains::Dense ? "dense gains" : "sparse gains");
    const auto fast = run_ohtma(graph, *machine, {.loop = -1, .time_limit = 0, .gains = gains});
    EXPECT_EQ(fast.greedy, reference.greedy);
    EXPECT_EQ(fast.exchanges, reference.exchanges);
    EXPECT_EQ(fast.kept, reference.kept);
    EXPECT_EQ(fast.final, reference.final);
  }
}

TEST(Ohtma, SameAsTheDenseReference) {
  for (const auto& instance : small_instances()) expect_same_as_reference(instance);
}

TEST(Ohtma, SameAsTheDenseReferenceWithAnyLoop) {
  const auto machine = topo::make_topology("torus:4x4x2");
  const auto matrix = testing::random_matrix(32, 3, 21);
  const CommGraph graph(matrix);
  for (const std::int64_t loop : {0, 1, 5, 16, 40}) {
    SCOPED_TRACE(loop);
    const auto fast = run_ohtma(graph, *machine, {loop, 0});
    const auto reference = testing::reference_ohtma(matrix, *machine, loop);
    EXPECT_EQ(fast.exchanges, reference.exchanges);
    EXPECT_EQ(fast.final, reference.final);
    // At most min(loop, |P| / 2) exchanges: each locks two of the 32 processes.
    EXPECT_EQ(fast.exchanges.size(), static_cast<std::size_t>(std::min<std::int64_t>(loop, 16)));
  }
}

TEST(Ohtma, BacktrackingNeverWorseThanTheGreedyPhase) {
  for (const auto& instance : small_instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const CommGraph graph(instance.matrix);
    const auto result = run_ohtma(graph, *machine);
    const auto greedy = metrics::hop_bytes(graph, *machine, result.greedy);
    const auto final = metrics::hop_bytes(graph, *machine, result.final);
    EXPECT_LE(final, greedy);
    // The gains are exact hop-byte differences: the kept ones add up to what was saved.
    const std::int64_t kept = std::accumulate(
        result.exchanges.begin(),
        result.exchanges.begin() + static_cast<std::ptrdiff_t>(result.kept), std::int64_t{0},
        [](std::int64_t sum, const OhtmaExchange& e) { return sum + e.gain; });
    EXPECT_EQ(static_cast<std::int64_t>(greedy - final), kept);
    // The prefix kept is the best one: no prefix sums to more.
    std::int64_t sum = 0;
    for (const auto& e : result.exchanges) EXPECT_LE(sum += e.gain, kept);
  }
}

TEST(Ohtma, FillsTheCoresOfANodeFirst) {
  // With 2 cores per node the second process selected lands next to the first (0 hops).
  const auto machine = topo::make_topology("torus:4x4:cores=2");
  const CommGraph graph(testing::stencil_2d(4, 8, false));
  const auto greedy = ohtma_greedy(graph, *machine);
  std::vector<int> count(16, 0);
  for (const auto node : greedy) ++count[static_cast<std::size_t>(node)];
  for (const int c : count) EXPECT_EQ(c, 2);
}

TEST(Ohtma, MapperReturnsTheBacktrackedMapping) {
  const auto machine = topo::make_topology("haec:4x4x4");
  const auto matrix = testing::random_matrix(64, 4, 5);
  const auto mapping = make_mapper("ohtma")->map(matrix, *machine);
  EXPECT_EQ(std::vector<topo::NodeId>(mapping.nodes().begin(), mapping.nodes().end()),
            run_ohtma(CommGraph(matrix), *machine).final);
  const auto greedy_only = make_mapper("ohtma", {{"loop", "0"}})->map(matrix, *machine);
  EXPECT_EQ(std::vector<topo::NodeId>(greedy_only.nodes().begin(), greedy_only.nodes().end()),
            ohtma_greedy(CommGraph(matrix), *machine));
}

TEST(Ohtma, RejectsBadParameters) {
  EXPECT_THROW((void)make_mapper("ohtma", {{"loop", "-2"}}), InputError);
  EXPECT_THROW((void)make_mapper("ohtma", {{"time-limit", "-1"}}), InputError);
  EXPECT_THROW((void)make_mapper("ohtma", {{"passes", "2"}}), InputError);
}

}  // namespace
}  // namespace mapsim::map
