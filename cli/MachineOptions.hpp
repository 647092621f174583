#pragma once
// The options of every command that takes a machine, beside its spec: --hosts FILE names its
// nodes and --allocation LIST|@FILE restricts the nodes a mapping may use. They are the spec
// options hosts= and allocation= (topologies/TopologySpec.hpp) given on their own.

#include <memory>
#include <string>

#include "cli/Cli.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::cli {

/// Adds --hosts and --allocation to `options`.
void add_machine_options(po::options_description& options);

/// The machine `spec` names, with --hosts and --allocation applied. Throws InputError for a bad
/// spec or file, po::error if the spec gives hosts= or allocation= and the option too.
std::unique_ptr<topo::Topology> make_machine(const po::variables_map& vm, const std::string& spec,
                                             std::string_view option);

}  // namespace mapsim::cli
