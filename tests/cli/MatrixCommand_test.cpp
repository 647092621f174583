// `mapsim matrix`: summaries of real traces and CSV matrices, CSV export, and every kind of bad
// input ending in a message that names the file (and the line and field for CSV) and exit 1.

#include <algorithm>
#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/Otf2TestArchive.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_mapsim;
using testing::TempDir;

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

TEST(MatrixCommand, SummarisesARealTrace) {
  // lu.S.8 (README): 8 ranks, 71,932 records, 11,298 messages of 6,610,368 bytes; a 4×2 grid
  // whose corner ranks have 2 neighbours and the others 3: 20 directed pairs.
  const auto r = run_mapsim("matrix " + kTraces + "npb/lu.S.8 --top 3 --p2p-only");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("ranks          8 "), HasSubstr("71932 OTF2 records"),
                           HasSubstr("point-to-point 11298 messages, 6610368 bytes"),
                           HasSubstr("matrix         8 ranks (8 active), 11298 messages, 6610368 "
                                     "bytes (point-to-point only)"),
                           HasSubstr("non-zero pairs 20 of 64"), HasSubstr("Allreduce 80"),
                           HasSubstr("heaviest pairs")));
  EXPECT_THAT(r.err, HasSubstr("the matrix leaves the input's 192 collective calls out"));
  // By default the matrix adds the collectives' messages (as the replay sends them) to the
  // point-to-point ones: 11298 + 382 messages, 6610368 + 6348 bytes.
  const auto all = run_mapsim("matrix " + kTraces + "npb/lu.S.8 --top 3");
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("matrix         8 ranks (8 active), 11680 messages, 6616716 "
                                 "bytes (point-to-point and collectives as the simulator sends "
                                 "them; collectives: 382 messages, 6348 bytes)"));
  EXPECT_TRUE(all.err.empty()) << all.err;
}

TEST(MatrixCommand, ExportsCsvThatReadsBackAsTheSameMatrix) {
  const TempDir dir;
  const auto trace = kTraces + "npb/cg.S.8/traces.otf2";
  const auto csv = dir.path() / "cg.csv";
  const auto r = run_mapsim("matrix " + trace + " --p2p-only --csv " + csv.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(traces::read_matrix_csv(csv), traces::read_matrix(trace));
  // And the CSV is an input of its own, with the same totals.
  const auto again = run_mapsim("matrix " + csv.string());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out,
              AllOf(HasSubstr("(CSV matrix)"), HasSubstr("23552 messages, 28065792 bytes"),
                    HasSubstr("4 self pairs")));
}

TEST(MatrixCommand, TopLimitsTheHeaviestPairs) {
  const TempDir dir;
  const auto csv = dir.write("m.csv", "src,dst,messages,bytes\n0,1,1,10\n1,0,1,30\n0,2,2,20\n");
  const auto r = run_mapsim("matrix " + csv.string() + " --top 2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // By bytes: 1 -> 0 (30), then 0 -> 2 (20); 0 -> 1 (10) is not listed.
  const auto pairs = r.out.substr(r.out.find("heaviest pairs"));
  EXPECT_THAT(pairs, AllOf(HasSubstr("     1      0            1               30"),
                           HasSubstr("     0      2            2               20"),
                           Not(HasSubstr("               10"))));
}

TEST(MatrixCommand, TraceWithoutMpiEventsSaysSo) {
  const TempDir dir;
  {
    testing::Otf2TestArchive a(dir.path() / "omp", 1, 1'000'000'000, 0, 1, /*mpi=*/false);
    a.enter(0, 0, "main");
    a.leave(0, 10, "main");
  }
  const auto r = run_mapsim("matrix " + (dir.path() / "omp").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("traces.otf2"), HasSubstr("no MPI events")));
}

TEST(MatrixCommand, ArchiveWithoutEventFiles) {
  const auto r = run_mapsim("matrix " + kTraces + "public/tauonk_btmz_B_8x4_DEFS_ONLY");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              AllOf(HasSubstr("mapsim matrix: error:"), HasSubstr("event files are missing")));
}

TEST(MatrixCommand, DamagedArchiveGivesOneMessageAndNothingFromLibotf2) {
  const TempDir dir;
  const auto copy = dir.path() / "lu";
  std::filesystem::copy(kTraces + "npb/lu.S.8", copy, std::filesystem::copy_options::recursive);
  std::filesystem::permissions(copy / "traces" / "2.evt", std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::add);
  std::filesystem::resize_file(copy / "traces" / "2.evt", 50'000);
  const auto r = run_mapsim("matrix " + copy.string());
  EXPECT_EQ(r.exit_code, 1);
  // libotf2 would print "[OTF2] ... error" lines of its own; its messages go into ours instead.
  EXPECT_THAT(r.err, AllOf(HasSubstr("mapsim matrix: error:"), HasSubstr("traces/2.evt"),
                           Not(HasSubstr("[OTF2]"))));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(MatrixCommand, MissingInput) {
  const auto r = run_mapsim("matrix /nonexistent/trace.otf2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("/nonexistent/trace.otf2"), HasSubstr("does not exist")));
}

// A generator spec gives the matrix of the archive `mapsim generate` writes for it, byte for
// byte: run in full (3 iterations) and extrapolated (7), with and without collectives.
TEST(MatrixCommand, GeneratorSpecGivesTheMatrixOfItsGeneratedArchive) {
  const TempDir dir;
  for (const std::string iterations : {"3", "7"}) {
    for (const std::string kernel : {"lu", "cg"}) {
      const auto archive = dir.path() / (kernel + iterations);
      const auto generated =
          run_mapsim("generate " + kernel + " --class S --ranks 4 --iterations " + iterations +
                     " --out " + archive.string());
      ASSERT_EQ(generated.exit_code, 0) << generated.err;
      const std::string spec = "npb:" + kernel + ":S:4:iterations=" + iterations;
      for (const std::string collectives : {"", " --collectives"}) {
        const auto from_archive =
            run_mapsim("matrix " + archive.string() + collectives + " --csv -");
        const auto from_spec = run_mapsim("matrix " + spec + collectives + " --csv -");
        ASSERT_EQ(from_archive.exit_code, 0) << from_archive.err;
        ASSERT_EQ(from_spec.exit_code, 0) << from_spec.err;
        EXPECT_EQ(from_spec.out, from_archive.out) << spec << collectives;
        EXPECT_THAT(from_spec.err,
                    HasSubstr("input          " + spec + " (generated: " + kernel + " class S"));
      }
    }
  }
}

TEST(MatrixCommand, BadGeneratorSpecsAreNamed) {
  const auto ranks = run_mapsim("matrix npb:lu:S:10");
  EXPECT_EQ(ranks.exit_code, 1);
  EXPECT_THAT(ranks.err, AllOf(HasSubstr("generator spec 'npb:lu:S:10'"),
                               HasSubstr("cannot run on 10 ranks")));
  const auto kernel = run_mapsim("matrix npb:lulesh:S:4");
  EXPECT_EQ(kernel.exit_code, 1);
  EXPECT_THAT(kernel.err, HasSubstr("generator spec 'npb:lulesh:S:4'"));
  const auto shape = run_mapsim("matrix npb:lu");
  EXPECT_EQ(shape.exit_code, 1);
  EXPECT_THAT(shape.err, HasSubstr("generator spec 'npb:lu'"));
}

TEST(MatrixCommand, CollectivesAddTheSimulatorsMessages) {
  // ep.S.5 has no point-to-point messages; its collectives are 74 messages of 1,056 bytes in
  // all (hand-counted in CollectiveTraffic_test.cpp).
  const auto r = run_mapsim("matrix --collectives " + kTraces + "npb/ep.S.5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("point-to-point 0 messages, 0 bytes"),
                           HasSubstr("74 messages, 1056 bytes (point-to-point and collectives")));
}

TEST(MatrixCommand, CollectivesNeedATrace) {
  const TempDir dir;
  const auto csv = dir.write("m.csv", "src,dst,messages,bytes\n0,1,1,10\n");
  const auto r = run_mapsim("matrix " + csv.string() + " --collectives");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--collectives needs a trace"));
}

TEST(MatrixCommand, BadTopIsACommandLineError) {
  const auto r = run_mapsim("matrix " + kTraces + "npb/is.S.2 --top many");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("--top"), HasSubstr("'many' is not an integer")));
}

// CSV errors, one each: the message names the file and line (and the field where there is one).
std::string csv_error(const TempDir& dir, const std::string& text) {
  const auto file = dir.write("bad.csv", text);
  const auto r = run_mapsim("matrix " + file.string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  return r.err;
}

TEST(MatrixCommandCsv, BadHeader) {
  const TempDir dir;
  EXPECT_THAT(csv_error(dir, "from,to,count,size\n0,1,1,8\n"),
              AllOf(HasSubstr("mapsim matrix: error:"), HasSubstr("bad.csv:1"),
                    HasSubstr("expected the header 'src,dst,messages,bytes'")));
}

TEST(MatrixCommandCsv, NegativeValue) {
  const TempDir dir;
  EXPECT_THAT(csv_error(dir, "src,dst,messages,bytes\n0,1,-3,8\n"),
              AllOf(HasSubstr("bad.csv:2"), HasSubstr("field 'messages'"), HasSubstr("-3")));
}

TEST(MatrixCommandCsv, NonNumericValue) {
  const TempDir dir;
  EXPECT_THAT(csv_error(dir, "src,dst,messages,bytes\n0,1,1,8\n1,0,1,lots\n"),
              AllOf(HasSubstr("bad.csv:3"), HasSubstr("field 'bytes'"),
                    HasSubstr("'lots' is not an integer")));
}

TEST(MatrixCommandCsv, RankOutOfRange) {
  const TempDir dir;
  EXPECT_THAT(csv_error(dir, "# ranks=4\nsrc,dst,messages,bytes\n0,1,1,8\n2,7,1,8\n"),
              AllOf(HasSubstr("bad.csv:4"), HasSubstr("field 'dst'"), HasSubstr("rank 7"),
                    HasSubstr("4 ranks")));
}

TEST(MatrixCommandCsv, DuplicatePair) {
  const TempDir dir;
  EXPECT_THAT(csv_error(dir, "src,dst,messages,bytes\n0,1,1,8\n1,0,1,8\n0,1,2,16\n"),
              AllOf(HasSubstr("bad.csv:4"), HasSubstr("duplicate pair 0 -> 1"),
                    HasSubstr("first on line 2")));
}

// With --csv -, standard output is the matrix alone (for pipes) and the summary goes to
// standard error; the CSV reads back as the matrix the trace gives.
TEST(MatrixCommand, CsvToStandardOutputIsTheMatrixAlone) {
  const TempDir dir;
  const auto r = run_mapsim("matrix " + kTraces + "npb/lu.S.8 --csv -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("# ranks=8\nsrc,dst,messages,bytes\n") ||
              r.out.starts_with("src,dst,messages,bytes\n"))
      << r.out.substr(0, 80);
  EXPECT_THAT(r.out, Not(HasSubstr("ranks          ")));
  EXPECT_THAT(r.err, HasSubstr("non-zero pairs"));
  const auto csv = dir.write("lu.csv", r.out);
  traces::TraceReader reader(kTraces + "npb/lu.S.8");
  traces::MatrixOptions with_collectives;
  with_collectives.collectives = true;
  EXPECT_EQ(traces::read_matrix_csv(csv), traces::read_matrix(reader, with_collectives));
}

}  // namespace
}  // namespace mapsim
