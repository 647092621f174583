#pragma once
// Identifiers shared by every library.

#include <cstdint>

namespace mapsim {

/// An MPI rank in MPI_COMM_WORLD.
using Rank = std::int32_t;

}  // namespace mapsim
