#pragma once
// best — mapsim's own mapper, whose job is the lowest cost of all mappers:
//   1. constructive starts: every registered mapper that is not search-based (in-order,
//      round-robin, random, the space-filling curves, greedy, rcm, minmd, bisection, scotch, and
//      any added later; `ohtma`, `bokhari`, `genetic`, `sampling` and `best` are left out, and so
//      are the job placement policies contiguous, random-node, random-router and group-striped;
//      treematch starts only on hierarchical machines: fat-trees, dragonflies, Cascade, Slurm
//      trees and node subsets such as allocations) plus OHTMA's greedy phase, each with the
//      problem's seed, in parallel; a start that cannot handle the input (InputError: a grid
//      mapper on an allocation) is skipped, and so are Bhatele's grid heuristics when the
//      pattern is not a regular grid (they would repeat their fall-backs mht and coce-mht);
//      bisection also runs with orient=none. On a dense matrix (average degree above
//      kDenseDegree = 64, e.g. FT's all-to-alls) the starts see a skeleton of it: every rank's
//      16 heaviest partners, equal light partners sampled evenly and scaled to keep the rank's
//      volume (BestMapper.cpp). Scotch and the Bhatele heuristics take minutes on an all-to-all
//      of thousands of ranks, and a start only has to be a good place to search from; the fast
//      ones (greedy, bisection in both orientations, minmd) run on the whole matrix as well,
//      and mht and coce-mht not at all (slow even on the skeleton, and poor starts there);
//   2. the starts ranked by their cost on the whole matrix (ties: the order above), identical
//      ones merged;
//   3. `chains` iterated local searches (LocalSearch.hpp; on a dense matrix on a mesh or torus
//      with per-axis tables that make every node a target) in parallel, chain c from the
//      (c mod k)-th best start with k = min(chains, starts, 2), each with its own random stream
//      (seed, c) and an equal share of the work budget;
//   4. the best chain's mapping (ties: the lowest chain).
// The cost is hop-bytes by default, or another objective of LocalSearch.hpp: congestion (the
// busiest link's time, then the sum of squared link times), congestion-smooth, energy, hybrid,
// or latency (messages x route latency, searched on the message graph: the starts still map the
// matrix as given, or on a dense matrix the skeleton of the message graph). No chain ends worse
// than its start, so the result is at least as good as every start. With the default work budget
// (work units per rank) the result depends only on the problem, the parameters and the seed,
// whatever the thread count; time-limit replaces the budget by the wall clock, and the result then
// depends on the machine's speed and load.
//
// objective=critical-latency weighs latency by the replay as well as by the matrix: `best`
// replays the in-order mapping once, contention-free (the analytic model, communication only),
// through the TimeOracle the caller built from the trace (TimeOracle.hpp; without a trace it
// refuses), and counts for each pair of ranks its messages on that replay's critical path, c_ij.
// Latency then sums (m_ij + k c_ij) x the route's latency, m_ij the pair's messages and
// k = round(M / C) (at least 1; M all messages, C those on the path): the messages the makespan
// waits on weigh as much as all others together (critical_path_weights below). With the path
// alone (k infinite) the search would scatter every other pair, and the replay's path would move
// there: LU class A on 64 ranks, 2 iterations, torus:4x4x4, communication only, replays 62 %
// slower than under latency. The starts map the matrix itself (a stencil's grid embeddings are
// among them) and are ranked, like the search's moves, by the weighted latency.

#include <string>
#include <vector>

#include "mappers/LocalSearch.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/TimeOracle.hpp"

namespace mapsim::map {

struct BestOptions {
  SearchGoal goal = SearchGoal::HopBytes;
  int chains = 2;
  std::uint64_t work_per_rank = 50000;
  double time_limit = 0;  ///< seconds for the local search; 0: the work budget
  /// time+energy's w, the traffic energy's weight (LocalSearch.hpp)
  double energy_weight = kTimeEnergyWeight;
  /// The link table whose energy per bit goals Energy and TimeEnergy weigh (Problem::links).
  topo::LinkTable links{};
};

struct BestStart {
  std::string name;  ///< the constructive mapper, or "ohtma-greedy"
  std::vector<topo::NodeId> nodes;
  SearchCost cost;
};

struct BestResult {
  std::vector<topo::NodeId> nodes;
  SearchCost cost;
  std::vector<BestStart> starts;  ///< ranked, best first, duplicates merged
  int best_chain = 0;
};

/// The matrix objective=critical-latency searches (above): messages m_ij + k c_ij, bytes the
/// matrix's (k c_ij for path messages the matrix does not hold: a collective's, with the matrix
/// of point-to-point only). The matrix's messages if the path holds none.
traces::CommMatrix critical_path_weights(const traces::CommMatrix& matrix,
                                         const topo::Topology& topology, const TimeOracle& oracle,
                                         Seed seed);

/// `objective`: the matrix the objective sums over when it is not `matrix` (critical-latency's
/// weights); the starts map `matrix` either way.
BestResult run_best(const traces::CommMatrix& matrix, const topo::Topology& topology,
                    const BestOptions& options, Seed seed,
                    const traces::CommMatrix* objective = nullptr);

}  // namespace mapsim::map
