#include "sim/Result.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace mapsim::sim {
namespace {

constexpr int kSub = 1 << 6;

std::size_t bucket_of(Time value) {
  const auto v = static_cast<std::uint64_t>(std::max<Time>(value, 0));
  if (v < static_cast<std::uint64_t>(kSub)) return static_cast<std::size_t>(v);
  const int shift = std::bit_width(v) - 1 - 6;  // keep the top 7 bits: 1xxxxxx
  return static_cast<std::size_t>((shift + 1) * kSub) +
         static_cast<std::size_t>((v >> shift) - static_cast<std::uint64_t>(kSub));
}

/// The smallest value of a bucket.
Time bucket_floor(std::size_t bucket) {
  if (bucket < static_cast<std::size_t>(kSub)) return static_cast<Time>(bucket);
  const auto shift = static_cast<int>(bucket / kSub) - 1;
  const auto mantissa = static_cast<std::uint64_t>(bucket % kSub) + kSub;
  return static_cast<Time>(mantissa << shift);
}

}  // namespace

void LatencyHistogram::add(Time latency, Time contention_free) {
  const auto b = bucket_of(latency);
  if (b >= buckets_.size()) buckets_.resize(b + 1, 0);
  ++buckets_[b];
  ++count_;
  sum_ += static_cast<double>(latency);
  sum_free_ += static_cast<double>(contention_free);
  sum_ratio_ += contention_free > 0
                    ? static_cast<double>(latency) / static_cast<double>(contention_free)
                    : 1.0;
  max_ = std::max(max_, latency);
}

double LatencyHistogram::mean() const {
  return count_ == 0 ? 0 : sum_ / static_cast<double>(count_);
}

Time LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  const auto rank =
      static_cast<std::uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= std::max<std::uint64_t>(rank, 1)) return std::min(bucket_floor(b), max_);
  }
  return max_;
}

double LatencyHistogram::mean_slowdown() const {
  return count_ == 0 ? 1.0 : sum_ratio_ / static_cast<double>(count_);
}

double LatencyHistogram::aggregate_slowdown() const {
  return sum_free_ > 0 ? sum_ / sum_free_ : 1.0;
}

}  // namespace mapsim::sim
