#include <fmt/format.h>

#include "experiments/cli/Cli.hpp"
#include "experiments/cli/TopologyReport.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::cli {

int run_demo(const std::vector<std::string>& args) {
  CommandLine line("demo", "",
                   "Runs mapsim's built-in demonstration: every machine kind of the seed "
                   "papers at its real size,\nwith its link classes, diameter, average "
                   "distance and a sample route.");
  if (!parse(line, args)) return 0;

  // The machines of the seed papers: the HAEC Box and the thesis's mesh and torus (4x4x4), and a
  // Tianhe-3 prototype partition of 4x4 chips.
  const char* const machines[] = {"mesh:4x4x4", "torus:4x4x4", "haec:4x4x4", "tianhe3:4x4"};
  for (const char* spec : machines) {
    const auto topology = topo::make_topology(spec);
    print_topology(stdout, *topology);
    print_route(stdout, *topology, 0, topology->node_count() - 1);
    fmt::print("\n");
  }
  return 0;
}

}  // namespace mapsim::cli
