#pragma once
// The communication matrix of each workload of a report, drawn as a rank × rank heat map: bytes
// from each sender (row) to each receiver (column), ranks binned into at most kMatrixCells cells
// per side at thousands of ranks, colour on a log scale. The matrix is recomputed from the
// workload the database names (a generator spec, an OTF2 trace or a CSV matrix) exactly as the
// sweep computed it, collectives included or not as its runs were (under the algorithms their
// canonical configuration names).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/Chart.hpp"
#include "experiments/ReportData.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::exp {

/// The most cells per side of a matrix heat map.
inline constexpr int kMatrixCells = 128;

/// The matrix of `workload`, or nullopt with `why` set if it cannot be recomputed here (a trace
/// or CSV file not found from the working directory).
std::optional<traces::CommMatrix> recompute_matrix(const StoredWorkload& workload,
                                                   std::string& why);

/// The heat map of `matrix`, the matrix of workload `label`.
Chart matrix_chart(std::string_view label, const traces::CommMatrix& matrix);

/// The heat maps of `workloads` in their order, the matrices recomputed in parallel; a workload
/// whose matrix cannot be recomputed is left out and named in `skipped` ("label: why").
std::vector<Chart> matrix_charts(std::span<const StoredWorkload> workloads,
                                 std::vector<std::string>& skipped);

}  // namespace mapsim::exp
