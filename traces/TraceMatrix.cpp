#include "traces/TraceMatrix.hpp"

#include "traces/CollectiveTraffic.hpp"

namespace mapsim::traces {

namespace {

void add_point_to_point(const Trace& trace, CommMatrixBuilder& builder) {
  for (Rank rank = 0; rank < trace.rank_count(); ++rank) {
    for (const Event& event : trace.ranks[static_cast<std::size_t>(rank)].events) {
      if (event.kind == EventKind::Send || event.kind == EventKind::Isend) {
        builder.add(rank, event.peer, 1, static_cast<std::uint64_t>(event.bytes));
      }
    }
  }
}

void add_collectives(const Trace& trace, CommMatrixBuilder& builder,
                     const CollectiveOptions& options) {
  CollectiveTraffic collectives;
  for (Rank rank = 0; rank < trace.rank_count(); ++rank) {
    const auto& events = trace.ranks[static_cast<std::size_t>(rank)].events;
    for (std::size_t i = 0; i < events.size(); ++i) collectives.add(rank, i, events[i]);
  }
  collectives.add_to(builder, trace.communicators, options);
}

}  // namespace

CommMatrix point_to_point_matrix(const Trace& trace) {
  CommMatrixBuilder builder(trace.rank_count());
  add_point_to_point(trace, builder);
  return builder.build();
}

CommMatrix collective_matrix(const Trace& trace, const CollectiveOptions& options) {
  CommMatrixBuilder builder(trace.rank_count());
  add_collectives(trace, builder, options);
  return builder.build();
}

CommMatrix matrix_with_collectives(const Trace& trace, const CollectiveOptions& options) {
  CommMatrixBuilder builder(trace.rank_count());
  add_point_to_point(trace, builder);
  add_collectives(trace, builder, options);
  return builder.build();
}

}  // namespace mapsim::traces
