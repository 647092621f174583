// Loading a workload: runs that do not replay get the matrix alone, the same matrix as from the
// trace (a generated workload's computed without its trace, an archive's streamed); a slice's
// streams are the workload's first iterations or its consistent cut within a share.

#include "experiments/Workloads.hpp"

#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "traces/TraceReader.hpp"
#include "traces/TraceSlice.hpp"
#include "traces/generators/Generator.hpp"

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

// A share of an archive, held in memory or streamed, is traces::first_share of its trace, cut
// once: two replays' streams give the same events. Iterations of an archive are refused; of a
// generated workload they are the workload generated with them.
TEST(Workloads, SlicesAreTheFirstIterationsOrTheConsistentCut) {
  WorkloadValue archive;
  archive.kind = WorkloadKind::Trace;
  archive.path = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";
  const auto expected = traces::first_share(traces::read_trace(archive.path), 0.4);
  const auto held = load(archive, false);
  ASSERT_TRUE(held.trace.has_value());
  LoadedWorkload streamed;  // as a large archive is: no trace held, streams per replay
  streamed.source = archive;
  streamed.streamed = true;
  for (const LoadedWorkload* workload : {&held, static_cast<const LoadedWorkload*>(&streamed)}) {
    for (int replay = 0; replay < 2; ++replay) {
      const auto streams = workload->streams(map::Slice{0, 0.4});
      EXPECT_EQ(traces::collect(*streams).ranks, expected.ranks) << workload->streamed << replay;
    }
    EXPECT_THROW((void)workload->streams(map::Slice{3, 1}), InputError);
  }
  const auto lu = load(generated("lu", 4, 9), false);
  auto two = generated("lu", 4, 2).generator;
  const auto streams = lu.streams(map::Slice{2, 1});
  EXPECT_EQ(traces::collect(*streams).ranks, traces::generate_trace(two).ranks);
}

}  // namespace
}  // namespace mapsim::exp
