// Communication-bound cases solved by hand, each replayed on every network model. Grid links
// 1 GB/s and 100 ns (round_config: 1 byte = 1 ns), packets of 4096 B (P), cut-through; no trace
// computes unless stated. Every expected time is derived in the comment above it from the
// equations in sim/AnalyticModel.hpp, sim/FlowModel.hpp and sim/PacketModel.hpp:
//   analytic  T = lat(R) + n / bw, whatever else is in flight;
//   flow      lat(R) in flight first, then weighted max-min fair rates (weight 1 / lat(R), so
//             equal shares among routes of equal latency); delivered when integral r dt = n;
//   packet    FIFO ports served in order of head arrival; cut-through: start = max(head, free),
//             end = max(start + tx, tail), next head at start + lat, delivered at the last
//             packet's end + lat of the last link; a message's packet i + 1 joins its first port
//             when packet i has left it.
// Messages are eager (at most eager_threshold bytes): the send returns at once, the receive when
// the data has arrived.

#include <map>
#include <numeric>
#include <string>

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;
using traces::CollectiveOp;

/// Expected values per model; at() fails the test for a model the table forgot.
using PerModel = std::map<std::string, Time>;

/// round_config with every message eager, so that no rendezvous handshake enters the sums.
sim::SimConfig eager_config(const std::string& model) {
  auto config = round_config(model);
  config.eager_threshold = 1 << 30;
  return config;
}

std::vector<topo::NodeId> one_rank_per_node(int ranks) {
  std::vector<topo::NodeId> nodes(static_cast<std::size_t>(ranks));
  std::iota(nodes.begin(), nodes.end(), 0);
  return nodes;
}

// ---- 1. The LU wavefront's dependence chain -----------------------------------------------------
//
// mesh:8, rank i on node i: a line, rank i -> i + 1 is one hop (100 ns). Plane k: rank 0 sends
// 1000 B (tag k) to rank 1; rank i = 1..6 does a blocking Recv from i - 1 and then a blocking Send
// to i + 1; rank 7 receives. 1000 B < P, so every message is one packet. One message alone on a
// link takes T = 100 + 1000 = 1100 ns in every model (link occupancy m = 1000 ns).
constexpr Rank kLineRanks = 8;
constexpr std::int64_t kPlaneBytes = 1000;

/// `pace`: rank 0's computation before each plane after the first.
traces::Trace wavefront(int planes, Time pace) {
  TraceBuilder b(kLineRanks);
  for (int k = 0; k < planes; ++k) {
    b.send(0, 1, kPlaneBytes, k, k == 0 ? 0 : pace);
    for (Rank i = 1; i + 1 < kLineRanks; ++i)
      b.recv(i, i - 1, kPlaneBytes, k).send(i, i + 1, kPlaneBytes, k);
    b.recv(kLineRanks - 1, kLineRanks - 2, kPlaneBytes, k);
  }
  return b.trace();
}

TEST(CommunicationBound, WavefrontOnePlaneIsTheChainOfMessageTimes) {
  const auto trace = wavefront(1, 0);
  for (const auto& model : kModels) {
    const auto r = run(trace, "mesh:8", one_rank_per_node(kLineRanks), round_config(model));
    // One message in flight at a time, each alone on its link: rank i gets the plane at i T and
    // forwards it at once (eager). Makespan (N - 1) T = 7 x 1100 = 7700 ns, in every model.
    EXPECT_EQ(r.rank_finish[0], 0) << model;
    for (Rank i = 1; i < kLineRanks; ++i)
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(i)], i * 1100 * kNs) << model << " " << i;
    EXPECT_EQ(r.makespan, 7700 * kNs) << model;
  }
}

// Four planes, no computation (a communication-only replay of the wavefront): rank 0's four
// eager sends all leave at t = 0, so the planes contend on every link, differently per model.
//
// analytic: no contention; all four reach rank i at i T. Makespan 7 T = 7700 ns, as one plane.
//
// flow: the four 1000 B flows join link 0->1 after its 100 ns, get 1/4 GB/s each and drain
// together, delivered at 100 + 4000 = 4100 ns. Rank 1 receives plane 0, sends it, finds planes 1..3
// already there and sends them too, all at 4100 ns: the same four-way sharing on link 1->2, and so
// on down the line. Plane k reaches rank i at i (100 + 4 x 1000) = i x 4100 ns. Makespan 7 x 4100 =
// 28700 ns.
//
// packet: port 0->1 serves the four one-packet messages back to back: plane k during
// [1000 k, 1000 (k + 1)] ns, at rank 1 at 1000 k + 1100. Rank 1 forwards each as it arrives;
// port 1->2 is free again exactly then (plane k - 1 occupied it for the 1000 ns before), so no
// further queueing: plane k reaches rank i at a(i, k) = 1100 i + 1000 k ns (latency paid once per
// hop, occupancy once per hop and once per plane before it). Rank i >= 1 finishes when it has
// plane 3: 1100 i + 3000 ns. Makespan a(7, 3) = 7700 + 3000 = 10700 ns
// = (N - 1) T + (planes - 1) m.
TEST(CommunicationBound, WavefrontPlanesSentBackToBack) {
  const auto trace = wavefront(4, 0);
  const PerModel makespan{{"analytic", 7700 * kNs}, {"flow", 28700 * kNs}, {"packet", 10700 * kNs}};
  for (const auto& model : kModels) {
    const auto r = run(trace, "mesh:8", one_rank_per_node(kLineRanks), round_config(model));
    EXPECT_EQ(r.makespan, makespan.at(model)) << model;
    EXPECT_EQ(r.rank_finish[0], 0) << model;
    for (Rank i = 1; i < kLineRanks; ++i) {
      const Time expected = model == "analytic" ? i * 1100 * kNs
                            : model == "flow"   ? i * 4100 * kNs
                                                : (i * 1100 + 3000) * kNs;
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(i)], expected) << model << " " << i;
    }
  }
}

// Four planes with rank 0 computing T = 1100 ns before each plane after the first: it sends plane
// k at k T, and every other rank forwards plane k right after receiving it. Plane k crosses link
// i->i+1 during [(k + i) T, (k + i) T + 1000 ns] (packet: transmitted; flow: 100 ns later, after
// its latency), and plane k + 1 arrives there only T > 1000 ns later, so no two planes ever share a
// link and every message takes T in every model: plane k reaches rank i at (k + i) T. Rank 0
// finishes at its last send, 3 T = 3300 ns; rank i >= 1 at (3 + i) T; the makespan is the pipeline
// formula (N - 1 + planes - 1) T = (7 + 3) x 1100 = 11000 ns.
TEST(CommunicationBound, WavefrontPacedPlanesPipeline) {
  const Time t = 1100 * kNs;
  const auto trace = wavefront(4, t);
  for (const auto& model : kModels) {
    const auto r = run(trace, "mesh:8", one_rank_per_node(kLineRanks), round_config(model));
    EXPECT_EQ(r.makespan, 11000 * kNs) << model;
    EXPECT_EQ(r.rank_finish[0], 3300 * kNs) << model;
    for (Rank i = 1; i < kLineRanks; ++i)
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(i)], (3 + i) * t) << model << " " << i;
  }
}

// ---- 2. n flows through one link ----------------------------------------------------------------
//
// torus:4x4x4:cores=4 (node = x + 4 y + 16 z). The shared link is 5 -> 21, (1,1,0) -> (1,1,1).
// Senders on the four in-plane neighbours of node 5: 6 = (2,1,0), 4 = (0,1,0), 9 = (1,2,0) and
// 1 = (1,0,0). Dimension order brings each first to node 5 over its own link (6->5, 4->5, 9->5,
// 1->5), then over 5->21: every route is 2 hops (200 ns) and they share only 5->21. The first n
// senders (ranks 0..n-1, in that order) each send B = 1 MB at t = 0 to their own receiver (rank
// n + s) on node 21. B = 244 P + 576: 245 packets, the last of 576 B.
TEST(CommunicationBound, NFlowsThroughOneLink) {
  constexpr std::int64_t kBytes = 1'000'000;
  const std::vector<topo::NodeId> senders{6, 4, 9, 1};
  for (int n = 1; n <= 4; ++n) {
    TraceBuilder b(2 * n);
    std::vector<topo::NodeId> nodes(senders.begin(), senders.begin() + n);
    for (Rank s = 0; s < n; ++s) {
      b.send(s, n + s, kBytes).recv(n + s, s, kBytes);
      nodes.push_back(21);
    }
    for (const auto& model : kModels) {
      const auto r = run(b.trace(), "torus:4x4x4:cores=4", nodes, eager_config(model));
      for (Rank s = 0; s < n; ++s) {
        const auto got = r.rank_finish[static_cast<std::size_t>(n + s)];
        const auto what = model + " n=" + std::to_string(n) + " s=" + std::to_string(s);
        EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(s)], 0) << what;  // eager
        if (model == "analytic") {
          // No contention: 200 ns + 1e6 ns for everyone.
          EXPECT_EQ(got, 1'000'200 * kNs) << what;
        } else if (model == "flow") {
          // All n join after their 200 ns route latency; 5->21 carries n flows of equal weight
          // (1/n GB/s each, the smallest share; each first link carries one): all drain and
          // arrive at 200 ns + n B / bw.
          EXPECT_EQ(got, n * kMs + 200 * kNs) << what;
        } else {
          // Each sender's first port is its own: packet j leaves it during [j P, (j + 1) P]
          // and its head reaches port 5->21 at j P + 100 ns, the same instant for all n; those
          // ties are served in sender order (each sender's events were scheduled in rank order
          // from t = 0 on). The port is n times oversubscribed, hence busy from 100 ns on,
          // round robin: full packet j of sender s during 100 + (n j + s) P + [0, P] (after
          // its head, and ending after its tail (j + 1) P + 100). The last round (j = 244,
          // 576 B) starts at 100 + 244 n P; sender s's last packet ends (s + 1) 576 ns later
          // and arrives 100 ns after that:
          //   s-th finish = 200 + 244 n P + (s + 1) 576 ns.
          // n = 1: 1000200 ns (= analytic). n = 4: first 3998472 ns, last 4000200 ns
          // = n B / bw + lat(R), exactly the flow time.
          EXPECT_EQ(got, (200 + 244 * n * 4096 + (s + 1) * 576) * kNs) << what;
        }
      }
    }
  }
}

// ---- 3. All-to-all on a ring --------------------------------------------------------------------
//
// torus:4, rank i on node i; MPI_Alltoall of B = 40960 B (10 P) per peer, replayed as pairwise
// exchange: step s = 1, 2, 3 sends to i + s and receives from i - s, the next step starting when
// both are done. All ranks are alike, so every step starts and ends at the same time everywhere.
// Routes (shorter way round, the tie s = 2 goes the positive way):
//   step 1: i -> i+1, 1 hop +;  each + link carries 1 message, - links idle;
//   step 2: i -> i+1 -> i+2;    each + link carries 2 (its own node's, hop 0, and the previous
//                               node's, hop 1), - links idle;
//   step 3: i -> i-1, 1 hop -;  each - link carries 1, + links idle.
// Steps 1 and 3 are uncontended in every model: B + 100 = 41060 ns each.
// Step 2:
//   analytic: B + 200 = 41160 ns.
//   flow: every flow joins after its 200 ns; every + link then has 2 flows, every flow 2 links:
//     1/2 GB/s each, drained and delivered at 200 + 2 B = 82120 ns.
//   packet (from the step's start, + ports idle): on port i->i+1, the own message's packet j
//     (head at its injection) and the previous node's packet j (head 100 ns after it started on
//     port i-1->i) alternate: own packet j during [2 j P, (2 j + 1) P], whose end injects own
//     packet j + 1; the previous node's packet j, head at 2 j P + 100 < (2 j + 1) P, goes next,
//     during [(2 j + 1) P, (2 j + 2) P] (its tail arrives at (2 j + 1) P + 100, before that end).
//     The last packet (j = 9) of each message leaves its second link at 20 P and arrives 100 ns
//     later: 2 B + 100 = 82020 ns, 100 ns sooner than flow, which pays the whole route's latency
//     before its bytes load any link.
// Makespan, every rank finishing with its step 3:
//   analytic 41060 + 41160 + 41060 = 123280 ns; flow 41060 + 82120 + 41060 = 164240 ns;
//   packet 41060 + 82020 + 41060 = 164140 ns.
// The slowest message is a step-2 one: 41160, 82120 and 82020 ns.
TEST(CommunicationBound, AlltoallOnARing) {
  constexpr std::int64_t kBytes = 10 * 4096;
  TraceBuilder b(4);
  b.all(CollectiveOp::Alltoall, -1, 4 * kBytes, 4 * kBytes);  // Score-P: sent = P b
  const PerModel makespan{
      {"analytic", 123280 * kNs}, {"flow", 164240 * kNs}, {"packet", 164140 * kNs}};
  const PerModel slowest{{"analytic", 41160 * kNs}, {"flow", 82120 * kNs}, {"packet", 82020 * kNs}};
  for (const auto& model : kModels) {
    const auto r = run(b.trace(), "torus:4", one_rank_per_node(4), eager_config(model));
    EXPECT_EQ(r.collective_messages, 12U) << model;
    EXPECT_EQ(r.makespan, makespan.at(model)) << model;
    for (Rank i = 0; i < 4; ++i)
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(i)], makespan.at(model)) << model << i;
    EXPECT_EQ(r.latency.max(), slowest.at(model)) << model;
  }
}

// ---- 4. Halo exchange on a 2x2x2 torus ----------------------------------------------------------
//
// torus:2x2x2, rank r on node r; its neighbour in dimension d is r xor 2^d, one hop over the one
// link each way between them. Each rank posts its Irecvs, then its Isends, then waits for all;
// B = 40960 B (10 P) per message.
constexpr Rank kHaloRanks = 8;
constexpr std::int64_t kHaloBytes = 10 * 4096;

Rank neighbour(Rank r, int d) {
  return r ^ (1 << d);
}

// One message per dimension: the 24 messages use the 24 directed links once each, and a node's
// three messages leave by three different ports, so nothing is shared in any model: every rank
// has all three halves after B + 100 = 41060 ns.
TEST(CommunicationBound, HaloExchangeOnA2x2x2Torus) {
  TraceBuilder b(kHaloRanks);
  for (Rank r = 0; r < kHaloRanks; ++r) {
    for (int d = 0; d < 3; ++d)
      b.irecv(r, neighbour(r, d), kHaloBytes, static_cast<std::uint32_t>(d), d);
    for (int d = 0; d < 3; ++d)
      b.isend(r, neighbour(r, d), kHaloBytes, static_cast<std::uint32_t>(3 + d), d);
    for (std::uint32_t q = 0; q < 6; ++q) b.wait(r, q);
  }
  for (const auto& model : kModels) {
    const auto r =
        run(b.trace(), "torus:2x2x2", one_rank_per_node(kHaloRanks), eager_config(model));
    for (Rank i = 0; i < kHaloRanks; ++i)
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(i)], 41060 * kNs) << model << " " << i;
    EXPECT_EQ(r.links_used, 24) << model;
  }
}

// The same halo written for any torus: a message to the + neighbour (tag 2 d) and one to the -
// neighbour (tag 2 d + 1) per dimension. With extent 2 both go to the same node over the same
// link, which now carries two messages; rank r sends the + one first.
//   analytic: no sharing, every message B + 100 = 41060 ns.
//   flow: after their 100 ns every link has 2 flows and every flow 1 link: 1/2 GB/s each, all
//     drain and arrive at 100 + 2 B = 82020 ns.
//   packet: the two messages leave one port together and interleave packet by packet: the +
//     message's packet j during [2 j P, (2 j + 1) P], the - message's during [(2 j + 1) P,
//     (2 j + 2) P] (each message's next packet joins the queue when its previous one has left).
//     The + message arrives at 19 P + 100 = 77924 ns, the - one at 20 P + 100 = 82020 ns.
//   Every rank waits for both: 41060 ns (analytic), 82020 ns (flow and packet). Message latency
//   (all injected at t = 0): the slowest 82020 ns in flow and packet; the mean over the 48
//   messages 82020 ns in flow and (77924 + 82020) / 2 = 79972 ns in packet.
TEST(CommunicationBound, HaloExchangeBothDirectionsShareTheLink) {
  TraceBuilder b(kHaloRanks);
  for (Rank r = 0; r < kHaloRanks; ++r) {
    for (int d = 0; d < 3; ++d) {
      const auto q = static_cast<std::uint32_t>(4 * d);
      b.irecv(r, neighbour(r, d), kHaloBytes, q, 2 * d);  // from - (travelling +)
      b.irecv(r, neighbour(r, d), kHaloBytes, q + 1, 2 * d + 1);
    }
    for (int d = 0; d < 3; ++d) {
      const auto q = static_cast<std::uint32_t>(4 * d);
      b.isend(r, neighbour(r, d), kHaloBytes, q + 2, 2 * d);  // to +
      b.isend(r, neighbour(r, d), kHaloBytes, q + 3, 2 * d + 1);
    }
    for (std::uint32_t q = 0; q < 12; ++q) b.wait(r, q);
  }
  const PerModel finish{{"analytic", 41060 * kNs}, {"flow", 82020 * kNs}, {"packet", 82020 * kNs}};
  const std::map<std::string, double> mean{
      {"analytic", 41060.0 * kNs}, {"flow", 82020.0 * kNs}, {"packet", 79972.0 * kNs}};
  for (const auto& model : kModels) {
    const auto r =
        run(b.trace(), "torus:2x2x2", one_rank_per_node(kHaloRanks), eager_config(model));
    for (Rank i = 0; i < kHaloRanks; ++i)
      EXPECT_EQ(r.rank_finish[static_cast<std::size_t>(i)], finish.at(model)) << model << " " << i;
    EXPECT_EQ(r.latency.count(), 48U) << model;
    EXPECT_EQ(r.latency.max(), finish.at(model)) << model;
    EXPECT_DOUBLE_EQ(r.latency.mean(), mean.at(model)) << model;
  }
}

}  // namespace
}  // namespace mapsim::testing
