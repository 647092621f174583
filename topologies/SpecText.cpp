#include "topologies/SpecText.hpp"

#include <limits>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::topo {

void fail_spec(std::string_view spec, std::string_view what) {
  throw InputError(fmt::format("topology spec '{}': {}", spec, what));
}

int parse_positive(std::string_view spec, std::string_view text, std::string_view what,
                   std::int64_t max) {
  if (text.empty()) fail_spec(spec, fmt::format("{} is empty", what));
  if (text.front() == '-' || text.front() == '+' ||
      text.find_first_not_of("0123456789") != std::string_view::npos) {
    fail_spec(spec, fmt::format("{} is '{}', which is not a positive integer", what, text));
  }
  std::int64_t value = 0;
  try {
    value = parse_integer(text, what, 0, std::numeric_limits<std::int64_t>::max());
  } catch (const InputError&) {  // all digits: past 64 bits
    fail_spec(spec, fmt::format("{} is {}, which is too large (limit {})", what, text, max));
  }
  if (value == 0) fail_spec(spec, fmt::format("{} is 0; it must be a positive integer", what));
  if (value > max) {
    fail_spec(spec, fmt::format("{} is {}, which is too large (limit {})", what, value, max));
  }
  return static_cast<int>(value);
}

}  // namespace mapsim::topo
