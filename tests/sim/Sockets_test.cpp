// Nodes with sockets in the network models (sim/Network.hpp, topologies/TopologySpec.hpp
// sockets=): the channels' resource ids, and replays solved by hand. Round parameters: the
// intra-node channel 1 GB/s and 200 ns (1 byte = 1 ns), the inter-socket channel 0.5 GB/s and
// 400 ns (1 byte = 2 ns).

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/Network.hpp"
#include "sim/Overheads.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;
using topo::LinkClass;

sim::SimConfig socket_config(const std::string& model) {
  auto config = round_config(model);
  config.links = config.links.with(LinkClass::InterSocket, {0.5e9, 400e-9});
  return config;
}

sim::Result run_cores(const traces::Trace& trace, const std::string& spec,
                      std::vector<topo::NodeId> nodes, std::vector<std::int32_t> cores,
                      const sim::SimConfig& config) {
  const auto topology = topo::make_topology(spec);
  const topo::Mapping mapping(std::move(nodes), std::move(cores));
  topo::validate(mapping, *topology);
  return sim::simulate(trace, *topology, mapping, config);
}

TEST(SocketChannels, ResourceIdsFollowTheLinksNodeBySocketThenBetweenSockets) {
  const auto torus = topo::make_topology("torus:2x2:cores=6:sockets=3");
  const sim::Network network(*torus, topo::LinkTable{});
  const auto links = torus->link_count();
  const topo::NodeId nodes = 4;
  // Per node: 3 socket channels and the inter-socket one.
  EXPECT_EQ(network.resource_count(), links + nodes * 4);
  EXPECT_EQ(network.intra_node_channel(2), links + 2);             // socket 0: as before
  EXPECT_EQ(network.intra_node_channel(2, 1), links + 4 + 2 * 2);  // after every socket 0
  EXPECT_EQ(network.intra_node_channel(2, 2), links + 4 + 2 * 2 + 1);
  EXPECT_EQ(network.inter_socket_channel(2), links + 4 * 3 + 2);
  // node_channel names every channel resource back, each exactly once.
  std::vector<int> seen(static_cast<std::size_t>(nodes * 4), 0);
  for (topo::NodeId n = 0; n < nodes; ++n) {
    for (int s = 0; s < 3; ++s) {
      const auto r = network.intra_node_channel(n, s);
      const auto channel = sim::node_channel(*torus, r);
      EXPECT_EQ(channel.node, n);
      EXPECT_EQ(channel.link_class, LinkClass::IntraNode);
      EXPECT_EQ(channel.socket, s);
      ++seen[static_cast<std::size_t>(r - links)];
    }
    const auto r = network.inter_socket_channel(n);
    const auto channel = sim::node_channel(*torus, r);
    EXPECT_EQ(channel.node, n);
    EXPECT_EQ(channel.link_class, LinkClass::InterSocket);
    ++seen[static_cast<std::size_t>(r - links)];
  }
  EXPECT_EQ(seen, std::vector<int>(seen.size(), 1));
  // One socket per node: one channel per node, the layout of earlier versions.
  const auto plain = topo::make_topology("torus:2x2:cores=6");
  EXPECT_EQ(sim::Network(*plain, topo::LinkTable{}).resource_count(), links + nodes);
}

TEST(SocketChannels, ChannelsTakeTheirClassParameters) {
  const auto torus = topo::make_topology("torus:2x2:cores=4:sockets=2");
  const auto config = socket_config("analytic");
  sim::Network network(*torus, config.links);
  EXPECT_EQ(network.bandwidth(network.intra_node_channel(1, 1)), 1e9);
  EXPECT_EQ(network.latency(network.intra_node_channel(1, 1)), 200 * kNs);
  EXPECT_EQ(network.bandwidth(network.inter_socket_channel(3)), 0.5e9);
  EXPECT_EQ(network.latency(network.inter_socket_channel(3)), 400 * kNs);
  // Routes within a node by socket; between nodes the network route whatever the sockets.
  EXPECT_EQ(network.resources(network.route(1, 1, 1, 1))[0], network.intra_node_channel(1, 1));
  EXPECT_EQ(network.resources(network.route(1, 1, 0, 1))[0], network.inter_socket_channel(1));
  EXPECT_EQ(network.resources(network.route(1, 1, 1, 0))[0], network.inter_socket_channel(1));
  const auto between = network.route(0, 1, 1, 0);
  EXPECT_EQ(between.length, network.route(0, 1).length);
  EXPECT_EQ(between.latency, 100 * kNs);  // one grid hop at the default 100 ns
}

TEST(SocketReplay, LoneMessageWithinASocketAndBetweenSockets) {
  constexpr std::int64_t n = 1000;  // bytes, eager, one packet
  TraceBuilder b(2);
  b.send(0, 1, n).recv(1, 0, n);
  const std::string spec = "torus:2x2:cores=4:sockets=2";
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto config = socket_config(model);
    // Cores 0 and 1: both on socket 0 (2 cores per socket): 200 ns + 1000 x 1 ns.
    const auto same = run_cores(b.trace(), spec, {0, 0}, {0, 1}, config);
    EXPECT_EQ(same.rank_finish[1], (200 + n) * kNs);
    // Cores 0 and 2: sockets 0 and 1: 400 ns + 1000 x 2 ns over the inter-socket channel.
    const auto across = run_cores(b.trace(), spec, {0, 0}, {0, 2}, config);
    EXPECT_EQ(across.rank_finish[1], (400 + 2 * n) * kNs);
    const auto torus = topo::make_topology(spec);
    const sim::Network network(*torus, config.links);
    const auto inter = static_cast<std::size_t>(network.inter_socket_channel(0));
    EXPECT_EQ(across.resource_bytes[inter], n);
    EXPECT_EQ(same.resource_bytes[inter], 0);
    EXPECT_EQ(same.resource_bytes[static_cast<std::size_t>(network.intra_node_channel(0))], n);
  }
}

TEST(SocketReplay, RankOrderCoresAreTheDefault) {
  // Without cores, the ranks of a node take its cores in rank order: ranks 0, 1 on node 0 are
  // cores 0, 1 (socket 0); ranks 2, 3 on node 0 would be cores 2, 3 (socket 1).
  TraceBuilder b(4);
  b.send(0, 2, 1000).recv(2, 0, 1000).send(1, 3, 8).recv(3, 1, 8);
  const auto config = socket_config("analytic");
  const auto topology = topo::make_topology("torus:2x2:cores=4:sockets=2");
  const auto r = sim::simulate(b.trace(), *topology,
                               topo::Mapping(std::vector<topo::NodeId>{0, 0, 0, 0}), config);
  EXPECT_EQ(r.rank_finish[2], (400 + 2 * 1000) * kNs);
  EXPECT_EQ(r.rank_finish[3], (400 + 2 * 8) * kNs);
}

TEST(SocketReplay, CrossSocketFlowsShareTheNodesInterSocketChannel) {
  // Ranks 0, 1 on socket 0 and 2, 3 on socket 1 of node 0; 0 -> 2 and 1 -> 3 at once: two
  // flows on the inter-socket channel of 0.5 GB/s get 0.25 GB/s each: 400 ns + 4 ns per byte.
  // 0 -> 1 and 2 -> 3 instead stay within their sockets, on two channels: 200 ns + 1 ns a byte.
  constexpr std::int64_t n = 100'000;  // rendezvous-free: eager threshold raised below
  auto config = socket_config("flow");
  config.eager_threshold = 1 << 20;
  const std::string spec = "torus:2x2:cores=4:sockets=2";
  TraceBuilder across(4);
  across.send(0, 2, n).send(1, 3, n).recv(2, 0, n).recv(3, 1, n);
  const auto shared = run_cores(across.trace(), spec, {0, 0, 0, 0}, {0, 1, 2, 3}, config);
  EXPECT_EQ(shared.rank_finish[2], (400 + 4 * n) * kNs);
  EXPECT_EQ(shared.rank_finish[3], (400 + 4 * n) * kNs);
  TraceBuilder within(4);
  within.send(0, 1, n).send(2, 3, n).recv(1, 0, n).recv(3, 2, n);
  const auto apart = run_cores(within.trace(), spec, {0, 0, 0, 0}, {0, 1, 2, 3}, config);
  EXPECT_EQ(apart.rank_finish[1], (200 + n) * kNs);
  EXPECT_EQ(apart.rank_finish[3], (200 + n) * kNs);
}

TEST(SocketReplay, OneSocketOfManyReplaysAsANodeOfOne) {
  // Every rank of a node on socket 0: the replay of the machine without sockets, time for time.
  TraceBuilder b(4);
  b.send(0, 1, 5000).recv(1, 0, 5000).send(2, 3, 300).recv(3, 2, 300).send(1, 2, 70).recv(2, 1, 70);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto config = socket_config(model);
    const auto plain = run(b.trace(), "torus:2x2:cores=4", {0, 0, 1, 1}, config);
    const auto sockets = run(b.trace(), "torus:2x2:cores=4:sockets=2", {0, 0, 1, 1}, config);
    EXPECT_EQ(sockets.makespan, plain.makespan);
    EXPECT_EQ(sockets.rank_finish, plain.rank_finish);
    EXPECT_EQ(sockets.rank_mpi_time, plain.rank_mpi_time);
    EXPECT_EQ(sockets.engine_events, plain.engine_events);
  }
}

TEST(SocketReplay, InterSocketOverheadsChargeOnlyMessagesBetweenSockets) {
  constexpr std::int64_t n = 1000;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(1, 0, n);
  const std::string spec = "torus:2x2:cores=4:sockets=2";
  auto config = socket_config("analytic");
  config.overheads = sim::parse_overheads(
      "intra-node.o_s=10,intra-node.o_r=20,inter-socket.o_s=50,inter-socket.o_r=70", "test");
  const auto same = run_cores(b.trace(), spec, {0, 0}, {0, 1}, config);
  EXPECT_EQ(same.rank_finish[0], 10 * kNs);
  EXPECT_EQ(same.rank_finish[1], (10 + 200 + n + 20) * kNs);
  const auto across = run_cores(b.trace(), spec, {0, 0}, {1, 3}, config);
  EXPECT_EQ(across.rank_finish[0], 50 * kNs);
  EXPECT_EQ(across.rank_finish[1], (50 + 400 + 2 * n + 70) * kNs);
}

TEST(SocketOverheads, TheInterSocketChannelParsesAndPrints) {
  const auto o = sim::parse_overheads("inter-socket.o_s=150,inter-socket.g=5", "test");
  EXPECT_EQ(o.of(sim::Channel::InterSocket).send, 150 * kNs);
  EXPECT_EQ(o.of(sim::Channel::InterSocket).gap, 5 * kNs);
  EXPECT_EQ(sim::to_string(o), "inter-socket.o_s=150,inter-socket.g=5");
  EXPECT_EQ(sim::parse_overheads(sim::to_string(o), "test"), o);
  // On a machine of one socket per node the channel is left out: none, and presets by name.
  EXPECT_FALSE(o.none());
  EXPECT_TRUE(o.none(false));
  EXPECT_EQ(sim::to_string(o, false), "none");
  auto typical = sim::typical_overheads();
  EXPECT_GT(typical.of(sim::Channel::InterSocket).send, typical.of(sim::Channel::IntraNode).send);
  typical.of(sim::Channel::InterSocket) = {};
  EXPECT_EQ(sim::to_string(typical, false), "typical");
  EXPECT_NE(sim::to_string(typical), "typical");
}

}  // namespace
}  // namespace mapsim::testing
