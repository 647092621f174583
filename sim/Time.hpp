#pragma once
// Simulated time: integer picoseconds. Integers make the replay exact and deterministic (no drift
// from summing floating-point seconds); an int64 holds 106 days of simulated time.
//
// Every conversion into picoseconds and every sum of times goes through the checked functions
// below: a time past kMaxTime (from absurd bandwidths, latencies, compute scales or trace
// durations) throws InputError naming the cause, never wraps round to a negative or zero time.

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::sim {

/// Picoseconds since the start of the replay.
using Time = std::int64_t;

inline constexpr Time kPicosecondsPerSecond = 1'000'000'000'000;
/// The latest simulated time, about 9.2e6 s (106 days).
inline constexpr Time kMaxTime = std::numeric_limits<Time>::max();

inline double to_seconds(Time time) {
  return static_cast<double>(time) / static_cast<double>(kPicosecondsPerSecond);
}

/// Throws the InputError of a simulated time past kMaxTime; `cause` says what produced it.
/// The throwing paths below are out of line and cold: the hot paths that check times stay small.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_time_overflow(std::string_view cause) {
  throw InputError(fmt::format(
      "simulated time overflow: {} is beyond {:.4g} s (106 days), the longest simulated time "
      "(int64 picoseconds); check the link bandwidths and latencies, the compute scale and the "
      "trace's durations",
      cause, to_seconds(kMaxTime)));
}

template <typename Describe>
[[noreturn, gnu::cold, gnu::noinline]] void throw_time_overflow_of(Describe& describe) {
  throw_time_overflow(describe());
}

/// std::llround(x) for -2^63 < x < 2^63 (the nearest integer, halves away from zero), inline:
/// x - trunc(x) is exact, so comparing it with 0.5 decides as llround does. Without branches: a
/// drain time's fraction of a picosecond follows no pattern (measured, 2 % of LU's replay with
/// MPI overheads).
inline std::int64_t round_to_integer(double x) {
  const auto i = static_cast<std::int64_t>(x);
  const double fraction = x - static_cast<double>(i);
  return i + static_cast<std::int64_t>(fraction >= 0.5) -
         static_cast<std::int64_t>(fraction <= -0.5);
}

/// `picoseconds` (a real >= 0) rounded to Time; past kMaxTime (or NaN) throws the overflow error
/// with the cause that `describe()` returns (called only then: no formatting on the hot path).
template <typename Describe>
Time checked_time(double picoseconds, Describe&& describe) {
  // 2^63 is the first double past kMaxTime; NaN fails the comparison too.
  if (!(picoseconds < 9223372036854775808.0)) [[unlikely]]
    throw_time_overflow_of(describe);
  return round_to_integer(picoseconds);
}

inline Time seconds_to_time(double seconds) {
  return checked_time(seconds * static_cast<double>(kPicosecondsPerSecond),
                      [&] { return fmt::format("a duration of {:.6g} s", seconds); });
}

/// Time to push `bytes` through `bandwidth` bytes per second, rounded to the nearest picosecond.
inline Time transfer_time(double bytes, double bandwidth) {
  return checked_time(bytes * static_cast<double>(kPicosecondsPerSecond) / bandwidth, [&] {
    return fmt::format("sending {:.6g} bytes at {:.6g} bytes/s ({:.6g} s)", bytes, bandwidth,
                       bytes / bandwidth);
  });
}

/// a + b for times and durations (>= 0); throws past kMaxTime.
inline Time add_time(Time a, Time b) {
  Time sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) [[unlikely]] {
    const auto describe = [a, b] {
      return fmt::format("{:.6g} s after {:.6g} s", to_seconds(b), to_seconds(a));
    };
    throw_time_overflow_of(describe);
  }
  return sum;
}

}  // namespace mapsim::sim
