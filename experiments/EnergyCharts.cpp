// The energy charts of `mapsim report`: the simulated time against the network's energy per
// mapping, both divided by in-order's, with each workload's time-energy Pareto front
// (ReportCharts.hpp).

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "experiments/ChartText.hpp"
#include "experiments/ReportCharts.hpp"

namespace mapsim::exp {

using namespace chart;

namespace {

struct Point {
  std::string mapper;
  double time = 0;    ///< ratio to in-order
  double energy = 0;  ///< ratio to in-order
};

/// The context's mappers with both ratios.
std::vector<Point> points_of(const ReportContext& context, std::size_t energy) {
  std::vector<Point> points;
  for (const auto& row : context.rows) {
    const auto t = ratio(&row, ReportData::kTime);
    const auto e = ratio(&row, energy);
    if (t && e) points.push_back({row.mapper, *t, *e});
  }
  return points;
}

/// The points no other point matches or beats in both coordinates with one strictly, by time
/// (then energy, then mapper).
std::vector<Point> front_of(std::vector<Point> points) {
  std::vector<Point> front;
  for (const auto& p : points) {
    const bool dominated = std::any_of(points.begin(), points.end(), [&](const Point& q) {
      return q.time <= p.time && q.energy <= p.energy && (q.time < p.time || q.energy < p.energy);
    });
    if (!dominated) front.push_back(p);
  }
  std::sort(front.begin(), front.end(), [](const Point& a, const Point& b) {
    return std::tie(a.time, a.energy, a.mapper) < std::tie(b.time, b.energy, b.mapper);
  });
  return front;
}

std::string percent(double ratio) {
  return fmt::format("{:+.1f} %", 100 * (ratio - 1));
}

}  // namespace

std::vector<std::string> pareto_front(const ReportData& data, const ReportContext& context) {
  const auto energy = find_metric(data, "energy_j");
  std::vector<std::string> mappers;
  for (const auto& p : front_of(points_of(context, energy))) mappers.push_back(p.mapper);
  return mappers;
}

std::vector<Chart> energy_charts(const ReportData& data) {
  std::vector<Chart> charts;
  const auto energy = find_metric(data, "energy_j");
  const auto& time_metric = data.metrics[ReportData::kTime];
  Names names;
  const auto palette = mappers_of(data, all_contexts(data));
  const auto groups = group_contexts(all_contexts(data), [&](std::size_t c) {
    return data.contexts[c].machine + '\n' + data.contexts[c].model_title();
  });
  for (const auto& group : groups) {
    if (!has_ratios(data, group, energy) || !has_ratios(data, group, ReportData::kTime)) continue;
    const auto& first = data.contexts[group.front()];
    const auto mappers = mappers_of(data, group);
    Chart chart;
    chart.name = names.take(fmt::format("energy-{}-{}", first.machine, first.model_title()));
    chart.kind = "energy";
    chart.title = fmt::format("simulated {} against the network's energy (/ in-order): {}, {}",
                              time_metric, first.machine, first.model_title());
    chart.about = fmt::format(
        "A point per mapper and workload at (simulated {0} / in-order, network energy / "
        "in-order), coloured by mapper, shaped by workload; a ring marks the mappers on their "
        "workload's Pareto front (no other mapper is at least as fast and as frugal, and better "
        "in one), joined by a line. The energy is the links' idle and busy power over the replay "
        "plus the traffic's energy per bit (docs/models.md, \"Energy\"): a faster mapping also "
        "spends less idle power, so the two part only where a placement moves bytes onto links "
        "that cost more per bit or keeps more links busy. The table gives, per workload, the "
        "fastest and the most frugal mapper and what each costs in the other.",
        time_metric);
    chart.csv = fmt::format("workload,ranks,mapper,{0},energy_j,{0}_ratio,energy_ratio,pareto\n",
                            csv_field(time_metric));
    chart.table_header = {"workload", "fastest", "least energy", "Pareto front"};
    // A point shape per workload, a colour per mapper.
    const WorkloadShapes shape(data, group);
    // Blocks: one per mapper (its points), then one per workload (its front, by time).
    std::string blocks;
    std::size_t index = 0;
    std::vector<std::pair<std::size_t, std::size_t>> series;  // (mapper, block)
    for (std::size_t m = 0; m < mappers.size(); ++m) {
      std::string block;
      for (const auto c : group) {
        const auto& context = data.contexts[c];
        const auto* row = find_row(context, mappers[m]);
        const auto t = ratio(row, ReportData::kTime);
        const auto e = ratio(row, energy);
        if (t && e) {
          block += fmt::format("{:.9g} {:.9g} {} {}\n", *t, *e, data_string(context.workload),
                               shape(context.workload));
        }
      }
      if (block.empty()) continue;
      blocks += fmt::format("# {}\n{}\n\n", mappers[m], block);
      series.emplace_back(m, index++);
    }
    std::vector<std::size_t> fronts;  // blocks of the fronts
    for (const auto c : group) {
      const auto& context = data.contexts[c];
      const auto points = points_of(context, energy);
      const auto front = front_of(points);
      for (const auto& row : context.rows) {
        const bool on_front = std::any_of(front.begin(), front.end(),
                                          [&](const Point& p) { return p.mapper == row.mapper; });
        chart.csv +=
            fmt::format("{},{},{},{},{},{},{},{}\n", csv_field(context.workload), context.ranks,
                        csv_field(row.mapper), csv_number(value(&row, ReportData::kTime)),
                        csv_number(value(&row, energy)), csv_number(ratio(&row, ReportData::kTime)),
                        csv_number(ratio(&row, energy)), on_front ? 1 : 0);
      }
      if (points.empty()) continue;
      const auto fastest = *std::min_element(points.begin(), points.end(), [](auto& a, auto& b) {
        return std::tie(a.time, a.energy, a.mapper) < std::tie(b.time, b.energy, b.mapper);
      });
      const auto frugal = *std::min_element(points.begin(), points.end(), [](auto& a, auto& b) {
        return std::tie(a.energy, a.time, a.mapper) < std::tie(b.energy, b.time, b.mapper);
      });
      std::vector<std::string> names_on_front;
      std::string block;
      for (const auto& p : front) {
        names_on_front.push_back(p.mapper);
        block += fmt::format("{:.9g} {:.9g}\n", p.time, p.energy);
      }
      blocks += fmt::format("# front of {}\n{}\n\n", context.workload, block);
      fronts.push_back(index++);
      chart.table_rows.push_back({context.workload,
                                  fmt::format("{} (time {}, energy {})", fastest.mapper,
                                              percent(fastest.time), percent(fastest.energy)),
                                  fastest.mapper == frugal.mapper
                                      ? std::string("the same")
                                      : fmt::format("{} (time {}, energy {})", frugal.mapper,
                                                    percent(frugal.time), percent(frugal.energy)),
                                  fmt::format("{}", fmt::join(names_on_front, ", "))});
    }
    if (series.empty()) continue;
    const std::string dat = chart.name + ".dat";
    chart.data_files.emplace_back(dat, std::move(blocks));
    chart.width = 1100;
    chart.height = std::max(640, 160 + 22 * static_cast<int>(series.size() + shape.size()));
    std::string plot(kCommon);
    plot += fmt::format(
        "set grid\nset key outside right top vertical Left reverse\nset xlabel {}\n"
        "set ylabel {}\nset title {}\nplot ",
        gp_string(fmt::format("simulated {} / in-order", time_metric)),
        gp_string("network energy / in-order"),
        gp_title(fmt::format("simulated {} against energy: {}, {}", time_metric, first.machine,
                             first.model_title()),
                 title_columns(chart.width - 300)));
    bool any = false;
    for (const auto front : fronts) {
      plot += fmt::format("{}{} index {} using 1:2 with lines lw 1 dt 2 lc rgb 'gray40' notitle",
                          any ? ", \\\n  " : "", any ? "''" : gp_string(dat), front);
      plot += fmt::format(
          ", \\\n  '' index {} using 1:2 with points pt 6 ps 2.4 lc rgb 'black' notitle", front);
      any = true;
    }
    for (const auto& [m, block] : series) {
      plot += fmt::format("{}{} index {} using 1:2:4 with points pt variable ps 1.3 lc {} notitle",
                          any ? ", \\\n  " : "", any ? "''" : gp_string(dat), block,
                          colour(palette, mappers[m]));
      any = true;
    }
    plot += shape.legend(series, mappers, palette);
    plot += ", \\\n  keyentry with points pt 6 ps 2.4 lc rgb 'black' title 'Pareto front'\n";
    chart.plot = std::move(plot);
    charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace mapsim::exp
