// Numbers a communication matrix cannot fool mapsim with: totals past 2^63 - 1 (CSV and trace
// sums), rank counts past the limit or far above the rows given, a UTF-8 byte-order mark.

#include <cstdint>
#include <limits>
#include <malloc.h>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr std::uint64_t kMax = std::numeric_limits<std::int64_t>::max();

CommMatrix read(const std::string& text) {
  std::istringstream in(text);
  return read_matrix_csv(in, "m.csv");
}

std::string error_of(const std::string& text) {
  try {
    (void)read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(MatrixLimits, CsvTotalBytesAtTheLimitAreExact) {
  // 2^62 + (2^62 - 1) = 2^63 - 1: the largest total, summed without loss.
  const auto m =
      read("src,dst,messages,bytes\n0,1,1,4611686018427387904\n1,0,1,4611686018427387903\n");
  EXPECT_EQ(m.total(), (Traffic{2, kMax}));
}

TEST(MatrixLimits, CsvTotalBytesPastTheLimitAreRejectedWithTheLine) {
  // Each row fits an int64; their sum (2^64 - 1616) does not, and would wrap in the totals,
  // hop-bytes and Scotch's weights (a SIGFPE in the scotch and bisection mappers).
  const auto error = error_of(
      "# ranks=4\nsrc,dst,messages,bytes\n0,1,1,9223372036854775000\n"
      "1,2,1,9223372036854775000\n");
  EXPECT_THAT(error, AllOf(HasSubstr("m.csv:4:"), HasSubstr("total bytes are too large"),
                           HasSubstr("(limit 9223372036854775807")));
}

TEST(MatrixLimits, CsvTotalMessagesPastTheLimitAreRejected) {
  EXPECT_THAT(error_of("src,dst,messages,bytes\n0,1,9223372036854775807,0\n1,0,1,0\n"),
              AllOf(HasSubstr("m.csv:3:"), HasSubstr("total messages are too large")));
}

TEST(MatrixLimits, BuilderRejectsTraceSumsPastTheLimit) {
  // A trace's messages summed pair by pair: the second send of 2^62 bytes to the same partner
  // reaches 2^63, past the limit; the builder says so instead of wrapping.
  CommMatrixBuilder builder(2);
  builder.add(0, 1, 1, std::uint64_t{1} << 62);
  builder.add(1, 0, 1, (std::uint64_t{1} << 62) - 1);
  EXPECT_THROW(
      {
        try {
          builder.add(0, 1, 1, 1);
        } catch (const InputError& e) {
          EXPECT_THAT(e.what(), AllOf(HasSubstr("total bytes"), HasSubstr("9223372036854775807"),
                                      HasSubstr("from rank 0 to rank 1")));
          throw;
        }
      },
      InputError);
  // The failed add left the sums as they were: exactly at the limit.
  EXPECT_EQ(builder.build().total(), (Traffic{2, kMax}));
}

TEST(MatrixLimits, DeclaredRankCountAboveTheLimitIsRefused) {
  // Three lines declaring 2^24 ranks used to allocate 660 MB before anything else.
  EXPECT_THAT(error_of("# ranks=16777216\nsrc,dst,messages,bytes\n0,1,1,5\n"),
              HasSubstr("m.csv:1: ranks: 16777216 is too large (limit 1048576)"));
}

TEST(MatrixLimits, DeclaredRankCountCostsNoMemoryPerRank) {
  // Three lines declaring 2^20 ranks allocated 40 MB (a row per declared rank in the builder, an
  // offset per rank in the matrix); the matrix now stores rows up to the last one that sends,
  // so what it keeps is a few hundred bytes.
  const auto before = mallinfo2();
  const auto m = read("# ranks=1048576\nsrc,dst,messages,bytes\n2,1,3,100\n");
  const auto after = mallinfo2();
  const auto held = static_cast<std::int64_t>(after.uordblks + after.hblkhd) -
                    static_cast<std::int64_t>(before.uordblks + before.hblkhd);
  EXPECT_LT(held, 1 << 20);
  EXPECT_EQ(m.rank_count(), 1048576);
  EXPECT_EQ(m.at(2, 1), (Traffic{3, 100}));
  EXPECT_TRUE(m.destinations(1048575).empty());
  EXPECT_TRUE(m.traffic(3).empty());
  EXPECT_EQ(m.total(), (Traffic{3, 100}));
}

TEST(MatrixLimits, RowsPastTheLastSenderAreEmptyAndCompareEqual) {
  // The same traffic built with and without idle ranks after the last sender: equal matrices
  // of the same rank count whatever the order of the adds.
  CommMatrixBuilder a(6);
  a.add(0, 5, 1, 8);
  a.add(1, 0, 0, 0);  // an empty entry is dropped
  CommMatrixBuilder b(6);
  b.add(1, 0, 0, 0);
  b.add(0, 5, 1, 8);
  EXPECT_EQ(a.build(), b.build());
  EXPECT_EQ(a.build(), read("# ranks=6\nsrc,dst,messages,bytes\n0,5,1,8\n"));
  EXPECT_TRUE(a.build().destinations(5).empty());
  EXPECT_EQ(a.build().at(5, 0), Traffic{});
}

TEST(MatrixLimits, ReadsACsvWithAUtf8ByteOrderMark) {
  // Spreadsheet programs save CSV with a BOM before the first line, header or comment.
  EXPECT_EQ(read("\xEF\xBB\xBFsrc,dst,messages,bytes\n0,1,1,8\n").at(0, 1), (Traffic{1, 8}));
  const auto m = read("\xEF\xBB\xBF# ranks=3\nsrc,dst,messages,bytes\n0,1,1,8\n");
  EXPECT_EQ(m.rank_count(), 3);
}

TEST(MatrixLimits, TooLargeFieldsSayTheLimit) {
  EXPECT_THAT(error_of("src,dst,messages,bytes\n0,1,1,99999999999999999999\n"),
              AllOf(HasSubstr("m.csv:2: field 'bytes'"),
                    HasSubstr("99999999999999999999 is too large (limit 9223372036854775807)")));
  EXPECT_THAT(error_of("src,dst,messages,bytes\n1048576,1,1,1\n"),
              HasSubstr("field 'src': 1048576 is too large (limit 1048575)"));
}

}  // namespace
}  // namespace mapsim::traces
