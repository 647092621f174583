#pragma once
// sampling — the HAEC thesis's baseline (sec. 4.1): the best of N uniformly random mappings
// (N = 10 000 by default). Sample k places the ranks on the first |P| cores of a Fisher-Yates
// shuffle of all cores drawn from its own random stream (seed, k); samples are drawn and scored
// in parallel (oneTBB) and the best is the one of least cost, ties to the lowest k, so the
// result does not depend on the thread count. Cost: hop-bytes by default, or -|M| with
// objective=cardinality, the traffic energy with objective=energy, messages x route latency with
// objective=latency (SearchObjective.hpp), or best's link objectives congestion,
// congestion-smooth and hybrid (MappingScore.hpp), compared as pairs.

#include <cstdint>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/MappingScore.hpp"
#include "mappers/Random.hpp"
#include "mappers/SearchObjective.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

/// Sample k: node of every rank.
std::vector<topo::NodeId> sample_mapping(const topo::Topology& topology, Rank ranks, Seed seed,
                                         std::uint64_t k);

struct SamplingResult {
  std::vector<topo::NodeId> best;
  std::int64_t best_cost = 0;     ///< its cost (MappingCost::first)
  std::uint64_t best_sample = 0;  ///< k of the best sample
  Uint128 best_second = 0;        ///< MappingCost::second (the link objectives)
};

/// Precondition: samples >= 1.
SamplingResult run_sampling(const CommGraph& graph, const topo::Topology& topology,
                            Objective objective, std::uint64_t samples, Seed seed);
/// The same under any objective word of MappingScore.hpp.
SamplingResult run_sampling(const CommGraph& graph, const topo::Topology& topology,
                            const MappingScorer& scorer, std::uint64_t samples, Seed seed);

}  // namespace mapsim::map
