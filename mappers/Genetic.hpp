#pragma once
// genetic — the HAEC thesis's genetic algorithm (sec. 3.4, Algorithm 3, appendix A.1):
//
//   initialize population (random)
//   for each generation: while |generation| < size: select two parents by roulette wheel
//     (fitness-proportionate), ordered crossover (OX) both ways, swap mutation, evaluate the
//     offspring, add them to the generation
//
// A chromosome is a permutation of the machine's cores (slots, Placement.hpp): rank r sits on
// core chromosome[r], the cores after position |P| are idle. OX keeps a random matching section
// [a, b) of the donor and fills the other positions, from b onwards cyclically, with the
// receptor's values read cyclically from b, skipping those of the section (appendix A.1: donor
// 984|567|1320, receptor 871|230|9546 -> 230|567|9481). Any OX child is a permutation, so the
// thesis's penalty for idle processors is never needed. Mutation exchanges two random genes.
//
// Fitness: the cardinality |M| (as in the thesis; if every |M| is 0 the wheel is uniform), or
// 1 / (hop-bytes + 1) with objective=hop-bytes (likewise energy and latency), or 1 / (c + 1) of
// best's link objectives congestion, congestion-smooth and hybrid (MappingScore.hpp; the best
// chromosome is the least by the whole pair). Population 100 and 10
// generations by default, as in the thesis. Generations replace each other whole (Algorithm 3 keeps
// no elite); the best chromosome ever evaluated is returned, so the result is never worse than the
// best of the initial population. The thesis does not give a mutation rate: each child is mutated
// with probability `mutation` (0.5 by default, our choice).
//
// Parallel: the offspring pairs of a generation are bred and evaluated in parallel (oneTBB);
// pair k of generation g draws from its own random stream (seed, g, k), so the result does not
// depend on the thread count.

#include <cstdint>
#include <span>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/MappingScore.hpp"
#include "mappers/Random.hpp"
#include "mappers/SearchObjective.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

/// The OX child of `donor` and `receptor` (permutations of the same values 0 .. size - 1) with
/// matching section [begin, end). Preconditions: begin < end <= size.
std::vector<std::int32_t> ordered_crossover(std::span<const std::int32_t> donor,
                                            std::span<const std::int32_t> receptor,
                                            std::size_t begin, std::size_t end);

struct GeneticOptions {
  Objective objective = Objective::Cardinality;
  int population = 100;
  int generations = 10;
  double mutation = 0.5;
};

struct GeneticResult {
  std::vector<topo::NodeId> best;  ///< node of every rank of the best chromosome
  std::int64_t best_cost = 0;  ///< its cost (SearchObjective.hpp: -|M|, hop-bytes, energy, latency)
  std::int64_t initial_cost = 0;      ///< the best cost of the initial population
  std::vector<std::int64_t> history;  ///< best cost so far after each generation
  Uint128 best_second = 0;            ///< the link objectives' second sum (MappingScore.hpp)
};

/// Runs the algorithm. If `first` is not empty it is the first chromosome of the initial
/// population (the others are random); it must be a valid mapping.
GeneticResult run_genetic(const CommGraph& graph, const topo::Topology& topology,
                          const GeneticOptions& options, Seed seed,
                          std::span<const topo::NodeId> first = {});
/// The same under any objective word of MappingScore.hpp (options.objective unused); the costs
/// in the result are MappingCost::first.
GeneticResult run_genetic(const CommGraph& graph, const topo::Topology& topology,
                          const GeneticOptions& options, const MappingScorer& scorer, Seed seed,
                          std::span<const topo::NodeId> first = {});

}  // namespace mapsim::map
