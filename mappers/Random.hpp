#pragma once
// A small deterministic random number generator for mappers: the same seed gives the same
// stream on every platform and standard library (std::uniform_int_distribution and std::shuffle
// are implementation-defined, so mappers never use them).
//
// Generator: xoshiro256** (Blackman & Vigna 2018), seeded through splitmix64. Bounded integers:
// Lemire's multiply-and-reject method, exact (no modulo bias).

#include <cstdint>
#include <span>
#include <utility>

namespace mapsim::map {

__extension__ typedef unsigned __int128 Uint128;  // GCC/Clang extension, for Lemire's method

using Seed = std::uint64_t;

class Random {
 public:
  explicit Random(Seed seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  /// A uniformly distributed 64-bit word.
  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform in [0, bound). Precondition: bound > 0.
  std::uint64_t below(std::uint64_t bound) {
    Uint128 product = static_cast<Uint128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = -bound % bound;
      while (low < threshold) {
        product = static_cast<Uint128>(next()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Fisher-Yates shuffle.
  template <typename T>
  void shuffle(std::span<T> items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  /// An independent stream for sub-task `index` (e.g. one per parallel chunk), so that results
  /// do not depend on which thread ran which chunk.
  [[nodiscard]] static Random stream(Seed seed, std::uint64_t index) {
    std::uint64_t mixed = seed ^ (0x9E3779B97F4A7C15ull * (index + 1));
    return Random(splitmix64(mixed));
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::uint64_t state_[4] = {};
};

}  // namespace mapsim::map
