#pragma once
// What a mapper may ask of a replay of the workload it maps: how long a mapping takes, and where
// the time went. The mappers that search with the simulator in the loop (replay-search) see the
// simulator only through this interface, so that mappers/ does not depend on sim/: the program
// that holds the trace (the CLI, a sweep) builds the oracle above both (tuning/ReplayOracle.hpp)
// and hands it to Mapper::map. A mapper that needs one and gets none throws InputError.
//
// judge() replays each mapping of a batch (in parallel, as the oracle sees fit) and returns one
// Judgement per mapping, in order: the same mappings give the same judgements whatever the
// thread count (the replays are deterministic and independent).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

/// How much of the workload a replay runs: its first `iterations` (a generated workload run with
/// that iteration count; 0: all of it), or the consistent cut within the first `share` of each
/// rank's events (traces/TraceSlice.hpp, any trace; 1: all of it). At most one of them cuts.
struct Slice {
  std::int64_t iterations = 0;
  double share = 1;

  [[nodiscard]] bool whole() const { return iterations == 0 && share >= 1; }
  friend bool operator==(const Slice&, const Slice&) = default;
};

/// Which replay a search asks for: a network model (sim's names: "analytic", "flow", "packet"),
/// the factor on the recorded computation (0: communication only), how much of the workload,
/// whether the judgements list the critical path's transfers (which cost the replay time and
/// memory: only where the search reads them), and a makespan past which a replay may stop
/// (Judgement::cut).
struct Fidelity {
  std::string model = "flow";
  double compute_scale = 0;
  Slice slice{};
  bool critical_messages = false;
  /// Picoseconds; 0 = none: a replay whose clock passes this with a rank still running stops
  /// there, since the mapping is then known to take longer.
  std::int64_t stop_past = 0;

  friend bool operator==(const Fidelity&, const Fidelity&) = default;
};

/// What one replay of a mapping measured. Times are picoseconds of simulated time.
struct Judgement {
  std::int64_t makespan = 0;
  /// Trace events the replay ran: the workload's, or its slice's (the same for every mapping).
  std::int64_t events = 0;
  /// When each rank finished (its last event).
  std::vector<std::int64_t> rank_finish;
  /// Busy time of each network link of the machine (bytes / bandwidth carried), by LinkId.
  std::vector<std::int64_t> link_busy;
  /// The network's energy over the replay, in joules: dynamic and static, every link and channel
  /// of the machine (sim/Energy.hpp, with the oracle's link parameters).
  double energy_joules = 0;
  /// The transfers on the replay's critical path, first to last, as (sender, receiver) ranks
  /// (sim/Result.hpp, critical_messages), if Fidelity::critical_messages asked for them.
  std::vector<std::pair<Rank, Rank>> critical_messages;
  /// Stopped past Fidelity::stop_past: `makespan` is when it stopped, later than that limit and
  /// no later than the whole replay's makespan; the other measures are of the replay so far.
  bool cut = false;
};

class TimeOracle {
 public:
  virtual ~TimeOracle() = default;
  TimeOracle() = default;
  TimeOracle(const TimeOracle&) = delete;
  TimeOracle& operator=(const TimeOracle&) = delete;

  /// The machine the replays run on: the mappings name its nodes.
  [[nodiscard]] virtual const topo::Topology& topology() const = 0;

  /// Replays every mapping under `fidelity`. Throws InputError if the workload cannot be replayed
  /// (the message names the mapping's index), Cancelled if the oracle's stop condition strikes.
  [[nodiscard]] virtual std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                                     const Fidelity& fidelity) const = 0;

  /// A search's account of what it tried (several lines); the oracle shows or keeps it.
  virtual void report(std::string_view text) const = 0;

  /// One line of progress while a search runs (after the portfolio, after each round), for the
  /// user waiting on a long search; shown at once or dropped, never kept (default: dropped).
  virtual void progress(std::string_view /*line*/) const {}

  /// Throws InputError saying why the workload cannot be replayed cut as `slice` (a trace file,
  /// whose iterations are not marked; a workload without iterations; a cut at as many iterations
  /// as it has or more), so that a search refuses it before it maps or replays anything; the
  /// default checks nothing (judge() throws then).
  virtual void check_slice(const Slice& /*slice*/) const {}

  /// Where the caller took a search's replay settings from, when not from the mapper's own
  /// parameters (simulate fills an unset model= and compute-scale= from its --model and
  /// --compute-scale: cli/MapperChoice.hpp), for the report line that names them; "" otherwise.
  [[nodiscard]] virtual std::string settings_note() const { return {}; }
};

}  // namespace mapsim::map
