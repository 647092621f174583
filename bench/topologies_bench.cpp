// Topology speed: the all-pairs hop table of a 4096-node machine (target: well under a second on
// one core) and dimension-order routes per second, with no allocation per call.
//
//   build/release/bench/topologies_bench

#include <cstdint>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "topologies/TopologySpec.hpp"

namespace {

using namespace mapsim::topo;

const char* const kMachines[] = {"torus:16x16x16", "mesh:16x16x16", "haec:16x16x16",
                                 "tianhe3:7x7"};  // tianhe3:7x7 has 4704 nodes

/// Fills the dense all-pairs hop table, one byte per ordered pair, on one core.
void AllPairsHopTable(benchmark::State& state) {
  const auto machine = make_topology(kMachines[state.range(0)]);
  const auto n = static_cast<std::size_t>(machine->node_count());
  std::vector<std::uint8_t> table(n * n);
  for (auto _ : state) {
    for (NodeId a = 0; a < machine->node_count(); ++a) {
      std::uint8_t* row = &table[static_cast<std::size_t>(a) * n];
      for (NodeId b = 0; b < machine->node_count(); ++b) {
        row[b] = static_cast<std::uint8_t>(machine->hops(a, b));
      }
    }
    benchmark::DoNotOptimize(table.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(machine->spec());
  state.counters["pairs"] = static_cast<double>(n * n);
  state.counters["pairs/s"] =
      benchmark::Counter(static_cast<double>(n * n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(AllPairsHopTable)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

/// Routes between pseudo-random node pairs into one reused buffer.
void Routes(benchmark::State& state) {
  const auto machine = make_topology(kMachines[state.range(0)]);
  std::mt19937 rng(42);
  std::uniform_int_distribution<NodeId> node(0, machine->node_count() - 1);
  std::vector<std::pair<NodeId, NodeId>> pairs(1 << 16);
  for (auto& [a, b] : pairs) {
    a = node(rng);
    b = node(rng);
  }
  std::vector<LinkId> path;
  path.reserve(static_cast<std::size_t>(machine->max_route_links()));
  std::size_t i = 0;
  std::int64_t links = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ & (pairs.size() - 1)];
    machine->route_into(a, b, path);
    links += static_cast<std::int64_t>(path.size());
    benchmark::DoNotOptimize(path.data());
  }
  state.SetLabel(machine->spec());
  state.counters["routes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["links/route"] =
      static_cast<double>(links) / static_cast<double>(state.iterations());
}
BENCHMARK(Routes)->DenseRange(0, 3);

/// Diameter and average distance: closed-form histograms.
void DistanceStats(benchmark::State& state) {
  const auto machine = make_topology(kMachines[state.range(0)]);
  for (auto _ : state) benchmark::DoNotOptimize(distance_stats(machine->hop_histogram()));
  state.SetLabel(machine->spec());
}
BENCHMARK(DistanceStats)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
