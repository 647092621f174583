#include "traces/TraceMatrix.hpp"

namespace mapsim::traces {

CommMatrix point_to_point_matrix(const Trace& trace) {
  CommMatrixBuilder builder(trace.rank_count());
  for (Rank rank = 0; rank < trace.rank_count(); ++rank) {
    for (const Event& event : trace.ranks[static_cast<std::size_t>(rank)].events) {
      if (event.kind == EventKind::Send || event.kind == EventKind::Isend) {
        builder.add(rank, event.peer, 1, static_cast<std::uint64_t>(event.bytes));
      }
    }
  }
  return builder.build();
}

}  // namespace mapsim::traces
