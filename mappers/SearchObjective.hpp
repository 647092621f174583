#pragma once
// The objectives of the search-based mappers, as costs to minimise:
//   hop-bytes    HB = sum over ordered pairs of bytes(i, j) hops(f(i), f(j)) (metrics::hop_bytes)
//   cardinality  -|M|, Bokhari's cardinality negated: |M| is the number of communicating pairs
//                {u, v} (either direction, u != v) placed at most one hop apart (hops(f(u),
//                f(v)) <= 1: on the same node or on adjacent nodes, NodeNeighbors::adjacent), the
//                process-graph edges that "fall on" processor-graph edges (Bokhari 1981; the
//                HAEC thesis, sec. 3.1). Unweighted, as the thesis defines it.
//   energy       sum over ordered pairs of bytes(i, j) e(f(i), f(j)), e the energy per bit of
//                the route (RouteDistance.hpp; the intra-node class's between ranks of one
//                node): the traffic energy, in 1/125 fJ (8 bits, 0.001 pJ). It sees what
//                hop-bytes does not: a hop over a link that costs more per bit (the HAEC Box's
//                wireless links, a dragonfly's optical global links) and the memory copy between
//                ranks of one node. The links' power is no part of it (it needs a replay).
//   latency      sum over ordered pairs of messages(i, j) l(f(i), f(j)), l the latency of the
//                route in ps (RouteDistance.hpp: the links' latencies, the intra-node channel's
//                between ranks of one node): what the messages wait on the wires whatever their
//                size, so that a chain of small messages (LU's wavefronts) is kept on short and
//                fast routes. Every message counts once; the time a message waits behind others
//                is congestion's part (LocalSearch.hpp), not this one's.
// Deltas of a swap or a move are O(deg) from the sparse graph. The distance objectives (energy,
// latency) sum over the graph of ObjectiveInputs (latency: weighted by messages) with its
// RouteDistance, built once per machine by the mapper (`distance` below; null otherwise): the
// energy's with the energy per bit of the link table in effect (Mapper.hpp), the latency's with
// the link classes' default latencies.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "mappers/CommGraph.hpp"
#include "mappers/RouteDistance.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

enum class Objective : std::uint8_t { HopBytes, Cardinality, Energy, Latency };

/// "hop-bytes", "cardinality", "energy" or "latency" (the words of the mappers' `objective`
/// parameters).
Objective parse_objective(std::string_view word);

/// What an objective sums over: the problem's graph (latency: its message counts,
/// CommGraph::by_messages) and the RouteDistance of a distance objective (energy, latency; null
/// otherwise), checked to sum in 64 bits (InputError otherwise). Built once per problem; the
/// energy distance weighs the energy per bit of `links` (Problem::links).
class ObjectiveInputs {
 public:
  ObjectiveInputs(Objective objective, const CommGraph& graph, const topo::Topology& topology,
                  const topo::LinkTable& links = {});

  [[nodiscard]] const CommGraph& graph() const { return *graph_; }
  [[nodiscard]] const RouteDistance* distance() const { return distance_.get(); }

 private:
  const CommGraph* graph_;
  std::unique_ptr<const CommGraph> messages_;
  std::unique_ptr<const RouteDistance> distance_;
};

/// |M|, in parallel (deterministic: an integer sum).
std::int64_t cardinality(const CommGraph& graph, const topo::Topology& topology,
                         std::span<const topo::NodeId> node_of_rank);

/// The cost: hop-bytes, -|M|, the traffic energy or the latency sum. The _serial variant runs on
/// the calling thread (for callers that evaluate many mappings in parallel themselves).
std::int64_t objective_cost_serial(Objective objective, const CommGraph& graph,
                                   const topo::Topology& topology,
                                   std::span<const topo::NodeId> node_of_rank,
                                   const RouteDistance* distance = nullptr);
/// The cost: hop-bytes, -|M|, the traffic energy or the latency sum.
std::int64_t objective_cost(Objective objective, const CommGraph& graph,
                            const topo::Topology& topology,
                            std::span<const topo::NodeId> node_of_rank,
                            const RouteDistance* distance = nullptr);

/// Change of the cost if ranks i and j exchange nodes. O(deg i + deg j).
std::int64_t swap_cost_delta(Objective objective, const CommGraph& graph,
                             const topo::Topology& topology,
                             std::span<const topo::NodeId> node_of_rank, Rank i, Rank j,
                             const RouteDistance* distance = nullptr);

/// Change of the cost if rank i moves to node `to`. O(deg i).
std::int64_t move_cost_delta(Objective objective, const CommGraph& graph,
                             const topo::Topology& topology,
                             std::span<const topo::NodeId> node_of_rank, Rank i, topo::NodeId to,
                             const RouteDistance* distance = nullptr);

}  // namespace mapsim::map
