#include "sim/Simulation.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/Replay.hpp"

namespace mapsim::sim {

void validate(const SimConfig& config) {
  // Each message names the parameter as the CLI option and the config key spell it.
  if (!(config.compute_scale >= 0 && config.compute_scale <= kMaxComputeScale)) {
    throw InputError(fmt::format(
        "compute scale {} is out of range [0, {:g}] (--compute-scale, sim.compute-scale)",
        config.compute_scale, kMaxComputeScale));
  }
  if (config.eager_threshold < 0 || config.eager_threshold > kMaxEagerThreshold) {
    throw InputError(fmt::format(
        "eager threshold {} bytes is out of range [0, {}] (--eager-threshold, mpi.eager-threshold)",
        config.eager_threshold, kMaxEagerThreshold));
  }
  if (!(config.stop.wall_seconds >= 0) || !std::isfinite(config.stop.wall_seconds)) {
    throw InputError(fmt::format("time limit must be zero (none) or positive, got {} s",
                                 config.stop.wall_seconds));
  }
  if (config.stop.past < 0) {
    throw InputError(fmt::format("a replay's stop time must be zero (none) or positive, got {} ps",
                                 config.stop.past));
  }
  if (config.model_options.packet_bytes < 1 ||
      config.model_options.packet_bytes > kMaxPacketBytes) {
    throw InputError(fmt::format(
        "packet size {} bytes is out of range [1, {}] (--packet-size, a model's packet-size)",
        config.model_options.packet_bytes, kMaxPacketBytes));
  }
  if (config.model_options.envelope < 0 || config.model_options.envelope > kMaxEnvelope) {
    throw InputError(fmt::format(
        "envelope {} bytes is out of range [0, {}] (--envelope, a calibration's envelope)",
        config.model_options.envelope, kMaxEnvelope));
  }
}

Result simulate(const traces::Trace& trace, const topo::Topology& topology,
                const topo::Mapping& mapping, const SimConfig& config) {
  traces::TraceStreams streams(trace);
  return simulate(streams, topology, mapping, config);
}

Result simulate(traces::EventStreams& streams, const topo::Topology& topology,
                const topo::Mapping& mapping, const SimConfig& config) {
  validate(config);
  const Rank ranks = streams.rank_count();
  if (mapping.rank_count() != ranks) {
    throw InputError(fmt::format("the mapping places {} ranks but the trace has {}",
                                 mapping.rank_count(), ranks));
  }
  topo::validate(mapping, topology);
  for (const auto& comm : streams.communicators()) {
    for (const Rank member : comm.members) {
      if (member < 0 || member >= ranks) {
        throw InputError(fmt::format("communicator '{}' lists rank {}, but the trace has {} ranks",
                                     comm.name, member, ranks));
      }
    }
  }
  Network network(topology, config.links, config.seed);
  Replay replay(streams, mapping, network, config);
  return replay.run();
}

}  // namespace mapsim::sim
