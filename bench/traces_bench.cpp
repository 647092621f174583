// Reading OTF2 archives into communication matrices: OTF2 event records per second on one core,
// and the memory the streaming path needs as the trace grows (it must not grow with the trace's
// length; the stored Trace, at sizeof(Event) = 40 bytes per MPI event, does).
//
// Inputs: the largest real traces in ../shared/data/traces, and synthetic Score-P-like archives
// of 64 ranks (an 8×8 grid exchanging with its 4 neighbours: MPI_Irecv, MPI_Send, MPI_Wait per
// neighbour and iteration, as LU's halo) written here with libotf2 at several lengths.
//
// Counters: records/s (OTF2 event records, every kind), mpi_events/s (trace-model events),
// peak_growth_MB (peak resident memory during the read minus the resident memory before it,
// measured through /proc/self/status VmHWM after resetting it via /proc/self/clear_refs).

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "tests/support/Otf2TestArchive.hpp"
#include "traces/TraceReader.hpp"

namespace {

namespace fs = std::filesystem;
using namespace mapsim;

const std::string kTraces = std::string(MAPSIM_SHARED_DIR) + "/data/traces/";

std::int64_t status_kb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return 0;
}

/// Resets the peak resident set to the current one; returns the current one (kB).
std::int64_t reset_peak() {
  std::ofstream("/proc/self/clear_refs") << "5";
  return status_kb("VmRSS");
}

fs::path bench_dir() {
  static const fs::path dir = [] {
    const auto path =
        fs::temp_directory_path() / ("mapsim-traces-bench-" + std::to_string(::getpid()));
    fs::create_directories(path);
    std::atexit([] {
      fs::remove_all(fs::temp_directory_path() /
                     ("mapsim-traces-bench-" + std::to_string(::getpid())));
    });
    return path;
  }();
  return dir;
}

/// A synthetic 64-rank archive of `iterations` halo exchanges (written once per length).
fs::path synthetic_archive(std::int64_t iterations) {
  static std::map<std::int64_t, fs::path> archives;
  auto& path = archives[iterations];
  if (!path.empty()) return path;
  path = bench_dir() / ("grid64-" + std::to_string(iterations));
  constexpr int kSide = 8;
  testing::Otf2TestArchive archive(path, kSide * kSide, 2'000'000'000, 1'000'000);
  std::uint64_t length = 1;
  for (int rank = 0; rank < kSide * kSide; ++rank) {
    const int x = rank % kSide;
    const int y = rank / kSide;
    std::vector<int> neighbours;
    if (x > 0) neighbours.push_back(rank - 1);
    if (x < kSide - 1) neighbours.push_back(rank + 1);
    if (y > 0) neighbours.push_back(rank - kSide);
    if (y < kSide - 1) neighbours.push_back(rank + kSide);
    OTF2_EvtWriter* w = archive.writer(rank);
    const auto irecv = archive.region("MPI_Irecv");
    const auto send = archive.region("MPI_Send");
    const auto wait = archive.region("MPI_Wait");
    const auto compute = archive.region("compute");
    std::uint64_t t = archive.at(0);
    for (std::int64_t i = 0; i < iterations; ++i) {
      OTF2_EvtWriter_Enter(w, nullptr, t += 1000, compute);
      OTF2_EvtWriter_Leave(w, nullptr, t += 50'000, compute);
      for (std::size_t n = 0; n < neighbours.size(); ++n) {
        OTF2_EvtWriter_Enter(w, nullptr, t += 100, irecv);
        OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t += 10, n);
        OTF2_EvtWriter_Leave(w, nullptr, t += 100, irecv);
      }
      for (const int peer : neighbours) {
        OTF2_EvtWriter_Enter(w, nullptr, t += 100, send);
        OTF2_EvtWriter_MpiSend(w, nullptr, t += 10, static_cast<uint32_t>(peer), 0, 1, 8160);
        OTF2_EvtWriter_Leave(w, nullptr, t += 1000, send);
      }
      for (std::size_t n = 0; n < neighbours.size(); ++n) {
        OTF2_EvtWriter_Enter(w, nullptr, t += 100, wait);
        OTF2_EvtWriter_MpiIrecv(w, nullptr, t += 500, static_cast<uint32_t>(neighbours[n]), 0, 1,
                                8160, n);
        OTF2_EvtWriter_Leave(w, nullptr, t += 10, wait);
      }
    }
    length = std::max(length, t - archive.at(0));
  }
  archive.set_length(length);
  archive.close();
  return path;
}

template <typename Read>
void measure(benchmark::State& state, const fs::path& path, Read read) {
  std::uint64_t records = 0;
  std::uint64_t events = 0;
  std::int64_t growth_kb = 0;
  for (auto _ : state) {
    const auto before = reset_peak();
    mapsim::traces::TraceReader reader(path);
    benchmark::DoNotOptimize(read(reader));
    growth_kb = std::max(growth_kb, status_kb("VmHWM") - before);
    records += reader.summary().records;
    events += reader.summary().mpi_events();
  }
  state.counters["records/s"] =
      benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.counters["mpi_events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["records"] =
      static_cast<double>(records) / static_cast<double>(state.iterations());
  state.counters["peak_growth_MB"] = static_cast<double>(growth_kb) / 1024.0;
  state.counters["bytes/Event"] = sizeof(mapsim::traces::Event);
}

void BM_MatrixReal(benchmark::State& state, const char* trace) {
  measure(state, kTraces + trace,
          [](traces::TraceReader& reader) { return traces::read_matrix(reader); });
}
BENCHMARK_CAPTURE(BM_MatrixReal, cg_S_8, "npb/cg.S.8")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MatrixReal, sp_S_9, "npb/sp.S.9")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MatrixReal, casita_2_hybrid, "public/casita_2_jacobi_blame_cpu_015")
    ->Unit(benchmark::kMillisecond);

// Argument: iterations. Per iteration a rank with k neighbours writes 2 + 9k records (k = 2, 3
// or 4; 224 directed neighbour links in all): 2,144 records per iteration for the 64 ranks.
void BM_MatrixSynthetic(benchmark::State& state) {
  const auto path = synthetic_archive(state.range(0));
  measure(state, path, [](traces::TraceReader& reader) { return traces::read_matrix(reader); });
}
BENCHMARK(BM_MatrixSynthetic)
    ->Arg(1'000)
    ->Arg(4'000)
    ->Arg(16'000)
    ->Arg(32'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

// The stored Trace, for contrast: memory grows by 40 bytes per MPI event.
void BM_TraceSynthetic(benchmark::State& state) {
  const auto path = synthetic_archive(state.range(0));
  measure(state, path,
          [](traces::TraceReader& reader) { return reader.read_trace().event_count(); });
}
BENCHMARK(BM_TraceSynthetic)
    ->Arg(1'000)
    ->Arg(4'000)
    ->Arg(16'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
