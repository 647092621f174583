#pragma once
// The objectives of the search-based mappers, as costs to minimise:
//   hop-bytes    HB = sum over ordered pairs of bytes(i, j) hops(f(i), f(j)) (metrics::hop_bytes)
//   cardinality  -|M|, Bokhari's cardinality negated: |M| is the number of communicating pairs
//                {u, v} (either direction, u != v) placed at most one hop apart (hops(f(u),
//                f(v)) <= 1: on the same node or on adjacent nodes, NodeNeighbors::adjacent), the
//                process-graph edges that "fall on" processor-graph edges (Bokhari 1981; the
//                HAEC thesis, sec. 3.1). Unweighted, as the thesis defines it.
//   energy       sum over ordered pairs of bytes(i, j) e(f(i), f(j)), e the energy per bit of
//                the route (EnergyDistance.hpp; the intra-node class's between ranks of one
//                node): the traffic energy, in 1/125 fJ (8 bits, 0.001 pJ). It sees what
//                hop-bytes does not: a hop over a link that costs more per bit (the HAEC Box's
//                wireless links, a dragonfly's optical global links) and the memory copy between
//                ranks of one node. The links' power is no part of it (it needs a replay).
// Deltas of a swap or a move are O(deg) from the sparse graph. The energy objective needs its
// EnergyDistance, built once per machine by the mapper (`energy` below; null otherwise).

#include <cstdint>
#include <span>
#include <string_view>

#include "mappers/CommGraph.hpp"
#include "mappers/EnergyDistance.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

enum class Objective : std::uint8_t { HopBytes, Cardinality, Energy };

/// "hop-bytes", "cardinality" or "energy" (the words of the mappers' `objective` parameters).
Objective parse_objective(std::string_view word);

/// |M|, in parallel (deterministic: an integer sum).
std::int64_t cardinality(const CommGraph& graph, const topo::Topology& topology,
                         std::span<const topo::NodeId> node_of_rank);

/// The cost: hop-bytes, -|M| or the traffic energy. The _serial variant runs on the calling thread
/// (for callers that evaluate many mappings in parallel themselves).
std::int64_t objective_cost_serial(Objective objective, const CommGraph& graph,
                                   const topo::Topology& topology,
                                   std::span<const topo::NodeId> node_of_rank,
                                   const EnergyDistance* energy = nullptr);
/// The cost: hop-bytes, -|M| or the traffic energy.
std::int64_t objective_cost(Objective objective, const CommGraph& graph,
                            const topo::Topology& topology,
                            std::span<const topo::NodeId> node_of_rank,
                            const EnergyDistance* energy = nullptr);

/// Change of the cost if ranks i and j exchange nodes. O(deg i + deg j).
std::int64_t swap_cost_delta(Objective objective, const CommGraph& graph,
                             const topo::Topology& topology,
                             std::span<const topo::NodeId> node_of_rank, Rank i, Rank j,
                             const EnergyDistance* energy = nullptr);

/// Change of the cost if rank i moves to node `to`. O(deg i).
std::int64_t move_cost_delta(Objective objective, const CommGraph& graph,
                             const topo::Topology& topology,
                             std::span<const topo::NodeId> node_of_rank, Rank i, topo::NodeId to,
                             const EnergyDistance* energy = nullptr);

}  // namespace mapsim::map
