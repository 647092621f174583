#pragma once
// The trace of `simulate`, `map` and `advise`: an OTF2 archive (read into memory once and shared
// by the replays, or streamed per replay) or a generator spec (its ranks run as coroutines per
// replay, or generated once and held when several replays share it), with the mappers' matrix
// of it (cli/MatrixChoice.hpp).

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mappers/TimeOracle.hpp"
#include "sim/Simulation.hpp"
#include "support/Ids.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/EventStreams.hpp"
#include "traces/Trace.hpp"
#include "traces/TraceReader.hpp"
#include "traces/TraceSlice.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::cli {

/// How the trace's events reach the replays.
enum class ReadMode { Auto, Memory, Stream };

/// "auto", "memory" or "stream" (--read); throws InputError naming the valid ones.
ReadMode read_mode_from_name(const std::string& name);

/// The trace named by --trace: an OTF2 archive, read into memory once or streamed per replay,
/// or a generator spec, whose ranks run as coroutines per replay (traces/EventStreams.hpp) or
/// whose trace is generated once and held (load()).
class TraceInput {
 public:
  /// Reads the archive's definitions (rank count, missing files) or parses the spec: cheap.
  TraceInput(const std::string& text, ReadMode mode);

  [[nodiscard]] Rank ranks() const { return ranks_; }
  [[nodiscard]] const std::string& source() const { return source_; }
  /// How the replays get the events: "memory", "stream" (an archive), "generated" (per replay)
  /// or "generated in memory" (once, held).
  [[nodiscard]] std::string_view reading() const;

  /// Reads an archive that is to be held in memory (the expensive step, after every cheap check).
  /// A generator spec is generated once and held with ReadMode::Memory, or with ReadMode::Auto
  /// when `shared` (several replays will read it: several mappers, a mapper that replays) and its
  /// matrix under `options` (the mappers' matrix) counts at most traces::kStoredWorkloadMessages
  /// messages, as sweeps decide; else each replay generates it as it goes. Either way the replays
  /// see the same events (traces/WorkloadStreams.hpp). `known` is that matrix if the caller has
  /// it already; otherwise load() computes it, once: matrix(options) then returns it.
  void load(bool shared = false, const traces::MatrixOptions& options = {},
            const traces::CommMatrix* known = nullptr);

  /// The mappers' matrix (cli/MatrixChoice.hpp), its caveats logged.
  [[nodiscard]] traces::CommMatrix matrix(const traces::MatrixOptions& options) const;

  /// Replays the trace: the stored one, or fresh streams per call (replays may run in parallel).
  [[nodiscard]] sim::Result simulate(const topo::Topology& topology, const topo::Mapping& mapping,
                                     const sim::SimConfig& config);
  /// The same for a slice (map::Slice): the first iterations of a generated workload (InputError
  /// for an archive, which cannot be cut into iterations), or the consistent cut within a share of
  /// any trace's events (traces/TraceSlice.hpp), cut once and shared by the replays.
  [[nodiscard]] sim::Result simulate(const topo::Topology& topology, const topo::Mapping& mapping,
                                     const sim::SimConfig& config, const map::Slice& slice);
  /// Throws InputError if the trace cannot be cut as `slice` (map::TimeOracle::check_slice): its
  /// first iterations of an archive (not marked), of a workload without iterations, or as many
  /// as the workload runs or more (not a slice). Cheap: before any replay.
  void check_slice(const map::Slice& slice) const;

 private:
  std::string text_;
  std::string source_;
  Rank ranks_ = 0;
  ReadMode mode_;
  bool stream_ = true;
  std::optional<traces::GeneratorOptions> generator_;
  std::optional<traces::TraceReader> reader_;
  std::optional<traces::Trace> stored_;
  /// A generator's matrix computed by load(), and the options it was computed under.
  std::optional<std::pair<traces::MatrixOptions, traces::CommMatrix>> generated_matrix_;
  std::unique_ptr<traces::EventStreams> streams_;
  std::mutex mutex_;
  traces::SliceCache slices_;

  /// The consistent cut within `share` of each rank's events, made on first use.
  std::shared_ptr<const traces::Trace> slice(double share);
};

}  // namespace mapsim::cli
