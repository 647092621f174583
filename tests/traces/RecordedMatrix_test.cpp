// Matrices recorded by libmapsim-record: the point-to-point part as a CSV matrix, the collectives
// expanded as for a trace with the same calls, malformed files refused naming file and line.
// (tests/record/ runs the recorder itself.)

#include "traces/RecordedMatrix.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/TraceBuilder.hpp"
#include "traces/TraceMatrix.hpp"

namespace mapsim::traces {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

MatrixOptions with_collectives(bool collectives = true) {
  MatrixOptions options;
  options.collectives = collectives;
  return options;
}

CommMatrix read_text(const std::string& text, const MatrixOptions& options = with_collectives()) {
  std::istringstream in(text);
  return read_recorded_matrix(in, "rec.csv", options);
}

// The record header, 4 ranks, WORLD, and `rest`.
std::string record(const std::string& rest) {
  return "# mapsim-record 1\n# ranks=4\n# comm 0 0-3\n" + rest;
}

TEST(RecordedMatrix, EpClassSHandCounted) {
  // ep.S.5's calls (tests/traces/CollectiveTraffic_test.cpp counts them by hand): create-handle,
  // Bcast of 4 B from 0, Barrier, Allreduces of b = 8, 8, 80, 8 B, as the recorder writes them.
  // Dissemination (create-handle, Barrier): 15 messages of 0 B each; binomial Bcast: 4 of 4 B;
  // recursive-doubling Allreduce on 5 members: 10 of b. Total 74 messages, 1,056 bytes.
  std::string text = "# mapsim-record 1\n# ranks=5\n# comm 0 0-4\n";
  for (int r = 0; r < 5; ++r) {
    text += "# calls 0 " + std::to_string(r) +
            " create-handle:-1:0:0 Bcast:0:" + (r == 0 ? "20" : "0") +
            ":4 Barrier:-1:0:0 Allreduce:-1:40:40*2 Allreduce:-1:400:400 Allreduce:-1:40:40\n";
  }
  text += "src,dst,messages,bytes\n";
  const auto matrix = read_text(text);
  EXPECT_EQ(matrix.total(), (Traffic{74, 1056}));
  const auto trace = read_trace(std::string(MAPSIM_TEST_DATA_DIR) + "/npb/ep.S.5");
  EXPECT_EQ(matrix, collective_matrix(trace));
}

TEST(RecordedMatrix, CollectivesExpandUnderTheChosenAlgorithms) {
  // A barrier on 4 ranks: Open MPI's rules pick the linear barrier for 4 <= P < 8 (3 messages in,
  // 3 out) where MPICH disseminates (8 messages); as for a trace with the same calls.
  const auto text = record(
      "# calls 0 0 Barrier:-1:0:0\n# calls 0 1 Barrier:-1:0:0\n"
      "# calls 0 2 Barrier:-1:0:0\n# calls 0 3 Barrier:-1:0:0\n"
      "src,dst,messages,bytes\n");
  auto ompi = with_collectives();
  ompi.algorithms.selector = CollectiveSelector::Ompi;
  EXPECT_EQ(read_text(text, ompi).total(), (Traffic{6, 0}));
  std::istringstream in(text);
  EXPECT_EQ(read_matrix_file(in, "rec.csv", true, ompi.algorithms), read_text(text, ompi));
}

TEST(RecordedMatrix, PointToPointOnlyIsTheCsvMatrix) {
  const auto text = record(
      "# calls 0 0 Barrier:-1:0:0\n# calls 0 1 Barrier:-1:0:0\n"
      "# calls 0 2 Barrier:-1:0:0\n# calls 0 3 Barrier:-1:0:0\n"
      "src,dst,messages,bytes\n0,1,2,16\n3,2,1,8\n");
  std::istringstream csv(text);
  const auto plain = read_matrix_csv(csv, "rec.csv");
  EXPECT_EQ(plain.rank_count(), 4);
  EXPECT_EQ(plain.total(), (Traffic{3, 24}));
  EXPECT_EQ(read_text(text, with_collectives(false)), plain);
  // A barrier on 4 ranks: 2 dissemination steps of one 0-byte message per member.
  EXPECT_EQ(read_text(text).total(), (Traffic{3 + 8, 24}));
}

TEST(RecordedMatrix, RunsSplitDifferentlyPerMemberMatchCallByCall) {
  // Rank 0 calls Allreduce of 64 B (sent P b = 256) three times then Bcast from 2; rank 1 writes
  // the same as single calls; ranks 2 and 3 give their Allreduces different sizes (the schedule
  // spreads each member's payload). A sub-communicator {3, 1} in reverse order carries a Gather
  // to its rank 0 (world 3). Must equal matrix_with_collectives of the same calls.
  const auto text = record(
      "# comm 1 3 1\n"
      "# calls 0 0 create-handle:-1:0:0 Allreduce:-1:256:256*3 Bcast:2:0:10\n"
      "# calls 0 1 create-handle:-1:0:0 Allreduce:-1:256:256 Allreduce:-1:256:256 "
      "Allreduce:-1:256:256 Bcast:2:0:10\n"
      "# calls 0 2 create-handle:-1:0:0 Allreduce:-1:512:512 Allreduce:-1:256:256*2 "
      "Bcast:2:40:10\n"
      "# calls 0 3 create-handle:-1:0:0 Allreduce:-1:256:256*2 Allreduce:-1:40000:40000 "
      "Bcast:2:0:10\n"
      "# calls 1 1 Gather:3:100:0*2\n"
      "# calls 1 3 Gather:3:100:200*2\n"
      "src,dst,messages,bytes\n0,1,1,5\n");
  TraceBuilder builder("expected");
  builder.begin_trace(4, {{"MPI_COMM_WORLD", {0, 1, 2, 3}, -1}, {"pair", {3, 1}, 0}});
  for (Rank r = 0; r < 4; ++r) {
    builder.begin_rank(r);
    builder.init();
    for (int k = 0; k < 3; ++k) {
      const std::int64_t b = r == 2 && k == 0 ? 512 : r == 3 && k == 2 ? 40000 : 256;
      builder.collective(CollectiveOp::Allreduce, kWorld, -1, b, b);
    }
    builder.collective(CollectiveOp::Bcast, kWorld, 2, r == 2 ? 40 : 0, 10);
    if (r == 0) builder.send(1, 0, 5, kWorld);
    if (r % 2 == 1) {
      for (int k = 0; k < 2; ++k)
        builder.collective(CollectiveOp::Gather, 1, 3, 100, r == 3 ? 200 : 0);
    }
    builder.finalize();
    builder.end_rank();
  }
  builder.end_trace();
  const auto trace = builder.take();
  EXPECT_EQ(read_text(text), matrix_with_collectives(trace));
  EXPECT_EQ(read_text(text).collective_total(), matrix_with_collectives(trace).collective_total());
  // Other algorithm thresholds reach the schedule too.
  MatrixOptions ring = with_collectives();
  ring.algorithms.allreduce_ring_from = 1;
  EXPECT_EQ(read_text(text, ring), matrix_with_collectives(trace, ring.algorithms));
  EXPECT_NE(read_text(text, ring), read_text(text));
}

TEST(RecordedMatrix, ReadMatrixFileTellsRecordsFromPlainMatrices) {
  const TempDir dir;
  const auto plain = dir.write("plain.csv", "# ranks=2\nsrc,dst,messages,bytes\n0,1,1,8\n");
  EXPECT_EQ(read_matrix_file(plain), read_matrix_csv(plain));
  const auto recorded = dir.write("recorded.csv",
                                  "\xEF\xBB\xBF# mapsim-record 1\n# ranks=2\n# comm 0 0-1\n"
                                  "# calls 0 0 Barrier:-1:0:0\n# calls 0 1 Barrier:-1:0:0\n"
                                  "src,dst,messages,bytes\n0,1,1,8\n");
  // A barrier on 2 ranks: one 0-byte message each way.
  EXPECT_EQ(read_matrix_file(recorded).total(), (Traffic{3, 8}));
  EXPECT_EQ(read_matrix_file(recorded, false), read_matrix_csv(plain));
  EXPECT_EQ(read_recorded_matrix(recorded, with_collectives()), read_matrix_file(recorded));
  EXPECT_THROW(read_recorded_matrix(dir.path() / "absent.csv", with_collectives()), InputError);
  // Through a pipe, which cannot go back to the first line after reading it.
  const auto fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto* file : {&plain, &recorded}) {
    std::thread writer([&] { std::ofstream(fifo) << std::ifstream(*file).rdbuf(); });
    const auto matrix = read_matrix_file(fifo);
    writer.join();
    EXPECT_EQ(matrix, read_matrix_file(*file));
  }
}

struct Malformed {
  std::string name;
  std::string text;
  std::string error;
};

class RecordedMatrixRefuses : public ::testing::TestWithParam<Malformed> {};

TEST_P(RecordedMatrixRefuses, NamingFileAndLine) {
  try {
    read_text(GetParam().text);
    FAIL() << "no error for:\n" << GetParam().text;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(GetParam().error));
  }
}

const std::string kHeader = "src,dst,messages,bytes\n";
const std::string kBarriers =
    "# calls 0 0 Barrier:-1:0:0\n# calls 0 1 Barrier:-1:0:0\n# calls 0 2 Barrier:-1:0:0\n";

INSTANTIATE_TEST_SUITE_P(
    Inputs, RecordedMatrixRefuses,
    ::testing::Values(
        Malformed{"NoRecordHeader", "# ranks=4\n" + kHeader,
                  "rec.csv:1: expected the record header"},
        Malformed{"OtherVersion", "# mapsim-record 2\n" + kHeader,
                  "rec.csv:1: this mapsim reads record version 1"},
        Malformed{"HeaderTwice", record("# mapsim-record 1\n" + kHeader),
                  "rec.csv:4: the record header is given twice"},
        Malformed{"CommWithoutMembers", record("# comm 1\n" + kHeader),
                  "rec.csv:4: expected '# comm ID MEMBERS...'"},
        Malformed{"BackwardsRange", record("# comm 1 3-1\n" + kHeader),
                  "rec.csv:4: member range '3-1' runs backwards"},
        Malformed{"MemberNotANumber", record("# comm 1 x\n" + kHeader), "rec.csv:4: member 'x'"},
        Malformed{"CommTwice", record("# comm 0 1 2\n" + kHeader),
                  "rec.csv:4: communicator 0 is defined twice (first on line 3)"},
        Malformed{"MemberOutOfRange", record("# comm 1 2-4\n" + kHeader),
                  "rec.csv:4: communicator 1: rank 4 is out of range (the matrix has 4 ranks)"},
        Malformed{"MemberTwice", record("# comm 1 0 1 1\n" + kHeader),
                  "rec.csv:4: communicator 1: rank 1 is a member twice"},
        Malformed{"CallsWithoutRank", record("# calls 0\n" + kHeader),
                  "rec.csv:4: expected '# calls COMM RANK"},
        Malformed{"UnknownOperation", record("# calls 0 0 Allreduse:-1:0:0\n" + kHeader),
                  "rec.csv:4: call 'Allreduse:-1:0:0': unknown collective operation 'Allreduse'"},
        Malformed{"CallWithThreeFields", record("# calls 0 0 Bcast:0:8\n" + kHeader),
                  "rec.csv:4: call 'Bcast:0:8': expected OP:ROOT:SENT:RECEIVED[*TIMES], got 3"},
        Malformed{"NegativeSize", record("# calls 0 0 Bcast:0:-8:8\n" + kHeader),
                  "rec.csv:4: call 'Bcast:0:-8:8': sent bytes"},
        Malformed{"ZeroTimes", record("# calls 0 0 Bcast:0:8:8*0\n" + kHeader),
                  "rec.csv:4: call 'Bcast:0:8:8*0': times"},
        Malformed{"UndefinedComm", record("# calls 7 0 Barrier:-1:0:0\n" + kHeader),
                  "rec.csv:4: communicator 7 is not defined"},
        Malformed{"CallerNotAMember",
                  record("# comm 1 0 1\n# calls 1 3 Barrier:-1:0:0\n" + kHeader),
                  "rec.csv:5: rank 3 calls collectives on communicator 1, which it is not a "
                  "member of (line 4)"},
        Malformed{"CallsTwice", record(kBarriers + "# calls 0 0 Barrier:-1:0:0\n" + kHeader),
                  "rec.csv:7: the calls of rank 0 on communicator 0 are given twice (first on "
                  "line 4)"},
        Malformed{"MissingCalls", record(kBarriers + kHeader),
                  "communicator 0 (line 3): rank 0 made 1 collective calls but rank 3 made 0"},
        Malformed{"MoreCalls", record(kBarriers + "# calls 0 3 Barrier:-1:0:0*2\n" + kHeader),
                  "rec.csv:7: communicator 0 (line 3): rank 0 made 1 collective calls but rank 3 "
                  "made 2"},
        Malformed{"DifferentOperations", record(kBarriers + "# calls 0 3 Bcast:0:0:8\n" + kHeader),
                  "rec.csv:7: communicator 0, collective call 1: rank 0 calls Barrier (root -1) "
                  "but rank 3 calls Bcast (root 0)"},
        Malformed{
            "RootNotAMember",
            record("# comm 1 0 1\n# calls 1 0 Bcast:3:0:8\n# calls 1 1 Bcast:3:0:8\n" + kHeader),
            "rec.csv:5: communicator 1: Bcast with root 3, not a member"},
        Malformed{
            "RootedWithoutRoot",
            record("# comm 1 0 1\n# calls 1 0 Bcast:-1:0:8\n# calls 1 1 Bcast:-1:0:8\n" + kHeader),
            "rec.csv:5: communicator 1, collective call 1: Bcast on a communicator of 2 "
            "members has root -1"},
        Malformed{"BytesPast64Bits",
                  record("# comm 1 0 1\n# calls 1 0 Allreduce:-1:1000000:0*9223372036854775807\n"
                         "# calls 1 1 Allreduce:-1:1000000:0*9223372036854775807\n" +
                         kHeader),
                  "pass the matrix's limit"},
        Malformed{"BadCsvRow", record(kHeader + "0,1,x,8\n"), "rec.csv:5: field 'messages'"}),
    [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace mapsim::traces
