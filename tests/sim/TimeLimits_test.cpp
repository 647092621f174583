// Time-producing inputs: range checks on link parameters, compute scale, eager threshold and
// packet size, and picosecond overflow detected where times are computed (an InputError naming
// the cause, never a wrapped, negative or zero time).

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/Time.hpp"
#include "topologies/LinkClass.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string replay_error(const traces::Trace& trace, const sim::SimConfig& config) {
  return error_of([&] {
    std::vector<topo::NodeId> nodes(trace.ranks.size());
    std::iota(nodes.begin(), nodes.end(), 0);
    (void)run(trace, "torus:4x4", nodes, config);
  });
}

TEST(TimeLimits, ConversionsAreExactInRange) {
  EXPECT_EQ(sim::seconds_to_time(1.5), 1'500'000'000'000);
  EXPECT_EQ(sim::transfer_time(1000, 1e9), 1'000'000);  // 1000 B at 1 GB/s: 1 us
  EXPECT_EQ(sim::add_time(sim::kMaxTime - 1, 1), sim::kMaxTime);
  // 9e6 s is within the clock's 9.22e6 s.
  EXPECT_EQ(sim::seconds_to_time(9e6), Time{9'000'000'000'000'000'000});
}

// round_to_integer is std::llround inline: halves away from zero, the largest double below a
// half (0.49999999999999994, where adding 0.5 would round up), integers near 2^52 and 2^53 where
// the fraction vanishes, and large values below 2^63.
TEST(TimeLimits, RoundingIsLlround) {
  const double below_half = std::nextafter(0.5, 0.0);
  for (const double x : {0.0,
                         0.5,
                         1.5,
                         2.5,
                         -0.5,
                         -1.5,
                         -2.5,
                         below_half,
                         -below_half,
                         0.25,
                         0.75,
                         1e-300,
                         4503599627370495.5,
                         4503599627370496.0,
                         9007199254740993.0,
                         1e18 + 0.5,
                         9.2e18,
                         -9.2e18,
                         123456.49999999999,
                         std::nextafter(2.5, 3.0),
                         std::nextafter(2.5, 2.0)}) {
    EXPECT_EQ(sim::round_to_integer(x), std::llround(x)) << x;
  }
}

TEST(TimeLimits, ConversionsPastTheClockThrowNamingTheCause) {
  EXPECT_THAT(error_of([] { (void)sim::seconds_to_time(1e7); }),
              AllOf(HasSubstr("simulated time overflow"), HasSubstr("a duration of 1e+07 s"),
                    HasSubstr("9.223e+06 s")));
  // 1 GB at 1e-3 bytes/s (a bandwidth of 1e-12 GB/s): 1e12 s.
  EXPECT_THAT(error_of([] { (void)sim::transfer_time(1e9, 1e-3); }),
              AllOf(HasSubstr("simulated time overflow"),
                    HasSubstr("sending 1e+09 bytes at 0.001 bytes/s")));
  EXPECT_THAT(error_of([] { (void)sim::transfer_time(1, 0); }),
              HasSubstr("simulated time overflow"));
  EXPECT_THAT(error_of([] { (void)sim::add_time(sim::kMaxTime, 1); }),
              HasSubstr("simulated time overflow"));
  EXPECT_THAT(error_of([] { (void)sim::seconds_to_time(std::nan("")); }),
              HasSubstr("simulated time overflow"));
}

TEST(TimeLimits, LinkParametersOutsideTheirRangeAreRejected) {
  const topo::LinkTable table;
  using topo::LinkClass;
  // --link grid:1e-12:100 and bandwidth 1e-300: no machine's link, and transfers of forever.
  for (const double bandwidth : {1e-3, 1e-291, 0.0, -1.0, 1e16, std::nan("")}) {
    EXPECT_THAT(error_of([&] {
                  (void)table.with(LinkClass::Grid, {bandwidth, 1e-7});
                }),
                AllOf(HasSubstr("bandwidth of link class 'grid'"),
                      HasSubstr("out of range [1e-06, 1e+06] GB/s")))
        << bandwidth;
  }
  // --link grid:25:1e16 (1e16 ns): a week per link.
  for (const double latency : {1e7, 1.5, -1e-9, std::nan("")}) {
    EXPECT_THAT(
        error_of([&] {
          (void)table.with(LinkClass::Grid, {25e9, latency});
        }),
        AllOf(HasSubstr("latency of link class 'grid'"), HasSubstr("out of range [0, 1e+09] ns")))
        << latency;
  }
  EXPECT_NO_THROW((void)table.with(LinkClass::Grid, {topo::kMinBandwidth, topo::kMaxLatency}));
  EXPECT_NO_THROW((void)table.with(LinkClass::Grid, {topo::kMaxBandwidth, 0}));
}

TEST(TimeLimits, ReplayParametersOutsideTheirRangeNameTheOption) {
  auto config = round_config("flow");
  config.compute_scale = 1e9;
  EXPECT_THAT(error_of([&] { sim::validate(config); }),
              AllOf(HasSubstr("compute-scale"), HasSubstr("out of range [0, 1e+06]")));
  config = round_config("flow");
  config.eager_threshold = std::int64_t{1} << 41;
  EXPECT_THAT(error_of([&] { sim::validate(config); }),
              AllOf(HasSubstr("eager-threshold"), HasSubstr("out of range [0, 1099511627776]")));
  config = round_config("packet");
  config.model_options.packet_bytes = std::int64_t{1} << 31;
  EXPECT_THAT(error_of([&] { sim::validate(config); }),
              AllOf(HasSubstr("packet-size"), HasSubstr("out of range [1, 1073741824]")));
  config = round_config("flow");
  config.compute_scale = sim::kMaxComputeScale;
  EXPECT_NO_THROW(sim::validate(config));
}

TEST(TimeLimits, ScaledComputeGapPastTheClockIsAnError) {
  // A gap of 1e5 s scaled by 1000 is 1e8 s, past the 9.2e6 s the clock holds. It used to round
  // to a wrapped time: a makespan of 0, or an event "scheduled in the past".
  TraceBuilder b(2);
  b.send(0, 1, 8, 0, Time{100'000} * sim::kPicosecondsPerSecond).recv(1, 0, 8);
  for (const auto& model : kModels) {
    auto config = round_config(model);
    config.compute_scale = 1000;
    EXPECT_THAT(replay_error(b.trace(), config),
                AllOf(HasSubstr("simulated time overflow"),
                      HasSubstr("rank 0's compute gap of 100000 s scaled by the compute scale "
                                "1000")))
        << model;
  }
}

TEST(TimeLimits, ComputeGapsSummingPastTheClockAreAnError) {
  // Two gaps of 5e6 s each fit the clock; their sum, 1e7 s, does not.
  const Time gap = Time{5'000'000} * sim::kPicosecondsPerSecond;
  TraceBuilder b(1);
  b.send(0, 0, 0, 0, gap).recv(0, 0, 0, 0, gap);
  EXPECT_THAT(replay_error(b.trace(), round_config("flow")),
              AllOf(HasSubstr("simulated time overflow"), HasSubstr("5e+06 s after 5e+06 s")));
}

TEST(TimeLimits, TransferPastTheClockIsAnError) {
  // 2^62 bytes at 1 GB/s take 4.6e9 s.
  TraceBuilder b(2);
  b.send(0, 1, std::int64_t{1} << 62).recv(1, 0, std::int64_t{1} << 62);
  for (const std::string model : {"analytic", "flow"}) {
    EXPECT_THAT(replay_error(b.trace(), round_config(model)),
                AllOf(HasSubstr("simulated time overflow"),
                      HasSubstr("sending 4.61169e+18 bytes at 1e+09 bytes/s")))
        << model;
  }
  // The packet model cannot even cut it into packets: 2^50 packets of 4 KiB.
  EXPECT_THAT(replay_error(b.trace(), round_config("packet")),
              AllOf(HasSubstr("packet-size"), HasSubstr("1125899906842624 packets")));
}

}  // namespace
}  // namespace mapsim::testing
