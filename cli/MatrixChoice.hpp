#pragma once
// What the mappers' matrix of a trace counts, the same in map, simulate and matrix as in sweeps:
// by default its point-to-point messages and its collectives' messages as the replay sends them
// (traces/CollectiveTraffic.hpp); --p2p-only (in a config, matrix: {collectives: false}) leaves
// the collectives out. A matrix that could mislead the user (empty, or mostly collectives) is
// said so on standard error.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cli/Cli.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/TraceSummary.hpp"

namespace mapsim::cli {

/// Adds --p2p-only to `options`.
void add_matrix_options(po::options_description& options);

/// What --p2p-only asks for.
traces::MatrixOptions matrix_options(const po::variables_map& vm);

/// Collective calls an archive has, counted once per rank taking part.
std::uint64_t collective_calls(const traces::TraceSummary& summary);

/// Logs traces::matrix_caveats of `matrix`, the mappers' matrix of `source`: warnings when the
/// mapping is arbitrary, notes otherwise.
void report_caveats(const traces::CommMatrix& matrix, const traces::MatrixOptions& options,
                    std::string_view source, std::optional<std::uint64_t> collective_calls);

/// "point-to-point and collectives" or "point-to-point only": what a matrix counts, for reports.
std::string_view counted(const traces::MatrixOptions& options);

}  // namespace mapsim::cli
