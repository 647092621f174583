#pragma once
// The workloads of a sweep: what is known before running (content digest, rank count, a size
// estimate for scheduling) and the loaded trace and matrix a run maps and replays.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "experiments/Config.hpp"
#include "mappers/TimeOracle.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/EventStreams.hpp"
#include "traces/Trace.hpp"
#include "traces/TraceSlice.hpp"

namespace mapsim::exp {

struct WorkloadInfo {
  /// SHA-256 of the content: an archive's files, a matrix file, or for a generated workload its
  /// canonical generator spec with the default iteration count filled in (generators are
  /// deterministic; a change to one bumps the results version, see Sweep.hpp).
  std::string digest;
  Rank ranks = 0;      ///< 0 if unknown (the trace cannot be read: see `error`)
  std::string kernel;  ///< generated: the kernel; "" otherwise
  std::string problem_class;
  std::string error;  ///< why the workload cannot be read ("" if it can): its runs fail with it
  /// Expected replay work in events (a scheduling estimate, not a measurement).
  double size = 0;
  /// A matrix file recorded by libmapsim-record (its collectives counted unless the config's
  /// matrix: {collectives: false}); false for a plain CSV matrix, which is taken as given.
  bool recorded = false;
};

/// Digest, ranks and size of a workload without reading its events: a generator spec is not
/// run, an OTF2 archive's definitions only are read. Content errors (damaged definitions, a bad
/// CSV) are returned in `error`, never thrown; a file that cannot be read at all throws.
WorkloadInfo inspect(const WorkloadValue& workload);

/// A workload ready to map and replay: its trace (none for a matrix) and communication matrix.
struct LoadedWorkload {
  /// The trace held in memory, shared by the runs that replay it; none for a matrix, or when
  /// the trace is replayed from streams (`streamed`).
  std::optional<traces::Trace> trace;
  traces::CommMatrix matrix;
  /// Replayed without holding the trace: each replay opens its own streams (a large archive
  /// read in windows, or a large generated workload run as it is replayed).
  bool streamed = false;
  WorkloadValue source;

  /// Whether runs can replay it (it has a trace, stored or streamed).
  [[nodiscard]] bool replayable() const { return trace.has_value() || streamed; }
  /// Events for one replay: the stored trace's, or fresh streams.
  [[nodiscard]] std::unique_ptr<traces::EventStreams> streams() const;
  /// Events of a slice (map::Slice; whole: streams()): the first iterations of a generated
  /// workload, run afresh (InputError for a trace file, which cannot be cut into iterations), or
  /// the consistent cut within a share of any trace's events (traces/TraceSlice.hpp), cut once
  /// and shared by the replays.
  [[nodiscard]] std::unique_ptr<traces::EventStreams> streams(const map::Slice& slice) const;

 private:
  std::shared_ptr<traces::SliceCache> slices_ = std::make_shared<traces::SliceCache>();
};

/// Generates or reads the workload; the matrix of a trace counts its point-to-point messages
/// and, if `collectives`, its collectives' messages too. Without `need_trace` (no run replays
/// it) only the matrix is made: streamed from an archive, or computed from a generator without
/// its trace (workload_matrix). Throws InputError naming the file for unreadable input.
LoadedWorkload load(const WorkloadValue& workload, bool collectives, bool need_trace = true,
                    const traces::CollectiveOptions& algorithms = {});

}  // namespace mapsim::exp
