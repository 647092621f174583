#include "experiments/RankCorrelation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::exp {

bool tied(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
}

std::vector<double> tied_ranks(std::span<const double> values, double tolerance) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](auto x, auto y) { return values[x] < values[y]; });
  std::vector<double> rank(values.size());
  for (std::size_t i = 0; i < order.size();) {
    // The group: every following value tied with its first one.
    std::size_t j = i;
    while (j + 1 < order.size() && tied(values[order[i]], values[order[j + 1]], tolerance)) ++j;
    const double average = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t k = i; k <= j; ++k) rank[order[k]] = average;
    i = j + 1;
  }
  return rank;
}

double spearman(std::span<const double> a, std::span<const double> b, double tolerance) {
  if (a.size() != b.size() || a.size() < 2) return 0;
  const auto ra = tied_ranks(a, tolerance);
  const auto rb = tied_ranks(b, tolerance);
  const double n = static_cast<double>(ra.size());
  const double mean = (n + 1) / 2;
  double covariance = 0, variance_a = 0, variance_b = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    covariance += (ra[i] - mean) * (rb[i] - mean);
    variance_a += (ra[i] - mean) * (ra[i] - mean);
    variance_b += (rb[i] - mean) * (rb[i] - mean);
  }
  if (variance_a == 0 || variance_b == 0) return 0;
  return covariance / std::sqrt(variance_a * variance_b);
}

PairCounts count_pairs(std::span<const double> a, std::span<const double> b, double tolerance) {
  PairCounts counts;
  if (a.size() != b.size()) return counts;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      if (tied(a[i], a[j], tolerance) || tied(b[i], b[j], tolerance)) {
        ++counts.tied;
      } else if ((a[i] - a[j]) * (b[i] - b[j]) > 0) {
        ++counts.concordant;
      } else {
        ++counts.discordant;
      }
    }
  }
  return counts;
}

double parse_tie_tolerance(std::string_view text, std::string_view option) {
  const double value = parse_real(text, option);
  if (!(value >= 0 && value < 1)) {
    throw InputError(fmt::format(
        "{}: {} is out of range [0, 1) (a relative tolerance: 0.001 ties values within 0.1 %)",
        option, text));
  }
  return value;
}

}  // namespace mapsim::exp
