// Loading a workload: runs that do not replay get the matrix alone, the same matrix as from the
// trace (a generated workload's computed without its trace, an archive's streamed).

#include "experiments/Workloads.hpp"

#include <gtest/gtest.h>

namespace mapsim::exp {
namespace {

WorkloadValue generated(const std::string& kernel, Rank ranks, std::int64_t iterations) {
  WorkloadValue workload;
  workload.kind = WorkloadKind::Generated;
  workload.generator.kernel = kernel;
  workload.generator.problem_class = 'S';
  workload.generator.ranks = ranks;
  workload.generator.iterations = iterations;
  return workload;
}

TEST(Workloads, MatrixAloneEqualsTheMatrixOfTheTrace) {
  WorkloadValue archive;
  archive.kind = WorkloadKind::Trace;
  archive.path = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";
  // LU extrapolated over 9 iterations (point-to-point) and run in full (collectives); CG
  // extrapolated either way; a real archive streamed.
  for (const auto& workload : {generated("lu", 4, 9), generated("cg", 8, 5), archive}) {
    for (const bool collectives : {false, true}) {
      const auto alone = load(workload, collectives, /*need_trace=*/false);
      const auto both = load(workload, collectives, /*need_trace=*/true);
      EXPECT_FALSE(alone.trace.has_value());
      ASSERT_TRUE(both.trace.has_value());
      EXPECT_EQ(alone.matrix, both.matrix) << workload.generator.kernel << collectives;
    }
  }
}

}  // namespace
}  // namespace mapsim::exp
