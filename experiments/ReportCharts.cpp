#include "experiments/ReportCharts.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

#include "experiments/ChartText.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {
namespace {

using namespace chart;

std::optional<Chart> bars_page(const ReportData& data, const std::vector<std::size_t>& contexts,
                               const std::vector<std::string>& mappers,
                               const std::vector<std::string>& palette, bool times,
                               const std::string& name, const std::string& title) {
  const auto hop = find_metric(data, "hop_bytes");
  const auto& time_metric = data.metrics[ReportData::kTime];
  Chart chart;
  chart.name = name;
  chart.kind = "bars";
  chart.title = title;
  chart.about = fmt::format(
      "Per workload, a bar per mapper: its hop-bytes{} divided by in-order's in the same "
      "workload, machine and model (mean over repeats and seeds). Below 1 (the dashed line) is "
      "better than in-order; a missing bar has no value or no in-order run.",
      times ? fmt::format(" (left) and simulated {} (right)", time_metric) : "");
  const std::string dat = name + ".dat";
  std::string table = "# workload, hop_bytes / in-order per mapper";
  table += times ? fmt::format(", {} / in-order per mapper\n", time_metric) : "\n";
  chart.csv = fmt::format("workload,ranks,mapper,runs,hop_bytes,{0},hop_bytes_ratio,{0}_ratio\n",
                          csv_field(time_metric));
  chart.table_header = {"workload"};
  for (const auto& m : mappers) chart.table_header.push_back(m);
  for (const auto c : contexts) {
    const auto& context = data.contexts[c];
    const auto label = fmt::format("{} ({} ranks)", context.workload, context.ranks);
    std::string hops, time;
    std::vector<std::string> cells{label};
    for (const auto& m : mappers) {
      const auto* row = find_row(context, m);
      hops += ' ' + data_number(ratio(row, hop));
      time += ' ' + data_number(ratio(row, ReportData::kTime));
      cells.push_back(times ? fmt::format("{} / {}", ratio_cell(ratio(row, hop)),
                                          ratio_cell(ratio(row, ReportData::kTime)))
                            : ratio_cell(ratio(row, hop)));
      if (row == nullptr) continue;
      chart.csv += fmt::format(
          "{},{},{},{},{},{},{},{}\n", csv_field(context.workload), context.ranks, csv_field(m),
          row->runs, csv_number(value(row, hop)), csv_number(value(row, ReportData::kTime)),
          csv_number(ratio(row, hop)), csv_number(ratio(row, ReportData::kTime)));
    }
    table += data_string(label) + hops + (times ? time : "") + '\n';
    chart.table_rows.push_back(std::move(cells));
  }
  chart.data_files.emplace_back(dat, std::move(table));

  // A series without a value would fail gnuplot's histogram: only mappers with a value, only
  // panels with a series.
  std::vector<std::size_t> shown[2];
  for (std::size_t p = 0; p < (times ? 2U : 1U); ++p) {
    const auto metric = p == 0 ? hop : ReportData::kTime;
    for (std::size_t m = 0; m < mappers.size(); ++m) {
      const bool any = std::any_of(contexts.begin(), contexts.end(), [&](std::size_t c) {
        return ratio(find_row(data.contexts[c], mappers[m]), metric).has_value();
      });
      if (any) shown[p].push_back(m);
    }
  }
  const int panels = (shown[0].empty() ? 0 : 1) + (shown[1].empty() ? 0 : 1);
  if (panels == 0) return std::nullopt;
  // The first workload's label, slanted at 30 degrees, reaches cos 30 of its length to the left
  // of its bars: the left margin (in characters) makes room for it.
  const auto& first = data.contexts[contexts.front()];
  const auto label_length = fmt::format("{} ({} ranks)", first.workload, first.ranks).size();
  const int margin =
      std::clamp(static_cast<int>(0.87 * static_cast<double>(label_length)) - 6, 10, 40);
  const auto bars = static_cast<int>(contexts.size() * (mappers.size() + 1));
  chart.width = std::min(kMaxWidth, panels * (std::max(520, 160 + 14 * bars) + 120));
  chart.height = 600;
  std::string plot(kCommon);
  plot += kHistogram;
  plot += fmt::format("set lmargin {}\n", margin);
  plot +=
      "set yrange [0:*]\n"
      "set ylabel 'ratio to in-order (lower is better)'\n"
      "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb 'gray30'\n";
  plot += fmt::format("set multiplot layout 1,{} title {}\n", panels,
                      gp_title(title, title_columns(chart.width)));
  // One legend: beside the right panel if it has every mapper of the left one, else beside the
  // left one if that has every mapper of the right one (a mapper has one colour in both).
  const auto legend = legend_panels(shown[0], shown[1]);
  const auto panel = [&](std::string_view heading, std::size_t first_column,
                         const std::vector<std::size_t>& series, bool key) {
    if (series.empty()) return;
    plot += key ? "set key outside right top vertical\n" : "unset key\n";
    plot += fmt::format("set title {}\nplot ", gp_string(heading));
    for (std::size_t s = 0; s < series.size(); ++s) {
      // lt: a mapper's colour in every panel and chart, whichever series are left out.
      plot += fmt::format("{}{} using {}{} title {} lt {}", s == 0 ? "" : ", \\\n  ",
                          s == 0 ? gp_string(dat) : "''", first_column + series[s],
                          s == 0 ? ":xtic(1)" : "", gp_string(mappers[series[s]]),
                          colour(palette, mappers[series[s]]));
    }
    plot += '\n';
  };
  panel("hop-bytes / in-order", 2, shown[0], legend.left);
  panel(fmt::format("simulated {} / in-order", time_metric), 2 + mappers.size(), shown[1],
        legend.right);
  plot += "unset multiplot\n";
  chart.plot = std::move(plot);
  return chart;
}

}  // namespace

std::string sanitize_name(std::string_view text) {
  std::string out;
  for (const char raw : text) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw)));
    const bool allowed =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    if (allowed) {
      out += c;
    } else if (out.empty() || out.back() != '_') {
      out += '_';
    }
  }
  // "flow (eager 0 B)" -> "flow_eager_0_b", ".x" -> "x" (not a hidden file).
  const auto first = out.find_first_not_of("._");
  if (first == std::string::npos) return "chart";
  return out.substr(first, out.find_last_not_of('_') + 1 - first);
}

std::vector<Chart> bar_charts(const ReportData& data) {
  std::vector<Chart> charts;
  Names names;
  const auto palette = mappers_of(data, all_contexts(data));
  const auto groups = group_contexts(all_contexts(data), [&](std::size_t c) {
    const auto& context = data.contexts[c];
    return context.machine + '\n' + context.model_title();
  });
  for (const auto& group : groups) {
    const auto& first = data.contexts[group.front()];
    const auto mappers = mappers_of(data, group);
    // A model without replay (`static`) has no times; without in-order there are no ratios.
    const bool times = has_ratios(data, group, ReportData::kTime);
    // Pages of at most kBarsPerPage workloads, as even as can be (13: 7 and 6).
    const std::size_t pages = (group.size() + kBarsPerPage - 1) / kBarsPerPage;
    const std::size_t per_page = (group.size() + pages - 1) / pages;
    for (std::size_t page = 0; page < pages; ++page) {
      const auto begin = group.begin() + static_cast<std::ptrdiff_t>(page * per_page);
      const auto end = group.begin() +
                       static_cast<std::ptrdiff_t>(std::min(group.size(), (page + 1) * per_page));
      const std::string suffix =
          pages > 1 ? fmt::format(" (page {} of {})", page + 1, pages) : std::string();
      const auto title =
          fmt::format("hop-bytes{} / in-order: {}, {}{}", times ? " and simulated time" : "",
                      first.machine, first.model_title(), suffix);
      const auto name =
          names.take(fmt::format("bars-{}-{}{}", first.machine, first.model_title(),
                                 pages > 1 ? fmt::format("-p{}", page + 1) : std::string()));
      if (auto chart = bars_page(data, {begin, end}, mappers, palette, times, name, title))
        charts.push_back(std::move(*chart));
    }
  }
  return charts;
}

std::vector<Chart> scaling_charts(const ReportData& data, std::string_view metric) {
  const auto column = find_metric(data, metric);
  const auto& time_metric = data.metrics[ReportData::kTime];
  std::vector<Chart> charts;
  Names names;
  const auto palette = mappers_of(data, all_contexts(data));
  const auto groups = group_contexts(all_contexts(data), [&](std::size_t c) {
    const auto& context = data.contexts[c];
    return context.family + '\n' + context.topology_kind + '\n' + context.model_title();
  });
  for (const auto& group : groups) {
    std::set<std::int64_t> rank_set;
    for (const auto c : group) rank_set.insert(data.contexts[c].ranks);
    if (rank_set.size() < 2) continue;
    const std::vector<std::int64_t> ranks(rank_set.begin(), rank_set.end());
    const auto& first = data.contexts[group.front()];
    const auto mappers = mappers_of(data, group);

    // mean[panel][mapper][rank]: the mean ratio over the group's contexts of that rank count.
    struct Mean {
      double sum = 0;
      int count = 0;
    };
    const std::size_t columns[2] = {column, ReportData::kTime};
    std::vector<std::vector<std::vector<Mean>>> mean(
        2, std::vector<std::vector<Mean>>(mappers.size(), std::vector<Mean>(ranks.size())));
    std::vector<std::vector<int>> contexts_at(mappers.size(), std::vector<int>(ranks.size(), 0));
    for (const auto c : group) {
      const auto& context = data.contexts[c];
      const auto r = static_cast<std::size_t>(
          std::lower_bound(ranks.begin(), ranks.end(), context.ranks) - ranks.begin());
      for (std::size_t m = 0; m < mappers.size(); ++m) {
        const auto* row = find_row(context, mappers[m]);
        if (row == nullptr) continue;
        ++contexts_at[m][r];
        for (std::size_t p = 0; p < 2; ++p) {
          if (const auto v = ratio(row, columns[p])) {
            mean[p][m][r].sum += *v;
            ++mean[p][m][r].count;
          }
        }
      }
    }
    const auto at = [&](std::size_t p, std::size_t m, std::size_t r) -> std::optional<double> {
      const auto& x = mean[p][m][r];
      if (x.count == 0) return std::nullopt;
      return x.sum / x.count;
    };

    Chart chart;
    chart.name = names.take(
        fmt::format("scaling-{}-{}-{}", first.family, first.topology_kind, first.model_title()));
    chart.kind = "scaling";
    const bool times = has_ratios(data, group, ReportData::kTime);  // not `static`
    chart.title = fmt::format("{}{} / in-order against ranks: {} on {}, {}", metric_label(metric),
                              times ? fmt::format(" and simulated {}", time_metric) : "",
                              first.family, first.topology_kind, first.model_title());
    chart.about = fmt::format(
        "A line per mapper: its {}{} divided by in-order's, at each rank count (log2 axis); "
        "several {} machines with the same rank count are averaged. Below 1 is better than "
        "in-order.",
        metric_label(metric),
        times ? fmt::format(" (left) and simulated {} (right)", time_metric) : "",
        first.topology_kind);
    chart.csv =
        fmt::format("family,topology_kind,model,ranks,mapper,contexts,{0}_ratio,{1}_ratio\n",
                    csv_field(metric), csv_field(time_metric));
    chart.table_header = {"ranks"};
    for (const auto& m : mappers) chart.table_header.push_back(m);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      std::vector<std::string> cells{std::to_string(ranks[r])};
      for (std::size_t m = 0; m < mappers.size(); ++m) {
        cells.push_back(
            times ? fmt::format("{} / {}", ratio_cell(at(0, m, r)), ratio_cell(at(1, m, r)))
                  : ratio_cell(at(0, m, r)));
        if (contexts_at[m][r] == 0) continue;
        chart.csv += fmt::format("{},{},{},{},{},{},{},{}\n", csv_field(first.family),
                                 csv_field(first.topology_kind), csv_field(first.model_title()),
                                 ranks[r], csv_field(mappers[m]), contexts_at[m][r],
                                 csv_number(at(0, m, r)), csv_number(at(1, m, r)));
      }
      chart.table_rows.push_back(std::move(cells));
    }

    // One block per panel and mapper with points, addressed by `index`.
    const std::string dat = chart.name + ".dat";
    std::string blocks;
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> series(2);  // (mapper, index)
    std::size_t index = 0;
    for (std::size_t p = 0; p < 2; ++p) {
      for (std::size_t m = 0; m < mappers.size(); ++m) {
        std::string block;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
          if (const auto v = at(p, m, r)) block += fmt::format("{} {:.9g}\n", ranks[r], *v);
        }
        if (block.empty()) continue;
        blocks += fmt::format("# {} {}\n{}\n\n", p == 0 ? metric : time_metric, mappers[m], block);
        series[p].emplace_back(m, index++);
      }
    }
    if (index == 0) continue;
    chart.data_files.emplace_back(dat, std::move(blocks));

    const int panels = (series[0].empty() ? 0 : 1) + (series[1].empty() ? 0 : 1);
    chart.width = panels == 2 ? 1280 : 800;
    chart.height = 560;
    std::string xtics;
    for (const auto r : ranks) xtics += fmt::format("{}{}", xtics.empty() ? "" : ", ", r);
    std::string plot(kCommon);
    plot += fmt::format(
        "set logscale x 2\nset xtics ({})\nset xrange [{}:{}]\nset grid\n"
        "set xlabel 'MPI ranks'\nset ylabel 'ratio to in-order (lower is better)'\n",
        xtics, static_cast<double>(ranks.front()) / 1.25, static_cast<double>(ranks.back()) * 1.25);
    plot += fmt::format("set multiplot layout 1,{} title {}\n", panels,
                        gp_title(chart.title, title_columns(chart.width)));
    // One legend, as in the bars: beside the right panel if it has every mapper of the left.
    std::vector<std::size_t> shown[2];
    for (std::size_t p = 0; p < 2; ++p) {
      for (const auto& entry : series[p]) shown[p].push_back(entry.first);
    }
    const auto legend = legend_panels(shown[0], shown[1]);
    for (std::size_t p = 0; p < 2; ++p) {
      if (series[p].empty()) continue;
      plot += (p == 0 ? legend.left : legend.right) ? "set key outside right top vertical\n"
                                                    : "unset key\n";
      plot += fmt::format(
          "set title {}\nplot ",
          gp_string(fmt::format("{} / in-order", p == 0 ? metric_label(metric) : time_metric)));
      for (std::size_t s = 0; s < series[p].size(); ++s) {
        const auto [m, i] = series[p][s];
        plot += fmt::format("{}{} index {} using 1:2 with linespoints lw 2 pt 7 lc {} title {}",
                            s == 0 ? "" : ", \\\n  ", s == 0 ? gp_string(dat) : "''", i,
                            colour(palette, mappers[m]), gp_string(mappers[m]));
      }
      plot += '\n';
    }
    plot += "unset multiplot\n";
    chart.plot = std::move(plot);
    charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace mapsim::exp
