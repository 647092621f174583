// Hand-solved network-model cases. Grid links 1 GB/s and 100 ns (1 byte = 1 ns), intra-node
// channel 1 GB/s and 200 ns, packets of 4096 bytes, cut-through unless stated.

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;

// torus:4x4x4, ranks on nodes 0 and 2: two hops along x.
TEST(NetworkModels, OneEagerMessageExact) {
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  for (const auto& model : kModels) {
    const auto r = run(b.trace(), "torus:4x4x4", {0, 2}, round_config(model));
    // Eager: the send returns at once; the data takes 2 x 100 ns + 1000 B / 1 GB/s = 1200 ns
    // (packet: one packet, cut-through adds nothing on equal links).
    EXPECT_EQ(r.rank_finish[0], 0) << model;
    EXPECT_EQ(r.rank_finish[1], 1200 * kNs) << model;
    EXPECT_EQ(r.makespan, 1200 * kNs) << model;
    EXPECT_EQ(r.messages, 1U);
    EXPECT_EQ(r.unmatched_messages, 0U);
  }
}

TEST(NetworkModels, OneRendezvousMessageExact) {
  TraceBuilder b(2);
  b.send(0, 1, 100000).recv(1, 0, 100000);
  for (const auto& model : kModels) {
    const auto r = run(b.trace(), "torus:4x4x4", {0, 2}, round_config(model));
    // 100000 B > 64 KiB: request-to-send 200 ns, clear-to-send back 200 ns, then the data
    // 200 ns + 100000 ns; both sides complete when the data has arrived: 100600 ns. The packet
    // model pipelines its 25 packets (cut-through, equal links): the same time.
    EXPECT_EQ(r.rank_finish[0], 100600 * kNs) << model;
    EXPECT_EQ(r.rank_finish[1], 100600 * kNs) << model;
  }
}

TEST(NetworkModels, EagerThresholdIsInclusive) {
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  auto config = round_config("analytic");
  config.eager_threshold = 999;
  // 1000 B is now above the threshold: rendezvous, 3 x 200 ns of latency + 1000 ns.
  EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 2}, config).makespan, 1600 * kNs);
  config.eager_threshold = 1000;
  EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 2}, config).makespan, 1200 * kNs);
}

TEST(NetworkModels, StoreAndForwardPaysEveryHopForTheLastPacket) {
  TraceBuilder b(2);
  b.send(0, 1, 100000).recv(1, 0, 100000);
  auto config = round_config("packet");
  config.model_options.cut_through = false;
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4", {0, 2}, config);
  // 24 packets of 4096 B and one of 1696 B leave node 0 back to back. Node 1 forwards packet k
  // only once stored, so its link runs one packet behind: packet k crosses it during
  // [(k + 1) 4096 + 100, (k + 2) 4096 + 100] ns. The 24th (k = 23) ends at 102500 ns; the short
  // last one, stored at 100100 ns, waits for it, takes 1696 ns and arrives 100 ns later:
  // 102500 + 1696 + 100 = 104296 ns (= n / B + one full packet + 2 x 100 ns).
  EXPECT_EQ(r.makespan, 104296 * kNs);
  // One 4096 B packet: 4096 + 100 + 4096 + 100 = 8392 ns.
  TraceBuilder one(2);
  one.send(0, 1, 4096).recv(1, 0, 4096);
  EXPECT_EQ(run(one.trace(), "torus:4x4x4", {0, 2}, config).makespan, 8392 * kNs);
}

TEST(NetworkModels, IntraNodeChannel) {
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  for (const auto& model : kModels) {
    const auto r = run(b.trace(), "torus:4x4x4:cores=2", {5, 5}, round_config(model));
    // Both ranks on node 5: 200 ns + 1000 ns through its shared-memory channel, no link used.
    EXPECT_EQ(r.makespan, 1200 * kNs) << model;
    EXPECT_EQ(r.links_used, 0) << model;
    EXPECT_EQ(r.resource_bytes[static_cast<std::size_t>(r.link_count + 5)], 1000) << model;
  }
}

TEST(NetworkModels, SelfMessageUsesTheIntraNodeChannel) {
  TraceBuilder b(1);
  b.isend(0, 0, 500, 1).recv(0, 0, 500).wait(0, 1);
  // 200 ns + 500 ns.
  EXPECT_EQ(run(b.trace(), "torus:4x4x4", {3}, round_config("flow")).makespan, 700 * kNs);
}

// Ranks 0, 1 on node 0 send 1 MB each to ranks 2, 3 on node 1: both flows cross link 0 -> 1.
TEST(FlowModel, TwoFlowsShareALinkHalfEach) {
  TraceBuilder b(4);
  b.send(0, 2, 1'000'000).send(1, 3, 1'000'000).recv(2, 0, 1'000'000).recv(3, 1, 1'000'000);
  auto config = round_config("flow");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  // Each gets 0.5 GB/s: 1 MB drains in 2 ms, plus 100 ns of latency.
  EXPECT_EQ(r.rank_finish[2], 2 * kMs + 100 * kNs);
  EXPECT_EQ(r.rank_finish[3], 2 * kMs + 100 * kNs);
  // The analytic model ignores the sharing: 1 ms + 100 ns.
  config.model = "analytic";
  EXPECT_EQ(run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config).makespan, kMs + 100 * kNs);
}

TEST(FlowModel, NFlowsShareALinkOneNthEach) {
  for (const int n : {3, 5, 8}) {
    TraceBuilder b(2 * n);
    std::vector<topo::NodeId> nodes;
    for (int i = 0; i < n; ++i) {
      b.send(i, n + i, 1'000'000).recv(n + i, i, 1'000'000);
    }
    for (int i = 0; i < n; ++i) nodes.push_back(0);
    for (int i = 0; i < n; ++i) nodes.push_back(1);
    auto config = round_config("flow");
    config.eager_threshold = 1 << 30;
    const auto r = run(b.trace(), "torus:4x4x4:cores=8", nodes, config);
    // n flows on link 0 -> 1 get 1/n GB/s each: n ms + 100 ns, all of them.
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(n + i)], n * kMs + 100 * kNs) << n;
  }
}

TEST(FlowModel, ShortFlowLeavesItsShareToTheLongOne) {
  TraceBuilder b(4);
  b.send(0, 2, 1'000'000).send(1, 3, 2'000'000).recv(2, 0, 1'000'000).recv(3, 1, 2'000'000);
  auto config = round_config("flow");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  // Half each until the 1 MB flow drains at 2 ms (the 2 MB one has 1 MB left), then the 2 MB
  // flow runs alone at 1 GB/s for 1 ms more: 3 ms.
  EXPECT_EQ(r.rank_finish[2], 2 * kMs + 100 * kNs);
  EXPECT_EQ(r.rank_finish[3], 3 * kMs + 100 * kNs);
}

// Weighted max-min, not equal split: A 0 -> 2 crosses links 0->1 and 1->2 (200 ns, weight 1/2 in
// units of 1/100 ns); B 0 -> 1 crosses 0->1, C and D 1 -> 2 cross 1->2 (100 ns, weight 1 each).
TEST(FlowModel, WeightedMaxMinFairAllocation) {
  TraceBuilder b(4);  // 0: node 0 sends A, B; 1: node 1 sends C, D; 2: node 1 gets B; 3: node 2
  b.isend(0, 3, 1'000'000, 1, 1).isend(0, 2, 1'000'000, 2, 2).wait(0, 1).wait(0, 2);
  b.isend(1, 3, 1'000'000, 1, 3).isend(1, 3, 1'000'000, 2, 4).wait(1, 1).wait(1, 2);
  b.recv(2, 0, 1'000'000, 2);
  b.irecv(3, 0, 1'000'000, 1, 1).irecv(3, 1, 1'000'000, 2, 3).irecv(3, 1, 1'000'000, 3, 4);
  b.wait(3, 1).wait(3, 2).wait(3, 3);
  auto config = round_config("flow");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 1, 1, 2}, config);
  // B, C, D join at 100 ns: B alone on 0->1 at 1 GB/s, C and D at 1/2 GB/s on 1->2, so by 200 ns
  // B has moved 100 bytes, C and D 50 each. A joins at 200 ns. Link 1->2 carries weight
  // 1/2 + 1 + 1: 1/2.5 = 0.4 GB/s per unit, the smallest share: A 0.2 GB/s, C and D 0.4 GB/s.
  // Link 0->1 keeps 0.8 GB/s for B: B drains at 200 ns + 999,900 B / 0.8 GB/s = 1,250,075 ns.
  // A's bottleneck stays 1->2. C and D drain at 200 ns + 999,950 B / 0.4 GB/s = 2,500,075 ns, by
  // when A has moved 0.2 GB/s * 2,499,875 ns = 499,975 B; its last 500,025 B at 1 GB/s end at
  // 3,000,100 ns. A flow is delivered when it drains (its latency came first).
  EXPECT_EQ(r.rank_finish[2], 1'250'075 * kNs);
  EXPECT_EQ(r.rank_finish[3], 3'000'100 * kNs);
  EXPECT_EQ(r.rank_finish[0], 0);  // eager sends return at once
}

TEST(PacketModel, TwoFlowsShareALinkWithinOnePacket) {
  TraceBuilder b(4);
  b.send(0, 2, 1'000'000).send(1, 3, 1'000'000).recv(2, 0, 1'000'000).recv(3, 1, 1'000'000);
  auto config = round_config("packet");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  // FIFO service of both messages' packets: the link carries 2 MB, so the later message ends at
  // 2 ms + 100 ns; the earlier one at most one packet (4096 ns) before it.
  const Time both = 2 * kMs + 100 * kNs;
  EXPECT_EQ(std::max(r.rank_finish[2], r.rank_finish[3]), both);
  EXPECT_GE(std::min(r.rank_finish[2], r.rank_finish[3]), both - 4096 * kNs);
}

// Incast on mesh:8: ranks on nodes 1..7 each send 1 MB to rank 0 on node 0. Every route ends with
// link 1 -> 0, so the flows share it: 1/7 GB/s each.
TEST(NetworkModels, Incast) {
  TraceBuilder b(8);
  std::vector<topo::NodeId> nodes{0};
  for (Rank s = 1; s < 8; ++s) {
    b.send(s, 0, 1'000'000, s);
    b.irecv(0, s, 1'000'000, static_cast<std::uint32_t>(s), s);
    nodes.push_back(s);
  }
  for (Rank s = 1; s < 8; ++s) b.wait(0, static_cast<std::uint32_t>(s));
  auto config = round_config("flow");
  config.eager_threshold = 1 << 30;
  // flow: the flows join link 1 -> 0 after their route latencies, node 1's first at 100 ns (the
  // others' weights are smaller: 1/s for the one s hops away). From then on the link, every
  // flow's bottleneck, is saturated until its 7 MB have crossed: the last drains and is
  // delivered at 100 ns + 7 ms.
  EXPECT_EQ(run(b.trace(), "mesh:8", nodes, config).makespan, 7 * kMs + 100 * kNs);
  // analytic: no sharing, 1 ms + 700 ns.
  config.model = "analytic";
  EXPECT_EQ(run(b.trace(), "mesh:8", nodes, config).makespan, kMs + 700 * kNs);
  // packet: link 1 -> 0 has 7 MB to carry and is busy from time 0 (node 1's own packets) to the
  // end, so the last byte crosses it at 7 ms: 7 ms + 100 ns, within 1 % (queueing order).
  config.model = "packet";
  const auto packet = run(b.trace(), "mesh:8", nodes, config).makespan;
  EXPECT_GE(packet, 7 * kMs);
  EXPECT_LE(packet, 7 * kMs + 70 * kUs);
}

TEST(NetworkModels, PingPong) {
  TraceBuilder b(2);
  for (int i = 0; i < 10; ++i) {
    b.send(0, 1, 1000, 0, 1000 * kNs).recv(0, 1, 1000);
    b.recv(1, 0, 1000).send(1, 0, 1000);
  }
  for (const auto& model : kModels) {
    auto config = round_config(model);
    // Each way 100 ns + 1000 ns; rank 0 computes 1 us before each send: 10 x (1 + 2.2) us.
    EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 1}, config).makespan, 32 * kUs) << model;
    config.compute_scale = 0;  // communication only: 10 x 2.2 us
    EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 1}, config).makespan, 22 * kUs) << model;
    config.compute_scale = 2;  // 10 x (2 + 2.2) us
    const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
    EXPECT_EQ(r.makespan, 42 * kUs) << model;
    // Rank 0 computed 20 us: MPI time 22 us. Rank 1 never computes and ends with its last
    // (eager) send, 1.1 us before rank 0 receives it: 40.9 us, all in MPI. Mean 31.45 us.
    EXPECT_EQ(r.rank_mpi_time[0], 22 * kUs) << model;
    EXPECT_EQ(r.rank_mpi_time[1], 40900 * kNs) << model;
    EXPECT_EQ(r.mpi_time_max, 40900 * kNs) << model;
    EXPECT_DOUBLE_EQ(r.mpi_time_mean, 31450.0 * kNs) << model;
  }
}

TEST(NetworkModels, UnknownModelNamesTheValidOnes) {
  TraceBuilder b(1);
  try {
    run(b.trace(), "torus:4x4x4", {0}, round_config("fluid"));
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'fluid'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("analytic, flow, packet"), std::string::npos);
    // 'fluid' is three edits from 'flow': too far for a suggestion.
    EXPECT_EQ(std::string(e.what()).find("did you mean"), std::string::npos);
  }
}

TEST(NetworkModels, UnknownModelSuggestsTheClosest) {
  TraceBuilder b(1);
  try {
    run(b.trace(), "torus:4x4x4", {0}, round_config("flw"));
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("; did you mean 'flow'?"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mapsim::testing
