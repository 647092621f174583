#include "support/Parse.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim {

std::vector<std::string_view> split_fields(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    const auto first = text.find_first_not_of(" \t\r", at);
    if (first == std::string_view::npos) return out;
    at = std::min(text.find_first_of(" \t\r", first), text.size());
    out.push_back(text.substr(first, at - first));
  }
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                           std::int64_t max) {
  if (text.empty()) throw InputError(fmt::format("{} is missing", what));
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    // Past the 64 bits: a number all the same, too large or too small for any limit.
    if (text.front() == '-') {
      throw InputError(fmt::format("{}: {} is out of range [{}, {}]", what, text, min, max));
    }
    throw InputError(fmt::format("{}: {} is too large (limit {})", what, text, max));
  }
  if (ec != std::errc() || ptr != end) {
    throw InputError(fmt::format("{}: '{}' is not an integer", what, text));
  }
  if (value > max)
    throw InputError(fmt::format("{}: {} is too large (limit {})", what, value, max));
  if (value < min) {
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
  if (ec == std::errc::result_out_of_range && ptr == end) {
    // A number, but beyond a double's range: too large in magnitude, or too close to zero.
    const double parsed = std::strtod(std::string(text).c_str(), nullptr);
    if (std::isinf(parsed)) {
      throw InputError(fmt::format("{}: {} is too large (limit {:g})", what, text,
                                   std::numeric_limits<double>::max()));
    }
    throw InputError(fmt::format("{}: {} is too close to zero (limit {:g})", what, text,
                                 std::numeric_limits<double>::min()));
  }
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    throw InputError(fmt::format("{}: '{}' is not a finite number", what, text));
  }
  return value;
}

double parse_real(std::string_view text, std::string_view what, double min, double max) {
  const auto out_of_range = [&] {
    return InputError(fmt::format("{}: {} is out of range [{:g}, {:g}]", what, text, min, max));
  };
  double value = 0;
  try {
    value = parse_real(text, what);
  } catch (const InputError&) {
    // A number past a double's range is past this range too: say this one, not the double's.
    const std::string whole(text);
    char* end = nullptr;
    const double parsed = std::strtod(whole.c_str(), &end);
    if (end == whole.c_str() + whole.size() && std::isinf(parsed) &&
        whole.find_first_of("iInN") == std::string::npos)
      throw out_of_range();
    throw;
  }
  if (value > max || value < min) throw out_of_range();
  return value;
}

std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x80) return 1;
  std::size_t length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 ? 2 : 0;
  if (byte > 0xf4 || length == 0) return 0;
  std::uint32_t code = length == 2 ? byte & 0x1fU : length == 3 ? byte & 0x0fU : byte & 0x07U;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0U;
    if ((next & 0xc0U) != 0x80U) return 0;
    code = (code << 6U) | (next & 0x3fU);
  }
  if ((length == 3 && (code < 0x800 || (code >= 0xd800 && code <= 0xdfff))) ||
      (length == 4 && (code < 0x10000 || code > 0x10ffff)))
    return 0;
  return length;
}

}  // namespace mapsim
