#include "traces/Trace.hpp"

#include <array>

namespace mapsim::traces {

std::string_view name(EventKind kind) {
  static constexpr std::array<std::string_view, 8> kNames{
      "Send", "Isend", "Recv", "Irecv", "Wait", "Cancel", "Collective", "ICollective"};
  return kNames[static_cast<std::size_t>(kind)];
}

std::string_view name(CollectiveOp op) {
  static constexpr std::array<std::string_view, 21> kNames{
      "none",       "Barrier",  "Bcast",          "Gather",
      "Gatherv",    "Scatter",  "Scatterv",       "Allgather",
      "Allgatherv", "Alltoall", "Alltoallv",      "Alltoallw",
      "Allreduce",  "Reduce",   "Reduce_scatter", "Reduce_scatter_block",
      "Scan",       "Exscan",   "create-handle",  "destroy-handle",
      "other"};
  return kNames[static_cast<std::size_t>(op)];
}

std::size_t Trace::event_count() const {
  std::size_t count = 0;
  for (const auto& rank : ranks) count += rank.events.size();
  return count;
}

}  // namespace mapsim::traces
