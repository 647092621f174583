#pragma once
// OHTMA — optimized heuristic topology-aware mapping (Li et al., FITEE 21(6):939-949, 2020,
// Algorithm 1; docs/references.md). A is the symmetric volume
// A(i, j) = bytes(i -> j) + bytes(j -> i) (self-traffic excluded), B(x, y) = Topology::hops.
//
// Greedy phase (lines 1-19), k = |P_selected| = |N_selected|:
//   comm_p = sum_{i in P_sel} A(p, i) + sum_{j in P_unsel} A(p, j) / (1 + k)            (line 7)
//   hops_n = sum_{i in N_sel} B(n, i) + sum_{j in N_unsel} B(n, j) / (1 + k)            (line 11)
//   f(argmax comm_p) <- argmin hops_n, both move to the selected sets.
// Exchange phase (lines 20-34): for `loop` iterations (|P|/2 by default, as in the paper's
// experiments), the unlocked pair (m, n) of largest gain
//   Cost(i, j) = sum_{l != i, j} A(i, l) (B(f(i), f(l)) - B(f(j), f(l)))
//                              + A(j, l) (B(f(j), f(l)) - B(f(i), f(l)))
// (the drop in hop-bytes if i and j exchange places) is exchanged even when its gain is
// negative, and both are locked. Backtracking (lines 35-39) keeps the prefix of exchanges with
// the largest cumulative gain.
//
// What the pseudocode leaves open, and how it is resolved here:
//  * Exact arithmetic: comm_p and hops_n are compared scaled by (1 + k), i.e. as the integers
//    (1 + k) S + U (S: the selected sum, U: the unselected one); the order is the paper's.
//  * Ties: the process of lowest rank with maximal comm_p; the processor of lowest id with
//    minimal hops_n; the exchange pair (m, n), m < n, lexicographically smallest among those of
//    maximal gain; backtracking keeps the shortest prefix among those of maximal sum (no
//    exchange at all if none gains).
//  * "Status[|P|] <- 1, k <- 1" (line 32) is read as Status[m] <- 1, Status[n] <- 1,
//    k <- k + 1: the two exchanged processes are locked (the text: "mark and store the processes
//    that have been exchanged"), so each iteration locks two processes and loop = |P|/2 visits
//    every process once, as in Kernighan-Lin. The phase also stops when fewer than two
//    processes are unlocked.
//  * Line 26's sums run over every l; taken literally the pair's own term A(i, j) B(f(i), f(j))
//    would count as vanishing after the exchange. The line's comment says Cost is the hop-byte
//    change, so the pair (whose distance does not change) is left out: Cost is exactly the drop
//    in hop-bytes (hops are symmetric on every machine mapsim models).
//  * Processors are cores: N holds cores_per_node slots per node (slot s on node s / cores,
//    B = 0 between slots of one node), so nodes with several cores fill up and, when the machine
//    has more cores than ranks, the greedy phase picks |P| of them; the exchange phase permutes
//    processes only (i, j in P), as line 24 says, and never moves one to an idle core.
//
// Other objectives (OhtmaOptions::goal, the mapper's objective=): the exchange phase runs on
// `best`'s cost of that goal (GoalCosts.hpp; congestion, congestion-smooth, latency, energy,
// hybrid). Each iteration evaluates every unlocked pair exactly, in parallel, and exchanges the
// one with the lowest cost after (ties: the lexicographically smallest pair), even if that is
// higher than before; backtracking keeps the shortest prefix with the lowest cost, if lower
// than the greedy mapping's. An iteration costs O(unlocked^2) evaluations of
// O(deg x route links x log links) (link goals) or O(deg) (latency, energy): the whole phase
// O(n^3) evaluations, against the hop-bytes phase's incremental gains. 64 ranks take well under
// a second; from a few hundred ranks on, bound it with time-limit or loop.
//
// The implementation: the greedy phase keeps sum_{i in P_sel} A(p, i) per process and
// sum_{i in N_sel} B(n, i) per node, updated in O(deg) and O(nodes) per step (hops come from
// Topology::hops; nothing dense). The exchange phase keeps, per unlocked process, its best known
// partners (exact gains) and a bound on all others; after an exchange of (r, s) only gains of
// pairs touching K = {r, s} + neighbours(r) + neighbours(s) change, so rows outside K only
// re-evaluate their pairs with K, and a row is recomputed in full (O(n deg + edges)) only when
// its known best no longer beats its bound. Rows are updated in parallel (oneTBB); every choice
// is a deterministic arg-max, so the mapping does not depend on the thread count and equals the
// plain dense implementation's (tests/mappers/OhtmaReference.hpp).

#include <cstdint>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/LocalSearch.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

/// How the exchange phase keeps its gains: Sparse (best partners per process, incremental;
/// memory O(n + edges)), Dense (an n x n table; for dense matrices), or Automatic (Dense when the
/// graph has at least n^2 / 8 neighbour entries). Both give the same exchanges.
enum class OhtmaGains { Automatic, Sparse, Dense };

struct OhtmaOptions {
  /// Exchange iterations; -1: |P| / 2, the paper's choice.
  std::int64_t loop = -1;
  /// Wall-clock limit of the exchange phase in seconds (0: none). When it strikes, the
  /// exchanges made so far are backtracked as usual (none if the first gains were not all
  /// computed in time: the greedy mapping); the result then depends on the machine's speed and
  /// load.
  double time_limit = 0;
  OhtmaGains gains = OhtmaGains::Automatic;
  /// The exchange phase's objective (the greedy phase is the paper's, by hops): hop-bytes, the
  /// paper's, or another of `best`'s costs (LocalSearch.hpp), whose exchange phase evaluates
  /// every unlocked pair exactly in each iteration (above).
  SearchGoal goal = SearchGoal::HopBytes;
  /// The in-order mapping, for goal Hybrid (its sums are relative to in-order's).
  std::vector<topo::NodeId> reference{};
  /// The link table whose energy per bit goal Energy weighs (Mapper.hpp, Problem::links).
  topo::LinkTable links{};
};

struct OhtmaExchange {
  Rank m = 0;
  Rank n = 0;
  /// Result[]: the drop in hop-bytes of this exchange; under another goal, the drop of its
  /// leading sum (SearchCost::primary, or for congestion-smooth its sum, within 63 bits).
  std::int64_t gain = 0;
  /// Under a goal other than hop-bytes: the cost after this exchange (0 under hop-bytes).
  SearchCost after{};

  friend bool operator==(const OhtmaExchange&, const OhtmaExchange&) = default;
};

struct OhtmaResult {
  std::vector<topo::NodeId> greedy;      ///< node of each rank after lines 1-19
  std::vector<OhtmaExchange> exchanges;  ///< Pair[] and Result[], in order
  std::size_t kept = 0;                  ///< t: exchanges kept by backtracking
  std::vector<topo::NodeId> final;       ///< node of each rank returned (line 40)
  bool timed_out = false;                ///< the time limit cut the exchange phase short
};

/// The greedy phase alone (lines 1-19). Preconditions: ranks <= nodes x cores.
std::vector<topo::NodeId> ohtma_greedy(const CommGraph& graph, const topo::Topology& topology);

/// The whole algorithm.
OhtmaResult run_ohtma(const CommGraph& graph, const topo::Topology& topology,
                      const OhtmaOptions& options = {});

}  // namespace mapsim::map
