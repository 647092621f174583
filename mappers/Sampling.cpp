#include "mappers/Sampling.hpp"

#include <limits>
#include <memory>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_reduce.h>

#include "mappers/Mapper.hpp"
#include "mappers/SearchFactories.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Fills `nodes` with sample k, using `cores` (all cores of the machine, any order on entry).
void draw(const topo::Topology& topology, Seed seed, std::uint64_t k, std::vector<NodeId>& cores,
          std::vector<NodeId>& nodes) {
  const int per_node = topology.cores_per_node();
  for (std::size_t s = 0; s < cores.size(); ++s)
    cores[s] = static_cast<NodeId>(s / static_cast<std::size_t>(per_node));
  auto random = Random::stream(seed, k);
  // The first |P| steps of a Fisher-Yates shuffle: a uniform choice of |P| cores in order.
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    const auto j = r + static_cast<std::size_t>(random.below(cores.size() - r));
    std::swap(cores[r], cores[j]);
    nodes[r] = cores[r];
  }
}

struct Best {
  MappingCost cost{std::numeric_limits<std::int64_t>::max(), 0};
  std::uint64_t k = std::numeric_limits<std::uint64_t>::max();

  [[nodiscard]] bool better_than(const Best& o) const {
    return cost < o.cost || (cost == o.cost && k < o.k);
  }
};

/// The best of `samples` samples under `score` (a MappingCost of a mapping; thread-safe).
template <typename Score>
SamplingResult best_sample(const CommGraph& graph, const topo::Topology& topology,
                           std::uint64_t samples, Seed seed, const Score& score) {
  MAPSIM_EXPECTS(samples >= 1, "sampling without samples");
  const auto slots = static_cast<std::size_t>(topology.node_count()) *
                     static_cast<std::size_t>(topology.cores_per_node());
  struct Scratch {
    std::vector<NodeId> cores;
    std::vector<NodeId> nodes;
  };
  tbb::enumerable_thread_specific<Scratch> scratch([&] {
    return Scratch{std::vector<NodeId>(slots),
                   std::vector<NodeId>(static_cast<std::size_t>(graph.rank_count()))};
  });
  const Best best = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, samples, 16), Best{},
      [&](const tbb::blocked_range<std::uint64_t>& range, Best found) {
        Scratch& s = scratch.local();
        for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
          draw(topology, seed, k, s.cores, s.nodes);
          const Best candidate{score(s.nodes), k};
          if (candidate.better_than(found)) found = candidate;
        }
        return found;
      },
      [](const Best& a, const Best& b) { return a.better_than(b) ? a : b; });
  return {sample_mapping(topology, graph.rank_count(), seed, best.k), best.cost.first, best.k,
          best.cost.second};
}

}  // namespace

std::vector<NodeId> sample_mapping(const topo::Topology& topology, Rank ranks, Seed seed,
                                   std::uint64_t k) {
  std::vector<NodeId> cores(static_cast<std::size_t>(topology.node_count()) *
                            static_cast<std::size_t>(topology.cores_per_node()));
  std::vector<NodeId> nodes(static_cast<std::size_t>(ranks));
  draw(topology, seed, k, cores, nodes);
  return nodes;
}

SamplingResult run_sampling(const CommGraph& graph, const topo::Topology& topology,
                            Objective objective, std::uint64_t samples, Seed seed) {
  const ObjectiveInputs inputs(objective, graph, topology);
  return best_sample(graph, topology, samples, seed, [&](std::span<const NodeId> nodes) {
    return MappingCost{
        objective_cost_serial(objective, inputs.graph(), topology, nodes, inputs.distance()), 0};
  });
}

SamplingResult run_sampling(const CommGraph& graph, const topo::Topology& topology,
                            const MappingScorer& scorer, std::uint64_t samples, Seed seed) {
  return best_sample(graph, topology, samples, seed, scorer);
}

namespace {

constexpr ParamSpec kSamplingParams[] = {
    {"samples", ParamType::Integer, "10000", "random mappings drawn", 1, 1000000000},
    {"objective", ParamType::Choice, "hop-bytes",
     "what the best sample minimises: hop-bytes, the traffic energy (energy), messages x route "
     "latency (latency), the busiest link's time (congestion), the sum of link loads squared "
     "over bandwidths (congestion-smooth), best's hybrid of the three link sums (hybrid), or the "
     "cardinality maximised",
     0, 0, "hop-bytes|cardinality|energy|latency|congestion|congestion-smooth|hybrid"},
};

class Sampling final : public Mapper {
 public:
  explicit Sampling(const ParamValues& params)
      : samples_(static_cast<std::uint64_t>(params.integer("samples"))),
        objective_(params.text("objective")) {}

  [[nodiscard]] bool weighs_link_energy() const override { return objective_ == "energy"; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const MappingScorer scorer(objective_, p.graph, p.topology, reference(objective_, p), p.links);
    return topo::Mapping(run_sampling(p.graph, p.topology, scorer, samples_, p.seed).best);
  }

 private:
  std::uint64_t samples_;
  std::string objective_;
};

}  // namespace

std::span<const ParamSpec> sampling_params() {
  return kSamplingParams;
}
std::unique_ptr<Mapper> make_sampling(const ParamValues& params) {
  return std::make_unique<Sampling>(params);
}

}  // namespace mapsim::map
