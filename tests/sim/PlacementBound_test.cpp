// The placement bound (sim/PlacementBound.hpp): its cheapest channel and least overheads worked
// out by hand on each kind of machine, a lone message whose bound is its exact time where the
// pair can sit on that channel, and no mapping of whole small workloads replaying below it under
// analytic or flow, with and without overheads.

#include "sim/PlacementBound.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "RandomExchange.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/Overheads.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::testing {
namespace {

using sim::Channel;

/// Rank 0 sends `bytes` to rank 1 (blocking, eager).
traces::Trace one_message(std::int64_t bytes) {
  TraceBuilder b(2);
  b.send(0, 1, bytes).recv(1, 0, bytes);
  return b.trace();
}

sim::SimConfig with_links(const std::string& model, topo::LinkClass cls, double bw, double lat) {
  auto config = round_config(model);
  config.links = config.links.with(cls, {bw, lat});
  return config;
}

TEST(PlacementBound, TakesTheCheapestChannelOfEachKindOfMachine) {
  const auto config = round_config("flow");  // grid 1 GB/s 100 ns, intra-node 1 GB/s 200 ns
  {                                          // direct network, one core: one grid link
    const auto ideal = sim::ideal_machine(*topo::make_topology("torus:4"), 2, config);
    EXPECT_EQ(ideal.latency, 100 * kNs);
    EXPECT_EQ(ideal.bandwidth, 1e9);
    EXPECT_EQ(ideal.topology->node_count(), 2);
    EXPECT_EQ(ideal.config.model, "analytic");
  }
  {  // the intra-node channel is faster than a link here
    auto fast = config;
    fast.links = fast.links.with(topo::LinkClass::IntraNode, {4e9, 50e-9});
    const auto ideal = sim::ideal_machine(*topo::make_topology("torus:4:cores=2"), 8, fast);
    EXPECT_EQ(ideal.latency, 50 * kNs);
    EXPECT_EQ(ideal.bandwidth, 4e9);
    // ... but not on nodes of one core, where no two ranks share a node
    const auto single = sim::ideal_machine(*topo::make_topology("torus:4"), 4, fast);
    EXPECT_EQ(single.latency, 100 * kNs);
    EXPECT_EQ(single.bandwidth, 1e9);
  }
  {  // fat-tree: a route leaves its node on one ft-host link and enters the other on another
    const auto ft = with_links("flow", topo::LinkClass::FtHost, 2e9, 130e-9);
    const auto ideal = sim::ideal_machine(*topo::make_topology("fattree:2;4,2;1,2;1,1"), 8, ft);
    EXPECT_EQ(ideal.latency, 260 * kNs);
    EXPECT_EQ(ideal.bandwidth, 2e9);
  }
  {  // HAEC Box: the optical links are the fastest, the wireless ones the shortest
    auto haec = config;
    haec.links = haec.links.with(topo::LinkClass::HaecOptical, {25e9, 50e-9})
                     .with(topo::LinkClass::HaecWireless, {12.5e9, 40e-9});
    const auto ideal = sim::ideal_machine(*topo::make_topology("haec:2x2x2"), 8, haec);
    EXPECT_EQ(ideal.latency, 40 * kNs);
    EXPECT_EQ(ideal.bandwidth, 25e9);
  }
  {  // one node of four cores: the intra-node channel alone
    const auto ideal = sim::ideal_machine(*topo::make_topology("mesh:1:cores=4"), 4, config);
    EXPECT_EQ(ideal.latency, 200 * kNs);
  }
}

TEST(PlacementBound, KeepsTheLeastOverheadsOfTheChannelsAPairCanTake) {
  auto config = round_config("flow");
  config.overheads = sim::parse_overheads(
      "intra-node.o_s=300,intra-node.o_r=500,intra-node.g=50,intra-node.O_s=0.5,"
      "network.o_s=1000,network.o_r=200,network.g=400,network.O_r=0.25",
      "test");
  const auto shared = sim::ideal_machine(*topo::make_topology("torus:4:cores=2"), 8, config);
  const auto& least = shared.config.overheads.of(Channel::Network);
  EXPECT_EQ(least.send, 300 * kNs);
  EXPECT_EQ(least.receive, 200 * kNs);
  EXPECT_EQ(least.send_ns_per_byte, 0.0);
  EXPECT_EQ(least.receive_ns_per_byte, 0.0);
  EXPECT_EQ(least.gap, 0);  // two channels: their gaps run independently
  // A rank's messages to itself keep the intra-node channel's costs.
  EXPECT_EQ(shared.config.overheads.of(Channel::IntraNode),
            config.overheads.of(Channel::IntraNode));
  // One core per node: every pair takes the network, its costs and gap as they are.
  const auto alone = sim::ideal_machine(*topo::make_topology("torus:4"), 4, config);
  EXPECT_EQ(alone.config.overheads.of(Channel::Network), config.overheads.of(Channel::Network));
}

TEST(PlacementBound, IsALoneMessagesTimeOnTheCheapestChannel) {
  for (const auto* model : {"analytic", "flow"}) {
    SCOPED_TRACE(model);
    const auto trace = one_message(1000);
    // One hop of 100 ns and 1 byte per ns: 1.1 us, which the pair on neighbours attains.
    const auto torus = topo::make_topology("torus:4");
    const auto bound = sim::placement_bound(trace, *torus, round_config(model));
    EXPECT_EQ(bound.makespan, 1100 * kNs);
    EXPECT_EQ(run(trace, "torus:4", {0, 1}, round_config(model)).makespan, 1100 * kNs);
    EXPECT_EQ(run(trace, "torus:4", {0, 2}, round_config(model)).makespan, 1200 * kNs);
    // Two cores per node: sharing a node costs 200 ns, a link 100 ns; the bound is the link's.
    EXPECT_EQ(
        sim::placement_bound(trace, *topo::make_topology("torus:4:cores=2"), round_config(model))
            .makespan,
        1100 * kNs);
    EXPECT_EQ(run(trace, "torus:4:cores=2", {0, 0}, round_config(model)).makespan, 1200 * kNs);
    // With overheads the sender's o_s and the receiver's o_r add up.
    auto costly = round_config(model);
    costly.overheads = sim::parse_overheads("network.o_s=300,network.o_r=200", "test");
    EXPECT_EQ(sim::placement_bound(trace, *torus, costly).makespan, 1600 * kNs);
    EXPECT_EQ(run(trace, "torus:4", {0, 1}, costly).makespan, 1600 * kNs);
  }
}

TEST(PlacementBound, RefusesThePacketModelAndSaysWhy) {
  const std::string message = error_of([] {
    (void)sim::placement_bound(one_message(10), *topo::make_topology("torus:4"),
                               round_config("packet"));
  });
  EXPECT_NE(message.find("'packet'"), std::string::npos) << message;
  EXPECT_NE(message.find("analytic and flow"), std::string::npos) << message;
}

/// A random exchange with messages of ranks to themselves among the others.
traces::Trace exchange_with_self_messages(Rank ranks, unsigned seed) {
  auto trace = random_exchange(ranks, 3, seed);
  TraceBuilder extra(ranks);
  for (Rank r = 0; r < ranks; ++r) extra.send(r, r, 4096).recv(r, r, 4096);
  for (Rank r = 0; r < ranks; ++r) {
    auto& events = trace.ranks[static_cast<std::size_t>(r)].events;
    const auto& more = extra.trace().ranks[static_cast<std::size_t>(r)].events;
    events.insert(events.begin(), more.begin(), more.end());
  }
  return trace;
}

TEST(PlacementBound, NoMappingReplaysBelowIt) {
  std::vector<std::pair<std::string, traces::Trace>> workloads;
  workloads.emplace_back("exchange", exchange_with_self_messages(8, 7));
  for (const auto* kernel : {"cg", "ft", "lu"}) {
    traces::GeneratorOptions options;
    options.kernel = kernel;
    options.ranks = 8;
    options.iterations = 1;
    workloads.emplace_back(kernel, traces::generate_trace(options));
  }
  const std::vector<std::string> machines{
      "torus:2x2x2",           "torus:2x2:cores=2", "mesh:2x2:cores=4:sockets=2", "haec:2x2x2",
      "fattree:2;4,2;1,2;1,1", "dragonfly:2,2,2,1", "tianhe3:2x2:nodes=4:cores=2"};
  for (const auto& [name, trace] : workloads) {
    for (const auto& spec : machines) {
      const auto machine = topo::make_topology(spec);
      const auto mappings = random_mappings(*machine, trace.rank_count(), 4, 11);
      for (const auto* model : {"analytic", "flow"}) {
        for (const auto* overheads : {"none", "typical"}) {
          SCOPED_TRACE(
              fmt::format("{} on {} under {} with overheads {}", name, spec, model, overheads));
          sim::SimConfig config;
          config.model = model;
          config.compute_scale = 0;
          config.overheads = sim::parse_overheads(overheads, "test");
          const auto bound = sim::placement_bound(trace, *machine, config);
          EXPECT_GT(bound.makespan, 0);
          for (const auto& mapping : mappings) {
            EXPECT_LE(bound.makespan, sim::simulate(trace, *machine, mapping, config).makespan);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
