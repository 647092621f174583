#pragma once
// What MPI costs the ranks per message in a replay: --overheads SPEC (sim/Overheads.hpp), on
// every command that replays (simulate, advise); `mpi: {overheads: SPEC}` in configs.

#include "cli/Cli.hpp"
#include "sim/Overheads.hpp"

namespace mapsim::cli {

/// Adds --overheads to `options`.
void add_overheads_option(po::options_description& options);

/// What --overheads asks for (none without it). Throws InputError for a bad value.
sim::Overheads overheads_option(const po::variables_map& vm);

}  // namespace mapsim::cli
