#pragma once
// What an MPI micro-benchmark printed, as the benchmark prints it:
//
//   OSU (OMB 5-7)  osu_latency        "# Size  Latency (us)" (or "Avg Latency(us)"): one-way time
//                  osu_bw, osu_bibw   "# Size  Bandwidth (MB/s)"
//                  osu_mbw_mr         "# Size  MB/s  Messages/s"
//   IMB            PingPong           "#bytes #repetitions t[usec] Mbytes/sec": t is one way
//                  PingPing           the same columns: t per message, both directions at once
//                  Sendrecv           "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]
//                                      Mbytes/sec"
//
// Each becomes a series of (bytes, value) points: one-way time in seconds (osu_latency,
// PingPong) or bandwidth in bytes per second (the others; MB is 10^6 bytes in both suites).
// Lines that are neither a header nor a data row of a recognised block are ignored (banners,
// options, IMB's summaries); a table ends at a blank line (IMB), a '#' line or a line that does
// not start with a size — unless a row of a larger size follows that line: then it was a stray
// line inside the table (a message of the MPI library or the job), skipped with a warning naming
// it; a data row (a line starting with digits) that does not parse is an error naming the file,
// line and field.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mapsim::calib {

enum class Measure : std::uint8_t {
  OneWayTime,  ///< seconds for one message, alone on the link
  Bandwidth,   ///< bytes per second of a stream of messages
};

struct Point {
  std::int64_t bytes = 0;
  double value = 0;
};

struct Series {
  std::string benchmark;  ///< "osu_latency", "IMB PingPong", ...
  Measure measure = Measure::OneWayTime;
  std::vector<Point> points;  ///< ascending sizes
  std::string source;         ///< file name (and line of the block's header)
};

/// Every series in `text`; throws InputError naming `source`, the line and the field of a bad
/// data row, and when the text holds no recognised benchmark output at all.
std::vector<Series> read_benchmark_output(std::string_view text, std::string_view source);

/// The same, from a file.
std::vector<Series> read_benchmark_file(const std::string& path);

}  // namespace mapsim::calib
