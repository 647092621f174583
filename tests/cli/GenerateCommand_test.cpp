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
                    HasSubstr("--iterations"), HasSubstr("--message-bytes"), HasSubstr("--force"),
                    HasSubstr("snap"), HasSubstr("--deck"), HasSubstr("--set")));
}

TEST(GenerateCommand, SnapFromADeckWithSettings) {
  const TempDir dir;
  const auto out = dir.path() / "snap";
  const auto r = run_mapsim(
      "generate snap --deck sample --ranks 4 --set multiswp=0 --set inners=5 "
      "--out " +
      out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("snap deck sample, 4 ranks, inners=5, multiswp=0"));
  // SNAP's sample deck on 2 x 2 ranks: 2 outers x 5 inners + the extra outer = 11 sweeps of 4
  // groups; each rank sends 24 faces of 10·2·3 doubles (480 B) per group-sweep: 4·44·24 = 4224
  // messages of 480 B; the output gather adds ranks 2 and 3's plane, 4 groups x 144 B each.
  // 4224 + 8 = 4232 messages, 4224·480 + 8·144 = 2,028,672 B.
  const auto matrix = run_mapsim("matrix " + out.string());
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_THAT(matrix.out, HasSubstr("point-to-point 4232 messages, 2028672 bytes"));
}

TEST(GenerateCommand, BadDecksAndSettings) {
  const TempDir dir;
  const std::string tail = " --ranks 4 --out " + dir.path().string();
  const auto no_equals = run_mapsim("generate snap --deck sample --set npey" + tail);
  EXPECT_EQ(no_equals.exit_code, 1);
  EXPECT_THAT(no_equals.err, HasSubstr("--set 'npey': expected KEY=VALUE"));
  const auto not_number = run_mapsim("generate snap --deck sample --set npey=two" + tail);
  EXPECT_EQ(not_number.exit_code, 1);
  EXPECT_THAT(not_number.err, AllOf(HasSubstr("--set npey"), HasSubstr("not an integer")));
  const auto twice = run_mapsim("generate snap --deck sample --set npey=2 --set npey=2" + tail);
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.err, HasSubstr("npey is set twice"));
  const auto unknown = run_mapsim("generate snap --deck sample --set npy=2" + tail);
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, AllOf(HasSubstr("unknown parameter 'npy'"), HasSubstr("npey")));
  const auto deck = run_mapsim("generate snap --deck smaple" + tail);
  EXPECT_EQ(deck.exit_code, 1);
  EXPECT_THAT(deck.err, AllOf(HasSubstr("unknown snap deck 'smaple'"), HasSubstr("sample")));
  const auto both = run_mapsim("generate snap --deck sample --class A" + tail);
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_THAT(both.err, HasSubstr("--class and --deck exclude each other"));
  const auto npb = run_mapsim("generate lu --set npey=2" + tail);
  EXPECT_EQ(npb.exit_code, 1);
  EXPECT_THAT(npb.err, HasSubstr("snap and sweep3d only"));
  EXPECT_FALSE(fs::exists(dir.path() / "traces.otf2"));
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
  EXPECT_THAT(again.err, AllOf(HasSubstr("already holds an OTF2 archive"),
                               HasSubstr("(mapsim generate --force)")));
  const auto forced = run_mapsim(args + " --force --class W");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_THAT(forced.out, HasSubstr("ep class W, 2 ranks"));
}

}  // namespace
}  // namespace mapsim
