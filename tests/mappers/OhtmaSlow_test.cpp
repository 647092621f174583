// OHTMA on a few hundred ranks: the fast implementation returns exactly the dense reference's
// mapping (tests/mappers/OhtmaReference.hpp) on every kind of machine. Labelled slow: the
// reference is O(n^4).

#include <gtest/gtest.h>

#include "mappers/Ohtma.hpp"
#include "tests/mappers/OhtmaReference.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

void expect_same(const char* spec, const traces::CommMatrix& matrix) {
  SCOPED_TRACE(spec);
  const auto machine = topo::make_topology(spec);
  const auto fast = run_ohtma(CommGraph(matrix), *machine);
  const auto reference = testing::reference_ohtma(matrix, *machine);
  EXPECT_EQ(fast.greedy, reference.greedy);
  EXPECT_EQ(fast.exchanges, reference.exchanges);
  EXPECT_EQ(fast.kept, reference.kept);
  EXPECT_EQ(fast.final, reference.final);
  EXPECT_EQ(fast.exchanges.size(), static_cast<std::size_t>(matrix.rank_count() / 2));
}

TEST(OhtmaSlow, TorusStencil256) {
  expect_same("torus:8x8x4", testing::stencil_3d(8, 8, 4, true));
}

TEST(OhtmaSlow, MeshWavefront256) {
  expect_same("mesh:16x16", testing::lu_wavefront(16, 16));
}

TEST(OhtmaSlow, HaecIrregular256) {
  expect_same("haec:8x8x4", testing::random_matrix(256, 3, 31));
}

TEST(OhtmaSlow, Tianhe3Irregular256) {
  expect_same("tianhe3:2x2:nodes=64", testing::random_matrix(256, 4, 32));
}

TEST(OhtmaSlow, TorusAllToAllGroups256) {  // dense: the n x n gain table
  expect_same("torus:8x8x4", testing::all_to_all_groups(256, 16));
}

TEST(OhtmaSlow, Tianhe3MoreNodesThanRanks300) {
  expect_same("tianhe3:4x4:nodes=24", testing::stencil_2d(20, 15, true));
}

}  // namespace
}  // namespace mapsim::map
