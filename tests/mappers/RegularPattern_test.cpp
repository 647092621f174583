#include "mappers/RegularPattern.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"

namespace mapsim::map {
namespace {

using ::testing::HasSubstr;

TEST(RegularPattern, Detects2DStencils) {
  EXPECT_EQ(detect_pattern(CommGraph(testing::stencil_2d(9, 8, false))), (std::vector<int>{9, 8}));
  EXPECT_EQ(detect_pattern(CommGraph(testing::stencil_2d(6, 5, true))), (std::vector<int>{6, 5}));
  EXPECT_EQ(detect_pattern(CommGraph(testing::lu_wavefront(16, 4))), (std::vector<int>{16, 4}));
}

TEST(RegularPattern, Detects3DStencils) {
  EXPECT_EQ(detect_pattern(CommGraph(testing::stencil_3d(4, 3, 5, false))),
            (std::vector<int>{4, 3, 5}));
  EXPECT_EQ(detect_pattern(CommGraph(testing::stencil_3d(4, 4, 4, true))),
            (std::vector<int>{4, 4, 4}));
}

TEST(RegularPattern, DetectsChainsAndRings) {
  traces::CommMatrixBuilder ring(10);
  for (Rank r = 0; r < 10; ++r) ring.add(r, (r + 1) % 10, 1, 8);
  EXPECT_EQ(detect_pattern(CommGraph(ring.build())), (std::vector<int>{10, 1}));
}

TEST(RegularPattern, RejectsIrregularGraphs) {
  EXPECT_TRUE(detect_pattern(CommGraph(testing::random_matrix(64, 3, 5))).empty());
  // A 2-D stencil with one extra long-range pair.
  traces::CommMatrixBuilder builder(16);
  const auto stencil = testing::stencil_2d(4, 4, false);
  for (Rank r = 0; r < 16; ++r) {
    const auto dsts = stencil.destinations(r);
    for (const Rank d : dsts) builder.add(r, d, 1, 1);
  }
  builder.add(0, 10, 1, 1);
  EXPECT_TRUE(detect_pattern(CommGraph(builder.build())).empty());
  // Nobody talks: no pattern to see.
  EXPECT_TRUE(detect_pattern(CommGraph(traces::CommMatrix(8))).empty());
}

// An 8 x 4 stencil whose rank 0 also sends everyone a few bytes: rank 0 then has 31 partners.
TEST(RegularPattern, TheDominantMatchSeesTheHaloGridBehindTheCollectives) {
  const CommGraph light(testing::stencil_2d_with_broadcast(8, 4, 8));
  EXPECT_TRUE(detect_pattern(light).empty());
  EXPECT_TRUE(detect_pattern(light, PatternMatch::Exact).empty());
  EXPECT_EQ(detect_pattern(light, PatternMatch::Dominant), (std::vector<int>{8, 4}));
  // A broadcast of over 1 % of the heaviest pair's bytes (2,025 B both ways) is part of the
  // pattern: no grid.
  const CommGraph heavy(testing::stencil_2d_with_broadcast(8, 4, 25));
  EXPECT_TRUE(detect_pattern(heavy, PatternMatch::Dominant).empty());
  // Where the exact match finds a grid the dominant one finds the same, even if a light pair
  // would give a smaller one: a 4x4 stencil whose y neighbours carry 0.5 % of the x ones'.
  traces::CommMatrixBuilder builder(16);
  for (Rank r = 0; r < 16; ++r) {
    if (r % 4 != 3) builder.add(r, r + 1, 1, 1000);
    if (r < 12) builder.add(r, r + 4, 1, 5);
  }
  const CommGraph grid(builder.build());
  EXPECT_EQ(detect_pattern(grid, PatternMatch::Exact), (std::vector<int>{4, 4}));
  EXPECT_EQ(detect_pattern(grid, PatternMatch::Dominant), (std::vector<int>{4, 4}));
}

TEST(RegularPattern, ParsesGridShapes) {
  EXPECT_EQ(parse_grid("9x8", 72, "grid"), (std::vector<int>{9, 8}));
  EXPECT_EQ(parse_grid("4x4x4", 64, "grid"), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(parse_grid("7", 7, "grid"), (std::vector<int>{7, 1}));
}

TEST(RegularPattern, RejectsBadGridShapes) {
  auto error = [](const char* text, Rank ranks) {
    try {
      (void)parse_grid(text, ranks, "parameter 'grid'");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_THAT(error("9x8", 70),
              HasSubstr("parameter 'grid' '9x8' has 72 places but the matrix has 70 ranks"));
  EXPECT_THAT(error("9xx8", 72), HasSubstr("is missing"));
  EXPECT_THAT(error("0x8", 0), HasSubstr("out of range"));
  EXPECT_THAT(error("2x2x2x2", 16), HasSubstr("1 to 3 dimensions"));
}

}  // namespace
}  // namespace mapsim::map
