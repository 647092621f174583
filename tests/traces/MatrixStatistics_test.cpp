// Summary statistics of a communication matrix, on a hand-made matrix.

#include "traces/MatrixStatistics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mapsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// 4 ranks: 0 -> 1 (2 msgs, 100 B), 0 -> 2 (1, 10), 1 -> 0 (1, 100), 2 -> 2 (3, 30: to itself),
// rank 3 idle.
CommMatrix example() {
  CommMatrixBuilder builder(4);
  builder.add(0, 1, 2, 100);
  builder.add(0, 2, 1, 10);
  builder.add(1, 0, 1, 100);
  builder.add(2, 2, 3, 30);
  return builder.build();
}

TEST(MatrixStatistics, TotalsSelfTrafficAndActiveRanks) {
  const auto s = matrix_statistics(example());
  EXPECT_EQ(s.ranks, 4);
  EXPECT_EQ(s.nonzero_pairs, 4u);
  EXPECT_EQ(s.self_pairs, 1u);
  EXPECT_EQ(s.total, (Traffic{7, 240}));
  EXPECT_EQ(s.self, (Traffic{3, 30}));
  EXPECT_EQ(s.active_ranks, 3);  // rank 3 neither sends nor receives
}

TEST(MatrixStatistics, PerRankDegreesLeaveOutTheRankItself) {
  const auto s = matrix_statistics(example());
  // Rank 2 sends only to itself: out-degree 0, in-degree 1 (from 0); its traffic counts the
  // self messages both ways.
  EXPECT_THAT(s.per_rank,
              ElementsAre(RankTraffic{0, 2, 1, {3, 110}, {1, 100}},
                          RankTraffic{1, 1, 1, {1, 100}, {2, 100}},
                          RankTraffic{2, 0, 1, {3, 30}, {4, 40}}, RankTraffic{3, 0, 0, {}, {}}));
  // Out-degrees 2, 1, 0, 0: min 0, mean 3/4, max 2. Bytes sent 110, 100, 30, 0: mean 60.
  EXPECT_DOUBLE_EQ(s.out_degree.min, 0);
  EXPECT_DOUBLE_EQ(s.out_degree.mean, 0.75);
  EXPECT_DOUBLE_EQ(s.out_degree.max, 2);
  EXPECT_DOUBLE_EQ(s.sent_bytes.mean, 60);
  EXPECT_DOUBLE_EQ(s.received_bytes.max, 100);
}

TEST(MatrixStatistics, HeaviestPairsByBytesThenMessagesThenRanks) {
  // 0 -> 1 and 1 -> 0 both carry 100 B; 0 -> 1 has more messages, so it comes first.
  EXPECT_THAT(matrix_statistics(example(), 3).heaviest,
              ElementsAre(PairTraffic{0, 1, {2, 100}}, PairTraffic{1, 0, {1, 100}},
                          PairTraffic{2, 2, {3, 30}}));
  EXPECT_EQ(matrix_statistics(example(), 10).heaviest.size(), 4u);  // only 4 pairs exist
  EXPECT_TRUE(matrix_statistics(example(), 0).heaviest.empty());
}

TEST(MatrixStatistics, EmptyMatrix) {
  const auto s = matrix_statistics(CommMatrix(3));
  EXPECT_EQ(s.total, (Traffic{}));
  EXPECT_EQ(s.active_ranks, 0);
  EXPECT_DOUBLE_EQ(s.in_degree.max, 0);
  EXPECT_TRUE(s.heaviest.empty());
}

// The caveats of the mappers' matrix, by hand: 240 bytes of point-to-point traffic (example())
// plus collectives' messages of chosen sizes.
CommMatrix with_collective_bytes(std::uint64_t bytes) {
  CommMatrixBuilder builder(4);
  builder.add(0, 1, 2, 100);
  builder.add(0, 2, 1, 10);
  builder.add(1, 0, 1, 100);
  builder.add(2, 2, 3, 30);
  builder.add_collective(3, 0, 1, bytes);
  return builder.build();
}

TEST(MatrixCaveats, NoneWhenPointToPointTrafficIsTenPercentOrMore) {
  // 240 of 2,400 bytes: exactly 10 %, not below.
  const auto m = with_collective_bytes(2'160);
  EXPECT_EQ(m.collective_total(), (Traffic{1, 2'160}));
  EXPECT_EQ(m.total(), (Traffic{8, 2'400}));
  EXPECT_THAT(matrix_caveats(m, true, 5, "--p2p-only"), IsEmpty());
  EXPECT_THAT(matrix_caveats(example(), true, 0, "--p2p-only"), IsEmpty());
  EXPECT_THAT(matrix_caveats(example(), false, 0, "--p2p-only"), IsEmpty());
}

TEST(MatrixCaveats, PointToPointUnderTenPercentIsANote) {
  // 240 of 2,401 bytes: 9.996 %.
  const auto caveats = matrix_caveats(with_collective_bytes(2'161), true, 5, "--p2p-only");
  ASSERT_EQ(caveats.size(), 1U);
  EXPECT_FALSE(caveats[0].warning);
  EXPECT_THAT(caveats[0].text, HasSubstr("point-to-point messages are 10.0 % of the matrix's "
                                         "bytes; the rest are the collectives' messages"));
  EXPECT_THAT(caveats[0].text, HasSubstr("(--p2p-only leaves them out)"));
}

TEST(MatrixCaveats, OnlyCollectivesIsANote) {
  CommMatrixBuilder builder(2);
  builder.add_collective(0, 1, 3, 24);
  const auto caveats = matrix_caveats(builder.build(), true, std::nullopt, "X");
  ASSERT_EQ(caveats.size(), 1U);
  EXPECT_FALSE(caveats[0].warning);
  EXPECT_THAT(caveats[0].text, HasSubstr("the input sends no point-to-point bytes"));
}

TEST(MatrixCaveats, EmptyOrByteLessMatrixIsAWarningThatSaysWhy) {
  const auto empty = matrix_caveats(CommMatrix(3), false, 12, "matrix: {collectives: false}");
  ASSERT_EQ(empty.size(), 1U);
  EXPECT_TRUE(empty[0].warning);
  EXPECT_THAT(empty[0].text, HasSubstr("the matrix is empty: every placement has hop-bytes 0"));
  EXPECT_THAT(empty[0].text, HasSubstr("matrix: {collectives: false} leaves the input's 12 "
                                       "collective calls out, drop it"));
  // Collectives included, or none to leave out: nothing to drop.
  EXPECT_THAT(matrix_caveats(CommMatrix(3), true, 12, "--p2p-only")[0].text,
              Not(HasSubstr("leaves")));
  EXPECT_THAT(matrix_caveats(CommMatrix(3), false, 0, "--p2p-only")[0].text,
              Not(HasSubstr("leaves")));
  // Unknown calls: there may be some.
  EXPECT_THAT(matrix_caveats(CommMatrix(3), false, std::nullopt, "--p2p-only")[0].text,
              HasSubstr("leaves the input's collective calls out"));
  CommMatrixBuilder zero(2);
  zero.add(0, 1, 4, 0);
  const auto byteless = matrix_caveats(zero.build(), true, 0, "--p2p-only");
  ASSERT_EQ(byteless.size(), 1U);
  EXPECT_TRUE(byteless[0].warning);
  EXPECT_THAT(byteless[0].text, HasSubstr("carries no bytes (4 empty messages)"));
}

TEST(MatrixCaveats, CollectivesLeftOutAreANoteWhenTheCountIsKnown) {
  const auto caveats = matrix_caveats(example(), false, 7, "--p2p-only");
  ASSERT_EQ(caveats.size(), 1U);
  EXPECT_FALSE(caveats[0].warning);
  EXPECT_EQ(caveats[0].text,
            "the matrix leaves the input's 7 collective calls out (--p2p-only), though the "
            "replay sends their messages");
}

}  // namespace
}  // namespace mapsim::traces
