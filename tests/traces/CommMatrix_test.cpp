#include "traces/CommMatrix.hpp"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/RecordedMatrix.hpp"
#include "traces/TraceMatrix.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::TempDir;

CommMatrix small_matrix() {
  // 0 -> 1 twice (10 + 30 bytes), 0 -> 2 once, 2 -> 0 once, 3 idle; added out of order.
  CommMatrixBuilder builder(4);
  builder.add(0, 2, 1, 7);
  builder.add(0, 1, 1, 10);
  builder.add(2, 0, 1, 5);
  builder.add(0, 1, 1, 30);
  return builder.build();
}

TEST(CommMatrix, BuilderSumsPairsIntoSortedRows) {
  const auto m = small_matrix();
  EXPECT_EQ(m.rank_count(), 4);
  EXPECT_EQ(m.nonzero_count(), 3u);
  EXPECT_EQ(std::vector<Rank>(m.destinations(0).begin(), m.destinations(0).end()),
            (std::vector<Rank>{1, 2}));
  EXPECT_EQ(m.at(0, 1), (Traffic{2, 40}));
  EXPECT_EQ(m.at(0, 2), (Traffic{1, 7}));
  EXPECT_EQ(m.at(2, 0), (Traffic{1, 5}));
  EXPECT_EQ(m.at(1, 0), (Traffic{}));
  EXPECT_TRUE(m.destinations(3).empty());
  EXPECT_EQ(m.total(), (Traffic{4, 52}));
}

TEST(CommMatrix, CsvRoundTripKeepsIdleRanks) {
  const TempDir dir;
  const auto m = small_matrix();
  write_matrix_csv(m, dir.path() / "m.csv");
  EXPECT_EQ(read_matrix_csv(dir.path() / "m.csv"), m);  // rank 3 sends nothing but is kept
}

TEST(CommMatrix, CsvRankCountFromLargestRankOrCaller) {
  const TempDir dir;
  const auto file = dir.write("m.csv", "src,dst,messages,bytes\n0,5,1,8\n");
  EXPECT_EQ(read_matrix_csv(file).rank_count(), 6);
  EXPECT_EQ(read_matrix_csv(file, 8).rank_count(), 8);
}

std::string csv_error(const std::string& text, std::optional<Rank> ranks = {}) {
  const TempDir dir;
  const auto file = dir.write("bad.csv", text);
  try {
    (void)read_matrix_csv(file, ranks);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CommMatrix, RejectsMissingFile) {
  EXPECT_THROW((void)read_matrix_csv("/nonexistent/m.csv"), InputError);
}

TEST(CommMatrix, RejectsBadHeader) {
  EXPECT_THAT(
      csv_error("source,dest,msgs,bytes\n0,1,1,1\n"),
      AllOf(HasSubstr("bad.csv:1"), HasSubstr("expected the header 'src,dst,messages,bytes'")));
  EXPECT_THAT(csv_error("# only a comment\n"),
              HasSubstr("header 'src,dst,messages,bytes' is missing"));
}

TEST(CommMatrix, RejectsNegativeValue) {
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n0,1,1,-8\n"),
              AllOf(HasSubstr("bad.csv:2"), HasSubstr("field 'bytes'"), HasSubstr("-8")));
}

TEST(CommMatrix, RejectsNonNumericValue) {
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n0,1,1,8\n0,two,1,8\n"),
              AllOf(HasSubstr("bad.csv:3"), HasSubstr("field 'dst'"),
                    HasSubstr("'two' is not an integer")));
}

TEST(CommMatrix, RejectsWrongFieldCount) {
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n0,1,1\n"),
              AllOf(HasSubstr("bad.csv:2"), HasSubstr("got 3")));
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n0,1,1,2,3\n"), HasSubstr("got more"));
}

TEST(CommMatrix, RejectsRankOutOfRange) {
  EXPECT_THAT(csv_error("# ranks=4\nsrc,dst,messages,bytes\n0,4,1,8\n"),
              AllOf(HasSubstr("bad.csv:3"), HasSubstr("field 'dst': rank 4 is out of range")));
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n7,0,1,8\n", 4), HasSubstr("field 'src': rank 7"));
  EXPECT_THAT(csv_error("# ranks=4\nsrc,dst,messages,bytes\n", 8),
              HasSubstr("declares ranks=4 but 8"));
}

TEST(CommMatrix, RejectsRankBeyondTheLimit) {
  // Rank numbers size per-rank tables: one line must not make the reader allocate 2^31 rows.
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n2000000000,0,1,1\n"),
              AllOf(HasSubstr("bad.csv:2: field 'src'"), HasSubstr("too large (limit 1048575)")));
  EXPECT_THAT(csv_error("# ranks=2000000000\nsrc,dst,messages,bytes\n"),
              HasSubstr("ranks: 2000000000 is too large (limit 1048576)"));
}

TEST(CommMatrix, ReadsFromAStream) {
  std::istringstream in("src,dst,messages,bytes\n1,0,2,16\n");
  const auto m = read_matrix_csv(in, "<input>");
  EXPECT_EQ(m.at(1, 0), (Traffic{2, 16}));
  std::istringstream bad("src,dst\n");
  try {
    (void)read_matrix_csv(bad, "<input>");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("<input>:1: expected the header"));
  }
}

TEST(CommMatrix, RejectsDuplicatePair) {
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n0,1,1,8\n1,0,1,8\n0,1,2,16\n"),
              AllOf(HasSubstr("bad.csv:4"), HasSubstr("duplicate pair 0 -> 1 (first on line 2)")));
}

TEST(CommMatrix, RejectsBytesWithoutMessages) {
  EXPECT_THAT(csv_error("src,dst,messages,bytes\n0,1,0,8\n"),
              HasSubstr("8 bytes from 0 to 1 but 0 messages"));
}

TEST(CommMatrix, PointToPointMatrixOfATraceCountsSendsOnly) {
  // Rank 0 sends 8 B to 1 (blocking) and 16 B to 1 (Isend); rank 1 receives both and sends 4 B to
  // itself; a collective moves no point-to-point traffic.
  Trace trace;
  trace.communicators.push_back({"MPI_COMM_WORLD", {0, 1}});
  trace.ranks.resize(2);
  Event send{.bytes = 8, .peer = 1, .kind = EventKind::Send};
  Event isend{.bytes = 16, .peer = 1, .request = 1, .kind = EventKind::Isend};
  Event allreduce{
      .bytes = 8, .received = 8, .kind = EventKind::Collective, .op = CollectiveOp::Allreduce};
  trace.ranks[0].events = {send, isend, allreduce};
  Event recv{.bytes = 8, .peer = 0, .kind = EventKind::Recv};
  Event self{.bytes = 4, .peer = 1, .kind = EventKind::Send};
  trace.ranks[1].events = {recv, recv, self, allreduce};
  const auto m = point_to_point_matrix(trace);
  EXPECT_EQ(m.at(0, 1), (Traffic{2, 24}));
  EXPECT_EQ(m.at(1, 1), (Traffic{1, 4}));
  EXPECT_EQ(m.nonzero_count(), 2u);
}

// A directory opens as a stream that reads nothing: without the check it read as an empty file.
TEST(CommMatrix, ADirectoryIsNotAMatrixFile) {
  const TempDir dir;
  const auto expected = "matrix file '" + dir.path().string() + "' is a directory, not a file";
  EXPECT_THAT([&] { (void)read_matrix_csv(dir.path()); },
              ::testing::ThrowsMessage<InputError>(HasSubstr(expected)));
  EXPECT_THAT([&] { (void)read_matrix_file(dir.path(), true, {}); },
              ::testing::ThrowsMessage<InputError>(HasSubstr(expected)));
  EXPECT_THAT([&] { (void)read_matrix_csv(dir.path() / "missing.csv"); },
              ::testing::ThrowsMessage<InputError>(
                  AllOf(HasSubstr("cannot open matrix file"), HasSubstr("No such file"))));
}

}  // namespace
}  // namespace mapsim::traces
