#pragma once
// Communication matrices of an in-memory trace.

#include "traces/CollectiveSchedule.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// One message per Send and Isend event, from its rank to its peer, of its bytes.
CommMatrix point_to_point_matrix(const Trace& trace);

/// The messages of the trace's collectives (Collective and ICollective events), expanded by the
/// simulator's algorithms (CollectiveSchedule; see CollectiveTraffic.hpp). Throws InputError if
/// the members of a communicator made different collective calls.
CommMatrix collective_matrix(const Trace& trace, const CollectiveOptions& options = {});

/// Point-to-point and collective messages together.
CommMatrix matrix_with_collectives(const Trace& trace, const CollectiveOptions& options = {});

}  // namespace mapsim::traces
