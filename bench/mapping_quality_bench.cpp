// Mapping quality benchmark (issue 5): every registered mapper on NPB matrices from the trace
// generators (traces/generators), on torus, mesh, HAEC and Tianhe-3 machines of matching size.
// One table per machine kind: hop-bytes and the largest directed link load (dimension-order
// routing), both relative to `in-order`, and the mapping time; then, per instance, the margin of
// `best` over the next best mapper, and a summary.
//
// Matrices: the generators' MPI calls are accumulated straight into a matrix (no trace in
// memory): point-to-point messages for LU, BT, SP, CG and MG (the unicast matrices of the OHTMA
// paper and the HAEC thesis), and for FT, which has no point-to-point traffic, its collectives
// expanded by the simulator's algorithms (CollectiveTraffic: Alltoall = pairwise exchange).
// Iterations are cut to 1 (`--iterations`) to keep generation short: the warm-up and set-up
// traffic then weighs a little more than in a full run, the pattern is the same.
// Sizes: 64, 256 (BT, SP: squares) or 512, and 4096 ranks; classes C, and D at 4096 (LU, BT
// and SP need it there: at least 3 grid points per rank). Machines: torus / mesh / HAEC
// 4x4x4, 8x8x4, 8x8x8, 16x16x16; Tianhe-3 2x2, 4x4, 4x4, 8x8 chips with 16, 16, 32, 64 nodes.
//
//   build/release/bench/mapping_quality_bench                         all (long: tens of minutes)
//   build/release/bench/mapping_quality_bench --sizes 64,512 --machines torus,tianhe3
//   build/release/bench/mapping_quality_bench --kernels lu --sizes 4096 --mappers scotch,best
//   build/release/bench/mapping_quality_bench --param best.work=50000   a mapper's parameter
//   build/release/bench/mapping_quality_bench --starts                  also best's ranked starts
//   build/release/bench/mapping_quality_bench --speedup               1 vs 2 threads, LU.D.4096
//
// --limit S (default 120) is passed as time-limit to ohtma and bokhari, the searches whose time
// grows fastest (the HAEC thesis stopped its runs after 3 hours); a '*' marks a run that hit it.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <tbb/global_control.h>

#include "mappers/BestMapper.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Parse.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/CollectiveTraffic.hpp"
#include "traces/generators/Generator.hpp"
#include "traces/generators/Workload.hpp"

namespace mapsim {
namespace {

using Clock = std::chrono::steady_clock;

// Accumulates a generated program's messages into a matrix, as point_to_point_matrix or
// collective_matrix would from its trace.
class MatrixSink final : public traces::MpiCallSink {
 public:
  explicit MatrixSink(bool collectives) : collectives_(collectives), builder_(0) {}

  traces::CommMatrix take() {
    if (collectives_) {
      std::vector<traces::Communicator> comms;
      for (const auto& spec : communicators()) comms.push_back({spec.name, spec.members});
      traffic_.add_to(builder_, comms);
    }
    return builder_.build();
  }

 private:
  void on_begin_trace() override { builder_ = traces::CommMatrixBuilder(rank_count()); }
  void on_begin_rank() override { position_ = 0; }
  void on_end_rank() override {}
  void on_end_trace() override {}
  void on_compute(std::int64_t) override {}
  void on_handle(traces::MpiFunction, traces::CommId, traces::CommId) override {}
  void on_send(bool, Rank to, std::int32_t, std::int64_t bytes, traces::CommId,
               traces::RequestId) override {
    if (!collectives_) builder_.add(current_rank(), to, 1, static_cast<std::uint64_t>(bytes));
  }
  void on_recv(Rank, std::int32_t, std::int64_t, traces::CommId) override {}
  void on_irecv(const traces::Completion&) override {}
  void on_wait(traces::MpiFunction, std::span<const traces::Completion>) override {}
  void on_collective(traces::CollectiveOp op, traces::CommId comm, Rank root, std::int64_t sent,
                     std::int64_t received) override {
    if (!collectives_) return;
    traces::Event event;
    event.kind = traces::EventKind::Collective;
    event.op = op;
    event.comm = comm;
    event.peer = root;
    event.bytes = sent;
    event.received = received;
    traffic_.add(current_rank(), position_++, event);
  }

  bool collectives_;
  traces::CommMatrixBuilder builder_;
  traces::CollectiveTraffic traffic_;
  std::size_t position_ = 0;
};

struct Instance {
  std::string kernel;
  char problem_class;
  Rank ranks;
  [[nodiscard]] std::string name() const {
    return fmt::format("{}.{}.{}", kernel, problem_class, ranks);
  }
};

traces::CommMatrix generate(const Instance& instance, std::int64_t iterations) {
  traces::GeneratorOptions options;
  options.kernel = instance.kernel;
  options.problem_class = instance.problem_class;
  options.ranks = instance.ranks;
  options.iterations = iterations;
  const auto workload = traces::make_workload(options);
  MatrixSink sink(instance.kernel == "ft");
  traces::run_workload(*workload, sink);
  return sink.take();
}

std::string machine_for(const std::string& kind, Rank ranks) {
  const std::map<Rank, std::pair<std::string, std::string>> grids{
      {64, {"4x4x4", "2x2:nodes=16"}},
      {256, {"8x8x4", "4x4:nodes=16"}},
      {512, {"8x8x8", "4x4:nodes=32"}},
      {4096, {"16x16x16", "8x8:nodes=64"}}};
  const auto& [grid, chips] = grids.at(ranks);
  return kind == "tianhe3" ? "tianhe3:" + chips : kind + ":" + grid;
}

std::vector<Instance> instances(const std::vector<std::string>& kernels,
                                const std::vector<Rank>& sizes) {
  std::vector<Instance> out;
  for (const auto& kernel : kernels) {
    const bool square = kernel == "bt" || kernel == "sp";
    for (const Rank size : sizes) {
      Rank ranks = size;
      if (square && size == 512) ranks = 256;  // BT and SP need a square
      if (!square && size == 256) ranks = 512;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const Instance& i) {
        return i.kernel == kernel && i.ranks == ranks;
      });
      if (!seen) out.push_back({kernel, ranks == 4096 ? 'D' : 'C', ranks});
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto end = comma == std::string::npos ? text.size() : comma;
    if (end > start) out.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

struct Run {
  std::string mapper;
  double hop_bytes = 0;  // relative to in-order
  double max_load = 0;   // relative to in-order
  double seconds = 0;
  bool hit_limit = false;
};

// --param MAPPER.key=value, in order.
std::vector<std::pair<std::string, std::pair<std::string, std::string>>> g_params;

map::ParamList params_for(const std::string& mapper, double limit) {
  map::ParamList params;
  if (mapper == "ohtma" || mapper == "bokhari")
    params.push_back({"time-limit", fmt::format("{}", limit)});
  for (const auto& [name, param] : g_params) {
    if (name == mapper) params.push_back(param);
  }
  return params;
}

Run run_one(const std::string& mapper, const traces::CommMatrix& matrix,
            const topo::Topology& machine, double limit, std::uint64_t base_hb,
            std::uint64_t base_load) {
  const auto instance = map::make_mapper(mapper, params_for(mapper, limit));
  const auto start = Clock::now();
  const auto mapping = instance->map(matrix, machine, 1);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto hb = map::metrics::hop_bytes(matrix, machine, mapping);
  const auto loads = map::metrics::link_loads(matrix, machine, mapping);
  const auto max = *std::max_element(loads.bytes.begin(), loads.bytes.end());
  return {mapper, base_hb == 0 ? 1.0 : static_cast<double>(hb) / static_cast<double>(base_hb),
          base_load == 0 ? 1.0 : static_cast<double>(max) / static_cast<double>(base_load), seconds,
          (mapper == "ohtma" || mapper == "bokhari") && seconds >= limit};
}

int speedup(double limit) {
  // Parallel mappers (and bokhari's hop-bytes objective, whose partner scan is parallel) with 1
  // and 2 threads on LU class D, 4096 ranks, 16x16x16 torus.
  const Instance lu{"lu", 'D', 4096};
  const auto matrix = generate(lu, 1);
  const auto machine = topo::make_topology("torus:16x16x16");
  fmt::print("speed-up from 1 to 2 threads, {} on {}\n", lu.name(), machine->spec());
  fmt::print("{:<28} {:>10} {:>10} {:>8}\n", "mapper", "1 thread", "2 threads", "speed-up");
  const std::pair<const char*, map::ParamList> mappers[] = {
      {"ohtma", {}},   {"bokhari", {{"objective", "hop-bytes"}, {"max-jumps", "2"}}},
      {"genetic", {}}, {"sampling", {}},
      {"best", {}},    {"best", {{"objective", "congestion"}}},
  };
  for (const auto& [name, params] : mappers) {
    double seconds[2] = {0, 0};
    topo::Mapping results[2];
    for (int t = 0; t < 2; ++t) {
      tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(t + 1));
      auto p = params;
      if (std::string(name) == "ohtma") p.push_back({"time-limit", fmt::format("{}", limit)});
      const auto mapper = map::make_mapper(name, p);
      const auto start = Clock::now();
      results[t] = mapper->map(matrix, *machine, 1);
      seconds[t] = std::chrono::duration<double>(Clock::now() - start).count();
    }
    std::string label = name;
    for (const auto& [key, value] : params) label += " " + key + "=" + value;
    fmt::print("{:<28} {:>9.2f}s {:>9.2f}s {:>7.2f}x{}\n", label, seconds[0], seconds[1],
               seconds[0] / seconds[1], results[0] == results[1] ? "" : "  (mappings differ!)");
    std::fflush(stdout);
  }
  return 0;
}

int run(int argc, char** argv) {
  std::vector<std::string> kinds{"torus", "mesh", "haec", "tianhe3"};
  std::vector<std::string> kernels{"lu", "bt", "sp", "cg", "mg", "ft"};
  std::vector<Rank> sizes{64, 512, 4096};
  std::vector<std::string> mappers;
  double limit = 120;
  std::int64_t iterations = 1;
  bool want_speedup = false;
  bool show_starts = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    auto value = [&]() -> std::string {
      if (a + 1 >= argc) throw InputError(fmt::format("{} needs a value", arg));
      return argv[++a];
    };
    if (arg == "--machines") {
      kinds = split(value());
    } else if (arg == "--kernels") {
      kernels = split(value());
    } else if (arg == "--sizes") {
      sizes.clear();
      for (const auto& s : split(value()))
        sizes.push_back(static_cast<Rank>(parse_integer(s, "--sizes", 64, 4096)));
    } else if (arg == "--mappers") {
      mappers = split(value());
    } else if (arg == "--limit") {
      limit = parse_real(value(), "--limit");
    } else if (arg == "--iterations") {
      iterations = parse_integer(value(), "--iterations", 1, 1000);
    } else if (arg == "--param") {
      const auto text = value();
      const auto dot = text.find('.');
      if (dot == std::string::npos) throw InputError("--param wants MAPPER.key=value");
      g_params.push_back({text.substr(0, dot), map::split_param(text.substr(dot + 1), "--param")});
    } else if (arg == "--starts") {
      show_starts = true;
    } else if (arg == "--help") {
      fmt::print(
          "Usage: mapping_quality_bench [--machines torus,mesh,haec,tianhe3]\n"
          "  [--kernels lu,bt,sp,cg,mg,ft] [--sizes 64,512,4096] [--mappers a,b,...]\n"
          "  [--param MAPPER.key=value]... [--limit SECONDS] [--iterations N] [--starts]\n"
          "  [--speedup]\n"
          "Every mapper on generated NPB matrices: hop-bytes and max directed link load\n"
          "relative to in-order, mapping time; one table per machine kind, then best's margin\n"
          "over the next best mapper. --limit is ohtma's and bokhari's time-limit (120 s);\n"
          "--speedup times the parallel mappers with 1 and 2 threads on LU.D.4096.\n");
      return 0;
    } else if (arg == "--speedup") {
      want_speedup = true;
    } else {
      throw InputError(fmt::format("unknown option '{}'", arg));
    }
  }
  log::set_level(log::Level::Warning);  // the mappers' notes would drown the tables
  if (want_speedup) return speedup(limit);
  if (mappers.empty()) {
    for (const auto& info : map::mapper_infos()) mappers.emplace_back(info.name);
  }
  if (std::find(mappers.begin(), mappers.end(), "in-order") == mappers.end())
    mappers.insert(mappers.begin(), "in-order");

  struct Margin {
    std::string machine;
    std::string instance;
    double best = 0;
    double best_seconds = 0;
    std::string runner_up;
    double runner_up_value = 0;
  };
  std::vector<Margin> margins;
  std::map<std::string, traces::CommMatrix> matrices;
  for (const auto& instance : instances(kernels, sizes)) {
    const auto start = Clock::now();
    matrices.emplace(instance.name(), generate(instance, iterations));
    fmt::print("# {}: {} ranks, {} directed pairs, generated in {:.1f} s\n", instance.name(),
               instance.ranks, matrices.at(instance.name()).nonzero_count(),
               std::chrono::duration<double>(Clock::now() - start).count());
  }
  for (const auto& kind : kinds) {
    fmt::print("\n== {} ==\n", kind);
    fmt::print("{:<12} {:<22} {:<12} {:>10} {:>10} {:>10}\n", "instance", "machine", "mapper",
               "hop-bytes", "max load", "time [s]");
    for (const auto& instance : instances(kernels, sizes)) {
      const auto& matrix = matrices.at(instance.name());
      const auto machine = topo::make_topology(machine_for(kind, instance.ranks));
      const auto in_order = map::make_mapper("in-order")->map(matrix, *machine, 1);
      const auto base_hb = map::metrics::hop_bytes(matrix, *machine, in_order);
      const auto base_loads = map::metrics::link_loads(matrix, *machine, in_order);
      const auto base_load = *std::max_element(base_loads.bytes.begin(), base_loads.bytes.end());
      std::vector<Run> runs;
      for (const auto& mapper : mappers) {
        Run r;
        try {
          r = run_one(mapper, matrix, *machine, limit, base_hb, base_load);
        } catch (const InputError& e) {
          fmt::print("{:<12} {:<22} {:<12} cannot map: {}\n", instance.name(), machine->spec(),
                     mapper, e.what());
          continue;
        }
        fmt::print("{:<12} {:<22} {:<12} {:>10.4f} {:>10.4f} {:>9.3f}{}\n", instance.name(),
                   machine->spec(), mapper, r.hop_bytes, r.max_load, r.seconds,
                   r.hit_limit ? "*" : "");
        std::fflush(stdout);
        runs.push_back(r);
      }
      if (show_starts) {
        const auto result = map::run_best(matrix, *machine, {}, 1);
        for (const auto& start : result.starts) {
          fmt::print("{:<12} {:<22}   start {:<12} {:>10.4f}\n", instance.name(), machine->spec(),
                     start.name,
                     static_cast<double>(start.cost.primary) / static_cast<double>(base_hb));
        }
        fmt::print("{:<12} {:<22}   chain {} wins\n", instance.name(), machine->spec(),
                   result.best_chain);
      }
      const auto best =
          std::find_if(runs.begin(), runs.end(), [](const Run& r) { return r.mapper == "best"; });
      if (best == runs.end()) continue;
      Margin m{kind, instance.name(), best->hop_bytes, best->seconds, "", 0};
      for (const auto& r : runs) {
        if (r.mapper == "best") continue;
        if (m.runner_up.empty() || r.hop_bytes < m.runner_up_value) {
          m.runner_up = r.mapper;
          m.runner_up_value = r.hop_bytes;
        }
      }
      fmt::print("{:<12} {:<22} best {:.4f} vs {} {:.4f}: {:+.2f} %\n", instance.name(),
                 machine->spec(), m.best, m.runner_up, m.runner_up_value,
                 100.0 * (m.best - m.runner_up_value) / m.runner_up_value);
      margins.push_back(m);
    }
  }
  if (!margins.empty()) {
    fmt::print("\n== best against the next best mapper (hop-bytes relative to in-order) ==\n");
    fmt::print("{:<8} {:<12} {:>8} {:>9} {:<12} {:>8} {:>9}\n", "machine", "instance", "best",
               "time [s]", "next best", "value", "margin");
    int lowest = 0;
    for (const auto& m : margins) {
      const double margin = 100.0 * (m.best - m.runner_up_value) / m.runner_up_value;
      lowest += m.best <= m.runner_up_value ? 1 : 0;
      fmt::print("{:<8} {:<12} {:>8.4f} {:>9.2f} {:<12} {:>8.4f} {:>+8.2f}%\n", m.machine,
                 m.instance, m.best, m.best_seconds, m.runner_up, m.runner_up_value, margin);
    }
    fmt::print("best has the lowest hop-bytes on {} of {} instances\n", lowest, margins.size());
  }
  return 0;
}

}  // namespace
}  // namespace mapsim

int main(int argc, char** argv) {
  try {
    return mapsim::run(argc, argv);
  } catch (const mapsim::InputError& e) {
    std::fprintf(stderr, "mapping_quality_bench: error: %s\n", e.what());
    return 1;
  }
}
