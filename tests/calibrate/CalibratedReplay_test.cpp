// The closed loop: one-way times generated from a known model (FitModel.hpp) on the route of two
// nodes of a torus, fitted (calibrate/Fit.hpp), and the fitted calibration given to the replay
// (sim::apply for the model's factors, SimConfig::overheads): a ping-pong replayed by the
// simulator must take the time the benchmark measured, size by size.
//
// torus:4x4 with grid links of 12.5 GB/s and 500 ns; the ranks on nodes 0 and 2, two hops apart:
// L = 2 x 500 ns = 1 us, W = 12.5 GB/s, the model's route. Every message is eager (the eager
// threshold above 4 MiB), as the model's one-way time is a lone message's.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "FitModel.hpp"
#include "calibrate/Fit.hpp"
#include "sim/Calibration.hpp"
#include "sim/Network.hpp"
#include "tests/sim/SimTestSupport.hpp"
#include "tests/sim/TraceBuilder.hpp"

namespace mapsim::testing {
namespace {

constexpr const char* kTorus = "torus:4x4";
const std::vector<topo::NodeId> kNodes{0, 2};
constexpr double kRelative = 0.01;  // the replay within 1 % of what was measured
// The replay rounds each latency and transfer time to the picosecond (the overheads are whole
// picoseconds already): a one-way time is within 2 ps of modelled_time.
constexpr double kPicoseconds = 2e-12;

topo::LinkTable model_links() {
  return topo::LinkTable{}.with(topo::LinkClass::Grid, {12.5e9, 500e-9});
}

/// The simulator's configuration with `calibration`, for `model`.
sim::SimConfig calibrated(const sim::Calibration& calibration, const std::string& model) {
  sim::SimConfig config;
  config.model = model;
  config.links = model_links();
  config.eager_threshold = std::int64_t{1} << 30;
  sim::apply(calibration, model, config.model_options);
  config.overheads = calibration.overheads;
  return config;
}

/// Rank 0 sends n bytes to rank 1, which sends them back: rank 0 finishes after the round trip,
/// 2 x (o_s + network time + o_r).
traces::Trace ping_pong(const std::vector<std::int64_t>& sizes) {
  TraceBuilder b(2);
  for (const auto n : sizes) {
    b.send(0, 1, n).recv(0, 1, n);
    b.recv(1, 0, n).send(1, 0, n);
  }
  return b.trace();
}

calib::Fit fitted(const KnownModel& model) {
  // The route the fit uses is the simulator's own.
  const auto topology = topo::make_topology(kTorus);
  sim::Network network(*topology, model_links());
  const auto& route = network.route(kNodes[0], kNodes[1]);
  EXPECT_DOUBLE_EQ(sim::to_seconds(route.latency), model.latency);
  EXPECT_DOUBLE_EQ(route.bandwidth, model.bandwidth);
  return calib::fit_calibration({osu_latency(model)}, sim::to_seconds(route.latency),
                                route.bandwidth, sim::Channel::Network);
}

void expect_replay_as_measured(const KnownModel& model, const std::string& network_model) {
  const auto f = fitted(model);
  const auto measured = osu_latency(model);
  const auto config = calibrated(f.calibration, network_model);
  for (const auto& p : measured.points) {
    SCOPED_TRACE(network_model + ", " + std::to_string(p.bytes) + " bytes");
    const auto r = run(ping_pong({p.bytes}), kTorus, kNodes, config);
    const double one_way = sim::to_seconds(r.rank_finish[0]) / 2;
    EXPECT_NEAR(one_way, p.value, kRelative * p.value);
    EXPECT_NEAR(one_way, calib::modelled_time(f, p.bytes), kPicoseconds);
  }
}

TEST(CalibratedReplay, PingPongTakesTheMeasuredTimeUnderAnalytic) {
  expect_replay_as_measured(KnownModel{}, "analytic");
}

TEST(CalibratedReplay, PingPongTakesTheMeasuredTimeUnderFlow) {
  // A lone message under flow takes the analytic time (the factors apply alike).
  expect_replay_as_measured(KnownModel{}, "flow");
}

TEST(CalibratedReplay, TwoProtocolsTooAndEverySizeInOneTrace) {
  KnownModel model;
  model.protocols = {{65536, 1, 0.8}, {std::numeric_limits<std::int64_t>::max(), 3, 0.95}};
  expect_replay_as_measured(model, "analytic");
  // Every size one after the other in one trace: the round trips add up, each 2 x its one-way
  // time.
  const auto f = fitted(model);
  const auto sizes = osu_sizes();
  const auto r = run(ping_pong(sizes), kTorus, kNodes, calibrated(f.calibration, "analytic"));
  double measured = 0;
  double modelled = 0;
  for (const auto n : sizes) {
    measured += 2 * as_printed(model.time(n));
    modelled += 2 * calib::modelled_time(f, n);
  }
  const double total = sim::to_seconds(r.rank_finish[0]);
  EXPECT_NEAR(total, measured, kRelative * measured);
  EXPECT_NEAR(total, modelled, 2 * static_cast<double>(sizes.size()) * kPicoseconds);
}

TEST(CalibratedReplay, LatencyInterceptReplaysEveryMessageButZeroBytes) {
  // Fitted with Intercept::Latency (no overheads, the intercepts in the latency factors): every
  // size above 0 replays as measured; a zero-byte message keeps latency factor 1 and takes the
  // route's L = 1 us one way, where 1.80 us were measured.
  const KnownModel model;
  const auto f = calib::fit_calibration({osu_latency(model)}, model.latency, model.bandwidth,
                                        sim::Channel::Network, calib::Intercept::Latency);
  const auto config = calibrated(f.calibration, "analytic");
  EXPECT_TRUE(config.overheads.none());
  for (const auto& p : osu_latency(model).points) {
    SCOPED_TRACE(std::to_string(p.bytes) + " bytes");
    const auto r = run(ping_pong({p.bytes}), kTorus, kNodes, config);
    const double one_way = sim::to_seconds(r.rank_finish[0]) / 2;
    EXPECT_NEAR(one_way, calib::modelled_time(f, p.bytes), kPicoseconds);
    if (p.bytes == 0) {
      EXPECT_EQ(r.rank_finish[0], 2 * kUs);
    } else {
      EXPECT_NEAR(one_way, p.value, kRelative * p.value);
    }
  }
}

TEST(CalibratedReplay, TheCalibrationFileReplaysTheSame) {
  // What `mapsim calibrate --out` writes (sim::to_text) read back: the same calibration, the same
  // replay.
  const KnownModel model;
  const auto f = fitted(model);
  const auto text = sim::to_text(f.calibration);
  const auto read = sim::parse_calibration(text, "fitted.cal");
  EXPECT_EQ(read, f.calibration) << text;
  const auto trace = ping_pong(osu_sizes());
  const auto direct = run(trace, kTorus, kNodes, calibrated(f.calibration, "analytic"));
  const auto from_file = run(trace, kTorus, kNodes, calibrated(read, "analytic"));
  EXPECT_EQ(from_file.rank_finish, direct.rank_finish);
}

TEST(CalibratedReplay, WithoutTheCalibrationTheReplayIsFaster) {
  // The uncalibrated route alone: a zero-byte message takes L = 1 us one way where 1.8 us were
  // measured — the calibration is what closes the gap.
  sim::SimConfig plain;
  plain.model = "analytic";
  plain.links = model_links();
  plain.eager_threshold = std::int64_t{1} << 30;
  const auto r = run(ping_pong({0}), kTorus, kNodes, plain);
  EXPECT_EQ(r.rank_finish[0], 2 * kUs);
}

}  // namespace
}  // namespace mapsim::testing
