// Wall time and memory of one full replay of a large trace (run under /usr/bin/time for the peak
// RSS), on torus:4x4x4 in order:
//   build/release/bench/sim_replay_bench ITERATIONS MODEL [BYTES]   synthetic halo trace
//   build/release/bench/sim_replay_bench npb:KERNEL:CLASS:RANKS MODEL  generated NPB trace
// The synthetic trace: 64 ranks on an 8x8 periodic grid, per iteration 4 Irecv + 4 Isend to the
// neighbours, 8 Waits, 2 us of computation, an Allreduce every 10 iterations.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/HaloTrace.hpp"
#include "sim/Simulation.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/generators/Generator.hpp"

using namespace mapsim;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: sim_replay_bench ITERATIONS MODEL [BYTES]\n");
    return 2;
  }
  const std::string what = argv[1];
  if (what.starts_with("npb:")) {
    traces::GeneratorOptions options;
    const auto a = what.find(':', 4);
    const auto b = what.find(':', a + 1);
    options.kernel = what.substr(4, a - 4);
    options.problem_class = what[a + 1];
    options.ranks = std::atoi(what.c_str() + b + 1);
    const auto t0 = std::chrono::steady_clock::now();
    const auto trace = traces::generate_trace(options);
    const double gen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto topology = topo::make_topology("torus:4x4x4");
    sim::SimConfig config;
    config.model = argv[2];
    const auto result = sim::simulate(
        trace, *topology, topo::in_order_mapping(trace.rank_count(), *topology), config);
    std::printf(
        "%s model %s: generated in %.2f s; %zu trace events (%.1f MB), %llu engine events, %llu "
        "messages, makespan %.6f s, replay %.3f s, %.2f M trace events/s, %.2f M engine "
        "events/s\n",
        trace.source.c_str(), argv[2], gen, trace.event_count(),
        static_cast<double>(trace.event_count()) * 40 / 1e6,
        static_cast<unsigned long long>(result.engine_events),
        static_cast<unsigned long long>(result.messages + result.collective_messages),
        sim::to_seconds(result.makespan), result.wall_seconds,
        static_cast<double>(result.trace_events) / result.wall_seconds / 1e6,
        static_cast<double>(result.engine_events) / result.wall_seconds / 1e6);
    return 0;
  }
  const int iterations = std::atoi(argv[1]);
  const std::int64_t bytes = argc > 3 ? std::atoll(argv[3]) : 1024;
  const auto trace = bench::halo_trace(iterations, bytes);
  const auto topology = topo::make_topology("torus:4x4x4");
  sim::SimConfig config;
  config.model = argv[2];
  const auto start = std::chrono::steady_clock::now();
  const auto result =
      sim::simulate(trace, *topology, topo::in_order_mapping(64, *topology), config);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "model %s: %zu trace events (%.1f MB of events), %llu engine events, %llu messages, "
      "makespan %.6f s, replay %.3f s, %.2f M trace events/s, %.2f M engine events/s\n",
      argv[2], trace.event_count(), static_cast<double>(trace.event_count()) * 40 / 1e6,
      static_cast<unsigned long long>(result.engine_events),
      static_cast<unsigned long long>(result.messages + result.collective_messages),
      sim::to_seconds(result.makespan), result.wall_seconds,
      static_cast<double>(result.trace_events) / result.wall_seconds / 1e6,
      static_cast<double>(result.engine_events) / result.wall_seconds / 1e6);
  (void)wall;
  return 0;
}
