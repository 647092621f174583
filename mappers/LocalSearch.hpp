#pragma once
// Swap-based iterated local search over restricted neighbourhoods: the engine of the `best`
// mapper (BestMapper.hpp).
//
// Cost (lexicographic, minimised):
//   hop-bytes    (HB, 0)                       HB = sum of bytes(i, j) hops(f(i), f(j))
//   congestion   (max_l T_l, sum_l T_l^2)      T_l = w_l L_l, the time directed link l is busy:
//                                              L_l bytes crossing it along the minimal routes
//                                              (metrics::link_loads) over its bandwidth, in
//                                              units of the fastest class (LinkLoadTracker.hpp);
//                                              the busiest link in seconds (Hoefler & Snir), the
//                                              sum of squares breaking the many ties of the max
//                                              and pushing traffic off heavy links. On machines
//                                              of one bandwidth T_l = L_l (bytes).
//   congestion-smooth (0, sum_l L_l^2 / b_l)   the smooth variant (as sum_l T_l L_l): every
//                                              link's load counts, so that a move that relieves
//                                              any heavy link is a step down, not only one that
//                                              relieves the busiest
//   energy       (E, 0)                        E = sum of bytes(i, j) e(f(i), f(j)), the traffic
//                                              energy (RouteDistance.hpp); moves as hop-bytes's,
//                                              with e for the hops (never the dense mode)
//   latency      (D, 0)                        D = sum of messages(i, j) l(f(i), f(j)), l the
//                                              route's latency in ps (RouteDistance.hpp): on the
//                                              message graph (CommGraph::by_messages) with l for
//                                              the hops, as energy
//   hybrid       (H, 0)                        H = w_c max_l T_l / R_max + w_s sum_l T_l L_l /
//                                              R_smooth + w_h HB / R_hb, the R the same sums of
//                                              a reference mapping (`best`: in-order), in units
//                                              of 1e-12: a weighted sum of congestion,
//                                              congestion-smooth and hop-bytes, each relative to
//                                              in-order. The weights (kHybrid* below) give the
//                                              best mean rank agreement with the flow and packet
//                                              replays of two sweeps, objectives.yaml (best
//                                              under each other objective) and
//                                              static-vs-simulated.yaml (docs/results/
//                                              objectives.md: a grid of steps of 0.05 over the
//                                              four sums, latency included, which got weight 0)
//   time+energy  (G, 0)                        G = (1 - w) H + w E / R_energy, w in [0, 1]
//                                              (`best`'s energy-weight, by default
//                                              kTimeEnergyWeight, 0.5): hybrid's time proxy and
//                                              the traffic energy (as energy's E, relative to
//                                              the reference's), in units of 1e-12
// Moves: rank i exchanges places with the rank on a core of a target node, or moves to an idle
// core of it (nodes may outnumber ranks). Target nodes of i: the nodes of its heaviest partners
// and the nodes near those (NodeNeighbors::near), and the nodes near i's own; a rank with more
// partners than that (all-to-alls) also looks near two of its other partners, drawn at random. A
// rank is examined when it is queued; its best improving move is made, and the two ranks that moved
// and their heaviest partners are queued again (the others keep "don't look" status). The descent
// ends when the queue is empty: a local minimum of this neighbourhood. Perturbation (to leave local
// minima): a random region — a rank and its partners (breadth first over the heaviest partners), or
// the cores of a node and its nearest nodes — is shuffled at random, then the descent runs again
// from the ranks of the region. The result is kept if it is not worse, otherwise the round is
// undone (a journal of exchanges), so the chain's cost never rises above its start's.
//
// Dense matrices on meshes and tori (average degree above kDenseDegree, e.g. FT's all-to-alls):
// a move's delta costs O(deg) = O(ranks) there, so the search above would hardly move. Instead,
// as hops add up over the axes (hops(a, b) = sum_d dist_d(a_d, b_d), the ring distance on a
// periodic axis), every rank r keeps per axis d and coordinate c
//   E_r,d(c) = sum_j A_rj dist_d(c, f(j)_d)        A_rj = bytes between r and j, both ways
// so that D_r(y) = sum_j A_rj hops(y, f(j)) = sum_d E_r,d(y_d) and, for i on node a, j on b,
//   delta(exchange i, j) = D_i(b) - D_i(a) + D_j(a) - D_j(b) + 2 A_ij hops(a, b)
//   delta(move i to b)   = D_i(b) - D_i(a)
// in O(axes). Moving i from a to b adds A_ki (dist_d(c, b_d) - dist_d(c, a_d)) to E_k,d(c) for
// every partner k of i and axis d with a_d != b_d: O(deg x sum of the sides). Every node is then
// a target of every examined rank.
//
// On hierarchical machines the hops of a move's delta come from a table of router pairs equal to
// Topology::hops (RouterHops.hpp): the same moves, faster.
//
// Budget: work units, a deterministic measure of time: evaluating a move of rank i costs
// deg(i) + 1, a swap of i and j deg(i) + deg(j) + 1 (the neighbour terms of the delta), and under
// congestion the route links updated; in the dense mode an evaluation costs 1 + axes and a move
// the table entries it updates. Optionally a wall-clock limit instead, which makes the result
// depend on the machine's speed and load.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/NodeNeighbors.hpp"
#include "mappers/Random.hpp"
#include "mappers/RouteDistance.hpp"
#include "mappers/RouterHops.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

enum class SearchGoal : std::uint8_t {
  HopBytes,
  Congestion,
  CongestionSmooth,
  Energy,
  Latency,
  Hybrid,
  TimeEnergy
};

/// "hop-bytes", "congestion", "congestion-smooth", "energy", "latency", "hybrid" or
/// "time+energy".
SearchGoal parse_search_goal(std::string_view word);

/// The weights of objective=hybrid (above), stated once.
inline constexpr double kHybridCongestion = 0.70;
inline constexpr double kHybridSmooth = 0.20;
inline constexpr double kHybridHopBytes = 0.10;
/// The default weight of the energy in objective=time+energy (above, and replay-search's); the
/// time gets the rest.
inline constexpr double kTimeEnergyWeight = 0.5;

/// The sums of the reference mapping that objective=hybrid (and time+energy) divides by.
struct HybridReference {
  double max_time = 0;   ///< max_l T_l (LinkLoadTracker::max_load)
  double smooth = 0;     ///< sum_l T_l L_l (LinkLoadTracker::smooth)
  double hop_bytes = 0;  ///< HB
  double energy = 0;     ///< the traffic energy E (RouteDistance.hpp), time+energy only
  double energy_weight = kTimeEnergyWeight;  ///< time+energy's w
};

/// Above this average degree a matrix is dense: the local search on meshes and tori switches to
/// per-axis tables (see above), and `best`'s slower starts see a skeleton of it.
constexpr std::size_t kDenseDegree = 64;

struct SearchCost {
  std::uint64_t primary = 0;  ///< HB, max_l T_l, the energy, the latency sum, H or G; 0 (smooth)
  Uint128 secondary = 0;      ///< 0, sum_l T_l^2 (congestion) or sum_l T_l L_l (smooth)

  friend bool operator==(const SearchCost&, const SearchCost&) = default;
  friend bool operator<(const SearchCost& a, const SearchCost& b) {
    return a.primary < b.primary || (a.primary == b.primary && a.secondary < b.secondary);
  }
};

/// What every chain of a problem shares: the graph, the machine, the nodes near each node and
/// the heaviest partners of each rank.
class SearchSpace {
 public:
  /// `partners`: partners per rank that give target nodes; `near`: nearby nodes per node.
  /// `distance`: the routes' energy per bit (SearchGoal::Energy, TimeEnergy) or latency (Latency)
  /// (outlives the space; for Latency, `graph` is the message graph).
  /// `hybrid`: the reference sums of SearchGoal::Hybrid and TimeEnergy.
  SearchSpace(const CommGraph& graph, const topo::Topology& topology, std::size_t partners = 8,
              std::size_t near = 8, const RouteDistance* distance = nullptr,
              HybridReference hybrid = {});

  [[nodiscard]] const CommGraph& graph() const { return graph_; }
  [[nodiscard]] const topo::Topology& topology() const { return topology_; }
  /// The heaviest partners of r (bytes both ways), heaviest first; ties to the nearest rank id
  /// (|l - r|), then to the lower: among the thousand equal partners of an all-to-all, the ranks
  /// next to r in rank order rather than the same few lowest ranks for everybody.
  [[nodiscard]] std::span<const Rank> partners(Rank r) const {
    const auto k = static_cast<std::size_t>(r);
    return {partners_.data() + partner_start_[k], partner_start_[k + 1] - partner_start_[k]};
  }
  [[nodiscard]] std::span<const topo::NodeId> near(topo::NodeId n) const {
    return neighbors_.near(n);
  }
  /// Average degree above kDenseDegree.
  [[nodiscard]] bool dense() const { return dense_; }
  /// Hierarchical machines: the hops of their routers from a table (RouterHops.hpp), or null.
  [[nodiscard]] const RouterHops* router_hops() const {
    return router_hops_ ? &*router_hops_ : nullptr;
  }
  /// The energy per bit or the latency of the routes (SearchGoal::Energy, TimeEnergy, Latency), or
  /// null.
  [[nodiscard]] const RouteDistance* distance() const { return distance_; }
  [[nodiscard]] const HybridReference& hybrid_reference() const { return hybrid_; }
  /// True when hops add up over the axes (meshes and tori): the dense mode's tables apply.
  [[nodiscard]] bool separable() const { return !sides_.empty(); }
  /// Separable machines: the side of every axis, whether it is periodic, and every node's
  /// coordinates (node n's axis d at n * axes + d).
  [[nodiscard]] std::span<const int> sides() const { return sides_; }
  [[nodiscard]] bool periodic(std::size_t axis) const { return periodic_[axis] != 0; }
  [[nodiscard]] std::span<const int> coordinates(topo::NodeId n) const {
    return {coordinates_.data() + static_cast<std::size_t>(n) * sides_.size(), sides_.size()};
  }

 private:
  const CommGraph& graph_;
  const topo::Topology& topology_;
  NodeNeighbors neighbors_;
  std::optional<RouterHops> router_hops_;
  const RouteDistance* distance_ = nullptr;
  HybridReference hybrid_;
  bool dense_ = false;
  std::vector<int> sides_;
  std::vector<char> periodic_;
  std::vector<int> coordinates_;
  std::vector<std::size_t> partner_start_;
  std::vector<Rank> partners_;
};

struct LocalSearchOptions {
  SearchGoal goal = SearchGoal::HopBytes;
  std::uint64_t work = 0;  ///< budget in work units (when time_limit is 0)
  double time_limit = 0;   ///< seconds; > 0 replaces the work budget by the wall clock
};

struct LocalSearchResult {
  std::vector<topo::NodeId> nodes;  ///< the best mapping found
  SearchCost cost;
  SearchCost start_cost;
  std::uint64_t work = 0;    ///< units spent
  std::uint64_t rounds = 0;  ///< perturbation rounds
};

/// The sums objective=hybrid divides by, of the mapping `node_of_rank`; with `energy` (the
/// energy RouteDistance), its traffic energy too (time+energy).
HybridReference hybrid_reference(const CommGraph& graph, const topo::Topology& topology,
                                 std::span<const topo::NodeId> node_of_rank,
                                 const RouteDistance* energy = nullptr);
/// H of the sums given (each divided by the reference's, or taken as is where that is 0), in
/// units of 1e-12, capped at 9e18; with an `energy` (time+energy), G.
std::uint64_t hybrid_cost(const HybridReference& reference, std::uint64_t max_time, Uint128 smooth,
                          std::uint64_t hop_bytes, std::optional<std::int64_t> energy = {});

/// The cost of a mapping under `goal`.
SearchCost search_cost(const SearchSpace& space, SearchGoal goal,
                       std::span<const topo::NodeId> node_of_rank);

/// One chain: descent from `start`, then perturbation rounds until the budget is spent.
/// Deterministic for a given `random` state (and work budget). Never returns a mapping worse
/// than `start`. Precondition: `start` is a valid mapping.
LocalSearchResult local_search(const SearchSpace& space, std::span<const topo::NodeId> start,
                               const LocalSearchOptions& options, Random random);

}  // namespace mapsim::map
