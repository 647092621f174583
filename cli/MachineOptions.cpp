#include "cli/MachineOptions.hpp"

#include <fmt/format.h>

#include "topologies/TopologySpec.hpp"

namespace mapsim::cli {

void add_machine_options(po::options_description& options) {
  options.add_options()("hosts", po::value<std::string>(),
                        "host names of the machine's nodes, one name or Slurm hostlist per line "
                        "in node order (the spec option hosts=FILE)")(
      "allocation", po::value<std::string>(),
      "the nodes the job got: host names, Slurm hostlists (nid[0001-0064]) and node ids or "
      "ranges (0-15), comma-separated, or @FILE (the spec option allocation=)");
}

std::unique_ptr<topo::Topology> make_machine(const po::variables_map& vm, const std::string& spec,
                                             std::string_view option) {
  auto parsed = topo::parse_topology_spec(spec);
  if (vm.count("hosts") != 0) {
    if (!parsed.hosts.empty()) {
      throw po::error(
          fmt::format("--hosts and the option hosts= of {} '{}' both name the hosts; "
                      "give one",
                      option, spec));
    }
    parsed.hosts = vm["hosts"].as<std::string>();
  }
  if (vm.count("allocation") != 0) {
    if (!parsed.allocation.empty()) {
      throw po::error(
          fmt::format("--allocation and the option allocation= of {} '{}' both give "
                      "the allocation; give one",
                      option, spec));
    }
    parsed.allocation = vm["allocation"].as<std::string>();
    if (parsed.allocation.empty()) throw po::error("--allocation is empty");
  }
  return topo::make_topology(parsed);
}

}  // namespace mapsim::cli
