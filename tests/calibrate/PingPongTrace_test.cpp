// One-way times from ping-pong OTF2 traces (calibrate/PingPongTrace.hpp), on archives written by
// traces/Otf2Writer with known round trips (PingPongArchive.hpp): half the round trip, the median
// per size, and the fit on them recovers the latency and bandwidth the archive was written with.

#include "calibrate/PingPongTrace.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "PingPongArchive.hpp"
#include "calibrate/Fit.hpp"
#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// Times computed from whole nanoseconds: equal up to the rounding of one division.
constexpr double kExact = 1e-12;
// The fit of noise-free data.
constexpr double kFitted = 1e-6;

// The model: one-way time 1 us + n / (2 GB/s), a round trip of 2000 + n ns — whole nanoseconds,
// the writer's tick, for every size (at 10 GB/s, n / 5 ns would be rounded).
constexpr double kLatency = 1e-6;
constexpr double kBandwidth = 2e9;
std::int64_t model_round_trip(std::int64_t bytes) {
  return 2000 + bytes;
}
double model_one_way(std::int64_t bytes) {
  return kLatency + static_cast<double>(bytes) / kBandwidth;
}

/// Repetition 0 of each size is a slow warm-up (3 times the round trip), and repetition 3 of 64
/// bytes was preempted (+50 us): at most 2 of 5 are off, so the median is the model's time.
PingPongArchive model_archive() {
  PingPongArchive archive;
  archive.sizes = mib_sizes();
  archive.round_trip_ns = [](std::int64_t bytes, int rep) {
    const auto rt = model_round_trip(bytes);
    if (rep == 0) return 3 * rt;
    if (bytes == 64 && rep == 3) return rt + 50'000;
    return rt;
  };
  return archive;
}

/// `message` of the InputError that `read_ping_pong(path)` throws ("" and a failure if none).
std::string error_of(const fs::path& path) {
  try {
    (void)calib::read_ping_pong(path);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for " << path;
  return "";
}

/// Writes an archive of `ranks` ranks into `dir`, each rank's calls made by `program`.
fs::path write_program(const fs::path& dir, Rank ranks,
                       const std::function<void(traces::MpiCallSink&, Rank)>& program) {
  traces::Otf2Writer writer(dir);
  std::vector<Rank> world;
  for (Rank r = 0; r < ranks; ++r) world.push_back(r);
  writer.begin_trace(ranks, {{"MPI_COMM_WORLD", world, -1}});
  for (Rank r = 0; r < ranks; ++r) {
    writer.begin_rank(r);
    writer.init();
    program(writer, r);
    writer.finalize();
    writer.end_rank();
  }
  writer.end_trace();
  return writer.anchor();
}

TEST(PingPongTrace, OneWayTimeIsHalfTheMedianRoundTrip) {
  const TempDir dir;
  const auto trace = dir.path() / "osu_latency";
  model_archive().write(trace);
  const auto p = calib::read_ping_pong(trace);
  EXPECT_EQ(p.series.benchmark, "OTF2 ping-pong");
  EXPECT_EQ(p.series.measure, calib::Measure::OneWayTime);
  EXPECT_EQ(p.series.source, trace.string());
  EXPECT_EQ(p.initiator, 0);
  EXPECT_EQ(p.responder, 1);
  EXPECT_EQ(p.round_trips, 21U * 5U);
  EXPECT_EQ(p.repetitions, std::vector<std::size_t>(21, 5));
  // 1 byte: (2000 + 1) ns / 2 = 1.0005 us; 1 MiB: (2000 + 1048576) / 2 ns = 525.288 us.
  ASSERT_EQ(p.series.points.size(), 21U);
  for (std::size_t k = 0; k < 21; ++k) {
    const auto n = std::int64_t{1} << k;
    EXPECT_EQ(p.series.points[k].bytes, n);
    EXPECT_NEAR(p.series.points[k].value, model_one_way(n), kExact * model_one_way(n)) << n;
  }
  EXPECT_NEAR(p.series.points.front().value, 1.0005e-6, kExact);
  EXPECT_NEAR(p.series.points.back().value, 525.288e-6, kExact);
}

TEST(PingPongTrace, FitRecoversLatencyAndBandwidth) {
  const TempDir dir;
  const auto anchor = model_archive().write(dir.path() / "trace");
  const auto series = calib::read_ping_pong_trace(anchor);
  // On a route of the model's own latency and bandwidth: one straight segment, a = 1 us and
  // b = 1 / (2 GB/s), so no overheads and factors 1.
  const auto fit = calib::fit_calibration({series}, kLatency, kBandwidth, sim::Channel::Network);
  ASSERT_EQ(fit.segments.size(), 1U);
  const auto& s = fit.segments.front();
  EXPECT_EQ(s.first, 1);
  EXPECT_EQ(s.last, std::int64_t{1} << 20);
  EXPECT_NEAR(s.intercept, kLatency, kFitted * kLatency);
  EXPECT_NEAR(1 / s.per_byte, kBandwidth, kFitted * kBandwidth);
  EXPECT_NEAR(s.latency_factor, 1, kFitted);
  EXPECT_NEAR(s.bandwidth_factor, 1, kFitted);
  EXPECT_EQ(fit.calibration.overheads.of(sim::Channel::Network).send, 0);
  EXPECT_LT(fit.max_relative_error, kFitted);
  EXPECT_EQ(fit.one_way_points, 21U);
}

TEST(PingPongTrace, EvenRepetitionsTakeTheMeanOfTheMiddleTwo) {
  // Round trips 2000, 2002, 2004 and 2100 ns (in that order, each size): the median is
  // (2002 + 2004) / 2 = 2003 ns, a one-way time of 1001.5 ns. Zero bytes are a size too.
  PingPongArchive archive;
  archive.sizes = {0, 8, 64};
  archive.repetitions = 4;
  archive.round_trip_ns = [](std::int64_t, int rep) {
    return std::array<std::int64_t, 4>{2000, 2002, 2004, 2100}[static_cast<std::size_t>(rep)];
  };
  const TempDir dir;
  const auto series = calib::read_ping_pong_trace(archive.write(dir.path() / "trace"));
  ASSERT_EQ(series.points.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(series.points[k].bytes, archive.sizes[k]);
    EXPECT_NEAR(series.points[k].value, 1001.5e-9, kExact * 1e-6);
  }
}

TEST(PingPongTrace, SizesAscendWhateverTheOrderTheyRan) {
  // IMB and osu_latency run the sizes upwards; a script may not. 4096 bytes run first, then 1.
  PingPongArchive archive;
  archive.sizes = {4096, 1, 256};
  archive.repetitions = 3;
  archive.round_trip_ns = [](std::int64_t bytes, int) { return model_round_trip(bytes); };
  const TempDir dir;
  const auto series = calib::read_ping_pong_trace(archive.write(dir.path() / "trace"));
  ASSERT_EQ(series.points.size(), 3U);
  EXPECT_EQ(series.points[0].bytes, 1);
  EXPECT_EQ(series.points[1].bytes, 256);
  EXPECT_EQ(series.points[2].bytes, 4096);
  EXPECT_NEAR(series.points[2].value, model_one_way(4096), kExact * model_one_way(4096));
}

TEST(PingPongTrace, OtherRanksMayOnlyTakePartInCollectives) {
  // Four ranks; rank 3 pings rank 1 with Isend + Irecv + Waitall (the round trip from entering
  // MPI_Isend to leaving MPI_Waitall), ranks 0 and 2 only join the barriers.
  PingPongArchive archive;
  archive.ranks = 4;
  archive.initiator = 3;
  archive.responder = 1;
  archive.nonblocking = true;
  archive.sizes = {1, 1024, 65536};
  archive.repetitions = 3;
  archive.round_trip_ns = [](std::int64_t bytes, int) { return model_round_trip(bytes); };
  const TempDir dir;
  const auto anchor = archive.write(dir.path() / "trace");
  // The anchor file names the archive as well as its directory.
  const auto p = calib::read_ping_pong(anchor);
  EXPECT_EQ(p.series.source, anchor.string());
  EXPECT_EQ(p.initiator, 3);
  EXPECT_EQ(p.responder, 1);
  EXPECT_EQ(p.round_trips, 9U);
  ASSERT_EQ(p.series.points.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto n = archive.sizes[k];
    EXPECT_EQ(p.series.points[k].bytes, n);
    EXPECT_NEAR(p.series.points[k].value, model_one_way(n), kExact * model_one_way(n)) << n;
  }
}

TEST(PingPongTrace, ReadsScorePTraces) {
  // Two ping-pongs Score-P traced (tests/data/public, from pipit's test data; the second with PAPI
  // metric records between the calls): rank 0 pings rank 1 once per size, 16 KiB to 2 MiB. The
  // round trips, from otf2-print (rank 0's MPI_Send Enter to its MPI_Recv Leave), in ticks of
  // 2095197216 and 2095191439 per second: 16 KiB 106082 and 132400, 2 MiB 3577054 and 3948842.
  struct Case {
    const char* name;
    double ticks_per_second;
    double first;
    double last;
  };
  for (const auto& c : {Case{"pipit_ping-pong-otf2", 2095197216, 106082, 3577054},
                        Case{"pipit_ping-pong-otf2-papi", 2095191439, 132400, 3948842}}) {
    const auto p = calib::read_ping_pong(std::string(MAPSIM_TEST_DATA_DIR) + "/public/" + c.name);
    EXPECT_EQ(p.initiator, 0) << c.name;
    EXPECT_EQ(p.responder, 1) << c.name;
    EXPECT_EQ(p.round_trips, 8U) << c.name;
    ASSERT_EQ(p.series.points.size(), 8U) << c.name;
    EXPECT_EQ(p.series.points.front().bytes, 16384) << c.name;
    EXPECT_EQ(p.series.points.back().bytes, 2097152) << c.name;
    const double first = c.first / c.ticks_per_second / 2;  // 25.3 us and 31.6 us
    const double last = c.last / c.ticks_per_second / 2;    // 853.6 us and 942.4 us
    EXPECT_NEAR(p.series.points.front().value, first, kExact * first) << c.name;
    EXPECT_NEAR(p.series.points.back().value, last, kExact * last) << c.name;
  }
}

TEST(PingPongTrace, RecognisesTracePaths) {
  const TempDir dir;
  const auto trace = dir.path() / "trace";
  PingPongArchive archive;
  archive.sizes = {1};
  archive.round_trip_ns = [](std::int64_t bytes, int) { return model_round_trip(bytes); };
  const auto anchor = archive.write(trace);
  EXPECT_TRUE(calib::is_otf2_trace(trace));
  EXPECT_TRUE(calib::is_otf2_trace(anchor));
  // By its name, even if it does not exist (reading it then says so).
  EXPECT_TRUE(calib::is_otf2_trace(dir.path() / "missing.otf2"));
  EXPECT_FALSE(calib::is_otf2_trace(dir.write("osu_latency.txt", "# Size Latency (us)\n")));
  EXPECT_FALSE(calib::is_otf2_trace(dir.path()));  // a directory without traces.otf2
  EXPECT_FALSE(calib::is_otf2_trace(dir.path() / "missing"));
}

// ---------------------------------------------------------------------------------------------
// Bad input: InputError naming the file and what is wrong

TEST(PingPongTraceErrors, MissingArchive) {
  const TempDir dir;
  const auto missing = dir.path() / "missing";
  const auto message = error_of(missing);
  EXPECT_THAT(message, HasSubstr(missing.string()));
  EXPECT_THAT(message, HasSubstr("does not exist"));
  EXPECT_THAT(error_of(dir.path() / "x.otf2"), HasSubstr("x.otf2"));
}

TEST(PingPongTraceErrors, TruncatedArchiveIsTheReadersError) {
  const TempDir dir;
  const auto trace = dir.path() / "trace";
  model_archive().write(trace);
  const auto events = trace / "traces" / "0.evt";
  fs::resize_file(events, fs::file_size(events) / 2);
  const auto message = error_of(trace);
  EXPECT_THAT(message, HasSubstr(events.string()));
  EXPECT_THAT(message, HasSubstr("truncated"));
}

TEST(PingPongTraceErrors, ThreeRanksAllExchanging) {
  // Every pair of three ranks exchanges a message: which pair is the ping-pong?
  const TempDir dir;
  const auto anchor = write_program(dir.path() / "trace", 3, [](traces::MpiCallSink& s, Rank r) {
    for (Rank peer = 0; peer < 3; ++peer) {
      if (peer == r) continue;
      if (r < peer) {
        s.send(peer, 1, 8, traces::kWorld);
        s.recv(peer, 1, 8, traces::kWorld);
      } else {
        s.recv(peer, 1, 8, traces::kWorld);
        s.send(peer, 1, 8, traces::kWorld);
      }
    }
  });
  const auto message = error_of(dir.path() / "trace");
  EXPECT_THAT(message, HasSubstr(anchor.string()));
  EXPECT_THAT(message, HasSubstr("3 pairs of ranks (0 and 1, 0 and 2, 1 and 2)"));
}

TEST(PingPongTraceErrors, ReplyOfAnotherSize) {
  PingPongArchive archive;
  archive.sizes = {1, 2, 4, 8};
  archive.reply = [](std::int64_t bytes) { return bytes == 4 ? std::int64_t{3} : bytes; };
  archive.round_trip_ns = [](std::int64_t bytes, int) { return model_round_trip(bytes); };
  const TempDir dir;
  const auto anchor = archive.write(dir.path() / "trace");
  const auto message = error_of(anchor);
  EXPECT_THAT(message, HasSubstr(anchor.string()));
  // Sizes 1 and 2, five repetitions each, then the first round trip of 4 bytes: the 11th.
  EXPECT_THAT(message, HasSubstr("rank 1 replies 3 bytes to a ping of 4 bytes from rank 0 "
                                 "(round trip 11,"));
}

TEST(PingPongTraceErrors, NoPointToPointMessages) {
  PingPongArchive archive;  // MPI_Init, MPI_Finalize and nothing between
  const TempDir dir;
  const auto anchor = archive.write(dir.path() / "trace");
  const auto message = error_of(anchor);
  EXPECT_THAT(message, HasSubstr(anchor.string() + ": no point-to-point messages"));
}

TEST(PingPongTraceErrors, OperationsThatDoNotAlternate) {
  const TempDir dir;
  // Two pings before the first reply (a stream, as osu_bw sends).
  const auto stream = write_program(dir.path() / "stream", 2, [](traces::MpiCallSink& s, Rank r) {
    const Rank peer = 1 - r;
    for (int k = 0; k < 2; ++k) {
      if (r == 0) s.send(peer, 1, 8, traces::kWorld);
      if (r == 1) s.recv(peer, 1, 8, traces::kWorld);
    }
    for (int k = 0; k < 2; ++k) {
      if (r == 1) s.send(peer, 1, 8, traces::kWorld);
      if (r == 0) s.recv(peer, 1, 8, traces::kWorld);
    }
  });
  const auto twice = error_of(stream);
  EXPECT_THAT(twice, HasSubstr(stream.string() + ": not a ping-pong: rank 0 sends twice in a row"));
  // Both send first (IMB PingPing).
  const auto both = write_program(dir.path() / "pingping", 2, [](traces::MpiCallSink& s, Rank r) {
    const Rank peer = 1 - r;
    const auto send = s.isend(peer, 1, 8, traces::kWorld);
    const auto receive = s.irecv(peer, 1, 8, traces::kWorld);
    const std::array<traces::RequestId, 2> requests{send, receive};
    s.waitall(requests);
  });
  EXPECT_THAT(error_of(both), HasSubstr(": not a ping-pong: ranks 0 and 1 both start by sending"));
}

}  // namespace
}  // namespace mapsim::testing
