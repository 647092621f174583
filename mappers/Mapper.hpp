#pragma once
// The Mapper interface and the registry of mappers by name.
//
// A mapper places every rank of a communication matrix on a node of a topology. It is built
// from its parsed parameters (immutable, passed to the factory), and map() depends only on the
// matrix, the topology, those parameters and the seed: never on the thread count, so oneTBB may
// run anything inside in parallel and many mappers may run at once.
//
// Small jobs on large machines: when the ranks need fewer nodes than the machine has
// (ceil(ranks / cores) < nodes), map() first chooses the compact block for that many nodes
// (topologies/Block.hpp: the box of least diameter, then fewest nodes, then least average
// distance) and has the mapper compute on the block as a machine of its own (same kind, same
// hops), so that no mapper scatters a small job over a large machine and its work is bounded
// by the block, not the machine. The exceptions, whose placement is the point (scope() is
// WholeMachine): in-order (the launcher's default, the baseline every table is normalised to),
// round-robin (Slurm's cyclic distribution, spread over the machine's groups by definition) and
// random (a uniformly random placement over the whole machine: the "no mapping" baseline).
//
// Allocations: on a machine with an allocation (Topology::allocation), every mapper computes on
// the allocated nodes as a machine of their own (topologies/NodeSubset.hpp: the machine's hops and
// routes, one dimension, no grid), WholeMachine mappers included — the allocation is the machine
// the job has — and a small job on it takes its compact block there: a prefix of the allocation.
// Mappers that walk a grid see through the subset (MachineView.hpp): the space-filling curves
// walk the grid of the machine under it and take its nodes in that order; Bhatele's heuristics
// for regular grids, which lay slabs on planes, refuse it, and every grid mapper refuses a
// machine without any grid (a Slurm cluster), naming the mappers that take any set of nodes. The
// job placement policies random-router and group-striped refuse a machine without levels.
//
// Sockets: on a machine whose nodes have several sockets, map() then chooses which ranks of each
// node share a socket (SocketGrouping.hpp), for every mapper but the WholeMachine baselines.
//
// Mappers with the simulator in the loop (replay-search): they judge mappings by replaying the
// workload through a TimeOracle (TimeOracle.hpp) that the caller builds from the trace, and
// search on the machine as given (no compact block, no NodeSubset: the oracle replays on the
// machine, and the mappings they start from come from other mappers, which take their blocks and
// sockets themselves). Without an oracle they throw InputError saying they need a trace.
//
// Link energy: map() takes the link table in effect (`--link-energy`, a config machine's
// `pj-per-bit`); the objectives that weigh the traffic's energy (objective=energy, time+energy)
// read its energy per bit, where every other cost keeps the link classes' default bandwidths and
// latencies. A mapper whose result depends on that table says so (weighs_link_energy), for the
// sweeps' mapping keys (experiments/Sweep.hpp).
//
// Adding a mapper: declare its ParamSpec table and a factory, and add one line to the table in
// Registry.cpp (name, one-line description, parameters, factory).

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "mappers/CommGraph.hpp"
#include "mappers/Parameters.hpp"
#include "mappers/Random.hpp"
#include "mappers/TimeOracle.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::map {

/// What a mapper works on, built once per map() call.
struct Problem {
  const traces::CommMatrix& matrix;
  const topo::Topology& topology;
  const CommGraph& graph;        ///< the matrix as an undirected graph
  const topo::LinkTable& links;  ///< the link table in effect (its energy: the energy objectives)
  Seed seed = 0;

  [[nodiscard]] Rank ranks() const { return matrix.rank_count(); }
  [[nodiscard]] int cores() const { return topology.cores_per_node(); }
};

/// Which nodes a mapper may use when the ranks need fewer than the machine has.
enum class Scope : std::uint8_t {
  CompactBlock,  ///< the compact block (topologies/Block.hpp)
  WholeMachine,  ///< any node: baselines defined over the whole machine
};

class Mapper {
 public:
  virtual ~Mapper() = default;
  Mapper() = default;
  Mapper(const Mapper&) = delete;
  Mapper& operator=(const Mapper&) = delete;

  /// Places every rank. Throws InputError if the ranks do not fit on the machine (or if the
  /// mapper cannot handle this input, saying why). The result is valid: a bug otherwise.
  /// `oracle` replays the workload on `topology` for the mappers that need one (needs_oracle);
  /// the others ignore it. `links`: the link table in effect, whose energy per bit the energy
  /// objectives weigh (default: the link classes' defaults).
  [[nodiscard]] topo::Mapping map(const traces::CommMatrix& matrix, const topo::Topology& topology,
                                  Seed seed = 0, const TimeOracle* oracle = nullptr,
                                  const topo::LinkTable& links = {}) const;

  [[nodiscard]] virtual Scope scope() const { return Scope::CompactBlock; }
  /// Whether map() judges mappings by replaying the workload (a TimeOracle).
  [[nodiscard]] virtual bool needs_oracle() const { return false; }
  /// Whether map() weighs the traffic's energy by the link table's energy per bit (an energy
  /// objective: objective=energy or time+energy), so that its mapping depends on that table.
  [[nodiscard]] virtual bool weighs_link_energy() const { return false; }

 protected:
  /// Preconditions: 1 <= ranks <= nodes * cores per node; with Scope::CompactBlock the
  /// topology is the compact block (or the whole machine when the ranks need all its nodes).
  [[nodiscard]] virtual topo::Mapping compute(const Problem& problem) const = 0;
  /// For mappers that need an oracle: the mapping of every rank on the machine as given (whose
  /// allocation it respects). The others never get here.
  [[nodiscard]] virtual topo::Mapping search(const Problem& problem,
                                             const TimeOracle& oracle) const;

 private:
  /// compute() on the compact block of `topology` for the ranks, or on all of it.
  [[nodiscard]] topo::Mapping place(const traces::CommMatrix& matrix,
                                    const topo::Topology& topology, const CommGraph& graph,
                                    const topo::LinkTable& links, Seed seed) const;
  /// A mapping onto a part of a machine (node k = nodes[k]) as a mapping onto the machine.
  static topo::Mapping on_machine(const topo::Mapping& local, std::span<const topo::NodeId> nodes);
  /// `mapping` after checking it is a valid mapping of every rank (a bug otherwise).
  static topo::Mapping checked(topo::Mapping mapping, const traces::CommMatrix& matrix,
                               const topo::Topology& topology);
  static topo::Mapping checked(topo::Mapping mapping, Rank ranks, const topo::Topology& topology);
  /// The ranks of each node on its sockets (SocketGrouping.hpp), unless a node has one socket or
  /// this mapper is a WholeMachine baseline.
  [[nodiscard]] topo::Mapping with_sockets(topo::Mapping mapping, const CommGraph& graph,
                                           const topo::Topology& topology) const;
};

using MapperFactory = std::unique_ptr<Mapper> (*)(const ParamValues& params);

struct MapperInfo {
  std::string_view name;
  std::string_view description;  ///< one line
  std::span<const ParamSpec> params;
  MapperFactory make;
  /// Replays the workload (needs_oracle): it needs a trace, and `--mapper all` leaves it out (it
  /// runs other mappers itself).
  bool replays = false;
};

/// Every registered mapper, in the order `mapsim list mappers` shows them.
std::span<const MapperInfo> mapper_infos();

/// The mapper named `name`; throws InputError listing the valid names.
const MapperInfo& find_mapper(std::string_view name);

/// Builds mapper `name` with parameters `params` (unknown keys and bad values are InputErrors).
std::unique_ptr<Mapper> make_mapper(std::string_view name, const ParamList& params = {});

/// One mapper of a portfolio (replay-search's `portfolio=`, advise's --mapper), as written:
/// NAME or NAME:key=value[:key=value...], e.g. "best:objective=latency".
struct MapperItem {
  std::string name;
  ParamList params;
  std::string label;  ///< the item as written, trimmed
};

/// Parses one item and checks its mapper and parameters now; throws InputError naming `where`
/// and the item otherwise (an empty item, an unknown mapper, a bad key or value).
MapperItem parse_mapper_item(std::string_view item, std::string_view where);

}  // namespace mapsim::map
