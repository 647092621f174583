// The latency and time-congestion objectives (RouteDistance.hpp, SearchObjective.hpp,
// LinkLoadTracker.hpp, LocalSearch.hpp): route latencies from the default link table,
// CommGraph::by_messages, the latency cost against its definition, and tiny instances solved by
// hand and by brute force over every placement (a chain of small messages, two heavy pairs on
// one link, a wireless byte worth two optical ones, a busiest-link tie broken by the smooth sum),
// each reached by `best`; bokhari, genetic and sampling under latency; thread independence; the
// inputs refused because their sums would pass 64 bits; and the hybrid objective: its cost and
// reference sums against their definitions, kept exact by the local search and `best`, and a HAEC
// Box case solved by hand and by brute force where it leaves the hop-bytes optimum; and
// time+energy: its cost and reference energy against their definitions, kept exact by the local
// search and `best`, a HAEC Box case solved by hand and by brute force whose optimum is neither
// hybrid's, energy's nor hop-bytes', and a dragonfly move that only the energy term sees.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/BestMapper.hpp"
#include "mappers/CommGraph.hpp"
#include "mappers/Genetic.hpp"
#include "mappers/LinkLoadTracker.hpp"
#include "mappers/LocalSearch.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingScore.hpp"
#include "mappers/RouteDistance.hpp"
#include "mappers/Sampling.hpp"
#include "mappers/SearchFactories.hpp"
#include "mappers/SearchObjective.hpp"
#include "support/Error.hpp"
#include "tests/mappers/SameOnThreads.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::LinkClass;
using topo::LinkId;
using topo::NodeId;

constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

/// A class's default latency in ps.
const auto ps = [](LinkClass c) { return std::llround(topo::LinkTable{}[c].latency * 1e12); };

/// d_latency by its definition: the route's links' latencies; the intra-node channel's on a node.
std::int64_t route_latency(const topo::Topology& t, NodeId a, NodeId b) {
  if (a == b) return ps(LinkClass::IntraNode);
  std::int64_t sum = 0;
  for (const LinkId l : t.route(a, b)) sum += ps(t.link(l).link_class);
  return sum;
}

/// Calls f(src, dst, traffic) for every entry between distinct ranks.
void for_each_pair(const traces::CommMatrix& m,
                   const std::function<void(Rank, Rank, traces::Traffic)>& f) {
  for (Rank s = 0; s < m.rank_count(); ++s)
    for (std::size_t k = 0; k < m.destinations(s).size(); ++k)
      if (m.destinations(s)[k] != s) f(s, m.destinations(s)[k], m.traffic(s)[k]);
}

/// Sum over pairs of messages x d_latency, or (hop_bytes) of bytes x hops.
std::int64_t latency_sum(const traces::CommMatrix& m, const topo::Topology& t,
                         std::span<const NodeId> f, bool hop_bytes = false) {
  std::int64_t sum = 0;
  for_each_pair(m, [&](Rank s, Rank d, traces::Traffic x) {
    sum += hop_bytes ? static_cast<std::int64_t>(x.bytes) * t.hops(f[s], f[d])
                     : static_cast<std::int64_t>(x.messages) * route_latency(t, f[s], f[d]);
  });
  return sum;
}

/// (max_l T_l, sum T_l^2, sum T_l L_l) with T_l = w(class of l) L_l, L_l the bytes routed over l.
struct Congestion {
  std::uint64_t max = 0;
  std::uint64_t squares = 0;
  std::uint64_t smooth = 0;
  [[nodiscard]] std::pair<std::uint64_t, std::uint64_t> key() const { return {max, squares}; }
  bool operator<(const Congestion& o) const { return key() < o.key(); }
  bool operator==(const Congestion&) const = default;
};

Congestion congestion(const traces::CommMatrix& m, const topo::Topology& t,
                      std::span<const NodeId> f, const std::function<std::uint64_t(LinkClass)>& w) {
  std::vector<std::uint64_t> bytes(static_cast<std::size_t>(t.link_count()), 0);
  for_each_pair(m, [&](Rank s, Rank d, traces::Traffic x) {
    if (f[s] != f[d])
      for (const LinkId l : t.route(f[s], f[d])) bytes[static_cast<std::size_t>(l)] += x.bytes;
  });
  Congestion c;
  for (LinkId l = 0; l < t.link_count(); ++l) {
    const auto load = bytes[static_cast<std::size_t>(l)];
    const auto time = w(t.link(l).link_class) * load;
    c.max = std::max(c.max, time);
    c.squares += time * time;
    c.smooth += time * load;
  }
  return c;
}

/// w = 1: congestion in bytes.
constexpr auto kBytes = [](LinkClass) -> std::uint64_t { return 1; };

std::uint64_t narrow(Uint128 v) {
  EXPECT_EQ(static_cast<std::uint64_t>(v >> 64), 0U);
  return static_cast<std::uint64_t>(v);
}

Congestion tracked(const LinkLoadTracker& t) {
  return {t.max_load(), narrow(t.sum_of_squares()), narrow(t.smooth())};
}

/// Every placement of `ranks` ranks on distinct nodes of `nodes`.
void for_each_placement(int ranks, NodeId nodes,
                        const std::function<void(std::span<const NodeId>)>& f) {
  std::vector<NodeId> order(static_cast<std::size_t>(nodes));
  std::iota(order.begin(), order.end(), 0);
  do {
    f(std::span<const NodeId>(order.data(), static_cast<std::size_t>(ranks)));
    std::reverse(order.begin() + ranks, order.end());
  } while (std::next_permutation(order.begin(), order.end()));
}

LinkId link_between(const topo::Topology& t, NodeId from, NodeId to) {
  for (LinkId l = 0; l < t.link_count(); ++l)
    if (t.link(l).from == from && t.link(l).to == to) return l;
  ADD_FAILURE() << "no link " << from << " -> " << to;
  return 0;
}

/// Ranks 0 and 1 exchange `messages` messages of `bytes` bytes in all; the others are idle.
traces::CommMatrix one_pair(Rank ranks, std::uint64_t messages, std::uint64_t bytes) {
  traces::CommMatrixBuilder builder(ranks);
  builder.add(0, 1, messages, bytes);
  return builder.build();
}

topo::Mapping best(const char* objective, const traces::CommMatrix& m, const topo::Topology& t) {
  return make_mapper("best", {{"objective", objective}})->map(m, t, 1);
}

TEST(RouteDistanceLatency, RoutesSumTheirLinksLatenciesInPicoseconds) {
  // 100 ns per grid link, 200 ns between ranks of one node (LinkClass.cpp).
  const std::int64_t grid = ps(LinkClass::Grid);
  EXPECT_EQ(grid, 100000);
  EXPECT_EQ(ps(LinkClass::IntraNode), 200000);
  for (const char* spec : {"mesh:4x4", "torus:33x32"}) {  // the torus walks its routes
    const auto machine = topo::make_topology(spec);
    const RouteDistance d(*machine, RouteWeight::Latency);
    for (const auto& [a, b] :
         std::vector<std::pair<NodeId, NodeId>>{{0, 1}, {0, 5}, {3, 12}, {15, 0}, {7, 9}})
      EXPECT_EQ(d(a, b), machine->hops(a, b) * grid) << spec << ": " << a << " -> " << b;
    EXPECT_EQ(d(6, 6), ps(LinkClass::IntraNode)) << spec;
  }
  // mesh:4x4: corner to corner is 6 hops, the bound of every pair.
  EXPECT_EQ(RouteDistance(*topo::make_topology("mesh:4x4"), RouteWeight::Latency).bound(),
            6 * grid);
  // haec:3x3x2: optical links on a board, wireless ones to every node of the next board (both
  // 50 ns by default); node 4 = (1, 1, 0) is two optical hops from node 0, node 13 = (1, 1, 1)
  // one wireless hop. A fat-tree of 2 x 2 nodes: 130 ns into or out of a leaf switch, 150 ns
  // between switches.
  const auto haec = topo::make_topology("haec:3x3x2");
  const RouteDistance d(*haec, RouteWeight::Latency);
  EXPECT_EQ(d(0, 1), ps(LinkClass::HaecOptical));
  EXPECT_EQ(d(0, 4), 2 * ps(LinkClass::HaecOptical));
  EXPECT_EQ(d(0, 13), ps(LinkClass::HaecWireless));
  const auto tree = topo::make_topology("fattree:k-ary-n-tree:2,2");
  EXPECT_EQ(RouteDistance(*tree, RouteWeight::Latency)(0, 1), 2 * 130000);
  EXPECT_EQ(RouteDistance(*tree, RouteWeight::Latency)(0, 2), 2 * 130000 + 2 * 150000);
  for (const auto* machine : {haec.get(), tree.get()}) {
    const RouteDistance r(*machine, RouteWeight::Latency);
    for (NodeId a = 0; a < machine->node_count(); ++a) {
      for (NodeId b = 0; b < machine->node_count(); ++b) {
        EXPECT_EQ(r(a, b), route_latency(*machine, a, b)) << a << " -> " << b;
        EXPECT_LE(r(a, b), r.bound());
      }
    }
  }
  // The table given: a 1 us wireless link.
  const auto slow = topo::LinkTable{}.with(LinkClass::HaecWireless, {12.5e9, 1e-6});
  EXPECT_EQ(RouteDistance(*haec, RouteWeight::Latency, slow)(0, 13), 1000000);
  EXPECT_EQ(RouteDistance(*haec, RouteWeight::Latency, slow)(0, 4), d(0, 4));
}

TEST(CommGraph, ByMessagesWeighsEveryPairByItsMessages) {
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 5, 1000);
  builder.add(1, 0, 2, 30);
  builder.add(2, 3, 7, 0);  // messages without bytes
  builder.add(0, 2, 1, 1 << 20);
  builder.add(3, 3, 4, 100);  // to itself: no edge
  const CommGraph graph(builder.build());
  const CommGraph messages = graph.by_messages();
  ASSERT_EQ(messages.rank_count(), 4);
  EXPECT_EQ(messages.edge_count(), graph.edge_count());
  const std::uint64_t totals[] = {5 + 2 + 1, 5 + 2, 1 + 7, 7};
  for (Rank r = 0; r < 4; ++r) {
    EXPECT_EQ(messages.bytes(r), totals[r]) << r;
    ASSERT_EQ(messages.degree(r), graph.degree(r));
    for (int k = 0; k < graph.degree(r); ++k) {
      const auto& before = graph.neighbors(r)[static_cast<std::size_t>(k)];
      const auto& after = messages.neighbors(r)[static_cast<std::size_t>(k)];
      EXPECT_EQ(after.rank, before.rank);
      EXPECT_EQ(after.bytes_out, before.messages_out);
      EXPECT_EQ(after.bytes_in, before.messages_in);
    }
  }
  EXPECT_EQ(messages.neighbors(2)[1].bytes_out, 7U);  // rank 3, without bytes
  EXPECT_EQ(graph.bytes(0), 1000U + 30 + (1 << 20));  // the original keeps its bytes
}

TEST(LatencyObjective, CostIsMessagesTimesRouteLatencyAndSwapDeltasAreItsChanges) {
  // Two ranks per node: a node's channel (200 ns) costs more than an optical hop (50 ns).
  const auto machine = topo::make_topology("haec:2x2x2:cores=2");
  traces::CommMatrixBuilder builder(16);
  for_each_pair(testing::random_matrix(16, 4, 11),
                [&](Rank s, Rank d, traces::Traffic x) { builder.add(s, d, x.messages, x.bytes); });
  builder.add(3, 12, 9, 0);  // messages without bytes count as much
  const auto matrix = builder.build();
  const CommGraph graph(matrix);
  const ObjectiveInputs inputs(Objective::Latency, graph, *machine);
  ASSERT_EQ(inputs.distance()->weight(), RouteWeight::Latency);
  const auto& g = inputs.graph();
  const auto* d = inputs.distance();
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<NodeId> nodes(16);
    for (Rank r = 0; r < 16; ++r) nodes[static_cast<std::size_t>(r)] = r / 2;
    std::shuffle(nodes.begin(), nodes.end(), rng);
    const auto cost = latency_sum(matrix, *machine, nodes);
    EXPECT_EQ(objective_cost(Objective::Latency, g, *machine, nodes, d), cost);
    EXPECT_EQ(objective_cost_serial(Objective::Latency, g, *machine, nodes, d), cost);
    const auto i = static_cast<Rank>(rng() % 16);
    const auto j = static_cast<Rank>(rng() % 16);
    auto swapped = nodes;
    std::swap(swapped[static_cast<std::size_t>(i)], swapped[static_cast<std::size_t>(j)]);
    EXPECT_EQ(swap_cost_delta(Objective::Latency, g, *machine, nodes, i, j, d),
              latency_sum(matrix, *machine, swapped) - cost);
  }
}

TEST(LatencyObjective, AChainOfSmallMessagesStaysAdjacentWhereHopBytesWouldNot) {
  // mesh:4, a line of nodes 0-1-2-3. Ranks 0-1-2-3 form a chain of 100 one-byte messages per
  // link; rank 0 sends rank 3 one message of 1 MB. Latency (message-hops): the chain in line
  // order, 3 x 100 + 3 = 303 hops of 100 ns. Hop-bytes: 0 and 3 adjacent (1 MB x 1), then the
  // chain's hops around the cycle 0-1-2-3-0 are at least 2 x 3 - 1 = 5: 1 000 500.
  const auto line = topo::make_topology("mesh:4");
  traces::CommMatrixBuilder builder(4);
  for (Rank r = 0; r < 3; ++r) builder.add(r, r + 1, 100, 100);
  builder.add(0, 3, 1, 1000000);
  const auto matrix = builder.build();
  const std::int64_t grid = ps(LinkClass::Grid);
  std::int64_t min_latency = std::numeric_limits<std::int64_t>::max();
  std::int64_t min_hop_bytes = min_latency;
  std::vector<std::pair<std::int64_t, std::int64_t>> costs;
  for_each_placement(4, 4, [&](std::span<const NodeId> f) {
    costs.emplace_back(latency_sum(matrix, *line, f), latency_sum(matrix, *line, f, true));
    min_latency = std::min(min_latency, costs.back().first);
    min_hop_bytes = std::min(min_hop_bytes, costs.back().second);
  });
  ASSERT_EQ(costs.size(), 24U);
  EXPECT_EQ(min_latency, 303 * grid);
  EXPECT_EQ(min_hop_bytes, 1000500);
  for (const auto& [latency, hop_bytes] : costs)
    EXPECT_FALSE(latency == min_latency && hop_bytes == min_hop_bytes);  // no common optimum
  EXPECT_EQ(latency_sum(matrix, *line, std::vector<NodeId>{0, 1, 2, 3}, true), 3000300);
  EXPECT_EQ(latency_sum(matrix, *line, std::vector<NodeId>{1, 0, 3, 2}), 501 * grid);
  // best reaches each optimum under its own objective.
  EXPECT_EQ(latency_sum(matrix, *line, best("latency", matrix, *line).nodes()), min_latency);
  EXPECT_EQ(latency_sum(matrix, *line, best("hop-bytes", matrix, *line).nodes(), true),
            min_hop_bytes);
}

TEST(CongestionInTime, TwoHeavyPairsSharingALink) {
  // mesh:4: rank 0 sends 3000 bytes to rank 1, rank 2 2000 bytes to rank 3. In order each pair
  // has its link; with ranks 1 and 2 exchanged both routes cross link 1 -> 2. One bandwidth:
  // T_l = L_l, and the smooth sum is the sum of squares.
  const auto line = topo::make_topology("mesh:4");
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 3000);
  builder.add(2, 3, 1, 2000);
  const auto matrix = builder.build();
  const CommGraph graph(matrix);
  const std::vector<NodeId> apart{0, 1, 2, 3};
  LinkLoadTracker tracker(graph, *line, apart);
  EXPECT_EQ(tracker.load(link_between(*line, 0, 1)), 3000U);
  EXPECT_EQ(tracker.load(link_between(*line, 2, 3)), 2000U);
  EXPECT_EQ(tracked(tracker), (Congestion{3000, 13000000, 13000000}));
  std::uint64_t work = 0;
  const auto after = tracker.evaluate(apart, 1, 2, 2, 1, work);
  EXPECT_EQ((Congestion{after.max, narrow(after.sum_of_squares), narrow(after.smooth)}),
            (Congestion{5000, 38000000, 38000000}));
  EXPECT_EQ(tracker.max_load(), 3000U);  // evaluate changes nothing
  const std::vector<NodeId> shared{0, 2, 1, 3};
  EXPECT_EQ(LinkLoadTracker(graph, *line, shared).load(link_between(*line, 1, 2)), 5000U);
  EXPECT_EQ(congestion(matrix, *line, shared, kBytes), (Congestion{5000, 38000000, 38000000}));
  // Brute force: the least (max, sum of squares) over all 24 placements; best reaches it.
  Congestion least{std::numeric_limits<std::uint64_t>::max(), 0, 0};
  for_each_placement(4, 4, [&](std::span<const NodeId> f) {
    least = std::min(least, congestion(matrix, *line, f, kBytes));
  });
  EXPECT_EQ(least.key(), (std::pair<std::uint64_t, std::uint64_t>{3000, 13000000}));
  const auto found = best("congestion", matrix, *line);
  EXPECT_EQ(congestion(matrix, *line, found.nodes(), kBytes).key(), least.key());
}

TEST(CongestionInTime, WeightsAreTheClassesTimePerByte) {
  const topo::LinkTable table;
  const double optical = table[LinkClass::HaecOptical].bandwidth;
  const double wireless = table[LinkClass::HaecWireless].bandwidth;
  ASSERT_GT(optical, wireless);  // the fastest class weighs 1000
  const auto haec = link_time_weights(*topo::make_topology("haec:3x3x2"));
  EXPECT_EQ(haec[static_cast<std::size_t>(LinkClass::HaecOptical)], 1000U);
  EXPECT_EQ(haec[static_cast<std::size_t>(LinkClass::HaecWireless)],
            static_cast<std::uint64_t>(std::llround(1000 * optical / wireless)));
  EXPECT_EQ(haec[static_cast<std::size_t>(LinkClass::HaecWireless)], 2000U);
  // One bandwidth among the network links: 1 for every class (one board has no wireless links;
  // the intra-node channel is not a network link; a fat-tree's levels are all 25 GB/s).
  for (const char* spec : {"torus:4x4", "mesh:4", "haec:3x3x1", "fattree:k-ary-n-tree:2,2"}) {
    const auto w = link_time_weights(*topo::make_topology(spec));
    EXPECT_TRUE(std::ranges::all_of(w, [](std::uint64_t x) { return x == 1; })) << spec;
  }
}

TEST(CongestionInTime, AWirelessByteWeighsTwoOpticalOnesOnTheHaecBox) {
  // haec:4x1x2: two boards, each a ring of 4 nodes (optical links), every node of board 0
  // linked to every node of board 1 (wireless, half the bandwidth: w = 2000 against 1000).
  // Rank 0 sends 4000 bytes to rank 1 and 2000 to rank 2, and receives 2000 from rank 3: only
  // two of its partners fit on its optical neighbours. The third either takes one wireless link
  // (bytes: 2000 once; time 2000 x 2000) or two optical hops from the opposite node of the ring
  // (bytes: 2000 twice; time 2 x 2000 x 1000 on links of their own). In bytes the wireless link
  // is better (sum of squares 4000^2 + 2000^2 + 2000^2 = 24e6 against 28e6), in time the two
  // optical hops are (4e6^2 + 3 x 2e6^2 = 28e12 against 36e12).
  const auto haec = topo::make_topology("haec:4x1x2");
  const auto w = [](LinkClass c) { return c == LinkClass::HaecWireless ? 2000U : 1000U; };
  // Ranks 4 to 7 are idle: 8 ranks fill the machine, so that best searches all of it rather
  // than a compact block of 4 nodes (Mapper.hpp).
  traces::CommMatrixBuilder builder(8);
  builder.add(0, 1, 1, 4000);
  builder.add(0, 2, 1, 2000);
  builder.add(3, 0, 1, 2000);
  const auto matrix = builder.build();
  const CommGraph graph(matrix);
  // Rank 0 on node 0, its optical neighbours 1 and 3 to ranks 1 and 2, rank 3 on board 1.
  const std::vector<NodeId> wireless{0, 1, 3, 4, 2, 5, 6, 7};
  const LinkLoadTracker tracker(graph, *haec, wireless);
  const LinkId radio = link_between(*haec, 4, 0);
  EXPECT_EQ(tracker.weight(radio), 2000U);
  EXPECT_EQ(tracker.load(radio), 2000U * 2000);
  EXPECT_EQ(tracker.load(link_between(*haec, 0, 1)), 4000U * 1000);
  EXPECT_EQ(tracker.load(link_between(*haec, 0, 3)), 2000U * 1000);
  // smooth = sum T_l L_l = 4e6 x 4000 + 2e6 x 2000 + 4e6 x 2000.
  EXPECT_EQ(tracked(tracker), (Congestion{4000000, 36000000000000, 28000000000}));
  EXPECT_EQ(tracked(tracker), congestion(matrix, *haec, wireless, w));
  // Rank 3 on node 2, opposite node 0 on its ring.
  const std::vector<NodeId> optical{0, 1, 3, 2, 4, 5, 6, 7};
  EXPECT_EQ(tracked(LinkLoadTracker(graph, *haec, optical)),
            (Congestion{4000000, 28000000000000, 28000000000}));
  // Brute force over the 8 x 7 x 6 x 5 placements, in time and in bytes.
  Congestion in_time{std::numeric_limits<std::uint64_t>::max(), 0, 0};
  Congestion in_bytes = in_time;
  std::vector<std::pair<Congestion, Congestion>> costs;
  for_each_placement(4, 8, [&](std::span<const NodeId> f) {
    costs.emplace_back(congestion(matrix, *haec, f, w), congestion(matrix, *haec, f, kBytes));
    in_time = std::min(in_time, costs.back().first);
    in_bytes = std::min(in_bytes, costs.back().second);
  });
  ASSERT_EQ(costs.size(), 1680U);
  EXPECT_EQ(in_time.key(), (std::pair<std::uint64_t, std::uint64_t>{4000000, 28000000000000}));
  EXPECT_EQ(in_bytes.key(), (std::pair<std::uint64_t, std::uint64_t>{4000, 24000000}));
  for (const auto& [time, bytes] : costs)  // no placement is optimal both ways
    EXPECT_FALSE(time.key() == in_time.key() && bytes.key() == in_bytes.key());
  const auto found = best("congestion", matrix, *haec);
  EXPECT_EQ(congestion(matrix, *haec, found.nodes(), w).key(), in_time.key());
}

TEST(CongestionSmooth, BreaksATieOfTheBusiestLinkBySumOfLoadsSquared) {
  // mesh:4: rank 0 sends 3000 bytes to rank 1, rank 2 1000 to rank 3. In order: loads 3000 and
  // 1000. Ranks 0, 1 on nodes 3, 1 and ranks 2, 3 on nodes 0, 2: both pairs two hops in
  // opposite directions, 3000 twice and 1000 twice: the same busiest link, twice the smooth sum.
  const auto line = topo::make_topology("mesh:4");
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 3000);
  builder.add(2, 3, 1, 1000);
  const auto matrix = builder.build();
  const CommGraph graph(matrix);
  const auto near = tracked(LinkLoadTracker(graph, *line, std::vector<NodeId>{0, 1, 2, 3}));
  const auto far = tracked(LinkLoadTracker(graph, *line, std::vector<NodeId>{3, 1, 0, 2}));
  EXPECT_EQ(near, (Congestion{3000, 10000000, 10000000}));
  EXPECT_EQ(far, (Congestion{3000, 20000000, 20000000}));
  std::uint64_t least = std::numeric_limits<std::uint64_t>::max();
  for_each_placement(4, 4, [&](std::span<const NodeId> f) {
    least = std::min(least, congestion(matrix, *line, f, kBytes).smooth);
  });
  EXPECT_EQ(least, near.smooth);
  EXPECT_EQ(
      congestion(matrix, *line, best("congestion-smooth", matrix, *line).nodes(), kBytes).smooth,
      least);
  const auto result = run_best(matrix, *line, {SearchGoal::CongestionSmooth, 2, 1000, 0}, 1);
  EXPECT_EQ(result.cost.primary, 0U);
  EXPECT_EQ(narrow(result.cost.secondary), least);
}

TEST(LatencyObjective, BokhariGeneticAndSamplingSearchIt) {
  const auto machine = topo::make_topology("haec:2x2x2:cores=2");
  const auto matrix = testing::random_matrix(16, 3, 21);
  const CommGraph graph(matrix);
  const auto cost = [&](std::span<const NodeId> f) { return latency_sum(matrix, *machine, f); };
  const auto sweep = make_mapper("sweep")->map(matrix, *machine, 1);
  // bokhari starts from sweep and never ends above its start.
  const auto bokhari = make_mapper("bokhari", {{"objective", "latency"}, {"max-jumps", "3"}})
                           ->map(matrix, *machine, 1);
  EXPECT_NO_THROW(validate(bokhari, *machine));
  EXPECT_LE(cost(bokhari.nodes()), cost(sweep.nodes()));
  // genetic: the best chromosome's cost, never above the initial population's best or its seed.
  const GeneticOptions options{Objective::Latency, 30, 6, 0.5};
  const auto genetic = run_genetic(graph, *machine, options, 9, sweep.nodes());
  EXPECT_EQ(genetic.best_cost, cost(genetic.best));
  EXPECT_LE(genetic.best_cost, genetic.initial_cost);
  EXPECT_LE(genetic.best_cost, cost(sweep.nodes()));
  // sampling: the least cost over its samples, ties to the lowest k.
  const auto sampled = run_sampling(graph, *machine, Objective::Latency, 64, 5);
  std::vector<std::int64_t> costs;
  for (std::uint64_t k = 0; k < 64; ++k) costs.push_back(cost(sample_mapping(*machine, 16, 5, k)));
  const auto least = std::ranges::min_element(costs);  // the first of the least
  EXPECT_EQ(sampled.best_cost, *least);
  EXPECT_EQ(sampled.best_sample, static_cast<std::uint64_t>(least - costs.begin()));
  const auto mapper = make_mapper("sampling", {{"objective", "latency"}, {"samples", "64"}});
  EXPECT_EQ(mapper->map(matrix, *machine, 5), topo::Mapping(sampled.best));
}

using testing::expect_same_on_one_and_two_threads;

// The link objectives in the mappers that score whole mappings (MappingScore.hpp).
TEST(LinkObjectives, SamplingTakesTheLeastPairOverItsSamples) {
  // haec:2x2x2 (two link classes: the wireless links weigh twice the optical ones), 8 ranks of
  // random traffic; congestion by its definition above with w = 2 on wireless links.
  const auto machine = topo::make_topology("haec:2x2x2");
  const auto matrix = testing::random_matrix(8, 3, 17);
  const CommGraph graph(matrix);
  const auto weights = link_time_weights(*machine);
  const auto w = [&](LinkClass c) { return weights[static_cast<std::size_t>(c)]; };
  const std::vector<NodeId> in_order{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<Congestion> costs;
  for (std::uint64_t k = 0; k < 64; ++k)
    costs.push_back(congestion(matrix, *machine, sample_mapping(*machine, 8, 5, k), w));
  {
    const MappingScorer scorer("congestion", graph, *machine, in_order);
    const auto sampled = run_sampling(graph, *machine, scorer, 64, 5);
    const auto least = std::min_element(costs.begin(), costs.end());  // the first least pair
    EXPECT_EQ(sampled.best_sample, static_cast<std::uint64_t>(least - costs.begin()));
    EXPECT_EQ(static_cast<std::uint64_t>(sampled.best_cost), least->max);
    EXPECT_EQ(narrow(sampled.best_second), least->squares);
  }
  {
    const MappingScorer scorer("congestion-smooth", graph, *machine, in_order);
    const auto sampled = run_sampling(graph, *machine, scorer, 64, 5);
    const auto least = std::min_element(
        costs.begin(), costs.end(),
        [](const Congestion& a, const Congestion& b) { return a.smooth < b.smooth; });
    EXPECT_EQ(sampled.best_sample, static_cast<std::uint64_t>(least - costs.begin()));
    EXPECT_EQ(sampled.best_cost, 0);
    EXPECT_EQ(narrow(sampled.best_second), least->smooth);
  }
  // The mapper is the function: the same mapping from its parameter.
  const auto mapper = make_mapper("sampling", {{"objective", "congestion"}, {"samples", "64"}});
  EXPECT_EQ(
      mapper->map(matrix, *machine, 5),
      topo::Mapping(run_sampling(graph, *machine,
                                 MappingScorer("congestion", graph, *machine, in_order), 64, 5)
                        .best));
}

TEST(LinkObjectives, HybridOfTheReferenceIsTheSumOfItsWeights) {
  // H = 0.7 C/C0 + 0.2 S/S0 + 0.1 HB/HB0 in units of 1e-12: the reference itself scores 1e12.
  const auto machine = topo::make_topology("mesh:4x4");
  const auto matrix = testing::random_matrix(16, 3, 8);
  const CommGraph graph(matrix);
  std::vector<NodeId> in_order(16);
  std::iota(in_order.begin(), in_order.end(), 0);
  const MappingScorer scorer("hybrid", graph, *machine, in_order);
  const auto own = scorer(in_order);
  EXPECT_NEAR(static_cast<double>(own.first), 1e12, 1e12 * 1e-9);
  EXPECT_EQ(own.second, 0U);
  // Another mapping: by the same formula from the independent sums above.
  std::vector<NodeId> reversed(in_order.rbegin(), in_order.rend());
  std::swap(reversed[0], reversed[5]);
  const auto ref = congestion(matrix, *machine, in_order, kBytes);
  const auto other = congestion(matrix, *machine, reversed, kBytes);
  const double expected =
      1e12 * (kHybridCongestion * static_cast<double>(other.max) / static_cast<double>(ref.max) +
              kHybridSmooth * static_cast<double>(other.smooth) / static_cast<double>(ref.smooth) +
              kHybridHopBytes * static_cast<double>(latency_sum(matrix, *machine, reversed, true)) /
                  static_cast<double>(latency_sum(matrix, *machine, in_order, true)));
  EXPECT_NEAR(static_cast<double>(scorer(reversed).first), expected, expected * 1e-9);
}

TEST(LinkObjectives, GeneticKeepsItsBestAndIsTheSameOnOneOrTwoThreads) {
  const auto machine = topo::make_topology("haec:2x2x2:cores=2");
  const auto matrix = testing::random_matrix(16, 3, 21);
  const CommGraph graph(matrix);
  const auto weights = link_time_weights(*machine);
  const auto w = [&](LinkClass c) { return weights[static_cast<std::size_t>(c)]; };
  const auto sweep = make_mapper("sweep")->map(matrix, *machine, 1);
  const MappingScorer scorer("congestion", graph, *machine, sweep.nodes());
  const GeneticOptions options{Objective::HopBytes, 30, 6, 0.5};
  const auto genetic = run_genetic(graph, *machine, options, scorer, 9, sweep.nodes());
  const auto found = congestion(matrix, *machine, genetic.best, w);
  EXPECT_EQ(static_cast<std::uint64_t>(genetic.best_cost), found.max);
  EXPECT_EQ(narrow(genetic.best_second), found.squares);
  EXPECT_LE(genetic.best_cost, genetic.initial_cost);
  EXPECT_FALSE(congestion(matrix, *machine, sweep.nodes(), w) < found);  // never above its seed
  for (std::size_t g = 1; g < genetic.history.size(); ++g)
    EXPECT_LE(genetic.history[g], genetic.history[g - 1]);
  for (const char* objective : {"congestion", "congestion-smooth", "hybrid"}) {
    SCOPED_TRACE(objective);
    expect_same_on_one_and_two_threads(
        *make_mapper("genetic", {{"objective", objective}, {"generations", "4"}}), matrix,
        *machine);
  }
}

TEST(LinkObjectives, TheOtherWordsScoreAsBefore) {
  // cardinality, hop-bytes, energy and latency through the scorer: the same search as through
  // their Objective, the same result.
  const auto machine = topo::make_topology("haec:2x2x2:cores=2");
  const auto matrix = testing::random_matrix(16, 3, 3);
  const CommGraph graph(matrix);
  const std::pair<const char*, Objective> words[] = {{"cardinality", Objective::Cardinality},
                                                     {"hop-bytes", Objective::HopBytes},
                                                     {"energy", Objective::Energy},
                                                     {"latency", Objective::Latency}};
  for (const auto& [word, objective] : words) {
    SCOPED_TRACE(word);
    const MappingScorer scorer(word, graph, *machine, {});
    EXPECT_EQ(run_sampling(graph, *machine, scorer, 40, 2).best,
              run_sampling(graph, *machine, objective, 40, 2).best);
    const GeneticOptions options{objective, 20, 3, 0.5};
    const auto by_word = run_genetic(graph, *machine, options, scorer, 4);
    const auto by_objective = run_genetic(graph, *machine, options, 4);
    EXPECT_EQ(by_word.best, by_objective.best);
    EXPECT_EQ(by_word.history, by_objective.history);
  }
}

TEST(LinkObjectives, UnknownWordsAreRefused) {
  EXPECT_THROW(make_mapper("genetic", {{"objective", "congestion-max"}}), InputError);
  EXPECT_THROW(make_mapper("sampling", {{"objective", "time"}}), InputError);
  EXPECT_THROW(make_mapper("bokhari", {{"objective", "congestion-max"}}), InputError);
  EXPECT_THROW(make_mapper("ohtma", {{"objective", "cardinality"}}), InputError);
}

TEST(SearchObjectives, BestIsTheSameWithOneOrTwoThreads) {
  const std::pair<const char*, traces::CommMatrix> instances[] = {
      {"haec:3x3x2", testing::random_matrix(18, 3, 4)},
      {"mesh:4x4:cores=2", testing::lu_wavefront(8, 4)}};
  for (const auto& [spec, matrix] : instances) {
    const auto machine = topo::make_topology(spec);
    for (const char* objective : {"latency", "congestion", "congestion-smooth"}) {
      SCOPED_TRACE(std::string(objective) + " on " + spec);
      expect_same_on_one_and_two_threads(
          *make_mapper("best", {{"objective", objective}, {"work", "2000"}}), matrix, *machine);
    }
  }
}

TEST(SearchObjectives, RefuseSumsBeyond64BitsAndUnknownWords) {
  // mesh:4x4: the latency bound is 6 hops of 100 ns. Messages x bound just past 2^63 - 1.
  const auto mesh = topo::make_topology("mesh:4x4");
  const RouteDistance d(*mesh, RouteWeight::Latency);
  const auto bound = static_cast<std::uint64_t>(6 * ps(LinkClass::Grid));
  const auto over = one_pair(16, kMax / bound + 1, 1);  // 16 ranks: no compact block
  EXPECT_NO_THROW(d.check_summable(CommGraph(one_pair(16, kMax / bound, 1)).by_messages()));
  EXPECT_NO_THROW(d.check_summable(CommGraph(over)));  // 1 byte: the byte graph fits
  try {
    d.check_summable(CommGraph(over).by_messages());
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("latency"), std::string::npos) << what;
    EXPECT_NE(what.find("messages"), std::string::npos) << what;
  }
  for (const char* name : {"best", "sampling", "bokhari", "genetic"})
    EXPECT_THROW((void)make_mapper(name, {{"objective", "latency"}})->map(over, *mesh, 1),
                 InputError)
        << name;
  EXPECT_THROW((void)make_mapper("best", {{"objective", "latencyy"}}), InputError);
  // Link loads: bytes x longest route x largest weight past 2^63 - 1. mesh:3: routes of up to 2
  // links, weight 1: 2^62 bytes are refused, 2^62 - 1 fit (the matrix itself holds either).
  const std::vector<NodeId> ends{0, 2};
  const auto line = topo::make_topology("mesh:3");
  ASSERT_EQ(line->route(0, 2).size(), 2U);
  EXPECT_NO_THROW(
      LinkLoadTracker(CommGraph(one_pair(2, 1, (std::uint64_t{1} << 62) - 1)), *line, ends));
  EXPECT_THROW(LinkLoadTracker(CommGraph(one_pair(2, 1, std::uint64_t{1} << 62)), *line, ends),
               InputError);
  // haec:4x1x2: routes of up to 2 links, the wireless weight 2000. A matrix whose hop-bytes fit
  // (best objective=hop-bytes maps it) but whose weighted loads do not.
  const auto haec = topo::make_topology("haec:4x1x2");
  ASSERT_EQ(haec->route(0, 2).size(), 2U);  // two optical hops: the longest (one wireless)
  const auto most = kMax / (2 * 2000);
  EXPECT_NO_THROW(LinkLoadTracker(CommGraph(one_pair(2, 1, most)), *haec, ends));
  EXPECT_THROW(LinkLoadTracker(CommGraph(one_pair(2, 1, most + 1)), *haec, ends), InputError);
  const auto heavy = one_pair(8, 1, most + 1);  // 8 ranks: the whole machine
  EXPECT_NO_THROW((void)best("hop-bytes", heavy, *haec));
  for (const char* objective : {"congestion", "congestion-smooth"})
    EXPECT_THROW((void)best(objective, heavy, *haec), InputError) << objective;
}

// ---- objective=hybrid (LocalSearch.hpp) ----

/// H by its definition, in units of 1e-12: each sum over the reference's (as is where that is 0);
/// with `energy` (time+energy), G = (1 - w) H + w E / R_energy.
std::uint64_t hybrid_units(const HybridReference& r, const HybridReference& sums,
                           bool energy = false) {
  const auto ratio = [](double x, double of) { return of > 0 ? x / of : x; };
  double h = kHybridCongestion * ratio(sums.max_time, r.max_time) +
             kHybridSmooth * ratio(sums.smooth, r.smooth) +
             kHybridHopBytes * ratio(sums.hop_bytes, r.hop_bytes);
  if (energy) h = (1 - kTimeEnergyWeight) * h + kTimeEnergyWeight * ratio(sums.energy, r.energy);
  return static_cast<std::uint64_t>(std::llround(std::min(h * 1e12, 9e18)));
}

/// The three sums of a mapping (max_l T_l, sum_l T_l L_l, HB) from the routes, weights w.
HybridReference hybrid_sums(const traces::CommMatrix& m, const topo::Topology& t,
                            std::span<const NodeId> f,
                            const std::function<std::uint64_t(LinkClass)>& w) {
  const auto c = congestion(m, t, f, w);
  return {static_cast<double>(c.max), static_cast<double>(c.smooth),
          static_cast<double>(latency_sum(m, t, f, true))};
}

/// The machine's class weights (link_time_weights, checked above) as a function.
std::function<std::uint64_t(LinkClass)> weights_of(const topo::Topology& t) {
  return [w = link_time_weights(t)](LinkClass c) { return w[static_cast<std::size_t>(c)]; };
}

std::vector<NodeId> in_order(const traces::CommMatrix& m, const topo::Topology& t) {
  const auto mapping = make_mapper("in-order")->map(m, t, 1);
  return {mapping.nodes().begin(), mapping.nodes().end()};
}

TEST(HybridObjective, CostIsTheWeightedSumOfTheRatiosToTheReference) {
  const auto units = [](double h) { return static_cast<std::uint64_t>(std::llround(h * 1e12)); };
  const HybridReference r{4000, 3e7, 12000};
  const double k = kHybridCongestion + kHybridSmooth + kHybridHopBytes;
  EXPECT_EQ(hybrid_cost(r, 4000, 30000000, 12000), units(k));
  EXPECT_EQ(units(k), 1000000000000U);  // the weights sum to 1
  // Doubling one sum adds its weight.
  EXPECT_EQ(hybrid_cost(r, 8000, 30000000, 12000), units(k + kHybridCongestion));
  EXPECT_EQ(hybrid_cost(r, 4000, 60000000, 12000), units(k + kHybridSmooth));
  EXPECT_EQ(hybrid_cost(r, 4000, 30000000, 24000), units(k + kHybridHopBytes));
  EXPECT_EQ(hybrid_cost(r, 1000, 7500000, 0), units(0.25 * (kHybridCongestion + kHybridSmooth)));
  // A zero reference term is taken as is: 5 busy units, the other two at the reference.
  EXPECT_EQ(hybrid_cost({0, 3e7, 12000}, 5, 30000000, 12000),
            units(5 * kHybridCongestion + kHybridSmooth + kHybridHopBytes));
  EXPECT_EQ(hybrid_cost({}, 3, 2, 1),
            units(3 * kHybridCongestion + 2 * kHybridSmooth + kHybridHopBytes));
  // A smooth sum beyond 64 bits, and the cap at 9e18.
  EXPECT_EQ(hybrid_cost({1, 0x1p70, 1}, 0, Uint128{1} << 71, 0), units(2 * kHybridSmooth));
  EXPECT_EQ(hybrid_cost({1, 1, 1}, 100000000, 0, 0), 9000000000000000000U);
  EXPECT_EQ(hybrid_units(r, {8000, 3e7, 12000}), hybrid_cost(r, 8000, 30000000, 12000));
}

TEST(HybridObjective, ReferenceSumsOfTwoPairsSharingALink) {
  // mesh:4: rank 0 sends 3000 bytes to rank 1 and gets 500 back, rank 2 sends 2000 to rank 3;
  // ranks on nodes 0, 2, 1, 3. Links 0->1: 3000, 1->2: 3000 + 2000, 2->3: 2000, 2->1 and 1->0:
  // 500. One bandwidth: T_l = L_l. smooth = 9e6 + 25e6 + 4e6 + 2 x 0.25e6; HB = 3500 x 2 +
  // 2000 x 2.
  const auto line = topo::make_topology("mesh:4");
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 3000);
  builder.add(1, 0, 1, 500);
  builder.add(2, 3, 1, 2000);
  const auto matrix = builder.build();
  const CommGraph graph(matrix);
  const std::vector<NodeId> shared{0, 2, 1, 3};
  const auto r = hybrid_reference(graph, *line, shared);
  EXPECT_EQ(r.max_time, 5000);
  EXPECT_EQ(r.smooth, 38500000);
  EXPECT_EQ(r.hop_bytes, 11000);
  const auto mine = hybrid_sums(matrix, *line, shared, kBytes);
  EXPECT_EQ(mine.max_time, r.max_time);
  EXPECT_EQ(mine.smooth, r.smooth);
  EXPECT_EQ(mine.hop_bytes, r.hop_bytes);
  const auto apart = hybrid_reference(graph, *line, std::vector<NodeId>{0, 1, 2, 3});
  EXPECT_EQ(apart.max_time, 3000);
  EXPECT_EQ(apart.smooth, 9e6 + 0.25e6 + 4e6);
  EXPECT_EQ(apart.hop_bytes, 5500);
}

TEST(HybridObjective, SearchCostIsHOfTheRoutesOnTwoBandwidths) {
  // The HAEC Box: wireless links of half the optical bandwidth (w = 2000 against 1000).
  const auto w = [](LinkClass c) -> std::uint64_t {
    return c == LinkClass::HaecWireless ? 2000 : 1000;
  };
  for (const auto& [spec, cores] : {std::pair{"haec:4x1x2", 1}, {"haec:4x1x2:cores=2", 2}}) {
    SCOPED_TRACE(spec);
    const auto haec = topo::make_topology(spec);
    const auto matrix = testing::random_matrix(8 * cores, 3, 5);
    const CommGraph graph(matrix);
    const auto reference = in_order(matrix, *haec);
    const auto r = hybrid_sums(matrix, *haec, reference, w);
    const SearchSpace space(graph, *haec, 8, 8, nullptr, hybrid_reference(graph, *haec, reference));
    EXPECT_EQ(space.hybrid_reference().max_time, r.max_time);
    EXPECT_EQ(space.hybrid_reference().smooth, r.smooth);
    EXPECT_EQ(space.hybrid_reference().hop_bytes, r.hop_bytes);
    EXPECT_EQ(search_cost(space, SearchGoal::Hybrid, reference), (SearchCost{1000000000000, 0}));
    std::vector<NodeId> nodes(static_cast<std::size_t>(8 * cores));
    for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = static_cast<NodeId>(k) / cores;
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
      std::shuffle(nodes.begin(), nodes.end(), rng);
      EXPECT_EQ(search_cost(space, SearchGoal::Hybrid, nodes),
                (SearchCost{hybrid_units(r, hybrid_sums(matrix, *haec, nodes, w)), 0}));
    }
  }
}

TEST(HybridObjective, LocalSearchKeepsTheCostExact) {
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
    const SearchSpace space(graph, *machine, 8, 8, nullptr,
                            hybrid_reference(graph, *machine, in_order(matrix, *machine)));
    const auto start = make_mapper("random")->map(matrix, *machine, 1);
    const auto result =
        local_search(space, start.nodes(), {SearchGoal::Hybrid, 3000000, 0}, Random(5));
    EXPECT_NO_THROW(validate(topo::Mapping(result.nodes), *machine));
    EXPECT_EQ(result.start_cost, search_cost(space, SearchGoal::Hybrid, start.nodes()));
    EXPECT_EQ(result.cost, search_cost(space, SearchGoal::Hybrid, result.nodes));
    EXPECT_LT(result.cost, result.start_cost);  // a random start is far from a local minimum
    EXPECT_EQ(result.cost.secondary, 0U);
    EXPECT_GT(result.rounds, 0U);  // perturbations, some undone, were run
  }
}

// Under the link objectives work counts links of routes. With every rank on one node, or with
// no bytes, no move puts traffic on a link: the budget was never spent and the search ran
// forever (best:objective=congestion on a job that fits one node). It stops after a long run of
// rounds without work, at its start's cost of 0, and so does best.
TEST(CongestionObjective, ASearchThatCanMoveNoTrafficStops) {
  const std::pair<const char*, traces::CommMatrix> cases[] = {
      {"mesh:1:cores=4", testing::random_matrix(4, 3, 1)},  // one node
      {"mesh:2:cores=2", one_pair(2, 1, 1000)},             // a second node to move to
      {"torus:2x2", one_pair(4, 6, 0)},                     // messages without bytes
  };
  for (const auto& [spec, matrix] : cases) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const CommGraph graph(matrix);
    const SearchSpace space(graph, *machine);
    const auto start = in_order(matrix, *machine);
    for (const auto goal : {SearchGoal::Congestion, SearchGoal::CongestionSmooth}) {
      const auto result = local_search(space, start, {goal, 1000, 0}, Random(3));
      EXPECT_EQ(result.cost, result.start_cost);
      EXPECT_EQ(result.cost.primary, 0U);
    }
    for (const char* objective : {"congestion", "congestion-smooth"}) {
      EXPECT_NO_THROW(validate(
          make_mapper("best", {{"objective", objective}})->map(matrix, *machine, 0), *machine));
    }
  }
}

TEST(HybridObjective, BestNeverWorseThanItsStartsAndTheSameOnOneOrTwoThreads) {
  const std::pair<const char*, traces::CommMatrix> instances[] = {
      {"haec:3x3x2", testing::random_matrix(18, 3, 4)},
      {"mesh:4x4:cores=2", testing::lu_wavefront(8, 4)}};
  for (const auto& [spec, matrix] : instances) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const auto on = [&](int threads) {
      const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
      return run_best(matrix, *machine, {SearchGoal::Hybrid, 2, 1000, 0}, 3);
    };
    const auto result = on(2);
    EXPECT_EQ(on(1).nodes, result.nodes);
    EXPECT_NO_THROW(validate(topo::Mapping(result.nodes), *machine));
    // The reference is in-order: H of its own sums is 1e12 units, and it is one of the starts.
    const auto reference = in_order(matrix, *machine);
    const CommGraph graph(matrix);
    const SearchSpace space(graph, *machine, 8, 8, nullptr,
                            hybrid_reference(graph, *machine, reference));
    EXPECT_EQ(result.cost, search_cost(space, SearchGoal::Hybrid, result.nodes));
    const auto r = hybrid_sums(matrix, *machine, reference, weights_of(*machine));
    EXPECT_EQ(result.cost.primary,
              hybrid_units(r, hybrid_sums(matrix, *machine, result.nodes, weights_of(*machine))));
    EXPECT_TRUE(std::ranges::any_of(result.starts, [&](const BestStart& start) {
      return start.nodes == reference && start.cost == SearchCost{1000000000000, 0};
    }));
    for (const auto& start : result.starts) {
      EXPECT_EQ(start.cost, search_cost(space, SearchGoal::Hybrid, start.nodes)) << start.name;
      EXPECT_FALSE(start.cost < result.cost) << start.name;
    }
  }
}

TEST(HybridObjective, LeavesTheHopBytesOptimumToRelieveAWirelessLinkOnTheHaecBox) {
  // haec:4x1x2, 8 ranks: rank 5 (node 5, board 1 in order) sends 2000 bytes to ranks 0 and 1
  // and receives 2000 from rank 2 (nodes 0 to 2, board 0). In order: three wireless hops, the
  // least hop-bytes (6000); T = 2000 x 2000 on each: R = (4e6, 3 x 4e6 x 2000, 6000). Two
  // partners on rank 5's optical neighbours and the third two optical hops away (a route of
  // its own, the other way): max 2e6, smooth 4 x 2e6 x 2000, HB 8000: H = 0.4 / 2 + 0.55 x 2/3
  // + 0.05 x 4/3, below every placement with a wireless link (its max alone is in-order's).
  const auto haec = topo::make_topology("haec:4x1x2");
  const auto w = [](LinkClass c) -> std::uint64_t {
    return c == LinkClass::HaecWireless ? 2000 : 1000;
  };
  traces::CommMatrixBuilder builder(8);
  builder.add(5, 0, 1, 2000);
  builder.add(5, 1, 1, 2000);
  builder.add(2, 5, 1, 2000);
  const auto matrix = builder.build();
  const HybridReference r{4e6, 24e9, 6000};
  const auto reference = hybrid_reference(CommGraph(matrix), *haec, in_order(matrix, *haec));
  EXPECT_EQ(reference.max_time, r.max_time);
  EXPECT_EQ(reference.smooth, r.smooth);
  EXPECT_EQ(reference.hop_bytes, r.hop_bytes);
  const auto optimum = hybrid_units(r, {2e6, 16e9, 8000});
  // Brute force over the placements of ranks 0, 1, 2 and 5 (the idle others left on node 0).
  std::uint64_t least = std::numeric_limits<std::uint64_t>::max();
  std::int64_t least_hop_bytes = std::numeric_limits<std::int64_t>::max();
  std::vector<std::pair<std::uint64_t, std::int64_t>> costs;
  std::vector<NodeId> f(8);
  for_each_placement(4, 8, [&](std::span<const NodeId> p) {
    std::ranges::fill(f, 0);
    std::ranges::copy(p.first(3), f.begin());
    f[5] = p[3];
    costs.emplace_back(hybrid_units(r, hybrid_sums(matrix, *haec, f, w)),
                       latency_sum(matrix, *haec, f, true));
    least = std::min(least, costs.back().first);
    least_hop_bytes = std::min(least_hop_bytes, costs.back().second);
  });
  EXPECT_EQ(least, optimum);
  EXPECT_EQ(least_hop_bytes, 6000);
  for (const auto& [h, hop_bytes] : costs)  // no placement is optimal both ways
    EXPECT_FALSE(h == least && hop_bytes == least_hop_bytes);
  // best reaches each optimum under its own objective, deterministically.
  const auto found = best("hybrid", matrix, *haec);
  EXPECT_NO_THROW(validate(found, *haec));
  EXPECT_EQ(found, best("hybrid", matrix, *haec));
  EXPECT_EQ(hybrid_units(r, hybrid_sums(matrix, *haec, found.nodes(), w)), optimum);
  EXPECT_EQ(latency_sum(matrix, *haec, best("hop-bytes", matrix, *haec).nodes(), true), 6000);
  // A small workload, valid and the same for a seed.
  const auto workload = testing::random_matrix(36, 3, 8);
  const auto box = topo::make_topology("haec:3x3x4");
  const auto mapper = make_mapper("best", {{"objective", "hybrid"}, {"work", "2000"}});
  const auto mapped = mapper->map(workload, *box, 4);
  EXPECT_NO_THROW(validate(mapped, *box));
  EXPECT_EQ(mapped, mapper->map(workload, *box, 4));
}

// ---- objective=time+energy (LocalSearch.hpp) ----

/// A class's default energy per bit in thousandths of a pJ: the RouteDistance weight.
const auto fj = [](LinkClass c) {
  return std::llround(1000 * topo::LinkTable{}.energy(c).pj_per_bit);
};

/// hybrid_sums with the traffic energy E: bytes x the weights of the route's links (of the
/// intra-node channel between ranks of one node).
HybridReference energy_sums(const traces::CommMatrix& m, const topo::Topology& t,
                            std::span<const NodeId> f) {
  auto sums = hybrid_sums(m, t, f, weights_of(t));
  for_each_pair(m, [&](Rank s, Rank d, traces::Traffic x) {
    std::int64_t e = f[s] == f[d] ? fj(LinkClass::IntraNode) : 0;
    if (f[s] != f[d])
      for (const LinkId l : t.route(f[s], f[d])) e += fj(t.link(l).link_class);
    sums.energy += static_cast<double>(x.bytes) * static_cast<double>(e);
  });
  return sums;
}

/// The four sums, comparable.
auto tuple_of(const HybridReference& r) {
  return std::tuple(r.max_time, r.smooth, r.hop_bytes, r.energy);
}

/// A time+energy space: the energy distance and the sums of in-order, its energy included.
struct TimeEnergySpace {
  TimeEnergySpace(const traces::CommMatrix& m, const topo::Topology& t)
      : graph(m),
        distance(t, RouteWeight::Energy),
        space(graph, t, 8, 8, &distance, hybrid_reference(graph, t, in_order(m, t), &distance)) {}
  CommGraph graph;
  RouteDistance distance;
  SearchSpace space;
};

TEST(TimeEnergyObjective, CostWeighsHAgainstTheEnergyRelativeToTheReference) {
  const auto units = [](double g) { return static_cast<std::uint64_t>(std::llround(g * 1e12)); };
  const HybridReference r{4000, 3e7, 12000, 5e6};
  const double w = kTimeEnergyWeight;
  EXPECT_EQ(hybrid_cost(r, 4000, 30000000, 12000, 5000000), 1000000000000U);
  // Doubling E alone adds w; doubling the busiest link alone (1 - w) of its weight in H.
  EXPECT_EQ(hybrid_cost(r, 4000, 30000000, 12000, 10000000), units(1 + w));
  EXPECT_EQ(hybrid_cost(r, 8000, 30000000, 12000, 5000000), units(1 + (1 - w) * kHybridCongestion));
  EXPECT_EQ(hybrid_cost(r, 4000, 30000000, 12000, 0), units(1 - w));
  // Without an energy: hybrid's H, whatever the reference's energy.
  EXPECT_EQ(hybrid_cost(r, 8000, 30000000, 12000), units(1 + kHybridCongestion));
  EXPECT_EQ(hybrid_cost(r, 8000, 30000000, 12000), hybrid_units(r, {8000, 3e7, 12000, 1e7}));
  // A zero reference energy: E as is; and the cap at 9e18.
  EXPECT_EQ(hybrid_cost({4000, 3e7, 12000, 0}, 4000, 30000000, 12000, 3), units(1 - w + 3 * w));
  EXPECT_EQ(hybrid_cost(r, 4000, 30000000, 12000, std::numeric_limits<std::int64_t>::max()),
            9000000000000000000U);
}

TEST(TimeEnergyObjective, TheEnergyWeightIsTheReferencesW) {
  const auto units = [](double g) { return static_cast<std::uint64_t>(std::llround(g * 1e12)); };
  // H = 1 + kHybridCongestion (the busiest link doubled), E = 3 R_energy: G = (1 - w) H + 3 w.
  for (const double w : {0.0, 0.25, 0.5, 0.8, 1.0}) {
    SCOPED_TRACE(w);
    HybridReference r{4000, 3e7, 12000, 5e6};
    r.energy_weight = w;
    EXPECT_EQ(hybrid_cost(r, 8000, 30000000, 12000, 15000000),
              units((1 - w) * (1 + kHybridCongestion) + 3 * w));
  }
  // The default, `best`'s energy-weight's: kTimeEnergyWeight, stated once.
  EXPECT_EQ(HybridReference{}.energy_weight, kTimeEnergyWeight);
  const auto params = best_params();
  const auto spec = std::find_if(params.begin(), params.end(),
                                 [](const ParamSpec& s) { return s.key == "energy-weight"; });
  ASSERT_NE(spec, params.end());
  EXPECT_EQ(std::stod(std::string(spec->default_value)), kTimeEnergyWeight);
}

// best:objective=time+energy with energy-weight 0 ranks as hybrid, with 1 as the traffic energy:
// on the HAEC Box (wireless links ten times an optical hop per bit) the weight 1 never ends with
// more traffic energy than 0, and on some inputs with less.
TEST(TimeEnergyObjective, TheEnergyWeightMovesBestFromHybridToEnergy) {
  int less = 0;
  for (const auto& [spec, seed] :
       {std::pair{"haec:4x2x2", 1}, {"haec:4x2x2", 2}, {"haec:4x4x2", 3}, {"haec:4x4x2", 4}}) {
    SCOPED_TRACE(spec);
    const auto haec = topo::make_topology(spec);
    const auto matrix = testing::random_matrix(haec->node_count(), 3, seed);
    const CommGraph graph(matrix);
    const RouteDistance energy(*haec, RouteWeight::Energy);
    const auto traffic_energy = [&](const std::string& weight) {
      const auto m = make_mapper("best", {{"objective", "time+energy"}, {"energy-weight", weight}})
                         ->map(matrix, *haec, 3);
      return objective_cost(Objective::Energy, graph, *haec, m.nodes(), &energy);
    };
    const auto all_energy = traffic_energy("1");
    const auto all_time = traffic_energy("0");
    EXPECT_LE(all_energy, all_time);
    if (all_energy < all_time) ++less;
  }
  EXPECT_GT(less, 0);
}

TEST(TimeEnergyObjective, ReferenceEnergyIsBytesTimesTheRoutesWeights) {
  // haec:4x1x2:cores=2, ranks 2k and 2k + 1 on node k: two boards (nodes 0-3, 4-7), each a ring
  // of optical links, every node of one linked to every node of the other by a wireless link.
  // Rank 0 sends 1000 bytes to rank 1 (one node: its channel), 500 to rank 2 (node 1: one
  // optical hop) and 100 to rank 9 (node 4: one wireless hop); rank 3 300 to rank 6 (nodes 1 to
  // 3: two optical hops), rank 1 50 to rank 13 (node 6: one wireless hop).
  EXPECT_EQ(
      std::tuple(fj(LinkClass::HaecOptical), fj(LinkClass::HaecWireless), fj(LinkClass::IntraNode)),
      std::tuple(2000, 20000, 20000));  // 2, 20 and 20 pJ/bit
  const auto haec = topo::make_topology("haec:4x1x2:cores=2");
  traces::CommMatrixBuilder builder(16);
  for (const auto& [s, d, bytes] : std::vector<std::tuple<Rank, Rank, std::uint64_t>>{
           {0, 1, 1000}, {0, 2, 500}, {0, 9, 100}, {3, 6, 300}, {1, 13, 50}})
    builder.add(s, d, 1, bytes);
  const auto matrix = builder.build();
  const CommGraph graph(matrix);
  std::vector<NodeId> f(16);
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = static_cast<NodeId>(k / 2);
  const RouteDistance d(*haec, RouteWeight::Energy);
  const auto r = hybrid_reference(graph, *haec, f, &d);
  EXPECT_EQ(r.energy, 1000 * 20000 + 500 * 2000 + 100 * 20000 + 300 * 4000 + 50 * 20000);
  EXPECT_EQ(tuple_of(r), tuple_of(energy_sums(matrix, *haec, f)));
  EXPECT_EQ(r.hop_bytes, 500 + 100 + 2 * 300 + 50);
  const auto without = hybrid_reference(graph, *haec, f);  // the same sums, energy 0
  EXPECT_EQ(tuple_of(without), tuple_of({r.max_time, r.smooth, r.hop_bytes, 0}));
}

TEST(TimeEnergyObjective, SearchCostIsGAndTheLocalSearchKeepsItExact) {
  for (const auto& [spec, cores] : {std::pair{"haec:4x1x2", 1}, {"haec:4x1x2:cores=2", 2}}) {
    SCOPED_TRACE(spec);
    const auto haec = topo::make_topology(spec);
    const auto matrix = testing::random_matrix(8 * cores, 3, 5);
    const TimeEnergySpace s(matrix, *haec);
    auto nodes = in_order(matrix, *haec);
    const auto r = energy_sums(matrix, *haec, nodes);
    EXPECT_EQ(tuple_of(s.space.hybrid_reference()), tuple_of(r));
    EXPECT_EQ(search_cost(s.space, SearchGoal::TimeEnergy, nodes), (SearchCost{1000000000000, 0}));
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
      std::shuffle(nodes.begin(), nodes.end(), rng);
      EXPECT_EQ(search_cost(s.space, SearchGoal::TimeEnergy, nodes),
                (SearchCost{hybrid_units(r, energy_sums(matrix, *haec, nodes), true), 0}));
    }
    // A space without the energy distance is refused.
    EXPECT_THROW((void)search_cost(SearchSpace(s.graph, *haec), SearchGoal::TimeEnergy, nodes),
                 InternalError);
  }
  const std::pair<const char*, traces::CommMatrix> cases[] = {
      {"haec:3x3x3", testing::lu_wavefront(5, 5)},
      {"mesh:5x5:cores=2", testing::random_matrix(45, 3, 1)}};
  for (const auto& [spec, matrix] : cases) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const TimeEnergySpace s(matrix, *machine);
    const auto start = make_mapper("random")->map(matrix, *machine, 1);
    const auto result =
        local_search(s.space, start.nodes(), {SearchGoal::TimeEnergy, 3000000, 0}, Random(5));
    EXPECT_NO_THROW(validate(topo::Mapping(result.nodes), *machine));
    EXPECT_EQ(result.start_cost, search_cost(s.space, SearchGoal::TimeEnergy, start.nodes()));
    EXPECT_EQ(result.cost, search_cost(s.space, SearchGoal::TimeEnergy, result.nodes));
    EXPECT_LT(result.cost, result.start_cost);  // a random start is far from a local minimum
    EXPECT_GT(result.rounds, 0U);
  }
}

TEST(TimeEnergyObjective, BestNeverWorseThanItsStartsAndTheSameOnOneOrTwoThreads) {
  const std::pair<const char*, traces::CommMatrix> instances[] = {
      {"haec:3x3x2", testing::random_matrix(18, 3, 4)},
      {"mesh:4x4:cores=2", testing::lu_wavefront(8, 4)}};
  for (const auto& [spec, matrix] : instances) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const auto on = [&](int threads) {
      const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
      return run_best(matrix, *machine, {SearchGoal::TimeEnergy, 2, 1000, 0}, 3);
    };
    const auto result = on(2);
    EXPECT_EQ(on(1).nodes, result.nodes);
    EXPECT_NO_THROW(validate(topo::Mapping(result.nodes), *machine));
    const auto reference = in_order(matrix, *machine);
    const auto r = energy_sums(matrix, *machine, reference);
    EXPECT_EQ(result.cost.primary,
              hybrid_units(r, energy_sums(matrix, *machine, result.nodes), true));
    EXPECT_TRUE(std::ranges::any_of(result.starts, [&](const BestStart& start) {
      return start.nodes == reference && start.cost == SearchCost{1000000000000, 0};
    }));
    const TimeEnergySpace s(matrix, *machine);
    for (const auto& start : result.starts) {
      EXPECT_EQ(start.cost, search_cost(s.space, SearchGoal::TimeEnergy, start.nodes));
      EXPECT_FALSE(start.cost < result.cost) << start.name;
    }
  }
  const auto workload = testing::random_matrix(36, 3, 8);
  const auto box = topo::make_topology("haec:3x3x4");
  const auto mapper = make_mapper("best", {{"objective", "time+energy"}, {"work", "2000"}});
  const auto mapped = mapper->map(workload, *box, 4);
  EXPECT_NO_THROW(validate(mapped, *box));
  EXPECT_EQ(mapped, mapper->map(workload, *box, 4));
}

TEST(TimeEnergyObjective, OptimumDiffersFromHybridsAndEnergysOnTheHaecBox) {
  // haec:4x1x2, 8 ranks (4 to 7 idle): rank 1 sends 4000 bytes to rank 2, 2000 to rank 0 and
  // 1000 to rank 3; rank 0 4000 to rank 3. Optical links 2 pJ/bit, wireless 20 (and twice the
  // time per byte). In order (ranks 0-3 on board 0's ring, two-hop routes in +x): 1 -> 3 goes
  // 1 -> 2 -> 3, so link 1->2 carries 5000: R = (5e6, 1000 x (25 + 1 + 4 + 16)e6, 12000, E 24e6).
  // Energy: every byte crosses an optical link at least and only two of rank 1's three partners
  // fit next to it: E >= 22e6 + 1000 x 2000, in order's. Hybrid: two partners of rank 1 across
  // wireless links, every pair one hop: (4e6, 42e9, 11000) but E = 76e6. Time+energy: on one
  // board, rank 1 on node 2, its 2000-byte partner two hops away by 2 -> 3 -> 0, off the 4000-byte
  // links: (4e6, 45e9, 13000, 26e6).
  const auto haec = topo::make_topology("haec:4x1x2");
  traces::CommMatrixBuilder builder(8);
  builder.add(1, 2, 1, 4000);
  builder.add(1, 0, 1, 2000);
  builder.add(1, 3, 1, 1000);
  builder.add(0, 3, 1, 4000);
  const auto matrix = builder.build();
  const HybridReference r{5e6, 46e9, 12000, 24e6};
  EXPECT_EQ(tuple_of(energy_sums(matrix, *haec, in_order(matrix, *haec))), tuple_of(r));
  const auto optimum = hybrid_units(r, {4e6, 45e9, 13000, 26e6}, true);
  EXPECT_EQ(optimum,
            hybrid_units(r, energy_sums(matrix, *haec, std::vector<NodeId>{0, 2, 1, 3}), true));
  // Brute force over the placements of ranks 0 to 3: (G, H, E, HB) of each.
  std::vector<std::array<double, 4>> costs;
  std::array<double, 4> least;
  least.fill(std::numeric_limits<double>::max());
  for_each_placement(4, 8, [&](std::span<const NodeId> f) {
    const auto sums = energy_sums(matrix, *haec, f);
    costs.push_back({static_cast<double>(hybrid_units(r, sums, true)),
                     static_cast<double>(hybrid_units(r, sums)), sums.energy, sums.hop_bytes});
    for (std::size_t k = 0; k < 4; ++k) least[k] = std::min(least[k], costs.back()[k]);
  });
  EXPECT_EQ(least[0], static_cast<double>(optimum));
  EXPECT_EQ(least[1], static_cast<double>(hybrid_units(r, {4e6, 42e9, 11000})));
  EXPECT_EQ(least[2], 24e6);
  EXPECT_EQ(least[3], 11000);
  for (const auto& c : costs) {  // no placement optimal under time+energy and another objective
    if (c[0] != least[0]) continue;
    EXPECT_NE(c[1], least[1]);
    EXPECT_NE(c[2], least[2]);
    EXPECT_NE(c[3], least[3]);
  }
  const auto found = best("time+energy", matrix, *haec);
  EXPECT_NO_THROW(validate(found, *haec));
  EXPECT_EQ(hybrid_units(r, energy_sums(matrix, *haec, found.nodes()), true), optimum);
}

TEST(TimeEnergyObjective, TheDescentTakesAMoveOnlyTheEnergySees) {
  // dragonfly:3,2,1,1: groups of two routers with a host each, every link 25 GB/s (weight 1).
  // Node 0 to node 1: host, local and host links; to node 2, in another group: host, global and
  // host links, the same hops and loads (the same H) but 10 pJ/bit on the global link against 5
  // on the local one. Ranks 0 and 1 (the others idle) on nodes 0 and 2: G = (1 - w) + w 20 / 15;
  // the first improving move of the descent brings them into one group, G = 1.
  const auto df = topo::make_topology("dragonfly:3,2,1,1");
  const auto matrix = one_pair(6, 1, 1000);
  const TimeEnergySpace s(matrix, *df);
  const auto host = fj(LinkClass::DfHost);
  EXPECT_EQ(df->hops(0, 1), df->hops(0, 2));
  const std::vector<NodeId> apart{0, 2, 1, 3, 4, 5};
  const auto r = energy_sums(matrix, *df, in_order(matrix, *df));
  const auto sums = energy_sums(matrix, *df, apart);
  EXPECT_EQ(r.energy, 1000 * (2 * host + fj(LinkClass::DfLocal)));
  EXPECT_EQ(sums.energy, 1000 * (2 * host + fj(LinkClass::DfGlobal)));
  EXPECT_EQ(hybrid_units(r, sums), 1000000000000U);
  // A budget of 100 units: the descent, without perturbation rounds.
  const auto result = local_search(s.space, apart, {SearchGoal::TimeEnergy, 100, 0}, Random(1));
  EXPECT_EQ(result.start_cost, (SearchCost{hybrid_units(r, sums, true), 0}));
  EXPECT_GT(result.start_cost.primary, 1000000000000U);
  EXPECT_EQ(result.cost, (SearchCost{1000000000000, 0}));
}

}  // namespace
}  // namespace mapsim::map
