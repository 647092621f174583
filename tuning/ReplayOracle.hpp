#pragma once
// A TimeOracle (mappers/TimeOracle.hpp) that replays a workload with the simulator: judge() runs
// one sim::simulate per mapping, in parallel (oneTBB), with the caller's configuration — links,
// MPI overheads, collective algorithms, eager threshold, calibration, seed — and the model and
// compute scale of the fidelity the search asks for, of the whole workload or the slice it asks
// for (Fidelity::slice: a generated workload's first iterations, or the consistent cut within a
// share of any trace's events; the replayer throws InputError for iterations of a trace file),
// stopping where the fidelity says (Fidelity::stop_past, sim::StopCondition::past). A Judgement
// is the replay's makespan, its ranks' finish times, its network links' busy times (sim::Result),
// its network's energy (sim::replay_energy with the configuration's link parameters: computed
// from what the replay measured, at no cost to it) and whether it stopped early.
//
//   tuning::ReplayOracle oracle(*topology, config,
//                               [&](const topo::Mapping& m, const sim::SimConfig& c,
//                                   const map::Slice& slice) {
//                                 return sim::simulate(*streams_of(slice), *topology, m, c);
//                               });
//   const auto mapping = map::make_mapper("replay-search")->map(matrix, *topology, seed, &oracle);
//   fmt::print("{}", oracle.reported());

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "mappers/TimeOracle.hpp"
#include "sim/Simulation.hpp"
#include "traces/EventStreams.hpp"

namespace mapsim::tuning {

class ReplayOracle final : public map::TimeOracle {
 public:
  /// One replay of the workload, or of a slice of it (Slice::whole(): all of it): must be
  /// callable from several threads at once.
  using Replayer =
      std::function<sim::Result(const topo::Mapping&, const sim::SimConfig&, const map::Slice&)>;

  /// Checks that the workload can be cut as a slice (TimeOracle::check_slice): throws InputError
  /// saying why not.
  using SliceCheck = std::function<void(const map::Slice&)>;

  ReplayOracle(const topo::Topology& topology, sim::SimConfig base, Replayer replay,
               SliceCheck check = {});

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }
  [[nodiscard]] std::vector<map::Judgement> judge(std::span<const topo::Mapping> mappings,
                                                  const map::Fidelity& fidelity) const override;
  void check_slice(const map::Slice& slice) const override;
  void report(std::string_view text) const override;
  /// Logs the line at once (log::info).
  void progress(std::string_view line) const override;

  /// What the searches reported, in order.
  [[nodiscard]] std::string reported() const;
  /// Replays run so far.
  [[nodiscard]] std::int64_t replays() const { return replays_.load(); }

 private:
  const topo::Topology& topology_;
  sim::SimConfig base_;
  Replayer replay_;
  SliceCheck check_;
  mutable std::atomic<std::int64_t> replays_{0};
  mutable std::mutex mutex_;
  mutable std::string reported_;
};

/// A Replayer over fresh event streams per replay (a stored trace's, an archive's, a generator's):
/// `streams(slice)`.
ReplayOracle::Replayer stream_replayer(
    const topo::Topology& topology,
    std::function<std::unique_ptr<traces::EventStreams>(const map::Slice&)> streams);

}  // namespace mapsim::tuning
