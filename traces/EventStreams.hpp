#pragma once
// A trace read while it is replayed: each rank's events fetched on demand, a window at a time, so
// that a replay's memory is bounded by the ranks' windows and the messages in flight, not by the
// trace's length. The events are exactly those of the stored Trace (Trace.hpp's rules), rank by
// rank in the same order; only when they are produced differs.
//
// Implementations: a stored Trace (TraceStreams, below), an OTF2 archive read location by
// location (Otf2Streams.hpp), a generated workload whose ranks run as coroutines
// (WorkloadStreams.hpp). One object serves one consumer on one thread; ranks may be read in any
// interleaving.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "traces/Trace.hpp"

namespace mapsim::traces {

class EventStreams {
 public:
  virtual ~EventStreams() = default;

  [[nodiscard]] virtual Rank rank_count() const = 0;
  /// The communicators the events refer to (Event::comm indexes it). It may grow while the
  /// streams are read (an archive's MPI_COMM_SELF of a rank, on first use); an event's
  /// communicator is listed by the time read() returns the event.
  [[nodiscard]] virtual const std::vector<Communicator>& communicators() const = 0;
  /// The index of MPI_COMM_WORLD in communicators() (Trace::world).
  [[nodiscard]] virtual std::uint16_t world() const = 0;
  /// Where the events come from (a path, or "generated: " and the workload).
  [[nodiscard]] virtual const std::string& source() const = 0;
  /// The number of events of all ranks, if known without reading them (for progress).
  [[nodiscard]] virtual std::optional<std::uint64_t> event_count() const = 0;

  /// Appends rank `rank`'s next events to `out`: at least one unless its stream has ended, and
  /// about `max` at most (an implementation may return a little more, e.g. a Waitall's Waits
  /// together). Returns how many were appended; 0 means the stream has ended. Throws InputError
  /// for events that cannot be read (naming the file and location, as the readers do).
  virtual std::size_t read(Rank rank, std::vector<Event>& out, std::size_t max) = 0;

  /// RankStream::final_gap of `rank`; valid once read() has returned 0 for it.
  [[nodiscard]] virtual std::int64_t final_gap(Rank rank) const = 0;
};

/// The streams of a stored Trace (which must outlive it): windows copied from its ranks' events.
class TraceStreams final : public EventStreams {
 public:
  explicit TraceStreams(const Trace& trace);

  [[nodiscard]] Rank rank_count() const override { return trace_->rank_count(); }
  [[nodiscard]] const std::vector<Communicator>& communicators() const override {
    return trace_->communicators;
  }
  [[nodiscard]] std::uint16_t world() const override { return trace_->world; }
  [[nodiscard]] const std::string& source() const override { return trace_->source; }
  [[nodiscard]] std::optional<std::uint64_t> event_count() const override {
    return trace_->event_count();
  }
  std::size_t read(Rank rank, std::vector<Event>& out, std::size_t max) override;
  [[nodiscard]] std::int64_t final_gap(Rank rank) const override;

 private:
  const Trace* trace_;
  std::vector<std::size_t> next_;  // per rank: the next event to hand out
};

/// Whether the OTF2 archive at `path` (anchor file or directory) is small enough to be read into
/// memory once and shared by several replays: its event files (*.evt) hold at most 256 MiB,
/// about as many bytes as its events take in memory. Larger archives are replayed from streams.
bool archive_fits_in_memory(const std::filesystem::path& path);

/// A generated workload whose matrix (the mappers': collectives' messages included when it counts
/// them) counts more messages than this is replayed from streams, never stored (about 3 events of
/// 40 bytes per message: 2 Mi messages hold ~250 MB); an archive likewise unless
/// archive_fits_in_memory.
inline constexpr std::uint64_t kStoredWorkloadMessages = std::uint64_t{2} << 20;

/// Reads every rank's stream to its end into a Trace (the round trip of the tests).
Trace collect(EventStreams& streams, std::size_t window = 4096);

}  // namespace mapsim::traces
