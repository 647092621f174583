#pragma once
// Simulated time: integer picoseconds. Integers make the replay exact and deterministic (no drift
// from summing floating-point seconds); an int64 holds 106 days of simulated time.

#include <cmath>
#include <cstdint>

namespace mapsim::sim {

/// Picoseconds since the start of the replay.
using Time = std::int64_t;

inline constexpr Time kPicosecondsPerSecond = 1'000'000'000'000;

inline Time seconds_to_time(double seconds) {
  return static_cast<Time>(std::llround(seconds * static_cast<double>(kPicosecondsPerSecond)));
}

inline double to_seconds(Time time) {
  return static_cast<double>(time) / static_cast<double>(kPicosecondsPerSecond);
}

/// Time to push `bytes` through `bandwidth` bytes per second, rounded to the nearest picosecond.
inline Time transfer_time(double bytes, double bandwidth) {
  return static_cast<Time>(
      std::llround(bytes * static_cast<double>(kPicosecondsPerSecond) / bandwidth));
}

}  // namespace mapsim::sim
