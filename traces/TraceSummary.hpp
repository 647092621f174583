#pragma once
// What reading an OTF2 archive found: the archive, its clock, and counts of what was read,
// turned into trace-model events, or skipped.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/Ids.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

inline constexpr std::size_t kEventKindCount = 8;
inline constexpr std::size_t kCollectiveOpCount = 21;

/// OTF2 event records of one kind (e.g. "MpiSend", "OmpFork", "Metric").
struct RecordCount {
  std::string_view kind;
  std::uint64_t read = 0;     ///< records of this kind in the archive (every location)
  std::uint64_t skipped = 0;  ///< of those, records that do not enter the trace model
};

struct TraceSummary {
  std::filesystem::path anchor;        ///< the anchor file read
  std::string creator;                 ///< e.g. "Score-P 8.4" (empty if not recorded)
  std::string otf2_version;            ///< the archive's OTF2 version, e.g. "3.0.2"
  std::uint64_t timer_resolution = 0;  ///< clock ticks per second
  std::uint64_t trace_length = 0;      ///< in clock ticks
  Rank ranks = 0;                      ///< MPI_COMM_WORLD size (processes if not MPI)
  std::size_t locations = 0;           ///< OTF2 locations (threads, streams, ...)
  std::size_t communicators = 0;       ///< MPI communicators in the trace model

  std::uint64_t records = 0;  ///< OTF2 event records read, all locations and kinds
  std::uint64_t skipped = 0;  ///< records that did not enter the model (non-MPI, other threads)
  std::vector<RecordCount> records_by_kind;  ///< kinds read at least once, in OTF2's order

  std::array<std::uint64_t, kEventKindCount> events{};          ///< by EventKind
  std::array<std::uint64_t, kCollectiveOpCount> collectives{};  ///< by CollectiveOp
  Traffic point_to_point;  ///< Send and Isend events: messages and payload bytes

  /// Completions, tests or cancellations of requests that were not live (counted, ignored).
  std::uint64_t unknown_requests = 0;
  /// Requests still live when their rank's trace ended (never completed).
  std::uint64_t open_requests = 0;

  /// Trace-model events produced (every kind).
  [[nodiscard]] std::uint64_t mpi_events() const;
  [[nodiscard]] std::uint64_t count(EventKind kind) const {
    return events[static_cast<std::size_t>(kind)];
  }
  [[nodiscard]] std::uint64_t count(CollectiveOp op) const {
    return collectives[static_cast<std::size_t>(op)];
  }
};

}  // namespace mapsim::traces
