#include "support/Parse.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim {

std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                           std::int64_t max) {
  if (text.empty()) throw InputError(fmt::format("{} is missing", what));
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    throw InputError(fmt::format("{}: '{}' is out of range [{}, {}]", what, text, min, max));
  }
  if (ec != std::errc() || ptr != end) {
    throw InputError(fmt::format("{}: '{}' is not an integer", what, text));
  }
  if (value < min || value > max) {
    throw InputError(fmt::format("{}: {} is out of range [{}, {}]", what, value, min, max));
  }
  return value;
}

double parse_real(std::string_view text, std::string_view what) {
  if (text.empty()) throw InputError(fmt::format("{} is missing", what));
  // std::from_chars for double needs GCC 11+, which Debian 12 has.
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    throw InputError(fmt::format("{}: '{}' is not a finite number", what, text));
  }
  return value;
}

}  // namespace mapsim
