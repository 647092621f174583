// The pieces of the search-based mappers: node neighbourhoods, the cardinality, the link-load
// tracker and the local search of `best`.

#include "mappers/LocalSearch.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "mappers/LinkLoadTracker.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/NodeNeighbors.hpp"
#include "mappers/Placement.hpp"
#include "mappers/SearchObjective.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

TEST(NodeNeighbors, AdjacentNodesAreOneHopAway) {
  // Torus 4x4x4: 6 link neighbours. HAEC 3x3x2: 4 on the board's 3x3 torus + the 9 nodes of the
  // other board. Tianhe-3 with 8 nodes per chip: the 3 others on the same side router.
  const std::pair<const char*, std::size_t> cases[] = {
      {"torus:4x4x4", 6}, {"haec:3x3x2", 13}, {"tianhe3:2x2:nodes=8", 3}};
  for (const auto& [spec, count] : cases) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const NodeNeighbors neighbors(*machine, 5);
    for (NodeId n = 0; n < machine->node_count(); ++n) {
      const auto adjacent = neighbors.adjacent(n);
      EXPECT_EQ(adjacent.size(), count);
      std::size_t one_hop = 0;
      for (NodeId m = 0; m < machine->node_count(); ++m)
        one_hop += (m != n && machine->hops(n, m) <= 1) ? 1 : 0;
      EXPECT_EQ(adjacent.size(), one_hop);
      for (const NodeId m : adjacent) EXPECT_LE(machine->hops(n, m), 1);
      const auto near = neighbors.near(n);
      EXPECT_EQ(near.size(), 5U);
      for (std::size_t k = 1; k < near.size(); ++k)
        EXPECT_LE(machine->hops(n, near[k - 1]), machine->hops(n, near[k]));
    }
  }
}

TEST(NodeNeighbors, NearListsGrowLayerByLayer) {
  // A 1-D mesh of 6 nodes: node 0 has one neighbour, so its near list goes on to nodes 2 and 3.
  const auto machine = topo::make_topology("mesh:6");
  const NodeNeighbors neighbors(*machine, 4);
  EXPECT_EQ(std::vector<NodeId>(neighbors.near(0).begin(), neighbors.near(0).end()),
            (std::vector<NodeId>{1, 2, 3, 4}));
  EXPECT_EQ(std::vector<NodeId>(neighbors.near(3).begin(), neighbors.near(3).end()),
            (std::vector<NodeId>{2, 4, 1, 5}));
  // Tianhe-3, 4 nodes per side: beyond the 3 on its side router, the other side of the chip
  // (2 hops) comes before other chips (3 hops and more).
  const auto tianhe = topo::make_topology("tianhe3:2x2:nodes=8");
  const NodeNeighbors far(*tianhe, 8);
  const auto near0 = far.near(0);
  ASSERT_EQ(near0.size(), 8U);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(tianhe->hops(0, near0[k]), 1);
  for (std::size_t k = 3; k < 7; ++k) EXPECT_EQ(tianhe->hops(0, near0[k]), 2);
  EXPECT_EQ(tianhe->hops(0, near0[7]), 3);
}

TEST(Cardinality, HandSolvedRingOnATwoByTwoMesh) {
  // Ring 0-1-2-3-0 in order on mesh 2x2 (node 0 = (0,0), 1 = (1,0), 2 = (0,1), 3 = (1,1)):
  // pairs 0-1 and 2-3 are adjacent, 1-2 and 3-0 diagonal (2 hops): |M| = 2. Exchanging ranks 2
  // and 3 makes all four adjacent: the cost -|M| drops by 2.
  traces::CommMatrixBuilder builder(4);
  for (Rank r = 0; r < 4; ++r) builder.add(r, (r + 1) % 4, 1, 10);
  const CommGraph graph(builder.build());
  const auto machine = topo::make_topology("mesh:2x2");
  const std::vector<NodeId> in_order{0, 1, 2, 3};
  EXPECT_EQ(cardinality(graph, *machine, in_order), 2);
  EXPECT_EQ(swap_cost_delta(Objective::Cardinality, graph, *machine, in_order, 2, 3), -2);
  EXPECT_EQ(cardinality(graph, *machine, std::vector<NodeId>{0, 1, 3, 2}), 4);
  // Moving rank 0 onto node 3 (2 cores would be needed; the delta does not care): its partners
  // 1 (node 1) and 3 (node 3) are then both near it, one more than before.
  EXPECT_EQ(move_cost_delta(Objective::Cardinality, graph, *machine, in_order, 0, 3), -1);
}

TEST(LinkLoadTracker, FollowsRandomExchangesExactly) {
  for (const char* spec : {"torus:4x4x2", "haec:3x3x2", "tianhe3:2x2:nodes=6:cores=2"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const auto matrix = testing::random_matrix(18, 4, 6);
    const CommGraph graph(matrix);
    const auto start = make_mapper("random")->map(matrix, *machine, 1);
    Placement placement(*machine, start.nodes());
    LinkLoadTracker tracker(graph, *machine, placement.nodes());
    const auto weights = link_time_weights(*machine);
    Random random(3);
    std::uint64_t work = 0;
    for (int step = 0; step < 40; ++step) {
      const auto i = static_cast<Rank>(random.below(18));
      const auto s =
          static_cast<Slot>(random.below(static_cast<std::uint64_t>(placement.slot_count())));
      const Slot own = placement.slot(i);
      if (s == own) continue;
      const Rank j = placement.occupant(s);
      const auto after = tracker.evaluate(placement.nodes(), i, placement.node_of_slot(s), j,
                                          placement.node_of_slot(own), work);
      tracker.apply(placement.nodes(), i, placement.node_of_slot(s), j, placement.node_of_slot(own),
                    work);
      placement.exchange(own, s);
      const auto loads = metrics::link_loads(matrix, *machine, placement.mapping());
      // T_l = w_l L_l, with w_l the weight of the link's class.
      Uint128 squares = 0;
      Uint128 smooth = 0;
      std::uint64_t max = 0;
      for (std::size_t l = 0; l < loads.bytes.size(); ++l) {
        const auto link_class = machine->link(static_cast<topo::LinkId>(l)).link_class;
        const std::uint64_t w = weights[static_cast<std::size_t>(link_class)];
        const std::uint64_t time = loads.bytes[l] * w;
        EXPECT_EQ(tracker.weight(static_cast<topo::LinkId>(l)), w);
        EXPECT_EQ(tracker.load(static_cast<topo::LinkId>(l)), time);
        squares += static_cast<Uint128>(time) * time;
        smooth += static_cast<Uint128>(time) * loads.bytes[l];
        max = std::max(max, time);
      }
      EXPECT_EQ(after.max, max);
      EXPECT_EQ(tracker.max_load(), max);
      EXPECT_TRUE(after.sum_of_squares == squares);
      EXPECT_TRUE(tracker.sum_of_squares() == squares);
      EXPECT_TRUE(after.smooth == smooth);
      EXPECT_TRUE(tracker.smooth() == smooth);
    }
    EXPECT_GT(work, 0U);
  }
}

TEST(LocalSearch, NeverWorseThanItsStartAndReportsTheTrueCost) {
  const std::pair<const char*, traces::CommMatrix> cases[] = {
      {"torus:4x4x4", testing::stencil_3d(4, 4, 4, true)},
      {"mesh:5x5:cores=2", testing::random_matrix(45, 3, 1)},
      {"haec:3x3x3", testing::lu_wavefront(5, 5)},
      {"tianhe3:2x2:nodes=8", testing::random_matrix(32, 5, 2)},
  };
  for (const auto& [spec, matrix] : cases) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const CommGraph graph(matrix);
    const SearchSpace space(graph, *machine);
    for (const char* start_name : {"random", "sweep"}) {
      const auto start = make_mapper(start_name)->map(matrix, *machine, 1);
      for (const auto goal : {SearchGoal::HopBytes, SearchGoal::Congestion}) {
        const auto result = local_search(space, start.nodes(), {goal, 20000, 0}, Random(5));
        EXPECT_NO_THROW(validate(topo::Mapping(result.nodes), *machine));
        EXPECT_FALSE(result.start_cost < result.cost);
        EXPECT_EQ(result.start_cost, search_cost(space, goal, start.nodes()));
        EXPECT_EQ(result.cost, search_cost(space, goal, result.nodes));
        EXPECT_GE(result.work, 20000U);  // the budget is spent (it stops just past it)
      }
    }
  }
}

TEST(LocalSearch, ImprovesARandomMapping) {
  // A periodic 8x8 stencil placed at random on an 8x8 torus is far from its optimum (every pair
  // one hop apart, hop-bytes = 256 x 1000); the search must get well below the random start.
  const auto machine = topo::make_topology("torus:8x8");
  const auto matrix = testing::stencil_2d(8, 8, true);
  const CommGraph graph(matrix);
  const SearchSpace space(graph, *machine);
  const auto start = make_mapper("random")->map(matrix, *machine, 1);
  const auto result =
      local_search(space, start.nodes(), {SearchGoal::HopBytes, 2000000, 0}, Random(1));
  EXPECT_LT(result.cost.primary * 2, result.start_cost.primary);
  EXPECT_GE(result.cost.primary, 256000U);
}

TEST(LocalSearch, DenseMatricesOnMeshesAndToriKeepTheCostExact) {
  // Average degree above kDenseDegree: on meshes and tori the search evaluates moves from its
  // per-axis tables and updates them as ranks move (and as rounds are undone); the cost it
  // reports must stay the true hop-bytes of its mapping, and it must improve a random start.
  // With 2 cores per node and 40 % more nodes than needed, moves to idle cores are in play.
  const auto matrix = testing::random_matrix(112, 48, 3);
  const CommGraph graph(matrix);
  ASSERT_GT(2 * graph.edge_count(), kDenseDegree * static_cast<std::size_t>(graph.rank_count()));
  for (const char* spec : {"torus:4x4x7", "mesh:8x14", "torus:5x4x4:cores=2", "mesh:2x10x6"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const SearchSpace space(graph, *machine);
    EXPECT_TRUE(space.dense());
    EXPECT_TRUE(space.separable());
    const auto start = make_mapper("random")->map(matrix, *machine, 1);
    const auto result =
        local_search(space, start.nodes(), {SearchGoal::HopBytes, 3000000, 0}, Random(7));
    EXPECT_NO_THROW(validate(topo::Mapping(result.nodes), *machine));
    EXPECT_EQ(result.start_cost, search_cost(space, SearchGoal::HopBytes, start.nodes()));
    EXPECT_EQ(result.cost, search_cost(space, SearchGoal::HopBytes, result.nodes));
    EXPECT_LT(result.cost, result.start_cost);
    EXPECT_GT(result.rounds, 0U);  // perturbation rounds, some of them undone, were run
    // The same chain again: the same mapping.
    const auto again =
        local_search(space, start.nodes(), {SearchGoal::HopBytes, 3000000, 0}, Random(7));
    EXPECT_EQ(again.nodes, result.nodes);
  }
  // Not separable: the HAEC Box and Tianhe-3 keep the neighbour-term deltas.
  EXPECT_FALSE(SearchSpace(graph, *topo::make_topology("haec:4x4x7")).separable());
  EXPECT_FALSE(SearchSpace(graph, *topo::make_topology("tianhe3:2x2:nodes=28")).separable());
  // A sparse matrix is not dense.
  const CommGraph sparse(testing::stencil_3d(4, 4, 4, true));
  EXPECT_FALSE(SearchSpace(sparse, *topo::make_topology("torus:4x4x4")).dense());
}

}  // namespace
}  // namespace mapsim::map
