#pragma once
// Identifiers shared by every library.

#include <cstdint>

namespace mapsim {

/// An MPI rank in MPI_COMM_WORLD.
using Rank = std::int32_t;

/// The most ranks mapsim handles in one application (matrices, mappings, traces): far beyond any
/// machine it models (at most 2^21 nodes), small enough that per-rank tables always fit in memory.
inline constexpr Rank kMaxRanks = Rank{1} << 24;

}  // namespace mapsim
