#pragma once
// Replaces the global operator new with one that counts calls, for tests that check a hot path
// does not allocate. Include it in exactly one file of a test binary of its own (the replacement
// applies to the whole program).

// GCC pairs the replaced operator new with free() below and warns of a mismatch that is not one.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <atomic>
#include <cstdlib>
#include <new>

namespace mapsim::testing {

/// Calls to operator new so far in this process.
inline std::atomic<long> allocations{0};

}  // namespace mapsim::testing

void* operator new(std::size_t size) {
  mapsim::testing::allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
