#pragma once
// Comparing mappers on one workload and machine, statically and dynamically: each mapper's
// mapping is scored by the static metrics (hop-bytes, link loads) and by replaying the trace in
// the network simulator. Spearman's rank correlation between hop-bytes and simulated time over
// the mappers says how far the static metric predicts what the network does — the question the
// simulator exists to answer.
//
//   rho = Pearson correlation of the ranks (ties get their average rank); 1 = same order.

#include <span>
#include <string>
#include <vector>

#include "mappers/Metrics.hpp"
#include "sim/Simulation.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/Trace.hpp"

namespace mapsim::exp {

struct MapperRun {
  std::string mapper;
  topo::Mapping mapping;
  double map_seconds = 0;  ///< wall time of the mapper
  map::metrics::Metrics metrics;
  sim::Result simulation;
};

struct Comparison {
  std::vector<MapperRun> runs;  ///< in the order the mappers were given
  /// Spearman's rho between hop-bytes and simulated makespan over the runs (0 if undefined).
  double rank_correlation = 0;
};

/// Maps `trace`'s point-to-point matrix with every mapper in `mappers` (default parameters, the
/// given seed), evaluates each mapping and replays the trace under it with `config`. Mappers run
/// in parallel; the result does not depend on the thread count. Throws InputError for an unknown
/// mapper or a trace that does not fit the machine.
Comparison compare_mappers(const traces::Trace& trace, const topo::Topology& topology,
                           std::span<const std::string> mappers, std::uint64_t seed,
                           const sim::SimConfig& config);

/// Spearman's rank correlation of two equally long samples; 0 if fewer than two values or if
/// either sample is constant.
double spearman(std::span<const double> a, std::span<const double> b);

}  // namespace mapsim::exp
