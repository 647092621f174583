// The agreement charts of `mapsim report`: a static metric against the simulated time per
// machine and model, and the summary of how often each static metric orders the mappers as the
// simulation does (ReportCharts.hpp).

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "experiments/ChartText.hpp"
#include "experiments/ReportCharts.hpp"

namespace mapsim::exp {

using namespace chart;

namespace {

/// The summary's left margin (24 characters) in pixels: the title is centred on the plot, so it
/// has the chart's width less twice that.
constexpr int kLeftMarginPixels = 24 * 8;

}  // namespace

std::vector<Chart> agreement_charts(const ReportData& data,
                                    const std::vector<ContextAgreement>& agreements) {
  std::vector<Chart> charts;
  if (agreements.empty()) return charts;
  Names names;
  const auto palette = mappers_of(data, all_contexts(data));
  const auto& metric = agreements.front().metric;
  const auto column = find_metric(data, metric);
  const auto& time_metric = data.metrics[ReportData::kTime];
  std::map<std::size_t, const ContextAgreement*> of_context;
  std::vector<std::size_t> contexts;
  for (const auto& a : agreements) {
    MAPSIM_EXPECTS(a.context < data.contexts.size(), "an agreement's context is in the data");
    MAPSIM_EXPECTS(a.metric == metric, "the agreements are of one metric");
    if (of_context.emplace(a.context, &a).second) contexts.push_back(a.context);
  }
  const auto groups = group_contexts(contexts, [&](std::size_t c) {
    return data.contexts[c].machine + '\n' + data.contexts[c].model_title();
  });
  for (const auto& group : groups) {
    const auto& first = data.contexts[group.front()];
    const auto mappers = mappers_of(data, group);
    double rho_sum = 0;
    int rho_count = 0, tied_count = 0;
    for (const auto c : group) {
      const auto& a = *of_context[c];
      if (a.mostly_tied()) {
        ++tied_count;
      } else if (a.rho) {
        rho_sum += *a.rho;
        ++rho_count;
      }
    }
    const std::string tied_text =
        tied_count > 0 ? fmt::format(", {} mostly tied", tied_count) : std::string();
    const std::string rho_text =
        rho_count > 0    ? fmt::format("mean rho {:+.2f} over {} workloads{}", rho_sum / rho_count,
                                       rho_count, tied_text)
        : tied_count > 0 ? fmt::format("no rho: {} workloads mostly tied", tied_count)
                         : std::string("no rho: fewer than 3 mappers");
    const double tolerance = of_context[group.front()]->tie_tolerance;

    Chart chart;
    chart.name =
        names.take(fmt::format("agreement-{}-{}-{}", metric, first.machine, first.model_title()));
    chart.kind = "agreement";
    chart.title =
        fmt::format("{} against simulated {} (/ in-order): {}, {} ({})", metric_label(metric),
                    time_metric, first.machine, first.model_title(), rho_text);
    chart.about = fmt::format(
        "A point per mapper and workload at ({0} / in-order, {1} / in-order), coloured by mapper, "
        "shaped by workload. Where {0} tells "
        "the truth the points rise from left to right; rho is Spearman's rank correlation of "
        "{0} and {1} over a workload's mappers (1: same order). Values within {2} of each "
        "other are ties; a workload with more than half of its mapper pairs tied is 'mostly "
        "tied': its order is noise, and its rho is left out of the mean. The table lists the "
        "mapper pairs that {0} orders one way and the simulation the other.",
        metric_label(metric), time_metric, tolerance_text(tolerance));
    chart.csv = fmt::format("workload,ranks,mapper,{0},{1},{0}_ratio,{1}_ratio,rho\n",
                            csv_field(metric), csv_field(time_metric));
    chart.table_header = {"workload", "mappers", "rho", "tied pairs", "discordant pairs"};
    // A point shape per workload, a colour per mapper.
    const WorkloadShapes shape(data, group);
    std::string blocks;
    std::vector<std::pair<std::size_t, std::size_t>> series;  // (mapper, index)
    for (std::size_t m = 0; m < mappers.size(); ++m) {
      std::string block;
      for (const auto c : group) {
        const auto& context = data.contexts[c];
        const auto* row = find_row(context, mappers[m]);
        const auto x = ratio(row, column);
        const auto y = ratio(row, ReportData::kTime);
        if (x && y) {
          block += fmt::format("{:.9g} {:.9g} {} {}\n", *x, *y, data_string(context.workload),
                               shape(context.workload));
        }
      }
      if (block.empty()) continue;
      blocks += fmt::format("# {}\n{}\n\n", mappers[m], block);
      series.emplace_back(m, series.size());
    }
    for (const auto c : group) {
      const auto& context = data.contexts[c];
      const auto& a = *of_context[c];
      const auto rho = a.rho ? fmt::format("{}", *a.rho) : std::string();
      for (const auto& row : context.rows) {
        chart.csv +=
            fmt::format("{},{},{},{},{},{},{},{}\n", csv_field(context.workload), context.ranks,
                        csv_field(row.mapper), csv_number(value(&row, column)),
                        csv_number(value(&row, ReportData::kTime)), csv_number(ratio(&row, column)),
                        csv_number(ratio(&row, ReportData::kTime)), rho);
      }
      std::vector<std::string> pairs;
      for (const auto& d : a.discordant) {
        pairs.push_back(
            fmt::format("{} < {} by {}, but {} faster ({} {:.4g} vs {:.4g}, {} {:.4g} "
                        "vs {:.4g})",
                        d.first, d.second, metric_label(metric), d.second, metric_label(metric),
                        d.static_first, d.static_second, time_metric, d.time_first, d.time_second));
      }
      chart.table_rows.push_back(
          {context.workload, std::to_string(a.mappers), rho_cell(a),
           fmt::format("{} of {}", a.ties, a.pairs),
           pairs.empty() ? std::string("none") : fmt::format("{}", fmt::join(pairs, "; "))});
    }
    if (series.empty()) continue;
    const std::string dat = chart.name + ".dat";
    chart.data_files.emplace_back(dat, std::move(blocks));
    chart.width = 1100;
    chart.height = std::max(640, 160 + 22 * static_cast<int>(series.size() + shape.size()));
    std::string plot(kCommon);
    // The legend beside the plot (below it, it ran into the x label): the mappers' colours,
    // then the workloads' shapes.
    plot += fmt::format(
        "set grid\nset key outside right top vertical Left reverse\nset xlabel {}\n"
        "set ylabel {}\nset title {}\n"
        "set label 1 {} at graph 0.02, graph 0.95 left front\nplot ",
        gp_string(fmt::format("{} / in-order", metric_label(metric))),
        gp_string(fmt::format("simulated {} / in-order", time_metric)),
        gp_title(fmt::format("{} against simulated {}: {}, {}", metric_label(metric), time_metric,
                             first.machine, first.model_title()),
                 title_columns(chart.width - 300)),
        gp_string(rho_text));
    for (std::size_t s = 0; s < series.size(); ++s) {
      plot += fmt::format("{}{} index {} using 1:2:4 with points pt variable ps 1.3 lc {} notitle",
                          s == 0 ? "" : ", \\\n  ", s == 0 ? gp_string(dat) : "''",
                          series[s].second, colour(palette, mappers[series[s].first]));
    }
    plot += shape.legend(series, mappers, palette);
    plot += '\n';
    chart.plot = std::move(plot);
    charts.push_back(std::move(chart));
  }
  return charts;
}

std::optional<Chart> agreement_summary_chart(const std::vector<AgreementSummary>& summaries) {
  std::vector<std::string> groups, metrics;
  std::map<std::pair<std::string, std::string>, std::optional<double>> rho;
  // Tic labels: the model without its MPI and sim settings, which the table gives in full.
  std::map<std::string, std::string> labels;
  bool any = false;
  for (const auto& s : summaries) {
    const auto group = fmt::format("{}, {}", s.machine, s.model);
    if (std::find(groups.begin(), groups.end(), group) == groups.end()) {
      groups.push_back(group);
      labels[group] = fmt::format("{}, {}", s.machine, s.model.substr(0, s.model.find(" (")));
    }
    if (std::find(metrics.begin(), metrics.end(), s.metric) == metrics.end())
      metrics.push_back(s.metric);
    rho[{group, s.metric}] = s.mean_rho;
    any = any || s.mean_rho.has_value();
  }
  if (!any) return std::nullopt;
  // A metric without a rho anywhere would be an empty series, which gnuplot's histogram rejects.
  std::erase_if(metrics, [&](const std::string& m) {
    return std::none_of(groups.begin(), groups.end(), [&](const std::string& g) {
      return rho[{g, m}].has_value();
    });
  });
  Chart chart;
  chart.name = "summary-agreement";
  chart.kind = "agreement";
  chart.title = "Do the static metrics order the mappers as the simulation does? Mean rho";
  chart.about =
      "Per machine and model, a bar per static metric: the mean over workloads of Spearman's "
      "rank correlation of the metric and the simulated time over the mappers (1: the metric "
      "orders them as the simulation does; 0: no relation; -1: the opposite order). The table "
      "counts the mapper pairs the metric orders as the simulation does (alike), the other way "
      "(discordant), and those either cannot tell apart (ties: values within the tie tolerance "
      "on either side). Workloads with more than half of their pairs tied are 'mostly tied' and "
      "left out of the mean rho.";
  chart.csv =
      "machine,model,metric,contexts,mean_rho,pairs,alike,discordant,ties,mostly_tied,"
      "tie_tolerance\n";
  chart.table_header = {"machine", "model",      "metric", "workloads",   "mean rho", "pairs",
                        "alike",   "discordant", "ties",   "mostly tied", "tolerance"};
  const auto share = [](std::size_t count, std::size_t pairs) {
    return pairs > 0 ? fmt::format("{} ({:.0f}%)", count,
                                   100.0 * static_cast<double>(count) / static_cast<double>(pairs))
                     : std::to_string(count);
  };
  for (const auto& s : summaries) {
    const auto alike = s.pairs - s.discordant - s.ties;
    chart.csv +=
        fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(s.machine), csv_field(s.model),
                    csv_field(s.metric), s.contexts, csv_number(s.mean_rho), s.pairs, alike,
                    s.discordant, s.ties, s.mostly_tied, s.tie_tolerance);
    chart.table_rows.push_back(
        {s.machine, s.model, metric_label(s.metric), std::to_string(s.contexts),
         s.mean_rho ? fmt::format("{:+.2f}", *s.mean_rho) : "-", std::to_string(s.pairs),
         share(alike, s.pairs), share(s.discordant, s.pairs), share(s.ties, s.pairs),
         std::to_string(s.mostly_tied), tolerance_text(s.tie_tolerance)});
  }
  const std::string dat = chart.name + ".dat";
  std::string table =
      fmt::format("# machine and model, mean rho of: {}\n", fmt::join(metrics, " "));
  for (const auto& g : groups) {
    table += data_string(labels[g]);
    for (const auto& m : metrics) table += ' ' + data_number(rho[{g, m}]);
    table += '\n';
  }
  chart.data_files.emplace_back(dat, std::move(table));
  const auto bars = static_cast<int>(groups.size() * (metrics.size() + 1));
  chart.width = std::min(kMaxWidth, std::max(800, 200 + 18 * bars));
  chart.height = 720;
  std::string plot(kCommon);
  plot += kHistogram;
  plot +=
      "set bmargin 16\nset lmargin 24\n"  // kLeftMarginPixels
      "set yrange [-1:1]\n"
      "set ylabel 'mean Spearman rho with simulated time'\n";
  plot += fmt::format("set title {}\nplot ",
                      gp_title(chart.title, title_columns(chart.width - 2 * kLeftMarginPixels)));
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    plot += fmt::format("{}{} using {}{} title {}", m == 0 ? "" : ", \\\n  ",
                        m == 0 ? gp_string(dat) : "''", m + 2, m == 0 ? ":xtic(1)" : "",
                        gp_string(metric_label(metrics[m])));
  }
  plot += '\n';
  chart.plot = std::move(plot);
  return chart;
}

}  // namespace mapsim::exp
