#include "mappers/SearchObjective.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "mappers/Metrics.hpp"
#include "support/Error.hpp"

namespace mapsim::map {

using topo::NodeId;

namespace {

bool by_distance(Objective objective) {
  return objective == Objective::Energy || objective == Objective::Latency;
}

}  // namespace

ObjectiveInputs::ObjectiveInputs(Objective objective, const CommGraph& graph,
                                 const topo::Topology& topology, const topo::LinkTable& links)
    : graph_(&graph) {
  if (objective == Objective::Latency) {
    messages_ = std::make_unique<const CommGraph>(graph.by_messages());
    graph_ = messages_.get();
  }
  if (by_distance(objective)) {
    // The energy per bit in effect; the latency objective keeps the default latencies.
    distance_ = objective == Objective::Energy
                    ? std::make_unique<const RouteDistance>(topology, RouteWeight::Energy, links)
                    : std::make_unique<const RouteDistance>(topology, RouteWeight::Latency);
    distance_->check_summable(*graph_);
  }
}

Objective parse_objective(std::string_view word) {
  if (word == "hop-bytes") return Objective::HopBytes;
  if (word == "energy") return Objective::Energy;
  if (word == "latency") return Objective::Latency;
  MAPSIM_EXPECTS(word == "cardinality", "an objective parameter with an unknown word");
  return Objective::Cardinality;
}

namespace {

std::int64_t near(const topo::Topology& topology, NodeId a, NodeId b) {
  return topology.hops(a, b) <= 1 ? 1 : 0;
}

}  // namespace

std::int64_t cardinality(const CommGraph& graph, const topo::Topology& topology,
                         std::span<const NodeId> node_of_rank) {
  return tbb::parallel_reduce(
      tbb::blocked_range<Rank>(0, graph.rank_count(), 256), std::int64_t{0},
      [&](const tbb::blocked_range<Rank>& ranks, std::int64_t sum) {
        for (Rank u = ranks.begin(); u != ranks.end(); ++u) {
          const NodeId a = node_of_rank[static_cast<std::size_t>(u)];
          for (const auto& nb : graph.neighbors(u)) {
            if (nb.rank > u)
              sum += near(topology, a, node_of_rank[static_cast<std::size_t>(nb.rank)]);
          }
        }
        return sum;
      },
      std::plus<>());
}

namespace {

const RouteDistance& distance_of(const RouteDistance* distance) {
  MAPSIM_EXPECTS(distance != nullptr, "a distance objective with its RouteDistance");
  return *distance;
}

std::int64_t distance_cost(const CommGraph& graph, std::span<const NodeId> node_of_rank,
                           const RouteDistance& e) {
  std::int64_t sum = 0;
  for (Rank u = 0; u < graph.rank_count(); ++u) {
    const NodeId a = node_of_rank[static_cast<std::size_t>(u)];
    for (const auto& nb : graph.neighbors(u)) {
      if (nb.bytes_out == 0) continue;
      sum += static_cast<std::int64_t>(nb.bytes_out) *
             e(a, node_of_rank[static_cast<std::size_t>(nb.rank)]);
    }
  }
  return sum;
}

}  // namespace

std::int64_t objective_cost_serial(Objective objective, const CommGraph& graph,
                                   const topo::Topology& topology,
                                   std::span<const NodeId> node_of_rank,
                                   const RouteDistance* distance) {
  if (by_distance(objective)) return distance_cost(graph, node_of_rank, distance_of(distance));
  std::int64_t sum = 0;
  for (Rank u = 0; u < graph.rank_count(); ++u) {
    const NodeId a = node_of_rank[static_cast<std::size_t>(u)];
    for (const auto& nb : graph.neighbors(u)) {
      const NodeId b = node_of_rank[static_cast<std::size_t>(nb.rank)];
      if (objective == Objective::HopBytes) {
        if (a != b) sum += static_cast<std::int64_t>(nb.bytes_out) * topology.hops(a, b);
      } else if (nb.rank > u) {
        sum -= near(topology, a, b);
      }
    }
  }
  return sum;
}

std::int64_t objective_cost(Objective objective, const CommGraph& graph,
                            const topo::Topology& topology, std::span<const NodeId> node_of_rank,
                            const RouteDistance* distance) {
  if (by_distance(objective)) return distance_cost(graph, node_of_rank, distance_of(distance));
  if (objective == Objective::HopBytes)
    return static_cast<std::int64_t>(metrics::hop_bytes(graph, topology, node_of_rank));
  return -cardinality(graph, topology, node_of_rank);
}

std::int64_t swap_cost_delta(Objective objective, const CommGraph& graph,
                             const topo::Topology& topology, std::span<const NodeId> node_of_rank,
                             Rank i, Rank j, const RouteDistance* distance) {
  if (by_distance(objective))
    return metrics::swap_delta_by(graph, distance_of(distance), node_of_rank, i, j);
  if (objective == Objective::HopBytes)
    return metrics::swap_delta(graph, topology, node_of_rank, i, j);
  const NodeId fi = node_of_rank[static_cast<std::size_t>(i)];
  const NodeId fj = node_of_rank[static_cast<std::size_t>(j)];
  if (fi == fj) return 0;
  std::int64_t gained = 0;
  // The pair (i, j) itself keeps its distance; every other pair of i or j may change.
  auto side = [&](Rank r, Rank other, NodeId from, NodeId to) {
    for (const auto& nb : graph.neighbors(r)) {
      if (nb.rank == other) continue;
      const NodeId fl = node_of_rank[static_cast<std::size_t>(nb.rank)];
      gained += near(topology, to, fl) - near(topology, from, fl);
    }
  };
  side(i, j, fi, fj);
  side(j, i, fj, fi);
  return -gained;
}

std::int64_t move_cost_delta(Objective objective, const CommGraph& graph,
                             const topo::Topology& topology, std::span<const NodeId> node_of_rank,
                             Rank i, NodeId to, const RouteDistance* distance) {
  if (by_distance(objective))
    return metrics::move_delta_by(graph, distance_of(distance), node_of_rank, i, to);
  if (objective == Objective::HopBytes)
    return metrics::move_delta(graph, topology, node_of_rank, i, to);
  const NodeId from = node_of_rank[static_cast<std::size_t>(i)];
  if (from == to) return 0;
  std::int64_t gained = 0;
  for (const auto& nb : graph.neighbors(i)) {
    const NodeId fl = node_of_rank[static_cast<std::size_t>(nb.rank)];
    gained += near(topology, to, fl) - near(topology, from, fl);
  }
  return -gained;
}

}  // namespace mapsim::map
