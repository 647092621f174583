#pragma once
// What a replay charges beyond the routes' latency and bandwidth, on every command that replays
// (simulate, advise): a calibration (--calibration none|smpi|FILE, sim/Calibration.hpp), then
// what the other options change of it — MPI's per-message costs on the ranks (--overheads SPEC,
// sim/Overheads.hpp) and the flow-level corrections of SimGrid's network models (--bw-factor,
// --lat-factor: sim/SizeFactors.hpp; --reverse-traffic: sim/FlowModel.hpp) and MPI's envelope
// (--envelope: sim/NetworkModel.hpp). Configs: `mpi:
// {calibration: ..., overheads: ...}` and `models: [{name: flow, bw-factor: ..., ...}]`.

#include "cli/Cli.hpp"
#include "sim/Calibration.hpp"

namespace mapsim::cli {

/// Adds --calibration, --overheads, --bw-factor, --lat-factor, --reverse-traffic and --envelope.
void add_replay_cost_options(po::options_description& options);

/// The calibration of --calibration (none without it), with --overheads, --bw-factor,
/// --lat-factor, --reverse-traffic and --envelope in place of its parts. Throws InputError for a
/// bad value or file.
sim::Calibration replay_costs(const po::variables_map& vm);

/// Checks that the network model `model` takes the flow-level options given on the command
/// line (po::error if not), and notes on standard error what of a calibration it leaves out.
void check_replay_costs(const po::variables_map& vm, std::string_view model);

}  // namespace mapsim::cli
