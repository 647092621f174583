// `mapsim calibrate`: fits a calibration file (sim/Calibration.hpp) to MPI micro-benchmark
// output or a ping-pong OTF2 trace (calibrate/PingPongTrace.hpp) measured between two nodes
// (calibrate/Fit.hpp), so that a replay on the machine takes what the machine took.

#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "calibrate/BenchmarkOutput.hpp"
#include "calibrate/Fit.hpp"
#include "calibrate/PingPongTrace.hpp"
#include "cli/Cli.hpp"
#include "cli/LinkOverrides.hpp"
#include "cli/MachineOptions.hpp"
#include "sim/Network.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"

namespace mapsim::cli {
namespace {

std::string microseconds(double seconds) {
  return fmt::format("{:.3f} us", seconds * 1e6);
}

/// The chart of measured against modelled one-way time: DIR/calibration.dat and .gp.
void write_chart(const std::string& dir, const calib::Fit& fit,
                 const std::vector<calib::Series>& series) {
  const std::filesystem::path folder(dir);
  prepare_output((folder / "calibration.gp").string(), "--chart");
  std::string data = "# bytes measured_s modelled_s (one-way time)\n";
  for (const auto& s : series) {
    if (s.measure != calib::Measure::OneWayTime) continue;
    for (const auto& p : s.points) {
      data += fmt::format("{} {:.9g} {:.9g}\n", std::max<std::int64_t>(p.bytes, 1), p.value,
                          calib::modelled_time(fit, p.bytes));
    }
    break;
  }
  write_output((folder / "calibration.dat").string(), "--chart",
               [&](std::ostream& out) { out << data; });
  write_output((folder / "calibration.gp").string(), "--chart", [&](std::ostream& out) {
    out << "# mapsim calibrate: measured against modelled one-way time; gnuplot calibration.gp\n"
           "set terminal svg size 760,520 dynamic enhanced font 'Helvetica,12'\n"
           "set output 'calibration.svg'\n"
           "set title 'one-way time: measured and as mapsim replays it' noenhanced\n"
           "set logscale xy\nset xlabel 'message size (bytes; 0 drawn at 1)'\n"
           "set ylabel 'one-way time (s)'\nset key top left\nset grid\n"
           "plot 'calibration.dat' using 1:2 with points pt 7 title 'measured', \\\n"
           "     'calibration.dat' using 1:3 with linespoints title 'modelled'\n";
  });
}

}  // namespace

int run_calibrate(const std::vector<std::string>& args) {
  CommandLine line(
      "calibrate",
      "FILE... --topology SPEC [--nodes A,B] [--link CLASS:GBPS:NS]... [--intercept "
      "overheads|latency] [--envelope BYTES] [--out FILE] [--chart DIR]",
      "Fits a calibration to what MPI micro-benchmarks measured between two nodes of a machine,\n"
      "as they print it: osu_latency, osu_bw, osu_bibw, osu_mbw_mr (OSU) and PingPong,\n"
      "PingPing, Sendrecv (IMB). A FILE that is an OTF2 trace (a directory holding traces.otf2,\n"
      "or a file named *.otf2) of a ping-pong between two ranks, as Score-P records osu_latency\n"
      "or IMB PingPong, gives one-way times too: half of each round trip (the pinging rank's\n"
      "send entered to its reply received), the median per size over the repetitions. The\n"
      "one-way times are cut into segments where the protocol changes (found from the data),\n"
      "each a latency and a bandwidth; the smallest messages' time beyond the route's latency\n"
      "becomes the send and receive overheads, the segments size factors on the route's latency\n"
      "and bandwidth (the route mapsim gives the two nodes on --topology, with --link\n"
      "overrides), bandwidth series give the bandwidth where they cover a segment. Prints the\n"
      "fit and writes the calibration file for `mapsim simulate --calibration FILE`\n"
      "(docs/models.md, \"Calibration\").");
  line.options.add_options()(
      "files", po::value<std::vector<std::string>>(),
      "benchmark output files, or OTF2 ping-pong traces (DIR with traces.otf2, or *.otf2)")(
      "topology", po::value<std::string>()->required(), "machine spec, e.g. fattree:...")(
      "nodes", po::value<std::string>()->default_value("0,1"),
      "the two nodes the benchmark ran on (node ids; the same node twice: the intra-node "
      "channel)")("link", po::value<std::vector<std::string>>()->composing(),
                  "override a link class: CLASS:GBPS:NS (repeatable), as in simulate")(
      "out", po::value<std::string>(), "write the calibration file to FILE ('-': stdout)")(
      "intercept", po::value<std::string>()->default_value("overheads"),
      "what the smallest messages take beyond the route's latency: overheads (CPU time on the "
      "ranks, as real MPI libraries spend it) or latency (latency factors only, as SimGrid's "
      "SMPI models it)")(
      "envelope", po::value<std::int64_t>()->default_value(0),
      "bytes the MPI library sends with every message beyond its payload (SMPI: 16); the fit "
      "is over payload + envelope and the calibration carries it, so that empty messages pay "
      "the small messages' factors as they did on the machine (a ping-pong cannot measure it)")(
      "chart", po::value<std::string>(),
      "write a gnuplot chart of measured against modelled time to DIR (calibration.gp, "
      "calibration.dat; gnuplot calibration.gp draws calibration.svg)");
  line.positional.add("files", -1);
  add_machine_options(line.options);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;

  if (options.count("files") == 0) {
    throw po::error(
        "give the benchmark output files (osu_latency, osu_bw, ... or IMB output) or ping-pong "
        "OTF2 traces");
  }
  const auto topology = make_machine(options, options["topology"].as<std::string>(), "--topology");
  const auto nodes_text = options["nodes"].as<std::string>();
  const auto comma = nodes_text.find(',');
  if (comma == std::string::npos) {
    throw InputError(fmt::format("--nodes: '{}' is not A,B (two node ids)", nodes_text));
  }
  const auto last_node = topology->node_count() - 1;
  const auto a = static_cast<topo::NodeId>(parse_integer(
      std::string_view(nodes_text).substr(0, comma), "--nodes (first node)", 0, last_node));
  const auto b = static_cast<topo::NodeId>(parse_integer(
      std::string_view(nodes_text).substr(comma + 1), "--nodes (second node)", 0, last_node));
  const auto overrides = options.count("link") != 0 ? options["link"].as<std::vector<std::string>>()
                                                    : std::vector<std::string>{};
  const auto links = apply_link_overrides(overrides, *topology);
  if (options.count("out") != 0) prepare_output(options["out"].as<std::string>(), "--out");
  if (options.count("chart") != 0) {
    prepare_output(
        (std::filesystem::path(options["chart"].as<std::string>()) / "calibration.gp").string(),
        "--chart");
  }

  std::vector<calib::Series> series;
  for (const auto& file : options["files"].as<std::vector<std::string>>()) {
    if (calib::is_otf2_trace(file)) {
      series.push_back(calib::read_ping_pong_trace(file));
      continue;
    }
    auto read = calib::read_benchmark_file(file);
    series.insert(series.end(), std::make_move_iterator(read.begin()),
                  std::make_move_iterator(read.end()));
  }
  sim::Network network(*topology, links);
  const auto& route = network.route(a, b);
  const double latency = sim::to_seconds(route.latency);
  const auto channel = a == b ? sim::Channel::IntraNode : sim::Channel::Network;
  const auto intercept_name = options["intercept"].as<std::string>();
  if (intercept_name != "overheads" && intercept_name != "latency") {
    throw InputError(
        fmt::format("--intercept: '{}' is neither overheads nor latency", intercept_name));
  }
  const auto envelope = options["envelope"].as<std::int64_t>();
  const auto fit = calib::fit_calibration(
      series, latency, route.bandwidth, channel,
      intercept_name == "latency" ? calib::Intercept::Latency : calib::Intercept::Overheads,
      envelope);

  std::FILE* report =
      options.count("out") != 0 && options["out"].as<std::string>() == "-" ? stderr : stdout;
  for (const auto& s : series) {
    fmt::print(report, "benchmark      {} ({}, {} sizes, {} to {} bytes)\n", s.benchmark, s.source,
               s.points.size(), s.points.front().bytes, s.points.back().bytes);
  }
  fmt::print(report,
             "route          nodes {} -> {} of {}: latency {}, bandwidth {:.3g} GB/s ({} "
             "channel)\n",
             a, b, topology->spec(), microseconds(latency), route.bandwidth / 1e9,
             sim::name(channel));
  const auto& costs = fit.calibration.overheads.of(channel);
  fmt::print(report, "overheads      o_s = {}, o_r = {} ({})\n",
             microseconds(sim::to_seconds(costs.send)),
             microseconds(sim::to_seconds(costs.receive)), sim::name(channel));
  const bool one_way = fit.one_way_points > 0;
  fmt::print(report, "{:<8}{:>22}{:>13}{:>14}{:>12}{:>12}\n", "segment", "sizes (bytes)", "latency",
             "bandwidth", "lat-factor", "bw-factor");
  for (std::size_t k = 0; k < fit.segments.size(); ++k) {
    const auto& s = fit.segments[k];
    const double bandwidth = route.bandwidth * s.bandwidth_factor;
    fmt::print(report, "{:<8}{:>22}{:>13}{:>10.3g} GB/s{:>12.4g}{:>12.4g}{}\n", k + 1,
               one_way ? fmt::format("{} .. {}", s.first, s.last) : std::string("every size > 0"),
               one_way ? microseconds(s.intercept) : std::string("-"), bandwidth / 1e9,
               s.latency_factor, s.bandwidth_factor,
               s.bandwidth_measured ? "  (bandwidth measured)" : "");
  }
  for (std::size_t k = 0; one_way && k < fit.segments.size(); ++k) {
    // A latency below what the factor's floor allows: the fit's line does not describe the
    // route's latency there (too few sizes, or times that do not grow linearly).
    const auto& s = fit.segments[k];
    const double modelled = s.intercept - sim::to_seconds(costs.send + costs.receive);
    if (modelled < calib::kMinFactor * latency) {
      log::warning(
          "segment {} ({} .. {} bytes): the fitted latency, {} less the overheads, is below {} "
          "of the route's; it is modelled as that (lat-factor {}): its times do not follow a "
          "line with a positive latency, check them",
          k + 1, s.first, s.last, microseconds(s.intercept), calib::kMinFactor, calib::kMinFactor);
    }
    if (s.bandwidth_factor <= calib::kMinFactor) {
      log::warning(
          "segment {} ({} .. {} bytes): the fitted bandwidth is below {} of the route's; it is "
          "modelled as that (bw-factor {}): its times do not grow with the size as a bandwidth "
          "would make them, check them",
          k + 1, s.first, s.last, calib::kMinFactor, calib::kMinFactor);
    }
    const double disagreement = s.bandwidth_factor / s.slope_bandwidth_factor;
    if (s.bandwidth_measured && s.per_byte > 0 && (disagreement > 1.25 || disagreement < 0.8)) {
      log::warning(
          "segment {} ({} .. {} bytes): the bandwidth series measure {:.3g} GB/s where the "
          "one-way times grow as {:.3g} GB/s would make them; the segment takes the series' "
          "bandwidth, its latency refitted to it (IMB PingPing and osu_bibw measure both "
          "directions at once)",
          k + 1, s.first, s.last, route.bandwidth * s.bandwidth_factor / 1e9,
          route.bandwidth * s.slope_bandwidth_factor / 1e9);
    }
  }
  if (one_way) {
    fmt::print(
        report,
        "fit            largest error {:.2f} % of the measured one-way time, at {} bytes{}\n",
        100 * fit.max_relative_error, fit.worst_bytes,
        fit.zero_bytes_error >= 0
            ? fmt::format("; {:.2f} % at 0 bytes (zero-byte messages keep factor 1, as in "
                          "SimGrid; --envelope gives them a size)",
                          100 * fit.zero_bytes_error)
            : std::string());
    if (envelope > 0) {
      fmt::print(report,
                 "envelope       {} bytes with every message: segments and factors over payload "
                 "+ {}\n",
                 envelope, envelope);
    }
  } else {
    fmt::print(report,
               "fit            bandwidth only (no one-way times: osu_latency, IMB PingPong): "
               "latency as the machine's, no overheads\n");
  }
  if (options.count("out") != 0) {
    const auto out = options["out"].as<std::string>();
    write_output(out, "--out", [&](std::ostream& os) {
      os << fmt::format("# fitted by mapsim calibrate on {} between nodes {} and {}\n",
                        topology->spec(), a, b)
         << sim::to_text(fit.calibration);
    });
    if (out != "-") {
      fmt::print(report, "calibration    {} (mapsim simulate --calibration {})\n", out, out);
    }
  }
  if (options.count("chart") != 0 && one_way) {
    write_chart(options["chart"].as<std::string>(), fit, series);
    fmt::print(report, "chart          {}/calibration.gp (gnuplot calibration.gp in it)\n",
               options["chart"].as<std::string>());
  } else if (options.count("chart") != 0) {
    fmt::print(report, "chart          none: no one-way times to draw\n");
  }
  return 0;
}

}  // namespace mapsim::cli
