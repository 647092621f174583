// `mapsim report` on a large results database: builds a hand-made database of about 10,000 runs
// (84 workloads — 7 kernels x 3 classes x 4 rank counts — on 4 machines, 15 mappers, a replay
// model and static) with the links of two runs stored, then times `mapsim report` on it end to
// end (reading, charts, one gnuplot process rendering SVG and PNG, the index). Target: < 10 s.
//
//   build/release/bench/report_bench [--keep DIR]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "tests/experiments/ReportTestSupport.hpp"
#include "topologies/TopologySpec.hpp"

namespace {

using mapsim::exp::testing::hand_run;
using mapsim::exp::testing::HandRun;

/// A deterministic value in [lo, hi) from a counter (no global random state).
double noise(std::uint64_t i, double lo, double hi) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E5ULL;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 29;
  return lo + (hi - lo) * static_cast<double>(x >> 11) / static_cast<double>(1ULL << 53);
}

std::vector<HandRun> database_runs() {
  const std::vector<std::string> kernels{"lu", "bt", "sp", "cg", "mg", "ft", "is"};
  const std::vector<std::string> classes{"A", "B", "C"};
  const std::vector<int> ranks{32, 64, 128, 256};  // every NPB kernel runs them in A, B, C
  const std::vector<std::string> machines{"torus:8x8x8", "mesh:8x8x8", "haec:8x8x8",
                                          "tianhe3:4x8:nodes=16"};
  const std::vector<std::string> mappers{"in-order",  "round-robin", "random", "sweep", "scan",
                                         "hilbert",   "peano",       "gray",   "rcm",   "greedy",
                                         "bisection", "scotch",      "minmd",  "ohtma", "best"};
  const std::vector<std::string> models{"flow", "static"};
  std::vector<HandRun> runs;
  std::uint64_t i = 0;
  for (const auto& kernel : kernels) {
    for (const auto& c : classes) {
      for (const int n : ranks) {
        const auto workload = fmt::format("npb:{}:{}:{}:iterations=2", kernel, c, n);
        for (const auto& machine : machines) {
          for (const auto& model : models) {
            for (const auto& mapper : mappers) {
              auto run = hand_run(workload, machine, mapper, n);
              run.model = model;
              run.hop_bytes = std::round(noise(++i, 1e6, 3e6));
              run.link_bytes_max = std::round(noise(++i, 1e4, 5e4));
              run.dilation_max = std::round(noise(++i, 1, 9));
              if (model != "static") run.makespan_s = noise(++i, 1e-3, 3e-3);
              runs.push_back(std::move(run));
            }
          }
        }
      }
    }
  }
  // Link loads of two runs of the largest context on the torus (the default heat maps).
  const auto torus = mapsim::topo::make_topology("torus:8x8x8");
  for (auto& run : runs) {
    if (run.ranks != 256 || run.machine != "torus:8x8x8" || run.model != "flow" ||
        run.workload != "npb:lu:C:256:iterations=2" ||
        (run.mapper != "in-order" && run.mapper != "best"))
      continue;
    if (run.mapper == "best") run.makespan_s = 1e-4;  // the fastest: the second default map
    for (mapsim::topo::LinkId l = 0; l < torus->link_count(); ++l) {
      const auto link = torus->link(l);
      const auto bytes = static_cast<std::int64_t>(noise(++i, 0, 1e6));
      run.links.push_back(
          mapsim::exp::LinkLoad{l, link.from, link.to, "grid", bytes, bytes, bytes * 40, 0.5});
    }
  }
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  fs::path dir;
  bool keep = false;
  if (argc == 3 && std::string_view(argv[1]) == "--keep") {
    dir = argv[2];
    keep = true;
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: report_bench [--keep DIR]\n");
    return 2;
  } else {
    dir = fs::temp_directory_path() / fmt::format("mapsim-report-bench-{}", ::getpid());
  }
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto database = dir / "results.db";

  const auto start = std::chrono::steady_clock::now();
  const auto runs = database_runs();
  mapsim::exp::testing::add_runs(database, runs);
  const auto built = std::chrono::steady_clock::now();
  fmt::print("database: {} runs in {:.1f} s ({})\n", runs.size(),
             std::chrono::duration<double>(built - start).count(), database.string());

  const auto command = fmt::format("'{}' -q report '{}' --out '{}' >/dev/null", MAPSIM_BINARY,
                                   database.string(), (dir / "report").string());
  const auto before = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const auto after = std::chrono::steady_clock::now();
  std::size_t files = 0;
  if (fs::exists(dir / "report")) {
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir / "report")) ++files;
  }
  const double seconds = std::chrono::duration<double>(after - before).count();
  fmt::print("mapsim report: {:.2f} s for {} runs, {} files, exit status {} (target < 10 s)\n",
             seconds, runs.size(), files, status);
  if (!keep) fs::remove_all(dir);
  return status == 0 ? 0 : 1;
}
