// `mapsim generate`: writes an archive that otf2-print accepts and `mapsim matrix` reads with the
// counts docs/workloads.md gives; every bad input ends in a message and a non-zero exit, leaving
// no archive.

#include <cstdlib>
#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::run_mapsim;
using testing::TempDir;

TEST(GenerateCommand, WritesAnArchiveOtf2PrintAndTheReaderAccept) {
  const TempDir dir;
  const auto out = dir.path() / "lu";
  const auto r = run_mapsim("generate lu --class S --ranks 4 --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("wrote " + (out / "traces.otf2").string()),
                           HasSubstr("lu class S, 4 ranks")));
  const std::string print =
      "otf2-print --silent " + (out / "traces.otf2").string() + " >/dev/null 2>&1";
  EXPECT_EQ(std::system(print.c_str()), 0);
  // docs/workloads.md §3 for a 2×2 grid of 6×6×12 points (itmax 50): W = 51·10 = 510, H = 54;
  // Li = Lj = 5;
  // south/east-going links W + H = 564 messages of 8·(510·5·5 + 54·10·6·12) = 413,040 B;
  // north-going 566 (the pintgr message + one exchange_5 message, e5 = 1) of 413,040 +
  // 8·(2·8 + 12) = 413,264 B; west-going 566 of 413,040 + 8·(2·6 + 12) = 413,232 B.
  // Two links of each kind: 4,520 messages, 3,305,152 bytes.
  const auto matrix = run_mapsim("matrix " + out.string());
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_THAT(matrix.out, HasSubstr("point-to-point 4520 messages, 3305152 bytes"));
}

TEST(GenerateCommand, HelpListsKernelsRulesAndIdleRanks) {
  const auto r = run_mapsim("generate --help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              AllOf(HasSubstr("Usage: mapsim generate KERNEL"), HasSubstr("sweep3d"),
                    HasSubstr("stencil3d"), HasSubstr("N a power of two"), HasSubstr("idle"),
                    HasSubstr("--iterations"), HasSubstr("--message-bytes"), HasSubstr("--force")));
}

TEST(GenerateCommand, InvalidRankCountSaysWhichAreValid) {
  const TempDir dir;
  const auto r = run_mapsim("generate cg --class S --ranks 12 --out " + dir.path().string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("mapsim generate: error: cg class S cannot run on 12 ranks"),
                           HasSubstr("a power of two")));
  EXPECT_FALSE(fs::exists(dir.path() / "traces.otf2"));
}

TEST(GenerateCommand, UnknownKernelAndClass) {
  const TempDir dir;
  const auto kernel = run_mapsim("generate lulesh --ranks 4 --out " + dir.path().string());
  EXPECT_EQ(kernel.exit_code, 1);
  EXPECT_THAT(kernel.err, HasSubstr("unknown kernel 'lulesh'"));
  const auto cls = run_mapsim("generate lu --class Q --ranks 4 --out " + dir.path().string());
  EXPECT_EQ(cls.exit_code, 1);
  EXPECT_THAT(cls.err, HasSubstr("problem class 'Q'"));
  const auto long_class =
      run_mapsim("generate lu --class SS --ranks 4 --out " + dir.path().string());
  EXPECT_EQ(long_class.exit_code, 1);
  EXPECT_THAT(long_class.err, HasSubstr("--class 'SS'"));
}

TEST(GenerateCommand, BadNumbers) {
  const TempDir dir;
  const auto ranks = run_mapsim("generate lu --ranks four --out " + dir.path().string());
  EXPECT_EQ(ranks.exit_code, 1);
  EXPECT_THAT(ranks.err, HasSubstr("--ranks"));
  const auto iterations =
      run_mapsim("generate lu --ranks 4 --iterations 0 --out " + dir.path().string());
  EXPECT_EQ(iterations.exit_code, 1);
  EXPECT_THAT(iterations.err, HasSubstr("--iterations"));
  const auto bytes =
      run_mapsim("generate lu --ranks 4 --message-bytes 8 --out " + dir.path().string());
  EXPECT_EQ(bytes.exit_code, 1);
  EXPECT_THAT(bytes.err, HasSubstr("stencil2d and stencil3d only"));
}

TEST(GenerateCommand, MissingOptionsAreCommandLineErrors) {
  const auto no_out = run_mapsim("generate lu --ranks 4");
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_THAT(no_out.err, HasSubstr("out"));
  const auto no_ranks = run_mapsim("generate lu --out /tmp/never-written");
  EXPECT_EQ(no_ranks.exit_code, 2);
  EXPECT_THAT(no_ranks.err, HasSubstr("ranks"));
}

TEST(GenerateCommand, OutputThatCannotBeWritten) {
  const TempDir dir;
  const auto file = dir.write("plain", "x");
  const auto r = run_mapsim("generate ep --ranks 2 --out " + (file / "sub").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot create output directory"));
}

TEST(GenerateCommand, ExistingArchiveNeedsForce) {
  const TempDir dir;
  const std::string args = "generate ep --ranks 2 --out " + dir.path().string();
  ASSERT_EQ(run_mapsim(args).exit_code, 0);
  const auto again = run_mapsim(args);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err, HasSubstr("already holds an OTF2 archive"));
  const auto forced = run_mapsim(args + " --force --class W");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_THAT(forced.out, HasSubstr("ep class W, 2 ranks"));
}

}  // namespace
}  // namespace mapsim
