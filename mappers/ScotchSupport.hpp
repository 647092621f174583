#pragma once
// Internal: RAII over libscotch (Debian's Scotch 7, 32-bit SCOTCH_Num) for the `scotch` and
// `bisection` mappers.
//
// Every call into Scotch holds one process-wide lock: Scotch keeps global state (its random
// generator, error handler) and the mappers may run concurrently (`mapsim map --mapper all`).
// Each mapping starts by reseeding Scotch from the mapper's seed, so results depend on the seed
// only, never on which mapper ran before.

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
std::unique_lock<std::mutex> lock(Seed seed);

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
  explicit Graph(const GraphData& data);  ///< keeps pointers into `data`: it must outlive this
  ~Graph() { SCOTCH_graphExit(&graph_); }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  SCOTCH_Graph* get() { return &graph_; }

 private:
  SCOTCH_Graph graph_;
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

/// The target architecture of a machine, terminal t being compute node t: Scotch's mesh or
/// torus for grids (exact hop distances), and for the HAEC Box and Tianhe-3 a decomposition-
/// defined architecture built from the graph of all vertices and links (SCOTCH_archBuild2),
/// restricted to the compute nodes. Every node weighs the same; capacity is enforced after.
void build_target(Arch& arch, const topo::Topology& topology);

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
std::vector<Num> map_graph(Graph& graph, Arch& arch, Strategy& strategy, Num vertices);

}  // namespace mapsim::map::scotch
