#include "mappers/GridEmbedding.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>

#include <gtest/gtest.h>

namespace mapsim::map {
namespace {

constexpr GridHeuristic kAll[] = {GridHeuristic::Mxovlp, GridHeuristic::MxovAl,
                                  GridHeuristic::Exco,   GridHeuristic::Coce,
                                  GridHeuristic::Affine, GridHeuristic::Step};

// Average Manhattan distance between grid neighbours: the average hops per byte of a 2-D
// stencil whose pairs all exchange the same bytes.
double hops_per_byte(const std::vector<std::int32_t>& place, int ox, int oy, int px) {
  long total = 0;
  long pairs = 0;
  auto distance = [&](int a, int b) {
    return std::abs(a % px - b % px) + std::abs(a / px - b / px);
  };
  for (int y = 0; y < oy; ++y) {
    for (int x = 0; x < ox; ++x) {
      const int here = place[static_cast<std::size_t>(x + ox * y)];
      if (x + 1 < ox)
        total += distance(here, place[static_cast<std::size_t>(x + 1 + ox * y)]), ++pairs;
      if (y + 1 < oy)
        total += distance(here, place[static_cast<std::size_t>(x + ox * (y + 1))]), ++pairs;
    }
  }
  return static_cast<double>(total) / static_cast<double>(pairs);
}

TEST(GridEmbedding, EveryHeuristicPlacesEveryObjectOnItsOwnProcessor) {
  const std::vector<std::array<int, 4>> shapes{{9, 8, 12, 6}, {8, 9, 12, 6}, {5, 5, 5, 5},
                                               {3, 7, 4, 6},  {1, 10, 3, 4}, {12, 1, 4, 3},
                                               {6, 6, 7, 8},  {2, 8, 4, 4},  {16, 16, 8, 32}};
  for (const auto heuristic : kAll) {
    for (const auto& [ox, oy, px, py] : shapes) {
      const auto place = embed_grid(heuristic, ox, oy, px, py);
      ASSERT_EQ(place.size(), static_cast<std::size_t>(ox * oy));
      std::set<std::int32_t> distinct(place.begin(), place.end());
      EXPECT_EQ(distinct.size(), place.size()) << name(heuristic) << " " << ox << "x" << oy;
      EXPECT_GE(*std::min_element(place.begin(), place.end()), 0);
      EXPECT_LT(*std::max_element(place.begin(), place.end()), px * py);
    }
  }
}

TEST(GridEmbedding, EqualGridsAreMappedIdentically) {
  for (const auto heuristic : kAll) {
    const auto place = embed_grid(heuristic, 7, 5, 7, 5);
    for (int k = 0; k < 35; ++k)
      EXPECT_EQ(place[static_cast<std::size_t>(k)], k) << name(heuristic);
  }
}

TEST(GridEmbedding, AffineStretchesWithoutConflicts) {
  // 4x4 onto 8x8: (x, y) -> (2x, 2y) exactly.
  const auto place = embed_grid(GridHeuristic::Affine, 4, 4, 8, 8);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x)
      EXPECT_EQ(place[static_cast<std::size_t>(x + 4 * y)], 2 * x + 8 * 2 * y);
  }
  // Corners onto corners: object (3, 3) on processor (7, 7).
  EXPECT_EQ(embed_grid(GridHeuristic::Affine, 4, 4, 8, 8, AffineVariant::Corners)[15], 63);
}

TEST(GridEmbedding, MaximumOverlapKeepsTheOverlapInPlace) {
  // 9x8 on 12x6: the 9x6 overlap stays; the 9x2 rest goes, turned, to the free 3x6 columns.
  const auto place = embed_grid(GridHeuristic::Mxovlp, 9, 8, 12, 6);
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 9; ++x) EXPECT_EQ(place[static_cast<std::size_t>(x + 9 * y)], x + 12 * y);
  }
  for (int y = 6; y < 8; ++y) {
    for (int x = 0; x < 9; ++x) EXPECT_GE(place[static_cast<std::size_t>(x + 9 * y)] % 12, 9);
  }
}

TEST(GridEmbedding, StepFoldsColumnsIntoBands) {
  // 2x8 on 4x4: four bands of 2 object rows on 1 processor row each; in a band the snake
  // (0,lo) (0,hi) (1,hi) (1,lo) runs along the processor row.
  const auto place = embed_grid(GridHeuristic::Step, 2, 8, 4, 4);
  for (int band = 0; band < 4; ++band) {
    EXPECT_EQ(place[static_cast<std::size_t>(0 + 2 * (2 * band))], 0 + 4 * band);
    EXPECT_EQ(place[static_cast<std::size_t>(0 + 2 * (2 * band + 1))], 1 + 4 * band);
    EXPECT_EQ(place[static_cast<std::size_t>(1 + 2 * (2 * band + 1))], 2 + 4 * band);
    EXPECT_EQ(place[static_cast<std::size_t>(1 + 2 * (2 * band))], 3 + 4 * band);
  }
}

TEST(GridEmbedding, SlidesExampleStaysWithinTheSlidesRange) {
  // Bhatele's example, a 9x8 object grid on a 12x6 mesh. The slides report average hops per
  // byte from 1.39 (STEP) to 2.31 (EXCO); every heuristic here must do at least as well as the
  // slides' worst plus 10% (2.55). Random placements average about 5.9 hops on this mesh, and
  // no embedding can beat 1 (some neighbours must be split: 72 objects on 72 processors of a
  // different shape).
  for (const auto heuristic : kAll) {
    const double h = hops_per_byte(embed_grid(heuristic, 9, 8, 12, 6), 9, 8, 12);
    EXPECT_GT(h, 1.0) << name(heuristic);
    EXPECT_LT(h, 2.55) << name(heuristic);
  }
  // Alignment chooses each step among more ways to lay the part, the unaligned one included;
  // being greedy it is not better on every shape, but on this one it is, as in the slides
  // (1.65 against 1.66).
  EXPECT_LE(hops_per_byte(embed_grid(GridHeuristic::MxovAl, 9, 8, 12, 6), 9, 8, 12),
            hops_per_byte(embed_grid(GridHeuristic::Mxovlp, 9, 8, 12, 6), 9, 8, 12));
}

}  // namespace
}  // namespace mapsim::map
