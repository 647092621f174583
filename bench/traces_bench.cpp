// Reading OTF2 archives into communication matrices: OTF2 event records per second on one core,
// and the memory the streaming path needs as the trace grows (it must not grow with the trace's
// length; the stored Trace, at sizeof(Event) = 40 bytes per MPI event, does).
//
// Inputs: the largest real traces in tests/data, and synthetic Score-P-like archives
// of 64 ranks (an 8×8 grid exchanging with its 4 neighbours: MPI_Irecv, MPI_Send, MPI_Wait per
// neighbour and iteration, as LU's halo) written here with libotf2 at several lengths.
//
// Counters: records/s (OTF2 event records, every kind), mpi_events/s (trace-model events), both
// per second of CPU time of the one thread reading (wall time is the Time column),
// peak_RSS_MB (the peak resident memory, VmHWM, of a fresh process doing one such read: the
// benchmark runs itself as `traces_bench --rss matrix|trace PATH`).

#include <cstdint>
#include <cstdio>
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
using traces::CommMatrix;

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

std::int64_t status_kb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return 0;
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

/// Peak resident memory (MB) of a fresh process that reads `path` with `how` ("matrix" streams
/// it into a matrix, "trace" stores it): this binary run as `traces_bench --rss HOW PATH`.
double peak_rss_mb(const std::string& how, const fs::path& path) {
  const auto command =
      fs::read_symlink("/proc/self/exe").string() + " --rss " + how + " '" + path.string() + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  double kb = -1;
  if (std::fscanf(pipe, "%lf", &kb) != 1) kb = -1;
  ::pclose(pipe);
  return kb / 1024.0;
}

template <typename Read>
void measure(benchmark::State& state, const fs::path& path, const std::string& how, Read read) {
  std::uint64_t records = 0;
  std::uint64_t events = 0;
  for (auto _ : state) {
    traces::TraceReader reader(path);
    benchmark::DoNotOptimize(read(reader));
    records += reader.summary().records;
    events += reader.summary().mpi_events();
  }
  state.counters["records/s"] =
      benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.counters["mpi_events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["records"] =
      static_cast<double>(records) / static_cast<double>(state.iterations());
  state.counters["peak_RSS_MB"] = peak_rss_mb(how, path);
  state.counters["bytes/Event"] = sizeof(traces::Event);
}

CommMatrix matrix_of(traces::TraceReader& reader) {
  return traces::read_matrix(reader);
}
std::size_t events_of(traces::TraceReader& reader) {
  return reader.read_trace().event_count();
}

void BM_MatrixReal(benchmark::State& state, const char* trace) {
  measure(state, kTraces + trace, "matrix", matrix_of);
}
BENCHMARK_CAPTURE(BM_MatrixReal, cg_S_8, "npb/cg.S.8")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MatrixReal, sp_S_9, "npb/sp.S.9")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MatrixReal, casita_2_hybrid, "public/casita_2_jacobi_blame_cpu_015")
    ->Unit(benchmark::kMillisecond);

// Argument: iterations. Per iteration a rank with k neighbours writes 2 + 9k records (k = 2, 3
// or 4; 224 directed neighbour links in all): 2,144 records per iteration for the 64 ranks.
void BM_MatrixSynthetic(benchmark::State& state) {
  measure(state, synthetic_archive(state.range(0)), "matrix", matrix_of);
}
BENCHMARK(BM_MatrixSynthetic)
    ->Arg(1'000)
    ->Arg(4'000)
    ->Arg(16'000)
    ->Arg(32'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

// The stored Trace, for contrast: its memory grows by 40 bytes per MPI event.
void BM_TraceSynthetic(benchmark::State& state) {
  measure(state, synthetic_archive(state.range(0)), "trace", events_of);
}
BENCHMARK(BM_TraceSynthetic)
    ->Arg(1'000)
    ->Arg(4'000)
    ->Arg(16'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--rss") {
    // Child mode for peak_rss_mb(): read once, print the peak resident set in kB.
    traces::TraceReader reader(argv[3]);
    if (std::string(argv[2]) == "trace") {
      benchmark::DoNotOptimize(events_of(reader));
    } else {
      benchmark::DoNotOptimize(matrix_of(reader));
    }
    std::printf("%lld\n", static_cast<long long>(status_kb("VmHWM")));
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
