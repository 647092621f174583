#include "mappers/Genetic.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "mappers/MachineView.hpp"
#include "mappers/SearchFactories.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;
using Chromosome = std::vector<std::int32_t>;

// OX into `child`, with `mark` (all zero on entry and on return) flagging the section's values.
void crossover_into(std::span<const std::int32_t> donor, std::span<const std::int32_t> receptor,
                    std::size_t begin, std::size_t end, Chromosome& child,
                    std::vector<char>& mark) {
  const std::size_t size = donor.size();
  child.resize(size);
  for (std::size_t k = begin; k < end; ++k) {
    child[k] = donor[k];
    mark[static_cast<std::size_t>(donor[k])] = 1;
  }
  std::size_t write = end % size;
  for (std::size_t step = 0; step < size; ++step) {
    const std::int32_t value = receptor[(end + step) % size];
    if (mark[static_cast<std::size_t>(value)]) continue;
    child[write] = value;
    write = (write + 1) % size;
  }
  for (std::size_t k = begin; k < end; ++k) mark[static_cast<std::size_t>(donor[k])] = 0;
}

}  // namespace

std::vector<std::int32_t> ordered_crossover(std::span<const std::int32_t> donor,
                                            std::span<const std::int32_t> receptor,
                                            std::size_t begin, std::size_t end) {
  MAPSIM_EXPECTS(donor.size() == receptor.size() && begin < end && end <= donor.size(),
                 "ordered crossover with a bad section");
  Chromosome child;
  std::vector<char> mark(donor.size(), 0);
  crossover_into(donor, receptor, begin, end, child, mark);
  return child;
}

namespace {

/// The algorithm under `score` (a MappingCost of a mapping; thread-safe) and `fitness` (of a
/// MappingCost: bigger is fitter).
template <typename Score, typename Fitness>
GeneticResult breed(const CommGraph& graph, const topo::Topology& topology,
                    const GeneticOptions& options, Seed seed, std::span<const NodeId> first,
                    const Score& score, const Fitness& fitness) {
  const Rank n = graph.rank_count();
  const int cores = topology.cores_per_node();
  const std::size_t slots =
      static_cast<std::size_t>(topology.node_count()) * static_cast<std::size_t>(cores);
  const auto size = static_cast<std::size_t>(options.population);
  MAPSIM_EXPECTS(size >= 1 && slots >= static_cast<std::size_t>(n), "genetic: bad sizes");

  struct Scratch {
    std::vector<NodeId> nodes;
    std::vector<char> mark;
  };
  tbb::enumerable_thread_specific<Scratch> scratch([&] {
    return Scratch{std::vector<NodeId>(static_cast<std::size_t>(n)), std::vector<char>(slots, 0)};
  });
  auto evaluate = [&](const Chromosome& c, Scratch& s) {
    for (Rank r = 0; r < n; ++r)
      s.nodes[static_cast<std::size_t>(r)] = c[static_cast<std::size_t>(r)] / cores;
    return score(std::span<const NodeId>(s.nodes));
  };
  // Stream of individual k of generation g (g = 0: the initial population).
  auto stream = [&](std::uint64_t g, std::uint64_t k) {
    return Random::stream(seed, g * 65536 + k);
  };

  std::vector<Chromosome> population(size);
  std::vector<MappingCost> cost(size);
  tbb::parallel_for(std::size_t{0}, size, [&](std::size_t k) {
    auto& c = population[k];
    c.resize(slots);
    if (k == 0 && !first.empty()) {
      // The given mapping: each rank on the lowest free core of its node, idle cores after.
      std::vector<int> used(static_cast<std::size_t>(topology.node_count()), 0);
      std::vector<char> taken(slots, 0);
      for (Rank r = 0; r < n; ++r) {
        const NodeId node = first[static_cast<std::size_t>(r)];
        const auto slot =
            static_cast<std::int32_t>(node * cores + used[static_cast<std::size_t>(node)]++);
        c[static_cast<std::size_t>(r)] = slot;
        taken[static_cast<std::size_t>(slot)] = 1;
      }
      std::size_t at = static_cast<std::size_t>(n);
      for (std::size_t s = 0; s < slots; ++s) {
        if (!taken[s]) c[at++] = static_cast<std::int32_t>(s);
      }
    } else {
      for (std::size_t s = 0; s < slots; ++s) c[s] = static_cast<std::int32_t>(s);
      auto random = stream(0, k);
      random.shuffle(std::span<std::int32_t>(c));
    }
    cost[k] = evaluate(c, scratch.local());
  });

  GeneticResult result;
  std::size_t best_at = 0;
  for (std::size_t k = 1; k < size; ++k) {
    if (cost[k] < cost[best_at]) best_at = k;
  }
  Chromosome best = population[best_at];
  MappingCost best_cost = cost[best_at];
  result.initial_cost = best_cost.first;

  std::vector<Chromosome> next(size);
  std::vector<MappingCost> next_cost(size);
  std::vector<double> wheel(size);
  for (int g = 1; g <= options.generations; ++g) {
    // Roulette wheel: cumulative fitness in population order.
    double total = 0;
    for (std::size_t k = 0; k < size; ++k) {
      total += fitness(cost[k]);
      wheel[k] = total;
    }
    auto select = [&](Random& random) -> const Chromosome& {
      if (total <= 0) return population[random.below(size)];
      const double spin = random.uniform() * total;
      const auto at = static_cast<std::size_t>(std::upper_bound(wheel.begin(), wheel.end(), spin) -
                                               wheel.begin());
      return population[std::min(at, size - 1)];
    };
    tbb::parallel_for(std::size_t{0}, (size + 1) / 2, [&](std::size_t pair) {
      auto random = stream(static_cast<std::uint64_t>(g), pair);
      const Chromosome& a = select(random);
      const Chromosome& b = select(random);
      const auto begin = static_cast<std::size_t>(random.below(slots));
      const auto end = begin + 1 + static_cast<std::size_t>(random.below(slots - begin));
      Scratch& s = scratch.local();
      for (std::size_t child = 0; child < 2 && 2 * pair + child < size; ++child) {
        Chromosome& c = next[2 * pair + child];
        crossover_into(child == 0 ? a : b, child == 0 ? b : a, begin, end, c, s.mark);
        if (random.uniform() < options.mutation) {
          // Swap mutation of a process's gene with any other gene.
          const auto i = static_cast<std::size_t>(random.below(static_cast<std::uint64_t>(n)));
          const auto j = static_cast<std::size_t>(random.below(slots));
          std::swap(c[i], c[j]);
        }
        next_cost[2 * pair + child] = evaluate(c, s);
      }
    });
    std::swap(population, next);
    std::swap(cost, next_cost);
    for (std::size_t k = 0; k < size; ++k) {
      if (cost[k] < best_cost) {
        best_cost = cost[k];
        best = population[k];
      }
    }
    result.history.push_back(best_cost.first);
  }
  result.best_cost = best_cost.first;
  result.best_second = best_cost.second;
  result.best.resize(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r)
    result.best[static_cast<std::size_t>(r)] = best[static_cast<std::size_t>(r)] / cores;
  return result;
}

}  // namespace

GeneticResult run_genetic(const CommGraph& graph, const topo::Topology& topology,
                          const GeneticOptions& options, Seed seed, std::span<const NodeId> first) {
  const ObjectiveInputs inputs(options.objective, graph, topology);
  const bool cardinality = options.objective == Objective::Cardinality;
  return breed(
      graph, topology, options, seed, first,
      [&](std::span<const NodeId> nodes) {
        return MappingCost{objective_cost_serial(options.objective, inputs.graph(), topology, nodes,
                                                 inputs.distance()),
                           0};
      },
      [cardinality](const MappingCost& c) {
        return cardinality ? static_cast<double>(-c.first)
                           : 1.0 / (static_cast<double>(c.first) + 1.0);
      });
}

GeneticResult run_genetic(const CommGraph& graph, const topo::Topology& topology,
                          const GeneticOptions& options, const MappingScorer& scorer, Seed seed,
                          std::span<const NodeId> first) {
  return breed(graph, topology, options, seed, first, scorer,
               [&scorer](const MappingCost& c) { return scorer.fitness(c); });
}

namespace {

constexpr ParamSpec kGeneticParams[] = {
    {"objective", ParamType::Choice, "cardinality",
     "fitness: Bokhari's cardinality (as in the thesis), 1 / (hop-bytes + 1), 1 / (traffic "
     "energy + 1), 1 / (messages x route latency + 1), or 1 / (c + 1) of best's link "
     "objectives: the busiest link's time (congestion), the sum of link loads squared over "
     "bandwidths (congestion-smooth) or their hybrid (hybrid)",
     0, 0, "cardinality|hop-bytes|energy|latency|congestion|congestion-smooth|hybrid"},
    {"population", ParamType::Integer, "100", "chromosomes per generation", 2, 65536},
    {"generations", ParamType::Integer, "10", "generations bred after the initial one", 0, 1000000},
    {"mutation", ParamType::Real, "0.5", "probability that a child gets one swap mutation", 0, 1},
    {"initial", ParamType::Choice, "random",
     "initial population: all random (thesis), or the sweep mapping (in-order on a machine "
     "without a grid) and random ones",
     0, 0, "random|sweep"},
};

class Genetic final : public Mapper {
 public:
  explicit Genetic(const ParamValues& params)
      : options_{MappingScorer::links(params.text("objective"))
                     ? Objective::HopBytes
                     : parse_objective(params.text("objective")),
                 static_cast<int>(params.integer("population")),
                 static_cast<int>(params.integer("generations")), params.real("mutation")},
        objective_(params.text("objective")),
        with_sweep_(params.text("initial") == "sweep") {}

  [[nodiscard]] bool weighs_link_energy() const override { return objective_ == "energy"; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    topo::Mapping first;
    if (with_sweep_) first = sweep_or_in_order(p.matrix, p.topology, p.seed);
    const MappingScorer scorer(objective_, p.graph, p.topology, reference(objective_, p), p.links);
    return topo::Mapping(
        run_genetic(p.graph, p.topology, options_, scorer, p.seed, first.nodes()).best);
  }

 private:
  GeneticOptions options_;
  std::string objective_;
  bool with_sweep_;
};

}  // namespace

std::span<const ParamSpec> genetic_params() {
  return kGeneticParams;
}
std::unique_ptr<Mapper> make_genetic(const ParamValues& params) {
  return std::make_unique<Genetic>(params);
}

}  // namespace mapsim::map
