// The real Score-P traces in tests/data: each loads and matches the summary its
// README gives (ranks, OTF2 event records, point-to-point messages and bytes), every message has
// its receive, the model's invariants hold, and the streamed matrix equals the stored trace's.

#include <cctype>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/traces/TraceChecks.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

/// One row of the README's tables. "events" there is the number of OTF2 event records of every
/// kind on every location (the sum of the locations' event counts in the definitions).
struct Expected {
  const char* path;
  Rank ranks;
  std::uint64_t records;
  std::uint64_t messages;
  std::uint64_t bytes;
};

// Copied from tests/data/README.md.
const Expected kReadme[] = {
    {"npb/lu.S.8", 8, 71'932, 11'298, 6'610'368},
    {"npb/lu.S.12", 12, 122'081, 19'203, 8'263'008},
    {"npb/bt.S.9", 9, 107'667, 9'936, 31'628'880},
    {"npb/sp.S.4", 4, 44'924, 4'872, 14'807'040},
    {"npb/sp.S.9", 9, 155'619, 16'416, 29'614'080},
    {"npb/cg.S.8", 8, 212'208, 23'552, 28'065'792},
    {"npb/mg.S.8", 8, 35'416, 3'552, 2'795'776},
    {"npb/mg.S.24", 24, 67'416, 6'704, 3'890'944},
    {"npb/ft.S.12", 12, 1'298, 0, 0},
    {"npb/is.S.2", 2, 333, 1, 4},
    {"npb/ep.S.5", 5, 210, 0, 0},
    {"public/pipit_ping-pong-otf2", 2, 120, 16, 8'355'840},
    {"public/pipit_ping-pong-otf2-papi", 2, 204, 16, 8'355'840},
    {"public/sstmacro_otf2_test_traces", 10, 22'180, 1'440, 23'592'600},
    {"public/tracer_stencil4d_32", 32, 4'324, 512, 67'108'864},
    {"public/casita_10_scorep_mpi_tags", 10, 428, 18, 72},
    {"public/casita_4_mpi_ls_barr", 4, 110, 3, 12},
    {"public/casita_2_jacobi_blame_cpu_015", 2, 300'816, 2'000, 32'752'000},
    {"public/casita_1_xeonphi_jacobi_01", 1, 11'770, 0, 0},
};

class RealTrace : public ::testing::TestWithParam<Expected> {};

TEST_P(RealTrace, MatchesItsReadmeSummary) {
  const Expected& expected = GetParam();
  TraceReader reader(kTraces + expected.path);
  const Trace trace = reader.read_trace();
  const TraceSummary& summary = reader.summary();
  EXPECT_EQ(trace.rank_count(), expected.ranks);
  EXPECT_EQ(summary.ranks, expected.ranks);
  EXPECT_EQ(summary.records, expected.records);
  EXPECT_EQ(summary.point_to_point, (Traffic{expected.messages, expected.bytes}));
  EXPECT_EQ(point_to_point_matrix(trace).total(), (Traffic{expected.messages, expected.bytes}));
  EXPECT_EQ(trace.event_count(), summary.mpi_events());
  EXPECT_EQ(trace.communicators[trace.world].members.size(),
            static_cast<std::size_t>(expected.ranks));
}

TEST_P(RealTrace, EveryMessageHasAReceiveOfTheSameSize) {
  const Trace trace = read_trace(kTraces + GetParam().path);
  EXPECT_THAT(testing::unmatched_messages(trace), ::testing::IsEmpty());
}

TEST_P(RealTrace, KeepsTheModelInvariants) {
  const Trace trace = read_trace(kTraces + GetParam().path);
  EXPECT_THAT(testing::model_violations(trace), ::testing::IsEmpty());
}

TEST_P(RealTrace, StreamedMatrixEqualsTheStoredTracesMatrix) {
  const auto path = kTraces + GetParam().path;
  EXPECT_EQ(read_matrix(path), point_to_point_matrix(read_trace(path)));
}

TEST_P(RealTrace, ComputeTimeFitsInTheTrace) {
  // Gaps are computation between MPI calls: per rank they cannot add up to more than the
  // trace's length (converted to ps with the timer resolution; 1 ps of rounding per event).
  TraceReader reader(kTraces + GetParam().path);
  const Trace trace = reader.read_trace();
  const auto& summary = reader.summary();
  const auto length_ps = static_cast<double>(summary.trace_length) * 1e12 /
                         static_cast<double>(summary.timer_resolution);
  for (const auto& stream : trace.ranks) {
    std::int64_t compute = stream.final_gap;
    for (const auto& event : stream.events) compute += event.gap;
    EXPECT_LE(static_cast<double>(compute), length_ps + static_cast<double>(stream.events.size()));
  }
}

INSTANTIATE_TEST_SUITE_P(Readme, RealTrace, ::testing::ValuesIn(kReadme),
                         [](const auto& param_info) {
                           std::string name = param_info.param.path;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(RealTraces, ArchiveWithoutEventFilesFailsNamingTheMissingDirectory) {
  const auto path = kTraces + "public/tauonk_btmz_B_8x4_DEFS_ONLY";
  try {
    (void)read_trace(path);
    FAIL() << "read an archive without event files";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("tauonk_btmz_B_8x4_DEFS_ONLY/traces.otf2"),
                                HasSubstr("event files are missing"),
                                HasSubstr("tauonk_btmz_B_8x4_DEFS_ONLY/traces'")));
  }
}

}  // namespace
}  // namespace mapsim::traces
