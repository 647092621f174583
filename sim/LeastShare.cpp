#include "sim/LeastShare.hpp"

#include <algorithm>
#include <array>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mapsim::sim {

// MINPD(a, b) is exactly a < b ? a : b per lane.
std::size_t first_least(std::span<const double> values) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const std::size_t n = values.size();
  const double* const s = values.data();
  static_assert(kShareBlock == 8);
#if defined(__SSE2__)
  __m128d least0 = _mm_set1_pd(kNone);
  __m128d least1 = least0;
  __m128d least2 = least0;
  __m128d least3 = least0;
  for (std::size_t i = 0; i < n; i += kShareBlock) {
    least0 = _mm_min_pd(_mm_loadu_pd(s + i), least0);
    least1 = _mm_min_pd(_mm_loadu_pd(s + i + 2), least1);
    least2 = _mm_min_pd(_mm_loadu_pd(s + i + 4), least2);
    least3 = _mm_min_pd(_mm_loadu_pd(s + i + 6), least3);
  }
  const __m128d all = _mm_min_pd(_mm_min_pd(least0, least1), _mm_min_pd(least2, least3));
  const double smallest = std::min(_mm_cvtsd_f64(all), _mm_cvtsd_f64(_mm_unpackhi_pd(all, all)));
  if (!(smallest < kNone)) return n;
  const __m128d wanted = _mm_set1_pd(smallest);
  const auto holds = [&](std::size_t i) {
    const __m128d a = _mm_or_pd(_mm_cmpeq_pd(_mm_loadu_pd(s + i), wanted),
                                _mm_cmpeq_pd(_mm_loadu_pd(s + i + 2), wanted));
    const __m128d b = _mm_or_pd(_mm_cmpeq_pd(_mm_loadu_pd(s + i + 4), wanted),
                                _mm_cmpeq_pd(_mm_loadu_pd(s + i + 6), wanted));
    return _mm_movemask_pd(_mm_or_pd(a, b)) != 0;
  };
  std::size_t at = 0;
  while (!holds(at)) at += kShareBlock;
#else
  std::array<double, kShareBlock> least{};
  least.fill(kNone);
  for (std::size_t i = 0; i < n; i += kShareBlock) {
    for (std::size_t k = 0; k < kShareBlock; ++k) {
      least[k] = s[i + k] < least[k] ? s[i + k] : least[k];
    }
  }
  double smallest = kNone;
  for (const double v : least) smallest = v < smallest ? v : smallest;
  if (!(smallest < kNone)) return n;
  std::size_t at = 0;
#endif
  while (!(s[at] == smallest)) ++at;
  return at;
}

void LeastShare::assign(std::span<const double> values) {
  size_ = values.size();
  const std::size_t blocks = (size_ + kBlock - 1) / kBlock;
  values_.assign(blocks * kBlock, kNone);
  std::copy(values.begin(), values.end(), values_.begin());
  leasts_.assign((blocks + kShareBlock - 1) / kShareBlock * kShareBlock, kNone);
  for (std::size_t b = 0; b < blocks; ++b) rescan(b);
}

void LeastShare::rescan(std::size_t block) {
  const double* const s = values_.data() + block * kBlock;
  static_assert(kBlock % kShareBlock == 0);
#if defined(__SSE2__)
  __m128d a = _mm_set1_pd(kNone);
  __m128d b = a;
  for (std::size_t i = 0; i < kBlock; i += 4) {
    a = _mm_min_pd(_mm_loadu_pd(s + i), a);
    b = _mm_min_pd(_mm_loadu_pd(s + i + 2), b);
  }
  const __m128d all = _mm_min_pd(a, b);
  leasts_[block] = std::min(_mm_cvtsd_f64(all), _mm_cvtsd_f64(_mm_unpackhi_pd(all, all)));
#else
  double least = kNone;
  for (std::size_t i = 0; i < kBlock; ++i) least = s[i] < least ? s[i] : least;
  leasts_[block] = least;
#endif
}

std::size_t LeastShare::least() const {
  const std::size_t block = first_least(leasts_);
  if (block == leasts_.size()) return size_;
  return block * kBlock +
         first_least(std::span<const double>(values_.data() + block * kBlock, kBlock));
}

}  // namespace mapsim::sim
