// workload_matrix: the matrix of a generated workload without its trace equals the matrix of the
// generated trace, entry for entry — for every kernel, with and without collectives, for
// iteration counts it runs in full (1 to 3, or not affine) and counts it extrapolates (> 3).

#include "traces/WorkloadMatrix.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "support/Error.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "traces/TraceMatrix.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using testing::generator;
using ::testing::HasSubstr;

struct Case {
  std::string kernel;
  char problem_class;
  Rank ranks;
};

// Every kernel, with rank counts that exercise their special layouts: idle ranks (bt 5, mg 6),
// non-square grids (cg 8, lu 6), a 2-D FFT layout with surplus ranks (ft 6).
const std::vector<Case> kCases{
    {"lu", 'S', 4}, {"lu", 'S', 6},      {"bt", 'S', 4},        {"bt", 'S', 5},
    {"sp", 'S', 9}, {"cg", 'S', 4},      {"cg", 'S', 8},        {"mg", 'S', 8},
    {"mg", 'S', 6}, {"ft", 'S', 4},      {"ft", 'S', 6},        {"is", 'S', 4},
    {"ep", 'S', 3}, {"sweep3d", 'S', 4}, {"stencil2d", 'S', 6}, {"stencil3d", 'S', 8},
};

std::string name_of(const GeneratorOptions& o, bool collectives) {
  return fmt::format("{}{}", describe(o), collectives ? ", with collectives" : "");
}

void expect_same_as_trace(const GeneratorOptions& o) {
  const Trace trace = generate_trace(o);
  for (const bool collectives : {false, true}) {
    MatrixOptions options;
    options.collectives = collectives;
    const CommMatrix expected =
        collectives ? matrix_with_collectives(trace) : point_to_point_matrix(trace);
    EXPECT_EQ(workload_matrix(o, options), expected) << name_of(o, collectives);
    EXPECT_EQ(workload_matrix(*make_workload(o), options), expected) << name_of(o, collectives);
    // And the collectives' share of the totals, extrapolated or not: the collectives' matrix.
    const Traffic part = collectives ? collective_matrix(trace).total() : Traffic{};
    EXPECT_EQ(expected.collective_total(), part) << name_of(o, collectives);
    EXPECT_EQ(workload_matrix(o, options).collective_total(), part) << name_of(o, collectives);
  }
}

TEST(WorkloadMatrix, EqualsTheMatrixOfTheGeneratedTraceForEveryKernel) {
  for (const auto& c : kCases) expect_same_as_trace(generator(c.kernel, c.problem_class, c.ranks));
}

TEST(WorkloadMatrix, EqualsTheTraceAtIterationCountsRunInFullAndExtrapolated) {
  // 1 to 3 run in full; 4, 5, 7 and 12 are extrapolated from 1, 2 and 3 where the workload is
  // affine in its iterations, and run in full where it is not (e.g. LU's and the stencils'
  // collectives, IS).
  for (const auto& c : kCases) {
    if (c.kernel == "ep") continue;  // no iterations
    for (const std::int64_t n : {1, 2, 3, 4, 5, 7, 12}) {
      auto o = generator(c.kernel, c.problem_class, c.ranks);
      o.iterations = n;
      expect_same_as_trace(o);
    }
  }
}

TEST(WorkloadMatrix, AffineClaimsHoldAtAClassesOwnIterationCount) {
  // Class W runs more iterations than S (LU 300, CG 15, MG 4, BT 200, ...): each claim checked
  // at a count far beyond the three it is extrapolated from.
  for (const auto& o : {generator("lu", 'W', 4), generator("cg", 'W', 4), generator("mg", 'W', 8),
                        generator("ft", 'W', 4)}) {
    expect_same_as_trace(o);
  }
}

TEST(WorkloadMatrix, TheResultDoesNotDependOnTheThreadCount) {
  auto o = generator("sp", 'S', 9);
  o.iterations = 3;  // run in full: ranks in parallel
  MatrixOptions options;
  options.collectives = true;
  std::optional<CommMatrix> one;
  {
    const tbb::global_control serial(tbb::global_control::max_allowed_parallelism, 1);
    one = workload_matrix(o, options);
  }
  const tbb::global_control parallel(tbb::global_control::max_allowed_parallelism, 4);
  EXPECT_EQ(workload_matrix(o, options), *one);
}

TEST(WorkloadMatrix, BadOptionsFailAsMakeWorkloadDoes) {
  EXPECT_THAT([] { (void)workload_matrix(generator("lu", 'S', 10)); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("lu class S cannot run on 10 ranks")));
}

std::string error_of(const GeneratorOptions& o, bool collectives) {
  MatrixOptions options;
  options.collectives = collectives;
  try {
    (void)workload_matrix(o, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(WorkloadMatrix, ExtrapolatedTotalsPastTheLimitAreRejected) {
  // stencil3d on 8 ranks (2x2x2): 24 ordered neighbour pairs, each 10^6 sweeps of 2^40 bytes
  // (1.1·10^18, an entry that fits), 2.6·10^19 bytes in all: past 2^63 - 1.
  auto o = generator("stencil3d", 'S', 8);
  o.iterations = 1'000'000;
  o.message_bytes = std::int64_t{1} << 40;
  EXPECT_THAT(error_of(o, false),
              AllOf(HasSubstr("total bytes are too large"), HasSubstr("9223372036854775807")));
}

TEST(WorkloadMatrix, TotalsPastTheLimitAreRejectedWhenRunInFull) {
  // With collectives the stencil is run in full (its residual Allreduce every 10th sweep is not
  // affine): 24 pairs of 400000 · 2^40 bytes = 1.06·10^19 bytes, past 2^63 - 1.
  auto o = generator("stencil3d", 'S', 8);
  o.iterations = 400'000;
  o.message_bytes = std::int64_t{1} << 40;
  EXPECT_THAT(error_of(o, true),
              AllOf(HasSubstr("total bytes are too large"), HasSubstr("9223372036854775807")));
}

}  // namespace
}  // namespace mapsim::traces
