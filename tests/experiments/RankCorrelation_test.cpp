// Spearman's rank correlation and pair counts, exact and with a tie tolerance.

#include "experiments/RankCorrelation.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/Error.hpp"

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

TEST(TieTolerance, TiedIsRelativeToTheLargerMagnitude) {
  // |100 - 100.1| = 0.1 <= 0.001 * 100.1 = 0.1001: tied; 0.2 > 0.1002: not.
  EXPECT_TRUE(tied(100, 100.1, 0.001));
  EXPECT_TRUE(tied(100.1, 100, 0.001));
  EXPECT_FALSE(tied(100, 100.2, 0.001));
  // Tolerance 0 is equality, zero included.
  EXPECT_TRUE(tied(0, 0, 0));
  EXPECT_TRUE(tied(5, 5, 0));
  EXPECT_FALSE(tied(1, 1 + 1e-12, 0));
  // 0 is tied with nothing else, whatever the tolerance below 1.
  EXPECT_FALSE(tied(0, 1e-9, 0.5));
}

TEST(TieTolerance, GroupsChainFromTheirFirstValue) {
  // Sorted 100, 100.05, 100.2, 200: 100.05 is within 0.1 % of 100, 100.2 is not (0.2 > 0.1002),
  // so {100, 100.05} share rank 1.5, then 100.2 is 3 and 200 is 4.
  EXPECT_EQ(tied_ranks(std::vector<double>{100, 100.05, 200, 100.2}, 0.001),
            (std::vector<double>{1.5, 1.5, 4, 3}));
  // 100.08 is within 0.1 % of 100, 100.16 only of 100.08 (0.16 > 0.10016): the group is
  // measured from its first value, so 100.16 starts the next one.
  EXPECT_EQ(tied_ranks(std::vector<double>{100.16, 100, 100.08}, 0.001),
            (std::vector<double>{3, 1.5, 1.5}));
  // Tolerance 0: only equal values share a rank.
  EXPECT_EQ(tied_ranks(std::vector<double>{100, 100.05, 200, 100.05}, 0),
            (std::vector<double>{1, 2.5, 4, 2.5}));
}

TEST(TieTolerance, NearTiesChangeRhoAndThePairs) {
  const std::vector<double> a{1, 2, 3, 4};
  const std::vector<double> b{10, 20.01, 20, 40};
  // Exact: b's ranks are (1, 3, 2, 4), d = (0, 1, 1, 0): rho = 1 - 6 * 2 / (4 * 15) = 0.8; the
  // pair (2, 3) is discordant (a rises, b falls by 0.05 %), the other five concordant.
  EXPECT_NEAR(spearman(a, b, 0), 0.8, kTolerance);
  const auto exact = count_pairs(a, b, 0);
  EXPECT_EQ(exact.concordant, 5U);
  EXPECT_EQ(exact.discordant, 1U);
  EXPECT_EQ(exact.tied, 0U);
  // Within 0.1 %: 20.01 and 20 are tied, ranks (1, 2.5, 2.5, 4). Centred: a (-1.5, -0.5, 0.5,
  // 1.5), b (-1.5, 0, 0, 1.5): rho = 4.5 / sqrt(5 * 4.5) = 3 / sqrt(10) = 0.9487; the pair is a
  // tie instead of a discordance.
  EXPECT_NEAR(spearman(a, b, 0.001), 3 / std::sqrt(10.0), kTolerance);
  const auto tolerant = count_pairs(a, b, 0.001);
  EXPECT_EQ(tolerant.concordant, 5U);
  EXPECT_EQ(tolerant.discordant, 0U);
  EXPECT_EQ(tolerant.tied, 1U);
}

TEST(TieTolerance, NoiseInOneMeasureIsNoFinding) {
  // As FT's mappings: hop-bytes that differ by 0.0003 % at most, times in reverse order.
  const std::vector<double> hop_bytes{1000000, 1000001, 1000002, 1000003};
  const std::vector<double> time{4, 3, 2, 1};
  // Exact: a perfect reversal, six discordant pairs.
  EXPECT_NEAR(spearman(hop_bytes, time, 0), -1, kTolerance);
  EXPECT_EQ(count_pairs(hop_bytes, time, 0).discordant, 6U);
  // Within 0.1 %: one tie group, so no rho (0), and every pair tied.
  EXPECT_EQ(spearman(hop_bytes, time, 0.001), 0);
  const auto pairs = count_pairs(hop_bytes, time, 0.001);
  EXPECT_EQ(pairs.tied, 6U);
  EXPECT_EQ(pairs.discordant, 0U);
  EXPECT_EQ(pairs.concordant, 0U);
}

TEST(TieTolerance, ZeroIsTheExactBehaviour) {
  // The hand-solved exact case above: (1, 7, 7) against (1, 2, 3), rho 1.5 / sqrt(3), and the
  // pair of equal values the only tie.
  const std::vector<double> a{1, 7, 7};
  const std::vector<double> b{1, 2, 3};
  EXPECT_NEAR(spearman(a, b, 0), 1.5 / std::sqrt(3.0), kTolerance);
  const auto pairs = count_pairs(a, b, 0);
  EXPECT_EQ(pairs.concordant, 2U);
  EXPECT_EQ(pairs.discordant, 0U);
  EXPECT_EQ(pairs.tied, 1U);
  // Lengths that differ: no pairs.
  EXPECT_EQ(count_pairs(a, std::vector<double>{1, 2}, 0).tied, 0U);
}

TEST(TieTolerance, ParsesAFractionBelowOne) {
  EXPECT_EQ(parse_tie_tolerance("0", "--tie-tolerance"), 0);
  EXPECT_EQ(parse_tie_tolerance("0.001", "--tie-tolerance"), 0.001);
  EXPECT_EQ(parse_tie_tolerance("0.999", "--tie-tolerance"), 0.999);
  const auto message = [](const std::string& text) {
    try {
      parse_tie_tolerance(text, "--tie-tolerance");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("1"),
            "--tie-tolerance: 1 is out of range [0, 1) (a relative tolerance: 0.001 ties values "
            "within 0.1 %)");
  EXPECT_NE(message("-0.1").find("--tie-tolerance: -0.1 is out of range [0, 1)"),
            std::string::npos);
  EXPECT_NE(message("5%").find("--tie-tolerance: '5%'"), std::string::npos);
  EXPECT_NE(message("nan").find("--tie-tolerance"), std::string::npos);
  EXPECT_NE(message("").find("--tie-tolerance"), std::string::npos);
}

}  // namespace
}  // namespace mapsim::exp
