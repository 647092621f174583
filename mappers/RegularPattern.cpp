#include "mappers/RegularPattern.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::map {
namespace {

bool one_step(Rank a, Rank b, const std::vector<int>& dims) {
  int differing = 0;
  for (const int extent : dims) {
    const int ca = a % extent;
    const int cb = b % extent;
    a /= extent;
    b /= extent;
    if (ca == cb) continue;
    const int delta = std::abs(ca - cb);
    if (delta != 1 && delta != extent - 1) return false;
    ++differing;
  }
  return differing == 1;
}

}  // namespace

bool fits_grid(const CommGraph& graph, const std::vector<int>& dims) {
  for (Rank r = 0; r < graph.rank_count(); ++r) {
    for (const auto& nb : graph.neighbors(r)) {
      if (nb.rank > r && !one_step(r, nb.rank, dims)) return false;
    }
  }
  return true;
}

namespace {

std::vector<int> exact_pattern(const CommGraph& graph) {
  const Rank n = graph.rank_count();
  if (n <= 1) return {n, 1};
  const int degree = graph.max_degree();
  if (degree == 0 || degree > 6) return {};
  if (fits_grid(graph, {n})) return {n, 1};
  // Candidate row lengths: the differences between rank 0 and its neighbours.
  std::vector<int> diffs;
  for (const auto& nb : graph.neighbors(0)) diffs.push_back(nb.rank);
  std::sort(diffs.begin(), diffs.end());
  if (degree <= 4) {
    for (const int dx : diffs) {
      if (dx > 1 && n % dx == 0 && fits_grid(graph, {dx, n / dx})) return {dx, n / dx};
    }
  }
  for (const int dx : diffs) {
    for (const int dxy : diffs) {
      if (dx <= 1 || dxy <= dx || dxy % dx != 0 || n % dxy != 0) continue;
      const std::vector<int> dims{dx, dxy / dx, n / dxy};
      if (fits_grid(graph, dims)) return dims;
    }
  }
  return {};
}

}  // namespace

std::vector<int> detect_pattern(const CommGraph& graph, PatternMatch match) {
  auto dims = exact_pattern(graph);
  if (dims.empty() && match == PatternMatch::Dominant) {
    dims = exact_pattern(graph.heavy(kLightPairShare));
  }
  return dims;
}

std::vector<int> parse_grid(std::string_view text, Rank ranks, std::string_view what) {
  std::vector<int> dims;
  std::int64_t product = 1;
  std::size_t start = 0;
  for (;;) {
    const auto x = text.find('x', start);
    const auto part = text.substr(start, x == std::string_view::npos ? x : x - start);
    dims.push_back(static_cast<int>(
        parse_integer(part, fmt::format("{} '{}'", what, text), 1, std::int64_t{1} << 30)));
    product *= dims.back();
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  if (dims.size() > 3) {
    throw InputError(fmt::format("{} '{}': a grid has 1 to 3 dimensions", what, text));
  }
  if (product != ranks) {
    throw InputError(fmt::format("{} '{}' has {} places but the matrix has {} ranks", what, text,
                                 product, ranks));
  }
  if (dims.size() == 1) dims.push_back(1);
  return dims;
}

}  // namespace mapsim::map
