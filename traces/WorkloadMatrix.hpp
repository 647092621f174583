#pragma once
// The communication matrix of a generated workload, without building its trace: every rank runs
// (in parallel under oneTBB) into a sink that only counts what it sends, so memory grows with
// ranks × distinct peers, not with the events. The result equals
// point_to_point_matrix(generate_trace(o)) (matrix_with_collectives(...) with
// options.collectives) entry for entry, whatever the thread count.
//
// Iterations: a workload whose matrix is affine in its iteration count n
// (Workload::affine_in_iterations) has M(n) = M(1) + (n - 1)·(M(2) - M(1)). For n > 3 the
// matrices of 1, 2 and 3 iterations are computed, and the extrapolation is used only if M(3) -
// M(2) equals M(2) - M(1) entry for entry (else every rank runs its n iterations). NPB LU class
// D on 4096 ranks (about 2·10^9 messages) then takes seconds instead of hours.

#include "traces/CommMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::traces {

/// The matrix of every rank of `workload` run in full: one message per Send and Isend, from its
/// rank to its peer (with `options.collectives`, the collectives' messages as CollectiveTraffic
/// expands them). Throws InputError if the totals pass kMaxMatrixTotal.
CommMatrix workload_matrix(const Workload& workload, const MatrixOptions& options = {});

/// The matrix of the workload `generator` describes, extrapolated over its iterations where that
/// is exact (see above). Throws InputError for bad options, as make_workload does, and if the
/// totals pass kMaxMatrixTotal.
CommMatrix workload_matrix(const GeneratorOptions& generator, const MatrixOptions& options = {});

}  // namespace mapsim::traces
