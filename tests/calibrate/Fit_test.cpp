// Fitting a calibration (calibrate/Fit.hpp) to one-way times generated from a known model
// (FitModel.hpp: L = 1 us, W = 12.5 GB/s, o_s = o_r = 0.4 us, three protocols), written with the
// precision OSU prints: the fit must find the protocol boundaries exactly, the overheads within
// the rounding of the input and the factors within 1 %.

#include "calibrate/Fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "FitModel.hpp"
#include "sim/NetworkModel.hpp"
#include "support/Error.hpp"

namespace mapsim::testing {
namespace {

using calib::Measure;
using calib::Series;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr double kRelative = 0.01;  // factors within 1 %
// OSU prints 2 decimals of a microsecond: each time is off by at most half of 0.01 us.
constexpr double kRounding = 0.005e-6;

/// `expected` within 1 %.
void expect_within_percent(double got, double expected, const std::string& what) {
  EXPECT_NEAR(got, expected, kRelative * expected) << what;
}

double seconds(sim::Time ps) {
  return sim::to_seconds(ps);
}

/// A bandwidth series of `benchmark` with the given (bytes, bytes per second) points.
Series stream(const std::string& benchmark, std::vector<calib::Point> points) {
  Series s;
  s.benchmark = benchmark;
  s.measure = Measure::Bandwidth;
  s.source = benchmark + ".txt:2";
  s.points = std::move(points);
  return s;
}

calib::Fit fit(const std::vector<Series>& series, const KnownModel& model,
               sim::Channel channel = sim::Channel::Network) {
  return calib::fit_calibration(series, model.latency, model.bandwidth, channel);
}

// ---------------------------------------------------------------------------------------------
// Recovering the known model

TEST(Fit, FindsTheProtocolBoundariesExactly) {
  const KnownModel model;
  const auto f = fit({osu_latency(model)}, model);
  // 0 .. 16 KiB (15 sizes), 32 KiB .. 256 KiB (4), 512 KiB .. 4 MiB (4): the jumps at the
  // protocol switches (at 32 KiB the time goes from 3.44 us to 7.71 us where the first line
  // predicts 0.8 + 1 + 32768 / 10^4 = 5.08 us) cost far more than a segment's penalty.
  ASSERT_EQ(f.segments.size(), 3U);
  EXPECT_EQ(f.segments[0].first, 0);
  EXPECT_EQ(f.segments[0].last, 16384);
  EXPECT_EQ(f.segments[1].first, 32768);
  EXPECT_EQ(f.segments[1].last, 262144);
  EXPECT_EQ(f.segments[2].first, 524288);
  EXPECT_EQ(f.segments[2].last, std::int64_t{4} << 20);
  EXPECT_EQ(f.channel, sim::Channel::Network);
  EXPECT_EQ(f.route_latency, model.latency);
  EXPECT_EQ(f.route_bandwidth, model.bandwidth);
}

TEST(Fit, RecoversOverheadsAndFactors) {
  const KnownModel model;
  const auto f = fit({osu_latency(model)}, model);
  ASSERT_EQ(f.segments.size(), 3U);
  // o_s = o_r = (a_0 - L) / 2 with a_0 = 2 x 0.4 + 1 = 1.8 us: 0.4 us, within the rounding of
  // the times it comes from.
  const auto& network = f.calibration.overheads.of(sim::Channel::Network);
  EXPECT_NEAR(seconds(network.send), model.overhead, kRounding);
  EXPECT_EQ(network.send, network.receive);
  EXPECT_EQ(network.gap, 0);
  EXPECT_EQ(network.send_ns_per_byte, 0);
  EXPECT_EQ(f.calibration.overheads.of(sim::Channel::IntraNode), sim::ChannelCosts{});
  // The intercepts: 0.8 us + L x lat_k, i.e. 1.8, 4.8 and 10.8 us.
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& p = model.protocols[k];
    const auto& s = f.segments[k];
    const auto what = "segment " + std::to_string(k);
    expect_within_percent(s.intercept, 2 * model.overhead + model.latency * p.latency_factor, what);
    // b_k = 1 / (W x bw_k): 0.1, 0.0889 and 0.0833 ns per byte.
    expect_within_percent(s.per_byte, 1 / (model.bandwidth * p.bandwidth_factor), what);
    expect_within_percent(s.latency_factor, p.latency_factor, what);
    expect_within_percent(s.bandwidth_factor, p.bandwidth_factor, what);
    EXPECT_FALSE(s.bandwidth_measured) << what;
  }
  // Nothing else in the calibration.
  EXPECT_FALSE(f.calibration.reverse_traffic);
  EXPECT_EQ(f.calibration.weight_s, 0);
}

TEST(Fit, CalibrationStepsAreSimGridsNotation) {
  const KnownModel model;
  const auto f = fit({osu_latency(model)}, model);
  ASSERT_EQ(f.segments.size(), 3U);
  const auto& bw = f.calibration.bandwidth_factor;
  const auto& lat = f.calibration.latency_factor;
  // "0:f0;16384:f1;262144:f2": a step applies above its boundary; a boundary size takes the
  // step before; zero bytes take 1.
  EXPECT_EQ(bw(0), 1.0);
  EXPECT_EQ(lat(0), 1.0);
  for (const auto& [n, k] : std::vector<std::pair<std::int64_t, std::size_t>>{
           {1, 0}, {16384, 0}, {16385, 1}, {262144, 1}, {262145, 2}, {INT64_MAX, 2}}) {
    const auto what = std::to_string(n) + " bytes";
    // Written with 6 significant digits.
    EXPECT_NEAR(bw(n), f.segments[k].bandwidth_factor, 1e-5 * f.segments[k].bandwidth_factor)
        << what;
    EXPECT_NEAR(lat(n), f.segments[k].latency_factor, 1e-5 * f.segments[k].latency_factor) << what;
    expect_within_percent(bw(n), model.protocols[k].bandwidth_factor, what);
    expect_within_percent(lat(n), model.protocols[k].latency_factor, what);
  }
  // Three steps each, at 0, 16384 and 262144.
  const auto steps = bw.to_string();
  EXPECT_THAT(steps, ::testing::StartsWith("0:"));
  EXPECT_THAT(steps, HasSubstr(";16384:"));
  EXPECT_THAT(steps, HasSubstr(";262144:"));
  EXPECT_EQ(std::count(steps.begin(), steps.end(), ';'), 2);
  const auto lat_steps = lat.to_string();
  EXPECT_EQ(std::count(lat_steps.begin(), lat_steps.end(), ';'), 2);
}

TEST(Fit, ModelledTimesMatchTheMeasuredOnes) {
  const KnownModel model;
  const auto measured = osu_latency(model);
  const auto f = fit({measured}, model);
  // The worst point is a smallest message: 1.8 us printed as 1.80 or 1.81, where the rounding
  // alone is up to 0.005 / 1.80 = 0.28 %; the fit adds little to it.
  EXPECT_LT(f.max_relative_error, 2 * kRounding / 1.8e-6);
  double worst = 0;
  std::int64_t worst_bytes = -1;
  for (const auto& p : measured.points) {
    const double modelled = calib::modelled_time(f, p.bytes);
    if (std::abs(modelled / p.value - 1) > worst) {
      worst = std::abs(modelled / p.value - 1);
      worst_bytes = p.bytes;
    }
    // Against the exact model, not only the printed times.
    expect_within_percent(modelled, model.time(p.bytes), std::to_string(p.bytes) + " bytes");
  }
  EXPECT_DOUBLE_EQ(f.max_relative_error, worst);
  EXPECT_EQ(f.worst_bytes, worst_bytes);
}

TEST(Fit, LatencyInterceptLeavesTheOverheadsAtZero) {
  // Intercept::Latency (SimGrid's SMPI has no CPU overheads): o_s = o_r = 0, and each segment's
  // latency factor carries its whole intercept, a_k / L = 1.8, 4.8 and 10.8; the bandwidth
  // factors are as with overheads.
  const KnownModel model;
  const auto measured = osu_latency(model);
  const auto f = calib::fit_calibration({measured}, model.latency, model.bandwidth,
                                        sim::Channel::Network, calib::Intercept::Latency);
  EXPECT_TRUE(f.calibration.overheads.none());
  ASSERT_EQ(f.segments.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& p = model.protocols[k];
    const auto what = "segment " + std::to_string(k);
    expect_within_percent(f.segments[k].latency_factor,
                          (2 * model.overhead + model.latency * p.latency_factor) / model.latency,
                          what);
    expect_within_percent(f.segments[k].bandwidth_factor, p.bandwidth_factor, what);
  }
  // A zero-byte message keeps factor 1 (SimGrid's steps): the model gives it L = 1 us where
  // 1.80 us were measured, 1 - 1 / 1.8 = 44.4 % off, kept apart from the largest error over the
  // other sizes, which are as close as with overheads.
  EXPECT_DOUBLE_EQ(calib::modelled_time(f, 0), model.latency);
  EXPECT_NEAR(f.zero_bytes_error, 1 - 1.0 / 1.8, 1e-9);
  EXPECT_NE(f.worst_bytes, 0);
  EXPECT_LT(f.max_relative_error, kRelative);
  for (const auto& p : measured.points) {
    if (p.bytes > 0) {
      expect_within_percent(calib::modelled_time(f, p.bytes), p.value,
                            std::to_string(p.bytes) + " bytes");
    }
  }
}

TEST(Fit, IntraNodeChannelTakesTheOverheads) {
  // The same times measured between two ranks of one node: the overheads go to the intra-node
  // channel, the network's stay 0.
  const KnownModel model;
  const auto f = fit({osu_latency(model)}, model, sim::Channel::IntraNode);
  EXPECT_EQ(f.channel, sim::Channel::IntraNode);
  EXPECT_NEAR(seconds(f.calibration.overheads.of(sim::Channel::IntraNode).send), model.overhead,
              kRounding);
  EXPECT_EQ(f.calibration.overheads.of(sim::Channel::Network), sim::ChannelCosts{});
  EXPECT_EQ(f.segments.size(), 3U);
  EXPECT_LT(f.max_relative_error, 2 * kRounding / 1.8e-6);
}

TEST(Fit, RouteSlowerThanMeasuredGivesNoOverheads) {
  // On a route of L = 2.5 us the smallest messages (1.8 us) are faster than the route alone:
  // o = max(0, 1.8 - 2.5) / 2 = 0 and the first latency factor a_0 / L = 1.8 / 2.5 = 0.72.
  const KnownModel model;
  const auto f =
      calib::fit_calibration({osu_latency(model)}, 2.5e-6, model.bandwidth, sim::Channel::Network);
  EXPECT_TRUE(f.calibration.overheads.none());
  ASSERT_FALSE(f.segments.empty());
  expect_within_percent(f.segments[0].latency_factor, 1.8 / 2.5, "segment 0");
}

TEST(Fit, StraightLineIsOneSegment) {
  // One protocol for every size: latency x1, bandwidth x0.8. The penalty (1e-3 a segment) is far
  // above what cutting the rounding noise could save (24 points of at most 0.28 % each: under
  // 24 x 0.0028^2 = 2e-4 in all), so the fit keeps one segment.
  KnownModel model;
  model.protocols = {{std::numeric_limits<std::int64_t>::max(), 1, 0.8}};
  const auto f = fit({osu_latency(model)}, model);
  ASSERT_EQ(f.segments.size(), 1U);
  EXPECT_EQ(f.segments[0].first, 0);
  EXPECT_EQ(f.segments[0].last, std::int64_t{4} << 20);
  EXPECT_NEAR(seconds(f.calibration.overheads.of(sim::Channel::Network).send), model.overhead,
              kRounding);
  expect_within_percent(f.segments[0].latency_factor, 1, "latency");
  expect_within_percent(f.segments[0].bandwidth_factor, 0.8, "bandwidth");
  // One step: "0:f".
  EXPECT_THAT(f.calibration.bandwidth_factor.to_string(), ::testing::StartsWith("0:"));
  EXPECT_THAT(f.calibration.bandwidth_factor.to_string(), ::testing::Not(HasSubstr(";")));
}

TEST(Fit, TwoProtocolsAreTwoSegments) {
  // Eager up to 64 KiB, rendezvous above (latency x3, bandwidth x0.95).
  KnownModel model;
  model.protocols = {{65536, 1, 0.8}, {std::numeric_limits<std::int64_t>::max(), 3, 0.95}};
  const auto f = fit({osu_latency(model)}, model);
  ASSERT_EQ(f.segments.size(), 2U);
  EXPECT_EQ(f.segments[0].last, 65536);
  EXPECT_EQ(f.segments[1].first, 131072);
  expect_within_percent(f.segments[1].latency_factor, 3, "latency");
  expect_within_percent(f.segments[1].bandwidth_factor, 0.95, "bandwidth");
}

// ---------------------------------------------------------------------------------------------
// Bandwidth series

TEST(Fit, BandwidthSeriesGiveTheFactorsWhereTheyAreBandwidthBound) {
  const KnownModel model;
  const double w = model.bandwidth;
  // A stream size counts when its time n / B(n) is at least kBandwidthBound = 10 times the
  // segment's intercept a_k (or L, if larger): segment 1 (a = 2 o + 4 L = 4.8 us) needs 48 us,
  // n >= 48 us * 0.9 W = 540 KB, beyond its last size (256 KiB): its points (a message-rate
  // bound 0.2 W at 32 KiB among them) are left out and the slope gives 0.9. Segment 2
  // (a = 10.8 us) needs 108 us: of 512K, 1M, 2M and 4M at 0.97, 0.99, 0.98 and 0.96 of W, only
  // 2M (171 us) and 4M (349 us) count: median (0.98 + 0.96) / 2 = 0.97.
  const auto bw = stream("osu_bw", {{32768, 0.2 * w},
                                    {131072, 0.95 * w},
                                    {524288, 0.97 * w},
                                    {1048576, 0.99 * w},
                                    {2097152, 0.98 * w},
                                    {4194304, 0.96 * w}});
  const auto latency = osu_latency(model);
  const auto f = fit({latency, bw}, model);
  ASSERT_EQ(f.segments.size(), 3U);  // the cuts come from the one-way times alone
  EXPECT_FALSE(f.segments[0].bandwidth_measured);
  expect_within_percent(f.segments[0].bandwidth_factor, 0.8, "segment 0 (slope)");
  EXPECT_FALSE(f.segments[1].bandwidth_measured);
  expect_within_percent(f.segments[1].bandwidth_factor, 0.9, "segment 1 (slope)");
  EXPECT_TRUE(f.segments[2].bandwidth_measured);
  EXPECT_NEAR(f.segments[2].bandwidth_factor, (0.98 + 0.96) / 2, 1e-12);
  expect_within_percent(f.segments[2].slope_bandwidth_factor, model.protocols[2].bandwidth_factor,
                        "segment 2 (slope)");
  // Segments 0 and 1 keep their lines; segment 2's per-byte time is the measured bandwidth's and
  // its intercept is refitted to it: the a minimising sum ((a + b n - t) / t)^2 over its sizes,
  // sum ((t - b n) / t^2) / sum (1 / t^2). The measured bandwidth (0.97 W) is above the slope's
  // (0.96 W), so the intercept comes out above the line's 10.8 us, the latency factor above 10.
  expect_within_percent(f.segments[1].latency_factor, 4, "segment 1");
  const double b = 1 / (0.97 * w);
  double weights = 0, sum = 0;
  for (const auto& p : latency.points) {
    if (p.bytes < f.segments[2].first || p.bytes > f.segments[2].last) continue;
    weights += 1 / (p.value * p.value);
    sum += (p.value - b * static_cast<double>(p.bytes)) / (p.value * p.value);
  }
  EXPECT_DOUBLE_EQ(f.segments[2].per_byte, b);
  EXPECT_NEAR(f.segments[2].intercept, sum / weights, 1e-18);
  const double overheads = 2 * seconds(f.calibration.overheads.of(sim::Channel::Network).send);
  EXPECT_NEAR(f.segments[2].latency_factor, (sum / weights - overheads) / model.latency, 1e-6);
  EXPECT_GT(f.segments[2].latency_factor, 10);
  EXPECT_NEAR(f.calibration.bandwidth_factor(300'000), 0.97, 1e-5);
  // The refitted line stays within 3 % of the measured times at every size of segment 2.
  for (const auto& p : latency.points) {
    if (p.bytes < f.segments[2].first) continue;
    EXPECT_NEAR(calib::modelled_time(f, p.bytes) / p.value, 1, 0.03) << p.bytes;
  }
}

TEST(Fit, SeveralBandwidthSeriesPoolTheirPoints) {
  const KnownModel model;
  const double w = model.bandwidth;
  // In the last segment (108 us needed): osu_bw gives 0.90 and 0.94 at 2M and 4M, IMB Sendrecv
  // 0.92 at 2M (its zero-byte point has no bandwidth and is left out): median 0.92.
  const auto bw = stream("osu_bw", {{2097152, 0.90 * w}, {4194304, 0.94 * w}});
  const auto sendrecv = stream("IMB Sendrecv", {{0, 0}, {2097152, 0.92 * w}});
  const auto f = fit({osu_latency(model), bw, sendrecv}, model);
  ASSERT_EQ(f.segments.size(), 3U);
  EXPECT_TRUE(f.segments[2].bandwidth_measured);
  EXPECT_NEAR(f.segments[2].bandwidth_factor, 0.92, 1e-12);
  EXPECT_FALSE(f.segments[0].bandwidth_measured);
  EXPECT_FALSE(f.segments[1].bandwidth_measured);
}

TEST(Fit, BandwidthAloneGivesOneFactorAndNoOverheads) {
  const KnownModel model;
  const double w = model.bandwidth;
  // Without one-way times a size counts when n / B(n) >= 10 L = 10 us: of 0 (no bandwidth), 1
  // byte at 0.05 W (a message rate), 256 KiB at 0.5 W (42 us), 1 MiB at 0.8 W (105 us) and
  // 4 MiB at 0.9 W, the last three: median 0.8 for every size above 0 ("0:0.8").
  const auto bw = stream(
      "osu_bw",
      {{0, 0.1 * w}, {1, 0.05 * w}, {262144, 0.5 * w}, {1048576, 0.8 * w}, {4194304, 0.9 * w}});
  const auto f = fit({bw}, model);
  EXPECT_TRUE(f.calibration.overheads.none());
  EXPECT_EQ(f.calibration.bandwidth_factor.to_string(), "0:0.8");
  EXPECT_TRUE(f.calibration.latency_factor.identity());
  ASSERT_EQ(f.segments.size(), 1U);
  EXPECT_TRUE(f.segments[0].bandwidth_measured);
  EXPECT_EQ(f.segments[0].first, 1);
  EXPECT_NEAR(f.segments[0].bandwidth_factor, 0.8, 1e-12);
}

// ---------------------------------------------------------------------------------------------
// modelled_time, by hand

TEST(Fit, ModelledTimeIsTheCalibratedLoneMessage) {
  calib::Fit f;
  f.route_latency = 1e-6;
  f.route_bandwidth = 12.5e9;
  f.calibration = sim::parse_calibration(
      "overheads: network.o_s=400,network.o_r=300\n"
      "bw-factor: 0:0.8;16384:0.9\n"
      "lat-factor: 0:1;16384:4\n",
      "hand.cal");
  // 0 bytes: 0.4 + 0.3 + 1 x 1 us = 1.7 us (factor 1 below every boundary).
  EXPECT_NEAR(calib::modelled_time(f, 0), 1.7e-6, 1e-18);
  // 16384 bytes (the boundary: the step of 0): 0.7 + 1 + 16384 / (12.5e9 x 0.8) = 1.7 +
  // 1.6384 us.
  EXPECT_NEAR(calib::modelled_time(f, 16384), 3.3384e-6, 1e-18);
  // 16385 bytes: 0.7 + 4 x 1 + 16385 / (12.5e9 x 0.9) us.
  EXPECT_NEAR(calib::modelled_time(f, 16385), 4.7e-6 + 16385 / 11.25e9, 1e-18);
  // The intra-node channel's overheads (none) on an intra-node fit: 1 us + the transfer.
  f.channel = sim::Channel::IntraNode;
  EXPECT_NEAR(calib::modelled_time(f, 16384), 1e-6 + 1.6384e-6, 1e-18);
}

// ---------------------------------------------------------------------------------------------
// Nothing to fit

// ---------------------------------------------------------------------------------------------
// An MPI library that sends an envelope of E bytes with every message

/// The machine of KnownModel, but every message of n bytes crosses it as n + 16 bytes: its
/// protocol steps, and the zero-byte message, are by the size on the wire.
double wire_time(const KnownModel& model, std::int64_t payload) {
  return model.time(payload + 16);
}

/// osu_latency of that machine on `sizes`, as printed.
Series osu_latency_with_envelope(const KnownModel& model) {
  Series s = osu_latency(model);
  for (auto& p : s.points) p.value = as_printed(wire_time(model, p.bytes));
  return s;
}

TEST(FitEnvelope, FitsOverTheWireSizesAndWritesTheEnvelope) {
  const KnownModel model;
  const auto measured = osu_latency_with_envelope(model);
  const auto f = calib::fit_calibration({measured}, model.latency, model.bandwidth,
                                        sim::Channel::Network, calib::Intercept::Overheads, 16);
  EXPECT_EQ(f.calibration.envelope, 16);
  // Payloads 0 .. 8 KiB are wire sizes 16 .. 8208, under the 16 KiB step; 16 KiB (16400 on the
  // wire) is past it. The segments report payloads; the steps are wire sizes: segment 2 applies
  // above 8 KiB + 16.
  ASSERT_EQ(f.segments.size(), 3U);
  EXPECT_EQ(f.segments[0].first, 0);
  EXPECT_EQ(f.segments[0].last, 8192);
  EXPECT_EQ(f.segments[1].first, 16384);
  EXPECT_EQ(f.segments[1].last, 131072);
  EXPECT_EQ(f.segments[2].first, 262144);
  const auto& c = f.calibration;
  EXPECT_EQ(c.latency_factor(8208), c.latency_factor(16));
  EXPECT_NE(c.latency_factor(8209), c.latency_factor(8208));
  for (std::size_t k = 0; k < 3; ++k) {
    expect_within_percent(f.segments[k].latency_factor, model.protocols[k].latency_factor,
                          "segment " + std::to_string(k));
    expect_within_percent(f.segments[k].bandwidth_factor, model.protocols[k].bandwidth_factor,
                          "segment " + std::to_string(k));
  }
  // Every size, the empty message included, is modelled as measured.
  for (const auto& p : measured.points) {
    expect_within_percent(calib::modelled_time(f, p.bytes), p.value,
                          std::to_string(p.bytes) + " bytes");
  }
  EXPECT_LT(f.max_relative_error, kRelative);
}

TEST(FitEnvelope, WithoutItTheEmptyMessageIsMisread) {
  // SimGrid-style latency intercept: the empty message keeps factor 1 without an envelope and is
  // modelled as L = 1 us where 1.8 us (plus 16 bytes) were measured; with the envelope it pays
  // segment 1's factors, as it did on the machine.
  const KnownModel model;
  const auto measured = osu_latency_with_envelope(model);
  const auto bare = calib::fit_calibration({measured}, model.latency, model.bandwidth,
                                           sim::Channel::Network, calib::Intercept::Latency);
  EXPECT_GT(bare.zero_bytes_error, 0.4);
  EXPECT_LT(bare.max_relative_error, 0.4);
  const auto with = calib::fit_calibration({measured}, model.latency, model.bandwidth,
                                           sim::Channel::Network, calib::Intercept::Latency, 16);
  EXPECT_LT(with.max_relative_error, kRelative);
  expect_within_percent(calib::modelled_time(with, 0), wire_time(model, 0), "0 bytes");
}

TEST(FitErrors, EnvelopeOutOfRange) {
  const KnownModel model;
  for (const std::int64_t bad : {std::int64_t{-1}, sim::kMaxEnvelope + 1}) {
    EXPECT_THROW(calib::fit_calibration({osu_latency(model)}, model.latency, model.bandwidth,
                                        sim::Channel::Network, calib::Intercept::Overheads, bad),
                 InputError)
        << bad;
  }
}

TEST(FitErrors, TooFewSizes) {
  const KnownModel model;
  // Two sizes: fewer than kMinSegmentPoints (3); the message names the series.
  static_assert(calib::kMinSegmentPoints == 3);
  EXPECT_THAT(
      [&] {
        (void)fit({osu_latency(model, {0, 1})}, model);
      },
      ::testing::ThrowsMessage<InputError>(AllOf(HasSubstr("osu_latency"), HasSubstr("model.txt:2"),
                                                 HasSubstr("2 sizes"), HasSubstr("at least 3"))));
  // Three sizes are enough: one segment.
  const auto f = fit({osu_latency(model, {0, 1, 2})}, model);
  EXPECT_EQ(f.segments.size(), 1U);
  // An empty one-way series too.
  EXPECT_THROW((void)fit({osu_latency(model, {})}, model), InputError);
}

TEST(FitErrors, NoSeriesOrNoBandwidthAboveZero) {
  const KnownModel model;
  EXPECT_THAT([&] { (void)fit({}, model); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("no benchmark series")));
  // Bandwidth points at 0 bytes only.
  EXPECT_THAT(
      [&] {
        (void)fit({stream("osu_bw", {{0, 1e9}})}, model);
      },
      ::testing::ThrowsMessage<InputError>(HasSubstr("large enough to measure bandwidth")));
  // Small sizes only: message rates, not bandwidth.
  EXPECT_THROW((void)fit({stream("osu_bw", {{1, 1e8}, {1024, 5e9}})}, model), InputError);
}

}  // namespace
}  // namespace mapsim::testing
