#pragma once
// What a replay charges beyond the routes' latency and bandwidth, on every command that replays
// (simulate, advise): MPI's per-message costs on the ranks (--overheads SPEC, sim/Overheads.hpp;
// `mpi: {overheads: SPEC}` in configs) and the flow-level corrections of SimGrid's network models
// (--bw-factor, --lat-factor: sim/SizeFactors.hpp; --reverse-traffic: sim/FlowModel.hpp; a
// config's `models: [{name: flow, bw-factor: ..., lat-factor: ..., reverse-traffic: true}]`).

#include "cli/Cli.hpp"
#include "sim/NetworkModel.hpp"
#include "sim/Overheads.hpp"

namespace mapsim::cli {

/// Adds --overheads, --bw-factor, --lat-factor and --reverse-traffic to `options`.
void add_replay_cost_options(po::options_description& options);

/// What --overheads asks for (none without it). Throws InputError for a bad value.
sim::Overheads overheads_option(const po::variables_map& vm);

/// Sets the size factors and reverse traffic of `options` from --bw-factor, --lat-factor and
/// --reverse-traffic for the network model `model`; throws InputError for a bad value and
/// po::error for an option the model does not take.
void apply_flow_options(const po::variables_map& vm, std::string_view model,
                        sim::ModelOptions& options);

}  // namespace mapsim::cli
