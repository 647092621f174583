#pragma once
// Internal: RAII over libscotch (Debian's Scotch 7, 32-bit SCOTCH_Num) for the `scotch` and
// `bisection` mappers.
//
// Every call into Scotch holds one process-wide lock: Scotch keeps global state (its random
// generator, error handler) and the mappers may run concurrently (`mapsim map --mapper all`).
// Each mapping runs in its own Scotch context (Context below): single-threaded, deterministic,
// seeded from the mapper's seed, so results depend on the seed only.

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <span>
#include <vector>

#include <scotch.h>

#include "mappers/CommGraph.hpp"
#include "mappers/Random.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map::scotch {

using Num = SCOTCH_Num;

/// The lock every Scotch call must hold.
std::unique_lock<std::mutex> lock();

/// A Scotch execution context: one thread, deterministic algorithms, its own random generator
/// seeded from the mapper's seed. Graphs bound to it run their algorithms under these options,
/// so results depend on the seed only (never on the machine's cores or on earlier calls).
class Context {
 public:
  explicit Context(Seed seed);
  ~Context() { SCOTCH_contextExit(&context_); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  SCOTCH_Context* get() { return &context_; }

 private:
  SCOTCH_Context context_;
};

/// A symmetric graph in Scotch's CSR form (no self-loops, both directions of every edge).
struct GraphData {
  std::vector<Num> start;    ///< vertex_count + 1 offsets
  std::vector<Num> targets;  ///< neighbour of each arc
  std::vector<Num> weights;  ///< arc weights (>= 1), empty for unit weights
  std::vector<Num> loads;    ///< vertex loads, empty for unit loads
  [[nodiscard]] Num vertex_count() const { return static_cast<Num>(start.size()) - 1; }
};

/// The ranks `subset` of `graph` (all ranks when empty) with edge weight = bytes both ways
/// scaled down uniformly so that Scotch's 32-bit sums cannot overflow (every weight stays >= 1;
/// an edge of messages without bytes weighs 1).
GraphData process_graph(const CommGraph& graph, std::span<const Rank> subset = {});

/// Scotch objects, destroyed with their owner. Methods throw InternalError on a Scotch failure
/// (the inputs are checked before, so a failure is a bug).
class Graph {
 public:
  /// Keeps pointers into `data`, which must outlive the graph; bound to `context` if given.
  explicit Graph(const GraphData& data, Context* context = nullptr);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  SCOTCH_Graph* get() { return bound_ ? &bound_graph_ : &graph_; }

 private:
  SCOTCH_Graph graph_;
  SCOTCH_Graph bound_graph_;
  bool bound_ = false;
};

class Arch {
 public:
  Arch();
  ~Arch() { SCOTCH_archExit(&arch_); }
  Arch(const Arch&) = delete;
  Arch& operator=(const Arch&) = delete;
  SCOTCH_Arch* get() { return &arch_; }

 private:
  SCOTCH_Arch arch_;
};

/// The target architecture of a machine, terminal t being compute node t (built by
/// build_target): the architecture of the whole machine and, when the mapper computes on some
/// of its nodes or the machine's tree is uneven, Scotch's sub-architecture of those terminals.
class Target {
 public:
  SCOTCH_Arch* get() { return restricted_ ? sub_.get() : whole_.get(); }

 private:
  friend void build_target(Target& target, const topo::Topology& topology, Context& context,
                           bool torus_as_mesh);
  Arch whole_;
  Arch sub_;  // initialised always, built only if restricted_
  bool restricted_ = false;
};

/// Builds the target of `topology`: Scotch's mesh or torus for grids (exact hop distances); for
/// Tianhe-3 a tree (rows, columns, sides, nodes) and for hierarchical machines (fat-trees,
/// dragonflies, Cascade, Slurm trees) a tree-leaf architecture of their levels (Hierarchy.hpp;
/// each level's distance the mean hops between nodes that part there, uneven trees padded to
/// their widest vertex per level and restricted to the real nodes); for the HAEC Box up to 2048
/// nodes a decomposition-defined architecture with exact distances in the graph of all vertices
/// and links (SCOTCH_archBuild0), restricted to the compute nodes; above (where that table would
/// take hundreds of MB and Scotch's estimated variant maps slowly) a 3-D torus. On some nodes of a
/// machine (a NodeSubset: an allocation, a small job's first nodes) the whole machine's target
/// restricted to them (SCOTCH_archSub), or, for a HAEC Box up to 2048 nodes, the decomposition of
/// the link graph with those nodes as terminals. Every node weighs the same; capacity is enforced
/// after. With `torus_as_mesh`, a 2-D or 3-D torus is described as the mesh of the same size (a
/// sub-graph of it: every mesh distance is at least the torus distance).
void build_target(Target& target, const topo::Topology& topology, Context& context,
                  bool torus_as_mesh = false);
/// The target of a whole machine in one architecture: as above where that needs no restriction,
/// else the decomposition of its link graph.
void build_target(Arch& arch, const topo::Topology& topology, Context& context,
                  bool torus_as_mesh = false);

/// A mapping strategy for `parts` terminals with Scotch's flags and balance ratio.
class Strategy {
 public:
  Strategy(Num flags, Num parts, double balance);
  ~Strategy() { SCOTCH_stratExit(&strat_); }
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;
  SCOTCH_Strat* get() { return &strat_; }

 private:
  SCOTCH_Strat strat_;
};

/// SCOTCH_graphMap: the terminal of every vertex.
std::vector<Num> map_graph(Graph& graph, SCOTCH_Arch* arch, Strategy& strategy, Num vertices);

}  // namespace mapsim::map::scotch
