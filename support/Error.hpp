#pragma once
// The three tiers of errors: bad user input throws InputError, whose message names the
// value and where it came from; a broken internal invariant throws InternalError through
// MAPSIM_EXPECTS and says it is a bug; library code never exits or aborts.

#include <stdexcept>
#include <string>
#include <string_view>

namespace mapsim {

/// Bad user input: a CLI option, a spec string, a config key, a trace or matrix file.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;

  /// The same error, prefixed with where the input came from, e.g. "run.ini:12: key 'topology'".
  [[nodiscard]] InputError within(std::string_view where) const;
};

/// Work stopped before it finished because its time budget ran out or the user interrupted it
/// (Ctrl-C): neither a bug nor bad input, and its partial results are discarded.
class Cancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A broken internal invariant: a bug in mapsim, never the user's fault.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The operating system's reason for `error` (an errno) as part of a sentence: "permission
/// denied", "no space left on device".
std::string system_reason(int error);

[[noreturn]] void throw_internal_error(std::string_view condition, std::string_view message,
                                       const char* file, int line);

}  // namespace mapsim

/// Checks an internal invariant; on failure throws InternalError naming the condition and place.
#define MAPSIM_EXPECTS(condition, message)                                     \
  do {                                                                         \
    if (!(condition)) [[unlikely]]                                             \
      ::mapsim::throw_internal_error(#condition, message, __FILE__, __LINE__); \
  } while (false)
