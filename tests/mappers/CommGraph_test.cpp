#include "mappers/CommGraph.hpp"

#include <gtest/gtest.h>

#include "tests/mappers/TestMatrices.hpp"

namespace mapsim::map {
namespace {

TEST(CommGraph, KeepsBothDirectionsApartAndDropsSelfMessages) {
  traces::CommMatrixBuilder builder(3);
  builder.add(0, 2, 2, 100);
  builder.add(2, 0, 1, 7);
  builder.add(1, 0, 1, 10);
  builder.add(1, 1, 5, 50);  // self: never on a link
  const CommGraph graph(builder.build());
  ASSERT_EQ(graph.rank_count(), 3);
  EXPECT_EQ(graph.edge_count(), 2u);  // {0,1} and {0,2}
  const auto n0 = graph.neighbors(0);
  ASSERT_EQ(n0.size(), 2u);
  EXPECT_EQ(n0[0].rank, 1);
  EXPECT_EQ(n0[0].bytes_out, 0u);
  EXPECT_EQ(n0[0].bytes_in, 10u);
  EXPECT_EQ(n0[1].rank, 2);
  EXPECT_EQ(n0[1].bytes_out, 100u);
  EXPECT_EQ(n0[1].bytes_in, 7u);
  EXPECT_EQ(n0[1].messages(), 3u);
  EXPECT_EQ(graph.degree(1), 1);  // the self-loop is gone
  EXPECT_EQ(graph.bytes(0), 117u);
  EXPECT_EQ(graph.bytes(1), 10u);
  EXPECT_EQ(graph.max_degree(), 2);
}

TEST(CommGraph, HeavyDropsThePairsUnderAShareOfTheHeaviest) {
  // Pairs {0,1}: 1000 B, {1,2}: 600 + 400 B, {0,2}: 9 B, {2,3}: 10 B. At 1 %, 10 B is the least
  // a pair may carry: {0,2} goes, {2,3} (exactly 1 %) stays.
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 3, 1000);
  builder.add(1, 2, 1, 600);
  builder.add(2, 1, 1, 400);
  builder.add(0, 2, 1, 9);
  builder.add(3, 2, 2, 10);
  const CommGraph graph(builder.build());
  const auto heavy = graph.heavy(0.01);
  ASSERT_EQ(heavy.rank_count(), 4);
  EXPECT_EQ(heavy.edge_count(), 3u);
  ASSERT_EQ(heavy.degree(0), 1);
  EXPECT_EQ(heavy.neighbors(0)[0].rank, 1);
  EXPECT_EQ(heavy.neighbors(0)[0].messages_out, 3u);
  ASSERT_EQ(heavy.degree(2), 2);
  EXPECT_EQ(heavy.neighbors(2)[0].rank, 1);
  EXPECT_EQ(heavy.neighbors(2)[0].bytes_out, 400u);
  EXPECT_EQ(heavy.neighbors(2)[0].bytes_in, 600u);
  EXPECT_EQ(heavy.neighbors(2)[1].rank, 3);
  EXPECT_EQ(heavy.bytes(0), 1000u);
  EXPECT_EQ(heavy.bytes(2), 1010u);
  EXPECT_EQ(heavy.max_degree(), 2);
  EXPECT_EQ(graph.max_degree(), 3);
  // At 0 every pair stays; above the heaviest's share none does.
  EXPECT_EQ(graph.heavy(0).edge_count(), graph.edge_count());
  EXPECT_EQ(graph.heavy(1.5).edge_count(), 0u);
  EXPECT_EQ(graph.heavy(1.5).bytes(1), 0u);
}

TEST(CommGraph, IsSymmetricOnARandomMatrix) {
  const CommGraph graph(testing::random_matrix(50, 6, 3));
  for (Rank r = 0; r < graph.rank_count(); ++r) {
    Rank previous = -1;
    for (const auto& nb : graph.neighbors(r)) {
      EXPECT_GT(nb.rank, previous);  // strictly increasing: merged duplicates
      previous = nb.rank;
      EXPECT_NE(nb.rank, r);
      bool mirrored = false;
      for (const auto& back : graph.neighbors(nb.rank)) {
        if (back.rank == r) {
          mirrored = true;
          EXPECT_EQ(back.bytes_out, nb.bytes_in);
          EXPECT_EQ(back.messages_in, nb.messages_out);
        }
      }
      EXPECT_TRUE(mirrored);
    }
  }
}

}  // namespace
}  // namespace mapsim::map
