// `mapsim simulate` without holding the trace: a generator spec is replayed as it is generated
// and gives what the archive written by `mapsim generate` gives; an archive streamed in windows
// (`--read stream`) gives what the archive read into memory gives; bad --read values and
// contradictions are errors naming them.

#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/CsvText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using testing::csv_cell;
using ::testing::HasSubstr;
using testing::run_mapsim;

const std::string kData = std::string(MAPSIM_TEST_DATA_DIR) + "/";

// Every measured column of the rows (not the wall times, which differ run to run).
const std::vector<std::string> kMeasured{
    "mapping",          "makespan_ps",          "mpi_time_max_ps",
    "mpi_time_mean_ps", "link_utilisation_max", "links_used",
    "messages",         "message_bytes",        "unmatched_messages",
    "collective_calls", "collective_messages",  "collective_bytes",
    "latency_count",    "latency_mean_ps",      "latency_p99_ps",
    "trace_events",     "engine_events",        "error"};

void expect_same_rows(const std::string& a, const std::string& b, std::size_t rows) {
  for (std::size_t row = 0; row < rows; ++row) {
    for (const auto& column : kMeasured) {
      EXPECT_EQ(csv_cell(a, row, column), csv_cell(b, row, column))
          << "row " << row << ", " << column;
    }
  }
}

TEST(SimulateStreams, AGeneratorSpecReplaysAsTheArchiveItWouldWrite) {
  testing::TempDir dir;
  const auto archive = (dir.path() / "lu").string();
  ASSERT_EQ(run_mapsim("generate lu --class S --ranks 8 --iterations 3 --out " + archive).exit_code,
            0);
  const std::string rest =
      " --topology torus:2x2x2 --mapper in-order,random,greedy --compute-scale 0 --format csv";
  const auto from_spec = run_mapsim("simulate --trace npb:lu:S:8:iterations=3" + rest);
  const auto from_archive = run_mapsim("simulate --trace " + archive + rest);
  ASSERT_EQ(from_spec.exit_code, 0) << from_spec.err;
  ASSERT_EQ(from_archive.exit_code, 0) << from_archive.err;
  expect_same_rows(from_spec.out, from_archive.out, 3);
  // Three replays share it: generated once and held.
  EXPECT_EQ(csv_cell(from_spec.out, 0, "read"), "generated in memory");
  EXPECT_EQ(csv_cell(from_spec.out, 0, "trace"), "generated: lu class S, 8 ranks, 3 iterations");
  EXPECT_NE(csv_cell(from_spec.out, 0, "trace_events"), "0");
}

TEST(SimulateStreams, AGeneratorSpecHeldOrGeneratedPerReplayReplaysTheSame) {
  const std::string spec = "simulate --trace npb:cg:S:8:iterations=2 --topology torus:2x2x2";
  const std::string several = " --mapper in-order,random --compute-scale 0 --format csv";
  const auto held = run_mapsim(spec + several);
  const auto streamed = run_mapsim(spec + several + " --read stream");
  const auto forced =
      run_mapsim(spec + " --mapper random --compute-scale 0 --format csv --read memory");
  const auto one = run_mapsim(spec + " --mapper random --compute-scale 0 --format csv");
  for (const auto* r : {&held, &streamed, &forced, &one}) ASSERT_EQ(r->exit_code, 0) << r->err;
  expect_same_rows(held.out, streamed.out, 2);
  expect_same_rows(forced.out, one.out, 1);
  EXPECT_EQ(csv_cell(held.out, 0, "read"), "generated in memory");
  EXPECT_EQ(csv_cell(streamed.out, 0, "read"), "generated");
  EXPECT_EQ(csv_cell(forced.out, 0, "read"), "generated in memory");
  EXPECT_EQ(csv_cell(one.out, 0, "read"), "generated");  // one replay: generated as it goes
}

TEST(SimulateStreams, AHeldGeneratorSpecsMatrixIsTheOneItsOptionsAskFor) {
  // Held, the spec's matrix is computed once to decide that, and the mappers get that one; so
  // greedy (which maps by the matrix) must map as when the matrix is computed for it alone
  // (--read stream), with collectives counted (FT's are all its traffic), left out, or under
  // Open MPI's algorithms.
  const std::string spec =
      "simulate --trace npb:ft:S:8:iterations=1 --topology torus:2x2x2 --mapper greedy,in-order "
      "--compute-scale 0 --format csv";
  std::vector<std::string> greedy;
  for (const char* matrix : {"", " --p2p-only", " --collectives ompi"}) {
    SCOPED_TRACE(matrix);
    const auto held = run_mapsim(spec + matrix);
    const auto streamed = run_mapsim(spec + matrix + " --read stream");
    ASSERT_EQ(held.exit_code, 0) << held.err;
    ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
    EXPECT_EQ(csv_cell(held.out, 0, "read"), "generated in memory");
    expect_same_rows(held.out, streamed.out, 2);
    greedy.push_back(csv_cell(held.out, 0, "makespan_ps"));
  }
  // The matrices differ enough to move greedy's mapping: a wrong matrix would show.
  EXPECT_NE(greedy[0], greedy[1]);
}

TEST(SimulateStreams, AnArchiveStreamedReplaysAsTheArchiveInMemory) {
  for (const char* trace :
       {"npb/lu.S.8", "npb/cg.S.8", "npb/ft.S.12", "public/tracer_stencil4d_32"}) {
    SCOPED_TRACE(trace);
    const std::string rest = " --topology torus:4x4x2 --mapper in-order,random --format csv";
    const auto memory = run_mapsim("simulate --trace " + kData + trace + " --read memory" + rest);
    const auto stream = run_mapsim("simulate --trace " + kData + trace + " --read stream" + rest);
    ASSERT_EQ(memory.exit_code, 0) << memory.err;
    ASSERT_EQ(stream.exit_code, 0) << stream.err;
    expect_same_rows(memory.out, stream.out, 2);
    EXPECT_EQ(csv_cell(memory.out, 0, "read"), "memory");
    EXPECT_EQ(csv_cell(stream.out, 0, "read"), "stream");
  }
}

TEST(SimulateStreams, SmallArchivesAreReadIntoMemoryByDefault) {
  const auto r = run_mapsim("simulate --trace " + kData + "npb/lu.S.8 --topology torus:2x2x2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("read: memory"));
}

TEST(SimulateStreams, BadReadModesAreErrorsNamingThem) {
  const auto bad =
      run_mapsim("simulate --trace " + kData + "npb/lu.S.8 --topology torus:2x2x2 --read streem");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("--read: unknown mode 'streem'"));
  EXPECT_THAT(bad.err, HasSubstr("stream"));
  const auto wrong = run_mapsim("simulate --trace npb:lu:S:7 --topology torus:2x2");
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_THAT(wrong.err, HasSubstr("generator spec 'npb:lu:S:7'"));
  const auto big = run_mapsim("simulate --trace npb:lu:S:16 --topology torus:2x2");
  EXPECT_EQ(big.exit_code, 1);
  EXPECT_THAT(big.err, HasSubstr("16 ranks do not fit on torus:2x2"));
}

TEST(SimulateStreams, TooFewOpenFilesForTheRanksIsAnErrorSayingWhatToDo) {
  // 32 ranks need 32 event files open at once; a limit of 40 (soft and hard) leaves too few.
  testing::TempDir dir;
  const auto err = dir.path() / "err";
  const std::string command = "ulimit -n 40 && exec " + std::string(MAPSIM_BINARY) +
                              " simulate --trace " + kData +
                              "public/tracer_stencil4d_32 --topology torus:4x4x2 --read stream "
                              ">/dev/null 2>" +
                              err.string();
  const int status = std::system(("sh -c '" + command + "'").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const auto message = testing::read_file(err);
  EXPECT_THAT(message, HasSubstr("streaming its 32 ranks keeps an event file open per rank"));
  EXPECT_THAT(message, HasSubstr("--read memory"));
  // Read into memory, the same archive replays under the same limit.
  const std::string memory = "ulimit -n 40 && exec " + std::string(MAPSIM_BINARY) +
                             " simulate --trace " + kData +
                             "public/tracer_stencil4d_32 --topology torus:4x4x2 --read memory "
                             ">/dev/null 2>&1";
  EXPECT_EQ(std::system(("sh -c '" + memory + "'").c_str()), 0);
}

}  // namespace
}  // namespace mapsim
