// MPI's per-message overheads (sim/Overheads.hpp): parsing the spec, and their replay, solved by
// hand. A message's network time L is measured from the same trace replayed without overheads
// (a rank that waits for a message sent at 0 finishes at L), and checked against the round
// links of SimTestSupport.hpp: one torus hop is 100 ns + 1 ns per byte, the intra-node channel
// 200 ns + 1 ns per byte. Per-byte costs are binary fractions of a ns (0.5, 0.25, 0.125), so that
// every expected time is an exact number of ps.

#include "sim/Overheads.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "RandomExchange.hpp"
#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"

namespace mapsim::testing {
namespace {

using sim::Channel;
using sim::Overheads;
using sim::Time;
using traces::CollectiveOp;

Overheads parse(std::string_view spec) {
  return sim::parse_overheads(spec, "--overheads");
}

sim::SimConfig with_overheads(sim::SimConfig config, std::string_view spec) {
  config.overheads = parse(spec);
  return config;
}

/// The message of a parse_overheads(spec, where) that must throw InputError ("" if it did not).
std::string parse_error(std::string_view spec, std::string_view where = "mpi.overheads") {
  try {
    (void)sim::parse_overheads(spec, where);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------------------------
// Parsing

TEST(OverheadsSpec, NoneIsAllZero) {
  const auto o = parse("none");
  EXPECT_TRUE(o.none());
  EXPECT_EQ(o, Overheads{});
  EXPECT_EQ(o.send(Channel::Network, 1'000'000), 0);
  EXPECT_EQ(o.receive(Channel::IntraNode, 1'000'000), 0);
}

TEST(OverheadsSpec, TypicalIsThePreset) {
  const auto o = parse("typical");
  EXPECT_EQ(o, sim::typical_overheads());
  EXPECT_FALSE(o.none());
  // Small-message costs only: no per-byte term, so o_s(c, n) does not depend on n.
  for (const auto c : {Channel::IntraNode, Channel::Network}) {
    EXPECT_EQ(o.of(c).send_ns_per_byte, 0) << sim::name(c);
    EXPECT_EQ(o.of(c).receive_ns_per_byte, 0) << sim::name(c);
    EXPECT_EQ(o.send(c, 1'000'000), o.send(c, 0)) << sim::name(c);
    EXPECT_GT(o.of(c).send, 0) << sim::name(c);
    EXPECT_GT(o.of(c).receive, 0) << sim::name(c);
  }
}

TEST(OverheadsSpec, PresetThenOneKey) {
  const auto o = parse("typical,network.o_s=600");
  auto expected = sim::typical_overheads();
  expected.of(Channel::Network).send = 600 * kNs;  // only network o_s changes
  EXPECT_EQ(o, expected);
}

TEST(OverheadsSpec, EveryKeyOnBothChannels) {
  const auto o = parse(
      "intra-node.o_s=1,intra-node.O_s=0.5,intra-node.o_r=2,intra-node.O_r=0.25,intra-node.g=3,"
      "network.o_s=4,network.O_s=0.125,network.o_r=5,network.O_r=1.5,network.g=6");
  const auto& intra = o.of(Channel::IntraNode);
  EXPECT_EQ(intra.send, 1 * kNs);
  EXPECT_EQ(intra.send_ns_per_byte, 0.5);
  EXPECT_EQ(intra.receive, 2 * kNs);
  EXPECT_EQ(intra.receive_ns_per_byte, 0.25);
  EXPECT_EQ(intra.gap, 3 * kNs);
  const auto& network = o.of(Channel::Network);
  EXPECT_EQ(network.send, 4 * kNs);
  EXPECT_EQ(network.send_ns_per_byte, 0.125);
  EXPECT_EQ(network.receive, 5 * kNs);
  EXPECT_EQ(network.receive_ns_per_byte, 1.5);
  EXPECT_EQ(network.gap, 6 * kNs);
  // o_s(c, n) = o_s + O_s n, o_r(c, n) = o_r + O_r n, on 1000 bytes:
  EXPECT_EQ(o.send(Channel::IntraNode, 1000), 1 * kNs + 1000 * kNs / 2);       // 1 + 500 ns
  EXPECT_EQ(o.receive(Channel::IntraNode, 1000), 2 * kNs + 1000 * kNs / 4);    // 2 + 250 ns
  EXPECT_EQ(o.send(Channel::Network, 1000), 4 * kNs + 1000 * kNs / 8);         // 4 + 125 ns
  EXPECT_EQ(o.receive(Channel::Network, 1000), 5 * kNs + 1000 * kNs * 3 / 2);  // 5 + 1500 ns
}

TEST(OverheadsSpec, KeysAreCaseSensitive) {
  // o_s is per message, O_s per byte.
  const auto o = parse("network.O_s=2");
  EXPECT_EQ(o.of(Channel::Network).send, 0);
  EXPECT_EQ(o.of(Channel::Network).send_ns_per_byte, 2.0);
  EXPECT_EQ(o.send(Channel::Network, 10), 20 * kNs);  // 2 ns/B x 10 B
}

TEST(OverheadsSpec, FractionalNanosecondsRoundToThePicosecond) {
  EXPECT_EQ(parse("network.o_s=1.5").of(Channel::Network).send, 1500);
  EXPECT_EQ(parse("network.o_r=0.0014").of(Channel::Network).receive, 1);  // 1.4 ps -> 1 ps
  EXPECT_EQ(parse("network.g=0.0016").of(Channel::Network).gap, 2);        // 1.6 ps -> 2 ps
}

TEST(OverheadsSpec, ItemsApplyLeftToRight) {
  EXPECT_EQ(parse("network.g=5,none"), Overheads{});
  EXPECT_EQ(parse("network.o_s=600,typical"), sim::typical_overheads());
  EXPECT_EQ(parse("network.o_s=1,network.o_s=2").of(Channel::Network).send, 2 * kNs);
  const auto o = parse("none,network.g=5");
  EXPECT_EQ(o.of(Channel::Network).gap, 5 * kNs);
  EXPECT_EQ(o.of(Channel::IntraNode), sim::ChannelCosts{});
  // A zero value sets the cost back to zero.
  EXPECT_EQ(parse("typical,intra-node.o_s=0").of(Channel::IntraNode).send, 0);
  EXPECT_TRUE(parse("network.o_r=0").none());
}

TEST(OverheadsSpec, ToStringIsCanonical) {
  EXPECT_EQ(sim::to_string(Overheads{}), "none");
  EXPECT_EQ(sim::to_string(sim::typical_overheads()), "typical");
  EXPECT_EQ(sim::to_string(parse("network.g=5,none")), "none");
  EXPECT_EQ(sim::to_string(parse("network.o_s=600,typical")), "typical");
  // Not a preset: every non-zero cost, intra-node then network, keys o_s, O_s, o_r, O_r, g.
  EXPECT_EQ(sim::to_string(parse("network.g=6,intra-node.O_r=0.25,network.o_s=4")),
            "intra-node.O_r=0.25,network.o_s=4,network.g=6");
  const std::string all =
      "intra-node.o_s=1,intra-node.O_s=0.5,intra-node.o_r=2,intra-node.O_r=0.25,intra-node.g=3,"
      "network.o_s=4,network.O_s=0.125,network.o_r=5,network.O_r=1.5,network.g=6";
  EXPECT_EQ(sim::to_string(parse(all)), all);
  // A preset modified is no longer the preset: printed key by key.
  const auto modified = sim::to_string(parse("typical,network.o_s=600"));
  EXPECT_NE(modified, "typical");
  EXPECT_TRUE(contains(modified, "network.o_s=600")) << modified;
  EXPECT_FALSE(contains(modified, "typical")) << modified;
}

TEST(OverheadsSpec, ToStringRoundTrips) {
  for (const std::string_view spec :
       {"none", "typical", "typical,network.o_s=600", "network.O_s=0.1", "intra-node.g=1e9",
        "network.o_r=0.001,network.O_r=1e-05", "intra-node.o_s=123.456,network.O_s=0.3",
        "network.o_s=1.2345", "typical,intra-node.O_r=2.5,network.g=0"}) {
    const auto o = parse(spec);
    EXPECT_EQ(parse(sim::to_string(o)), o) << spec << " -> " << sim::to_string(o);
  }
}

TEST(OverheadsSpec, ChannelNames) {
  EXPECT_EQ(sim::name(Channel::IntraNode), "intra-node");
  EXPECT_EQ(sim::name(Channel::Network), "network");
}

TEST(OverheadsSpec, BadSpecsThrowNamingWhereAndTheItem) {
  // Empty spec: names `where`.
  const auto empty = parse_error("");
  EXPECT_TRUE(contains(empty, "mpi.overheads")) << empty;
  EXPECT_TRUE(contains(empty, "empty")) << empty;
  struct Bad {
    std::string_view spec;
    std::string_view item;  // what the message must quote
  };
  for (const auto& bad : std::vector<Bad>{
           {"fast", "fast"},                                      // unknown preset
           {"Typical", "Typical"},                                // presets are lower case
           {"typical,", "''"},                                    // an empty item
           {",none", "''"},                                       // an empty item
           {"network", "network"},                                // neither preset nor key
           {"infiniband.o_s=3", "infiniband.o_s=3"},              // unknown channel
           {"Network.o_s=3", "Network.o_s=3"},                    // unknown channel
           {"network.o_x=3", "network.o_x=3"},                    // unknown key
           {"network.L=3", "network.L=3"},                        // unknown key
           {"network.o_S=3", "network.o_S=3"},                    // unknown key (case)
           {"network.o_s", "network.o_s"},                        // missing '='
           {"typical,intra-node.g", "intra-node.g"},              // missing '='
           {"o_s=3", "o_s=3"},                                    // missing channel
           {"network.o_s=-1", "network.o_s=-1"},                  // negative
           {"intra-node.O_r=-0.5", "intra-node.O_r=-0.5"},        // negative
           {"network.o_s=abc", "network.o_s=abc"},                // non-numeric
           {"network.o_s=12ns", "network.o_s=12ns"},              // non-numeric
           {"network.g=", "network.g="},                          // no value
           {"network.g=nan", "network.g=nan"},                    // not finite
           {"network.g=inf", "network.g=inf"},                    // not finite
           {"network.g=1e9,network.g=1.5e9", "network.g=1.5e9"},  // above 1e9 ns
           {"intra-node.O_s=2e9", "intra-node.O_s=2e9"},          // above 1e9 ns per byte
       }) {
    const auto message = parse_error(bad.spec);
    EXPECT_FALSE(message.empty()) << bad.spec << " was accepted";
    EXPECT_TRUE(contains(message, "mpi.overheads")) << bad.spec << ": " << message;
    EXPECT_TRUE(contains(message, bad.item)) << bad.spec << ": " << message;
  }
  // The limit itself is accepted: 1e9 ns = 1 s.
  EXPECT_EQ(parse("network.g=1e9").of(Channel::Network).gap, sim::kPicosecondsPerSecond);
  EXPECT_EQ(parse("network.O_s=1e9").of(Channel::Network).send_ns_per_byte, 1e9);
  // `where` is whatever the caller names.
  EXPECT_TRUE(contains(parse_error("fast", "--overheads"), "--overheads"));
}

// ---------------------------------------------------------------------------------------------
// Replay

/// Sends, receives, Isend / Irecv / Wait, compute gaps, a rendezvous message and collectives,
/// on 4 ranks.
traces::Trace mixed_trace() {
  TraceBuilder b(4);
  b.send(0, 1, 100, 1, 2 * kUs).isend(0, 2, 200'000, 7, 2).recv(0, 3, 50, 3).wait(0, 7);
  b.recv(1, 0, 100, 1).irecv(1, 3, 300, 4, 4).send(1, 2, 10, 5, kUs).wait(1, 4);
  b.irecv(2, 0, 200'000, 9, 2).recv(2, 1, 10, 5).wait(2, 9, 3 * kUs);
  b.send(3, 0, 50, 3).send(3, 1, 300, 4, 500 * kNs);
  b.all(CollectiveOp::Allreduce, -1, 4 * 64, 4 * 64);
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  for (Rank r = 0; r < 4; ++r) b.collective(r, CollectiveOp::Bcast, 1, r == 1 ? 4 * 500 : 0, 500);
  return b.trace();
}

TEST(OverheadsReplay, NoneReplaysExactlyAsBefore) {
  const auto trace = mixed_trace();
  // Ranks 0, 1 share node 0 (intra-node channel); 2 and 3 are on other nodes.
  const std::vector<topo::NodeId> nodes{0, 0, 1, 5};
  for (const auto& model : kModels) {
    sim::SimConfig plain;
    plain.model = model;
    const auto expected = run(trace, "torus:4x4x4:cores=2", nodes, plain);
    EXPECT_GT(expected.makespan, 0) << model;
    for (const std::string_view spec : {"none", "network.g=5,none", "typical,none"}) {
      SCOPED_TRACE(model + " with " + std::string(spec));
      const auto r = run(trace, "torus:4x4x4:cores=2", nodes, with_overheads(plain, spec));
      expect_same_result(r, expected);
    }
  }
}

TEST(OverheadsReplay, CostsOnAChannelNobodyUsesChangeNothing) {
  // One rank per node: every message is a network one, so intra-node costs never apply; the
  // overheads' code paths run with zero costs and must give the very same replay.
  const auto trace = mixed_trace();
  const std::vector<topo::NodeId> nodes{0, 1, 6, 21};
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto config = round_config(model);
    const auto expected = run(trace, "torus:4x4x4", nodes, config);
    const auto r = run(trace, "torus:4x4x4", nodes,
                       with_overheads(config,
                                      "intra-node.o_s=300,intra-node.O_s=2,intra-node.o_r=400,"
                                      "intra-node.O_r=3,intra-node.g=5000"));
    expect_same_result(r, expected);
  }
}

// Distinct costs per channel, so that charging the wrong channel shows.
constexpr std::string_view kTwoChannels =
    "intra-node.o_s=30,intra-node.O_s=0.25,intra-node.o_r=70,intra-node.O_r=0.125,"
    "intra-node.g=10,network.o_s=300,network.O_s=0.5,network.o_r=700,network.O_r=0.375,"
    "network.g=20";

TEST(OverheadsReplay, RunningAheadChangesNoResult) {
  // A rank whose CPU is busy with overheads executes its next sends, receives and Waits at once
  // (SimConfig::run_ahead): every result is that of executing them when its CPU is free, eager
  // and rendezvous alike (the clear-to-send waits for the receive's posting), on both channels;
  // only the engine events are fewer.
  const auto mixed = mixed_trace();
  const auto exchange = random_exchange(8, 4, 11);
  for (const auto& model : {"analytic", "flow"}) {
    for (const std::int64_t eager : {std::int64_t{65536}, std::int64_t{1024}, std::int64_t{0}}) {
      for (const std::string_view costs : {kTwoChannels, std::string_view("typical")}) {
        SCOPED_TRACE(fmt::format("{}, eager threshold {}, {}", model, eager, costs));
        auto config = with_overheads(round_config(model), costs);
        config.eager_threshold = eager;
        auto step_by_step = config;
        step_by_step.run_ahead = false;
        const auto check = [&](const traces::Trace& trace, const std::string& spec,
                               std::vector<topo::NodeId> nodes) {
          auto ahead = run(trace, spec, nodes, config);
          const auto expected = run(trace, spec, nodes, step_by_step);
          EXPECT_LE(ahead.engine_events, expected.engine_events);
          ahead.engine_events = expected.engine_events;
          expect_same_result(ahead, expected);
        };
        check(mixed, "torus:4x4x4:cores=2", {0, 0, 1, 5});
        check(exchange, "torus:4x4:cores=2", {0, 0, 1, 1, 5, 5, 6, 9});
      }
    }
  }
}

TEST(OverheadsReplay, LoneEagerMessageTakesSendOverheadLatencyReceiveOverhead) {
  constexpr std::int64_t n = 1000;  // bytes, eager
  TraceBuilder b(2);
  b.send(0, 1, n);
  b.recv(1, 0, n);
  struct Case {
    const char* channel;
    std::vector<topo::NodeId> nodes;
    Time hand_l;  // the message's network time from the round links
    Time o_s;     // o_s + O_s n
    Time o_r;     // o_r + O_r n
  };
  const Case cases[] = {
      // Nodes 0 and 1: one hop, 100 + 1000 ns. 300 + 0.5 x 1000 ns; 700 + 0.375 x 1000 ns.
      {"network", {0, 1}, (100 + n) * kNs, (300 + n / 2) * kNs, (700 + n * 3 / 8) * kNs},
      // Both on node 5: 200 + 1000 ns. 30 + 0.25 x 1000 ns; 70 + 0.125 x 1000 ns.
      {"intra-node", {5, 5}, (200 + n) * kNs, (30 + n / 4) * kNs, (70 + n / 8) * kNs},
  };
  for (const auto& model : {"analytic", "flow"}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(model) + ", " + c.channel);
      const auto config = round_config(model);
      const auto none = run(b.trace(), "torus:4x4x4:cores=2", c.nodes, config);
      const Time l = none.rank_finish[1];  // sent at 0 to a rank waiting for it
      EXPECT_EQ(l, c.hand_l);
      EXPECT_EQ(none.rank_finish[0], 0);  // an eager send returns at once
      const auto r =
          run(b.trace(), "torus:4x4x4:cores=2", c.nodes, with_overheads(config, kTwoChannels));
      EXPECT_EQ(r.rank_finish[0], c.o_s);              // the sender's CPU, then done
      EXPECT_EQ(r.rank_finish[1], c.o_s + l + c.o_r);  // o_s + L + o_r end to end
      // The overheads are the ranks' time, not the network's: the message still takes L.
      EXPECT_EQ(r.latency.count(), 1U);
      EXPECT_EQ(r.latency.max(), l);
      EXPECT_EQ(r.rank_mpi_time[1], c.o_s + l + c.o_r);
    }
  }
}

TEST(OverheadsReplay, TypicalLoneMessage) {
  // The preset on one small network message: 400 ns + (100 + 8) ns + 400 ns.
  TraceBuilder b(2);
  b.send(0, 1, 8).recv(1, 0, 8);
  const auto config = round_config("analytic");
  const auto typical = sim::typical_overheads().of(Channel::Network);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, "typical"));
  EXPECT_EQ(r.rank_finish[1], typical.send + 108 * kNs + typical.receive);
  EXPECT_EQ(r.rank_finish[0], typical.send);
}

/// Rank 0 (node 0) sends a small message to each of ranks 1..4, on four neighbours of node 0
/// (one hop each): receiver j's finish time tells when message j entered the network.
constexpr std::int64_t kSmall = 8;
const std::vector<topo::NodeId> kStar{0, 1, 4, 16, 3};

TEST(OverheadsReplay, OverheadBoundBurstInjectsOneMessagePerSendOverhead) {
  // o_s = 500 ns, g = 200 ns <= o_s: the sender's CPU paces the burst.
  constexpr Time o_s = 500 * kNs;
  constexpr Time o_r = 300 * kNs;
  const std::string spec = "network.o_s=500,network.o_r=300,network.g=200";
  TraceBuilder b(5);
  for (Rank j = 1; j <= 4; ++j) b.isend(0, j, kSmall, static_cast<std::uint32_t>(j), j);
  for (Rank j = 1; j <= 4; ++j) b.wait(0, static_cast<std::uint32_t>(j));
  for (Rank j = 1; j <= 4; ++j) b.recv(j, 0, kSmall, j);
  const auto config = round_config("analytic");
  const auto none = run(b.trace(), "torus:4x4x4", kStar, config);
  const auto r = run(b.trace(), "torus:4x4x4", kStar, with_overheads(config, spec));
  // Four Isends back to back: the sender's CPU is busy for 4 x 500 ns; the Waits on eager
  // (buffered) sends find them complete.
  EXPECT_EQ(r.rank_finish[0], 4 * o_s);
  for (Rank j = 1; j <= 4; ++j) {
    const auto at = static_cast<std::size_t>(j);
    const Time l = none.rank_finish[at];
    EXPECT_EQ(l, (100 + kSmall) * kNs) << j;
    // Message j enters the network at j o_s (after the j-th o_s), arrives L later, costs o_r.
    EXPECT_EQ(r.rank_finish[at], j * o_s + l + o_r) << j;
  }
}

TEST(OverheadsReplay, BurstOfBlockingSendsToOneReceiver) {
  // k blocking eager Sends to one rank: the sender is free after k o_s; message j enters at j o_s.
  constexpr int k = 5;
  TraceBuilder b(2);
  for (int j = 0; j < k; ++j) b.send(0, 1, kSmall).recv(1, 0, kSmall);
  const auto config = round_config("analytic");
  const auto none = run(b.trace(), "torus:4x4x4", {0, 1}, config);
  const Time l = none.latency.max();  // every message alone on its route: 100 + 8 ns
  EXPECT_EQ(l, (100 + kSmall) * kNs);
  {
    // Receiver keeps up (o_r = 250 ns <= o_s = 400 ns): it takes the last message, which
    // entered at k o_s, L + o_r later.
    constexpr Time o_s = 400 * kNs;
    constexpr Time o_r = 250 * kNs;
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1},
                       with_overheads(config, "network.o_s=400,network.o_r=250,network.g=400"));
    EXPECT_EQ(r.rank_finish[0], k * o_s);
    EXPECT_EQ(r.rank_finish[1], k * o_s + l + o_r);
  }
  {
    // Receiver-bound (o_r = 900 ns > o_s = 400 ns): receptions have no gap, but each costs o_r
    // of the receiver's CPU, one after the other from the first arrival at o_s + L.
    constexpr Time o_s = 400 * kNs;
    constexpr Time o_r = 900 * kNs;
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1},
                       with_overheads(config, "network.o_s=400,network.o_r=900"));
    EXPECT_EQ(r.rank_finish[0], k * o_s);
    EXPECT_EQ(r.rank_finish[1], o_s + l + k * o_r);
  }
}

TEST(OverheadsReplay, GapLimitsInjectionButNotTheSendersCpu) {
  // g = 700 ns > o_s = 200 ns: message j (1-based) enters at o_s + (j - 1) g, while the sender's
  // CPU is free after 4 o_s = 800 ns, long before the last injection at 200 + 3 x 700 = 2300 ns.
  constexpr Time o_s = 200 * kNs;
  constexpr Time o_r = 100 * kNs;
  constexpr Time g = 700 * kNs;
  const std::string spec = "network.o_s=200,network.o_r=100,network.g=700";
  for (const bool blocking : {true, false}) {
    SCOPED_TRACE(blocking ? "Send" : "Isend + Wait");
    TraceBuilder b(5);
    for (Rank j = 1; j <= 4; ++j) {
      if (blocking) {
        b.send(0, j, kSmall, j);
      } else {
        b.isend(0, j, kSmall, static_cast<std::uint32_t>(j), j);
      }
    }
    // An eager send is complete once its o_s is paid, before it enters the network.
    if (!blocking)
      for (Rank j = 1; j <= 4; ++j) b.wait(0, static_cast<std::uint32_t>(j));
    for (Rank j = 1; j <= 4; ++j) b.recv(j, 0, kSmall, j);
    const auto config = round_config("analytic");
    const auto none = run(b.trace(), "torus:4x4x4", kStar, config);
    const auto r = run(b.trace(), "torus:4x4x4", kStar, with_overheads(config, spec));
    EXPECT_EQ(r.rank_finish[0], 4 * o_s);
    for (Rank j = 1; j <= 4; ++j) {
      const auto at = static_cast<std::size_t>(j);
      const Time l = none.rank_finish[at];
      EXPECT_EQ(r.rank_finish[at], o_s + (j - 1) * g + l + o_r) << j;
    }
  }
}

TEST(OverheadsReplay, GapIsPerChannel) {
  // Rank 0 (node 0) sends twice to rank 1 (node 1, network), then once to rank 2 (node 0,
  // intra-node). o_s = 100 ns and g = 1000 ns on both channels; o_r = 50 ns on both.
  constexpr Time o_s = 100 * kNs;
  constexpr Time o_r = 50 * kNs;
  constexpr Time g = 1000 * kNs;
  TraceBuilder b(3);
  b.send(0, 1, kSmall, 1).send(0, 1, kSmall, 2).send(0, 2, kSmall, 3);
  b.recv(1, 0, kSmall, 1).recv(1, 0, kSmall, 2);
  b.recv(2, 0, kSmall, 3);
  const std::vector<topo::NodeId> nodes{0, 1, 0};
  const auto config = round_config("analytic");
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", nodes,
                     with_overheads(config,
                                    "intra-node.o_s=100,intra-node.o_r=50,intra-node.g=1000,"
                                    "network.o_s=100,network.o_r=50,network.g=1000"));
  const Time network_l = (100 + kSmall) * kNs;  // one hop
  const Time intra_l = (200 + kSmall) * kNs;    // the node's channel
  // Network: the first enters at o_s = 100 ns, the second at max(2 o_s, o_s + g) = 1100 ns.
  // Rank 1 took the first at 100 + 108 + 50 ns, long before the second arrives.
  EXPECT_EQ(r.rank_finish[1], o_s + g + network_l + o_r);
  // Intra-node: its channel has had no injection yet, so the third enters at 3 o_s = 300 ns,
  // not behind the network's gap.
  EXPECT_EQ(r.rank_finish[2], 3 * o_s + intra_l + o_r);
  EXPECT_EQ(r.rank_finish[0], 3 * o_s);
}

TEST(OverheadsReplay, ReceiveOverheadOfABackgroundIrecvIsChargedAtItsWait) {
  constexpr std::int64_t n = 1000;
  constexpr Time o_s = 300 * kNs;
  constexpr Time o_r = 700 * kNs + n * kNs * 3 / 8;  // 700 + 0.375 x 1000 ns
  const std::string spec = "network.o_s=300,network.o_r=700,network.O_r=0.375";
  const auto config = round_config("flow");
  const Time l = (100 + n) * kNs;  // one hop
  {
    // The message has arrived (at o_s + L = 1400 ns) long before the Wait, after 10 us of
    // computation: the rank pays o_r there, finishing at 10 us + o_r, not at 10 us.
    constexpr Time compute = 10 * kUs;
    TraceBuilder b(2);
    b.send(0, 1, n);
    b.irecv(1, 0, n, 1).wait(1, 1, compute);
    const auto none = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(none.rank_finish[1], compute);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
    EXPECT_EQ(r.rank_finish[1], compute + o_r);
    EXPECT_EQ(r.rank_mpi_time[1], o_r);  // MPI time excludes the computation
  }
  {
    // The same with a blocking Recv after the computation: the message is there, o_r is paid.
    constexpr Time compute = 10 * kUs;
    TraceBuilder b(2);
    b.send(0, 1, n);
    b.recv(1, 0, n, 0, compute);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
    EXPECT_EQ(r.rank_finish[1], compute + o_r);
  }
  {
    // The Wait comes first (after 500 ns): the rank blocks, and resumes o_r after the arrival.
    constexpr Time compute = 500 * kNs;
    TraceBuilder b(2);
    b.send(0, 1, n);
    b.irecv(1, 0, n, 1).wait(1, 1, compute);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
    EXPECT_EQ(r.rank_finish[1], o_s + l + o_r);
  }
  {
    // The receive overhead is charged once: Irecv, computation, Wait, then more computation.
    constexpr Time compute = 10 * kUs;
    TraceBuilder b(2);
    b.send(0, 1, n);
    b.irecv(1, 0, n, 1).wait(1, 1, compute).final_gap(1, compute);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
    EXPECT_EQ(r.rank_finish[1], compute + o_r + compute);
  }
}

TEST(OverheadsReplay, SendOverheadDelaysTheRanksNextComputation) {
  // After a Send the rank's CPU is busy for o_s; its next computation starts only then.
  constexpr Time o_s = 300 * kNs;
  constexpr Time compute = 2 * kUs;
  TraceBuilder b(2);
  b.send(0, 1, kSmall).final_gap(0, compute);
  b.recv(1, 0, kSmall);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1},
                     with_overheads(round_config("analytic"), "network.o_s=300"));
  EXPECT_EQ(r.rank_finish[0], o_s + compute);
  EXPECT_EQ(r.rank_finish[1], o_s + (100 + kSmall) * kNs);
}

TEST(OverheadsReplay, TwoRankCollectivesPayOneSendAndOneReceiveOverheadPerStep) {
  // Network costs with per-byte terms; ranks on nodes 0 and 1 (one hop).
  const std::string spec = "network.o_s=300,network.O_s=0.5,network.o_r=200,network.O_r=0.25";
  const auto config = round_config("analytic");
  {
    // Barrier of 2: one dissemination step, each member sends 0 bytes to the other and receives
    // 0 bytes from it: o_s + L + o_r = 300 + 100 + 200 ns.
    TraceBuilder b(2);
    b.all(CollectiveOp::Barrier, -1, 0, 0);
    const auto none = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(none.makespan, 100 * kNs);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
    for (const auto finish : r.rank_finish) EXPECT_EQ(finish, (300 + 100 + 200) * kNs);
    EXPECT_EQ(r.collective_messages, 2U);
  }
  {
    // Allreduce of b = 400 B (recorded as sent P b = 800 B) on 2: one recursive-doubling
    // exchange of 400 B: o_s(400) + L(400) + o_r(400)
    // = (300 + 0.5 x 400) + (100 + 400) + (200 + 0.25 x 400) = 500 + 500 + 300 ns.
    TraceBuilder b(2);
    b.all(CollectiveOp::Allreduce, -1, 2 * 400, 2 * 400);
    const auto none = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(none.makespan, 500 * kNs);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
    for (const auto finish : r.rank_finish) EXPECT_EQ(finish, (500 + 500 + 300) * kNs);
    EXPECT_EQ(r.collective_messages, 2U);
  }
}

TEST(OverheadsReplay, DisseminationBarrierOfFourPaysEveryRound) {
  // Four ranks on node 0 (intra-node: 200 ns per 0-byte message); two dissemination rounds, each
  // o_s + L + o_r = 60 + 200 + 90 = 350 ns: 700 ns. The gap (40 ns) never binds: a member's
  // second send comes 350 ns after its first.
  TraceBuilder b(4);
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  const std::vector<topo::NodeId> nodes(4, 0);
  const auto config = round_config("analytic");
  const auto none = run(b.trace(), "torus:4x4x4:cores=4", nodes, config);
  EXPECT_EQ(none.makespan, 2 * 200 * kNs);
  const auto r = run(b.trace(), "torus:4x4x4:cores=4", nodes,
                     with_overheads(config, "intra-node.o_s=60,intra-node.o_r=90,intra-node.g=40"));
  for (const auto finish : r.rank_finish) EXPECT_EQ(finish, 2 * (60 + 200 + 90) * kNs);
}

TEST(OverheadsReplay, BroadcastRootPaysOneSendOverheadPerChild) {
  // Binomial broadcast of b = 100 B from rank 0 on 4 ranks of node 0 (L = 200 + 100 ns): the root
  // sends to rank 2, then to rank 1; rank 2 forwards to rank 3.
  constexpr Time o_s = 150 * kNs;
  constexpr Time o_r = 80 * kNs;
  constexpr Time l = 300 * kNs;
  TraceBuilder b(4);
  for (Rank r = 0; r < 4; ++r) b.collective(r, CollectiveOp::Bcast, 0, r == 0 ? 4 * 100 : 0, 100);
  const std::vector<topo::NodeId> nodes(4, 0);
  const auto config = round_config("analytic");
  const auto none = run(b.trace(), "torus:4x4x4:cores=4", nodes, config);
  EXPECT_EQ(none.rank_finish, (std::vector<Time>{0, l, l, 2 * l}));
  const auto r = run(b.trace(), "torus:4x4x4:cores=4", nodes,
                     with_overheads(config, "intra-node.o_s=150,intra-node.o_r=80"));
  // Root: two sends back to back, 2 o_s.
  EXPECT_EQ(r.rank_finish[0], 2 * o_s);
  // Rank 2: its message entered at o_s; it pays o_r, then o_s to forward to rank 3.
  EXPECT_EQ(r.rank_finish[2], o_s + l + o_r + o_s);
  // Rank 1: the root's second message entered at 2 o_s.
  EXPECT_EQ(r.rank_finish[1], 2 * o_s + l + o_r);
  // Rank 3: rank 2's message entered at o_s + l + o_r + o_s.
  EXPECT_EQ(r.rank_finish[3], 2 * o_s + 2 * l + 2 * o_r);
}

TEST(OverheadsReplay, RendezvousChargesTheSendOverheadOnceBeforeTheRequestToSend) {
  // 4000 B above an eager threshold of 1000 B. o_s(4000) = 300 + 0.25 x 4000 = 1300 ns,
  // o_r(4000) = 200 + 0.125 x 4000 = 700 ns. A large gap (20 us) would show if the clear-to-send
  // or the data counted as injections; they do not.
  constexpr std::int64_t n = 4000;
  constexpr Time o_s = (300 + n / 4) * kNs;
  constexpr Time o_r = (200 + n / 8) * kNs;
  const std::string spec =
      "network.o_s=300,network.O_s=0.25,network.o_r=200,network.O_r=0.125,network.g=20000";
  for (const auto& model : {"analytic", "flow"}) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    config.eager_threshold = 1000;
    {
      // Both ranks wait from 0. Without overheads: RTS 100 ns, CTS 100 ns, data 100 + 4000 ns.
      TraceBuilder b(2);
      b.send(0, 1, n);
      b.recv(1, 0, n);
      const auto none = run(b.trace(), "torus:4x4x4", {0, 1}, config);
      const Time rendezvous = none.rank_finish[1];
      EXPECT_EQ(rendezvous, (100 + 100 + 100 + n) * kNs);
      EXPECT_EQ(none.rank_finish[0], rendezvous);
      const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
      // The RTS enters after o_s; the handshake and the data then run as before; the sender
      // completes with the data, the receiver pays o_r.
      EXPECT_EQ(r.rank_finish[0], o_s + rendezvous);
      EXPECT_EQ(r.rank_finish[1], o_s + rendezvous + o_r);
      EXPECT_EQ(r.latency.max(), (100 + n) * kNs);  // the data's own time is unchanged
    }
    {
      // The receiver posts an Irecv at 0 and computes 20 us before its Wait: the RTS (in at
      // o_s + 100 ns) is answered at once, the data arrives at o_s + 4300 ns, and o_r is paid
      // at the Wait.
      constexpr Time compute = 20 * kUs;
      TraceBuilder b(2);
      b.send(0, 1, n);
      b.irecv(1, 0, n, 1).wait(1, 1, compute);
      const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
      EXPECT_EQ(r.rank_finish[0], o_s + (100 + 100 + 100 + n) * kNs);
      EXPECT_EQ(r.rank_finish[1], compute + o_r);
    }
    {
      // The receiver posts late (blocking Recv after 20 us): the sender's o_s is long over; the
      // CTS leaves when the receive is posted and costs the receiver nothing: the receiver
      // finishes o_r after the replay without overheads does, the sender exactly when it does.
      constexpr Time compute = 20 * kUs;
      TraceBuilder b(2);
      b.send(0, 1, n);
      b.recv(1, 0, n, 0, compute);
      const auto none = run(b.trace(), "torus:4x4x4", {0, 1}, config);
      EXPECT_EQ(none.rank_finish[1], compute + (100 + 100 + n) * kNs);  // CTS, data
      const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, spec));
      EXPECT_EQ(r.rank_finish[0], none.rank_finish[0]);
      EXPECT_EQ(r.rank_finish[1], none.rank_finish[1] + o_r);
    }
  }
}

TEST(OverheadsReplay, ClearToSendCostsTheReceiverNoCpu) {
  // Rank 1 (node 1) posts an Irecv of 4000 B from rank 0 (node 0; rendezvous), then waits in a
  // Recv for 8 B from rank 2 (node 2) and echoes them back. The RTS reaches rank 1 at
  // o_s + 100 = 400 ns and is answered at once; rank 2's message arrives at o_s + 108 = 408 ns.
  // Had the CTS cost rank 1 CPU time, its Recv would complete later than 408 + o_r.
  constexpr std::int64_t n = 4000;
  constexpr Time o_s = 300 * kNs;
  constexpr Time o_r = 200 * kNs;
  constexpr Time l = (100 + kSmall) * kNs;  // one hop
  TraceBuilder b(3);
  b.send(0, 1, n, 1);
  b.irecv(1, 0, n, 1, 1).recv(1, 2, kSmall, 2).send(1, 2, kSmall, 3).wait(1, 1);
  b.send(2, 1, kSmall, 2).recv(2, 1, kSmall, 3);
  auto config = round_config("analytic");
  config.eager_threshold = 1000;
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1, 2},
                     with_overheads(config, "network.o_s=300,network.o_r=200"));
  // Rank 2: its message in (o_s + L), rank 1 takes it (o_r) and echoes it (o_s + L), then o_r.
  EXPECT_EQ(r.rank_finish[2], 2 * (o_s + l + o_r));
  // Rank 0: RTS in at o_s + 100, CTS back 100 ns later, then the data's 100 + 4000 ns.
  EXPECT_EQ(r.rank_finish[0], o_s + (100 + 100 + 100 + n) * kNs);
  // Rank 1 takes the data then.
  EXPECT_EQ(r.rank_finish[1], r.rank_finish[0] + o_r);
}

TEST(OverheadsReplay, RequestToSendCountsAsAnInjection) {
  // Rank 0 Isends 4000 B (rendezvous) to rank 1, then Sends 8 B eagerly to rank 2; g = 2000 ns.
  // The RTS enters at o_s = 300 ns, so the eager message waits for the gap: it enters at
  // max(2 o_s, o_s + g) = 2300 ns. The rendezvous data itself is not held back by the gap.
  constexpr std::int64_t n = 4000;
  constexpr Time o_s = 300 * kNs;
  constexpr Time o_r = 200 * kNs;
  constexpr Time g = 2000 * kNs;
  TraceBuilder b(3);
  b.isend(0, 1, n, 1, 1).send(0, 2, kSmall, 2).wait(0, 1);
  b.recv(1, 0, n, 1);
  b.recv(2, 0, kSmall, 2);
  auto config = round_config("analytic");
  config.eager_threshold = 1000;
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1, 4},
                     with_overheads(config, "network.o_s=300,network.o_r=200,network.g=2000"));
  EXPECT_EQ(r.rank_finish[2], o_s + g + (100 + kSmall) * kNs + o_r);  // node 4: one hop
  // RTS in at 400 ns, CTS back at 500 ns, data in at 500 + 4100 ns.
  EXPECT_EQ(r.rank_finish[1], o_s + (100 + 100 + 100 + n) * kNs + o_r);
  EXPECT_EQ(r.rank_finish[0], o_s + (100 + 100 + 100 + n) * kNs);
}

TEST(OverheadsReplay, RendezvousIsendFreesTheSenderAfterItsOverhead) {
  // An Isend of a rendezvous message costs o_s at once; the rank computes meanwhile, and its Wait
  // returns when the data has arrived. o_s = 300 ns, then 1 us of computation before the Wait,
  // which lasts until o_s + RTS + CTS + data = 300 + 100 + 100 + 100 + 4000 ns.
  constexpr std::int64_t n = 4000;
  constexpr Time o_s = 300 * kNs;
  auto config = round_config("analytic");
  config.eager_threshold = 1000;
  {
    TraceBuilder b(2);
    b.isend(0, 1, n, 1).wait(0, 1, kUs);
    b.recv(1, 0, n);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, "network.o_s=300"));
    EXPECT_EQ(r.rank_finish[0], o_s + (100 + 100 + 100 + n) * kNs);
  }
  {
    // With 10 us of computation, the data is long in when the Wait comes: o_s + 10 us (the
    // computation starts only after o_s), and a completed send costs nothing at its Wait.
    TraceBuilder b(2);
    b.isend(0, 1, n, 1).wait(0, 1, 10 * kUs);
    b.recv(1, 0, n);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(config, "network.o_s=300"));
    EXPECT_EQ(r.rank_finish[0], o_s + 10 * kUs);
  }
}

TEST(OverheadsReplay, SameConfigTwiceGivesTheSameResult) {
  const auto trace = random_exchange(16, 4, 5);
  std::vector<topo::NodeId> nodes;
  for (topo::NodeId n = 0; n < 8; ++n) nodes.insert(nodes.end(), {n, n});  // two ranks a node
  for (const auto& model : kModels) {
    for (const auto spec : std::vector<std::string_view>{"typical", kTwoChannels}) {
      SCOPED_TRACE(model + " with " + std::string(spec));
      const auto config = with_overheads(round_config(model), spec);
      const auto a = run(trace, "torus:4x4x4:cores=2", nodes, config);
      const auto b = run(trace, "torus:4x4x4:cores=2", nodes, config);
      expect_same_result(a, b);
      EXPECT_EQ(a.unmatched_messages, 0U);
      // Without contention the overheads only add time: every rank finishes later.
      if (model == "analytic") {
        const auto none = run(trace, "torus:4x4x4:cores=2", nodes, round_config(model));
        for (std::size_t r = 0; r < nodes.size(); ++r)
          EXPECT_GT(a.rank_finish[r], none.rank_finish[r]) << r;
      }
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
