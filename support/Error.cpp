#include "support/Error.hpp"

#include <cctype>
#include <cstring>

#include <fmt/format.h>

namespace mapsim {

InputError InputError::within(std::string_view where) const {
  return InputError(fmt::format("{}: {}", where, what()));
}

std::string system_reason(int error) {
  std::string text = std::strerror(error);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

void throw_internal_error(std::string_view condition, std::string_view message, const char* file,
                          int line) {
  throw InternalError(fmt::format("internal error (a bug in mapsim) at {}:{}: {} [{} failed]", file,
                                  line, message, condition));
}

}  // namespace mapsim
