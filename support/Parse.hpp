#pragma once
// Strict number parsing for user input: the whole text must be the number, and errors name it.

#include <cstdint>
#include <string_view>

namespace mapsim {

/// Parses a decimal integer in [min, max]. `what` names the value in the error message, e.g.
/// "size 2 of topology spec 'torus:4x0'". Throws InputError on garbage, overflow or range.
std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                           std::int64_t max);

/// Parses a finite decimal floating-point number (no trailing garbage). Throws InputError.
double parse_real(std::string_view text, std::string_view what);

}  // namespace mapsim
