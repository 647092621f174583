// Draining Otf2Streams round-robin (a window of each rank in turn, as a replay reads) against
// read_trace and read_matrix: MPI events per second of wall time and peak resident memory. The
// drain's memory must not grow with the trace's length (read_trace's grows by 40 bytes per
// event); its speed includes the pass that numbers self-like communicators (Otf2Streams.hpp).
//
// Usage: streams_bench ARCHIVE... [--window N]   (e.g. archives of `mapsim generate lu --class B
// --ranks 64` and class C). Each measurement runs in a fresh process (this binary run as
// `streams_bench --child MODE WINDOW ARCHIVE`), so that each peak RSS (VmHWM) is its own.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "traces/Otf2Streams.hpp"
#include "traces/TraceReader.hpp"

namespace {

using namespace mapsim;

std::int64_t status_kb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return 0;
}

std::uint64_t drain(const std::string& path, std::size_t window) {
  traces::Otf2Streams streams(path);
  const auto ranks = static_cast<std::size_t>(streams.rank_count());
  std::vector<bool> ended(ranks, false);
  std::vector<traces::Event> events;
  std::uint64_t count = 0;
  for (std::size_t open = ranks; open > 0;) {
    for (std::size_t r = 0; r < ranks; ++r) {
      if (ended[r]) continue;
      events.clear();
      const auto got = streams.read(static_cast<Rank>(r), events, window);
      count += got;
      if (got == 0) {
        ended[r] = true;
        --open;
      }
    }
  }
  return count;
}

// Child: one measurement, printed as "seconds events peak_kB".
int child(const std::string& mode, std::size_t window, const std::string& path) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t events = 0;
  if (mode == "drain") {
    events = drain(path, window);
  } else if (mode == "trace") {
    events = traces::read_trace(path).event_count();
  } else {
    traces::TraceReader reader(path);
    (void)traces::read_matrix(reader);
    events = reader.summary().mpi_events();
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  std::printf("%.3f %llu %lld\n", seconds.count(), static_cast<unsigned long long>(events),
              static_cast<long long>(status_kb("VmHWM")));
  return 0;
}

struct Measure {
  double seconds = -1;
  double events = 0;
  double peak_mb = -1;
};

Measure measure(const std::string& mode, std::size_t window, const std::string& path) {
  const auto command = std::filesystem::read_symlink("/proc/self/exe").string() + " --child " +
                       mode + " " + std::to_string(window) + " '" + path + "'";
  Measure m;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return m;
  double kb = -1;
  if (std::fscanf(pipe, "%lf %lf %lf", &m.seconds, &m.events, &kb) != 3) m.seconds = -1;
  ::pclose(pipe);
  m.peak_mb = kb / 1024.0;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "--child") {
    return child(argv[2], std::stoul(argv[3]), argv[4]);
  }
  std::size_t window = 4096;
  std::vector<std::string> archives;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--window" && i + 1 < argc) {
      window = std::stoul(argv[++i]);
    } else {
      archives.emplace_back(argv[i]);
    }
  }
  if (archives.empty()) {
    std::fprintf(stderr, "usage: streams_bench ARCHIVE... [--window N]\n");
    return 2;
  }
  std::printf("%-40s %-8s %12s %9s %12s %10s\n", "archive", "mode", "events", "seconds",
              "Mevents/s", "peak_MB");
  for (const auto& path : archives) {
    for (const std::string mode : {"drain", "trace", "matrix"}) {
      const auto m = measure(mode, window, path);
      std::printf("%-40s %-8s %12.0f %9.3f %12.2f %10.1f\n", path.c_str(), mode.c_str(), m.events,
                  m.seconds, m.events / m.seconds / 1e6, m.peak_mb);
      std::fflush(stdout);
    }
  }
  return 0;
}
