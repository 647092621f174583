// Experiment configs (YAML): parsing either succeeds or names file:line:column; a config that
// parses and is small (machines of at most 4096 nodes, at most 1000 combinations) also expands
// into runs without any other error.

#include <filesystem>

#include "experiments/Config.hpp"
#include "experiments/Sweep.hpp"
#include "fuzz/FuzzTarget.hpp"
#include "topologies/TopologySpec.hpp"

namespace {

std::int64_t nodes(const mapsim::topo::TopologySpec& spec) {
  std::int64_t n = spec.kind == "tianhe3" ? spec.nodes_per_chip : 1;
  for (const int size : spec.sizes) n *= size;
  return n;
}

void fuzz(std::string_view input) {
  // Relative trace and matrix paths resolve against a folder that does not exist: they fail.
  auto config = mapsim::exp::parse_config(input, "fuzz.yaml", "/nonexistent-mapsim-fuzz");
  std::size_t combinations = 1;
  for (int a = 0; a < mapsim::exp::kAxisCount; ++a)
    combinations *= config.size(static_cast<mapsim::exp::Axis>(a));
  if (combinations > 1000) return;
  for (const auto& machine : config.machines) {
    if (nodes(mapsim::topo::parse_topology_spec(machine.topology)) > 4096) return;
  }
  const auto sweep = mapsim::exp::expand(std::move(config));
  MAPSIM_EXPECTS(
      sweep.runs.size() + sweep.excluded + sweep.filtered + sweep.merged == sweep.combinations,
      "every combination is a run, excluded, filtered or merged");
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
