// `mapsim demo`: the built-in end-to-end run. NPB workloads generated in memory are mapped onto
// every machine kind of the seed papers by a set of mappers; each mapping is scored statically
// (hop-bytes, busiest link) and by replaying the trace in the network simulator, and the rank
// correlation between hop-bytes and simulated time says how far the static metric predicts the
// network. Everything is generated: no input files are needed.

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "experiments/Comparison.hpp"
#include "experiments/cli/Cli.hpp"
#include "mappers/Mapper.hpp"
#include "sim/Time.hpp"
#include "support/Error.hpp"
#include "support/Progress.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::cli {
namespace {

// 64 ranks on the 64-node machines of the HAEC thesis (4x4x4 mesh, torus, HAEC Box) and a
// 64-node Tianhe-3 partition of 2x2 chips (16 nodes per chip); a few iterations keep it quick.
const traces::GeneratorOptions kWorkloads[] = {
    {.kernel = "lu", .problem_class = 'W', .ranks = 64, .iterations = 3, .message_bytes = {}},
    {.kernel = "cg", .problem_class = 'S', .ranks = 64, .iterations = 2, .message_bytes = {}},
    {.kernel = "bt", .problem_class = 'W', .ranks = 64, .iterations = 3, .message_bytes = {}},
    {.kernel = "mg", .problem_class = 'S', .ranks = 64, .iterations = 2, .message_bytes = {}},
};
const char* const kMachines[] = {"torus:4x4x4", "mesh:4x4x4", "haec:4x4x4", "tianhe3:2x2:nodes=16"};
const char* const kMappers = "in-order,random,sweep,hilbert,rcm,greedy,minmd,bft,scotch,ohtma,best";

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

void print_comparison(const exp::Comparison& comparison) {
  const auto& base = comparison.runs.front();
  const double base_hop_bytes = std::max(1.0, static_cast<double>(base.metrics.hop_bytes));
  const double base_time = std::max(1.0, static_cast<double>(base.simulation.makespan));
  fmt::print("  {:<12}{:>12}{:>8}{:>13}{:>14}{:>8}{:>10}\n", "mapper", "hop-bytes", "ratio",
             "busiest link", "simulated", "ratio", "map time");
  for (const auto& run : comparison.runs) {
    const double hop_bytes = static_cast<double>(run.metrics.hop_bytes);
    const double time = static_cast<double>(run.simulation.makespan);
    fmt::print("  {:<12}{:>9.2f} MB{:>8.3f}{:>10.2f} MB{:>11.3f} ms{:>8.3f}{:>8.1f} ms\n",
               run.mapper, hop_bytes / 1e6, hop_bytes / base_hop_bytes,
               static_cast<double>(run.metrics.directed_bytes.max) / 1e6,
               sim::to_seconds(run.simulation.makespan) * 1e3, time / base_time,
               run.map_seconds * 1e3);
  }
  fmt::print("  rank correlation of hop-bytes and simulated time over the mappers: {:+.2f}\n\n",
             comparison.rank_correlation);
}

}  // namespace

int run_demo(const std::vector<std::string>& args) {
  CommandLine line("demo", "[--mappers LIST] [--model M]",
                   "Runs mapsim end to end without input files: four NAS Parallel Benchmarks "
                   "(LU, CG, BT, MG;\n64 ranks, a few iterations) are generated in memory, mapped "
                   "onto a 4x4x4 torus, mesh and\nHAEC Box and a 64-node Tianhe-3 partition by "
                   "several mappers, scored by hop-bytes and\nbusiest link, and replayed in the "
                   "network simulator (communication only: compute gaps\nscaled to 0). Ratios are "
                   "against the first mapper (in-order).");
  line.options.add_options()("mappers", po::value<std::string>()->default_value(kMappers),
                             "comma-separated mappers to compare ('mapsim list mappers')")(
      "model", po::value<std::string>()->default_value("flow"), "network model");
  const auto vm = parse(line, args);
  if (!vm) return 0;

  const auto mappers = split_list((*vm)["mappers"].as<std::string>());
  if (mappers.empty()) throw InputError("--mappers: the list is empty");
  for (const auto& name : mappers) (void)map::find_mapper(name);
  sim::SimConfig config;
  config.model = (*vm)["model"].as<std::string>();
  config.compute_scale = 0;
  sim::validate(config);

  Progress progress("demo", std::size(kWorkloads) * std::size(kMachines), "comparisons");
  for (const auto& workload : kWorkloads) {
    const auto trace = traces::generate_trace(workload);
    for (const char* spec : kMachines) {
      const auto topology = topo::make_topology(spec);
      fmt::print("{} on {} ({} model, communication only)\n", traces::describe(workload), spec,
                 config.model);
      print_comparison(exp::compare_mappers(trace, *topology, mappers, 0, config));
      progress.advance();
    }
  }
  return 0;
}

}  // namespace mapsim::cli
