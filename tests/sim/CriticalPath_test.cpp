// The critical path of a replay (sim/Result.hpp, CriticalPath), solved by hand: which chain of
// computation, overheads and messages ends at the makespan, and how each message on it splits
// into latency (the route's), bandwidth (bytes over the bottleneck) and contention (the rest of
// its transfer time). Most cases use the round links of SimTestSupport.hpp (one torus hop:
// 100 ns + 1 ns per byte; the intra-node channel: 200 ns + 1 ns per byte); the first uses the
// default link classes of topologies/LinkClass.cpp. Then the invariants on whole workloads:
// the parts add up to the makespan exactly under every model, with and without overheads.

#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "RandomExchange.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/Overheads.hpp"
#include "traces/TraceReader.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::testing {
namespace {

using sim::Channel;
using sim::CriticalPath;
using sim::Time;
using traces::CollectiveOp;

/// Every part of the path is >= 0 and they add up to the makespan.
void expect_adds_up(const sim::Result& r) {
  const auto& p = r.critical_path;
  EXPECT_GE(p.compute, 0);
  EXPECT_GE(p.overhead, 0);
  EXPECT_GE(p.latency, 0);
  EXPECT_GE(p.bandwidth, 0);
  EXPECT_GE(p.contention, 0);
  EXPECT_GE(p.waiting, 0);
  EXPECT_EQ(p.total(), r.makespan);
}

/// The critical path's transfers as (src, dst, bytes), first to last.
std::vector<std::array<std::int64_t, 3>> transfers(const sim::Result& r) {
  std::vector<std::array<std::int64_t, 3>> list;
  for (const auto& m : r.critical_messages) list.push_back({m.src, m.dst, m.bytes});
  return list;
}

void expect_path(const CriticalPath& actual, const CriticalPath& expected) {
  EXPECT_EQ(actual.compute, expected.compute);
  EXPECT_EQ(actual.overhead, expected.overhead);
  EXPECT_EQ(actual.latency, expected.latency);
  EXPECT_EQ(actual.bandwidth, expected.bandwidth);
  EXPECT_EQ(actual.contention, expected.contention);
  EXPECT_EQ(actual.waiting, expected.waiting);
  EXPECT_EQ(actual.messages, expected.messages);
}

sim::SimConfig with_overheads(sim::SimConfig config, std::string_view spec) {
  config.overheads = sim::parse_overheads(spec, "--overheads");
  return config;
}

// ---------------------------------------------------------------------------------------------
// Point-to-point messages

TEST(CriticalPath, EagerMessageAfterComputeIsComputeLatencyBandwidth) {
  // Rank 0 (node 0) computes 5 us, then sends 1000 B eagerly to rank 1 on node 1, the next node
  // of the torus: one grid link, by default 25 GB/s and 100 ns. The message takes
  // 100 ns + 1000 B / 25 GB/s = 100 + 40 ns alone under every model (cut-through packets on
  // one hop included). Rank 1 finishes last at 5 us + 140 ns; its path is rank 0's computation
  // and the message.
  constexpr Time gap = 5 * kUs;
  TraceBuilder b(2);
  b.send(0, 1, 1000, 0, gap);
  b.recv(1, 0, 1000);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    sim::SimConfig config;
    config.model = model;
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(r.makespan, gap + 140 * kNs);
    expect_path(r.critical_path, {.compute = gap,
                                  .latency = 100 * kNs,
                                  .bandwidth = 40 * kNs,
                                  .contention = 0,
                                  .waiting = 0,
                                  .messages = 1});
    expect_adds_up(r);
  }
}

TEST(CriticalPath, ComputeIsTheScaledGaps) {
  // The same message after 4 us recorded, replayed at compute scale 0.25: 1 us of computation,
  // then 100 + 1000 ns on the round links.
  TraceBuilder b(2);
  b.send(0, 1, 1000, 0, 4 * kUs);
  b.recv(1, 0, 1000);
  auto config = round_config("flow");
  config.compute_scale = 0.25;
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
  EXPECT_EQ(r.makespan, 1 * kUs + 1100 * kNs);
  expect_path(r.critical_path,
              {.compute = 1 * kUs, .latency = 100 * kNs, .bandwidth = 1000 * kNs, .messages = 1});
}

TEST(CriticalPath, ReceiverComputingLongerKeepsItsOwnPath) {
  // Rank 0 computes 1 us and sends 1000 B (arriving at 1 us + 1100 ns); rank 1 computes 10 us
  // before it posts the receive, which completes at once. Rank 1 finishes last at 10 us, having
  // never waited: its path is its own 10 us of computation, without the message or rank 0's
  // computation.
  for (const bool blocking : {true, false}) {
    SCOPED_TRACE(blocking ? "Recv" : "Irecv + Wait");
    TraceBuilder b(2);
    b.send(0, 1, 1000, 0, 1 * kUs);
    if (blocking) {
      b.recv(1, 0, 1000, 0, 10 * kUs);
    } else {
      b.irecv(1, 0, 1000, 7).wait(1, 7, 10 * kUs);  // the Wait after 10 us
    }
    for (const auto& model : kModels) {
      SCOPED_TRACE(model);
      const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config(model));
      EXPECT_EQ(r.makespan, 10 * kUs);
      expect_path(r.critical_path, {.compute = 10 * kUs, .messages = 0});
    }
  }
}

TEST(CriticalPath, ChainOfMessagesThroughThreeRanks) {
  // Rank 0 computes 2 us and sends 100 B to rank 1 (node 1, one hop: 100 + 100 ns), which
  // computes 1 us after receiving it (the gap before its send) and sends 300 B to rank 2
  // (node 2, one hop: 100 + 300 ns). Rank 2 finishes at 2 + 0.2 + 1 + 0.4 = 3.6 us; the path
  // holds both computations and both messages.
  TraceBuilder b(3);
  b.send(0, 1, 100, 0, 2 * kUs);
  b.recv(1, 0, 100).send(1, 2, 300, 0, 1 * kUs);
  b.recv(2, 1, 300);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1, 2}, round_config(model));
    EXPECT_EQ(r.makespan, 3600 * kNs);
    expect_path(r.critical_path, {.compute = 3 * kUs,
                                  .latency = 200 * kNs,
                                  .bandwidth = 400 * kNs,
                                  .contention = 0,
                                  .messages = 2});
    // The list of its transfers is kept only when asked for.
    EXPECT_TRUE(r.critical_messages.empty());
    auto config = round_config(model);
    config.critical_messages = true;
    const auto listed = run(b.trace(), "torus:4x4x4", {0, 1, 2}, config);
    EXPECT_EQ(listed.makespan, r.makespan);
    EXPECT_EQ(transfers(listed),
              (std::vector<std::array<std::int64_t, 3>>{{0, 1, 100}, {1, 2, 300}}));
  }
}

TEST(CriticalPath, SharedLinkIsContention) {
  // Ranks 0 and 1 on node 0 send 1000 B each at time 0 to ranks 2 and 3 on node 1: both
  // messages cross the one link from node 0 to node 1 (1 GB/s, 100 ns). Contention-free, each
  // takes 100 + 1000 ns.
  // - flow: both stream together after their 100 ns latency at 0.5 GB/s each: 2000 ns, so both
  //   arrive at 2100 ns; a message on the path took 2100 ns, 1000 ns more than alone.
  // - packet: each message is one packet (1000 B < 4096 B); the link sends rank 0's in
  //   [0, 1000] ns and rank 1's in [1000, 2000] ns, whose tail arrives at 2100 ns: the same.
  // - analytic: no contention, both arrive at 1100 ns.
  TraceBuilder b(4);
  b.send(0, 2, 1000).send(1, 3, 1000);
  b.recv(2, 0, 1000).recv(3, 1, 1000);
  struct Case {
    const char* model;
    Time makespan;
    Time contention;
  };
  for (const auto& c : {Case{"flow", 2100 * kNs, 1000 * kNs},
                        Case{"packet", 2100 * kNs, 1000 * kNs}, Case{"analytic", 1100 * kNs, 0}}) {
    SCOPED_TRACE(c.model);
    const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, round_config(c.model));
    EXPECT_EQ(r.makespan, c.makespan);
    // The latency histogram holds the slowest transfer's time too (1100 ns alone).
    EXPECT_EQ(r.latency.max(), c.makespan);
    expect_path(
        r.critical_path,
        {.latency = 100 * kNs, .bandwidth = 1000 * kNs, .contention = c.contention, .messages = 1});
    expect_adds_up(r);
  }
}

TEST(CriticalPath, RendezvousPostedEarlyCarriesItsThreeTransfers) {
  // Eager threshold 100 B: 1000 B go by rendezvous. Rank 1 posts its receive at 0; rank 0 sends
  // after 1 us of computation. Request-to-send 100 ns (0 B, one hop), clear-to-send 100 ns back,
  // then the data 100 + 1000 ns: both finish at 1 us + 1300 ns, the path through all three
  // transfers: latency 3 x 100 ns, bandwidth 1000 ns.
  TraceBuilder b(2);
  b.send(0, 1, 1000, 0, 1 * kUs);
  b.recv(1, 0, 1000);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    config.eager_threshold = 100;
    config.critical_messages = true;
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(r.makespan, 2300 * kNs);
    // Request-to-send, clear-to-send (receiver to sender), data.
    EXPECT_EQ(transfers(r),
              (std::vector<std::array<std::int64_t, 3>>{{0, 1, 0}, {1, 0, 0}, {0, 1, 1000}}));
    EXPECT_EQ(r.rank_finish[0], 2300 * kNs);  // the sender waits for the data's arrival too
    expect_path(r.critical_path, {.compute = 1 * kUs,
                                  .latency = 300 * kNs,
                                  .bandwidth = 1000 * kNs,
                                  .contention = 0,
                                  .messages = 3});
  }
}

TEST(CriticalPath, RendezvousPostedLateGoesThroughTheReceiver) {
  // Rank 0 sends 1000 B by rendezvous at 0: its request-to-send arrives at 100 ns. Rank 1 posts
  // the receive only after 10 us of computation, so the clear-to-send leaves at 10 us (the later
  // of the two), arrives at 10.1 us, and the data at 10.1 us + 1100 ns = 11.2 us. The path is
  // rank 1's computation, then the clear-to-send and the data: 2 transfers, 200 ns of latency.
  TraceBuilder b(2);
  b.send(0, 1, 1000);
  b.recv(1, 0, 1000, 0, 10 * kUs);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    config.eager_threshold = 100;
    config.critical_messages = true;
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(r.makespan, 11200 * kNs);
    // The receiver's clear-to-send, then the data.
    EXPECT_EQ(transfers(r), (std::vector<std::array<std::int64_t, 3>>{{1, 0, 0}, {0, 1, 1000}}));
    expect_path(r.critical_path, {.compute = 10 * kUs,
                                  .latency = 200 * kNs,
                                  .bandwidth = 1000 * kNs,
                                  .contention = 0,
                                  .messages = 2});
  }
}

// ---------------------------------------------------------------------------------------------
// Overheads

TEST(CriticalPath, OverheadsOfALoneMessage) {
  // o_s = 50 ns, o_r = 30 ns on the network. Rank 0 computes 1 us, then its send occupies its
  // CPU 50 ns: the message enters the network at 1050 ns, arrives 100 + 1000 ns later at
  // 2150 ns, and rank 1 (waiting since 0) takes it with 30 ns of o_r: 2180 ns. Path: 1 us of
  // computation, 50 + 30 ns of overheads, the message.
  TraceBuilder b(2);
  b.send(0, 1, 1000, 0, 1 * kUs);
  b.recv(1, 0, 1000);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto config = with_overheads(round_config(model), "network.o_s=50,network.o_r=30");
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(r.makespan, 2180 * kNs);
    expect_path(r.critical_path, {.compute = 1 * kUs,
                                  .overhead = 80 * kNs,
                                  .latency = 100 * kNs,
                                  .bandwidth = 1000 * kNs,
                                  .contention = 0,
                                  .waiting = 0,
                                  .messages = 1});
  }
}

TEST(CriticalPath, TypicalOverheadsOfALoneMessage) {
  // The preset on the same message: the overhead part is its o_s + o_r on the network channel
  // (no per-byte terms, so the size does not matter), the rest as without overheads.
  TraceBuilder b(2);
  b.send(0, 1, 1000, 0, 1 * kUs);
  b.recv(1, 0, 1000);
  const auto typical = sim::typical_overheads();
  const Time overhead =
      typical.send(Channel::Network, 1000) + typical.receive(Channel::Network, 1000);
  ASSERT_GT(overhead, 0);
  const auto r =
      run(b.trace(), "torus:4x4x4", {0, 1}, with_overheads(round_config("flow"), "typical"));
  EXPECT_EQ(r.makespan, 1 * kUs + overhead + 1100 * kNs);
  expect_path(r.critical_path, {.compute = 1 * kUs,
                                .overhead = overhead,
                                .latency = 100 * kNs,
                                .bandwidth = 1000 * kNs,
                                .messages = 1});
}

TEST(CriticalPath, RunningAheadKeepsTheCriticalPath) {
  // Per-byte send overheads: o_s(n) = 10 ns + 1 ns/B x n, o_r = 20 ns. Rank 0 sends 10 B to
  // rank 1 at 0: o_s = 20 ns, the message arrives at 20 + 100 + 10 = 130 ns. Rank 1 first sends
  // 10000 B to rank 2 (which never receives it): its CPU is busy until 10 + 10000 = 10010 ns;
  // only then does it post its receive (Simulation.hpp: posted when its CPU is free), which
  // finds the message there, and takes it with 20 ns of o_r: rank 1 finishes last at 10030 ns.
  // It never waited for the message: its path is its own 10030 ns of overheads, whether the
  // replay runs ahead or not (SimConfig::run_ahead changes no result).
  for (const bool blocking : {true, false}) {
    TraceBuilder b(3);
    b.send(0, 1, 10);
    if (blocking) {
      b.send(1, 2, 10000).recv(1, 0, 10);
    } else {
      b.irecv(1, 0, 10, 4).send(1, 2, 10000).wait(1, 4);
    }
    for (const bool ahead : {false, true}) {
      SCOPED_TRACE(fmt::format("{}, run ahead {}", blocking ? "Recv" : "Irecv + Wait", ahead));
      auto config =
          with_overheads(round_config("flow"), "network.o_s=10,network.O_s=1,network.o_r=20");
      config.run_ahead = ahead;
      const auto r = run(b.trace(), "torus:4x4x4", {0, 1, 2}, config);
      EXPECT_EQ(r.makespan, 10030 * kNs);
      expect_path(r.critical_path, {.overhead = 10030 * kNs, .messages = 0});
    }
  }
}

TEST(CriticalPath, RunningAheadKeepsTheCriticalPathOfARandomExchange) {
  // The same on a random exchange of eager and rendezvous messages with allreduces, ranks in
  // pairs on nodes (both channels), costs on both channels.
  const auto exchange = random_exchange(8, 4, 11);
  const std::vector<topo::NodeId> nodes{0, 0, 1, 1, 5, 5, 6, 9};
  for (const auto& model : {"analytic", "flow"}) {
    for (const std::int64_t eager : {std::int64_t{65536}, std::int64_t{1024}}) {
      for (const std::string_view costs :
           {std::string_view("typical"),
            std::string_view("intra-node.o_s=30,intra-node.O_s=0.25,intra-node.o_r=70,"
                             "intra-node.O_r=0.125,intra-node.g=10,network.o_s=300,"
                             "network.O_s=0.5,network.o_r=700,network.O_r=0.375,network.g=20")}) {
        SCOPED_TRACE(fmt::format("{}, eager threshold {}, {}", model, eager, costs));
        auto config = with_overheads(round_config(model), costs);
        config.eager_threshold = eager;
        auto step_by_step = config;
        step_by_step.run_ahead = false;
        const auto ahead = run(exchange, "torus:4x4:cores=2", nodes, config);
        const auto expected = run(exchange, "torus:4x4:cores=2", nodes, step_by_step);
        ASSERT_EQ(ahead.makespan, expected.makespan);
        expect_path(ahead.critical_path, expected.critical_path);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Collectives: every rank on node 0 of torus:4x4x4:cores=8 under the analytic model, so each
// message costs the intra-node channel's 200 ns + size / 1 GB/s and nothing contends.

sim::Result run_on_one_node(const TraceBuilder& b, const std::string& model = "analytic") {
  const std::vector<topo::NodeId> nodes(b.trace().ranks.size(), 0);
  return run(b.trace(), "torus:4x4x4:cores=8", nodes, round_config(model));
}

TEST(CriticalPath, BarrierWaitsForTheLateRank) {
  // A dissemination barrier of 4: in round k member i sends to i + 2^k and receives from
  // i - 2^k (mod 4), 0-byte messages of 200 ns. Rank 2 computes 5 us first; the others start at
  // 0. Rank 3 gets rank 2's round-0 message at 5.2 us and only then sends its round-1 message to
  // rank 1, which arrives at 5.4 us: rank 1 finishes last, through rank 2's computation and the
  // two messages 2 -> 3 -> 1.
  TraceBuilder b(4);
  for (Rank r = 0; r < 4; ++r)
    b.collective(r, CollectiveOp::Barrier, -1, 0, 0, 0, r == 2 ? 5 * kUs : 0);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto r = run_on_one_node(b, model);
    EXPECT_EQ(r.makespan, 5400 * kNs);
    EXPECT_EQ(r.rank_finish[1], 5400 * kNs);
    expect_path(
        r.critical_path,
        {.compute = 5 * kUs, .latency = 400 * kNs, .bandwidth = 0, .contention = 0, .messages = 2});
  }
}

TEST(CriticalPath, AllreduceWaitsForTheLateRank) {
  // Allreduce of 8 B per member (Score-P records 4 x 8 B sent): MPICH's recursive doubling,
  // round 0 between 0-1 and 2-3, round 1 between 0-2 and 1-3, 8-byte messages of 208 ns. Rank 2
  // computes 5 us first. Rank 3's round-0 message from 2 leaves at 5 us and arrives at 5.208 us;
  // its round-1 message to rank 1 arrives at 5.416 us, when rank 1, last, finishes. Path: rank
  // 2's computation, then 2 messages of 200 ns latency and 8 ns bandwidth.
  TraceBuilder b(4);
  for (Rank r = 0; r < 4; ++r)
    b.collective(r, CollectiveOp::Allreduce, -1, 32, 32, 0, r == 2 ? 5 * kUs : 0);
  const auto r = run_on_one_node(b);
  EXPECT_EQ(r.collective_messages, 8U);
  EXPECT_EQ(r.makespan, 5416 * kNs);
  EXPECT_EQ(r.rank_finish[1], 5416 * kNs);
  expect_path(r.critical_path, {.compute = 5 * kUs,
                                .latency = 400 * kNs,
                                .bandwidth = 16 * kNs,
                                .contention = 0,
                                .messages = 2});
}

TEST(CriticalPath, PointToPointAfterACollective) {
  // A barrier of 2 on two nodes one hop apart (0-byte messages, 100 ns each way; each member
  // sends to and receives from the other), rank 1 arriving after 3 us: rank 0 leaves it at
  // 3.1 us, computes 1 us and sends 500 B (100 + 500 ns) to rank 1, which finishes at 4.7 us.
  // Path: rank 1's 3 us, the barrier message, rank 0's 1 us, the message.
  TraceBuilder b(2);
  b.collective(0, CollectiveOp::Barrier, -1, 0, 0).send(0, 1, 500, 0, 1 * kUs);
  b.collective(1, CollectiveOp::Barrier, -1, 0, 0, 0, 3 * kUs).recv(1, 0, 500);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config(model));
    EXPECT_EQ(r.makespan, 4700 * kNs);
    expect_path(r.critical_path, {.compute = 4 * kUs,
                                  .latency = 200 * kNs,
                                  .bandwidth = 500 * kNs,
                                  .contention = 0,
                                  .messages = 2});
  }
}

// ---------------------------------------------------------------------------------------------
// Invariants on whole workloads

traces::Trace generated(const std::string& kernel, Rank ranks) {
  traces::GeneratorOptions options;
  options.kernel = kernel;
  options.ranks = ranks;
  options.iterations = 2;
  return traces::generate_trace(options);
}

TEST(CriticalPath, PartsAddUpOnWholeWorkloads) {
  // On generated NPB kernels and a real trace, on a torus and a fat-tree, under every model,
  // with and without overheads, replaying computation or not: the parts add up to the makespan
  // exactly and none is negative. Without overheads nothing is charged to them and no rank on
  // the path waits without a message to blame; with compute scale 0 nothing is computation.
  // Each transfer on the path is a data transfer or one of at most two control transfers of a
  // rendezvous data transfer, and rendezvous needs messages above the eager threshold: with a
  // threshold above every message, the path holds data transfers only.
  struct Workload {
    std::string name;
    traces::Trace trace;
  };
  std::vector<Workload> workloads;
  for (const char* kernel : {"lu", "cg", "ft", "mg"})
    workloads.push_back({fmt::format("npb:{}:S:8", kernel), generated(kernel, 8)});
  workloads.push_back(
      {"lu.S.8", traces::read_trace(std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8")});
  for (const auto& w : workloads) {
    ASSERT_EQ(w.trace.ranks.size(), 8U) << w.name;
    std::vector<topo::NodeId> nodes(8);
    std::iota(nodes.begin(), nodes.end(), 0);
    for (const std::string topology : {"torus:2x2x2", "fattree:k-ary-n-tree:4,2"}) {
      for (const auto& model : kModels) {
        for (const std::string_view overheads : {"none", "typical"}) {
          for (const double scale : {0.0, 1.0}) {
            for (const std::int64_t eager : {std::int64_t{65536}, std::int64_t{1} << 40}) {
              SCOPED_TRACE(fmt::format("{} on {}, {}, overheads {}, compute scale {}, eager {}",
                                       w.name, topology, model, overheads, scale, eager));
              sim::SimConfig config;
              config.model = model;
              config.compute_scale = scale;
              config.eager_threshold = eager;
              config.overheads = sim::parse_overheads(overheads, "--overheads");
              const auto r = run(w.trace, topology, nodes, config);
              ASSERT_GT(r.makespan, 0);
              expect_adds_up(r);
              const auto& p = r.critical_path;
              const std::uint64_t transfers = r.latency.count();  // data transfers
              EXPECT_LE(p.messages, eager > 65536 ? transfers : 3 * transfers);
              if (p.messages == 0) {
                EXPECT_EQ(p.latency + p.bandwidth + p.contention, 0);
              } else {
                // Every transfer crosses at least one link or channel of >= 100 ns.
                EXPECT_GE(p.latency, static_cast<Time>(p.messages) * 100 * kNs);
              }
              if (overheads == "none") {
                EXPECT_EQ(p.overhead, 0);
                EXPECT_EQ(p.waiting, 0);
              } else {
                EXPECT_GT(p.overhead, 0);
              }
              if (scale == 0) {
                EXPECT_EQ(p.compute, 0);
              } else {
                EXPECT_GT(p.compute, 0);
              }
              if (model == "analytic") {
                EXPECT_EQ(p.contention, 0);
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace mapsim::testing

namespace mapsim::testing {
namespace {

TEST(CriticalPath, ListOfTransfersMatchesThePathOnWholeWorkloads) {
  // Keeping the list changes no result; it holds exactly the path's transfers, between ranks of
  // the trace, and its data transfers carry the path's bytes of messages of the trace.
  for (const char* kernel : {"lu", "cg", "ft"}) {
    const auto trace = generated(kernel, 8);
    std::vector<topo::NodeId> nodes(8);
    std::iota(nodes.begin(), nodes.end(), 0);
    for (const auto& model : kModels) {
      SCOPED_TRACE(fmt::format("{} {}", kernel, model));
      sim::SimConfig config;
      config.model = model;
      config.compute_scale = 0;
      const auto plain = run(trace, "torus:2x2x2", nodes, config);
      config.critical_messages = true;
      const auto listed = run(trace, "torus:2x2x2", nodes, config);
      EXPECT_EQ(listed.makespan, plain.makespan);
      EXPECT_EQ(listed.rank_finish, plain.rank_finish);
      expect_path(listed.critical_path, plain.critical_path);
      ASSERT_EQ(listed.critical_messages.size(), plain.critical_path.messages);
      ASSERT_FALSE(listed.critical_messages.empty());
      for (const auto& m : listed.critical_messages) {
        EXPECT_GE(m.src, 0);
        EXPECT_LT(m.src, 8);
        EXPECT_GE(m.dst, 0);
        EXPECT_LT(m.dst, 8);
        EXPECT_GE(m.bytes, 0);
      }
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
