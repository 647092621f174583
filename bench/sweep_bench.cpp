// The experiment runner's performance targets, measured and printed (figures, not assertions):
// sweep throughput with 1 and 2 jobs, store overhead per run, mapping reuse, and the time to
// skip a finished sweep of 10,000 runs.
//
//   sweep_bench            the full sizes (a 360-run sweep twice, a 10,000-run sweep)
//   sweep_bench --quick    smaller sizes, for a smoke run

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "experiments/Config.hpp"
#include "experiments/Merge.hpp"
#include "experiments/Runner.hpp"
#include "experiments/Sweep.hpp"
#include "support/Log.hpp"

namespace {

namespace fs = std::filesystem;
namespace exp = mapsim::exp;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A database path in the temporary folder, with no file (or WAL) left from before.
fs::path fresh_database(const std::string& name) {
  const auto path =
      fs::temp_directory_path() / fmt::format("mapsim-sweep-bench-{}-{}.db", ::getpid(), name);
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
  return path;
}

void remove_database(const fs::path& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
}

/// The throughput sweep: small generated workloads (32 ranks; runs of 0.01-0.1 s) on two 32-node
/// machines, six mappers, and three models x two eager thresholds replaying each mapping, so
/// that six runs share every mapper call.
std::string throughput_config(bool quick) {
  const std::string workloads = quick ? R"(
  - npb:lu:W:32:iterations=8
  - npb:cg:S:32:iterations=15
)"
                                      : R"(
  - npb:lu:W:32:iterations=8
  - npb:cg:S:32:iterations=15
  - npb:mg:W:32:iterations=8
  - npb:sp:W:32:iterations=100
  - npb:bt:W:32:iterations=100
)";
  return "workloads:" + workloads + R"(machines: [torus:4x4x2, mesh:4x4x2]
mappers: [in-order, random, hilbert, greedy, rcm, scotch]
models: [flow, analytic, packet]
mpi:
  eager-threshold: [4096, 65536]
sim:
  compute-scale: 0
)";
}

/// The skip sweep: static metrics of tiny workloads (4 ranks) under many seeds, cheap to fill.
/// 2 workloads x 2 machines x 5 mappers x `seeds` seeds.
std::string skip_config(int seeds) {
  std::string list;
  for (int s = 0; s < seeds; ++s) list += fmt::format("{}{}", s == 0 ? "" : ", ", s);
  return fmt::format(R"(workloads: [stencil2d:S:4, npb:lu:S:4]
machines: [torus:2x2, mesh:2x2]
mappers: [in-order, random, hilbert, greedy, rcm]
models: [static]
seeds: [{}]
)",
                     list);
}

exp::Sweep expand_text(const std::string& text, const std::string& name) {
  return exp::expand(exp::parse_config(text, name, fs::temp_directory_path()));
}

struct Timed {
  exp::RunnerReport report;
  double seconds = 0;
  double cpu_seconds = 0;  ///< of every thread of this process
};

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

Timed run_into(const exp::Sweep& sweep, const fs::path& database, int jobs) {
  exp::RunnerOptions options;
  options.database = database;
  options.jobs = jobs;
  options.command = "sweep_bench";
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  auto report = exp::run_sweep(sweep, options);
  return {std::move(report), since(start), cpu_seconds() - cpu_start};
}

void print_run(const char* label, const Timed& t) {
  fmt::print(
      "  {:<8} {:>5} runs ({} done, {} failed) in {:7.2f} s = {:7.1f} runs/s (CPU {:.2f} s, "
      "{:.2f} cores busy); {} mapper calls, {} workloads loaded, store {:.3f} ms/commit over {} "
      "commits\n",
      label, t.report.runs, t.report.done, t.report.failed, t.seconds,
      static_cast<double>(t.report.done + t.report.failed) / t.seconds, t.cpu_seconds,
      t.cpu_seconds / t.seconds, t.report.mapper_invocations, t.report.workloads_loaded,
      t.report.commits > 0 ? 1e3 * t.report.commit_seconds / static_cast<double>(t.report.commits)
                           : 0.0,
      t.report.commits);
}

const char* verdict(bool pass) {
  return pass ? "PASS" : "FAIL";
}

int run(bool quick) {
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  fmt::print("sweep_bench{}: {} hardware threads, load average {}\n\n", quick ? " --quick" : "",
             std::thread::hardware_concurrency(), load.empty() ? "unknown" : load);

  // 1. Throughput with 1 and 2 jobs, store overhead, reuse.
  const auto sweep = expand_text(throughput_config(quick), "throughput.yaml");
  std::size_t mappings = 0;
  {
    std::vector<std::string> keys;
    for (const auto& r : sweep.runs) keys.push_back(r.mapping_key);
    std::sort(keys.begin(), keys.end());
    mappings = static_cast<std::size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
  }
  fmt::print("throughput sweep: {} runs over {} mappings ({:.1f} runs per mapping)\n",
             sweep.runs.size(), mappings,
             static_cast<double>(sweep.runs.size()) / static_cast<double>(mappings));
  const auto db1 = fresh_database("jobs1");
  const auto db2 = fresh_database("jobs2");
  const auto one = run_into(sweep, db1, 1);
  print_run("1 job", one);
  const auto two = run_into(sweep, db2, 2);
  print_run("2 jobs", two);
  // Results must not depend on the number of jobs: merging one sweep into the other finds
  // every run identical.
  const auto db12 = fresh_database("merged");
  const std::vector<fs::path> inputs{db1, db2};
  const auto merged = exp::merge(db12, inputs);
  const bool same_results = merged.conflicts.empty() && merged.identical == one.report.runs;
  fmt::print("  1 job vs 2 jobs: {} runs identical, {} conflicts\n", merged.identical,
             merged.conflicts.size());
  remove_database(db12);
  remove_database(db1);
  remove_database(db2);
  const double rate1 = static_cast<double>(one.report.done + one.report.failed) / one.seconds;
  const double rate2 = static_cast<double>(two.report.done + two.report.failed) / two.seconds;
  const double speedup = rate2 / rate1;
  const double per_run_ms1 = 1e3 * one.seconds / static_cast<double>(one.report.runs);
  const double commit_ms = one.report.commits + two.report.commits > 0
                               ? 1e3 * (one.report.commit_seconds + two.report.commit_seconds) /
                                     static_cast<double>(one.report.commits + two.report.commits)
                               : 0.0;
  fmt::print("  mean run with 1 job: {:.1f} ms; speed-up 2 jobs / 1 job: {:.2f}x\n", per_run_ms1,
             speedup);
  fmt::print(
      "  store: {:.3f} ms per run committed (writer thread's transaction time, both "
      "sweeps)\n",
      commit_ms);
  fmt::print("  reuse: {} runs, {} mapper calls ({:.1f} runs per call)\n\n", one.report.runs,
             one.report.mapper_invocations,
             static_cast<double>(one.report.runs) /
                 static_cast<double>(std::max<std::size_t>(1, one.report.mapper_invocations)));

  // 2. Skipping a finished sweep of 10,000 runs.
  const int seeds = quick ? 50 : 500;
  const auto skip_text = skip_config(seeds);
  const auto big = expand_text(skip_text, "skip.yaml");
  fmt::print("skip sweep: {} runs\n", big.runs.size());
  const auto db3 = fresh_database("skip");
  const auto fill = run_into(big, db3, 2);
  print_run("fill", fill);
  const auto expand_start = Clock::now();
  const auto again = expand_text(skip_text, "skip.yaml");
  const double expand_seconds = since(expand_start);
  const auto skip_start = Clock::now();
  const auto skipped_sweep = expand_text(skip_text, "skip.yaml");
  const auto skipped = run_into(skipped_sweep, db3, 2);
  const double skip_seconds = since(skip_start);
  remove_database(db3);
  fmt::print("  expand alone: {:.3f} s ({} runs)\n", expand_seconds, again.runs.size());
  fmt::print("  expand + run_sweep of the finished sweep: {:.3f} s ({} already done, {} run)\n\n",
             skip_seconds, skipped.report.already_done, skipped.report.done);

  const bool big_enough = big.runs.size() >= 10'000;
  fmt::print("summary{}:\n", quick ? " (--quick: smaller sizes than the targets)" : "");
  // --quick measures the same figures on smaller sweeps: their sizes are not the targets'.
  const char* size_verdict = quick ? "n/a " : verdict(one.report.runs >= 300);
  fmt::print("  {}  sweep of >= 300 runs: {} runs\n", size_verdict, one.report.runs);
  fmt::print("  {}  throughput 2 jobs / 1 job >= 1.7x: {:.2f}x ({:.1f} vs {:.1f} runs/s)\n",
             verdict(speedup >= 1.7), speedup, rate2, rate1);
  fmt::print("  {}  store overhead < 1 ms per run: {:.3f} ms\n", verdict(commit_ms < 1.0),
             commit_ms);
  fmt::print("  {}  mapping reuse (mapper calls < runs): {} calls for {} runs\n",
             verdict(one.report.mapper_invocations < one.report.runs),
             one.report.mapper_invocations, one.report.runs);
  fmt::print("  {}  skip a finished sweep of >= 10,000 runs in < 2 s: {:.3f} s for {} runs\n",
             verdict((quick || big_enough) && skip_seconds < 2.0 &&
                     skipped.report.already_done == big.runs.size()),
             skip_seconds, big.runs.size());
  fmt::print("  {}  results independent of the number of jobs\n", verdict(same_results));
  const bool all_done = one.report.failed == 0 && two.report.failed == 0 &&
                        fill.report.failed == 0 && skipped.report.done == 0;
  fmt::print("  {}  every run done, none run twice\n", verdict(all_done));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: sweep_bench [--quick]\n");
      return 2;
    }
  }
  mapsim::log::set_level(mapsim::log::Level::Warning);  // no line per run
  try {
    return run(quick);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sweep_bench: error: %s\n", e.what());
    return 1;
  }
}
