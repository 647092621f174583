#include "experiments/RankCorrelation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace mapsim::exp {
namespace {

/// Ranks 1..n of `values`, ties sharing their average rank.
std::vector<double> ranks(std::span<const double> values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](auto x, auto y) { return values[x] < values[y]; });
  std::vector<double> rank(values.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double average = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t k = i; k <= j; ++k) rank[order[k]] = average;
    i = j + 1;
  }
  return rank;
}

}  // namespace

double spearman(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size() || a.size() < 2) return 0;
  const auto ra = ranks(a);
  const auto rb = ranks(b);
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

}  // namespace mapsim::exp
