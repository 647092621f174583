// Every search-based mapper (ohtma, bokhari, genetic, sampling, best, with their objectives):
// valid mappings on every kind of machine, the same for a seed with one and with two threads,
// and never worse in its own objective than the mapping it starts from.

#include <algorithm>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/BestMapper.hpp"
#include "mappers/Genetic.hpp"
#include "mappers/LinkLoadTracker.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/Sampling.hpp"
#include "mappers/SearchObjective.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

struct Instance {
  const char* machine;
  traces::CommMatrix matrix;
};

// FT-like: ranks 4k .. 4k+3 exchange 2000 bytes, ranks with equal r mod 4 exchange 10 (an
// all-to-all of n / 4 ranks).
traces::CommMatrix all_to_all_in_groups(int ranks) {
  traces::CommMatrixBuilder builder(ranks);
  for (int r = 0; r < ranks; ++r) {
    for (int l = 0; l < ranks; ++l) {
      if (l == r) continue;
      if (l / 4 == r / 4) builder.add(r, l, 1, 2000);
      if (l % 4 == r % 4) builder.add(r, l, 1, 10);
    }
  }
  return builder.build();
}

std::vector<Instance> instances() {
  return {
      {"torus:4x4x4", testing::stencil_3d(4, 4, 4, true)},
      {"mesh:8x8", testing::lu_wavefront(8, 8)},
      {"torus:6x6", testing::random_matrix(30, 3, 2)},  // more nodes than ranks
      {"mesh:4x4x3:cores=2", testing::lu_wavefront(8, 12)},
      {"haec:3x3x4", testing::random_matrix(36, 4, 3)},
      {"tianhe3:2x2:nodes=16", testing::stencil_2d(8, 8, true)},
      {"tianhe3:2x2:nodes=8:cores=3", testing::random_matrix(90, 3, 4)},
      // Dense (average degree above 64): best's starts see a skeleton of the matrix.
      {"torus:5x5x4", all_to_all_in_groups(100)},
  };
}

// Each search-based mapper with small budgets, so that the suite stays fast.
std::vector<std::pair<const char*, ParamList>> searchers() {
  return {
      {"ohtma", {}},
      {"bokhari", {{"max-jumps", "3"}}},
      {"bokhari", {{"objective", "hop-bytes"}, {"max-jumps", "2"}}},
      {"genetic", {{"population", "20"}, {"generations", "4"}}},
      {"genetic", {{"objective", "hop-bytes"}, {"population", "20"}, {"generations", "4"}}},
      {"sampling", {{"samples", "200"}}},
      {"best", {{"work", "2000"}}},
      {"best", {{"objective", "congestion"}, {"work", "500"}}},
  };
}

std::string describe(const char* name, const ParamList& params) {
  std::string text = name;
  for (const auto& [key, value] : params) text += " " + key + "=" + value;
  return text;
}

TEST(SearchMappers, ValidAndTheSameWithOneOrTwoThreads) {
  for (const auto& instance : instances()) {
    const auto machine = topo::make_topology(instance.machine);
    for (const auto& [name, params] : searchers()) {
      SCOPED_TRACE(describe(name, params) + " on " + instance.machine);
      const auto mapper = make_mapper(name, params);
      topo::Mapping one;
      topo::Mapping two;
      {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        one = mapper->map(instance.matrix, *machine, 3);
      }
      {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        two = mapper->map(instance.matrix, *machine, 3);
      }
      EXPECT_NO_THROW(validate(one, *machine));
      EXPECT_EQ(one, two);
      EXPECT_EQ(mapper->map(instance.matrix, *machine, 3), one);
    }
  }
}

std::int64_t cost_of(Objective objective, const traces::CommMatrix& matrix,
                     const topo::Topology& machine, const topo::Mapping& mapping) {
  return objective_cost(objective, CommGraph(matrix), machine, mapping.nodes());
}

TEST(SearchMappers, BokhariNeverWorseThanItsSweepStart) {
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const auto sweep = make_mapper("sweep")->map(instance.matrix, *machine, 1);
    for (const auto* objective : {"cardinality", "hop-bytes"}) {
      const auto mapping = make_mapper("bokhari", {{"objective", objective}, {"max-jumps", "3"}})
                               ->map(instance.matrix, *machine, 1);
      const auto goal = parse_objective(objective);
      EXPECT_LE(cost_of(goal, instance.matrix, *machine, mapping),
                cost_of(goal, instance.matrix, *machine, sweep))
          << objective;
    }
  }
}

TEST(SearchMappers, BokhariSameExchangesWithAndWithoutItsTable) {
  // The table keeps whole blocks of near nodes: the boards of the HAEC Box, the side routers of
  // Tianhe-3, the x rings of a 3 x 5 torus (with explicit nodes beside them).
  auto all = instances();
  all.push_back({"haec:4x4x4", testing::all_to_all_groups(64, 8)});
  all.push_back({"haec:4x4x4", all_to_all_in_groups(64)});
  all.push_back({"tianhe3:2x2:nodes=8:cores=2", testing::all_to_all_groups(60, 6)});
  all.push_back({"tianhe3:2x2:nodes=8", all_to_all_in_groups(32)});
  all.push_back({"torus:3x5:cores=2", testing::random_matrix(30, 4, 7)});
  for (const auto& instance : all) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const auto with = make_mapper("bokhari", {{"table", "on"}, {"max-jumps", "4"}})
                          ->map(instance.matrix, *machine, 5);
    const auto without = make_mapper("bokhari", {{"table", "off"}, {"max-jumps", "4"}})
                             ->map(instance.matrix, *machine, 5);
    EXPECT_TRUE(std::ranges::equal(with.nodes(), without.nodes()));
  }
}

TEST(SearchMappers, BokhariFindsThePerfectLuMappingOnTheHaecBox) {
  // The thesis (sec. 4.2): on the 4x4x4 HAEC Box, Bokhari's algorithm maps LU's 8 x 8 grid
  // perfectly, every one of its 112 edges between adjacent nodes (such a mapping exists: two grid
  // rows per board, an 8 x 2 torus inside each 4 x 4 board, boards fully linked).
  const auto machine = topo::make_topology("haec:4x4x4");
  const auto matrix = testing::lu_wavefront(8, 8);
  const auto mapping = make_mapper("bokhari")->map(matrix, *machine, 1);
  EXPECT_EQ(cardinality(CommGraph(matrix), *machine, mapping.nodes()), 112);
}

TEST(SearchMappers, GeneticNeverWorseThanItsInitialPopulation) {
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const CommGraph graph(instance.matrix);
    for (const auto objective : {Objective::Cardinality, Objective::HopBytes}) {
      const GeneticOptions options{objective, 30, 6, 0.5};
      const auto result = run_genetic(graph, *machine, options, 9);
      EXPECT_LE(result.best_cost, result.initial_cost);
      EXPECT_EQ(result.best_cost, objective_cost(objective, graph, *machine, result.best));
      ASSERT_EQ(result.history.size(), 6U);
      for (std::size_t g = 1; g < result.history.size(); ++g)
        EXPECT_LE(result.history[g], result.history[g - 1]);
      // Seeded with the sweep mapping, never worse than sweep.
      const auto sweep = make_mapper("sweep")->map(instance.matrix, *machine, 1);
      const auto seeded = run_genetic(graph, *machine, options, 9, sweep.nodes());
      EXPECT_LE(seeded.best_cost, objective_cost(objective, graph, *machine, sweep.nodes()));
    }
  }
}

TEST(SearchMappers, OrderedCrossoverOnTheThesisExample) {
  // Appendix A.1: donor A = 984|567|1320, receptor B = 871|230|9546 give C = 230|567|9481.
  // B as donor and A as receptor: the section 230 stays; A without 2, 3, 0 read from position
  // 6 on is 1, 9, 8, 4, 5, 6, 7, written from position 6 on: D = 567|230|1984.
  const std::vector<std::int32_t> a{9, 8, 4, 5, 6, 7, 1, 3, 2, 0};
  const std::vector<std::int32_t> b{8, 7, 1, 2, 3, 0, 9, 5, 4, 6};
  EXPECT_EQ(ordered_crossover(a, b, 3, 6),
            (std::vector<std::int32_t>{2, 3, 0, 5, 6, 7, 9, 4, 8, 1}));
  EXPECT_EQ(ordered_crossover(b, a, 3, 6),
            (std::vector<std::int32_t>{5, 6, 7, 2, 3, 0, 1, 9, 8, 4}));
  // The whole string as the section: the donor itself.
  EXPECT_EQ(ordered_crossover(a, b, 0, 10), a);
}

TEST(SearchMappers, SamplingReturnsTheBestSample) {
  const auto machine = topo::make_topology("torus:3x3x2");
  const auto matrix = testing::random_matrix(16, 3, 8);
  const CommGraph graph(matrix);
  const auto result = run_sampling(graph, *machine, Objective::HopBytes, 64, 5);
  std::int64_t best = 0;
  std::uint64_t best_k = 0;
  for (std::uint64_t k = 0; k < 64; ++k) {
    const auto sample = sample_mapping(*machine, 16, 5, k);
    EXPECT_NO_THROW(validate(topo::Mapping(sample), *machine));
    const auto cost = objective_cost(Objective::HopBytes, graph, *machine, sample);
    if (k == 0 || cost < best) {
      best = cost;
      best_k = k;
    }
  }
  EXPECT_EQ(result.best_cost, best);
  EXPECT_EQ(result.best_sample, best_k);
  EXPECT_EQ(result.best, sample_mapping(*machine, 16, 5, best_k));
}

// The starts best also runs on the whole of a dense matrix (BestMapper.cpp).
const std::pair<const char*, ParamList> kWholeStarts[] = {
    {"greedy", {}}, {"bisection", {}}, {"bisection", {{"orient", "none"}}}, {"minmd", {}}};

TEST(SearchMappers, BestAtLeastAsGoodAsEveryStartAndConstructiveMapper) {
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const auto result = run_best(instance.matrix, *machine, {SearchGoal::HopBytes, 3, 3000, 0}, 2);
    const auto hop_bytes =
        metrics::hop_bytes(instance.matrix, *machine, topo::Mapping(result.nodes));
    EXPECT_EQ(result.cost.primary, hop_bytes);
    ASSERT_FALSE(result.starts.empty());
    for (const auto& start : result.starts) {
      EXPECT_LE(hop_bytes, start.cost.primary) << start.name;
    }
    // Independently of the starts list: every mapper that is not search-based, run on the same
    // matrix (on a dense matrix best's starts see a skeleton of it, so this is not by
    // construction there).
    const CommGraph graph(instance.matrix);
    if (2 * graph.edge_count() > kDenseDegree * static_cast<std::size_t>(graph.rank_count())) {
      // Dense: the fast constructive mappers also start from the whole matrix.
      for (const auto& [name, params] : kWholeStarts) {
        const auto other = make_mapper(name, params)->map(instance.matrix, *machine, 2);
        EXPECT_LE(hop_bytes, metrics::hop_bytes(instance.matrix, *machine, other)) << name;
      }
      continue;
    }
    for (const auto& info : mapper_infos()) {
      if (info.replays) continue;  // needs a trace: ReplaySearch_test.cpp
      const std::string name(info.name);
      if (name == "ohtma" || name == "bokhari" || name == "genetic" || name == "sampling" ||
          name == "best")
        continue;
      const auto other = make_mapper(name)->map(instance.matrix, *machine, 2);
      EXPECT_LE(hop_bytes, metrics::hop_bytes(instance.matrix, *machine, other)) << name;
    }
  }
}

TEST(SearchMappers, BestOnADenseMatrixStartsFromTheFastMappersOnTheWholeMatrix) {
  // FT's 2-D transposes: heavy all-to-alls in groups of 4 consecutive ranks, light ones among
  // the 128 ranks equal modulo 4 (degree 130: best's starts see a skeleton; the fast mappers
  // must also be tried on the whole matrix).
  traces::CommMatrixBuilder builder(512);
  for (Rank i = 0; i < 512; ++i) {
    for (Rank j = 0; j < 512; ++j) {
      if (i != j && i / 4 == j / 4) builder.add(i, j, 1, 32768);
      if (i != j && i % 4 == j % 4) builder.add(i, j, 1, 768);
    }
  }
  const auto matrix = builder.build();
  for (const char* spec : {"haec:8x8x8", "torus:8x8x8", "tianhe3:2x2:nodes=32:cores=4"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const auto result = run_best(matrix, *machine, {SearchGoal::HopBytes, 2, 200, 0}, 2);
    const auto hop_bytes = metrics::hop_bytes(matrix, *machine, topo::Mapping(result.nodes));
    for (const auto& [name, params] : kWholeStarts) {
      const auto other = make_mapper(name, params)->map(matrix, *machine, 2);
      EXPECT_LE(hop_bytes, metrics::hop_bytes(matrix, *machine, other)) << name;
      // It is one of the starts (under its own name, or another's with the same mapping).
      EXPECT_TRUE(std::ranges::any_of(result.starts, [&](const BestStart& start) {
        return std::ranges::equal(start.nodes, other.nodes());
      })) << name;
    }
    // Bhatele's irregular heuristics are left out on a dense matrix.
    for (const auto& start : result.starts) {
      EXPECT_NE(start.name, "mht");
      EXPECT_NE(start.name, "coce-mht");
    }
  }
}

TEST(SearchMappers, BestUnderCongestionNeverWorseThanItsStarts) {
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const auto result =
        run_best(instance.matrix, *machine, {SearchGoal::Congestion, 2, 1000, 0}, 4);
    const auto loads = metrics::link_loads(instance.matrix, *machine, topo::Mapping(result.nodes));
    // The busiest link's time: bytes times the weight of the link's class.
    const auto weights = link_time_weights(*machine);
    std::uint64_t max = 0;
    for (std::size_t l = 0; l < loads.bytes.size(); ++l) {
      const auto link_class = machine->link(static_cast<topo::LinkId>(l)).link_class;
      max = std::max(max, loads.bytes[l] * weights[static_cast<std::size_t>(link_class)]);
    }
    EXPECT_EQ(result.cost.primary, max);
    for (const auto& start : result.starts) EXPECT_FALSE(start.cost < result.cost) << start.name;
  }
}

TEST(SearchMappers, RejectBadParameters) {
  EXPECT_THROW((void)make_mapper("bokhari", {{"objective", "dilation"}}), InputError);
  EXPECT_THROW((void)make_mapper("bokhari", {{"table", "yes"}}), InputError);
  EXPECT_THROW((void)make_mapper("genetic", {{"population", "1"}}), InputError);
  EXPECT_THROW((void)make_mapper("genetic", {{"mutation", "1.5"}}), InputError);
  EXPECT_THROW((void)make_mapper("sampling", {{"samples", "0"}}), InputError);
  EXPECT_THROW((void)make_mapper("best", {{"chains", "0"}}), InputError);
  EXPECT_THROW((void)make_mapper("best", {{"objective", "cardinality"}}), InputError);
  EXPECT_THROW((void)make_mapper("best", {{"work", "-5"}}), InputError);
}

}  // namespace
}  // namespace mapsim::map
