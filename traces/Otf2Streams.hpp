#pragma once
// An OTF2 archive read as EventStreams: each rank's MPI location read on demand, a batch of
// records at a time, so that memory stays bounded however long the trace (EventStreams.hpp).
//
// The archive and its global definitions are opened once (as TraceReader does); each rank keeps
// its location's event reader open between reads (a LocationCursor: the decoder and the checks
// of the stored path, Otf2LocationReader.hpp). The decoder streams an Irecv or ICollective only
// when a later record completes it, with its position in the stored order; a per-rank reorder
// buffer restores that order, releasing events as a contiguous prefix of positions. So the
// events, gaps, request numbers and final gaps equal read_trace's, and
// collect(Otf2Streams(path)) == read_trace(path).
//
// Memory per rank: the window, the events held back behind a request not yet completed (and
// those decoded past the window by the last batch of records), and libotf2's buffer of one
// chunk of the event file (Score-P: 1 MiB by default) while the rank's stream is open.
//
// Errors are the stored path's, thrown by read() when the rank's records reach them (the record
// count when its records are exhausted). Missing event files are found on construction. Locations
// without a rank's MPI events (other threads, GPU streams, metrics) carry no stream; they are
// read and checked (counted only) after the last rank's stream has ended, as read_trace would.
//
// Self-like communicators (MPI_COMM_SELF, Otf2Definitions.hpp) get a Communicator per rank when
// an event first uses them, appended to communicators() while the streams are read (as
// EventStreams allows). Read rank after rank, they are numbered as read_trace numbers them; read
// interleaved, in the order the ranks reach them, which changes no replay. AsStored numbers them
// as read_trace whatever the reading order: the constructor then decodes every MPI location once,
// discarding the events (about a read_matrix of the archive), before the first read.
// event_count() is unknown (nullopt): the definitions count OTF2 records, not MPI events.

#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/EventStreams.hpp"
#include "traces/Otf2Archive.hpp"
#include "traces/Otf2LocationReader.hpp"
#include "traces/TraceSummary.hpp"

namespace mapsim::traces {

class Otf2Streams final : public EventStreams {
 public:
  /// How self-like communicators are numbered (above).
  enum class SelfCommunicators : std::uint8_t { OnFirstUse, AsStored };

  /// Opens `path` (the anchor file or the archive directory) and reads its definitions; throws
  /// InputError as TraceReader's constructor does, if an event file is missing, and if the
  /// process may not open a file per rank (the soft limit is raised up to the hard one first).
  explicit Otf2Streams(const std::filesystem::path& path,
                       SelfCommunicators numbering = SelfCommunicators::OnFirstUse);
  ~Otf2Streams() override;
  // The open cursors refer to the definitions and the summary held here.
  Otf2Streams(const Otf2Streams&) = delete;
  Otf2Streams& operator=(const Otf2Streams&) = delete;

  [[nodiscard]] Rank rank_count() const override;
  [[nodiscard]] const std::vector<Communicator>& communicators() const override;
  [[nodiscard]] std::uint16_t world() const override;
  [[nodiscard]] const std::string& source() const override { return source_; }
  [[nodiscard]] std::optional<std::uint64_t> event_count() const override { return std::nullopt; }
  std::size_t read(Rank rank, std::vector<Event>& out, std::size_t max) override;
  [[nodiscard]] std::int64_t final_gap(Rank rank) const override;

  /// Counts of what was read so far (TraceReader::summary() once every stream has ended).
  [[nodiscard]] const TraceSummary& summary() const { return summary_; }

 private:
  struct Stream;

  void pull(Stream& stream, std::size_t wanted);
  void end(Stream& stream);
  void read_other_locations();
  void scan_self_like_communicators();

  Otf2Archive archive_;
  std::unique_ptr<Otf2Definitions> definitions_;
  std::unique_ptr<Otf2LocationFiles> files_;
  std::string source_;
  TraceSummary summary_;
  RecordCounters counters_;
  std::vector<std::unique_ptr<Stream>> streams_;  // by rank
  Rank ended_ = 0;                                // streams whose records are exhausted
  bool scanned_ = false;  // the MPI locations were read once (and their local definitions)
};

}  // namespace mapsim::traces
