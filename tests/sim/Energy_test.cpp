// The network's energy (sim/Energy.hpp, topologies/LinkClass.hpp LinkEnergy), solved by hand:
// the per-bit energy of messages over links of two classes and through a node's channel, the
// links' idle and busy power over a replay, and the exact identity of the target: with idle 0 W,
// busy 1 W and no per-bit term, a replay's energy is the links' busy time, the sum over messages
// of bytes x links crossed / bandwidth.

#include "sim/Energy.hpp"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "support/Error.hpp"

namespace mapsim::testing {
namespace {

using topo::LinkClass;
using topo::LinkEnergy;

/// Every class of the machine's table at the same energy parameters.
topo::LinkTable all_classes(topo::LinkTable table, LinkEnergy energy) {
  for (const auto& info : topo::link_classes()) table = table.with_energy(info.id, energy);
  return table;
}

TEST(LinkEnergyTable, DefaultsAndOverridesAreChecked) {
  const topo::LinkTable table;
  EXPECT_EQ(table.energy(LinkClass::Grid), topo::default_energy(LinkClass::Grid));
  for (const auto& info : topo::link_classes()) {
    const auto e = table.energy(info.id);
    EXPECT_GT(e.pj_per_bit, 0) << info.name;
    EXPECT_GE(e.busy_watts, e.idle_watts) << info.name;
  }
  const auto changed = table.with_energy(LinkClass::Grid, {7, 1, 2});
  EXPECT_EQ(changed.energy(LinkClass::Grid), (LinkEnergy{7, 1, 2}));
  EXPECT_EQ(changed.energy(LinkClass::HaecWireless), table.energy(LinkClass::HaecWireless));
  EXPECT_EQ(changed[LinkClass::Grid].bandwidth, table[LinkClass::Grid].bandwidth);
  const auto message = [&](LinkEnergy e) {
    try {
      (void)table.with_energy(LinkClass::Grid, e);
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_NE(message({-1, 0, 0}).find("energy per bit of link class 'grid' is -1 pJ"),
            std::string::npos);
  EXPECT_NE(message({0, 2e6, 3e6}).find("idle power"), std::string::npos);
  EXPECT_NE(message({0, 3, 2}).find("busy power of link class 'grid' is 2 W, below its idle "
                                    "power 3 W"),
            std::string::npos);
  EXPECT_NE(message({std::numeric_limits<double>::quiet_NaN(), 0, 0}), "");
}

TEST(ReplayEnergy, BitsOverLinksOfTwoClassesAndANodesChannel) {
  // haec:2x2x2: node 1 is node 0's neighbour on its board (one optical link), node 5 = (1, 0, 1)
  // the next board's (one wireless link, straight onto its column). Nodes 0 and 1 hold two ranks
  // each: rank 0 -> 1 stays on node 0 (its intra-node channel).
  const auto haec = topo::make_topology("haec:2x2x2:cores=2");
  ASSERT_EQ(haec->route(0, 1).size(), 1U);
  ASSERT_EQ(haec->link(haec->route(0, 1)[0]).link_class, LinkClass::HaecOptical);
  ASSERT_EQ(haec->route(0, 5).size(), 1U);
  ASSERT_EQ(haec->link(haec->route(0, 5)[0]).link_class, LinkClass::HaecWireless);
  TraceBuilder b(4);
  b.send(0, 1, 500).recv(1, 0, 500);    // node 0 -> node 0
  b.send(0, 2, 1000).recv(2, 0, 1000);  // node 0 -> node 1: optical
  b.send(0, 3, 2000).recv(3, 0, 2000);  // node 0 -> node 5: wireless
  auto config = round_config("flow");
  config.links = all_classes(config.links, {0, 0, 0})
                     .with_energy(LinkClass::HaecOptical, {2, 0, 0})
                     .with_energy(LinkClass::HaecWireless, {20, 0, 0})
                     .with_energy(LinkClass::IntraNode, {16, 0, 0});
  const auto r = sim::simulate(b.trace(), *haec, topo::Mapping({0, 0, 1, 5}), config);
  const auto e = sim::replay_energy(r, *haec, config.links);
  // 8 bits per byte: 8 x 1000 x 2 pJ, 8 x 2000 x 20 pJ, 8 x 500 x 16 pJ.
  const auto& optical = e.per_class[static_cast<std::size_t>(LinkClass::HaecOptical)];
  const auto& wireless = e.per_class[static_cast<std::size_t>(LinkClass::HaecWireless)];
  const auto& intra = e.per_class[static_cast<std::size_t>(LinkClass::IntraNode)];
  EXPECT_NEAR(optical.dynamic_joules, 16e-9, 1e-21);
  EXPECT_NEAR(wireless.dynamic_joules, 320e-9, 1e-21);
  EXPECT_NEAR(intra.dynamic_joules, 64e-9, 1e-21);
  EXPECT_NEAR(e.dynamic_joules, 400e-9, 1e-21);
  EXPECT_EQ(e.static_joules, 0);
  EXPECT_EQ(e.seconds, sim::to_seconds(r.makespan));
  EXPECT_NEAR(e.watts(), 400e-9 / e.seconds, 1e-12);
}

TEST(ReplayEnergy, IdleAndBusyPowerOverTheReplay) {
  // mesh:2 has two directed links (one each way). One message of 1000 bytes at 1 GB/s after
  // 100 ns of latency: the replay lasts T = 1100 ns; the link 0 -> 1 carries 1000 bytes, its
  // utilisation integrates to 1000 / 1e9 = 1 us. Idle 1 W, busy 3 W:
  //   E = 2 links x 1 W x 1.1 us + (3 - 1) W x 1 us = 4.2 uJ.
  // The intra-node channels (no power here) add nothing.
  const auto mesh = topo::make_topology("mesh:2");
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    config.links = all_classes(config.links, {0, 0, 0}).with_energy(LinkClass::Grid, {0, 1, 3});
    const auto r = sim::simulate(b.trace(), *mesh, topo::Mapping({0, 1}), config);
    ASSERT_EQ(r.makespan, 1100 * kNs);
    const auto e = sim::replay_energy(r, *mesh, config.links);
    EXPECT_NEAR(e.static_joules, 4.2e-6, 1e-18);
    EXPECT_EQ(e.dynamic_joules, 0);
    EXPECT_NEAR(e.watts(), 4.2e-6 / 1.1e-6, 1e-9);
  }
}

TEST(ReplayEnergy, UnitBusyPowerIsTheLinksBusyTime) {
  // The target's identity, on random point-to-point traffic (eager and rendezvous, links
  // shared): idle 0 W, busy 1 W, no per-bit term on every class; the energy equals the sum over
  // messages of bytes x links of its route / 1 GB/s (and, between ranks of one node, its
  // channel's one "link").
  const auto torus = topo::make_topology("torus:4x4:cores=2");
  std::mt19937 rng(5);
  std::uniform_int_distribution<Rank> peer(0, 31);
  std::uniform_int_distribution<std::int64_t> size(1, 300'000);
  TraceBuilder b(32);
  std::vector<topo::NodeId> nodes(32);
  for (Rank r = 0; r < 32; ++r) nodes[static_cast<std::size_t>(r)] = (r * 7) % 16;
  double expected = 0;
  std::uint32_t request = 1;
  std::vector<std::vector<std::uint32_t>> waits(32);  // every request waited for at the end
  for (int k = 0; k < 200; ++k) {
    const Rank s = peer(rng);
    const Rank d = peer(rng);
    const auto bytes = size(rng);
    b.isend(s, d, bytes, request);
    waits[static_cast<std::size_t>(s)].push_back(request++);
    b.irecv(d, s, bytes, request);
    waits[static_cast<std::size_t>(d)].push_back(request++);
    const auto a = nodes[static_cast<std::size_t>(s)];
    const auto c = nodes[static_cast<std::size_t>(d)];
    const auto links = a == c ? 1 : torus->route(a, c).size();
    expected += static_cast<double>(bytes) * static_cast<double>(links) / 1e9;
  }
  for (Rank r = 0; r < 32; ++r) {
    for (const auto id : waits[static_cast<std::size_t>(r)]) b.wait(r, id);
  }
  for (const auto& model : {"analytic", "flow", "packet"}) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    config.links = all_classes(config.links, {0, 0, 1});
    const auto r = sim::simulate(b.trace(), *torus, topo::Mapping(nodes), config);
    const auto e = sim::replay_energy(r, *torus, config.links);
    EXPECT_NEAR(e.joules(), expected, expected * 1e-12);
    EXPECT_EQ(e.dynamic_joules, 0);
  }
}

TEST(ReplayEnergy, EveryLinkOfTheMachinePaysItsIdlePower) {
  // No message at all: the replay of one compute gap of 1 us; every directed link of torus:4x4
  // (64) idles at 2 W: 64 x 2 W x 1 us.
  const auto torus = topo::make_topology("torus:4x4");
  TraceBuilder b(1);
  b.all(traces::CollectiveOp::Barrier, -1, 0, 0);
  auto trace = b.trace();
  trace.ranks[0].final_gap = 1 * kUs;
  auto config = round_config("flow");
  config.links = all_classes(config.links, {0, 0, 0}).with_energy(LinkClass::Grid, {9, 2, 2});
  const auto r = sim::simulate(trace, *torus, topo::Mapping({0}), config);
  ASSERT_EQ(r.makespan, 1 * kUs);
  ASSERT_EQ(torus->link_count(), 64);
  const auto e = sim::replay_energy(r, *torus, config.links);
  EXPECT_NEAR(e.static_joules, 64 * 2 * 1e-6, 1e-15);
  EXPECT_EQ(e.dynamic_joules, 0);
}

}  // namespace
}  // namespace mapsim::testing
