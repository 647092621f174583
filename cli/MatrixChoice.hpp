#pragma once
// What the mappers' matrix of a trace counts, the same in map, simulate and matrix as in sweeps:
// by default its point-to-point messages and its collectives' messages as the replay sends them
// (traces/CollectiveTraffic.hpp); --p2p-only (in a config, matrix: {collectives: false}) leaves
// the collectives out. --collectives mpich|ompi[,OP=ALG...] chooses the collectives' algorithms
// (traces/CollectiveAlgorithm.hpp), for the matrix and the replay alike. A matrix that could
// mislead the user (empty, or mostly collectives) is said so on standard error.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli/Cli.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/TraceSummary.hpp"

namespace mapsim::cli {

/// Adds --p2p-only and --collectives to `options`.
void add_matrix_options(po::options_description& options);

/// Adds --collectives alone (commands without a mappers' matrix, e.g. export).
void add_collectives_option(po::options_description& options);

/// What --p2p-only and --collectives ask for.
traces::MatrixOptions matrix_options(const po::variables_map& vm);

/// What --collectives asks for (MPICH's algorithms without it). Throws InputError for a bad value.
traces::CollectiveOptions collective_options(const po::variables_map& vm);

/// Collective calls an archive has, counted once per rank taking part.
std::uint64_t collective_calls(const traces::TraceSummary& summary);

/// Logs traces::matrix_caveats of `matrix`, the mappers' matrix of `source`: warnings when the
/// mapping is arbitrary, notes otherwise.
void report_caveats(const traces::CommMatrix& matrix, const traces::MatrixOptions& options,
                    std::string_view source, std::optional<std::uint64_t> collective_calls);

/// "point-to-point and collectives" or "point-to-point only": what a matrix counts, for reports.
std::string_view counted(const traces::MatrixOptions& options);

/// " under ompi,..." when the collectives are counted under other algorithms than MPICH's, else "".
std::string under(const traces::MatrixOptions& options);

}  // namespace mapsim::cli
