#pragma once
// Drawing one of several candidates from a message's 64-bit choice (alternative routes).
// Internal to topologies/.

#include <algorithm>
#include <cstdint>

namespace mapsim::topo {

/// The index-th of 0, 1, ... skipping x and y (x != y): an intermediate group or router other
/// than the source's and the destination's.
inline int skipping(std::uint64_t index, int x, int y) {
  auto v = static_cast<int>(index);
  if (v >= std::min(x, y)) ++v;
  if (v >= std::max(x, y)) ++v;
  return v;
}

}  // namespace mapsim::topo
