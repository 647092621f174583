// Reading what MPI micro-benchmarks print (calibrate/BenchmarkOutput.hpp): the sample outputs of
// tests/data/benchmarks (OMB 7.3 and IMB-MPI1 2021 as they print, values from the model of its
// README), one row of each checked by hand with its units converted, several benchmarks in one
// file, and every bad input named by file, line and field.

#include "calibrate/BenchmarkOutput.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::testing {
namespace {

using calib::Measure;
using calib::Series;
using ::testing::AllOf;
using ::testing::HasSubstr;

const std::string kData = std::string(MAPSIM_TEST_DATA_DIR) + "/benchmarks/";

// Both suites print microseconds and MB = 10^6 bytes.
constexpr double kUs = 1e-6;
constexpr double kMB = 1e6;

/// OMB prints sizes 1, 2, 4, ..., 4 MiB (23 rows); IMB starts at 0 (24 rows).
constexpr std::size_t kOsuRows = 23;
constexpr std::size_t kImbRows = 24;
constexpr std::int64_t kLargest = std::int64_t{4} << 20;

/// The point of `series` at `bytes` (fails the test if there is none).
calib::Point at(const Series& series, std::int64_t bytes) {
  for (const auto& p : series.points) {
    if (p.bytes == bytes) return p;
  }
  ADD_FAILURE() << series.benchmark << " has no size " << bytes;
  return {};
}

/// The powers of two from 1 to 4 MiB, and 0 first when `zero`.
void expect_sizes(const Series& series, bool zero) {
  std::vector<std::int64_t> expected;
  if (zero) expected.push_back(0);
  for (std::int64_t n = 1; n <= kLargest; n *= 2) expected.push_back(n);
  std::vector<std::int64_t> got;
  for (const auto& p : series.points) got.push_back(p.bytes);
  EXPECT_EQ(got, expected) << series.benchmark;
}

/// The message of a read_benchmark_output(text, "bench.txt") that must throw InputError ("" if
/// it did not).
std::string error_of(const std::string& text) {
  try {
    (void)calib::read_benchmark_output(text, "bench.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// An osu_latency output with OMB 7.3's banner and header (lines 1-3); data rows from line 4.
const std::string kOsuHead =
    "# OSU MPI Latency Test v7.3\n"
    "# Size          Latency (us)\n"
    "# Datatype: MPI_CHAR.\n";

// IMB's Sendrecv block: the header is line 5, data rows from line 6.
const std::string kSendrecvHead =
    "#-----------------------------------------------------------------------------\n"
    "# Benchmarking Sendrecv \n"
    "# #processes = 2 \n"
    "#-----------------------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec\n";

// ---------------------------------------------------------------------------------------------
// Each format

TEST(BenchmarkOutput, OsuLatencyIsOneWayTimeInSeconds) {
  const auto path = kData + "osu_latency.txt";
  const auto all = calib::read_benchmark_file(path);
  ASSERT_EQ(all.size(), 1U);
  const auto& s = all[0];
  EXPECT_EQ(s.benchmark, "osu_latency");
  EXPECT_EQ(s.measure, Measure::OneWayTime);
  EXPECT_EQ(s.source, path + ":2");  // the "# Size" header
  ASSERT_EQ(s.points.size(), kOsuRows);
  expect_sizes(s, false);
  // "65536                  10.63": 10.63 us = 10.63e-6 s.
  EXPECT_DOUBLE_EQ(at(s, 65536).value, 10.63 * kUs);
  // "1                       1.80" and "4194304               360.33"
  EXPECT_DOUBLE_EQ(s.points.front().value, 1.80 * kUs);
  EXPECT_DOUBLE_EQ(s.points.back().value, 360.33 * kUs);
}

TEST(BenchmarkOutput, OsuBwIsBytesPerSecond) {
  const auto all = calib::read_benchmark_file(kData + "osu_bw.txt");
  ASSERT_EQ(all.size(), 1U);
  const auto& s = all[0];
  EXPECT_EQ(s.benchmark, "osu_bw");
  EXPECT_EQ(s.measure, Measure::Bandwidth);
  ASSERT_EQ(s.points.size(), kOsuRows);
  expect_sizes(s, false);
  // "65536               10527.16": 10527.16 MB/s = 10527.16e6 bytes/s.
  EXPECT_DOUBLE_EQ(at(s, 65536).value, 10527.16 * kMB);
}

TEST(BenchmarkOutput, OsuBibwIsHalvedToOneDirection) {
  const auto all = calib::read_benchmark_file(kData + "osu_bibw.txt");
  ASSERT_EQ(all.size(), 1U);
  const auto& s = all[0];
  EXPECT_EQ(s.benchmark, "osu_bibw");
  EXPECT_EQ(s.measure, Measure::Bandwidth);
  ASSERT_EQ(s.points.size(), kOsuRows);
  expect_sizes(s, false);
  // "65536               21054.31": both directions; one is 21054.31 / 2 = 10527.155 MB/s.
  EXPECT_DOUBLE_EQ(at(s, 65536).value, 21054.31 / 2 * kMB);
}

TEST(BenchmarkOutput, OsuMbwMrTakesTheMegabytesNotTheMessageRate) {
  const auto all = calib::read_benchmark_file(kData + "osu_mbw_mr.txt");
  ASSERT_EQ(all.size(), 1U);
  const auto& s = all[0];
  EXPECT_EQ(s.benchmark, "osu_mbw_mr");
  EXPECT_EQ(s.measure, Measure::Bandwidth);
  EXPECT_EQ(s.source, kData + "osu_mbw_mr.txt:3");  // after the "# [ pairs: 1 ]" line
  ASSERT_EQ(s.points.size(), kOsuRows);
  expect_sizes(s, false);
  // "65536               10527.16         160631.68": the MB/s column, 10527.16e6 bytes/s.
  EXPECT_DOUBLE_EQ(at(s, 65536).value, 10527.16 * kMB);
}

TEST(BenchmarkOutput, ImbFileHoldsThreeBenchmarks) {
  const auto path = kData + "imb_pt2pt.txt";
  const auto all = calib::read_benchmark_file(path);
  ASSERT_EQ(all.size(), 3U);  // in the order printed; the banners and summaries skipped
  const auto& pingpong = all[0];
  const auto& pingping = all[1];
  const auto& sendrecv = all[2];

  EXPECT_EQ(pingpong.benchmark, "IMB PingPong");
  EXPECT_EQ(pingpong.measure, Measure::OneWayTime);
  EXPECT_EQ(pingpong.source, path + ":36");  // its "#bytes" header
  ASSERT_EQ(pingpong.points.size(), kImbRows);
  expect_sizes(pingpong, true);
  // "65536          640        10.63      6167.85": t[usec] is one way, 10.63e-6 s.
  EXPECT_DOUBLE_EQ(at(pingpong, 65536).value, 10.63 * kUs);
  // "0         1000         1.80         0.00"
  EXPECT_DOUBLE_EQ(at(pingpong, 0).value, 1.80 * kUs);

  EXPECT_EQ(pingping.benchmark, "IMB PingPing");
  EXPECT_EQ(pingping.measure, Measure::Bandwidth);
  EXPECT_EQ(pingping.source, path + ":66");
  ASSERT_EQ(pingping.points.size(), kImbRows);
  expect_sizes(pingping, true);
  // The same row in PingPing: Mbytes/sec 6167.85, each direction's: 6167.85e6 bytes/s.
  EXPECT_DOUBLE_EQ(at(pingping, 65536).value, 6167.85 * kMB);

  EXPECT_EQ(sendrecv.benchmark, "IMB Sendrecv");
  EXPECT_EQ(sendrecv.measure, Measure::Bandwidth);
  EXPECT_EQ(sendrecv.source, path + ":96");
  ASSERT_EQ(sendrecv.points.size(), kImbRows);
  expect_sizes(sendrecv, true);
  // "65536  640  10.63  10.63  10.63  12335.70": Mbytes/sec counts both directions; one is
  // 12335.70 / 2 = 6167.85 MB/s, as PingPing's.
  EXPECT_DOUBLE_EQ(at(sendrecv, 65536).value, 12335.70 / 2 * kMB);
  EXPECT_DOUBLE_EQ(at(sendrecv, 65536).value, at(pingping, 65536).value);
}

TEST(BenchmarkOutput, SeveralOsuOutputsInOneFileAreSeveralSeries) {
  // cat osu_latency.txt osu_bw.txt osu_bibw.txt: each banner names the table after it.
  const auto text = read_file(kData + "osu_latency.txt") + read_file(kData + "osu_bw.txt") +
                    read_file(kData + "osu_bibw.txt");
  const auto all = calib::read_benchmark_output(text, "all.txt");
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].benchmark, "osu_latency");
  EXPECT_EQ(all[1].benchmark, "osu_bw");
  EXPECT_EQ(all[2].benchmark, "osu_bibw");
  // osu_latency's 26 lines come first: osu_bw's header is line 26 + 2.
  EXPECT_EQ(all[1].source, "all.txt:28");
  for (const auto& s : all) EXPECT_EQ(s.points.size(), kOsuRows) << s.benchmark;
  EXPECT_DOUBLE_EQ(at(all[2], 65536).value, 21054.31 / 2 * kMB);
}

TEST(BenchmarkOutput, OsuWithoutBannerAndAvgLatencyHeader) {
  // OMB 5's "Avg Latency(us)" header, no banner: still osu_latency; tabs and CRLF are blanks.
  const auto all =
      calib::read_benchmark_output("# Size       Avg Latency(us)\r\n0\t1.25\r\n8   2.50\r\n", "x");
  ASSERT_EQ(all.size(), 1U);
  EXPECT_EQ(all[0].benchmark, "osu_latency");
  EXPECT_EQ(all[0].measure, Measure::OneWayTime);
  ASSERT_EQ(all[0].points.size(), 2U);
  EXPECT_EQ(all[0].points[1].bytes, 8);
  EXPECT_DOUBLE_EQ(all[0].points[1].value, 2.50 * kUs);
}

TEST(BenchmarkOutput, AStrayLineInsideATableIsSkipped) {
  // A message of the MPI library among the rows (output captured with 2>&1): the rows after it
  // belong to the table, since their sizes go on ascending. A line after the last row followed
  // by a row that does not ascend (a job script's own numbers) ends the table there.
  const std::string text =
      "# OSU MPI Latency Test v7.3\n"
      "# Size       Latency (us)\n"
      "0                       1.25\n"
      "1                       1.26\n"
      "[node3:12345] mca_base_component_repository_open: unable to open mca_btl_openib\n"
      "2                       1.27\n"
      "4                       1.30\n"
      "done after 2 tries\n"
      "3 ranks finished\n";
  const auto all = calib::read_benchmark_output(text, "lat.txt");
  ASSERT_EQ(all.size(), 1U);
  ASSERT_EQ(all[0].points.size(), 4U);
  EXPECT_EQ(all[0].points[2].bytes, 2);
  EXPECT_EQ(all[0].points[3].bytes, 4);
  EXPECT_DOUBLE_EQ(all[0].points[3].value, 1.30 * kUs);
}

TEST(BenchmarkOutput, OtherImbBenchmarksAreSkipped) {
  // A Barrier block (no #bytes column) and an Allreduce block (a #bytes header) between two read
  // blocks: neither is read, neither is an error.
  const std::string text =
      "#---------------------------------------------------\n"
      "# Benchmarking PingPong \n"
      "# #processes = 2 \n"
      "#---------------------------------------------------\n"
      "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
      "            0         1000         1.80         0.00\n"
      "            1         1000         1.80         0.56\n"
      "\n"
      "#----------------------------------------------------------------\n"
      "# Benchmarking Barrier \n"
      "# #processes = 2 \n"
      "#----------------------------------------------------------------\n"
      " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
      "         1000         2.10         2.10         2.10\n"
      "\n"
      "#----------------------------------------------------------------\n"
      "# Benchmarking Allreduce \n"
      "# #processes = 2 \n"
      "#----------------------------------------------------------------\n"
      "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
      "            0         1000         0.04         0.05         0.04\n"
      "            4         1000         2.40         2.41         2.40\n"
      "\n" +
      kSendrecvHead +
      "            8         1000         2.00         2.00         2.00         8.00\n"
      "\n"
      "\n"
      "# All processes entering MPI_Finalize\n";
  const auto all = calib::read_benchmark_output(text, "imb.txt");
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].benchmark, "IMB PingPong");
  EXPECT_EQ(all[0].points.size(), 2U);
  EXPECT_EQ(all[1].benchmark, "IMB Sendrecv");
  ASSERT_EQ(all[1].points.size(), 1U);
  // 8.00 MB/s both ways: 4e6 bytes/s each.
  EXPECT_DOUBLE_EQ(all[1].points[0].value, 8.00 / 2 * kMB);
}

// ---------------------------------------------------------------------------------------------
// Bad input

TEST(BenchmarkOutputErrors, NonNumericValueNamesFileLineAndField) {
  EXPECT_THAT(error_of(kOsuHead + "1     1.80\n2     fast\n"),
              AllOf(HasSubstr("bench.txt:5"), HasSubstr("field 2"), HasSubstr("'fast'")));
  // Not finite: the same.
  EXPECT_THAT(error_of(kOsuHead + "1     nan\n"),
              AllOf(HasSubstr("bench.txt:4"), HasSubstr("field 2"), HasSubstr("'nan'")));
  // A size that is not an integer: field 1.
  EXPECT_THAT(error_of(kOsuHead + "1k    1.80\n"),
              AllOf(HasSubstr("bench.txt:4"), HasSubstr("field 1"), HasSubstr("1k")));
  // IMB Sendrecv reads field 6 (Mbytes/sec).
  EXPECT_THAT(error_of(kSendrecvHead + "0  1000  1.80  1.80  1.80  n/a\n"),
              AllOf(HasSubstr("bench.txt:6"), HasSubstr("field 6"), HasSubstr("'n/a'")));
}

TEST(BenchmarkOutputErrors, NegativeValueIsNamed) {
  EXPECT_THAT(error_of(kOsuHead + "1     1.80\n2     1.80\n4     -1.80\n"),
              AllOf(HasSubstr("bench.txt:6"), HasSubstr("field 2"), HasSubstr("negative"),
                    HasSubstr("-1.80")));
  // A negative size: field 1.
  EXPECT_THAT(error_of(kOsuHead + "-8    1.80\n"),
              AllOf(HasSubstr("bench.txt:4"), HasSubstr("field 1"), HasSubstr("-8")));
}

TEST(BenchmarkOutputErrors, ImpossibleValuesAreNamed) {
  // A time of 0 or past 10^12 us; a bandwidth of 0 past 0 bytes or past 10^10 MB/s.
  EXPECT_THAT(error_of(kOsuHead + "1     1.80\n2     0\n"),
              AllOf(HasSubstr("bench.txt:5: field 2 of osu_latency is 0 us at 2 bytes"),
                    HasSubstr("a time in (0, 1e+12]")));
  EXPECT_THAT(error_of(kOsuHead + "1     1e300\n"),
              HasSubstr("bench.txt:4: field 2 of osu_latency is 1e300 us at 1 bytes"));
  const std::string bw = "# OSU MPI Bandwidth Test v7.3\n# Size      Bandwidth (MB/s)\n";
  EXPECT_THAT(error_of(bw + "1     0.00\n"),
              AllOf(HasSubstr("bench.txt:3: field 2 of osu_bw is 0.00 MB/s at 1 bytes"),
                    HasSubstr("a bandwidth in (0, 1e+10]")));
  EXPECT_THAT(error_of(bw + "4194304     2e10\n"), HasSubstr("is 2e10 MB/s at 4194304 bytes"));
  // IMB prints 0.00 MB/s at 0 bytes: read.
  EXPECT_EQ(error_of(kSendrecvHead + "0  1000  1.80  1.80  1.80  0.00\n"), "");
  EXPECT_THAT(error_of(kSendrecvHead + "1  1000  1.80  1.80  1.80  0.00\n"),
              HasSubstr("bench.txt:6: field 6 of IMB Sendrecv is 0.00 MB/s at 1 bytes"));
  // IMB's repetitions: 0 is no measurement.
  EXPECT_THAT(error_of(kSendrecvHead + "0  0  1.80  1.80  1.80  0.00\n"),
              HasSubstr("bench.txt:6: #repetitions (field 2) is 0: no measurement"));
}

TEST(BenchmarkOutputErrors, AnImbTableCutShortOfItsStatedLargestSize) {
  const std::string stated = "# Maximum message length in bytes:   4194304\n";
  // Line 1 states the largest size; the table (header on line 6) stops at 1 byte.
  EXPECT_THAT(error_of(stated + kSendrecvHead + "0  1000  1.80  1.80  1.80  0.00\n" +
                       "1  1000  1.80  1.80  1.80  1.11\n"),
              AllOf(HasSubstr("bench.txt:6: the IMB Sendrecv table ends at 1 bytes"),
                    HasSubstr("largest size of 4194304 bytes stated at bench.txt:1"),
                    HasSubstr("cut short")));
  // Ending at the stated size: read.
  EXPECT_EQ(error_of("# Maximum message length in bytes:   1\n" + kSendrecvHead +
                     "0  1000  1.80  1.80  1.80  0.00\n1  1000  1.80  1.80  1.80  1.11\n"),
            "");
}

TEST(BenchmarkOutputErrors, SizesMustAscend) {
  EXPECT_THAT(
      error_of(kOsuHead + "1     1.80\n4     1.80\n2     1.80\n"),
      AllOf(HasSubstr("bench.txt:6"), HasSubstr("size 2 does not follow 4"), HasSubstr("ascend")));
  // A size twice.
  EXPECT_THAT(error_of(kOsuHead + "1     1.80\n1     1.81\n"),
              AllOf(HasSubstr("bench.txt:5"), HasSubstr("size 1 does not follow 1")));
}

TEST(BenchmarkOutputErrors, RowWithTooFewFields) {
  EXPECT_THAT(error_of(kOsuHead + "1     1.80\n2\n"),
              AllOf(HasSubstr("bench.txt:5"), HasSubstr("osu_latency"), HasSubstr("1 fields"),
                    HasSubstr("field 2")));
  // Sendrecv's value is field 6: a row of 5 fields lacks it.
  EXPECT_THAT(error_of(kSendrecvHead + "0  1000  1.80  1.80  1.80\n"),
              AllOf(HasSubstr("bench.txt:6"), HasSubstr("IMB Sendrecv"), HasSubstr("5 fields"),
                    HasSubstr("field 6")));
}

TEST(BenchmarkOutputErrors, NoRecognisedOutputIsAnError) {
  for (const std::string& text : {
           std::string(),
           std::string("hello\nworld\n"),
           // Banners and a header without a single row.
           kOsuHead,
           // Only a benchmark that is not read.
           std::string("# Benchmarking Allreduce \n"
                       "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
                       "            4         1000         2.40         2.41         2.40\n"),
           // IMB's columns without a "Benchmarking" line: no benchmark to name.
           std::string("       #bytes #repetitions      t[usec]   Mbytes/sec\n"
                       "            0         1000         1.80         0.00\n"),
       }) {
    EXPECT_THAT(error_of(text), AllOf(HasSubstr("bench.txt"), HasSubstr("no benchmark output")))
        << text;
  }
}

TEST(BenchmarkOutputErrors, FileErrorsNameThePath) {
  const TempDir dir;
  const auto missing = (dir.path() / "missing.txt").string();
  EXPECT_THAT(
      [&] { (void)calib::read_benchmark_file(missing); },
      ::testing::ThrowsMessage<InputError>(AllOf(HasSubstr(missing), HasSubstr("No such file"))));
  // A bad row in a file: the path and the line.
  const auto bad = dir.write("bad.txt", kOsuHead + "1     1.80\n2     x\n").string();
  EXPECT_THAT(
      [&] { (void)calib::read_benchmark_file(bad); },
      ::testing::ThrowsMessage<InputError>(AllOf(HasSubstr(bad + ":5"), HasSubstr("field 2"))));
  const auto empty = dir.write("empty.txt", "").string();
  EXPECT_THAT([&] { (void)calib::read_benchmark_file(empty); },
              ::testing::ThrowsMessage<InputError>(HasSubstr(empty)));
}

}  // namespace
}  // namespace mapsim::testing
