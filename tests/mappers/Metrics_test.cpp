#include "mappers/Metrics.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/Random.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

constexpr double kTolerance = 1e-12;

// 1-D mesh of 3 nodes, ranks in order: 0 sends 2 messages (100 bytes) to 2, 1 sends 1 message
// (10 bytes) to 0, and 2 sends 1 message to itself.
traces::CommMatrix line_matrix() {
  traces::CommMatrixBuilder builder(3);
  builder.add(0, 2, 2, 100);
  builder.add(1, 0, 1, 10);
  builder.add(2, 2, 1, 64);
  return builder.build();
}

TEST(Metrics, HandSolvedLine) {
  const auto machine = topo::make_topology("mesh:3");
  const auto m = metrics::evaluate(line_matrix(), *machine, topo::Mapping({0, 1, 2}));
  // 0 -> 2 crosses two links, 1 -> 0 one.
  EXPECT_EQ(m.hop_bytes, 100u * 2 + 10u * 1);
  EXPECT_EQ(m.hop_messages, 2u * 2 + 1u * 1);
  EXPECT_EQ(m.dilation_max, 2);
  EXPECT_NEAR(m.dilation_average, 210.0 / 110.0, kTolerance);
  EXPECT_EQ(m.messages, 3u);  // IePLC: the self-message is not inter-process
  EXPECT_EQ(m.self_messages, 1u);
  EXPECT_EQ(m.intra_node_messages, 0u);
  EXPECT_EQ(m.inter_node_messages, 3u);
  // Directed links used: 0->1 (2 msgs, 100 B), 1->2 (2, 100), 1->0 (1, 10).
  EXPECT_EQ(m.directed_messages.used, 3);
  EXPECT_EQ(m.directed_messages.total, 5u);
  EXPECT_EQ(m.directed_messages.min, 1u);
  EXPECT_EQ(m.directed_messages.max, 2u);
  EXPECT_NEAR(m.directed_messages.average, 5.0 / 3.0, kTolerance);
  EXPECT_EQ(m.directed_bytes.total, 210u);
  EXPECT_EQ(m.directed_bytes.min, 10u);
  EXPECT_EQ(m.directed_bytes.max, 100u);
  EXPECT_NEAR(m.directed_bytes.average, 70.0, kTolerance);
  // Both directions together: {0,1} carries 3 messages and 110 bytes, {1,2} 2 and 100.
  EXPECT_EQ(m.link_messages.used, 2);
  EXPECT_EQ(m.link_messages.min, 2u);
  EXPECT_EQ(m.link_messages.max, 3u);
  EXPECT_NEAR(m.link_messages.average, 2.5, kTolerance);
  EXPECT_EQ(m.link_bytes.min, 100u);
  EXPECT_EQ(m.link_bytes.max, 110u);
  EXPECT_NEAR(m.link_bytes.average, 105.0, kTolerance);
  const double bandwidth = topo::LinkTable()[topo::LinkClass::Grid].bandwidth;
  EXPECT_NEAR(m.max_link_seconds, 100.0 / bandwidth, kTolerance);
  // The objectives' sums: bytes^2 / bandwidth over 0->1, 1->2 (100 B each) and 1->0 (10 B);
  // the two messages 0 -> 2 cross two links, the one 1 -> 0 one.
  EXPECT_NEAR(m.link_load_squares, (100.0 * 100 * 2 + 10.0 * 10) / bandwidth, kTolerance);
  const double latency = topo::LinkTable()[topo::LinkClass::Grid].latency;
  EXPECT_NEAR(m.latency_seconds, (2 * 2 + 1) * latency, kTolerance);
}

TEST(Metrics, IntraNodeMessagesCrossNoLink) {
  const auto machine = topo::make_topology("mesh:2:cores=2");
  traces::CommMatrixBuilder builder(3);
  builder.add(0, 1, 5, 500);  // both on node 0
  builder.add(1, 2, 1, 8);    // node 0 -> node 1
  const auto m = metrics::evaluate(builder.build(), *machine, topo::Mapping({0, 0, 1}));
  EXPECT_EQ(m.intra_node_messages, 5u);
  EXPECT_EQ(m.inter_node_messages, 1u);
  EXPECT_EQ(m.hop_bytes, 8u);
  EXPECT_EQ(m.hop_messages, 1u);
  EXPECT_EQ(m.dilation_max, 1);
  EXPECT_NEAR(m.dilation_average, 8.0 / 508.0, kTolerance);
  EXPECT_EQ(m.directed_messages.used, 1);
}

TEST(Metrics, TrafficEnergyIsBitsTimesEnergyPerBitOnEveryLinkAndChannel) {
  // mesh:2:cores=4:sockets=2. Ranks 0, 1 on node 0, socket 0 (cores 0, 1); rank 2 on node 0,
  // socket 1 (core 2); rank 3 on node 1. Grid 5 pJ/bit, intra-node 20, inter-socket 30:
  //   0 -> 1  500 B within a socket:   8 x 500 x 20 pJ = 80 nJ
  //   0 -> 2  100 B across sockets:    8 x 100 x 30 pJ = 24 nJ
  //   1 -> 3  1000 B over one link:    8 x 1000 x 5 pJ = 40 nJ
  //   3 -> 3  self: nothing.
  const auto machine = topo::make_topology("mesh:2:cores=4:sockets=2");
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, 500);
  builder.add(0, 2, 1, 100);
  builder.add(1, 3, 1, 1000);
  builder.add(3, 3, 1, 64);
  const auto links = topo::LinkTable{}
                         .with_energy(topo::LinkClass::Grid, {5, 3, 4})
                         .with_energy(topo::LinkClass::IntraNode, {20, 0, 0})
                         .with_energy(topo::LinkClass::InterSocket, {30, 0, 0});
  const topo::Mapping mapping({0, 0, 0, 1}, {0, 1, 2, 0});
  const auto m = metrics::evaluate(builder.build(), *machine, mapping, links);
  EXPECT_NEAR(m.traffic_energy_joules, 144e-9, 1e-20);
  EXPECT_EQ(m.inter_socket_messages, 1u);
  EXPECT_EQ(m.inter_socket_bytes, 100u);
  // Latency: one message within a socket, one across sockets, one over a grid link.
  EXPECT_NEAR(m.latency_seconds,
              links[topo::LinkClass::IntraNode].latency +
                  links[topo::LinkClass::InterSocket].latency +
                  links[topo::LinkClass::Grid].latency,
              kTolerance);
  // Without energy per bit anywhere, none.
  auto none = links;
  for (const auto& info : topo::link_classes()) none = none.with_energy(info.id, {0, 0, 0});
  EXPECT_EQ(metrics::evaluate(builder.build(), *machine, mapping, none).traffic_energy_joules, 0);
}

TEST(Metrics, TorusTakesTheShortWayRound) {
  // Ring of 8: rank 0 on node 0, rank 1 on node 7 — one hop back over the wrap link.
  const auto machine = topo::make_topology("torus:8");
  traces::CommMatrixBuilder builder(2);
  builder.add(0, 1, 3, 30);
  const auto m = metrics::evaluate(builder.build(), *machine, topo::Mapping({0, 7}));
  EXPECT_EQ(m.hop_bytes, 30u);
  EXPECT_EQ(m.directed_messages.used, 1);
  EXPECT_EQ(m.directed_messages.max, 3u);
}

TEST(Metrics, EmptyTrafficGivesZeroes) {
  const auto machine = topo::make_topology("mesh:2x2");
  const auto m = metrics::evaluate(traces::CommMatrix(4), *machine, topo::Mapping({0, 1, 2, 3}));
  EXPECT_EQ(m.hop_bytes, 0u);
  EXPECT_EQ(m.dilation_max, 0);
  EXPECT_EQ(m.dilation_average, 0.0);
  EXPECT_EQ(m.directed_bytes.used, 0);
  EXPECT_EQ(m.directed_bytes.min, 0u);
  EXPECT_EQ(m.max_link_seconds, 0.0);
  EXPECT_EQ(m.link_load_squares, 0.0);
  EXPECT_EQ(m.latency_seconds, 0.0);
}

topo::Mapping random_mapping(Rank ranks, const topo::Topology& machine, Seed seed) {
  std::vector<NodeId> cores;
  for (NodeId n = 0; n < machine.node_count(); ++n) {
    for (int c = 0; c < machine.cores_per_node(); ++c) cores.push_back(n);
  }
  Random random(seed);
  random.shuffle(std::span<NodeId>(cores));
  cores.resize(static_cast<std::size_t>(ranks));
  return topo::Mapping(cores);
}

TEST(Metrics, LinkMessageLoadsSumToHopMessagesOnDirectNetworks) {
  for (const char* spec : {"mesh:4x4x4", "torus:4x4x4", "haec:4x4x4", "torus:6x5:cores=2"}) {
    const auto machine = topo::make_topology(spec);
    const auto matrix = testing::random_matrix(50, 5, 11);
    const auto m = metrics::evaluate(matrix, *machine, random_mapping(50, *machine, 4));
    // Every route has hops(a, b) links, each carrying the message once.
    EXPECT_EQ(m.directed_messages.total, m.hop_messages) << spec;
    EXPECT_EQ(m.link_messages.total, m.hop_messages) << spec;
    EXPECT_EQ(m.directed_bytes.total, m.hop_bytes) << spec;
  }
}

TEST(Metrics, TianheRoutesHaveOneLinkMoreThanHops) {
  const auto machine = topo::make_topology("tianhe3:2x3:nodes=8");
  const auto matrix = testing::random_matrix(40, 5, 12);
  const auto m = metrics::evaluate(matrix, *machine, random_mapping(40, *machine, 5));
  // The last link, into the destination node, is not a hop (Table 1 counts routers).
  EXPECT_EQ(m.directed_messages.total, m.hop_messages + m.inter_node_messages);
}

TEST(Metrics, LinkLoadsDoNotDependOnTheThreadCount) {
  const auto machine = topo::make_topology("torus:8x8x8");
  const auto matrix = testing::random_matrix(512, 8, 21);
  const auto mapping = random_mapping(512, *machine, 6);
  metrics::LinkLoads one;
  metrics::LinkLoads two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = metrics::link_loads(matrix, *machine, mapping);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = metrics::link_loads(matrix, *machine, mapping);
  }
  EXPECT_EQ(one.bytes, two.bytes);
  EXPECT_EQ(one.messages, two.messages);
}

TEST(Metrics, HopBytesFromTheGraphMatchesTheMatrix) {
  const auto machine = topo::make_topology("haec:4x4x4");
  const auto matrix = testing::random_matrix(64, 6, 8);
  const auto mapping = random_mapping(64, *machine, 7);
  EXPECT_EQ(metrics::hop_bytes(CommGraph(matrix), *machine, mapping.nodes()),
            metrics::hop_bytes(matrix, *machine, mapping));
}

TEST(Metrics, SwapAndMoveDeltasMatchRecomputation) {
  for (const char* spec :
       {"torus:4x4x4", "mesh:5x4:cores=2", "haec:4x4x2", "tianhe3:2x2:nodes=8"}) {
    const auto machine = topo::make_topology(spec);
    const Rank ranks = 28;  // fewer than the cores: free places for moves
    const auto matrix = testing::random_matrix(ranks, 4, 13);
    const CommGraph graph(matrix);
    const auto initial = random_mapping(ranks, *machine, 9);
    std::vector<NodeId> nodes(initial.nodes().begin(), initial.nodes().end());
    Random random(99);
    for (int trial = 0; trial < 300; ++trial) {
      const auto before = metrics::hop_bytes(graph, *machine, nodes);
      const auto i = static_cast<Rank>(random.below(ranks));
      const auto j = static_cast<Rank>(random.below(ranks));
      const auto delta = metrics::swap_delta(graph, *machine, nodes, i, j);
      std::swap(nodes[static_cast<std::size_t>(i)], nodes[static_cast<std::size_t>(j)]);
      const auto after = metrics::hop_bytes(graph, *machine, nodes);
      ASSERT_EQ(static_cast<std::int64_t>(after) - static_cast<std::int64_t>(before), delta)
          << spec << " swap " << i << " " << j;
      // A move to any node (capacity is not the delta's business).
      const auto to =
          static_cast<NodeId>(random.below(static_cast<std::uint64_t>(machine->node_count())));
      const auto move = metrics::move_delta(graph, *machine, nodes, i, to);
      const auto from = nodes[static_cast<std::size_t>(i)];
      nodes[static_cast<std::size_t>(i)] = to;
      ASSERT_EQ(static_cast<std::int64_t>(metrics::hop_bytes(graph, *machine, nodes)) -
                    static_cast<std::int64_t>(after),
                move)
          << spec << " move " << i << " to " << to;
      nodes[static_cast<std::size_t>(i)] = from;
    }
  }
}

}  // namespace
}  // namespace mapsim::map
