// `mapsim report`: charts of a results database drawn by gnuplot (bars per machine and model,
// scaling with the rank count, agreement of the static metrics with the simulation, link-load
// heat maps) with their data and an index (markdown and HTML) that opens with the findings.

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "cli/Interrupt.hpp"
#include "experiments/HeatMap.hpp"
#include "experiments/MatrixHeatMap.hpp"
#include "experiments/RankCorrelation.hpp"
#include "experiments/ReportCharts.hpp"
#include "experiments/ReportData.hpp"
#include "experiments/ReportFindings.hpp"
#include "experiments/ReportWriter.hpp"
#include "experiments/Slurm.hpp"
#include "experiments/Store.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Parse.hpp"
#include "support/Progress.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::cli {
namespace {

std::string command_line(const std::vector<std::string>& args) {
  std::string text = "mapsim report";
  for (const auto& a : args) {
    // Quoted only where the shell would need it, so that the index shows the command as typed.
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyz"
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_@%+=:,./-") == std::string::npos;
    text += ' ';
    text += plain ? a : exp::shell_quote(a);
  }
  return text;
}

/// The busiest link's load of a run, in the bytes its heat map colours.
double busiest_link(const exp::LinkLoadRun& run) {
  double most = 0;
  for (const auto& link : run.links) {
    const auto bytes = run.replayed && link.bytes ? *link.bytes : link.static_bytes;
    most = std::max(most, static_cast<double>(bytes));
  }
  return most;
}

/// The heat maps of `runs`; `shared_scale`: one colour scale for all (the busiest link of any).
std::vector<exp::Chart> heatmaps(exp::Store& store, const std::vector<std::string>& runs,
                                 bool shared_scale) {
  std::vector<exp::LinkLoadRun> loads;
  for (const auto& run : runs) {
    auto load = exp::read_link_loads(store, run);
    const auto same = [&](const exp::LinkLoadRun& other) { return other.key == load.key; };
    if (std::none_of(loads.begin(), loads.end(), same)) loads.push_back(std::move(load));
  }
  std::optional<double> colour_max;
  if (shared_scale && loads.size() > 1) {
    double most = 0;
    for (const auto& load : loads) most = std::max(most, busiest_link(load));
    if (most > 0) colour_max = most;
  }
  std::vector<exp::Chart> charts;
  for (const auto& load : loads) {
    const auto machine = topo::make_topology(load.topology);
    charts.push_back(exp::heatmap_chart(load, *machine, colour_max));
  }
  return charts;
}

}  // namespace

int run_report(const std::vector<std::string>& args) {
  CommandLine line(
      "report", "DB --out DIR [--where EXPR] [--heatmap RUN ...]",
      "Draws the results of a sweep with gnuplot (SVG and PNG) into DIR: per machine and model,\n"
      "bars of hop-bytes and simulated time per mapper relative to in-order; the same against\n"
      "the rank count; how well the static metrics order the mappers as the simulation does;\n"
      "link-load heat maps of stored runs (run with --store-links). Each chart comes with its\n"
      "data (CSV), its gnuplot script and a table in DIR/index.md and DIR/index.html, which\n"
      "open with the findings: per workload, machine and model the mapper to use and whether\n"
      "hop-bytes would have chosen it. Needs gnuplot (Debian package gnuplot-nox).");
  line.options.add_options()("db", po::value<std::string>()->required(), "results database")(
      "out,o", po::value<std::string>()->required(), "the report directory (created)")(
      "where", po::value<std::string>(),
      "SQL condition over the columns of the results view, e.g. \"workload LIKE 'npb:lu%'\"")(
      "time-metric", po::value<std::string>()->default_value("makespan_s"),
      "the simulated time the static metrics are compared with")(
      "metric", po::value<std::string>()->default_value("hop_bytes"),
      "the metric of the scaling charts")(
      "tie-tolerance", po::value<std::string>(),
      "relative difference within which two mappers' static metrics or simulated times count "
      "as equal (ties) for rho and the discordant pairs, in [0, 1) (default 0.001, i.e. "
      "0.1 %; 0: exact)")(
      "heatmap", po::value<std::vector<std::string>>()->composing(),
      "a link-load heat map of this run: its name, or its key or a prefix of 6 or more hex "
      "digits (repeatable; default: in-order and the fastest mapper in the largest context with "
      "stored links, on one colour scale)")("gnuplot",
                                            po::value<std::string>()->default_value("gnuplot"),
                                            "the gnuplot program (looked up on PATH)")(
      "no-matrices",
      "leave out the rank x rank heat map of each workload's communication matrix (recomputed "
      "from its generator spec, trace or CSV file)")(
      "gnuplot-timeout", po::value<std::string>(),
      "seconds gnuplot may take to answer --version, or on one chart, before it is stopped "
      "(default 120)");
  line.positional.add("db", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;

  exp::ReportOptions report;
  report.out = options["out"].as<std::string>();
  report.command = command_line(args);
  report.gnuplot = options["gnuplot"].as<std::string>();
  if (options.count("gnuplot-timeout") != 0) {
    report.gnuplot_timeout =
        parse_real(options["gnuplot-timeout"].as<std::string>(), "--gnuplot-timeout", 0.001, 1e6);
  }
  double tie_tolerance = exp::kDefaultTieTolerance;
  if (options.count("tie-tolerance") != 0) {
    tie_tolerance =
        exp::parse_tie_tolerance(options["tie-tolerance"].as<std::string>(), "--tie-tolerance");
  }
  exp::check_gnuplot(report.gnuplot, report.gnuplot_timeout);  // before reading a large database
  {
    std::error_code error;
    if (std::filesystem::exists(report.out, error) && !std::filesystem::is_directory(report.out))
      throw InputError(
          fmt::format("--out: '{}' exists and is not a directory", report.out.string()));
  }

  exp::Store store(options["db"].as<std::string>(), exp::Store::Access::Read);
  exp::ReportQuery query;
  if (options.count("where") != 0) query.where = options["where"].as<std::string>();
  query.time_metric = options["time-metric"].as<std::string>();
  query.scaling_metric = options["metric"].as<std::string>();
  const auto data = exp::read_report(store, query);
  if (data.contexts.empty()) {
    throw InputError(query.where.empty()
                         ? fmt::format("no finished runs in '{}'", store.path().string())
                         : fmt::format("--where '{}': no finished runs match in '{}'", query.where,
                                       store.path().string()));
  }
  log::info("report of {} contexts in {}", data.contexts.size(), store.path().string());

  std::vector<exp::Chart> charts = exp::bar_charts(data);
  const auto append = [&](std::vector<exp::Chart> more) {
    for (auto& chart : more) charts.push_back(std::move(chart));
  };
  append(exp::scaling_charts(data, query.scaling_metric));
  std::vector<exp::ContextAgreement> agreements;
  std::vector<exp::ChartTable> findings;
  for (const auto metric : exp::kReportStaticMetrics) {
    auto of_metric = exp::agreement(data, metric, tie_tolerance);
    if (metric == "hop_bytes") {
      append(exp::agreement_charts(data, of_metric));
      const auto found = exp::findings(data, tie_tolerance);
      findings = exp::findings_tables(data, found, exp::compare_models(data, found), of_metric,
                                      tie_tolerance);
    }
    for (auto& a : of_metric) agreements.push_back(std::move(a));
  }
  if (auto summary = exp::agreement_summary_chart(exp::summarise(data, agreements)))
    charts.push_back(std::move(*summary));
  append(exp::energy_charts(data));
  append(exp::critical_path_charts(data));
  if (options.count("heatmap") != 0) {
    append(heatmaps(store, options["heatmap"].as<std::vector<std::string>>(), false));
  } else {
    const auto runs = exp::default_heatmap_runs(store, query.where);
    if (runs.empty()) log::info("no run has stored links (mapsim run --store-links): no heat map");
    auto chosen = heatmaps(store, runs, true);
    for (auto& chart : chosen) {
      chart.about +=
          " Chosen by default: of the runs with stored links, the workload, machine and model "
          "with the most ranks (then by workload, machine and model name), and in it in-order's "
          "run and the fastest other mapper's (static runs: the lowest hop-bytes), on one colour "
          "scale; --heatmap RUN draws others.";
    }
    append(std::move(chosen));
  }

  if (options.count("no-matrices") == 0) {
    const auto workloads = exp::stored_workloads(store, query.where);
    std::vector<std::string> skipped;
    std::vector<exp::Chart> matrices;
    {
      const ProgressStep step(fmt::format("the matrices of {} workloads", workloads.size()));
      matrices = exp::matrix_charts(workloads, skipped);
    }
    for (const auto& reason : skipped) log::info("no matrix heat map of {}", reason);
    append(std::move(matrices));
  }

  const InterruptGuard guard;
  report.interrupt = &interrupted();
  exp::ReportSummary summary;
  try {
    summary = exp::write_report(charts, report, findings);
  } catch (const Cancelled& e) {
    fmt::print(stderr, "mapsim report: {}: nothing written ({} is as it was)\n", e.what(),
               report.out.string());
    return 130;
  }
  for (const auto& files : summary.files)
    fmt::print("{}\n", (summary.out / files.front()).string());
  fmt::print("report: {} charts in {} (index.md, index.html)\n", summary.charts,
             summary.out.string());
  return 0;
}

}  // namespace mapsim::cli
