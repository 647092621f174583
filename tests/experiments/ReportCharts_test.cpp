#include "experiments/ReportCharts.hpp"

#include <array>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "experiments/ChartText.hpp"
#include "experiments/ReportWriter.hpp"
#include "support/Error.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

/// A mapper's row: hop-bytes and time, with their ratios to in-order's `base_*`.
ReportRow row(const std::string& mapper, double hops, std::optional<double> time, double base_hops,
              std::optional<double> base_time) {
  ReportRow r;
  r.mapper = mapper;
  r.runs = 1;
  // The static metrics (hop-bytes first, the others 1), then the time.
  r.values.assign(ReportData::kTime + 1, 1.0);
  r.ratios.assign(ReportData::kTime + 1, 1.0);
  r.values[0] = hops;
  r.ratios[0] = hops / base_hops;
  r.values[ReportData::kTime] = time;
  r.ratios[ReportData::kTime] = std::nullopt;
  if (time && base_time) r.ratios[ReportData::kTime] = *time / *base_time;
  return r;
}

/// A context of `workload` at `ranks` on `machine` under `model`: in-order with 100 bytes and
/// 2 s, greedy with 50 bytes and 1.5 s, random with 150 bytes and 1 s (no times if static).
ReportContext context(const std::string& workload, std::int64_t ranks,
                      const std::string& machine = "torus:4x4", const std::string& model = "flow") {
  const bool times = model != "static";
  const auto t = [&](double s) { return times ? std::optional<double>(s) : std::nullopt; };
  ReportContext c;
  c.context_key = fmt::format("{}-{}-{}-{}", workload, ranks, machine, model);
  c.workload = workload;
  c.family = workload.substr(0, workload.rfind(':'));
  c.ranks = ranks;
  c.machine = machine;
  c.topology = machine;
  c.topology_kind = machine.substr(0, machine.find(':'));
  c.model = model;
  c.rows = {row("in-order", 100, t(2.0), 100, t(2.0)), row("greedy", 50, t(1.5), 100, t(2.0)),
            row("random", 150, t(1.0), 100, t(2.0))};
  return c;
}

ReportData data_of(std::vector<ReportContext> contexts) {
  ReportData data;
  data.metrics.assign(std::begin(kReportStaticMetrics), std::end(kReportStaticMetrics));
  data.metrics.emplace_back("makespan_s");
  data.contexts = std::move(contexts);
  return data;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ReportCharts, BarsCsvHoldsTheRatiosToInOrder) {
  const auto charts = bar_charts(data_of({context("lu:S:4", 4)}));
  ASSERT_EQ(charts.size(), 1U);
  const auto& chart = charts.front();
  EXPECT_EQ(chart.name, "bars-torus_4x4-flow");
  EXPECT_EQ(chart.kind, "bars");
  // greedy: 50 / 100 = 0.5 of in-order's hop-bytes, 1.5 / 2 = 0.75 of its time; random: 1.5 and
  // 0.5; in-order: 1 and 1.
  EXPECT_EQ(chart.csv,
            "workload,ranks,mapper,runs,hop_bytes,makespan_s,hop_bytes_ratio,makespan_s_ratio\n"
            "lu:S:4,4,in-order,1,100,2,1,1\n"
            "lu:S:4,4,greedy,1,50,1.5,0.5,0.75\n"
            "lu:S:4,4,random,1,150,1,1.5,0.5\n");
  // The gnuplot data: the workload quoted, then hop-bytes ratios, then time ratios, in the
  // mapper order in-order, greedy, random.
  ASSERT_EQ(chart.data_files.size(), 1U);
  EXPECT_EQ(chart.data_files[0].first, "bars-torus_4x4-flow.dat");
  EXPECT_TRUE(contains(chart.data_files[0].second, "\"lu:S:4 (4 ranks)\" 1 0.5 1.5 1 0.75 0.5\n"));
  // Two panels, each naming every mapper as a series title.
  EXPECT_TRUE(contains(chart.plot, "set multiplot layout 1,2"));
  EXPECT_TRUE(contains(chart.plot, "set style histogram clustered"));
  for (const auto* mapper : {"'in-order'", "'greedy'", "'random'"})
    EXPECT_TRUE(contains(chart.plot, fmt::format("title {}", mapper))) << mapper;
  ASSERT_EQ(chart.table_rows.size(), 1U);
  EXPECT_EQ(chart.table_header,
            (std::vector<std::string>{"workload", "in-order", "greedy", "random"}));
  EXPECT_EQ(chart.table_rows[0][2], "0.500 / 0.750");
}

/// `data` with an energy column (index 4): each row's energy and ratio to in-order's.
ReportData with_energy(ReportData data, const std::vector<std::pair<std::string, double>>& joules) {
  data.metrics.emplace_back("energy_j");
  for (auto& c : data.contexts) {
    double base = 0;
    for (const auto& [mapper, e] : joules) {
      if (mapper == "in-order") base = e;
    }
    for (auto& r : c.rows) {
      r.values.resize(ReportData::kTime + 2);
      r.ratios.resize(ReportData::kTime + 2);
      for (const auto& [mapper, e] : joules) {
        if (mapper != r.mapper) continue;
        r.values[ReportData::kTime + 1] = e;
        r.ratios[ReportData::kTime + 1] = e / base;
      }
    }
  }
  return data;
}

TEST(ReportCharts, EnergyChartMarksEachWorkloadsParetoFront) {
  // Times (ratios): in-order 1, greedy 0.75, random 0.5 (context()); energies: in-order 10 J,
  // greedy 6 J (0.6), random 8 J (0.8). greedy beats in-order in both; random is faster than
  // greedy and greedy more frugal than random: the front is random (0.5, 0.8), greedy (0.75,
  // 0.6), by time.
  const auto data = with_energy(data_of({context("lu:S:4", 4)}),
                                {{"in-order", 10}, {"greedy", 6}, {"random", 8}});
  EXPECT_EQ(pareto_front(data, data.contexts[0]), (std::vector<std::string>{"random", "greedy"}));
  const auto charts = energy_charts(data);
  ASSERT_EQ(charts.size(), 1U);
  const auto& chart = charts[0];
  EXPECT_EQ(chart.name, "energy-torus_4x4-flow");
  EXPECT_EQ(chart.kind, "energy");
  EXPECT_EQ(chart.csv,
            "workload,ranks,mapper,makespan_s,energy_j,makespan_s_ratio,energy_ratio,pareto\n"
            "lu:S:4,4,in-order,2,10,1,1,0\n"
            "lu:S:4,4,greedy,1.5,6,0.75,0.6,1\n"
            "lu:S:4,4,random,1,8,0.5,0.8,1\n");
  ASSERT_EQ(chart.table_rows.size(), 1U);
  EXPECT_EQ(chart.table_rows[0],
            (std::vector<std::string>{"lu:S:4", "random (time -50.0 %, energy -20.0 %)",
                                      "greedy (time -25.0 %, energy -40.0 %)", "random, greedy"}));
  // The front's block lists its points by time; the plot rings and joins them.
  ASSERT_EQ(chart.data_files.size(), 1U);
  EXPECT_TRUE(contains(chart.data_files[0].second, "# front of lu:S:4\n0.5 0.8\n0.75 0.6\n"));
  EXPECT_TRUE(contains(chart.plot, "with points pt 6 ps 2.4"));
  EXPECT_TRUE(contains(chart.plot, "title 'Pareto front'"));
  // One mapper both fastest and most frugal: "the same", a front of one.
  const auto one = with_energy(data_of({context("lu:S:4", 4)}),
                               {{"in-order", 10}, {"greedy", 12}, {"random", 4}});
  EXPECT_EQ(pareto_front(one, one.contexts[0]), (std::vector<std::string>{"random"}));
  EXPECT_EQ(energy_charts(one)[0].table_rows[0][2], "the same");
}

TEST(ReportCharts, NoEnergyChartWithoutEnergies) {
  // Static runs, and runs stored before energies: no values, no chart.
  auto data = data_of({context("lu:S:4", 4, "torus:4x4", "static")});
  data.metrics.emplace_back("energy_j");
  EXPECT_TRUE(energy_charts(data).empty());
}

/// `data` with the critical path's columns after makespan_s (kCriticalPathMetrics: makespan_s is
/// already column kTime): each mapper's parts in seconds, compute ... waiting.
ReportData with_critical_paths(
    ReportData data, const std::vector<std::pair<std::string, std::array<double, 6>>>& parts) {
  for (std::size_t k = 1; k < std::size(kCriticalPathMetrics); ++k)
    data.metrics.emplace_back(kCriticalPathMetrics[k]);
  for (auto& c : data.contexts) {
    for (auto& r : c.rows) {
      r.values.resize(data.metrics.size());
      r.ratios.resize(data.metrics.size());
      for (const auto& [mapper, seconds] : parts) {
        if (mapper != r.mapper) continue;
        for (std::size_t k = 0; k < 6; ++k) r.values[ReportData::kTime + 1 + k] = seconds[k];
      }
    }
  }
  return data;
}

TEST(ReportCharts, CriticalPathChartStacksThePartsOverInOrdersMakespan) {
  // Makespans (context()): in-order 2 s, greedy 1.5 s, random 1 s. Their critical paths:
  // in-order 0.2 s latency, 0.8 s bandwidth, 1 s contention; greedy 0.2, 0.8, 0.5; random
  // 0.5 s compute, 0.1 latency, 0.4 bandwidth. Divided by in-order's 2 s: in-order 0.1 0.4 0.5,
  // greedy 0.1 0.4 0.25, random 0.25 compute, 0.05 latency, 0.2 bandwidth.
  const auto data =
      with_critical_paths(data_of({context("lu:S:4", 4)}), {{"in-order", {0, 0, 0.2, 0.8, 1.0, 0}},
                                                            {"greedy", {0, 0, 0.2, 0.8, 0.5, 0}},
                                                            {"random", {0.5, 0, 0.1, 0.4, 0, 0}}});
  const auto charts = critical_path_charts(data);
  ASSERT_EQ(charts.size(), 1U);
  const auto& chart = charts[0];
  EXPECT_EQ(chart.name, "critical-path-torus_4x4-flow");
  EXPECT_EQ(chart.kind, "critical-path");
  ASSERT_EQ(chart.data_files.size(), 1U);
  EXPECT_EQ(chart.data_files[0].second,
            "# lu:S:4\n"
            "\"in-order\" 0 0 0.1 0.4 0.5 0\n"
            "\"greedy\" 0 0 0.1 0.4 0.25 0\n"
            "\"random\" 0.25 0 0.05 0.2 0 0\n\n\n");
  EXPECT_TRUE(contains(chart.csv, "lu:S:4,4,random,1,0.5,0,0.1,0.4,0,0,0.5\n"));
  EXPECT_TRUE(contains(chart.plot, "set style histogram rowstacked"));
  EXPECT_TRUE(contains(chart.plot, "title 'contention'"));
  // random is fastest (-50 %): compute +0.5 s and contention -1 s changed most, contention first.
  ASSERT_EQ(chart.table_rows.size(), 1U);
  EXPECT_EQ(
      chart.table_rows[0],
      (std::vector<std::string>{"lu:S:4", "latency 10 %, bandwidth 40 %, contention 50 %",
                                "random (-50.0 %)", "compute 50 %, latency 10 %, bandwidth 40 %",
                                "contention -1000.000 ms, compute +500.000 ms"}));
}

TEST(ReportCharts, NoCriticalPathChartWithoutCriticalPaths) {
  // Runs stored before schema 4 have no critical path: no chart (and no failure).
  auto data = data_of({context("lu:S:4", 4)});
  for (std::size_t k = 1; k < std::size(kCriticalPathMetrics); ++k)
    data.metrics.emplace_back(kCriticalPathMetrics[k]);
  for (auto& c : data.contexts) {
    for (auto& r : c.rows) {
      r.values.resize(data.metrics.size());
      r.ratios.resize(data.metrics.size());
    }
  }
  EXPECT_TRUE(critical_path_charts(data).empty());
}

TEST(ReportCharts, StaticModelHasOnlyTheHopBytesPanel) {
  const auto charts = bar_charts(data_of({context("lu:S:4", 4, "torus:4x4", "static")}));
  ASSERT_EQ(charts.size(), 1U);
  EXPECT_TRUE(contains(charts[0].plot, "set multiplot layout 1,1"));
  EXPECT_FALSE(contains(charts[0].plot, "makespan_s / in-order"));
  EXPECT_EQ(charts[0].table_rows[0][2], "0.500");  // greedy's hop-bytes ratio alone
}

TEST(ReportCharts, BarsAreOneChartPerMachineAndModelInPagesOfTwelve) {
  std::vector<ReportContext> contexts;
  // 13 workloads on one machine and model: two pages of at most 12, as even as can be (7 and 6);
  // one workload on another machine.
  for (int w = 0; w < 13; ++w) contexts.push_back(context(fmt::format("w{:02}:S:4", w), 4));
  contexts.push_back(context("lu:S:4", 4, "mesh:2x2"));
  const auto charts = bar_charts(data_of(std::move(contexts)));
  ASSERT_EQ(charts.size(), 3U);
  EXPECT_EQ(charts[0].name, "bars-torus_4x4-flow-p1");
  EXPECT_EQ(charts[0].table_rows.size(), 7U);
  EXPECT_EQ(charts[1].name, "bars-torus_4x4-flow-p2");
  EXPECT_EQ(charts[1].table_rows.size(), 6U);
  EXPECT_EQ(charts[2].name, "bars-mesh_2x2-flow");
}

TEST(ReportCharts, NamesAreSanitisedAndUnique) {
  EXPECT_EQ(sanitize_name("torus:4x4x4"), "torus_4x4x4");
  EXPECT_EQ(sanitize_name("Flow (eager 65536 B, compute x0)"), "flow_eager_65536_b_compute_x0");
  EXPECT_EQ(sanitize_name(".hidden"), "hidden");
  EXPECT_EQ(sanitize_name("::"), "chart");
  EXPECT_EQ(sanitize_name(""), "chart");
  // "Torus:4x4" and "torus 4x4" are different machines with the same sanitised name.
  const auto charts =
      bar_charts(data_of({context("lu:S:4", 4, "Torus:4x4"), context("lu:S:4", 4, "torus 4x4")}));
  ASSERT_EQ(charts.size(), 2U);
  EXPECT_EQ(charts[0].name, "bars-torus_4x4-flow");
  EXPECT_EQ(charts[1].name, "bars-torus_4x4-flow-2");
  for (const auto& chart : charts) {
    EXPECT_EQ(chart.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-"),
              std::string::npos)
        << chart.name;
  }
}

TEST(ReportCharts, ScalingNeedsTwoRankCounts) {
  // lu at 4 and 16 ranks: a chart; cg only at 4: none.
  auto lu16 = context("lu:S:16", 16);
  lu16.rows[1] = row("greedy", 25, 1.0, 100, 2.0);  // greedy: 0.25 and 0.5 at 16 ranks
  const auto charts = scaling_charts(
      data_of({context("cg:S:4", 4), context("lu:S:4", 4), std::move(lu16)}), "hop_bytes");
  ASSERT_EQ(charts.size(), 1U);
  const auto& chart = charts[0];
  EXPECT_EQ(chart.name, "scaling-lu_s-torus-flow");
  EXPECT_EQ(chart.kind, "scaling");
  EXPECT_TRUE(contains(chart.csv, "lu:S,torus,flow,4,greedy,1,0.5,0.75\n"));
  EXPECT_TRUE(contains(chart.csv, "lu:S,torus,flow,16,greedy,1,0.25,0.5\n"));
  EXPECT_TRUE(contains(chart.plot, "set logscale x 2"));
  EXPECT_TRUE(contains(chart.plot, "set xtics (4, 16)"));
  EXPECT_TRUE(contains(chart.plot, "title 'greedy'"));
  // Blocks: hop-bytes of in-order, greedy, random (0-2), then times (3-5); greedy's hop-bytes:
  ASSERT_EQ(chart.data_files.size(), 1U);
  EXPECT_TRUE(contains(chart.data_files[0].second, "# hop_bytes greedy\n4 0.5\n16 0.25\n\n\n"));
  // greedy is the report's second mapper (in-order, greedy, random): colour 2.
  EXPECT_TRUE(
      contains(chart.plot, "index 4 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'greedy'"));
}

TEST(ReportCharts, AMapperHasOneColourInEveryChart) {
  // On mesh:4x4 greedy failed, so that chart has in-order and random only; random keeps the
  // colour of its place among the report's mappers (in-order, greedy, random): 3, not 2.
  auto partial = context("lu:S:4", 4, "mesh:4x4");
  partial.rows.erase(partial.rows.begin() + 1);
  const auto charts = bar_charts(data_of({context("lu:S:4", 4), partial}));
  ASSERT_EQ(charts.size(), 2U);
  for (const auto& chart : charts) {
    SCOPED_TRACE(chart.name);
    EXPECT_TRUE(contains(chart.plot, "title 'random' lt 3"));
    EXPECT_TRUE(contains(chart.plot, "title 'in-order' lt 1"));
  }
  EXPECT_FALSE(contains(charts[1].plot, "'greedy'"));
}

TEST(ReportCharts, AgreementTableListsTheDiscordantPairs) {
  const auto data = data_of({context("lu:S:4", 4)});
  // In the context above, greedy has fewer hop-bytes than random (50 < 150) but random is faster
  // (1 s < 1.5 s): the one discordant pair given.
  ContextAgreement a;
  a.context = 0;
  a.metric = "hop_bytes";
  a.mappers = 3;
  a.pairs = 3;
  a.rho = -0.5;
  a.discordant = {{"greedy", "random", 50, 150, 1.5, 1.0}};
  const auto charts = agreement_charts(data, {a});
  ASSERT_EQ(charts.size(), 1U);
  const auto& chart = charts[0];
  EXPECT_EQ(chart.name, "agreement-hop_bytes-torus_4x4-flow");
  EXPECT_TRUE(contains(chart.title, "mean rho -0.50 over 1 workloads"));
  ASSERT_EQ(chart.table_rows.size(), 1U);
  EXPECT_EQ(chart.table_rows[0][0], "lu:S:4");
  EXPECT_EQ(chart.table_rows[0][2], "-0.50");
  EXPECT_EQ(chart.table_rows[0][3], "0 of 3");  // tied pairs
  EXPECT_EQ(chart.table_rows[0][4],
            "greedy < random by hop-bytes, but random faster (hop-bytes 50 vs 150, makespan_s 1.5 "
            "vs 1)");
  // A point series per mapper at (hop-bytes / in-order, time / in-order): greedy at (0.5, 0.75),
  // in the first workload's shape (gnuplot point type 7).
  EXPECT_TRUE(contains(chart.data_files[0].second, "# greedy\n0.5 0.75 \"lu:S:4\" 7\n"));
  EXPECT_TRUE(contains(chart.plot, "title 'random'"));
}

TEST(ReportCharts, AgreementPointsAreShapedByWorkloadWithOneLegend) {
  const auto data = data_of({context("lu:S:4", 4), context("cg:S:4", 4)});
  std::vector<ContextAgreement> agreements(2);
  for (std::size_t c = 0; c < 2; ++c) {
    agreements[c].context = c;
    agreements[c].metric = "hop_bytes";
    agreements[c].mappers = 3;
    agreements[c].pairs = 3;
  }
  const auto charts = agreement_charts(data, agreements);
  ASSERT_EQ(charts.size(), 1U);
  const auto& chart = charts[0];
  // lu is the first workload (filled circle, 7), cg the second (filled square, 5).
  EXPECT_TRUE(contains(chart.data_files[0].second, "0.5 0.75 \"lu:S:4\" 7\n"));
  EXPECT_TRUE(contains(chart.data_files[0].second, "0.5 0.75 \"cg:S:4\" 5\n"));
  // The shape comes from the data; the legend lists each mapper's colour once and each
  // workload's shape once, and the point series have no legend entries of their own.
  EXPECT_TRUE(contains(chart.plot, "using 1:2:4 with points pt variable ps 1.3 lc 2 notitle"));
  EXPECT_TRUE(contains(chart.plot, "keyentry with points pt 7 ps 1.3 lc 2 title 'greedy'"));
  EXPECT_TRUE(contains(chart.plot,
                       "keyentry with points pt 7 ps 1.3 lc rgb 'black' title "
                       "'lu:S:4'"));
  EXPECT_TRUE(contains(chart.plot,
                       "keyentry with points pt 5 ps 1.3 lc rgb 'black' title "
                       "'cg:S:4'"));
  std::size_t titles = 0;
  for (auto at = chart.plot.find(" title '"); at != std::string::npos;
       at = chart.plot.find(" title '", at + 1))
    ++titles;
  EXPECT_EQ(titles, 3U + 2U);  // three mappers, two workloads
}

TEST(ReportCharts, BarsAndScalingHaveOneLegend) {
  // Both panels show the same mappers: the legend is beside the right one only.
  const auto bars = bar_charts(data_of({context("lu:S:4", 4)}));
  ASSERT_EQ(bars.size(), 1U);
  const auto keys = [](const std::string& plot) {
    std::size_t n = 0;
    for (auto at = plot.find("set key outside"); at != std::string::npos;
         at = plot.find("set key outside", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(keys(bars[0].plot), 1U);
  EXPECT_LT(bars[0].plot.find("unset key"), bars[0].plot.find("set key outside"));
  // A static model has one panel, and its legend.
  const auto still = bar_charts(data_of({context("lu:S:4", 4, "torus:4x4", "static")}));
  ASSERT_EQ(still.size(), 1U);
  EXPECT_EQ(keys(still[0].plot), 1U);
  EXPECT_EQ(still[0].plot.find("unset key"), std::string::npos);
  const auto scaling = scaling_charts(data_of({context("lu:S:4", 4), context("lu:S:16", 16)}));
  ASSERT_EQ(scaling.size(), 1U);
  EXPECT_EQ(keys(scaling[0].plot), 1U);
}

TEST(ChartText, LegendGoesWhereEveryMapperIs) {
  using chart::legend_panels;
  const std::vector<int> abc{1, 2, 3}, ab{1, 2}, cd{3, 4}, none;
  EXPECT_TRUE(legend_panels(abc, abc).right);
  EXPECT_FALSE(legend_panels(abc, abc).left);
  EXPECT_FALSE(legend_panels(ab, abc).left);  // the right has every mapper of the left
  EXPECT_TRUE(legend_panels(abc, ab).left);   // the left has every mapper of the right
  EXPECT_FALSE(legend_panels(abc, ab).right);
  EXPECT_TRUE(legend_panels(ab, cd).left);  // neither: both
  EXPECT_TRUE(legend_panels(ab, cd).right);
  EXPECT_TRUE(legend_panels(ab, none).left);  // no right panel
  EXPECT_FALSE(legend_panels(ab, none).right);
  EXPECT_TRUE(legend_panels(none, ab).right);  // no left panel
}

TEST(ChartText, LongTitlesWrapAtSpaces) {
  using chart::gp_title;
  // At most 12 characters a line: "hop-bytes /" (11), "in-order:" (9) + " torus" = 15 > 12.
  EXPECT_EQ(gp_title("hop-bytes / in-order: torus", 12), "\"hop-bytes /\\nin-order:\\ntorus\"");
  // Short enough: one line; double quotes and backslashes escaped for gnuplot.
  EXPECT_EQ(gp_title("a \"b\" c\\d", 40), "\"a \\\"b\\\" c\\\\d\"");
  // A word longer than a line stays whole.
  EXPECT_EQ(gp_title("abcdefghijklmnop q", 5), "\"abcdefghijklmnop\\nq\"");
  EXPECT_EQ(chart::title_columns(2400), 300U);
  EXPECT_EQ(chart::title_columns(100), 40U);
}

TEST(ReportCharts, MostlyTiedContextsAreNoFinding) {
  const auto data = data_of({context("lu:S:4", 4), context("ft:S:4", 4)});
  // lu: rho +0.50, none of its 3 pairs tied; ft: rho -0.80 but 2 of its 3 pairs tied.
  ContextAgreement lu;
  lu.context = 0;
  lu.metric = "hop_bytes";
  lu.mappers = 3;
  lu.pairs = 3;
  lu.rho = 0.5;
  lu.tie_tolerance = 0.001;
  auto ft = lu;
  ft.context = 1;
  ft.rho = -0.8;
  ft.ties = 2;
  EXPECT_FALSE(lu.mostly_tied());
  EXPECT_TRUE(ft.mostly_tied());
  const auto charts = agreement_charts(data, {lu, ft});
  ASSERT_EQ(charts.size(), 1U);
  // The mean is lu's alone; ft is counted as mostly tied, its rho not shown as a finding.
  EXPECT_TRUE(contains(charts[0].title, "mean rho +0.50 over 1 workloads, 1 mostly tied"));
  ASSERT_EQ(charts[0].table_rows.size(), 2U);
  EXPECT_EQ(charts[0].table_rows[0][2], "+0.50");
  EXPECT_EQ(charts[0].table_rows[1][2], "mostly tied");
  EXPECT_EQ(charts[0].table_rows[1][3], "2 of 3");
  EXPECT_TRUE(contains(charts[0].about, "within 0.1 % of each other are ties"));
  // Only ft: no mean at all.
  const auto alone = agreement_charts(data, {ft});
  ASSERT_EQ(alone.size(), 1U);
  EXPECT_TRUE(contains(alone[0].title, "no rho: 1 workloads mostly tied"));
}

TEST(ReportCharts, AgreementSummaryNeedsARho) {
  AgreementSummary s;
  s.machine = "torus:4x4";
  s.model = "flow";
  s.metric = "hop_bytes";
  s.contexts = 2;
  s.pairs = 6;
  s.discordant = 3;
  s.ties = 1;
  s.tie_tolerance = 0.001;
  EXPECT_FALSE(agreement_summary_chart({s}).has_value());  // no rho: nothing to draw
  s.mean_rho = 0.25;
  const auto chart = agreement_summary_chart({s});
  ASSERT_TRUE(chart.has_value());
  // 6 pairs: 3 discordant, 1 tie, so 6 - 3 - 1 = 2 ordered alike.
  EXPECT_EQ(chart->csv,
            "machine,model,metric,contexts,mean_rho,pairs,alike,discordant,ties,mostly_tied,"
            "tie_tolerance\n"
            "torus:4x4,flow,hop_bytes,2,0.25,6,2,3,1,0,0.001\n");
  EXPECT_EQ(chart->table_rows[0][9], "0");
  EXPECT_EQ(chart->table_rows[0][10], "0.1 %");
  ASSERT_EQ(chart->table_rows.size(), 1U);
  EXPECT_EQ(chart->table_rows[0][6], "2 (33%)");  // 2 of 6 pairs
  EXPECT_EQ(chart->table_rows[0][7], "3 (50%)");  // 3 of 6 pairs
  EXPECT_EQ(chart->table_rows[0][8], "1 (17%)");
  EXPECT_TRUE(contains(chart->data_files[0].second, "\"torus:4x4, flow\" 0.25\n"));
}

TEST(ReportCharts, MapperWithoutTimeIsLeftOutOfTheTimePanel) {
  auto c = context("lu:S:4", 4);
  c.rows[2].values[ReportData::kTime] = std::nullopt;  // random failed its replay
  c.rows[2].ratios[ReportData::kTime] = std::nullopt;
  const auto charts = bar_charts(data_of({c}));
  ASSERT_EQ(charts.size(), 1U);
  // random is a series of the hop-bytes panel (column 4) but not of the time panel (column 7),
  // as gnuplot rejects a histogram series without a value.
  EXPECT_TRUE(contains(charts[0].plot, "using 4 title 'random' lt 3"));
  EXPECT_FALSE(contains(charts[0].plot, "using 7 title 'random'"));
  EXPECT_TRUE(contains(charts[0].plot, "using 6 title 'greedy' lt 2"));
}

TEST(ReportWriter, WritesRendersAndIndexesAChart) {
  const testing::TempDir temp;
  const auto charts = bar_charts(data_of({context("lu:S:4", 4)}));
  ReportOptions options;
  options.out = temp.path() / "report";
  options.command = "mapsim report r.db --out report";
  const auto summary = write_report(charts, options);
  EXPECT_EQ(summary.charts, 1U);
  const auto& name = charts[0].name;
  for (const auto* extension : {".svg", ".png", ".csv", ".gp", ".dat"})
    EXPECT_TRUE(std::filesystem::is_regular_file(options.out / (name + extension))) << extension;
  const auto md = testing::read_file(options.out / "index.md");
  EXPECT_TRUE(contains(md, fmt::format("![{}]({}.svg)", charts[0].title, name)));
  EXPECT_TRUE(contains(md, "mapsim report r.db --out report"));
  EXPECT_TRUE(contains(md, "| lu:S:4 (4 ranks) | 1.000 / 1.000 | 0.500 / 0.750 |"));
  const auto html = testing::read_file(options.out / "index.html");
  EXPECT_TRUE(contains(html, fmt::format("<img src=\"{}.svg\"", name)));
  EXPECT_TRUE(contains(html, "<td>0.500 / 0.750</td>"));
  // The script stands alone: SVG, then PNG, each of the chart's plot.
  const auto script = testing::read_file(options.out / (name + ".gp"));
  EXPECT_TRUE(contains(script, fmt::format("set output '{}.svg'", name)));
  EXPECT_TRUE(contains(script, "set terminal pngcairo"));
}

TEST(ReportWriter, GnuplotErrorNamesTheChartAndLeavesNothing) {
  const testing::TempDir temp;
  Chart chart;
  chart.name = "broken";
  chart.kind = "bars";
  chart.title = "broken";
  chart.plot = "plot 'no-such-file.dat' using 1:2\n";
  ReportOptions options;
  options.out = temp.path() / "report";
  try {
    write_report({chart}, options);
    FAIL() << "a chart gnuplot cannot draw is an error";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "broken.gp")) << e.what();
    EXPECT_TRUE(contains(e.what(), "no-such-file.dat")) << e.what();  // gnuplot's message
  }
  EXPECT_TRUE(std::filesystem::is_empty(temp.path()));
}

TEST(ReportWriter, MissingGnuplotNamesThePackage) {
  const testing::TempDir temp;
  ReportOptions options;
  options.out = temp.path() / "report";
  options.gnuplot = temp.path() / "no-gnuplot";
  try {
    write_report(bar_charts(data_of({context("lu:S:4", 4)})), options);
    FAIL() << "a missing gnuplot is an error";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "gnuplot-nox")) << e.what();
    EXPECT_TRUE(contains(e.what(), options.gnuplot.string())) << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_empty(temp.path()));
}

}  // namespace
}  // namespace mapsim::exp
