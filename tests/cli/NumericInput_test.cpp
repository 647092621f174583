// Numbers that cannot fool mapsim, end to end: out-of-range times and link parameters, matrices
// whose sums would wrap, numbers too large to parse, and a CSV with a byte-order mark.

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kLu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";

RunResult simulate(const std::string& options) {
  return run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 " + options);
}

TEST(NumericInput, LinkBandwidthOutOfRangeNamesTheOptionAndTheRange) {
  // 1e-12 GB/s used to trip "an event was scheduled in the past" (a wrapped picosecond time).
  for (const std::string link : {"grid:1e-12:100", "grid:1e-300:100", "grid:2e6:100"}) {
    const auto r = simulate("--link " + link);
    EXPECT_EQ(r.exit_code, 1) << link;
    EXPECT_THAT(r.err, AllOf(HasSubstr("--link '" + link + "'"),
                             HasSubstr("out of range [1e-06, 1e+06] GB/s"), Not(HasSubstr("bug"))))
        << link;
  }
}

TEST(NumericInput, LinkLatencyOutOfRangeNamesTheOptionAndTheRange) {
  const auto r = simulate("--link grid:25:1e16");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              AllOf(HasSubstr("--link 'grid:25:1e16'"), HasSubstr("out of range [0, 1e+09] ns")));
}

TEST(NumericInput, ComputeScaleOutOfRangeIsAnErrorNotAZeroMakespan) {
  // 1e9 used to print a makespan of 0, 1e12 one of 7.6e6 s.
  for (const std::string scale : {"1e9", "1e12"}) {
    const auto r = simulate("--compute-scale " + scale);
    EXPECT_EQ(r.exit_code, 1) << scale;
    EXPECT_THAT(r.err, AllOf(HasSubstr("compute-scale"), HasSubstr("out of range [0, 1e+06]")))
        << scale;
    EXPECT_THAT(r.out, Not(HasSubstr("makespan")));
  }
  // Just past the limit: the value as given, not rounded onto the limit ("1e+06 is out of range
  // [0, 1e+06]").
  const auto just = simulate("--compute-scale 1000001");
  EXPECT_EQ(just.exit_code, 1);
  EXPECT_THAT(just.err, HasSubstr("1000001 is out of range [0, 1e+06]"));
}

TEST(NumericInput, TooLargeNumbersSayTheLimit) {
  const auto packet = simulate("--model packet --packet-size 99999999999999999999");
  EXPECT_EQ(packet.exit_code, 1);
  EXPECT_THAT(packet.err, HasSubstr("--packet-size: 99999999999999999999 is too large (limit "
                                    "1073741824)"));
  const auto topo = run_mapsim("topo torus:99999999999999999999");
  EXPECT_EQ(topo.exit_code, 1);
  EXPECT_THAT(topo.err, AllOf(HasSubstr("99999999999999999999, which is too large (limit 2097152)"),
                              Not(HasSubstr("not a positive integer"))));
  const auto size = run_mapsim("topo torus:4x3000000");
  EXPECT_THAT(size.err, HasSubstr("size 2 of 2 is 3000000, which is too large (limit 2097152)"));
}

TEST(NumericInput, MatrixWhoseBytesWouldWrapIsRefusedByEveryMapper) {
  // Each row fits 64 bits, the sum does not: scotch and bisection died of SIGFPE, the others
  // printed wrapped totals and hop-bytes.
  TempDir dir;
  const auto csv = dir.write("big.csv",
                             "# ranks=4\nsrc,dst,messages,bytes\n0,1,1,9223372036854775000\n"
                             "1,2,1,9223372036854775000\n2,3,1,100\n");
  for (const std::string mapper : {"scotch", "bisection", "in-order"}) {
    const auto r =
        run_mapsim("map --matrix " + csv.string() + " --topology torus:4 --mapper " + mapper);
    EXPECT_EQ(r.exit_code, 1) << mapper;
    EXPECT_THAT(r.err, AllOf(HasSubstr("big.csv:4"),
                             HasSubstr("total bytes are too large (limit 9223372036854775807")))
        << mapper;
  }
  const auto summary = run_mapsim("matrix " + csv.string());
  EXPECT_EQ(summary.exit_code, 1);
}

TEST(NumericInput, HopBytesThatWouldWrapAreRefusedWithTheMachinesLimit) {
  // 2^62 bytes fit a matrix, but times the 7 links of mesh:8's longest route they do not.
  TempDir dir;
  const auto csv =
      dir.write("far.csv", "# ranks=8\nsrc,dst,messages,bytes\n0,7,1,4611686018427387904\n");
  const auto r = run_mapsim("map --matrix " + csv.string() + " --topology mesh:8 --mapper greedy");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("too large for mesh:8 (limit 1317624576693539401)"),
                           Not(HasSubstr("bug"))));
  // --mapper all reports it for each mapper (scotch and bisection died of SIGFPE).
  const auto all = run_mapsim("map --matrix " + csv.string() + " --topology mesh:8 --mapper all");
  EXPECT_NE(all.exit_code, -1) << "killed by a signal";
  EXPECT_THAT(all.out + all.err, AllOf(HasSubstr("too large for mesh:8"), Not(HasSubstr("bug"))));
}

TEST(NumericInput, HostSpeedOutOfRangeIsRefused) {
  // 1e300 flop/s turned recorded gaps into compute actions of 1e290 flops (or inf).
  TempDir dir;
  const auto r = run_mapsim("export " + kLu + " --format simgrid-ti --out " +
                            (dir.path() / "ti").string() + " --flops-per-second 1e300");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("flops-per-second"), HasSubstr("out of range [1, 1e+18]")));
}

TEST(NumericInput, ReadsACsvMatrixWithAByteOrderMark) {
  TempDir dir;
  const auto csv = dir.write("bom.csv", "\xEF\xBB\xBFsrc,dst,messages,bytes\n0,1,2,64\n");
  const auto r = run_mapsim("matrix " + csv.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2 ranks"));
}

}  // namespace
}  // namespace mapsim::testing
