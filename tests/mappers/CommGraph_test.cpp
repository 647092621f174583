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
