// Where the flow model's progressive filling finds its bottleneck (sim/LeastShare.hpp): the first
// least value below infinity, as a scan comparing by '<' and then '==' finds it. first_least on
// hand-made arrays (ties, +0 and -0, infinity everywhere, the last entry); LeastShare against
// that plain scan after every change of a long random sequence whose values repeat (ties within
// and across blocks), grow and shrink, and become infinity, on sizes around the block size.

#include "sim/LeastShare.hpp"

#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace mapsim::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The index a plain scan finds: the first value v < infinity with no value below it.
std::size_t plain_scan(const std::vector<double>& values) {
  std::size_t at = values.size();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < kInf && (at == values.size() || values[i] < values[at])) at = i;
  }
  return at;
}

/// `values` padded with infinity to a multiple of kShareBlock.
std::vector<double> padded(std::vector<double> values) {
  values.resize((values.size() + kShareBlock - 1) / kShareBlock * kShareBlock, kInf);
  return values;
}

TEST(FirstLeast, FindsTheFirstOfEqualLeastValues) {
  EXPECT_EQ(first_least(padded({3, 1, 2, 1, 5})), 1u);
  EXPECT_EQ(first_least(padded({3, 2, 2, 2, 2, 2, 2, 2, 2, 0.5})), 9u);  // in the second block
  EXPECT_EQ(first_least(padded({4, 4, 4, 4, 4, 4, 4, 4})), 0u);
  EXPECT_EQ(first_least(padded({-1e-300, 0, 1})), 0u);  // a residual a hair below zero
}

TEST(FirstLeast, TakesPlusAndMinusZeroAlike) {
  EXPECT_EQ(first_least(padded({1, 0.0, -0.0})), 1u);
  EXPECT_EQ(first_least(padded({1, -0.0, 0.0})), 1u);
}

TEST(FirstLeast, ReportsNoneWhenEveryValueIsInfinite) {
  EXPECT_EQ(first_least(padded({kInf, kInf, kInf})), 8u);
  EXPECT_EQ(first_least(std::vector<double>{}), 0u);
}

TEST(LeastShare, FindsWhatAScanFinds) {
  LeastShare least;
  least.assign(std::vector<double>{5, 3, kInf, 3, 7});
  EXPECT_EQ(least.least(), 1u);
  EXPECT_EQ(least.value(1), 3);
  least.set(1, 9);  // the block's least grows: the block is scanned again
  EXPECT_EQ(least.least(), 3u);
  least.set(3, kInf);
  EXPECT_EQ(least.least(), 0u);
  least.set(4, 1);  // a new least
  EXPECT_EQ(least.least(), 4u);
  for (std::size_t i = 0; i < 5; ++i) least.set(i, kInf);
  EXPECT_EQ(least.least(), 5u);  // none: the size
}

TEST(LeastShare, AgreesWithAScanAfterEveryChange) {
  for (const std::size_t n : {std::size_t{1}, LeastShare::kBlock - 1, LeastShare::kBlock,
                              LeastShare::kBlock + 1, 5 * LeastShare::kBlock + 17}) {
    std::mt19937_64 random(n);
    // Few distinct values, so that ties within and across blocks are common; and the signed
    // zeros and infinity.
    const std::vector<double> pool{0.0, -0.0, 0.25, 0.5, 0.5, 1, 2, kInf};
    std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
    std::uniform_int_distribution<std::size_t> where(0, n - 1);
    std::vector<double> values(n);
    for (auto& v : values) v = pool[pick(random)];
    LeastShare least;
    least.assign(values);
    for (int step = 0; step < 20000; ++step) {
      const std::size_t i = where(random);
      // Mostly growing, as shares do while flows are fixed; sometimes anything.
      double v = pool[pick(random)];
      if (step % 4 != 0 && v < values[i]) v = values[i] + (values[i] < kInf ? 0.125 : 0);
      values[i] = v;
      least.set(i, v);
      const std::size_t want = plain_scan(values);
      ASSERT_EQ(least.least(), want) << "size " << n << ", step " << step;
      if (want < n) {
        EXPECT_EQ(least.value(want), values[want]);
      }
    }
  }
}

}  // namespace
}  // namespace mapsim::sim
