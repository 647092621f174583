// MPI's envelope (ModelOptions::envelope, sim/NetworkModel.hpp), solved by hand on the round links
// of SimTestSupport.hpp: one torus hop is 100 ns and 1 GB/s (1 byte = 1 ns), the intra-node
// channel 200 ns and 1 GB/s. Checks:
//   - a lone message of n bytes with envelope e takes L + (n + e) / B under analytic and flow
//     (and packet, in one packet), its contention-free yardstick and the critical path's
//     bandwidth part too;
//   - it replays exactly as an (n + e)-byte message without envelope, under every model;
//   - a zero-byte message takes L + e / B;
//   - the links carry n + e bytes, while the result's point-to-point and collective byte counts
//     and the critical path's transfer list keep the payload n;
//   - the eager/rendezvous decision sees the payload: a message of exactly the eager threshold
//     goes eagerly, one byte more goes by rendezvous, whose control transfers carry no envelope;
//   - size factors are looked up at the size on the wire, n + e;
//   - collectives' messages carry it too;
//   - envelope 0 replays bit for bit as the default ModelOptions;
//   - validate() takes 0 to kMaxEnvelope and names --envelope outside it; a payload whose
//     envelope passes the largest byte count is an error, not a wrapped size.

#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "RandomExchange.hpp"
#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/SizeFactors.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;
using ::testing::AllOf;
using ::testing::HasSubstr;

// torus:4x4x4, ranks on nodes 0 and 1: one hop, 100 ns, 1 GB/s.
const std::vector<topo::NodeId> kNeighbours{0, 1};
constexpr Time kHop = 100 * kNs;

sim::SimConfig with_envelope(const std::string& model, std::int64_t envelope) {
  auto config = round_config(model);
  config.model_options.envelope = envelope;
  return config;
}

/// One blocking message of `bytes` from rank 0 to rank 1.
traces::Trace one_message(std::int64_t bytes) {
  TraceBuilder b(2);
  b.send(0, 1, bytes).recv(1, 0, bytes);
  return b.trace();
}

/// Bytes the network links (not the nodes' channels) carried, and their busy time.
std::int64_t link_bytes(const sim::Result& r) {
  return std::accumulate(r.resource_bytes.begin(), r.resource_bytes.begin() + r.link_count,
                         std::int64_t{0});
}
Time link_busy(const sim::Result& r) {
  return std::accumulate(r.resource_busy.begin(), r.resource_busy.begin() + r.link_count, Time{0});
}

TEST(Envelope, LoneMessageTakesLatencyPlusPayloadAndEnvelopeOverBandwidth) {
  struct Case {
    std::int64_t n;
    std::int64_t e;
    Time expected;
  };
  const Case cases[] = {
      {1000, 16, kHop + 1016 * kNs},  // 100 + 1016 ns
      {1, 16, kHop + 17 * kNs},       // 100 + 17 ns
      {1000, 4096, kHop + 5096 * kNs},
      // 60000 + 16000 B on the wire, above the 64 KiB eager threshold; the payload is below it:
      // eager all the same, 100 + 76000 ns.
      {60'000, 16'000, kHop + 76'000 * kNs},
  };
  for (const std::string model : {"analytic", "flow"}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(model + ", " + std::to_string(c.n) + " B + " + std::to_string(c.e) + " B");
      const auto r = run(one_message(c.n), "torus:4x4x4", kNeighbours, with_envelope(model, c.e));
      EXPECT_EQ(r.rank_finish[0], 0);  // eager: the send returns at once
      EXPECT_EQ(r.rank_finish[1], c.expected);
      EXPECT_EQ(r.makespan, c.expected);
      EXPECT_EQ(r.latency.count(), 1U);
      EXPECT_EQ(r.latency.max(), c.expected);
      // The contention-free yardstick carries the envelope too: no slowdown.
      EXPECT_EQ(r.latency.mean_slowdown(), 1.0);
      // The critical path: the hop's latency and (n + e) / B of bandwidth, no contention.
      EXPECT_EQ(r.critical_path.latency, kHop);
      EXPECT_EQ(r.critical_path.bandwidth, (c.n + c.e) * kNs);
      EXPECT_EQ(r.critical_path.contention, 0);
      EXPECT_EQ(r.critical_path.messages, 1U);
    }
  }
  // packet: 1016 B is one packet, which takes the same 100 + 1016 ns.
  EXPECT_EQ(
      run(one_message(1000), "torus:4x4x4", kNeighbours, with_envelope("packet", 16)).makespan,
      kHop + 1016 * kNs);
}

// An n-byte message with envelope e and an (n + e)-byte one without: the same replay but for the
// payload counted, under every model, over one hop and two (nodes 0 and 2), in one packet or
// several (4096 B each), cut-through and store-and-forward.
TEST(Envelope, ReplaysAsAMessageOfPayloadPlusEnvelopeWithout) {
  struct Case {
    std::int64_t n;
    std::int64_t e;
  };
  const Case cases[] = {{1000, 16}, {10'000, 16}, {0, 16}, {8192, 4096}, {4090, 7}};
  for (const auto& model : kModels) {
    for (const bool store_and_forward : {false, true}) {
      if (store_and_forward && model != "packet") continue;
      for (const auto& nodes : {kNeighbours, std::vector<topo::NodeId>{0, 2}}) {
        for (const auto& c : cases) {
          SCOPED_TRACE(model + (store_and_forward ? " (store-and-forward)" : "") + ", node " +
                       std::to_string(nodes[1]) + ", " + std::to_string(c.n) + " B + " +
                       std::to_string(c.e) + " B");
          auto enveloped = with_envelope(model, c.e);
          auto plain = round_config(model);
          enveloped.model_options.cut_through = plain.model_options.cut_through =
              !store_and_forward;
          const auto a = run(one_message(c.n), "torus:4x4x4", nodes, enveloped);
          const auto b = run(one_message(c.n + c.e), "torus:4x4x4", nodes, plain);
          EXPECT_GT(a.makespan, 0);
          EXPECT_EQ(a.makespan, b.makespan);
          EXPECT_EQ(a.rank_finish, b.rank_finish);
          EXPECT_EQ(a.resource_bytes, b.resource_bytes);
          EXPECT_EQ(a.resource_busy, b.resource_busy);
          EXPECT_EQ(a.latency.max(), b.latency.max());
          EXPECT_EQ(a.latency.mean_slowdown(), b.latency.mean_slowdown());
          EXPECT_EQ(a.critical_path.latency, b.critical_path.latency);
          EXPECT_EQ(a.critical_path.bandwidth, b.critical_path.bandwidth);
          EXPECT_EQ(a.critical_path.contention, b.critical_path.contention);
          // Only the count of the payload differs.
          EXPECT_EQ(a.message_bytes, static_cast<std::uint64_t>(c.n));
          EXPECT_EQ(b.message_bytes, static_cast<std::uint64_t>(c.n + c.e));
        }
      }
    }
  }
}

TEST(Envelope, ZeroByteMessageTakesTheEnvelopesTime) {
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    // 100 ns + 16 B / 1 GB/s (packet: one packet of 16 B); without the envelope, the latency.
    const auto r = run(one_message(0), "torus:4x4x4", kNeighbours, with_envelope(model, 16));
    EXPECT_EQ(r.makespan, kHop + 16 * kNs);
    EXPECT_EQ(link_bytes(r), 16);
    EXPECT_EQ(r.message_bytes, 0U);
    EXPECT_EQ(run(one_message(0), "torus:4x4x4", kNeighbours, round_config(model)).makespan, kHop);
  }
}

TEST(Envelope, LinksCarryTheEnvelopeTheCountsDoNot) {
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto config = with_envelope(model, 16);
    config.critical_messages = true;
    const auto r = run(one_message(1000), "torus:4x4x4", kNeighbours, config);
    // One link, 0 -> 1, carried 1000 + 16 B, busy 1016 ns at 1 GB/s.
    EXPECT_EQ(r.links_used, 1);
    EXPECT_EQ(link_bytes(r), 1016);
    EXPECT_EQ(link_busy(r), 1016 * kNs);
    // The result counts the payload, and so does the critical path's list of transfers.
    EXPECT_EQ(r.messages, 1U);
    EXPECT_EQ(r.message_bytes, 1000U);
    ASSERT_EQ(r.critical_messages.size(), 1U);
    EXPECT_EQ(r.critical_messages[0].src, 0);
    EXPECT_EQ(r.critical_messages[0].dst, 1);
    EXPECT_EQ(r.critical_messages[0].bytes, 1000);
  }
  // Ranks on one node: the node's channel carries the envelope too, 200 + 1016 ns.
  const auto intra =
      run(one_message(1000), "torus:4x4x4:cores=2", {5, 5}, with_envelope("flow", 16));
  EXPECT_EQ(intra.makespan, 200 * kNs + 1016 * kNs);
  EXPECT_EQ(intra.links_used, 0);
  EXPECT_EQ(intra.resource_bytes[static_cast<std::size_t>(intra.link_count + 5)], 1016);
}

// The eager threshold (64 KiB by default) compares the payload: a message of exactly 64 KiB is
// sent eagerly whatever its envelope, one byte more goes by rendezvous, whose request-to-send and
// clear-to-send are 0 bytes on the wire (no envelope): 100 ns each.
TEST(Envelope, EagerThresholdSeesThePayloadAndControlTransfersCarryNone) {
  const std::int64_t threshold = sim::SimConfig{}.eager_threshold;
  ASSERT_EQ(threshold, 65536);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto config = with_envelope(model, 16);
    config.critical_messages = true;
    // Eager: the send returns at once; 100 ns + 65552 ns (packet: 17 packets back to back on
    // the one link, the last arriving 100 ns after it left).
    const auto eager = run(one_message(threshold), "torus:4x4x4", kNeighbours, config);
    EXPECT_EQ(eager.rank_finish[0], 0);
    EXPECT_EQ(eager.rank_finish[1], kHop + 65552 * kNs);
    EXPECT_EQ(eager.critical_path.messages, 1U);
    // Rendezvous: RTS 100 ns, CTS 100 ns, then the data 100 + 65553 ns; both ranks complete
    // when it has arrived. 200 ns more than the eager time of the same wire bytes: the control
    // transfers' latencies, with no 16 B each.
    const auto rendezvous = run(one_message(threshold + 1), "torus:4x4x4", kNeighbours, config);
    const Time expected = kHop + kHop + kHop + 65553 * kNs;
    EXPECT_EQ(rendezvous.rank_finish[0], expected);
    EXPECT_EQ(rendezvous.rank_finish[1], expected);
    EXPECT_EQ(expected - (kHop + 65553 * kNs), 2 * kHop);
    // The links carried the data and its envelope only (the CTS crossed 1 -> 0 with 0 bytes).
    EXPECT_EQ(link_bytes(rendezvous), 65553);
    EXPECT_EQ(rendezvous.message_bytes, 65537U);
    // On the critical path: RTS, CTS, data; 3 x 100 ns of latency, the data's 65553 ns.
    EXPECT_EQ(rendezvous.critical_path.messages, 3U);
    EXPECT_EQ(rendezvous.critical_path.latency, 3 * kHop);
    EXPECT_EQ(rendezvous.critical_path.bandwidth, 65553 * kNs);
    ASSERT_EQ(rendezvous.critical_messages.size(), 3U);
    EXPECT_EQ(rendezvous.critical_messages[0].bytes, 0);
    EXPECT_EQ(rendezvous.critical_messages[1].bytes, 0);
    EXPECT_EQ(rendezvous.critical_messages[1].src, 1);  // the CTS goes back
    EXPECT_EQ(rendezvous.critical_messages[2].bytes, threshold + 1);
  }
}

// Size factors take the size on the wire (as SMPI's network model sees the message's size):
// bandwidth x0.5 up to 2000 B, x0.25 above.
TEST(Envelope, SizeFactorsAreLookedUpAtTheWireSize) {
  struct Case {
    std::int64_t n;
    std::int64_t e;
    Time expected;
  };
  const Case cases[] = {
      {1990, 0, kHop + 1990 * kNs * 2},   // 1990 B at 0.5 GB/s
      {1984, 16, kHop + 2000 * kNs * 2},  // 2000 B on the wire: still x0.5 (n == S)
      {1990, 16, kHop + 2006 * kNs * 4},  // 2006 B on the wire: x0.25, though 1990 <= 2000
      {0, 2001, kHop + 2001 * kNs * 4}};  // a zero-byte message of 2001 B on the wire
  for (const std::string model : {"analytic", "flow"}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(model + ", " + std::to_string(c.n) + " B + " + std::to_string(c.e) + " B");
      auto config = with_envelope(model, c.e);
      config.model_options.bandwidth_factor = sim::SizeFactors::parse("2000:0.25;0:0.5", "bw");
      const auto r = run(one_message(c.n), "torus:4x4x4", kNeighbours, config);
      EXPECT_EQ(r.makespan, c.expected);
      EXPECT_EQ(r.latency.mean_slowdown(), 1.0);
    }
  }
}

TEST(Envelope, CollectiveMessagesCarryItToo) {
  // A binomial broadcast of 1000 B among 8 ranks on one node: 7 messages, a chain of 3, each
  // 200 ns + (1000 + 16) B / 1 GB/s: 3 x 1216 ns. The channel carried 7 x 1016 B; the result
  // counts 7 x 1000 B.
  TraceBuilder b(8);
  for (Rank r = 0; r < 8; ++r)
    b.collective(r, traces::CollectiveOp::Bcast, 2, r == 2 ? 8000 : 0, 1000);
  const std::vector<topo::NodeId> nodes(8, 0);
  const auto res = run(b.trace(), "torus:4x4x4:cores=8", nodes, with_envelope("analytic", 16));
  EXPECT_EQ(res.collective_messages, 7U);
  EXPECT_EQ(res.collective_bytes, 7000U);
  EXPECT_EQ(res.makespan, 3 * (200 + 1016) * kNs);
  EXPECT_EQ(res.resource_bytes[static_cast<std::size_t>(res.link_count)], 7 * 1016);
}

TEST(Envelope, ZeroReplaysExactlyAsTheDefault) {
  const auto trace = random_exchange(16, 2, 7);
  std::vector<topo::NodeId> nodes;  // two ranks a node on nodes 0..7
  for (topo::NodeId n = 0; n < 8; ++n) nodes.insert(nodes.end(), {n, n});
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto plain = round_config(model);
    plain.model_options = sim::ModelOptions{};
    const auto expected = run(trace, "torus:4x4x4:cores=2", nodes, plain);
    EXPECT_GT(expected.makespan, 0);
    auto zero = with_envelope(model, 16);
    zero.model_options.envelope = 0;
    expect_same_result(run(trace, "torus:4x4x4:cores=2", nodes, zero), expected);
    // And 16 B changes it: more bytes on the links, the same counted, a longer replay.
    const auto sixteen = run(trace, "torus:4x4x4:cores=2", nodes, with_envelope(model, 16));
    EXPECT_GT(link_bytes(sixteen), link_bytes(expected));
    EXPECT_EQ(sixteen.message_bytes, expected.message_bytes);
    EXPECT_EQ(sixteen.collective_bytes, expected.collective_bytes);
    EXPECT_GT(sixteen.makespan, expected.makespan);
  }
}

TEST(Envelope, ValidateTakesZeroToOneMebibyte) {
  ASSERT_EQ(sim::kMaxEnvelope, 1 << 20);
  ASSERT_EQ(sim::kSmpiEnvelope, 16);
  for (const std::int64_t bad :
       {std::int64_t{-1}, sim::kMaxEnvelope + 1, std::numeric_limits<std::int64_t>::min()}) {
    SCOPED_TRACE(bad);
    const auto config = with_envelope("flow", bad);
    EXPECT_THAT(error_of([&] { sim::validate(config); }),
                AllOf(HasSubstr("--envelope"), HasSubstr(std::to_string(bad)),
                      HasSubstr("out of range [0, 1048576]")));
    // simulate() validates first.
    EXPECT_THAT(error_of([&] { (void)run(one_message(8), "torus:4x4x4", kNeighbours, config); }),
                HasSubstr("--envelope"));
  }
  for (const std::int64_t good : {std::int64_t{0}, sim::kSmpiEnvelope, sim::kMaxEnvelope}) {
    EXPECT_NO_THROW(sim::validate(with_envelope("packet", good))) << good;
  }
  // The largest: 100 ns + (8 B + 1 MiB) / 1 GB/s.
  EXPECT_EQ(
      run(one_message(8), "torus:4x4x4", kNeighbours, with_envelope("analytic", sim::kMaxEnvelope))
          .makespan,
      kHop + (8 + sim::kMaxEnvelope) * kNs);
}

TEST(Envelope, PayloadAndEnvelopePastTheLargestSizeIsAnError) {
  // A (rendezvous) payload of 2^63 - 9 B and a 16-byte envelope pass 2^63 - 1 B: named, not
  // wrapped to a negative size.
  constexpr std::int64_t n = std::numeric_limits<std::int64_t>::max() - 8;
  for (const auto& model : kModels) {
    EXPECT_THAT(error_of([&] {
                  (void)run(one_message(n), "torus:4x4x4", kNeighbours, with_envelope(model, 16));
                }),
                AllOf(HasSubstr(std::to_string(n) + " bytes"), HasSubstr("16-byte envelope"),
                      HasSubstr("9223372036854775807")))
        << model;
  }
}

}  // namespace
}  // namespace mapsim::testing
