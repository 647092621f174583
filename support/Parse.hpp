#pragma once
// Strict number parsing for user input: the whole text must be the number, and errors name it;
// and checking that text is UTF-8.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mapsim {

/// Parses a decimal integer in [min, max]. `what` names the value in the error message, e.g.
/// "size 2 of topology spec 'torus:4x0'". Throws InputError on garbage ("not an integer"), above
/// max, 64-bit overflow included ("too large (limit max)"), below min ("out of range [min, max]").
std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                           std::int64_t max);

/// Parses a finite decimal floating-point number (no trailing garbage). Throws InputError; a
/// number beyond a double's range is "too large (limit ...)".
double parse_real(std::string_view text, std::string_view what);

/// The same in [min, max]: outside it (a number past a double's range included) "out of range
/// [min, max]".
double parse_real(std::string_view text, std::string_view what, double min, double max);

/// `text` without leading and trailing blanks (spaces, tabs, carriage returns).
std::string_view trim(std::string_view text);

/// `text` cut at every `separator`: n separators give n + 1 fields, empty ones kept (an empty
/// text is one empty field).
std::vector<std::string_view> split_fields(std::string_view text, char separator);

/// The words of `text`, separated by blanks (spaces, tabs, carriage returns).
std::vector<std::string_view> words(std::string_view text);

/// The length in bytes (1 to 4) of the UTF-8 sequence at text[at], or 0 if none starts there (a
/// stray continuation byte, a truncated sequence, an overlong form, a UTF-16 surrogate, a code
/// point past U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t at);

}  // namespace mapsim
