// Generating synthetic traces: the target is that LU class B on 64 ranks (tens of
// millions of OTF2 records) is produced "in reasonable time". Measured here on one core:
// - WriteArchive: `mapsim generate` without the CLI — generator + OTF2 writer to a temporary
//   directory; counters records/s, archive_MB and peak_growth_MB (peak resident memory during
//   the write minus before it: the writer streams rank by rank, so it stays small);
// - BuildInMemory: generator + TraceBuilder (the Trace the simulator replays); events/s;
// - GeneratorOnly: the generator into a sink that drops every call (the generators' own cost);
// - WorkloadMatrix: the exact matrix without the trace (traces/WorkloadMatrix.hpp), ranks in
//   parallel on every core; lu_D_4096 is extrapolated from 1, 2 and 3 iterations (target: under
//   10 s and 500 MB on 2 cores for its ~2·10^9 messages); lu_B_64_collectives runs every rank
//   in full (LU's norms make its collectives not affine). Counters messages/s (of the matrix)
//   and peak_growth_MB.
// Rates are per second of wall-clock time (the archive goes to disk).

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "traces/WorkloadMatrix.hpp"
#include "traces/generators/Generator.hpp"

namespace {

namespace fs = std::filesystem;
using namespace mapsim;
using namespace mapsim::traces;

std::int64_t status_kb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return 0;
}

std::int64_t reset_peak() {
  std::ofstream("/proc/self/clear_refs") << "5";
  return status_kb("VmRSS");
}

GeneratorOptions options(const std::string& kernel, char problem_class, Rank ranks) {
  GeneratorOptions o;
  o.kernel = kernel;
  o.problem_class = problem_class;
  o.ranks = ranks;
  return o;
}

std::uintmax_t directory_bytes(const fs::path& dir) {
  std::uintmax_t total = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) total += entry.file_size();
  }
  return total;
}

void WriteArchive(benchmark::State& state, const std::string& kernel, char problem_class,
                  Rank ranks) {
  const auto dir =
      fs::temp_directory_path() / ("mapsim-generators-bench-" + std::to_string(::getpid()));
  std::uint64_t records = 0;
  std::uintmax_t bytes = 0;
  std::int64_t growth_kb = 0;
  for (auto _ : state) {
    const auto before = reset_peak();
    records = write_generated_trace(options(kernel, problem_class, ranks), dir, true);
    growth_kb = status_kb("VmHWM") - before;
    state.PauseTiming();
    bytes = directory_bytes(dir);
    fs::remove_all(dir);
    state.ResumeTiming();
  }
  state.counters["records"] = static_cast<double>(records);
  state.counters["records/s"] =
      benchmark::Counter(static_cast<double>(records) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["archive_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_growth_MB"] = static_cast<double>(growth_kb) / 1024.0;
}

void BuildInMemory(benchmark::State& state, const std::string& kernel, char problem_class,
                   Rank ranks) {
  std::size_t events = 0;
  for (auto _ : state) {
    const Trace trace = generate_trace(options(kernel, problem_class, ranks));
    events = trace.event_count();
    benchmark::DoNotOptimize(events);
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(events) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

/// Accepts every call and keeps nothing.
class NullSink final : public MpiCallSink {
 public:
  std::uint64_t calls = 0;

 private:
  void on_begin_trace() override {}
  void on_begin_rank() override {}
  void on_end_rank() override {}
  void on_end_trace() override {}
  void on_compute(std::int64_t) override {}
  void on_handle(MpiFunction, CommId, CommId) override { ++calls; }
  void on_send(bool, Rank, std::int32_t, std::int64_t, CommId, RequestId) override { ++calls; }
  void on_recv(Rank, std::int32_t, std::int64_t, CommId) override { ++calls; }
  void on_irecv(const Completion&) override { ++calls; }
  void on_wait(MpiFunction, std::span<const Completion>) override { ++calls; }
  void on_collective(CollectiveOp, CommId, Rank, std::int64_t, std::int64_t) override { ++calls; }
};

void GeneratorOnly(benchmark::State& state, const std::string& kernel, char problem_class,
                   Rank ranks) {
  std::uint64_t calls = 0;
  for (auto _ : state) {
    NullSink sink;
    run_workload(*make_workload(options(kernel, problem_class, ranks)), sink);
    calls = sink.calls;
  }
  state.counters["mpi_calls/s"] =
      benchmark::Counter(static_cast<double>(calls) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void WorkloadMatrix(benchmark::State& state, const std::string& kernel, char problem_class,
                    Rank ranks, bool collectives) {
  MatrixOptions matrix_options;
  matrix_options.collectives = collectives;
  const auto before = reset_peak();
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const auto matrix = workload_matrix(options(kernel, problem_class, ranks), matrix_options);
    messages = matrix.total().messages;
  }
  state.counters["messages/s"] =
      benchmark::Counter(static_cast<double>(messages) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["peak_growth_MB"] = static_cast<double>(status_kb("VmHWM") - before) / 1024.0;
}

BENCHMARK_CAPTURE(WriteArchive, lu_B_64, "lu", 'B', 64)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(WriteArchive, sp_B_64, "sp", 'B', 64)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(WriteArchive, cg_B_64, "cg", 'B', 64)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(BuildInMemory, lu_B_64, "lu", 'B', 64)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(BuildInMemory, lu_W_16, "lu", 'W', 16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(GeneratorOnly, lu_C_64, "lu", 'C', 64)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(WorkloadMatrix, lu_D_4096, "lu", 'D', 4096, false)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(WorkloadMatrix, lu_B_64_collectives, "lu", 'B', 64, true)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
