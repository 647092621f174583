// Size-dependent bandwidth and latency factors (sim/SizeFactors.hpp) and reverse traffic
// (ModelOptions::reverse_traffic, flow model), solved by hand on the round links of
// SimTestSupport.hpp: one torus hop is 100 ns and 1 GB/s (1 byte = 1 ns), the intra-node channel
// 200 ns and 1 GB/s. Factors are binary fractions (0.25, 0.5, 1.5, 2.5, ...) so that every
// factored latency and transfer time is an exact number of ps.

#include "sim/SizeFactors.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "RandomExchange.hpp"
#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"

namespace mapsim::testing {
namespace {

using sim::SizeFactors;
using sim::Time;
using traces::CollectiveOp;

SizeFactors parse(std::string_view text) {
  return SizeFactors::parse(text, "--bw-factor");
}

/// The message of a SizeFactors::parse(text, where) that must throw InputError ("" if it did
/// not).
std::string parse_error(std::string_view text, std::string_view where = "network.bw-factor") {
  try {
    (void)SizeFactors::parse(text, where);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

/// `config` with the given factors (SimGrid notation) and reverse traffic.
sim::SimConfig with_factors(sim::SimConfig config, std::string_view bw, std::string_view lat,
                            bool reverse = false) {
  config.model_options.bandwidth_factor = SizeFactors::parse(bw, "--bw-factor");
  config.model_options.latency_factor = SizeFactors::parse(lat, "--lat-factor");
  config.model_options.reverse_traffic = reverse;
  return config;
}

/// The error of a replay of `trace` that must throw InputError ("" if it did not).
std::string run_error(const traces::Trace& trace, const std::vector<topo::NodeId>& nodes,
                      const sim::SimConfig& config) {
  try {
    run(trace, "torus:4x4x4", nodes, config);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Parsing and lookup

TEST(SizeFactorsSpec, DefaultIsOneEverywhere) {
  const SizeFactors f;
  EXPECT_TRUE(f.identity());
  EXPECT_EQ(f(0), 1.0);
  EXPECT_EQ(f(1), 1.0);
  EXPECT_EQ(f(INT64_MAX), 1.0);
  EXPECT_EQ(f.to_string(), "1");
}

TEST(SizeFactorsSpec, SingleValueAppliesToEverySize) {
  const auto f = parse("0.8");
  EXPECT_FALSE(f.identity());
  // Zero-byte messages included: a single value has no boundary to be below.
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{65536}, INT64_MAX})
    EXPECT_EQ(f(n), 0.8) << n;
  EXPECT_EQ(f.to_string(), "0.8");
  EXPECT_EQ(parse("2.5")(0), 2.5);
  EXPECT_EQ(parse("1e-3")(7), 0.001);
}

TEST(SizeFactorsSpec, StepsInAnyOrderAreSorted) {
  // The same three steps, written in three orders.
  const auto f = parse("1000:0.25;0:0.5;100:0.75");
  EXPECT_EQ(f, parse("0:0.5;100:0.75;1000:0.25"));
  EXPECT_EQ(f, parse("100:0.75;1000:0.25;0:0.5"));
  EXPECT_EQ(f.to_string(), "0:0.5;100:0.75;1000:0.25");
  EXPECT_FALSE(f.identity());
}

TEST(SizeFactorsSpec, AMessageTakesTheFactorOfTheLargestBoundaryBelowIt) {
  const auto f = parse("1000:0.25;0:0.5;100:0.75");
  // n <= every boundary: 1 (only n = 0 here, as 0 is a boundary: "0:F" leaves 0 bytes at 1).
  EXPECT_EQ(f(0), 1.0);
  // 0 < n <= 100: the step of 0.
  EXPECT_EQ(f(1), 0.5);
  EXPECT_EQ(f(99), 0.5);
  EXPECT_EQ(f(100), 0.5);   // n == S_i takes the previous step
  EXPECT_EQ(f(101), 0.75);  // n == S_i + 1 takes the step of S_i
  EXPECT_EQ(f(1000), 0.75);
  EXPECT_EQ(f(1001), 0.25);
  EXPECT_EQ(f(INT64_MAX), 0.25);
  // Without a 0 boundary, sizes up to the first one get 1.
  const auto g = parse("65536:0.5");
  EXPECT_EQ(g(0), 1.0);
  EXPECT_EQ(g(1), 1.0);
  EXPECT_EQ(g(65536), 1.0);
  EXPECT_EQ(g(65537), 0.5);
}

TEST(SizeFactorsSpec, ToStringIsCanonical) {
  EXPECT_EQ(parse("1").to_string(), "1");
  EXPECT_EQ(parse("1.50").to_string(), "1.5");
  EXPECT_EQ(parse("5e-1").to_string(), "0.5");
  EXPECT_EQ(parse("0100:2;0:1.0").to_string(), "0:1;100:2");
  // A final ';' is accepted (as SimGrid's tokenizer skips empty tokens), and not printed.
  EXPECT_EQ(parse("0:0.5;").to_string(), "0:0.5");
  EXPECT_EQ(parse("0:0.5;"), parse("0:0.5"));
}

TEST(SizeFactorsSpec, ToStringRoundTrips) {
  for (const std::string_view text :
       {"1", "0.8", "1e-05", "123.456", "0:0.5", "0:1;10:1", "1000:0.25;0:0.5;100:0.75",
        "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;"
        "732:0.341987;257:0.338112;0:0.812084",
        "9223372036854775807:0.3;0:0.1"}) {
    const auto f = parse(text);
    EXPECT_EQ(parse(f.to_string()), f) << text << " -> " << f.to_string();
    // Canonical: printing the parsed canonical text gives the same text.
    EXPECT_EQ(parse(f.to_string()).to_string(), f.to_string()) << text;
  }
  EXPECT_EQ(parse(SizeFactors{}.to_string()), SizeFactors{});
}

TEST(SizeFactorsSpec, IdentityIsEveryFactorOne) {
  EXPECT_TRUE(parse("1").identity());
  EXPECT_TRUE(parse("1.0").identity());
  EXPECT_TRUE(parse("0:1;10:1").identity());
  EXPECT_TRUE(parse("65536:1").identity());
  EXPECT_TRUE(SizeFactors{}.identity());
  EXPECT_FALSE(parse("0.999").identity());
  EXPECT_FALSE(parse("0:1;10:1.5").identity());
  EXPECT_FALSE(parse("0:0.5;10:1").identity());
  // "0:1;10:1" is 1 for every size.
  const auto f = parse("0:1;10:1");
  for (const std::int64_t n : {0, 1, 10, 11, 1'000'000}) EXPECT_EQ(f(n), 1.0) << n;
}

TEST(SizeFactorsSpec, Equality) {
  EXPECT_EQ(parse("1"), SizeFactors{});
  EXPECT_EQ(parse("0.5"), parse("0.50"));
  EXPECT_EQ(parse("0:0.5;10:0.25"), parse("10:0.25;0:0.5"));
  EXPECT_NE(parse("0:0.5;10:0.25"), parse("0:0.5;10:0.5"));   // a factor differs
  EXPECT_NE(parse("0:0.5;10:0.25"), parse("0:0.5;11:0.25"));  // a boundary differs
  EXPECT_NE(parse("0:0.5;10:0.25"), parse("0:0.5"));          // a step fewer
  // A single value and a "0:" step differ on zero-byte messages: not equal.
  EXPECT_NE(parse("0.5"), parse("0:0.5"));
  EXPECT_EQ(parse("0.5")(0), 0.5);
  EXPECT_EQ(parse("0:0.5")(0), 1.0);
}

TEST(SizeFactorsSpec, BadTextThrowsNamingWhereAndThePiece) {
  // Empty text: names `where`.
  const auto empty = parse_error("");
  EXPECT_TRUE(contains(empty, "network.bw-factor")) << empty;
  EXPECT_TRUE(contains(empty, "empty")) << empty;
  struct Bad {
    std::string_view text;
    std::string_view piece;  // what the message must quote
  };
  for (const auto& bad : std::vector<Bad>{
           {"fast", "fast"},                                      // non-numeric single value
           {"0.8x", "0.8x"},                                      // non-numeric single value
           {"nan", "nan"},                                        // not finite
           {"inf", "inf"},                                        // not finite
           {"0", "'0'"},                                          // zero single value
           {"-0.5", "-0.5"},                                      // negative single value
           {"0:abc", "0:abc"},                                    // non-numeric factor
           {"0:", "0:"},                                          // no factor
           {"10:0", "10:0"},                                      // zero factor
           {"0:0.5;10:-1", "10:-1"},                              // negative factor
           {"-5:0.5", "-5:0.5"},                                  // negative size
           {"1.5:0.5", "1.5:0.5"},                                // non-integer size
           {"1k:0.5", "1k:0.5"},                                  // non-integer size
           {":0.5", ":0.5"},                                      // no size
           {"0:0.5;10", "'10'"},                                  // a piece without ':'
           {"0:0.5:1", "0:0.5:1"},                                // a piece with two ':'
           {"0:0.5;10:0.25:3", "10:0.25:3"},                      // a piece with two ':'
           {";0:0.5", "''"},                                      // an empty piece
           {"0:0.5;;10:0.25", "''"},                              // an empty piece
           {"0.5;", "0.5"},                                       // a single value is not a piece
           {"99999999999999999999:0.5", "99999999999999999999"},  // size past int64
           {"1e300", "1e300"},                                    // past 10^6
           {"0:1;65536:2e6", "65536:2e6"},                        // past 10^6
           {"1e-300", "1e-300"},                                  // below 10^-6
       }) {
    const auto message = parse_error(bad.text);
    EXPECT_FALSE(message.empty()) << bad.text << " was accepted";
    EXPECT_TRUE(contains(message, "network.bw-factor")) << bad.text << ": " << message;
    EXPECT_TRUE(contains(message, bad.piece)) << bad.text << ": " << message;
  }
  // A size given twice (the same boundary with the same or another factor): the message names
  // the size.
  for (const std::string_view twice : {"10:0.5;10:0.7", "10:0.5;0:1;10:0.5"}) {
    const auto message = parse_error(twice);
    EXPECT_TRUE(contains(message, "network.bw-factor")) << twice << ": " << message;
    EXPECT_TRUE(contains(message, "size 10")) << twice << ": " << message;
    EXPECT_TRUE(contains(message, "twice")) << twice << ": " << message;
  }
  // The range's ends are accepted, and named when passed.
  EXPECT_EQ(SizeFactors::parse("1e6", "x")(1), 1e6);
  EXPECT_EQ(SizeFactors::parse("1e-6", "x")(1), 1e-6);
  EXPECT_TRUE(contains(parse_error("1e300"), "out of range [1e-06, 1e+06]"));
  // `where` is whatever the caller names.
  EXPECT_TRUE(contains(parse_error("fast", "--lat-factor"), "--lat-factor"));
  EXPECT_THROW((void)SizeFactors::parse("0", "x"), InputError);
}

// ---------------------------------------------------------------------------------------------
// Identity factors replay exactly as without

/// Sends, receives, Isend / Irecv / Wait, compute gaps, zero-byte and rendezvous messages and
/// collectives, on 4 ranks.
traces::Trace mixed_trace() {
  TraceBuilder b(4);
  b.send(0, 1, 100, 1, 2 * kUs).isend(0, 2, 200'000, 7, 2).recv(0, 3, 50, 3).wait(0, 7);
  b.recv(1, 0, 100, 1).irecv(1, 3, 300, 4, 4).send(1, 2, 0, 5, kUs).wait(1, 4);
  b.irecv(2, 0, 200'000, 9, 2).recv(2, 1, 0, 5).wait(2, 9, 3 * kUs);
  b.send(3, 0, 50, 3).send(3, 1, 300, 4, 500 * kNs);
  b.all(CollectiveOp::Allreduce, -1, 4 * 64, 4 * 64);
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  for (Rank r = 0; r < 4; ++r) b.collective(r, CollectiveOp::Bcast, 1, r == 1 ? 4 * 500 : 0, 500);
  return b.trace();
}

/// Two ranks a node on nodes 0..7 of torus:4x4x4:cores=2 (intra-node and network messages).
std::vector<topo::NodeId> two_a_node(Rank ranks) {
  std::vector<topo::NodeId> nodes;
  for (topo::NodeId n = 0; n < ranks / 2; ++n) nodes.insert(nodes.end(), {n, n});
  return nodes;
}

TEST(SizeFactorsReplay, IdentityFactorsReplayExactlyAsWithout) {
  const std::vector<traces::Trace> traces{mixed_trace(), random_exchange(16, 3, 11)};
  const std::vector<std::vector<topo::NodeId>> placements{{0, 0, 1, 5}, two_a_node(16)};
  for (std::size_t t = 0; t < traces.size(); ++t) {
    for (const std::string model : {"analytic", "flow"}) {
      const auto config = round_config(model);
      const auto expected = run(traces[t], "torus:4x4x4:cores=2", placements[t], config);
      EXPECT_GT(expected.makespan, 0);
      for (const auto& [bw, lat] : std::vector<std::pair<std::string_view, std::string_view>>{
               {"1", "1"}, {"0:1;10:1", "1"}, {"1", "0:1;10:1"}, {"0:1;10:1", "65536:1;0:1"}}) {
        SCOPED_TRACE(model + ", trace " + std::to_string(t) + ", bw " + std::string(bw) + ", lat " +
                     std::string(lat));
        const auto r =
            run(traces[t], "torus:4x4x4:cores=2", placements[t], with_factors(config, bw, lat));
        expect_same_result(r, expected);
      }
      // Default-constructed factors and reverse traffic off, spelled out.
      auto spelled = config;
      spelled.model_options.bandwidth_factor = SizeFactors{};
      spelled.model_options.latency_factor = SizeFactors{};
      spelled.model_options.reverse_traffic = false;
      expect_same_result(run(traces[t], "torus:4x4x4:cores=2", placements[t], spelled), expected);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Lone messages: analytic, and flow alike

// torus:4x4x4, ranks on nodes 0 and 2: two hops, 200 ns, bottleneck 1 GB/s.
constexpr Time kTwoHops = 200 * kNs;
// Steps at 2000 B: bandwidth x0.5 up to 2000 B, x0.25 above; latency x1.5, then x2.5. Zero-byte
// messages are below every boundary: factor 1 on both.
constexpr std::string_view kBw = "2000:0.25;0:0.5";
constexpr std::string_view kLat = "0:1.5;2000:2.5";

TEST(SizeFactorsReplay, LoneEagerMessageTakesFactoredLatencyAndBandwidth) {
  struct Case {
    std::int64_t n;
    Time expected;
  };
  const Case cases[] = {
      // 1.5 x 200 ns + 1 B / (1 GB/s x 0.5) = 300 + 2 ns
      {1, kTwoHops * 3 / 2 + 1 * kNs * 2},
      // 1.5 x 200 ns + 2000 B / (1 GB/s x 0.5) = 300 + 4000 ns (n == S: the previous step)
      {2000, kTwoHops * 3 / 2 + 2000 * kNs * 2},
      // 2.5 x 200 ns + 2001 B / (1 GB/s x 0.25) = 500 + 8004 ns (n == S + 1: the step of S)
      {2001, kTwoHops * 5 / 2 + 2001 * kNs * 4},
      // 2.5 x 200 ns + 60000 B / 0.25 GB/s = 500 + 240000 ns
      {60'000, kTwoHops * 5 / 2 + 60'000 * kNs * 4},
      // A zero-byte message: the latency alone, factor 1 (0 <= the boundary 0)
      {0, kTwoHops},
  };
  for (const std::string model : {"analytic", "flow"}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(model + ", " + std::to_string(c.n) + " B");
      TraceBuilder b(2);
      b.send(0, 1, c.n).recv(1, 0, c.n);
      const auto r =
          run(b.trace(), "torus:4x4x4", {0, 2}, with_factors(round_config(model), kBw, kLat));
      EXPECT_EQ(r.rank_finish[0], 0);  // eager: the send returns at once
      EXPECT_EQ(r.rank_finish[1], c.expected);
      EXPECT_EQ(r.latency.count(), 1U);
      EXPECT_EQ(r.latency.max(), c.expected);
      // The contention-free yardstick has the factors too: no slowdown.
      EXPECT_EQ(r.latency.mean_slowdown(), 1.0);
      // Bytes counted are the message's, not scaled by the factor.
      EXPECT_EQ(r.message_bytes, static_cast<std::uint64_t>(c.n));
    }
  }
}

TEST(SizeFactorsReplay, SingleValuesApplyToZeroByteMessagesToo) {
  // "0.5" and "1.5" for every size, 0 included: a zero-byte message takes 1.5 x 200 ns.
  for (const std::string model : {"analytic", "flow"}) {
    SCOPED_TRACE(model);
    const auto config = with_factors(round_config(model), "0.5", "1.5");
    TraceBuilder zero(2);
    zero.send(0, 1, 0).recv(1, 0, 0);
    EXPECT_EQ(run(zero.trace(), "torus:4x4x4", {0, 2}, config).rank_finish[1], kTwoHops * 3 / 2);
    TraceBuilder some(2);
    some.send(0, 1, 3000).recv(1, 0, 3000);
    // 1.5 x 200 ns + 3000 B / 0.5 GB/s = 300 + 6000 ns
    EXPECT_EQ(run(some.trace(), "torus:4x4x4", {0, 2}, config).rank_finish[1],
              kTwoHops * 3 / 2 + 3000 * kNs * 2);
  }
}

TEST(SizeFactorsReplay, RendezvousControlMessagesTakeTheFactorsOfZeroBytes) {
  // 2001 B above an eager threshold of 1000 B: request-to-send, clear-to-send (zero bytes each),
  // then the data; both ranks complete when the data has arrived.
  constexpr std::int64_t n = 2001;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(1, 0, n);
  for (const std::string model : {"analytic", "flow"}) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    config.eager_threshold = 1000;
    {
      // Steps: the control messages are below the 0 boundary (factor 1): 200 + 200 ns; the data
      // 2.5 x 200 ns + 2001 B / 0.25 GB/s = 500 + 8004 ns.
      const Time data = kTwoHops * 5 / 2 + n * kNs * 4;
      const auto r = run(b.trace(), "torus:4x4x4", {0, 2}, with_factors(config, kBw, kLat));
      EXPECT_EQ(r.rank_finish[0], kTwoHops + kTwoHops + data);
      EXPECT_EQ(r.rank_finish[1], kTwoHops + kTwoHops + data);
      // The message's latency is its data's alone.
      EXPECT_EQ(r.latency.count(), 1U);
      EXPECT_EQ(r.latency.max(), data);
      EXPECT_EQ(r.latency.mean_slowdown(), 1.0);
    }
    {
      // Single values: every transfer takes 1.5 x the latency, the control messages included:
      // 300 + 300 ns, then 300 ns + 2001 B / 0.5 GB/s = 300 + 4002 ns.
      const Time control = kTwoHops * 3 / 2;
      const Time data = kTwoHops * 3 / 2 + n * kNs * 2;
      const auto r = run(b.trace(), "torus:4x4x4", {0, 2}, with_factors(config, "0.5", "1.5"));
      EXPECT_EQ(r.rank_finish[0], control + control + data);
      EXPECT_EQ(r.rank_finish[1], control + control + data);
      EXPECT_EQ(r.latency.max(), data);
    }
  }
}

TEST(SizeFactorsReplay, IntraNodeMessagesTakeTheFactorsToo) {
  // Both ranks on node 5: its channel, 200 ns and 1 GB/s. 3000 B: 2.5 x 200 ns + 3000 B /
  // 0.25 GB/s = 500 + 12000 ns.
  TraceBuilder b(2);
  b.send(0, 1, 3000).recv(1, 0, 3000);
  for (const std::string model : {"analytic", "flow"}) {
    const auto r =
        run(b.trace(), "torus:4x4x4:cores=2", {5, 5}, with_factors(round_config(model), kBw, kLat));
    EXPECT_EQ(r.rank_finish[1], 200 * kNs * 5 / 2 + 3000 * kNs * 4) << model;
  }
}

TEST(SizeFactorsReplay, FlowLoneMessageTakesTheAnalyticTime) {
  // SMPI's default factor tables (not binary fractions): the flow model's lone message must take
  // the analytic time to the picosecond, for sizes on both sides of every boundary.
  constexpr std::string_view smpi_bw =
      "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;"
      "732:0.341987;257:0.338112;0:0.812084";
  constexpr std::string_view smpi_lat =
      "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;"
      "732:1.9503;257:1.95341;0:2.01467";
  auto analytic = with_factors(round_config("analytic"), smpi_bw, smpi_lat);
  auto flow = with_factors(round_config("flow"), smpi_bw, smpi_lat);
  analytic.eager_threshold = flow.eager_threshold = 1 << 30;
  for (const std::int64_t n : {0, 1, 257, 258, 732, 733, 1426, 1427, 3484, 3485, 5776, 5777, 9376,
                               9377, 15424, 15425, 65472, 65473, 1'000'003}) {
    TraceBuilder b(2);
    b.send(0, 1, n).recv(1, 0, n);
    const auto a = run(b.trace(), "torus:4x4x4", {0, 2}, analytic);
    const auto f = run(b.trace(), "torus:4x4x4", {0, 2}, flow);
    EXPECT_EQ(f.rank_finish[1], a.rank_finish[1]) << n;
    EXPECT_EQ(f.latency.mean_slowdown(), 1.0) << n;
    // The analytic time is the documented one, rounded: the factored latency and the transfer
    // time each to the picosecond (checked loosely, within 1 ps).
    const double expected = 200e3 * SizeFactors::parse(smpi_lat, "lat")(n) +
                            static_cast<double>(n) * 1e3 / SizeFactors::parse(smpi_bw, "bw")(n);
    EXPECT_NEAR(static_cast<double>(a.rank_finish[1]), expected, 1.0) << n;
  }
}

// ---------------------------------------------------------------------------------------------
// Flow: loading at r, progressing at r x factor

// Ranks 0, 1 on node 0 send to ranks 2, 3 on node 1: both flows cross link 0 -> 1 (100 ns, the
// same route: equal weights).
TEST(SizeFactorsFlow, TwoFlowsShareTheLinkButProgressAtTheirFactors) {
  // A: 200 000 B, factor 0.25 (100 000 < n <= 400 000); B: 500 000 B, factor 1 (n > 400 000).
  // In link bytes (bytes / factor): A 800 000, B 500 000. Both join at 100 ns and load the link
  // at 0.5 GB/s each; B's 500 000 link bytes are through after 1 000 000 ns: B drains at
  // 100 + 1 000 000 ns, having moved 500 000 B, while A has moved 0.25 x 500 000 = 125 000 B
  // (500 000 link bytes) of its 200 000. A then has the link alone at 1 GB/s: its 300 000 link
  // bytes (75 000 B at 0.25 GB/s) take 300 000 ns more: 100 + 1 300 000 ns. The larger message
  // finishes first.
  constexpr std::int64_t a = 200'000;
  constexpr std::int64_t bb = 500'000;
  TraceBuilder b(4);
  b.send(0, 2, a).send(1, 3, bb).recv(2, 0, a).recv(3, 1, bb);
  auto config = with_factors(round_config("flow"), "100000:0.25;400000:1", "1");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  const Time b_done = 100 * kNs + 2 * bb * kNs;     // 500 000 B at 0.5 GB/s
  const Time a_done = b_done + (a * 4 - bb) * kNs;  // 800 000 - 500 000 link B
  EXPECT_EQ(r.rank_finish[3], b_done);
  EXPECT_EQ(r.rank_finish[2], a_done);
  EXPECT_EQ(a_done, 100 * kNs + 1'300'000 * kNs);  // the total: 1.3 MB of link bytes at 1 GB/s
  // The analytic model shares nothing: 100 ns + 800 000 ns and 100 ns + 500 000 ns.
  config.model = "analytic";
  const auto alone = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  EXPECT_EQ(alone.rank_finish[2], 100 * kNs + a * 4 * kNs);
  EXPECT_EQ(alone.rank_finish[3], 100 * kNs + bb * kNs);
}

TEST(SizeFactorsFlow, TwoFlowsBothSlowedByTheirFactors) {
  // A: 200 000 B at factor 0.5, B: 500 000 B at 0.25 ("100000:0.5;400000:0.25"): link bytes
  // 400 000 and 2 000 000. Both at 0.5 GB/s of link until A's 400 000 are through, after
  // 800 000 ns; B has 2 000 000 - 400 000 = 1 600 000 left, alone at 1 GB/s: 1 600 000 ns more.
  constexpr std::int64_t a = 200'000;
  constexpr std::int64_t bb = 500'000;
  TraceBuilder b(4);
  b.send(0, 2, a).send(1, 3, bb).recv(2, 0, a).recv(3, 1, bb);
  auto config = with_factors(round_config("flow"), "100000:0.5;400000:0.25", "1");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  const Time a_done = 100 * kNs + 2 * (a * 2) * kNs;    // 400 000 link B at 0.5 GB/s
  const Time b_done = a_done + (bb * 4 - a * 2) * kNs;  // the rest at 1 GB/s
  EXPECT_EQ(r.rank_finish[2], a_done);
  EXPECT_EQ(r.rank_finish[3], b_done);
  EXPECT_EQ(b_done, 100 * kNs + 2'400'000 * kNs);
}

TEST(SizeFactorsFlow, LatencyFactorDelaysTheJoinButNotTheWeight) {
  // A: 100 000 B (latency factor 1) joins link 0 -> 1 at 100 ns; B: 200 000 B (factor 3) at
  // 300 ns. Their weight is 1 / 100 ns each, the route's latency unscaled: equal shares.
  // A alone 100..300 ns moves 200 B; then 0.5 GB/s each: A's 99 800 B left take 199 600 ns, to
  // 199 900 ns; B has moved 99 800 B by then and its last 100 200 B take 100 200 ns alone:
  // 300 100 ns (the link busy without a break from 100 ns for 300 000 B).
  constexpr std::int64_t a = 100'000;
  constexpr std::int64_t bb = 200'000;
  TraceBuilder b(4);
  b.send(0, 2, a).send(1, 3, bb).recv(2, 0, a).recv(3, 1, bb);
  auto config = with_factors(round_config("flow"), "1", "100000:3");
  config.eager_threshold = 1 << 30;
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {0, 0, 1, 1}, config);
  const Time a_join = 100 * kNs;
  const Time b_join = 100 * kNs * 3;
  const Time a_done = b_join + 2 * (a - (b_join - a_join) / kNs) * kNs;
  const Time b_done = a_done + (bb - (a_done - b_join) / kNs / 2) * kNs;
  EXPECT_EQ(a_done, 199'900 * kNs);
  EXPECT_EQ(b_done, 300'100 * kNs);
  EXPECT_EQ(r.rank_finish[2], a_done);
  EXPECT_EQ(r.rank_finish[3], b_done);
}

// ---------------------------------------------------------------------------------------------
// Reverse traffic (flow)

static_assert(sim::kReverseShare == 0.05, "the tests below work with c = 0.05 = 5 / 100");

sim::SimConfig reverse_config(bool reverse) {
  auto config = round_config("flow");
  config.eager_threshold = 1 << 30;
  config.model_options.reverse_traffic = reverse;
  return config;
}

TEST(ReverseTraffic, ExchangeBetweenNeighboursSlowsBothByFivePercent) {
  // Ranks 0 (node 0) and 1 (node 1) send each other 1 MB at 0. Link 0 -> 1 carries A at c = 1
  // and B's reverse at 0.05, link 1 -> 0 the converse: r + 0.05 r = 1 GB/s, r = 1 / 1.05 GB/s.
  // Each finishes at 100 ns + 1 000 000 B x 1.05 ns/B = 100 + 1 050 000 ns. (The model computes
  // the rate in doubles, with 0.05 inexact; the drain time it rounds to the picosecond is
  // 1.05e9 ps to within ~1e-7 ps, so the rounded time is exact.)
  constexpr std::int64_t n = 1'000'000;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(0, 1, n);
  b.send(1, 0, n).recv(1, 0, n);
  const Time expected = 100 * kNs + n * kNs * 105 / 100;
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, reverse_config(true));
  EXPECT_EQ(r.rank_finish[0], expected);
  EXPECT_EQ(r.rank_finish[1], expected);
  // Without reverse traffic each has its link alone: 100 + 1 000 000 ns.
  const auto plain = run(b.trace(), "torus:4x4x4", {0, 1}, reverse_config(false));
  EXPECT_EQ(plain.rank_finish[0], 100 * kNs + n * kNs);
  EXPECT_EQ(plain.rank_finish[1], 100 * kNs + n * kNs);
  // The reverse traffic is not counted as bytes on the links.
  EXPECT_EQ(r.resource_bytes, plain.resource_bytes);
}

TEST(ReverseTraffic, TheLongerMessageGetsItsLinkBackWhenTheOtherEnds) {
  // A: 0 -> 1, 1 MB; B: 1 -> 0, 2 MB. Both at 1 / 1.05 GB/s until A drains at 100 + 1 050 000
  // ns, B having moved 1 MB. Then link 1 -> 0 carries B alone and link 0 -> 1 only B's reverse
  // (0.05 r <= 1 GB/s): r = 1 GB/s, its last 1 MB in 1 000 000 ns: 100 + 2 050 000 ns.
  constexpr std::int64_t n = 1'000'000;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(0, 1, 2 * n);
  b.send(1, 0, 2 * n).recv(1, 0, n);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, reverse_config(true));
  const Time a_done = 100 * kNs + n * kNs * 105 / 100;
  EXPECT_EQ(r.rank_finish[1], a_done);
  EXPECT_EQ(r.rank_finish[0], a_done + n * kNs);
}

TEST(ReverseTraffic, ALoneMessageIsUnchanged) {
  // One message 0 -> 1: link 0 -> 1 carries it alone, link 1 -> 0 only its own reverse traffic
  // (0.05 r <= 1 GB/s binds nothing): 100 ns + 1 000 000 ns, as without.
  constexpr std::int64_t n = 1'000'000;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(1, 0, n);
  for (const std::vector<topo::NodeId>& nodes :
       std::vector<std::vector<topo::NodeId>>{{0, 1}, {0, 2}, {0, 21}}) {
    SCOPED_TRACE(nodes[1]);
    const auto r = run(b.trace(), "torus:4x4x4", nodes, reverse_config(true));
    const auto plain = run(b.trace(), "torus:4x4x4", nodes, reverse_config(false));
    expect_same_result(r, plain);
  }
  EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 1}, reverse_config(true)).rank_finish[1],
            100 * kNs + n * kNs);
}

TEST(ReverseTraffic, IntraNodeMessagesHaveNone) {
  // Ranks 0 and 1 on node 5 send each other 1 MB: its channel carries both flows, 0.5 GB/s each
  // (200 ns + 2 000 000 ns). Were reverse traffic added there (the route back is the same
  // channel), each would get 1 / 2.1 GB/s instead.
  constexpr std::int64_t n = 1'000'000;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(0, 1, n);
  b.send(1, 0, n).recv(1, 0, n);
  const auto r = run(b.trace(), "torus:4x4x4:cores=2", {5, 5}, reverse_config(true));
  EXPECT_EQ(r.rank_finish[0], 200 * kNs + 2 * n * kNs);
  EXPECT_EQ(r.rank_finish[1], 200 * kNs + 2 * n * kNs);
  expect_same_result(r, run(b.trace(), "torus:4x4x4:cores=2", {5, 5}, reverse_config(false)));
}

TEST(ReverseTraffic, WithFactors) {
  // The exchange of ExchangeBetweenNeighbours with bandwidth factor 0.5 and latency factor 1.5:
  // each flow loads its link at 1 / 1.05 GB/s and moves half that: 150 ns + 1 MB x 1.05 x 2 ns.
  constexpr std::int64_t n = 1'000'000;
  TraceBuilder b(2);
  b.send(0, 1, n).recv(0, 1, n);
  b.send(1, 0, n).recv(1, 0, n);
  const auto config = with_factors(reverse_config(true), "0.5", "1.5", true);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, config);
  const Time expected = 100 * kNs * 3 / 2 + n * kNs * 2 * 105 / 100;
  EXPECT_EQ(r.rank_finish[0], expected);
  EXPECT_EQ(r.rank_finish[1], expected);
}

// ---------------------------------------------------------------------------------------------
// The packet model refuses them

TEST(SizeFactorsReplay, PacketModelRefusesFactorsAndReverseTraffic) {
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  const auto packet = round_config("packet");
  struct Case {
    std::string_view bw;
    std::string_view lat;
    bool reverse;
    std::string_view option;  // what the message must name
  };
  for (const auto& c : std::vector<Case>{{"0.8", "1", false, "--bw-factor"},
                                         {"0:0.5;1000:0.8", "1", false, "--bw-factor"},
                                         {"1", "2", false, "--lat-factor"},
                                         {"1", "65536:2", false, "--lat-factor"},
                                         {"1", "1", true, "--reverse-traffic"},
                                         {"0.5", "1.5", true, "--reverse-traffic"}}) {
    SCOPED_TRACE(std::string(c.bw) + " / " + std::string(c.lat) + " / " +
                 (c.reverse ? "reverse" : "no reverse"));
    const auto message = run_error(b.trace(), {0, 2}, with_factors(packet, c.bw, c.lat, c.reverse));
    EXPECT_FALSE(message.empty()) << "accepted";
    EXPECT_TRUE(contains(message, "packet")) << message;
    EXPECT_TRUE(contains(message, c.option)) << message;
  }
  // Identity factors are no factors: accepted, and the replay is the same.
  const auto expected = run(b.trace(), "torus:4x4x4", {0, 2}, packet);
  expect_same_result(run(b.trace(), "torus:4x4x4", {0, 2}, with_factors(packet, "0:1;10:1", "1")),
                     expected);
}

// ---------------------------------------------------------------------------------------------
// Slowdowns and determinism

TEST(SizeFactorsReplay, AnalyticSlowdownIsOneWithFactors) {
  // The contention-free yardstick of every message has the factors: under analytic every message
  // takes exactly its yardstick, intra-node and network, eager and rendezvous, collectives too.
  const auto trace = random_exchange(16, 4, 5);
  for (const auto& [bw, lat] : std::vector<std::pair<std::string_view, std::string_view>>{
           {kBw, kLat},
           {"0.8", "2"},
           {"65472:0.940694;15424:0.697866;9376:0.58729;0:0.812084", "1"},
           {"1", "65472:11.6436;1426:1.61075;0:2.01467"}}) {
    SCOPED_TRACE(std::string(bw) + " / " + std::string(lat));
    const auto r = run(trace, "torus:4x4x4:cores=2", two_a_node(16),
                       with_factors(round_config("analytic"), bw, lat));
    EXPECT_GT(r.latency.count(), 0U);
    EXPECT_EQ(r.latency.mean_slowdown(), 1.0);
    EXPECT_EQ(r.latency.aggregate_slowdown(), 1.0);
  }
}

TEST(SizeFactorsReplay, SameConfigTwiceGivesTheSameResult) {
  const auto trace = random_exchange(16, 4, 9);
  const auto nodes = two_a_node(16);
  for (const std::string model : {"analytic", "flow"}) {
    for (const bool reverse : {false, true}) {
      if (model == "analytic" && reverse) continue;  // reverse traffic is the flow model's
      SCOPED_TRACE(model + (reverse ? " with reverse traffic" : ""));
      const auto config = with_factors(round_config(model), kBw, kLat, reverse);
      const auto a = run(trace, "torus:4x4x4:cores=2", nodes, config);
      const auto b = run(trace, "torus:4x4x4:cores=2", nodes, config);
      expect_same_result(a, b);
      EXPECT_EQ(a.unmatched_messages, 0U);
      // The factors (all below 1 on bandwidth, above on latency) slow the replay down.
      const auto plain = run(trace, "torus:4x4x4:cores=2", nodes, round_config(model));
      EXPECT_GT(a.makespan, plain.makespan);
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
