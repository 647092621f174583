#include "support/Error.hpp"

#include <fmt/format.h>

namespace mapsim {

InputError InputError::within(std::string_view where) const {
  return InputError(fmt::format("{}: {}", where, what()));
}

void throw_internal_error(std::string_view condition, std::string_view message, const char* file,
                          int line) {
  throw InternalError(fmt::format("internal error (a bug in mapsim) at {}:{}: {} [{} failed]", file,
                                  line, message, condition));
}

}  // namespace mapsim
