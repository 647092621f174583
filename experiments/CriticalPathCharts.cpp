// The critical-path charts of `mapsim report`: why one placement is faster than another. Per
// mapper and workload a bar of its makespan / in-order's, stacked by the parts of its critical
// path (sim/Result.hpp, CriticalPath: compute, MPI overheads, latency, bandwidth, contention,
// waiting), each part divided by in-order's makespan, so that the bar's height is the time ratio
// and its segments say where the time went (ReportCharts.hpp).

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "experiments/ChartText.hpp"
#include "experiments/ReportCharts.hpp"

namespace mapsim::exp {

using namespace chart;

namespace {

/// The parts, in kCriticalPathMetrics's order after the makespan, and their colours (fixed, so
/// that a part has one colour in every chart).
constexpr std::array<std::string_view, 6> kParts{"compute",   "overheads",  "latency",
                                                 "bandwidth", "contention", "waiting"};
constexpr std::array<std::string_view, 6> kColours{"#8c8c8c", "#9467bd", "#1f77b4",
                                                   "#2ca02c", "#d62728", "#ff7f0e"};

/// At most this many workloads in one chart; more go on further pages.
constexpr std::size_t kWorkloadsPerPage = 6;

struct Parts {
  double makespan = 0;
  std::array<double, 6> seconds{};
};

/// The row's makespan and critical path, if it has them all.
std::optional<Parts> parts_of(const ReportRow* row, const std::array<std::size_t, 7>& metrics) {
  if (row == nullptr) return std::nullopt;
  Parts parts;
  const auto makespan = value(row, metrics[0]);
  if (!makespan) return std::nullopt;
  parts.makespan = *makespan;
  for (std::size_t k = 0; k < kParts.size(); ++k) {
    const auto v = value(row, metrics[k + 1]);
    if (!v) return std::nullopt;
    parts.seconds[k] = *v;
  }
  return parts;
}

std::string milliseconds(double seconds) {
  return fmt::format("{:+.3f} ms", seconds * 1e3);
}

/// "contention -0.812 ms, bandwidth +0.101 ms": the two parts that changed most from `from`.
std::string changes(const Parts& from, const Parts& to) {
  std::array<std::size_t, 6> order{0, 1, 2, 3, 4, 5};
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(to.seconds[a] - from.seconds[a]) > std::abs(to.seconds[b] - from.seconds[b]);
  });
  return fmt::format("{} {}, {} {}", kParts[order[0]],
                     milliseconds(to.seconds[order[0]] - from.seconds[order[0]]), kParts[order[1]],
                     milliseconds(to.seconds[order[1]] - from.seconds[order[1]]));
}

std::string shares(const Parts& p) {
  std::string text;
  for (std::size_t k = 0; k < kParts.size(); ++k) {
    if (p.seconds[k] <= 0) continue;
    text += fmt::format("{}{} {:.0f} %", text.empty() ? "" : ", ", kParts[k],
                        p.makespan > 0 ? 100 * p.seconds[k] / p.makespan : 0.0);
  }
  return text.empty() ? "-" : text;
}

}  // namespace

std::vector<Chart> critical_path_charts(const ReportData& data) {
  std::vector<Chart> charts;
  std::array<std::size_t, 7> metrics{};
  for (std::size_t k = 0; k < metrics.size(); ++k)
    metrics[k] = find_metric(data, kCriticalPathMetrics[k]);
  Names names;
  const auto groups = group_contexts(all_contexts(data), [&](std::size_t c) {
    return data.contexts[c].machine + '\n' + data.contexts[c].model_title();
  });
  for (const auto& whole : groups) {
    // The workloads whose in-order run has a critical path (replayed since schema 4).
    std::vector<std::size_t> group;
    for (const auto c : whole) {
      if (parts_of(find_row(data.contexts[c], "in-order"), metrics)) group.push_back(c);
    }
    if (group.empty()) continue;
    const auto& first = data.contexts[group.front()];
    const auto mappers = mappers_of(data, group);
    const std::size_t pages = (group.size() + kWorkloadsPerPage - 1) / kWorkloadsPerPage;
    const std::size_t per_page = (group.size() + pages - 1) / pages;
    for (std::size_t page = 0; page < pages; ++page) {
      const std::size_t begin = page * per_page;
      const std::size_t end = std::min(group.size(), begin + per_page);
      const std::string suffix =
          pages > 1 ? fmt::format(" (page {} of {})", page + 1, pages) : std::string();
      Chart chart;
      chart.name =
          names.take(fmt::format("critical-path-{}-{}{}", first.machine, first.model_title(),
                                 pages > 1 ? fmt::format("-p{}", page + 1) : ""));
      chart.kind = "critical-path";
      chart.title = fmt::format(
          "where the time goes: the critical path / in-order's makespan: "
          "{}, {}{}",
          first.machine, first.model_title(), suffix);
      chart.about =
          "A bar per mapper and workload: its makespan divided by in-order's, stacked by the "
          "parts of its critical path (the chain of computation and messages the last rank "
          "finished on): computation, MPI overheads on the ranks, the messages' route latency, "
          "their bytes over the bottleneck bandwidth, contention (the rest of their transfer "
          "time: links shared with other messages) and waiting. A placement that is faster "
          "shortens some part: the table names, per workload, the fastest mapper and the two "
          "parts that changed most from in-order.";
      chart.csv =
          "workload,ranks,mapper,makespan_s,compute_s,overheads_s,latency_s,bandwidth_s,"
          "contention_s,waiting_s,makespan_ratio\n";
      chart.table_header = {"workload", "in-order's critical path", "fastest", "its critical path",
                            "what changed most"};
      std::string blocks;
      std::size_t bars = 0;
      for (std::size_t i = begin; i < end; ++i) {
        const auto& context = data.contexts[group[i]];
        const auto baseline = *parts_of(find_row(context, "in-order"), metrics);
        std::string block;
        const std::string* fastest = nullptr;
        std::optional<Parts> fastest_parts;
        for (const auto& mapper : mappers) {
          const auto parts = parts_of(find_row(context, mapper), metrics);
          if (!parts) continue;
          const double scale = baseline.makespan > 0 ? 1 / baseline.makespan : 0;
          block += data_string(mapper);
          for (const double s : parts->seconds) block += fmt::format(" {:.9g}", s * scale);
          block += '\n';
          ++bars;
          chart.csv += fmt::format("{},{},{},{:.9g}", csv_field(context.workload), context.ranks,
                                   csv_field(mapper), parts->makespan);
          for (const double s : parts->seconds) chart.csv += fmt::format(",{:.9g}", s);
          chart.csv += fmt::format(",{:.9g}\n", parts->makespan * scale);
          if (!fastest_parts || parts->makespan < fastest_parts->makespan) {
            fastest = &mapper;
            fastest_parts = parts;
          }
        }
        blocks += fmt::format("# {}\n{}\n\n", context.workload, block);
        const double gain =
            baseline.makespan > 0 ? 100 * (fastest_parts->makespan / baseline.makespan - 1) : 0.0;
        chart.table_rows.push_back(
            {context.workload, shares(baseline), fmt::format("{} ({:+.1f} %)", *fastest, gain),
             shares(*fastest_parts),
             *fastest == "in-order" ? std::string("-") : changes(baseline, *fastest_parts)});
      }
      const std::string dat = chart.name + ".dat";
      chart.data_files.emplace_back(dat, std::move(blocks));
      chart.width = std::clamp(220 + 22 * static_cast<int>(bars + (end - begin)), 720, kMaxWidth);
      chart.height = 600;
      std::string plot(kCommon);
      plot +=
          "set style data histogram\nset style histogram rowstacked\n"
          "set style fill solid 0.85 border -1\nset boxwidth 0.8\n"
          "set xtics rotate by 45 right scale 0 nomirror font ',9'\nset grid ytics\n"
          "set key outside right top vertical\n";
      plot +=
          fmt::format("set ylabel {}\nset title {}\nplot ", gp_string("time / in-order's makespan"),
                      gp_title(chart.title, title_columns(chart.width - 200)));
      for (std::size_t i = begin; i < end; ++i) {
        const auto index = i - begin;
        plot += fmt::format("{}newhistogram {} lt 1", index == 0 ? "" : ", \\\n  ",
                            gp_string(data.contexts[group[i]].workload));
        for (std::size_t k = 0; k < kParts.size(); ++k) {
          plot += fmt::format(
              ", \\\n  {} index {} using {}{} lc rgb '{}' {}",
              index == 0 && k == 0 ? gp_string(dat) : "''", index, k + 2, k == 0 ? ":xtic(1)" : "",
              kColours[k],
              index == 0 ? fmt::format("title {}", gp_string(kParts[k])) : std::string("notitle"));
        }
      }
      plot += "\n";
      chart.plot = std::move(plot);
      charts.push_back(std::move(chart));
    }
  }
  return charts;
}

}  // namespace mapsim::exp
