// Spearman's rank correlation.

#include "experiments/RankCorrelation.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace mapsim::exp {
namespace {

constexpr double kTolerance = 1e-12;

TEST(Spearman, HandSolvedValues) {
  // Same order: 1. Reversed: -1.
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{10, 20, 30, 40}), 1,
              kTolerance);
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{4, 3, 2, 1}), -1,
              kTolerance);
  // Ranks (1, 2, 3, 4) against (2, 1, 4, 3): d = (1, 1, 1, 1), rho = 1 - 6 * 4 / (4 * 15) = 0.6.
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{5, 1, 9, 7}), 0.6,
              kTolerance);
  // Ties share their average rank: (1, 2.5, 2.5) against (1, 2, 3): Pearson of the ranks is
  // 1.5 / sqrt(1.5 * 2) = 0.8660...
  EXPECT_NEAR(spearman(std::vector<double>{1, 7, 7}, std::vector<double>{1, 2, 3}),
              1.5 / std::sqrt(3.0), kTolerance);
}

TEST(Spearman, UndefinedIsZero) {
  EXPECT_EQ(spearman(std::vector<double>{1}, std::vector<double>{2}), 0);
  EXPECT_EQ(spearman(std::vector<double>{3, 3, 3}, std::vector<double>{1, 2, 3}), 0);
  EXPECT_EQ(spearman(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3}), 0);
}

}  // namespace
}  // namespace mapsim::exp
