// Every registered mapper on every kind of machine: a valid mapping (every rank placed, no node
// over capacity), the same for the same seed, and the same with one or two threads.

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

struct Case {
  const char* machine;
  traces::CommMatrix matrix;
  const char* what;
};

std::vector<Case> cases() {
  return {
      {"mesh:8x8", testing::stencil_2d(8, 8, false), "2-D stencil, one per node"},
      {"mesh:12x6", testing::stencil_2d(9, 8, false), "9x8 on 12x6"},
      {"torus:4x4x4", testing::stencil_3d(4, 4, 4, true), "3-D stencil"},
      {"torus:4x4x4", testing::random_matrix(64, 4, 1), "irregular"},
      {"mesh:5x5x3:cores=2", testing::lu_wavefront(10, 12), "two cores per node"},
      {"haec:4x4x4", testing::lu_wavefront(8, 8), "HAEC Box"},
      {"haec:3x3x2", testing::random_matrix(13, 3, 2), "fewer ranks than nodes"},
      {"tianhe3:2x2:nodes=16", testing::stencil_2d(8, 8, true), "Tianhe-3"},
      {"tianhe3:2x3:nodes=8:cores=2", testing::random_matrix(70, 5, 3), "Tianhe-3, two cores"},
      {"torus:6", testing::stencil_2d(3, 2, true), "1-D machine"},
      {"mesh:2x2x2x2", testing::random_matrix(16, 3, 4), "4-D mesh"},
  };
}

TEST(AllMappers, ValidAndDeterministicOnEveryMachineKind) {
  for (const auto& c : cases()) {
    const auto machine = topo::make_topology(c.machine);
    for (const auto& info : mapper_infos()) {
      SCOPED_TRACE(std::string(info.name) + " on " + c.machine + " (" + c.what + ")");
      const auto mapper = make_mapper(info.name);
      const auto first = mapper->map(c.matrix, *machine, 42);
      ASSERT_EQ(first.rank_count(), c.matrix.rank_count());
      EXPECT_NO_THROW(validate(first, *machine));
      EXPECT_EQ(mapper->map(c.matrix, *machine, 42), first);
    }
  }
}

TEST(AllMappers, IndependentOfTheThreadCount) {
  const auto machine = topo::make_topology("torus:8x8x4");
  const auto matrix = testing::random_matrix(256, 6, 9);
  for (const auto& info : mapper_infos()) {
    SCOPED_TRACE(info.name);
    const auto mapper = make_mapper(info.name);
    topo::Mapping one;
    topo::Mapping two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one = mapper->map(matrix, *machine, 7);
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      two = mapper->map(matrix, *machine, 7);
    }
    EXPECT_EQ(one, two);
  }
}

TEST(AllMappers, RejectMoreRanksThanCores) {
  const auto machine = topo::make_topology("mesh:2x2");
  const auto matrix = testing::random_matrix(5, 2, 1);
  for (const auto& info : mapper_infos()) {
    EXPECT_THROW((void)make_mapper(info.name)->map(matrix, *machine), InputError) << info.name;
  }
}

TEST(AllMappers, PlaceASingleRank) {
  const auto machine = topo::make_topology("torus:3x3");
  const traces::CommMatrix matrix(1);
  for (const auto& info : mapper_infos()) {
    EXPECT_EQ(make_mapper(info.name)->map(matrix, *machine).rank_count(), 1) << info.name;
  }
}

}  // namespace
}  // namespace mapsim::map
