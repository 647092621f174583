#pragma once
// Open MPI's coll_tuned fixed decision rules (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
// v4.1.x; the same tables as SimGrid SMPI's `ompi` selector, smpi_openmpi_selector.cpp, updated
// 02/2022): the algorithm of a collective by communicator size P and message size.
//
// The message size each rule looks at (bytes, as one member passes it to MPI):
//   allreduce, reduce            the vector
//   bcast                        the message
//   alltoall                     one block (what a member sends to one peer)
//   allgather, gather, scatter   one member's block
//   allgatherv                   the gathered total / P
//   reduce_scatter               the whole vector (the sum of the counts)
//   barrier, alltoallv           P only
// Operations are taken to be commutative (traces do not record the MPI_Op), so the rules for
// non-commutative reductions are not used. Open MPI algorithms mapsim writes as another are named
// in docs/models.md (segmented ring as ring, pipeline as chain, split binary tree and in-order
// binary tree as binary tree, linear_sync and linear_nb as linear, two_proc as pairwise or
// recursive doubling, butterfly as recursive halving, reduce's Rabenseifner as linear).

#include <cstdint>

#include "traces/CollectiveAlgorithm.hpp"

namespace mapsim::traces {

/// The algorithm Open MPI 4.1's fixed rules pick for `family` on `p` members and `bytes` (see
/// above). Never Default.
CollectiveAlgorithm ompi_algorithm(CollectiveFamily family, std::int32_t p, std::int64_t bytes);

}  // namespace mapsim::traces
