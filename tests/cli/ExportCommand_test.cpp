// `mapsim export`: writes the SimGrid time-independent files of a generated trace and reports
// them; a bad format, a missing trace or a non-positive host speed ends in a message and exit 1.

#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using ::testing::StartsWith;
using testing::TempDir;

/// Writes cg class S on 4 ranks into DIR/cg and returns that directory.
fs::path generate_cg(const TempDir& dir) {
  const auto trace = dir.path() / "cg";
  const auto r = run_mapsim("generate cg --class S --ranks 4 --out " + trace.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return trace;
}

TEST(ExportCommand, WritesOneFilePerRankAndTheIndex) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                            out.string() + " --flops-per-second 2e9");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith(out.string() + "/index.txt: 4 ranks, "));
  std::string index;
  for (int rank = 0; rank < 4; ++rank) {
    const auto file = out / ("rank-" + std::to_string(rank) + ".txt");
    ASSERT_TRUE(fs::exists(file)) << file;
    const auto text = read_file(file);
    EXPECT_THAT(text, AllOf(StartsWith(std::to_string(rank) + " init\n"), HasSubstr(" compute "),
                            HasSubstr(" isend ")));
    EXPECT_TRUE(text.ends_with(std::to_string(rank) + " finalize\n")) << file;
    index += fs::absolute(file).string() + "\n";
  }
  EXPECT_EQ(read_file(out / "index.txt"), index);
}

TEST(ExportCommand, NoComputeWritesCommunicationOnly) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() +
                            " --format simgrid-ti --no-compute --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(read_file(out / "rank-0.txt"),
              AllOf(Not(HasSubstr(" compute ")), HasSubstr(" wait ")));
}

TEST(ExportCommand, UnknownFormatIsNamed) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() + " --format otf2 --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("mapsim export: error:"), HasSubstr("'otf2'"),
                           HasSubstr("simgrid-ti")));
  EXPECT_FALSE(fs::exists(out / "index.txt"));
}

TEST(ExportCommand, MissingTraceIsNamed) {
  const TempDir dir;
  const auto missing = dir.path() / "no-such-trace";
  const auto r = run_mapsim("export " + missing.string() + " --format simgrid-ti --out " +
                            (dir.path() / "ti").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(missing.string()));
}

TEST(ExportCommand, HostSpeedMustBePositive) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto zero = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                               out.string() + " --flops-per-second 0");
  EXPECT_EQ(zero.exit_code, 1);
  EXPECT_THAT(zero.err, HasSubstr("--flops-per-second"));
  const auto word = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                               out.string() + " --flops-per-second fast");
  EXPECT_EQ(word.exit_code, 1);
  EXPECT_THAT(word.err, HasSubstr("--flops-per-second"));
  EXPECT_FALSE(fs::exists(out / "index.txt"));
}

TEST(ExportCommand, UnwritableOutputIsNamed) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.write("plain", "x") / "ti";
  const auto r =
      run_mapsim("export " + trace.string() + " --format simgrid-ti --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(out.string()));
}

}  // namespace
}  // namespace mapsim
