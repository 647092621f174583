// Time of every mapper at 4096 ranks, and of the metrics, on the machines of the seed papers:
// a 16x16x16 torus (HAEC thesis) and a Tianhe-3 partition of 7x7 chips (4704 nodes, OHTMA
// paper). Matrices, built from their definitions: a 3-D seven-point stencil on 16x16x16 ranks
// and an NPB LU-like 2-D wavefront on 64x64 ranks.
//
// Targets (issue 4): space-filling curves and metrics in milliseconds; greedy, rcm, minmd and
// Bhatele's heuristics under a second each. Parallel parts run with 1 and 2 threads
// (tbb::global_control), reported as /threads:1 and /threads:2.
//
// Today's machines (large/): `best`, and the mappers it starts from or that scale with the
// machine (treematch, greedy, scotch, bisection, ohtma), at 4096 ranks on a 4096-node instance
// of each new kind — a 3-level fat-tree of 16-port switches, a dragonfly of 32 groups of 16
// routers with 8 hosts, a Cascade of 16 groups x 4 chassis x 16 blades x 4 nodes, and a Slurm
// tree of 128 leaf switches of 32 nodes under 8 spines (written to a temporary file) — with the
// LU-like wavefront on 64x64 ranks and an irregular random matrix (6 partners per rank). Target:
// `best` under 10 s each with 2 threads. One iteration each (seconds per run).
//
//   build/release/bench/mappers_bench --benchmark_filter='map/'      mappers only
//   build/release/bench/mappers_bench --benchmark_filter='metrics/'   metrics only
//   build/release/bench/mappers_bench --benchmark_filter='large/best/.*threads:2'

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include "mappers/CommGraph.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim {
namespace {

const char* const kMachines[] = {"torus:16x16x16", "tianhe3:7x7"};
const char* const kMatrices[] = {"stencil3d-16x16x16", "lu-64x64"};

const topo::Topology& machine(const std::string& spec) {
  static std::map<std::string, std::unique_ptr<topo::Topology>> cache;
  auto& slot = cache[spec];
  if (!slot) slot = topo::make_topology(spec);
  return *slot;
}

const traces::CommMatrix& matrix(const std::string& name) {
  static std::map<std::string, traces::CommMatrix> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    auto built = name == "lu-64x64"      ? testing::lu_wavefront(64, 64)
                 : name == "random-4096" ? testing::random_matrix(4096, 6, 1)
                                         : testing::stencil_3d(16, 16, 16, false);
    it = cache.emplace(name, std::move(built)).first;
  }
  return it->second;
}

// A Slurm topology file of 4096 nodes: 128 leaf switches of 32 nodes, 8 spines of 16 leaves, a
// top switch; written once per run of the benchmark into the temporary directory, removed at exit.
std::string slurm_4096() {
  struct File {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("mapsim-bench-slurm-" + std::to_string(::getpid()) + ".conf");
    File() {
      std::ofstream out(path);
      for (int leaf = 0; leaf < 128; ++leaf) {
        out << "SwitchName=leaf" << leaf << " Nodes=n[" << leaf * 32 << "-" << leaf * 32 + 31
            << "]\n";
      }
      for (int spine = 0; spine < 8; ++spine) {
        out << "SwitchName=spine" << spine << " Switches=leaf[" << spine * 16 << "-"
            << spine * 16 + 15 << "]\n";
      }
      out << "SwitchName=top Switches=spine[0-7]\n";
    }
    ~File() {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
  };
  static const File file;
  return "slurm:" + file.path.string();
}

// 4096-node instances of the hierarchical kinds.
std::vector<std::string> large_machines() {
  return {"fattree:3;16,16,16;1,16,16;1,1,1", "dragonfly:32,16,8,2", "cascade:16,1;4,1;16,1;4",
          slurm_4096()};
}

// The short name of a large machine for benchmark names (a Slurm spec holds a temporary path).
std::string short_name(const std::string& spec) {
  return spec.rfind("slurm:", 0) == 0 ? "slurm:4096" : spec;
}

void map_once(benchmark::State& state, std::string mapper, std::string matrix_name,
              std::string spec) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(state.range(0)));
  const auto& m = matrix(matrix_name);
  const auto& t = machine(spec);
  const auto instance = map::make_mapper(mapper);
  std::uint64_t hop_bytes = 0;
  for (auto _ : state) {
    auto mapping = instance->map(m, t, 1);
    benchmark::DoNotOptimize(mapping);
    state.PauseTiming();
    hop_bytes = map::metrics::hop_bytes(m, t, mapping);
    state.ResumeTiming();
  }
  state.counters["hop_bytes"] = static_cast<double>(hop_bytes);
}

topo::Mapping scan_mapping(const traces::CommMatrix& m, const topo::Topology& t) {
  return map::make_mapper("scan")->map(m, t);
}

void metrics_evaluate(benchmark::State& state, std::string matrix_name, std::string spec) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(state.range(0)));
  const auto& m = matrix(matrix_name);
  const auto& t = machine(spec);
  const auto mapping = scan_mapping(m, t);
  for (auto _ : state) benchmark::DoNotOptimize(map::metrics::evaluate(m, t, mapping));
}

void metrics_link_loads(benchmark::State& state, std::string matrix_name, std::string spec) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(state.range(0)));
  const auto& m = matrix(matrix_name);
  const auto& t = machine(spec);
  const auto mapping = scan_mapping(m, t);
  for (auto _ : state) benchmark::DoNotOptimize(map::metrics::link_loads(m, t, mapping));
}

void metrics_hop_bytes(benchmark::State& state, std::string matrix_name, std::string spec) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(state.range(0)));
  const auto& m = matrix(matrix_name);
  const auto& t = machine(spec);
  const auto mapping = scan_mapping(m, t);
  for (auto _ : state) benchmark::DoNotOptimize(map::metrics::hop_bytes(m, t, mapping));
}

// One swap delta, O(deg i + deg j), for pairs cycling over the ranks.
void metrics_swap_delta(benchmark::State& state, std::string matrix_name, std::string spec) {
  const auto& m = matrix(matrix_name);
  const auto& t = machine(spec);
  const map::CommGraph graph(m);
  const auto mapping = scan_mapping(m, t);
  Rank i = 0;
  for (auto _ : state) {
    const Rank j = (i * 7919 + 13) % m.rank_count();
    benchmark::DoNotOptimize(map::metrics::swap_delta(graph, t, mapping.nodes(), i, j));
    i = (i + 1) % m.rank_count();
  }
}

// With 1 and 2 threads (the argument "threads"), in wall-clock time.
void by_threads(benchmark::internal::Benchmark* b, benchmark::TimeUnit unit) {
  b->ArgName("threads")->Arg(1)->Arg(2)->Unit(unit)->UseRealTime();
}

void register_all() {
  for (const char* spec : kMachines) {
    for (const char* matrix_name : kMatrices) {
      const std::string suffix = std::string("/") + matrix_name + "/" + spec;
      for (const auto& info : map::mapper_infos()) {
        by_threads(
            benchmark::RegisterBenchmark(("map/" + std::string(info.name) + suffix).c_str(),
                                         map_once, std::string(info.name), matrix_name, spec),
            benchmark::kMillisecond);
      }
      by_threads(benchmark::RegisterBenchmark(("metrics/evaluate" + suffix).c_str(),
                                              metrics_evaluate, matrix_name, spec),
                 benchmark::kMillisecond);
      by_threads(benchmark::RegisterBenchmark(("metrics/link_loads" + suffix).c_str(),
                                              metrics_link_loads, matrix_name, spec),
                 benchmark::kMillisecond);
      by_threads(benchmark::RegisterBenchmark(("metrics/hop_bytes" + suffix).c_str(),
                                              metrics_hop_bytes, matrix_name, spec),
                 benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("metrics/swap_delta" + suffix).c_str(), metrics_swap_delta,
                                   matrix_name, spec)
          ->Unit(benchmark::kNanosecond);
    }
  }
  for (const auto& spec : large_machines()) {
    for (const char* matrix_name : {"lu-64x64", "random-4096"}) {
      for (const char* mapper : {"best", "treematch", "greedy", "scotch", "bisection", "ohtma"}) {
        const auto name =
            std::string("large/") + mapper + "/" + matrix_name + "/" + short_name(spec);
        benchmark::RegisterBenchmark(name.c_str(), map_once, std::string(mapper), matrix_name, spec)
            ->ArgName("threads")
            ->Arg(1)
            ->Arg(2)
            ->Unit(benchmark::kSecond)
            ->UseRealTime()
            ->Iterations(1);
      }
    }
  }
}

}  // namespace
}  // namespace mapsim

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  mapsim::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
