#pragma once
// Size-dependent correction factors on a message's bandwidth and latency, in SimGrid's notation
// (network/bandwidth-factor and network/latency-factor, alias smpi/bw-factor and smpi/lat-factor),
// so that an SMPI calibration carries over as it is written:
//
//   "F"                    every message: factor F
//   "S1:F1;S2:F2;...;Sk:Fk"  boundaries in any order (sorted); a message of n bytes takes
//                          F_i of the largest boundary S_i < n, and 1 when n <= every boundary
//                          (SimGrid's FactorSet: "0:0.8" leaves zero-byte messages at 1)
//
// How the models use them (SimGrid's CM02 does the same): a message of n bytes spends
// lat_f · latency_factor(n) in flight, and streams its n bytes as a flow that loads its links at
// its max-min rate r but progresses at r · bandwidth_factor(n) (alone: n / (bw · factor)); its
// max-min weight stays 1 / lat_f, unscaled.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mapsim::sim {

class SizeFactors {
 public:
  /// Every message: factor 1 (the models then skip the factors: results as without them).
  SizeFactors() = default;

  /// Parses `text` (see above); throws InputError naming `where` and the bad piece: a factor must
  /// be a number in [10^-6, 10^6], a boundary a non-negative integer, each boundary once.
  static SizeFactors parse(std::string_view text, std::string_view where);

  /// The factor of a message of `bytes`.
  [[nodiscard]] double operator()(std::int64_t bytes) const;

  /// True when every size gets 1.
  [[nodiscard]] bool identity() const;

  /// The canonical text: "1", "F", or "S:F;..." with ascending boundaries (parse(to_string())
  /// gives the same factors).
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const SizeFactors&, const SizeFactors&) = default;

 private:
  struct Step {
    std::int64_t above;  ///< the factor applies to sizes > above (up to the next boundary)
    double factor;
    friend bool operator==(const Step&, const Step&) = default;
  };
  double single_ = 1;        ///< below every boundary (or everywhere without boundaries)
  std::vector<Step> steps_;  ///< ascending boundaries
};

}  // namespace mapsim::sim
