#include "mappers/SpaceFillingCurves.hpp"

#include <algorithm>
#include <cstdlib>

#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim::map {
namespace {

std::vector<int> coords(int cell, const std::vector<int>& extents) {
  std::vector<int> c;
  for (const int e : extents) {
    c.push_back(cell % e);
    cell /= e;
  }
  return c;
}

int manhattan(int a, int b, const std::vector<int>& extents) {
  const auto ca = coords(a, extents);
  const auto cb = coords(b, extents);
  int d = 0;
  for (std::size_t k = 0; k < ca.size(); ++k) d += std::abs(ca[k] - cb[k]);
  return d;
}

// Number of consecutive pairs of the order that are not grid neighbours.
int jumps(const std::vector<std::int32_t>& order, const std::vector<int>& extents) {
  int count = 0;
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (manhattan(order[k - 1], order[k], extents) != 1) ++count;
  }
  return count;
}

bool is_permutation_of_cells(std::vector<std::int32_t> order, int cells) {
  std::sort(order.begin(), order.end());
  for (int k = 0; k < cells; ++k) {
    if (order[static_cast<std::size_t>(k)] != k) return false;
  }
  return static_cast<int>(order.size()) == cells;
}

const std::vector<std::vector<int>> kOddShapes = {{12, 6}, {9, 8}, {5, 7, 3}, {10, 1, 4}, {7}};

TEST(SpaceFillingCurves, EveryCurveVisitsEveryCellOnce) {
  for (const auto curve : {Curve::Sweep, Curve::Scan, Curve::Peano, Curve::Gray, Curve::Hilbert}) {
    for (const auto& extents : kOddShapes) {
      int cells = 1;
      for (const int e : extents) cells *= e;
      EXPECT_TRUE(is_permutation_of_cells(curve_order(extents, curve), cells)) << name(curve);
    }
  }
}

TEST(SpaceFillingCurves, SweepIsRasterOrder) {
  const auto order = curve_order(std::vector<int>{3, 2}, Curve::Sweep);
  EXPECT_EQ(order, (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(SpaceFillingCurves, ScanSnakesRowsAndPlanes) {
  // 3x2x2: row y=0 forward, y=1 backward; plane z=1 runs its rows in reverse (y=1 first), and
  // its first row continues where plane 0 ended: (0,1,1) above (0,1,0).
  const auto order = curve_order(std::vector<int>{3, 2, 2}, Curve::Scan);
  EXPECT_EQ(order, (std::vector<std::int32_t>{0, 1, 2, 5, 4, 3, 9, 10, 11, 8, 7, 6}));
}

TEST(SpaceFillingCurves, ScanNeverJumpsWhateverTheSizes) {
  for (const auto& extents : kOddShapes) {
    EXPECT_EQ(jumps(curve_order(extents, Curve::Scan), extents), 0);
  }
  const std::vector<int> even{4, 6, 2};
  EXPECT_EQ(jumps(curve_order(even, Curve::Scan), even), 0);
}

TEST(SpaceFillingCurves, HilbertIsContinuousOnPowersOfTwo) {
  for (const auto& extents : std::vector<std::vector<int>>{
           {2, 2}, {8, 8}, {16, 16}, {4, 4, 4}, {8, 8, 8}, {4, 4, 4, 4}}) {
    const auto order = curve_order(extents, Curve::Hilbert);
    EXPECT_EQ(jumps(order, extents), 0) << extents.size() << "-D side " << extents[0];
    EXPECT_EQ(order.front(), 0);  // starts at the origin
  }
}

TEST(SpaceFillingCurves, Hilbert2DMatchesTheClassicCurve) {
  // The order-1 curve visits (0,0), then a neighbour, ..., ending at the other bottom corner:
  // on 2x2 the cells 0, 2, 3, 1 or 0, 1, 3, 2 — Skilling's orientation is the latter's mirror.
  const auto order = curve_order(std::vector<int>{2, 2}, Curve::Hilbert);
  EXPECT_TRUE(order == (std::vector<std::int32_t>{0, 2, 3, 1}) ||
              order == (std::vector<std::int32_t>{0, 1, 3, 2}));
}

TEST(SpaceFillingCurves, PeanoIsContinuousOnPowersOfThree) {
  for (const auto& extents :
       std::vector<std::vector<int>>{{3, 3}, {9, 9}, {27, 27}, {3, 3, 3}, {9, 9, 9}}) {
    EXPECT_EQ(jumps(curve_order(extents, Curve::Peano), extents), 0)
        << extents.size() << "-D side " << extents[0];
  }
}

TEST(SpaceFillingCurves, PeanoOrderOneIsASerpentine) {
  // 3x3: the x digit is the most significant, so the curve runs up column x=0, down x=1 (y
  // reflected because the x digit 1 is odd) and up x=2, ending in the opposite corner.
  const auto order = curve_order(std::vector<int>{3, 3}, Curve::Peano);
  EXPECT_EQ(order, (std::vector<std::int32_t>{0, 3, 6, 7, 4, 1, 2, 5, 8}));
}

TEST(SpaceFillingCurves, GrayConsecutiveCodesDifferInOneCoordinateBit) {
  const std::vector<int> extents{8, 8};
  const auto order = curve_order(extents, Curve::Gray);
  for (std::size_t k = 1; k < order.size(); ++k) {
    const auto a = coords(order[k - 1], extents);
    const auto b = coords(order[k], extents);
    int differing_bits = 0;
    for (std::size_t d = 0; d < a.size(); ++d) differing_bits += __builtin_popcount(a[d] ^ b[d]);
    EXPECT_EQ(differing_bits, 1) << k;
  }
}

TEST(SpaceFillingCurves, NonPowerSizesFollowTheEnclosingCurve) {
  // 6x6 restricted from the 8x8 Hilbert curve: the relative order of any two cells is the same.
  const auto big = curve_order(std::vector<int>{8, 8}, Curve::Hilbert);
  std::vector<std::int32_t> restricted;
  for (const auto cell : big) {
    if (cell % 8 < 6 && cell / 8 < 6) restricted.push_back((cell / 8) * 6 + cell % 8);
  }
  EXPECT_EQ(curve_order(std::vector<int>{6, 6}, Curve::Hilbert), restricted);
}

TEST(SpaceFillingCurves, IgnoresDimensionsOfExtentOne) {
  EXPECT_EQ(curve_order(std::vector<int>{4, 1, 4}, Curve::Hilbert),
            curve_order(std::vector<int>{4, 4}, Curve::Hilbert));
}

TEST(SpaceFillingCurves, RejectsKeysBeyond64Bits) {
  // 5 dimensions of 2^13 would need 65-bit keys.
  EXPECT_THROW((void)curve_order(std::vector<int>{8192, 8192, 2, 2, 2}, Curve::Hilbert),
               InputError);
}

}  // namespace
}  // namespace mapsim::map
