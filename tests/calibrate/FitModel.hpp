#pragma once
// A known machine for the calibration tests: one-way times generated from
//
//   T(n) = o_s + o_r + L * lat(n) + n / (W * bw(n))
//
// with protocol steps in SimGrid's notation (a step applies above its boundary, a zero-byte
// message takes factor 1), written with the precision OSU prints (2 decimals in us). The model
// of tests/data/benchmarks/README.md: L = 1 us, W = 12.5 GB/s, o_s = o_r = 0.4 us and
//
//   sizes <= 16 KiB    latency x1,  bandwidth x0.8   (short eager)
//   <= 256 KiB         latency x4,  bandwidth x0.9   (eager)
//   above              latency x10, bandwidth x0.96  (rendezvous)

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "calibrate/BenchmarkOutput.hpp"

namespace mapsim::testing {

struct Protocol {
  std::int64_t last;  ///< the largest size it carries
  double latency_factor;
  double bandwidth_factor;
};

struct KnownModel {
  double latency = 1e-6;      ///< L, s
  double bandwidth = 12.5e9;  ///< W, bytes/s
  double overhead = 0.4e-6;   ///< o_s = o_r, s
  std::vector<Protocol> protocols{
      {16384, 1, 0.8}, {262144, 4, 0.9}, {std::numeric_limits<std::int64_t>::max(), 10, 0.96}};

  [[nodiscard]] const Protocol& protocol(std::int64_t bytes) const {
    for (const auto& p : protocols) {
      if (bytes <= p.last) return p;
    }
    return protocols.back();
  }
  /// T(n), exact, s.
  [[nodiscard]] double time(std::int64_t bytes) const {
    const auto& p = protocol(bytes);
    const double lat = bytes == 0 ? 1 : p.latency_factor;
    const double bw = bytes == 0 ? 1 : p.bandwidth_factor;
    return 2 * overhead + latency * lat + static_cast<double>(bytes) / (bandwidth * bw);
  }
};

/// 0 and the powers of two up to 4 MiB: 24 sizes.
inline std::vector<std::int64_t> osu_sizes() {
  std::vector<std::int64_t> sizes{0};
  for (std::int64_t n = 1; n <= (std::int64_t{4} << 20); n *= 2) sizes.push_back(n);
  return sizes;
}

/// `seconds` as OSU prints it: microseconds with 2 decimals (printf's %.2f), back in seconds.
inline double as_printed(double seconds) {
  return std::nearbyint(seconds * 1e6 * 100) / 100 * 1e-6;
}

/// osu_latency of `model` on `sizes`, as printed.
inline calib::Series osu_latency(const KnownModel& model,
                                 const std::vector<std::int64_t>& sizes = osu_sizes()) {
  calib::Series s;
  s.benchmark = "osu_latency";
  s.measure = calib::Measure::OneWayTime;
  s.source = "model.txt:2";
  for (const auto n : sizes) s.points.push_back({n, as_printed(model.time(n))});
  return s;
}

}  // namespace mapsim::testing
