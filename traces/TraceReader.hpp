#pragma once
// Reading OTF2 archives (as Score-P 1.x to 8.x writes them, OTF2 archive versions 1.4 to 3.0)
// into the trace model, or straight into a communication matrix.
//
// Which records become which Event, how compute gaps and requests are derived, and what is
// skipped: Otf2LocationReader.hpp. Ranks and communicators: Otf2Definitions.hpp. In short: the
// MPI location of each rank (one per rank, even in hybrid traces) is decoded; records of every
// other kind and location (OpenMP, CUDA, RMA, metrics, I/O, ...) are counted per kind and
// skipped, never fatal. Peers and collective roots are translated to MPI_COMM_WORLD ranks
// through their communicator's group.
//
// A trace without MPI events (e.g. an OpenMP-only program) is not an error here: it reads as
// its ranks (processes) with empty streams, and summary().mpi_events() == 0 tells the caller.
//
// Errors (InputError, naming the file): a missing path, a directory without an anchor file,
// unreadable or truncated definition or event files, event files missing for a location that
// has events, MPI events whose peer is not a member of their communicator. A damaged archive is
// never read as intact (both reading paths check the same): each event file must hold the
// records its location's definition declares (numberOfEvents), with timestamps that never go
// back and lie in the clock range of the definitions (global offset to offset + trace length;
// no upper bound if the length is 0), naming only defined regions, calling contexts and
// communicators; the global definitions must be as many as the anchor file declares. Missing,
// empty, unreadable (permissions) and truncated files each say so. OTF2 event files do not carry
// their location, so one swapped with another location's of the same run passes these checks if
// it declares as many records (and its clock offsets keep it in range).

#include <filesystem>
#include <memory>
#include <vector>

#include "traces/CollectiveSchedule.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/Otf2Archive.hpp"
#include "traces/Otf2LocationReader.hpp"
#include "traces/Trace.hpp"
#include "traces/TraceSummary.hpp"

namespace mapsim::traces {

class Otf2Definitions;

/// One OTF2 archive, opened with its global definitions read; then its events are read once,
/// either into a Trace or streamed location by location (memory independent of the trace's
/// length: libotf2 buffers one chunk of one location at a time).
class TraceReader {
 public:
  /// `path`: the anchor file (`traces.otf2`) or the archive directory.
  explicit TraceReader(const std::filesystem::path& path);
  ~TraceReader();
  TraceReader(TraceReader&&) noexcept;
  TraceReader& operator=(TraceReader&&) noexcept;

  /// What is known so far: the definitions after construction, the counts after reading.
  [[nodiscard]] const TraceSummary& summary() const { return summary_; }
  [[nodiscard]] Rank rank_count() const { return summary_.ranks; }

  /// Reads every event into a Trace (Trace::source is the anchor file's path).
  [[nodiscard]] Trace read_trace();
  /// Streams every event to `sink`, one rank after the other (see EventSink for the order), and
  /// returns the communicators the events refer to.
  std::vector<Communicator> stream(EventSink& sink);

 private:
  void read_events(std::vector<RankStream>* ranks, EventSink* sink);

  Otf2Archive archive_;
  std::unique_ptr<Otf2Definitions> definitions_;
  TraceSummary summary_;
  bool read_ = false;
};

/// Reads the archive at `path` (anchor file or directory) into a Trace.
Trace read_trace(const std::filesystem::path& path);

/// What a streamed matrix counts.
struct MatrixOptions {
  /// Also count the messages of collectives, expanded by the simulator's algorithms
  /// (CollectiveSchedule). Their calls are kept until all are read (32 bytes per call and rank).
  bool collectives = false;
  CollectiveOptions algorithms;

  friend bool operator==(const MatrixOptions&, const MatrixOptions&) = default;
};

/// The matrix of the archive at `path`, streamed without holding the events: one message per
/// Send and Isend, from its rank to its peer (and with `options.collectives`, the collectives'
/// messages). Equals point_to_point_matrix(read_trace(path)) (matrix_with_collectives(...)).
CommMatrix read_matrix(const std::filesystem::path& path, const MatrixOptions& options = {});

/// The same, from an open reader (whose summary() then describes the whole archive).
CommMatrix read_matrix(TraceReader& reader, const MatrixOptions& options = {});

}  // namespace mapsim::traces
