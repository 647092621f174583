// `mapsim calibrate` end to end on the sample outputs of tests/data/benchmarks, measured (by
// their README's model) between two nodes two hops apart on torus:4x4 with grid links of
// 12.5 GB/s and 500 ns: L = 1 us, W = 12.5 GB/s, o_s = o_r = 0.4 us, protocol steps at 16 KiB
// and 256 KiB (latency x1, x4, x10; bandwidth x0.8, x0.9, x0.96).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "PingPongArchive.hpp"
#include "sim/Calibration.hpp"
#include "support/Error.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;

const std::string kData = std::string(MAPSIM_TEST_DATA_DIR) + "/benchmarks/";
const std::string kLatency = kData + "osu_latency.txt";
const std::string kLu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";
// The model's machine and nodes.
const std::string kMachine = " --topology torus:4x4 --link grid:12.5:500 --nodes 0,2";

constexpr double kRelative = 0.01;  // factors within 1 %
// The fit's overheads are within the rounding of the times OSU prints (0.005 us).
constexpr double kRoundingUs = 0.005;

/// The number printed right after `marker` in `text` (NaN, and a failure, if there is none).
double number_after(const std::string& text, std::string_view marker) {
  const auto at = text.find(marker);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no '" << marker << "' in:\n" << text;
    return std::nan("");
  }
  return std::stod(text.substr(at + marker.size()));
}

/// The value of `key: value` in a calibration file's text.
std::string value_of(const std::string& text, const std::string& key) {
  const auto at = text.find("\n" + key + ": ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no key " << key << " in:\n" << text;
    return "";
  }
  const auto begin = at + key.size() + 3;
  return text.substr(begin, text.find('\n', begin) - begin);
}

/// A replay's report without its last line (how fast the replay ran: wall time).
std::string simulated(const std::string& out) {
  return out.substr(0, out.find("\nevents "));
}

TEST(CalibrateCommand, FitsOsuLatencyAndWritesTheCalibration) {
  const testing::TempDir dir;
  const auto cal = (dir.path() / "fit.cal").string();
  const auto r = run_mapsim("calibrate " + kLatency + kMachine + " --out " + cal);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("benchmark      osu_latency (" + kLatency +
                               ":2, 23 sizes, 1 to 4194304 bytes)"));
  // Two hops of 500 ns; the bottleneck 12.5 GB/s.
  EXPECT_THAT(r.out, HasSubstr("route          nodes 0 -> 2 of torus:4x4: latency 1.000 us, "
                               "bandwidth 12.5 GB/s (network channel)"));
  // o = (1.8 - 1) / 2 = 0.4 us.
  EXPECT_NEAR(number_after(r.out, "o_s = "), 0.4, kRoundingUs);
  EXPECT_NEAR(number_after(r.out, "o_r = "), 0.4, kRoundingUs);
  // The three segments, each its sizes: OSU starts at 1 byte.
  EXPECT_THAT(r.out, HasSubstr("lat-factor   bw-factor\n"));
  EXPECT_THAT(r.out, HasSubstr("\n1                   1 .. 16384 "));
  EXPECT_THAT(r.out, HasSubstr("\n2              32768 .. 262144 "));
  EXPECT_THAT(r.out, HasSubstr("\n3            524288 .. 4194304 "));
  EXPECT_THAT(r.out, Not(HasSubstr("\n4 ")));
  EXPECT_THAT(r.out, Not(HasSubstr("bandwidth measured")));
  // The rounding to 0.01 us alone is up to 0.005 / 1.80 = 0.28 % of the smallest times.
  EXPECT_LT(number_after(r.out, "largest error "), 2 * 0.28);
  EXPECT_THAT(r.out,
              HasSubstr("calibration    " + cal + " (mapsim simulate --calibration " + cal + ")"));

  const auto text = read_file(cal);
  EXPECT_THAT(text, ::testing::StartsWith(
                        "# fitted by mapsim calibrate on torus:4x4 between nodes 0 and 2\n"));
  const auto c = sim::load_calibration(cal, "the test");
  const auto& network = c.overheads.of(sim::Channel::Network);
  EXPECT_NEAR(sim::to_seconds(network.send) * 1e6, 0.4, kRoundingUs);
  EXPECT_EQ(network.receive, network.send);
  EXPECT_EQ(c.overheads.of(sim::Channel::IntraNode), sim::ChannelCosts{});
  // The steps above 0, 16384 and 262144 bytes; zero bytes take 1.
  EXPECT_EQ(c.bandwidth_factor(0), 1.0);
  EXPECT_EQ(c.latency_factor(0), 1.0);
  for (const auto& [n, lat, bw] :
       std::vector<std::tuple<std::int64_t, double, double>>{{1, 1, 0.8},
                                                             {16384, 1, 0.8},
                                                             {16385, 4, 0.9},
                                                             {262144, 4, 0.9},
                                                             {262145, 10, 0.96},
                                                             {std::int64_t{4} << 20, 10, 0.96}}) {
    EXPECT_NEAR(c.latency_factor(n), lat, kRelative * lat) << n;
    EXPECT_NEAR(c.bandwidth_factor(n), bw, kRelative * bw) << n;
  }
  EXPECT_FALSE(c.reverse_traffic);
  EXPECT_EQ(c.weight_s, 0);
}

TEST(CalibrateCommand, SimulateReadsTheCalibrationFile) {
  const testing::TempDir dir;
  const auto cal = (dir.path() / "fit.cal").string();
  ASSERT_EQ(run_mapsim("calibrate " + kLatency + kMachine + " --out " + cal).exit_code, 0);
  const std::string replay =
      "simulate --trace " + kLu + " --topology torus:4x4 --link grid:12.5:500";
  const auto calibrated = run_mapsim(replay + " --calibration " + cal);
  ASSERT_EQ(calibrated.exit_code, 0) << calibrated.err;
  const auto text = read_file(cal);
  EXPECT_THAT(calibrated.out, HasSubstr("overheads        " + value_of(text, "overheads")));
  // The file is the same replay as its parts given as options.
  const auto spelled = run_mapsim(replay + " --overheads " + value_of(text, "overheads") +
                                  " --bw-factor '" + value_of(text, "bw-factor") +
                                  "' --lat-factor '" + value_of(text, "lat-factor") + "'");
  ASSERT_EQ(spelled.exit_code, 0) << spelled.err;
  EXPECT_EQ(simulated(calibrated.out), simulated(spelled.out));
  // And not the uncalibrated one.
  const auto plain = run_mapsim(replay);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(simulated(calibrated.out), simulated(plain.out));
}

TEST(CalibrateCommand, OutDashWritesTheFileToStdoutAndTheReportToStderr) {
  const auto r = run_mapsim("calibrate " + kLatency + kMachine + " --out -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::StartsWith("# fitted by mapsim calibrate"));
  EXPECT_THAT(r.out, HasSubstr("\nbw-factor: 0:"));
  EXPECT_THAT(r.out, Not(HasSubstr("segment")));
  EXPECT_THAT(r.err, HasSubstr("segment"));
  EXPECT_THAT(r.err, HasSubstr("largest error"));
  // stdout parses as a calibration.
  EXPECT_NO_THROW((void)sim::parse_calibration(r.out, "stdout"));
}

TEST(CalibrateCommand, WithoutOutOnlyPrints) {
  const testing::TempDir dir;
  const auto r = run_mapsim("calibrate " + kLatency + kMachine, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("segment"));
  EXPECT_THAT(r.out, Not(HasSubstr("calibration    ")));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(CalibrateCommand, ChartWritesGnuplotFiles) {
  const testing::TempDir dir;
  // A directory that does not exist yet, two levels deep.
  const auto chart = dir.path() / "charts" / "fit";
  const auto r = run_mapsim("calibrate " + kLatency + kMachine + " --chart " + chart.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("chart          " + chart.string() + "/calibration.gp"));
  const auto gp = read_file(chart / "calibration.gp");
  EXPECT_THAT(gp, HasSubstr("set output 'calibration.svg'"));
  EXPECT_THAT(gp, HasSubstr("plot 'calibration.dat' using 1:2"));
  EXPECT_THAT(gp, HasSubstr("'calibration.dat' using 1:3"));
  const auto dat = read_file(chart / "calibration.dat");
  // A header and one row per size of osu_latency (23).
  EXPECT_THAT(dat, ::testing::StartsWith("# bytes measured_s modelled_s"));
  EXPECT_EQ(std::count(dat.begin(), dat.end(), '\n'), 1 + 23);
  // "1 1.8e-06 <modelled>": 1 byte measured 1.80 us; the model within 1 %.
  const auto first = dat.substr(dat.find('\n') + 1);
  EXPECT_THAT(first, ::testing::StartsWith("1 1.8e-06 "));
  EXPECT_NEAR(number_after(first, "1 1.8e-06 "), 1.8e-6, kRelative * 1.8e-6);
  EXPECT_THAT(dat, HasSubstr("\n4194304 0.00036033 "));
}

TEST(CalibrateCommand, BandwidthSeriesCountWhereBandwidthBound) {
  // osu_bw covers every size, but its small sizes measure the message rate (B(n) = n / (o + n /
  // (W bw(n))), one message per o = 0.4 us): only sizes whose time n / B(n) is at least 10 times
  // the segment's intercept count (calibrate/Fit.hpp) — in the last segment (10.8 us) 2 MiB and
  // 4 MiB; the first two segments keep their slopes. The fit stays as good as from osu_latency
  // alone (0.28 %): within 1 %.
  const auto r = run_mapsim("calibrate " + kLatency + " " + kData + "osu_bw.txt" + kMachine);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("benchmark      osu_bw (" + kData + "osu_bw.txt:2, 23 sizes"));
  EXPECT_THAT(r.out, HasSubstr("1 .. 16384 "));  // the cuts come from osu_latency
  const auto measured = std::string("(bandwidth measured)");
  std::size_t count = 0;
  for (auto at = r.out.find(measured); at != std::string::npos; at = r.out.find(measured, at + 1))
    ++count;
  EXPECT_EQ(count, 1U);
  EXPECT_LT(number_after(r.out, "largest error "), 1.0);
  // The overheads and latency factors still come from osu_latency.
  EXPECT_NEAR(number_after(r.out, "o_s = "), 0.4, kRoundingUs);
}

TEST(CalibrateCommand, ReadsEverySampleFormat) {
  // Every OSU sample at once: osu_latency gives the one-way times, the rest bandwidth.
  std::string files;
  for (const char* name : {"osu_latency.txt", "osu_bw.txt", "osu_bibw.txt", "osu_mbw_mr.txt"})
    files += " " + kData + name;
  const auto r = run_mapsim("calibrate" + files + kMachine);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* benchmark : {"osu_latency", "osu_bw", "osu_bibw", "osu_mbw_mr"})
    EXPECT_THAT(r.out, HasSubstr(std::string("benchmark      ") + benchmark + " (")) << benchmark;
  EXPECT_THAT(r.out, HasSubstr("1 .. 16384 "));
  // IMB's output beside them holds a second series of one-way times (PingPong): refused, naming
  // both, rather than one of them silently left out.
  const auto two = run_mapsim("calibrate" + files + " " + kData + "imb_pt2pt.txt" + kMachine);
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_THAT(two.err,
              HasSubstr("two series of one-way times, osu_latency (" + kData +
                        "osu_latency.txt:2) and IMB PingPong (" + kData + "imb_pt2pt.txt:36)"));
  // IMB alone: its PingPong starts at 0 bytes.
  const auto imb = run_mapsim("calibrate " + kData + "imb_pt2pt.txt" + kMachine);
  ASSERT_EQ(imb.exit_code, 0) << imb.err;
  EXPECT_THAT(imb.out, HasSubstr("benchmark      IMB PingPong (" + kData +
                                 "imb_pt2pt.txt:36, 24 sizes, 0 to 4194304 bytes)"));
  EXPECT_THAT(imb.out, HasSubstr("\n1                   0 .. 16384 "));
  EXPECT_NEAR(number_after(imb.out, "o_s = "), 0.4, kRoundingUs);
}

// A stray line inside the table (an MPI library's message) is skipped and named, and the rows
// after it are fitted: the same fit as without it.
TEST(CalibrateCommand, AStrayLineInsideATableIsNamedAndSkipped) {
  const testing::TempDir dir;
  const auto text = testing::read_file(kLatency);
  const auto at = text.find("\n1024 ");
  ASSERT_NE(at, std::string::npos);
  const auto stray = dir.write("lat.txt", text.substr(0, at + 1) +
                                              "[node3:12345] mca_btl_openib: no device found\n" +
                                              text.substr(at + 1));
  const auto line =
      std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at) + 1, '\n') + 1;
  const auto r = run_mapsim("calibrate " + stray.string() + kMachine);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(stray.string() + ":" + std::to_string(line) +
                               ": skipped a line inside the osu_latency table that is not a row "
                               "of it: '[node3:12345] mca_btl_openib: no device found'"));
  const auto clean = run_mapsim("calibrate " + kLatency + kMachine);
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  const auto fit_of = [](const std::string& out) { return out.substr(out.find("\nroute")); };
  EXPECT_EQ(fit_of(r.out), fit_of(clean.out));
}

// A bandwidth series that disagrees with the one-way times' slope (IMB PingPing: both directions
// at once) is taken, with the segment's latency refitted to it, and said; a bandwidth factor at
// its floor is said too.
TEST(CalibrateCommand, ABandwidthAtOddsWithTheOneWayTimesIsWarned) {
  const testing::TempDir dir;
  std::string bw = "# OSU MPI Bandwidth Test v7.3\n# Size      Bandwidth (MB/s)\n";
  // Half the bandwidth the one-way times give at 4 MiB (12.5 GB/s x 0.96 on this machine's link).
  for (const long size : {1048576L, 2097152L, 4194304L}) bw += fmt::format("{} 6000.00\n", size);
  const auto half = dir.write("bw.txt", bw);
  const auto r = run_mapsim("calibrate " + kLatency + " " + half.string() + kMachine);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the bandwidth series measure 6 GB/s where the one-way times grow "
                               "as 12 GB/s would make them"));
  EXPECT_THAT(r.out, HasSubstr("(bandwidth measured)"));
  const auto flat = dir.write("flat.txt",
                              "# OSU MPI Latency Test v7.3\n# Size  Latency (us)\n0 2.00\n1 "
                              "2.01\n2 2.02\n4 2.04\n");
  // 10 ns per byte: 0.1 GB/s, below 0.01 of the route's 12.5 GB/s.
  const auto f = run_mapsim("calibrate " + flat.string() + kMachine);
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_THAT(f.err, HasSubstr("the fitted bandwidth is below 0.01 of the route's"));
}

TEST(CalibrateCommand, SameNodeTwiceIsTheIntraNodeChannel) {
  // Node 3 to itself: the intra-node channel, 200 ns and 20 GB/s by default. The same times give
  // o = (1.8 - 0.2) / 2 = 0.8 us on that channel, and segment 2's latency factor
  // (4.8 - 1.6) / 0.2 = 16.
  const auto r = run_mapsim("calibrate " + kLatency + " --topology torus:4x4 --nodes 3,3 --out -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("nodes 3 -> 3 of torus:4x4: latency 0.200 us, bandwidth 20 GB/s "
                               "(intra-node channel)"));
  EXPECT_THAT(r.err, HasSubstr("(intra-node)\n"));
  const auto c = sim::parse_calibration(r.out, "stdout");
  EXPECT_NEAR(sim::to_seconds(c.overheads.of(sim::Channel::IntraNode).send) * 1e6, 0.8,
              kRoundingUs);
  EXPECT_EQ(c.overheads.of(sim::Channel::Network), sim::ChannelCosts{});
  EXPECT_NEAR(c.latency_factor(100'000), 16, kRelative * 16);
  // Segment 1's bandwidth 10 GB/s over the channel's 20 GB/s.
  EXPECT_NEAR(c.bandwidth_factor(1000), 0.5, kRelative * 0.5);
}

TEST(CalibrateCommand, InterceptLatencyPutsTheSmallMessageTimeInTheLatencyFactors) {
  // --intercept latency: no overheads; segment 1's latency factor is its whole intercept over L,
  // 1.8 us / 1 us = 1.8.
  const auto r = run_mapsim("calibrate " + kLatency + kMachine + " --intercept latency --out -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto c = sim::parse_calibration(r.out, "stdout");
  EXPECT_TRUE(c.overheads.none());
  EXPECT_THAT(r.out, HasSubstr("\noverheads: none\n"));
  EXPECT_NEAR(c.latency_factor(1), 1.8, kRelative * 1.8);
  EXPECT_NEAR(c.latency_factor(100'000), 4.8, kRelative * 4.8);
  EXPECT_NEAR(number_after(r.err, "o_s = "), 0, 1e-9);
  // IMB's PingPong alone (from the sample: its banner and block, cut before PingPing) has a
  // zero-byte size, which keeps factor 1: 1 us modelled, 1.80 us measured (1 - 1 / 1.8 =
  // 44.44 %), said apart from the largest error over the other sizes, and why.
  const testing::TempDir dir;
  const auto imb = read_file(kData + "imb_pt2pt.txt");
  const auto pingpong =
      dir.write("pingpong.txt", imb.substr(0, imb.find("# Benchmarking PingPing")));
  const auto z = run_mapsim("calibrate " + pingpong.string() + kMachine + " --intercept latency");
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_THAT(z.out, HasSubstr("benchmark      IMB PingPong"));
  EXPECT_THAT(z.out, Not(HasSubstr("IMB PingPing")));
  EXPECT_THAT(z.out, HasSubstr("; 44.44 % at 0 bytes (zero-byte messages keep factor 1, as in "
                               "SimGrid; --envelope gives them a size)"));
  EXPECT_LT(number_after(z.out, "largest error "), 2 * 0.28);
  // With an envelope the zero-byte message is 16 bytes on the wire and pays segment 1's factors:
  // the error at 0 bytes is gone, and the calibration carries the envelope for the replay.
  const auto e = run_mapsim("calibrate " + pingpong.string() + kMachine +
                            " --intercept latency --envelope 16 --out -");
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_LT(number_after(e.err, "largest error "), 2 * 0.28);
  EXPECT_THAT(e.err, HasSubstr("envelope       16 bytes with every message"));
  EXPECT_EQ(value_of(e.out, "envelope"), "16");
  EXPECT_EQ(sim::parse_calibration(e.out, "stdout").envelope, 16);
  // With overheads (the default) the zero-byte time is o_s + L + o_r: no such error.
  const auto o = run_mapsim("calibrate " + pingpong.string() + kMachine);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_LT(number_after(o.out, "largest error "), 2 * 0.28);
}

TEST(CalibrateCommand, ReadsAPingPongTrace) {
  // A ping-pong OTF2 archive (PingPongArchive.hpp) of one-way time 1.8 us + n / (2 GB/s): round
  // trips of 3600 + n ns, 5 repetitions per size, the first a warm-up twice as slow (the median
  // drops it). On the route of 1 us and 12.5 GB/s: o_s = o_r = (1.8 - 1) / 2 = 0.4 us, one
  // segment of latency 1.8 us and bandwidth 2 GB/s (bw-factor 2 / 12.5 = 0.16).
  testing::PingPongArchive archive;
  archive.sizes = testing::mib_sizes();
  archive.round_trip_ns = [](std::int64_t bytes, int rep) {
    return (rep == 0 ? 2 : 1) * (3600 + bytes);
  };
  const testing::TempDir dir;
  const auto trace = dir.path() / "osu_latency.otf2.d";
  archive.write(trace);
  const auto r = run_mapsim("calibrate " + trace.string() + kMachine + " --out -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("benchmark      OTF2 ping-pong (" + trace.string() +
                               ", 21 sizes, 1 to 1048576 bytes)"));
  EXPECT_NEAR(number_after(r.err, "o_s = "), 0.4, 1e-3);
  EXPECT_THAT(r.err, HasSubstr("\n1                 1 .. 1048576     1.800 us         2 GB/s"));
  EXPECT_THAT(r.err, Not(HasSubstr("\n2 ")));
  EXPECT_LT(number_after(r.err, "largest error "), 0.01);
  const auto c = sim::parse_calibration(r.out, "stdout");
  EXPECT_NEAR(sim::to_seconds(c.overheads.of(sim::Channel::Network).send), 0.4e-6, 1e-12);
  EXPECT_NEAR(c.latency_factor(1024), 1, 1e-6);
  EXPECT_NEAR(c.bandwidth_factor(1024), 0.16, 0.16e-6);
  // Its anchor file names it too, beside bandwidth output.
  const auto both = run_mapsim("calibrate " + (trace / "traces.otf2").string() + " " + kData +
                               "osu_bw.txt" + kMachine);
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_THAT(both.out, HasSubstr("benchmark      OTF2 ping-pong (" +
                                  (trace / "traces.otf2").string() + ", 21 sizes"));
  EXPECT_THAT(both.out, HasSubstr("benchmark      osu_bw ("));
  // Beside osu_latency: two series of one-way times.
  const auto two =
      run_mapsim("calibrate " + (trace / "traces.otf2").string() + " " + kLatency + kMachine);
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_THAT(two.err, HasSubstr("two series of one-way times, OTF2 ping-pong ("));
}

// pipit's real ping-pong (8 sizes, 16 KiB to 2 MiB): the line through its large messages meets
// the time axis below 0 (-0.793 us), a latency no factor can give; the fit takes the smallest
// factor there and says so, rather than printing a negative latency without a word.
TEST(CalibrateCommand, ALatencyBelowTheFactorsFloorIsWarned) {
  const auto trace = std::string(MAPSIM_TEST_DATA_DIR) + "/public/pipit_ping-pong-otf2";
  const auto r = run_mapsim("calibrate " + trace + " --topology torus:2x2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2            131072 .. 2097152    -0.793 us"));
  EXPECT_THAT(r.err, AllOf(HasSubstr("warning: segment 2 (131072 .. 2097152 bytes): the fitted "
                                     "latency, -0.793 us less the overheads, is below 0.01"),
                           HasSubstr("(lat-factor 0.01)")));
  // Segment 1's latency is the route's and the overheads: no warning.
  EXPECT_THAT(r.err, Not(HasSubstr("segment 1 ")));
}

TEST(CalibrateCommandErrors, BadPingPongTrace) {
  // A trace whose directory holds traces.otf2 is read as one: its errors name the file.
  testing::PingPongArchive archive;
  archive.sizes = {1, 2, 4};
  archive.reply = [](std::int64_t bytes) { return 2 * bytes; };
  archive.round_trip_ns = [](std::int64_t bytes, int) { return 3600 + bytes; };
  const testing::TempDir dir;
  const auto anchor = archive.write(dir.path() / "trace");
  const auto r = run_mapsim("calibrate " + (dir.path() / "trace").string() + kMachine);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(anchor.string() + ": not a ping-pong: rank 1 replies 2 bytes to a "
                                                 "ping of 1 bytes"));
  // A missing *.otf2 is a missing trace, not unreadable benchmark output.
  const auto missing = (dir.path() / "missing.otf2").string();
  const auto m = run_mapsim("calibrate " + missing + kMachine);
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_THAT(m.err, HasSubstr("trace '" + missing + "' does not exist"));
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit code 1 and a message naming the value

TEST(CalibrateCommandErrors, UnknownIntercept) {
  const auto r = run_mapsim("calibrate " + kLatency + kMachine + " --intercept cpu");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--intercept: 'cpu'"));
}

TEST(CalibrateCommandErrors, EnvelopeOutOfRange) {
  for (const std::string bad : {"-1", "1048577"}) {
    const auto r = run_mapsim("calibrate " + kLatency + kMachine + " --envelope " + bad);
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_THAT(r.err, HasSubstr("--envelope " + bad + " is outside 0 to 1048576 bytes"));
  }
}

TEST(CalibrateCommandErrors, MissingFile) {
  const testing::TempDir dir;
  const auto missing = (dir.path() / "missing.txt").string();
  const auto cal = dir.path() / "fit.cal";
  const auto r =
      run_mapsim("calibrate " + kLatency + " " + missing + kMachine + " --out " + cal.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              HasSubstr("mapsim calibrate: error: cannot read benchmark output '" + missing + "'"));
  EXPECT_FALSE(std::filesystem::exists(cal));
}

TEST(CalibrateCommandErrors, BadBenchmarkOutputNamesFileAndLine) {
  const testing::TempDir dir;
  const auto bad = dir.write("bad.txt",
                             "# OSU MPI Latency Test v7.3\n"
                             "# Size          Latency (us)\n"
                             "1                       1.80\n"
                             "2                       oops\n");
  const auto r = run_mapsim("calibrate " + bad.string() + kMachine);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(bad.string() + ":4"));
  EXPECT_THAT(r.err, HasSubstr("'oops'"));
  // No recognised output at all.
  const auto none = dir.write("none.txt", "Hello from rank 0\n");
  const auto n = run_mapsim("calibrate " + none.string() + kMachine);
  EXPECT_EQ(n.exit_code, 1);
  EXPECT_THAT(n.err, HasSubstr(none.string() + ": no benchmark output found"));
  // Too few sizes to fit.
  const auto two = dir.write("two.txt",
                             "# Size          Latency (us)\n"
                             "1                       1.80\n"
                             "2                       1.80\n");
  const auto t = run_mapsim("calibrate " + two.string() + kMachine);
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_THAT(t.err, HasSubstr("2 sizes; at least 3"));
}

TEST(CalibrateCommandErrors, BadNodes) {
  // torus:4x4 has 16 nodes, 0 to 15.
  const std::string head = "calibrate " + kLatency + " --topology torus:4x4 --nodes ";
  const auto one = run_mapsim(head + "0");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_THAT(one.err, HasSubstr("--nodes: '0' is not A,B"));
  const auto far = run_mapsim(head + "0,99");
  EXPECT_EQ(far.exit_code, 1);
  EXPECT_THAT(far.err, HasSubstr("--nodes (second node)"));
  EXPECT_THAT(far.err, HasSubstr("99"));
  EXPECT_THAT(far.err, HasSubstr("15"));
  const auto first = run_mapsim(head + "16,0");
  EXPECT_EQ(first.exit_code, 1);
  EXPECT_THAT(first.err, HasSubstr("--nodes (first node)"));
  EXPECT_THAT(first.err, HasSubstr("16"));
  const auto word = run_mapsim(head + "a,1");
  EXPECT_EQ(word.exit_code, 1);
  EXPECT_THAT(word.err, HasSubstr("--nodes (first node)"));
  EXPECT_THAT(word.err, HasSubstr("'a'"));
  const auto negative = run_mapsim(head + "0,-1");
  EXPECT_EQ(negative.exit_code, 1);
  EXPECT_THAT(negative.err, HasSubstr("-1"));
}

TEST(CalibrateCommandErrors, UnknownTopologyAndLinkClass) {
  const auto r = run_mapsim("calibrate " + kLatency + " --topology blob:3");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("'blob:3'"));
  EXPECT_THAT(r.err, HasSubstr("unknown kind 'blob'"));
  const auto link = run_mapsim("calibrate " + kLatency + " --topology torus:4x4 --link ft-1:1:1");
  EXPECT_EQ(link.exit_code, 1);
  EXPECT_THAT(link.err, HasSubstr("ft-1"));
}

TEST(CalibrateCommandErrors, MissingArgumentsAreUsageErrors) {
  // Usage errors (exit code 2), as for every command.
  const auto no_topology = run_mapsim("calibrate " + kLatency);
  EXPECT_EQ(no_topology.exit_code, 2);
  EXPECT_THAT(no_topology.err, HasSubstr("--topology"));
  const auto no_file = run_mapsim("calibrate --topology torus:4x4");
  EXPECT_EQ(no_file.exit_code, 2);
}

TEST(CalibrateCommand, Help) {
  const auto r = run_mapsim("calibrate --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("Usage: mapsim calibrate FILE... --topology SPEC"));
  for (const char* option : {"--topology", "--nodes", "--link", "--out", "--chart", "--intercept"})
    EXPECT_THAT(r.out, HasSubstr(option)) << option;
  for (const char* benchmark :
       {"osu_latency", "osu_bw", "osu_bibw", "osu_mbw_mr", "PingPong", "PingPing", "Sendrecv"})
    EXPECT_THAT(r.out, HasSubstr(benchmark)) << benchmark;
  EXPECT_THAT(r.out, HasSubstr("OTF2 trace (a directory holding traces.otf2"));
  EXPECT_EQ(run_mapsim("help calibrate").out, r.out);
}

}  // namespace
}  // namespace mapsim
