#include "calibrate/BenchmarkOutput.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Parse.hpp"

namespace mapsim::calib {
namespace {

constexpr double kMega = 1e6;    // MB in both suites
constexpr double kMicro = 1e-6;  // us
// What no measurement can be, in the units the suites print: a time of more than 10^12 us
// (11.6 days) or a bandwidth of more than 10^10 MB/s (10 PB/s).
constexpr double kMostMicroseconds = 1e12;
constexpr double kMostMegabytesPerSecond = 1e10;

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

/// A block being read: its series, which column holds the value, and how to scale it.
struct Block {
  Series series;
  std::size_t column = 1;
  double scale = 1;
  std::size_t repetitions_column = 0;  // IMB's #repetitions, 0 if none
  // A line after the table's last row that is no row (a message of the MPI library, a job
  // script's output): where and what, until a row of a larger size shows the table goes on.
  std::string stray_at;
  std::string stray;
};

}  // namespace

std::vector<Series> read_benchmark_output(std::string_view text, std::string_view source) {
  std::vector<Series> all;
  std::optional<Block> block;
  std::string osu_name = "osu";
  std::string imb_name;
  std::optional<std::int64_t> imb_largest;  // IMB's "Maximum message length in bytes"
  std::string imb_largest_at;
  const auto finish = [&] {
    if (block && !block->series.points.empty()) {
      // An IMB table stops at the largest size its header states, unless the output was cut.
      const auto last = block->series.points.back().bytes;
      if (block->series.benchmark.starts_with("IMB") && imb_largest && last < *imb_largest) {
        throw InputError(fmt::format(
            "{}: the {} table ends at {} bytes, before the largest size of {} bytes stated at "
            "{}: the output is cut short",
            block->series.source, block->series.benchmark, last, *imb_largest, imb_largest_at));
      }
      all.push_back(std::move(block->series));
    }
    block.reset();
  };
  std::size_t number = 0;
  for (std::size_t at = 0; at < text.size();) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const auto line = trim(text.substr(at, end - at));
    at = end + 1;
    ++number;
    if (line.empty()) {
      if (block && block->series.benchmark.starts_with("IMB")) finish();  // IMB ends a table so
      continue;
    }
    const auto here = fmt::format("{}:{}", source, number);
    if (line.front() == '#') {
      // OSU banners name the test; a "# Size" line starts its table.
      if (contains(line, "OSU MPI Latency Test")) osu_name = "osu_latency";
      if (contains(line, "OSU MPI Bandwidth Test")) osu_name = "osu_bw";
      if (contains(line, "OSU MPI Bi-Directional Bandwidth Test")) osu_name = "osu_bibw";
      if (contains(line, "OSU MPI Multiple Bandwidth")) osu_name = "osu_mbw_mr";
      if (contains(line, "Maximum message length in bytes:")) {
        imb_largest =
            parse_integer(trim(line.substr(line.find(':') + 1)),
                          fmt::format("{}: the maximum message length", here), 0, INT64_MAX);
        imb_largest_at = here;
        continue;
      }
      if (contains(line, "Benchmarking ")) {
        finish();
        const auto name = trim(line.substr(line.find("Benchmarking ") + 13));
        imb_name = std::string(name);
        continue;
      }
      const auto w = words(line.substr(1));
      if (!w.empty() && w.front() == "Size") {
        finish();
        Block b;
        b.series.source = here;
        if (contains(line, "Latency")) {
          b.series.benchmark = osu_name == "osu" ? "osu_latency" : osu_name;
          b.series.measure = Measure::OneWayTime;
          b.scale = kMicro;
        } else if (contains(line, "MB/s")) {
          b.series.benchmark = osu_name == "osu" ? "osu_bw" : osu_name;
          b.series.measure = Measure::Bandwidth;
          // osu_bibw sums both directions: per direction is half.
          b.scale = b.series.benchmark == "osu_bibw" ? kMega / 2 : kMega;
        } else {
          continue;  // another OSU table (e.g. osu_multi_lat's): not read
        }
        block = std::move(b);
        continue;
      }
      const auto columns = words(line);
      if (columns.front() == "#bytes" && !imb_name.empty()) {
        finish();
        Block b;
        b.series.source = here;
        b.series.benchmark = "IMB " + imb_name;
        std::size_t time_column = 0, bandwidth_column = 0;
        for (std::size_t k = 0; k < columns.size(); ++k) {
          if (columns[k] == "t[usec]" || columns[k] == "t_avg[usec]") time_column = k;
          if (columns[k] == "Mbytes/sec") bandwidth_column = k;
          if (columns[k] == "#repetitions") b.repetitions_column = k;
        }
        if (imb_name == "PingPong" && time_column > 0) {
          b.series.measure = Measure::OneWayTime;  // half the round trip
          b.column = time_column;
          b.scale = kMicro;
        } else if ((imb_name == "PingPing" || imb_name == "Sendrecv") && bandwidth_column > 0) {
          b.series.measure = Measure::Bandwidth;
          b.column = bandwidth_column;
          // Sendrecv counts the bytes of both directions.
          b.scale = imb_name == "Sendrecv" ? kMega / 2 : kMega;
        } else {
          continue;  // another IMB benchmark: not read
        }
        block = std::move(b);
      }
      continue;
    }
    if (!block) continue;  // text outside a table
    const auto w = words(line);
    // A table's rows start with the size (a number, maybe signed or malformed: an error below);
    // any other line (a job script's own output after an OSU table) ends it.
    const auto first = w.front();
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    const bool sized = digit(first.front()) || ((first.front() == '-' || first.front() == '+') &&
                                                first.size() > 1 && digit(first[1]));
    if (!sized) {
      if (block->series.points.empty()) {
        finish();
      } else if (block->stray_at.empty()) {
        block->stray_at = here;
        block->stray = std::string(line);
      }
      continue;
    }
    if (!block->stray_at.empty()) {
      // A row after a stray line: the table goes on past it if the size ascends; otherwise the
      // table ended there, and this line is outside it.
      const auto size =
          parse_integer(w[0], fmt::format("{}: the size (field 1)", here), 0, INT64_MAX);
      if (size <= block->series.points.back().bytes) {
        finish();
        continue;
      }
      log::warning("{}: skipped a line inside the {} table that is not a row of it: '{}'",
                   block->stray_at, block->series.benchmark, block->stray);
      block->stray_at.clear();
    }
    if (w.size() <= std::max(block->column, block->repetitions_column)) {
      throw InputError(fmt::format("{}: a row of {} has {} fields, the value is field {}", here,
                                   block->series.benchmark, w.size(), block->column + 1));
    }
    Point p;
    p.bytes = parse_integer(w[0], fmt::format("{}: the size (field 1)", here), 0, INT64_MAX);
    if (block->repetitions_column > 0) {
      const auto field = block->repetitions_column + 1;
      if (parse_integer(w[field - 1], fmt::format("{}: #repetitions (field {})", here, field), 0,
                        INT64_MAX) == 0) {
        throw InputError(
            fmt::format("{}: #repetitions (field {}) is 0: no measurement", here, field));
      }
    }
    const double value =
        parse_real(w[block->column], fmt::format("{}: field {}", here, block->column + 1));
    if (!(value >= 0)) {
      throw InputError(
          fmt::format("{}: field {} is negative ({})", here, block->column + 1, w[block->column]));
    }
    // A time is never 0; a bandwidth only at 0 bytes (IMB prints 0.00 MB/s there).
    const bool time = block->series.measure == Measure::OneWayTime;
    if ((value == 0 && (time || p.bytes > 0)) ||
        value > (time ? kMostMicroseconds : kMostMegabytesPerSecond)) {
      throw InputError(fmt::format(
          "{}: field {} of {} is {} {} at {} bytes: no measurement is that ({} in (0, {:g}])", here,
          block->column + 1, block->series.benchmark, w[block->column], time ? "us" : "MB/s",
          p.bytes, time ? "a time" : "a bandwidth",
          time ? kMostMicroseconds : kMostMegabytesPerSecond));
    }
    p.value = value * block->scale;
    if (!block->series.points.empty() && p.bytes <= block->series.points.back().bytes) {
      throw InputError(fmt::format("{}: size {} does not follow {}: sizes ascend", here, p.bytes,
                                   block->series.points.back().bytes));
    }
    block->series.points.push_back(p);
  }
  finish();
  if (all.empty()) {
    throw InputError(fmt::format(
        "{}: no benchmark output found (osu_latency, osu_bw, osu_bibw, osu_mbw_mr; IMB PingPong, "
        "PingPing, Sendrecv, as they print it)",
        source));
  }
  return all;
}

std::vector<Series> read_benchmark_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(
        fmt::format("cannot read benchmark output '{}': {}", path, std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return read_benchmark_output(text.str(), path);
}

}  // namespace mapsim::calib
