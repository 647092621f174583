#pragma once
// What a replay measured. Times are picoseconds of simulated time unless named otherwise.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/Time.hpp"
#include "support/Ids.hpp"

namespace mapsim::sim {

/// Message latency distribution: every data transfer (point-to-point and collective messages,
/// not the rendezvous control packets), from the time its data enters the network to the time
/// its last byte arrives, against its contention-free time (route latency + size / bottleneck
/// bandwidth). Percentiles come from a log-linear histogram (64 sub-buckets per power of two),
/// so they are exact to within 1/64 (1.6 %) of the value.
class LatencyHistogram {
 public:
  void add(Time latency, Time contention_free);

  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] double mean() const;  ///< ps
  [[nodiscard]] Time max() const { return max_; }
  /// The q-quantile (0 <= q <= 1), ps; 0 when empty.
  [[nodiscard]] Time percentile(double q) const;
  /// Mean over messages of latency / contention-free time (1 = no contention anywhere).
  [[nodiscard]] double mean_slowdown() const;
  /// Sum of latencies over sum of contention-free times.
  [[nodiscard]] double aggregate_slowdown() const;

 private:
  static constexpr int kSubBits = 6;
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  double sum_ = 0;
  double sum_free_ = 0;
  double sum_ratio_ = 0;
  Time max_ = 0;
};

/// The critical path of a replay: the chain of computation, MPI overheads and messages that ends
/// when the last rank finishes, its time split by cause. The chain is followed backwards from the
/// last rank: a rank that resumed when a message completed its request continues the message's
/// chain, which continues its sender's (or, for a rendezvous, the later of the request-to-send's
/// and the receive's posting); a rank that did not wait continues its own. Each message on it
/// adds its transfer time, split as
///   latency     = the route's latency (contention-free time of 0 bytes),
///   bandwidth   = its contention-free time - latency (bytes over the bottleneck bandwidth),
///   contention  = its transfer time - its contention-free time (sharing links with others),
/// and each rank on it its computation (the recorded gaps, scaled) and the time its CPU spent on
/// MPI overheads (sim/Overheads.hpp). `waiting` is the rest: time a rank on the path waited
/// without a message to blame (0 in the replay's semantics without overheads; kept so that the
/// parts always add up). compute + overhead + latency + bandwidth + contention + waiting =
/// makespan exactly.
struct CriticalPath {
  Time compute = 0;
  Time overhead = 0;
  Time latency = 0;
  Time bandwidth = 0;
  Time contention = 0;
  Time waiting = 0;
  std::uint64_t messages = 0;  ///< transfers on the path (data and rendezvous control)
  /// During a replay with SimConfig::critical_messages: the replay's record of the path's last
  /// transfer (Result::critical_messages lists them); kNoTransfer otherwise.
  std::uint32_t last_transfer = kNoTransfer;
  static constexpr std::uint32_t kNoTransfer = 0xffffffff;

  [[nodiscard]] Time total() const {
    return compute + overhead + latency + bandwidth + contention + waiting;
  }
};

struct Result {
  std::string model;
  Time makespan = 0;                ///< when the last rank finished
  std::vector<Time> rank_finish;    ///< per world rank
  std::vector<Time> rank_mpi_time;  ///< per world rank: finish time minus replayed computation
  Time mpi_time_max = 0;
  double mpi_time_mean = 0;

  /// Per resource (links, then the channels of the nodes; see Network.hpp): bytes carried,
  /// busy time bytes / bandwidth (the time the link spent transmitting: exact for `packet`, the
  /// integral of the used fraction of its bandwidth for `flow`), utilisation busy / makespan.
  std::vector<std::int64_t> resource_bytes;
  std::vector<Time> resource_busy;
  std::vector<double> resource_utilisation;
  std::int32_t link_count = 0;       ///< resources below this index are network links
  double max_link_utilisation = 0;   ///< over network links
  double mean_link_utilisation = 0;  ///< over network links that carried any byte
  std::int32_t links_used = 0;

  LatencyHistogram latency;
  std::uint64_t messages = 0;  ///< point-to-point messages sent (Send, Isend)
  std::uint64_t message_bytes = 0;
  std::uint64_t collective_messages = 0;  ///< point-to-point messages of collective schedules
  std::uint64_t collective_bytes = 0;
  std::uint64_t collectives = 0;         ///< collective operations started, per member
  std::uint64_t unmatched_messages = 0;  ///< sent, never received by the end of the trace
  std::uint64_t cancelled = 0;

  CriticalPath critical_path;
  /// With SimConfig::critical_messages: the transfers on the critical path, first to last (a
  /// rendezvous's clear-to-send goes from the receiver to the sender, with 0 bytes).
  struct CriticalMessage {
    Rank src = 0;
    Rank dst = 0;
    std::int64_t bytes = 0;
  };
  std::vector<CriticalMessage> critical_messages;

  std::uint64_t trace_events = 0;   ///< trace events replayed
  std::uint64_t engine_events = 0;  ///< discrete events processed by the engine
  double wall_seconds = 0;          ///< wall-clock time of the replay (not of loading)

  /// The replay stopped early (StopCondition::past): `makespan` is the simulated time it had
  /// reached, later than the limit and no later than the whole replay's makespan; rank_finish
  /// holds each finished rank's finish and that time for the others; the other measures cover
  /// the replay so far.
  bool cut = false;
};

}  // namespace mapsim::sim
