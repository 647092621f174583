#pragma once
// mapsim::sim — replays an MPI trace on a modelled machine under a mapping (the public face of the
// simulator; the kernel is split by concern: Engine, Network, the network models, Replay).
//
//   const auto topology = topo::make_topology("torus:4x4x4");
//   const auto mapping = topo::in_order_mapping(trace.rank_count(), *topology);
//   sim::SimConfig config;            // defaults: flow model, compute as recorded, 64 KiB eager
//   config.model = "packet";
//   const sim::Result result = sim::simulate(trace, *topology, mapping, config);
//
// Replay semantics (MPI as the trace model in traces/Trace.hpp defines it):
// - Each rank walks its events; the gap before an event is computation, replayed as a delay of
//   gap * compute_scale (0 replays communication only). MPI calls take no time of their own
//   beyond the per-message overheads and gap of config.overheads (sim/Overheads.hpp; none by
//   default).
// - Point-to-point messages match by (communicator, source, tag) in posting order; the matching
//   order is the order of the sends (MPI's non-overtaking rule), whatever the network does.
// - Eager protocol for messages of at most eager_threshold bytes: the data leaves at once and the
//   send completes immediately (buffered); the receive completes when the data has arrived and the
//   receive is posted. Rendezvous above: a zero-byte request-to-send travels to the receiver; once
//   the receive is posted, a zero-byte clear-to-send travels back, then the data; send and receive
//   complete when the data has arrived.
// - Isend / Irecv / ICollective start requests; Wait blocks until one completes; Cancel withdraws
//   an unmatched one. Ranks on one node talk through its intra-node channel.
// - Collectives run as the point-to-point schedules of traces/CollectiveSchedule.hpp, each step
//   posting its receive and send together; communicator creation and destruction take no time.
// - A replay that cannot complete throws InputError naming every blocked rank and what it waits
//   for; it never hangs.

#include <atomic>
#include <string>

#include "sim/NetworkModel.hpp"
#include "sim/Overheads.hpp"
#include "sim/Result.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CollectiveAlgorithm.hpp"
#include "traces/EventStreams.hpp"
#include "traces/Trace.hpp"

namespace mapsim::sim {

/// When a replay gives up (throwing Cancelled), checked every few thousand engine events, or
/// stops early with what it has measured (`past`). Not a parameter of the model: a replay that
/// finishes gives the same result whatever its limits.
struct StopCondition {
  /// Wall-clock budget of the replay in seconds; 0 = none.
  double wall_seconds = 0;
  /// Set by another thread (e.g. on Ctrl-C) to stop the replay; nullptr = never.
  const std::atomic<bool>* cancel = nullptr;
  /// Simulated ps: the replay stops at its first event later than this while a rank is still
  /// running (Result::cut), since its makespan is then known to exceed it; 0 = never. A search
  /// that only needs to know whether a mapping beats a makespan passes that makespan.
  Time past = 0;
};

/// The accepted ranges of the replay's time-producing parameters (validate): a compute scale up to
/// a million, an eager threshold up to 1 TiB, packets up to 1 GiB. Times that still run past the
/// simulated clock's 106 days throw InputError as they arise (sim/Time.hpp).
inline constexpr double kMaxComputeScale = 1e6;
inline constexpr std::int64_t kMaxEagerThreshold = std::int64_t{1} << 40;
inline constexpr std::int64_t kMaxPacketBytes = std::int64_t{1} << 30;

/// Every parameter of a replay, with its default (stated here only).
struct SimConfig {
  /// Network model, one of network_models().
  std::string model = "flow";
  /// Factor applied to every recorded compute gap; 0 replays communication only.
  double compute_scale = 1.0;
  /// Largest message sent eagerly, bytes; larger ones use rendezvous. 64 KiB, as SimGrid SMPI's
  /// send-is-detached threshold and Open MPI's typical eager limit over fast networks.
  std::int64_t eager_threshold = 65536;
  /// Replay from MPI_Init to MPI_Finalize: drop the computation before a first event that is
  /// MPI_Init's communicator creation and after a last event that is MPI_Finalize's communicator
  /// destruction (process start-up and tear-down, which Score-P records but which is no part of
  /// the application's run; SMPI and Dimemas replay the same window). Off: replay every gap.
  bool init_to_finalize = true;
  /// Bandwidth and latency per link class (defaults in topologies/LinkClass.cpp).
  topo::LinkTable links;
  /// Draws the per-message routes of the machine's routing when it is ecmp, valiant or ugal
  /// (Network.hpp); no effect under minimal routing.
  std::uint64_t seed = 0;
  ModelOptions model_options;
  /// Which algorithm each collective runs (traces/CollectiveAlgorithm.hpp): MPICH's by default.
  traces::CollectiveOptions collectives;
  /// MPI's per-message costs on the ranks (sim/Overheads.hpp): none by default.
  Overheads overheads;
  /// Under overheads, a rank whose CPU is busy executes its next sends, receives and Waits at
  /// once instead of after an engine event each (sim/Replay.hpp, runs_ahead). It changes no
  /// result, only the replay's speed; off for tests that check exactly that.
  bool run_ahead = true;
  /// Keep the list of the critical path's transfers (Result::critical_messages): a record of
  /// every transfer while replaying (24 bytes each), so off by default.
  bool critical_messages = false;
  StopCondition stop;
};

/// Throws InputError naming the parameter if a value is out of range.
void validate(const SimConfig& config);

/// Replays `trace` with rank r on node mapping.node(r). Throws InputError for a mapping that does
/// not fit, an invalid configuration or a trace that cannot complete (see above), Cancelled when
/// config.stop says so.
Result simulate(const traces::Trace& trace, const topo::Topology& topology,
                const topo::Mapping& mapping, const SimConfig& config = {});

/// The same, reading the events as the replay needs them (traces/EventStreams.hpp): memory is
/// bounded by the ranks' windows and the messages in flight, not by the trace's length. A stored
/// trace and its streams give the same Result. References out of range (a communicator, a peer)
/// are found as the events are read, and throw InputError naming the rank and event.
Result simulate(traces::EventStreams& streams, const topo::Topology& topology,
                const topo::Mapping& mapping, const SimConfig& config = {});

}  // namespace mapsim::sim
