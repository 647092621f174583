#pragma once
// Which algorithm each collective runs: a selector (`mpich`, the default, or `ompi`) plus optional
// per-operation overrides, spelt `--collectives SELECTOR[,OP=ALGORITHM...]` (e.g.
// `ompi,allreduce=ring,alltoall=bruck`).
//
//   mpich  MPICH's classic choices, what mapsim always replayed (CollectiveSchedule.hpp).
//   ompi   Open MPI's coll_tuned fixed decision rules (v4.1.x, OmpiRules.hpp): the algorithm by
//          communicator size and message size.
//
// Operations (the `OP` of an override): barrier, bcast, reduce, allreduce, allgather, allgatherv,
// alltoall, alltoallv (also alltoallw), gather (and gatherv), scatter (and scatterv),
// reduce_scatter (and reduce_scatter_block). Scan and exscan always run recursive doubling.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "traces/Trace.hpp"

namespace mapsim::traces {

enum class CollectiveSelector : std::uint8_t { Mpich, Ompi };

/// The operations a selector or an override chooses an algorithm for.
enum class CollectiveFamily : std::uint8_t {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Allgather,
  Allgatherv,
  Alltoall,
  Alltoallv,
  Gather,
  Scatter,
  ReduceScatter,
};
inline constexpr std::size_t kCollectiveFamilies = 11;

enum class CollectiveAlgorithm : std::uint8_t {
  Default,  ///< the selector's choice
  Linear,
  Chain,
  Binary,
  Binomial,
  Knomial,
  ScatterAllgather,
  RecursiveDoubling,
  Ring,
  Rabenseifner,
  Nonoverlapping,
  Pairwise,
  Bruck,
  NeighborExchange,
  RecursiveHalving,
  Tree,
};

std::string_view name(CollectiveSelector selector);
std::string_view name(CollectiveFamily family);
std::string_view name(CollectiveAlgorithm algorithm);

/// The family `op` belongs to, or false for operations without a choice (scan, local ones).
bool family_of(CollectiveOp op, CollectiveFamily& family);

/// The algorithms `family` can run, in the order the docs list them.
std::span<const CollectiveAlgorithm> algorithms_of(CollectiveFamily family);

/// Algorithm choices, declared once with their defaults.
struct CollectiveOptions {
  /// mpich: allreduce payloads of at least this many bytes use the ring, smaller ones recursive
  /// doubling.
  std::int64_t allreduce_ring_from = 8 * 1024;
  /// mpich: allgathers whose gathered total reaches this many bytes use the ring even when P is a
  /// power of two.
  std::int64_t allgather_ring_from = 64 * 1024;
  CollectiveSelector selector = CollectiveSelector::Mpich;
  /// Per family, Default or the algorithm forced by an override.
  std::array<CollectiveAlgorithm, kCollectiveFamilies> overrides{};

  [[nodiscard]] bool is_default() const;
  friend bool operator==(const CollectiveOptions&, const CollectiveOptions&) = default;
};

/// Parses `SELECTOR[,OP=ALGORITHM...]`. Throws InputError naming the value, `option` (e.g.
/// "--collectives" or "mpi.collectives") and the valid names, with a "did you mean".
CollectiveOptions parse_collective_options(std::string_view spec, std::string_view option);

/// The canonical spelling: the selector, then the overrides in family order ("ompi",
/// "mpich,alltoall=bruck"). parse_collective_options(to_string(o)) == o.
std::string to_string(const CollectiveOptions& options);

}  // namespace mapsim::traces
