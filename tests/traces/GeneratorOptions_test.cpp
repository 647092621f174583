// Bad generator options: each fails with an InputError that names the value and says what would
// be valid (NPB 3.4's rank-count rules per kernel).

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "traces/generators/Generator.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using testing::generator;
using ::testing::HasSubstr;

std::string error_of(const GeneratorOptions& options) {
  try {
    (void)make_workload(options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(GeneratorOptions, UnknownKernelListsTheValidOnes) {
  EXPECT_THAT(error_of(generator("lulesh", 'S', 4)),
              AllOf(HasSubstr("unknown kernel 'lulesh'"), HasSubstr("lu, bt, sp, cg, mg, ft, is"),
                    HasSubstr("sweep3d"), HasSubstr("stencil3d")));
}

TEST(GeneratorOptions, UnknownClass) {
  EXPECT_THAT(error_of(generator("lu", 'E', 4)),
              AllOf(HasSubstr("problem class 'E'"), HasSubstr("S, W, A, B, C, D")));
}

TEST(GeneratorOptions, RankCountOutOfRange) {
  EXPECT_THAT(error_of(generator("ep", 'S', 0)), HasSubstr("rank count 0"));
}

TEST(GeneratorOptions, LuNeedsAnAcceptableProcessGrid) {
  // 10 = 5 × 2 breaks xdim <= 2·ydim; 32 = 8 × 4 leaves 12/8 < 3 points: class S runs on
  // 1, 2, 4, 6, 8, 9, 12, 16 only (docs/workloads.md §3).
  for (const Rank n : {10, 32}) {
    EXPECT_THAT(
        error_of(generator("lu", 'S', n)),
        AllOf(HasSubstr(fmt::format("lu class S cannot run on {} ranks", n)),
              HasSubstr("xdim <= 2*ydim"), HasSubstr("valid counts: 1, 2, 4, 6, 8, 9, 12, 16")));
  }
}

TEST(GeneratorOptions, BtAndSpNeedCellsOfThreePoints) {
  // p = ⌊√64⌋ = 8 > 12/3: "Cell size too small" in NPB (§5.1); 17 … 24 ranks are fine (p = 4,
  // idle ranks), 25 is not.
  EXPECT_THAT(error_of(generator("bt", 'S', 64)),
              AllOf(HasSubstr("bt class S cannot run on 64 ranks"), HasSubstr("floor(G/p) >= 3"),
                    HasSubstr("24")));
  EXPECT_THAT(error_of(generator("sp", 'S', 25)), HasSubstr("sp class S cannot run on 25 ranks"));
  EXPECT_EQ(error_of(generator("bt", 'S', 20)), "(no error)");
}

TEST(GeneratorOptions, CgAndIsNeedPowersOfTwo) {
  EXPECT_THAT(error_of(generator("cg", 'S', 12)),
              AllOf(HasSubstr("cg class S cannot run on 12 ranks"), HasSubstr("a power of two"),
                    HasSubstr("valid counts (up to 65536): 1, 2, 4, 8, 16, 32")));
  EXPECT_THAT(error_of(generator("is", 'S', 256)), HasSubstr("a power of two from 1 to 128"));
  EXPECT_THAT(error_of(generator("is", 'D', 2)), HasSubstr("a power of two from 4 to 1024"));
}

TEST(GeneratorOptions, MgFtEpSweepAndStencilLimits) {
  // MG S: 2^16 working ranks would need pz = 64 > 32 points; FT S: 2^13 > ny·nz = 4096; EP S:
  // 2^(24−16) = 256 batches; Sweep3D S (mapsim's own 32³ cube): 37 (prime) → a 1 × 37 mesh,
  // more ranks than the 32 cells in j; stencils: a prime above n.
  EXPECT_THAT(error_of(generator("mg", 'S', 1 << 16)), HasSubstr("mg class S cannot run on"));
  EXPECT_THAT(error_of(generator("ft", 'S', 1 << 13)), HasSubstr("ny*nz"));
  EXPECT_THAT(error_of(generator("ep", 'S', 257)), HasSubstr("N <= 2^(m-16)"));
  EXPECT_THAT(error_of(generator("sweep3d", 'S', 37)),
              AllOf(HasSubstr("sweep3d class S cannot run"), HasSubstr("npe_j <= jt_g")));
  EXPECT_THAT(error_of(generator("stencil2d", 'S', 1031)), HasSubstr("largest dimension"));
  EXPECT_THAT(error_of(generator("stencil3d", 'S', 67)), HasSubstr("largest dimension"));
}

TEST(GeneratorOptions, IterationsMustBePositiveAndMeaningful) {
  EXPECT_THAT(error_of(generator("lu", 'S', 4, 0)), HasSubstr("iteration count 0"));
  EXPECT_THAT(error_of(generator("ep", 'S', 4, 3)), HasSubstr("ep has no iteration count"));
  // IS overwrites keys 1 … 2·iterations of rank 0: class S on 128 ranks has 512 keys per rank.
  EXPECT_THAT(error_of(generator("is", 'S', 128, 300)), HasSubstr("too few for 300 iterations"));
}

TEST(GeneratorOptions, MessageSizeOnlyForStencils) {
  auto lu = generator("lu", 'S', 4);
  lu.message_bytes = 64;
  EXPECT_THAT(error_of(lu), HasSubstr("stencil2d and stencil3d only, not to lu"));
  auto stencil = generator("stencil2d", 'S', 4);
  stencil.message_bytes = -1;
  EXPECT_THAT(error_of(stencil), HasSubstr("halo message size -1"));
}

// Sizes each within range whose product puts a compute gap past what a trace records (2^63 ns):
// an error naming the workload, not a negative time caught as a bug. The first gap comes before
// any message, so this costs nothing to find.
TEST(GeneratorOptions, ComputeGapsPastATracesRangeNameTheWorkload) {
  for (const auto* spec : {"sweep3d:input.50:4:it_g=1048576:jt_g=1048576:kt=1048576",
                           "snap:sample:4:ny=1048576:nz=1048576:ng=4096"}) {
    const auto options = parse_generator_spec(spec);
    try {
      (void)generate_trace(options);
      ADD_FAILURE() << spec << " generated";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), AllOf(HasSubstr(describe(options) + ": rank 0 would compute"),
                                  HasSubstr("beyond the 2^63 ns (292 years) a trace records")))
          << spec;
    }
  }
}

}  // namespace
}  // namespace mapsim::traces
