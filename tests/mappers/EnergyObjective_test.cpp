// objective=energy (mappers/RouteDistance.hpp, SearchObjective.hpp): the energy per bit of a
// route solved by hand, the cost equal to the traffic energy the metrics report, swap and move
// deltas equal to the change of the cost, and the search mappers choosing, on the HAEC Box,
// other placements than hop-bytes does: fewer joules for more hop-bytes.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/RouteDistance.hpp"
#include "mappers/SearchObjective.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::LinkClass;
using topo::NodeId;

TEST(RouteDistance, RoutesSumTheirLinksEnergyPerBit) {
  // haec:2x2x2: node 1 is node 0's optical neighbour (2 pJ/bit by default), node 5 the next
  // board's node over one wireless link (20 pJ/bit); node 3 = (1, 1, 0) two optical hops; a
  // node to itself is the intra-node copy (20 pJ/bit). In thousandths of a pJ per bit.
  const auto haec = topo::make_topology("haec:2x2x2");
  const RouteDistance e(*haec);
  EXPECT_EQ(e(0, 1), 2000);
  EXPECT_EQ(e(0, 5), 20000);
  EXPECT_EQ(e(0, 3), 4000);
  EXPECT_EQ(e(0, 0), 20000);
  EXPECT_EQ(e(7, 7), 20000);
  // Other energies per bit: the table given.
  const auto links = topo::LinkTable{}.with_energy(LinkClass::HaecWireless, {0.5, 1, 2});
  EXPECT_EQ(RouteDistance(*haec, RouteWeight::Energy, links)(0, 5), 500);
  // A torus of more than kDenseNodes nodes walks the routes: 5 pJ/bit per hop.
  const auto torus = topo::make_topology("torus:33x32");
  ASSERT_GT(torus->node_count(), RouteDistance::kDenseNodes);
  const RouteDistance big(*torus);
  for (const auto& [a, b] : std::vector<std::pair<NodeId, NodeId>>{{0, 1}, {0, 500}, {17, 1000}})
    EXPECT_EQ(big(a, b), 5000 * torus->hops(a, b)) << a << " -> " << b;
  EXPECT_GE(big.bound(), big(17, 1000));
}

TEST(EnergyObjective, CostIsTheTrafficEnergyAndDeltasAreItsChanges) {
  const auto haec = topo::make_topology("haec:2x2x2:cores=2");
  const auto matrix = testing::random_matrix(16, 5, 7);
  const CommGraph graph(matrix);
  const RouteDistance e(*haec);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<NodeId> nodes(16);
    for (Rank r = 0; r < 16; ++r) nodes[static_cast<std::size_t>(r)] = r / 2;
    std::shuffle(nodes.begin(), nodes.end(), rng);
    const auto cost = objective_cost(Objective::Energy, graph, *haec, nodes, &e);
    EXPECT_EQ(objective_cost_serial(Objective::Energy, graph, *haec, nodes, &e), cost);
    // 8 bits x 0.001 pJ = 8e-15 J per unit: the metrics' traffic energy.
    const auto m = metrics::evaluate(matrix, *haec, topo::Mapping(nodes));
    EXPECT_NEAR(m.traffic_energy_joules, 8e-15 * static_cast<double>(cost),
                1e-12 * m.traffic_energy_joules);
    // A swap and a move change the cost by their deltas.
    const Rank i = static_cast<Rank>(rng() % 16);
    const Rank j = static_cast<Rank>(rng() % 16);
    auto swapped = nodes;
    std::swap(swapped[static_cast<std::size_t>(i)], swapped[static_cast<std::size_t>(j)]);
    EXPECT_EQ(swap_cost_delta(Objective::Energy, graph, *haec, nodes, i, j, &e),
              objective_cost(Objective::Energy, graph, *haec, swapped, &e) - cost);
    auto moved = nodes;
    const auto to = static_cast<NodeId>(rng() % 8);
    moved[static_cast<std::size_t>(i)] = to;
    EXPECT_EQ(move_cost_delta(Objective::Energy, graph, *haec, nodes, i, to, &e),
              objective_cost(Objective::Energy, graph, *haec, moved, &e) - cost);
  }
}

TEST(EnergyObjective, SearchMappersTradeHopBytesForJoulesOnTheHaecBox) {
  // A 4 x 4 stencil on haec:2x2x4 (boards of 2 x 2 nodes, 4 boards): hop-bytes likes the one-hop
  // wireless links between boards, which cost ten times an optical hop per bit. Under
  // objective=energy every search mapper spends less traffic energy than under hop-bytes (best no
  // more).
  const auto haec = topo::make_topology("haec:2x2x4");
  const auto matrix = testing::stencil_2d(4, 4, false, 1000);
  for (const auto* name : {"bokhari", "sampling", "genetic", "best"}) {
    const bool best = std::string(name) == "best";
    SCOPED_TRACE(name);
    const auto by = [&](const char* objective) {
      const auto mapping = make_mapper(name, {{"objective", objective}})->map(matrix, *haec, 1);
      return metrics::evaluate(matrix, *haec, mapping);
    };
    const auto hops = by("hop-bytes");
    const auto energy = by("energy");
    if (best) {
      // best's hop-bytes search finds a placement of this stencil that no energy search beats.
      EXPECT_LE(energy.traffic_energy_joules, hops.traffic_energy_joules);
    } else {
      EXPECT_LT(energy.traffic_energy_joules, hops.traffic_energy_joules);
    }
  }
}

TEST(EnergyObjective, BestNeverEndsAboveItsBestStart) {
  // best objective=energy: its starts ranked by the traffic energy, the local search never rises;
  // the result spends no more than the cheapest constructive mapper run alone, and is the same at
  // every thread count (the chains are seeded).
  const auto haec = topo::make_topology("haec:2x2x4");
  const auto matrix = testing::stencil_2d(4, 4, true, 1000);
  const auto best = make_mapper("best", {{"objective", "energy"}})->map(matrix, *haec, 5);
  const auto joules = metrics::evaluate(matrix, *haec, best).traffic_energy_joules;
  for (const auto* start : {"in-order", "greedy", "sweep", "scotch", "hilbert"}) {
    const auto mapping = make_mapper(start)->map(matrix, *haec, 5);
    EXPECT_LE(joules, metrics::evaluate(matrix, *haec, mapping).traffic_energy_joules) << start;
  }
  EXPECT_EQ(make_mapper("best", {{"objective", "energy"}})->map(matrix, *haec, 5), best);
}

TEST(EnergyObjective, WeighsTheLinkEnergyGiven) {
  // haec:2x1x2: boards {0, 1} and {2, 3}; on a board one optical hop (2 pJ/bit by default),
  // between boards one wireless hop (20 pJ/bit by default). Ranks 0-1 and 2-3 exchange 1000
  // bytes each, every mapping has hop-bytes 2000. By default a pair on one board spends
  // 2 x 8000 bits x 2 pJ = 32 nJ, across boards 320 nJ: the energy objective keeps each pair on
  // a board. With the wireless links at 0.5 pJ/bit (the table given) across boards spends 8 nJ:
  // every pair is split over the boards.
  const auto haec = topo::make_topology("haec:2x1x2");
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 1000);
  builder.add(2, 3, 1, 1000);
  const auto matrix = builder.build();
  const auto cheap_wireless = topo::LinkTable{}.with_energy(LinkClass::HaecWireless, {0.5, 0, 1});
  const std::vector<std::pair<const char*, ParamList>> mappers = {
      {"bokhari", {{"objective", "energy"}}},
      {"sampling", {{"objective", "energy"}}},
      {"genetic", {{"objective", "energy"}}},
      {"ohtma", {{"objective", "energy"}}},
      {"best", {{"objective", "energy"}}},
      {"best", {{"objective", "time+energy"}, {"energy-weight", "1"}}},
  };
  const auto board = [](NodeId node) { return node / 2; };
  for (const auto& [name, params] : mappers) {
    SCOPED_TRACE(std::string(name) + " " + params.front().second);
    const auto mapper = make_mapper(name, params);
    EXPECT_TRUE(mapper->weighs_link_energy());
    const auto by_default = mapper->map(matrix, *haec, 1);
    EXPECT_EQ(board(by_default.node(0)), board(by_default.node(1)));
    EXPECT_EQ(board(by_default.node(2)), board(by_default.node(3)));
    const auto cheap = mapper->map(matrix, *haec, 1, nullptr, cheap_wireless);
    EXPECT_NE(board(cheap.node(0)), board(cheap.node(1)));
    EXPECT_NE(board(cheap.node(2)), board(cheap.node(3)));
    EXPECT_NEAR(metrics::evaluate(matrix, *haec, cheap, cheap_wireless).traffic_energy_joules, 8e-9,
                1e-18);
  }
  // The objectives that do not weigh energy say so (their mapping keys ignore the table).
  EXPECT_FALSE(make_mapper("best")->weighs_link_energy());
  EXPECT_FALSE(make_mapper("bokhari", {{"objective", "latency"}})->weighs_link_energy());
  EXPECT_FALSE(make_mapper("greedy")->weighs_link_energy());
}

TEST(EnergyObjective, ACostBeyond64BitsIsRefused) {
  // 2^62 bytes between two ranks: times 20000 thousandths of a pJ, past 2^63.
  const auto haec = topo::make_topology("haec:2x2x2");
  traces::CommMatrixBuilder builder(2);
  builder.add(0, 1, 1, std::uint64_t{1} << 62);
  const CommGraph graph(builder.build());
  EXPECT_THROW(RouteDistance(*haec).check_summable(graph), InputError);
  EXPECT_THROW(
      (void)make_mapper("bokhari", {{"objective", "energy"}})->map(builder.build(), *haec, 1),
      InputError);
}

}  // namespace
}  // namespace mapsim::map
