#pragma once
// Communication matrices of an in-memory trace.

#include "traces/CommMatrix.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// One message per Send and Isend event, from its rank to its peer, of its bytes.
CommMatrix point_to_point_matrix(const Trace& trace);

}  // namespace mapsim::traces
