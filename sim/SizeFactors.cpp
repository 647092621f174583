#include "sim/SizeFactors.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::sim {
namespace {

// Factors beyond these describe no network (SimGrid's own reach 0.34 and 11.6): a slip of the
// exponent, which would otherwise show only as a time overflow or a transfer taking no time.
constexpr double kLeastFactor = 1e-6;
constexpr double kMostFactor = 1e6;

double parse_factor(std::string_view text, std::string_view where, std::string_view piece) {
  const double factor = parse_real(text, fmt::format("factor in {} ('{}')", where, piece));
  if (!(factor > 0)) {
    throw InputError(fmt::format("{}: factor {} in '{}' must be positive", where, text, piece));
  }
  if (factor < kLeastFactor || factor > kMostFactor) {
    throw InputError(fmt::format("{}: factor {} in '{}' is out of range [{:g}, {:g}]", where, text,
                                 piece, kLeastFactor, kMostFactor));
  }
  return factor;
}

}  // namespace

SizeFactors SizeFactors::parse(std::string_view text, std::string_view where) {
  SizeFactors factors;
  if (text.empty()) {
    throw InputError(fmt::format(
        "{}: empty factors: give F or SIZE:FACTOR;SIZE:FACTOR... (e.g. 0:0.8;65536:0.95)", where));
  }
  if (text.find_first_of(":;") == std::string_view::npos) {
    factors.single_ = parse_factor(text, where, text);
    return factors;
  }
  const auto pieces = split_fields(text, ';');
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const auto piece = pieces[k];
    if (piece.empty() && k + 1 == pieces.size() && k > 0) break;  // a final ';'
    const auto colon = piece.find(':');
    if (colon == std::string_view::npos || piece.find(':', colon + 1) != std::string_view::npos) {
      throw InputError(fmt::format("{}: '{}' is not SIZE:FACTOR", where, piece));
    }
    const auto size = parse_integer(piece.substr(0, colon),
                                    fmt::format("size in {} ('{}')", where, piece), 0, INT64_MAX);
    const double factor = parse_factor(piece.substr(colon + 1), where, piece);
    for (const auto& step : factors.steps_) {
      if (step.above == size) {
        throw InputError(fmt::format("{}: size {} is given twice", where, size));
      }
    }
    factors.steps_.push_back(Step{size, factor});
  }
  std::sort(factors.steps_.begin(), factors.steps_.end(),
            [](const Step& a, const Step& b) { return a.above < b.above; });
  return factors;
}

double SizeFactors::operator()(std::int64_t bytes) const {
  // The last boundary below the size: steps are few (SMPI's tables have nine).
  double factor = single_;
  for (const auto& step : steps_) {
    if (bytes <= step.above) break;
    factor = step.factor;
  }
  return factor;
}

bool SizeFactors::identity() const {
  return single_ == 1 &&
         std::all_of(steps_.begin(), steps_.end(), [](const Step& s) { return s.factor == 1; });
}

std::string SizeFactors::to_string() const {
  if (steps_.empty()) return fmt::format("{}", single_);
  std::string text;
  for (const auto& step : steps_) {
    text += fmt::format("{}{}:{}", text.empty() ? "" : ";", step.above, step.factor);
  }
  return text;
}

}  // namespace mapsim::sim
