#pragma once
// Internal: the machine a mapper computes on, seen through node subsets, and the refusals of
// mappers that need what a machine lacks.
//
// Mapper::map has a mapper compute on a NodeSubset (topologies/NodeSubset.hpp) when the job has an
// allocation, or is small on a hierarchical machine: one dimension, no grid. The machine under the
// subset may have one. root_view() finds that machine (through subsets of subsets: a small job on
// an allocation) and where the subset's nodes lie in it, so that a space-filling curve can walk
// the whole machine's grid and Scotch can take the whole machine's architecture, keeping the
// subset's nodes only.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/Error.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::map {

struct RootView {
  const topo::Topology* machine = nullptr;  ///< the machine under every subset (or the topology)
  std::vector<topo::NodeId> nodes;          ///< node k of the topology is node nodes[k] of it
  bool subset = false;                      ///< the topology is a subset of `machine`
};

RootView root_view(const topo::Topology& topology);

/// The `sweep` mapping of the matrix's ranks (the start of Bokhari's MAPPER and of the genetic
/// algorithm in the HAEC thesis); on a machine without any grid, in-order's: the same order, as
/// sweep's raster order is the natural order on every machine with a grid.
topo::Mapping sweep_or_in_order(const traces::CommMatrix& matrix, const topo::Topology& topology,
                                std::uint64_t seed);

/// The mappers that refuse machines without a grid (space-filling curves: when the machine under
/// every subset has none; Bhatele's grid heuristics: whenever the topology has none) or without a
/// hierarchy (levels: the placement policies random-router and group-striped).
[[nodiscard]] bool needs_grid(std::string_view mapper);
[[nodiscard]] bool needs_levels(std::string_view mapper);

/// A mapper refused a machine it does not apply to (refuse()).
class NotForMachine : public InputError {
 public:
  NotForMachine(const std::string& message, std::string lacks, std::string machine)
      : InputError(message), lacks_(std::move(lacks)), machine_(std::move(machine)) {}
  /// What the machine lacks, e.g. "no grid".
  [[nodiscard]] const std::string& lacks() const { return lacks_; }
  /// The same for every mapper refused on this machine: e.g. "the 8 allocated nodes of X have no
  /// grid; mappers for any set of nodes: ...".
  [[nodiscard]] const std::string& machine() const { return machine_; }

 private:
  std::string lacks_;
  std::string machine_;
};

/// Throws NotForMachine: mapper `mapper` `needs` (e.g. "walks the machine's grid"), `topology` has
/// no `what` (e.g. "grid"); the message names the machine or the nodes a job maps onto (its
/// allocation, a small job's first nodes) and lists the registered mappers that take any set of
/// nodes.
[[noreturn]] void refuse(std::string_view mapper, std::string_view needs, std::string_view what,
                         const topo::Topology& topology);

}  // namespace mapsim::map
