// Summary statistics of a communication matrix, on a hand-made matrix.

#include "traces/MatrixStatistics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mapsim::traces {
namespace {

using ::testing::ElementsAre;

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

}  // namespace
}  // namespace mapsim::traces
