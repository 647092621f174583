// What a report opens with: the recommended mapper per context, what hop-bytes would have
// chosen, the models' agreement, and the tables and files of the index.

#include "experiments/ReportFindings.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "experiments/ReportCharts.hpp"
#include "experiments/ReportWriter.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

constexpr double kTolerance = 1e-12;

/// A mapper's row: hop-bytes and time (nullopt: static), ratios to in-order's 100 bytes, 2 s.
ReportRow row(const std::string& mapper, double hops, std::optional<double> time) {
  ReportRow r;
  r.mapper = mapper;
  r.runs = 1;
  // The static metrics (hop-bytes first, the others 1), then the time.
  r.values.assign(ReportData::kTime + 1, 1.0);
  r.ratios.assign(ReportData::kTime + 1, 1.0);
  r.values[0] = hops;
  r.ratios[0] = hops / 100;
  r.values[ReportData::kTime] = time;
  r.ratios[ReportData::kTime] = std::nullopt;
  if (time) r.ratios[ReportData::kTime] = *time / 2.0;
  return r;
}

ReportContext context(const std::string& workload, const std::string& model,
                      std::vector<ReportRow> rows) {
  ReportContext c;
  c.context_key = workload + "-" + model;
  c.workload = workload;
  c.family = workload;
  c.ranks = 4;
  c.machine = "torus:4x4";
  c.topology = c.machine;
  c.topology_kind = "torus";
  c.model = model;
  c.rows = std::move(rows);
  return c;
}

/// In-order has 100 bytes and 2 s (static: no time) in every context.
///   lu flow    greedy 50 / 1.5 s, random 150 / 1 s: random is fastest, hop-bytes picks greedy
///              (50 % slower)
///   cg flow    greedy 50 / 1.0005 s, random 150 / 1 s: random, greedy as fast within 0.1 %
///   ft flow    greedy 100.05 / 1 s, random 100.02 / 1.5 s: greedy; hop-bytes picks in-order,
///              within 0.1 % of greedy's bytes
///   is static  greedy 50: greedy by hop-bytes
///   lu packet  greedy 50 / 1.5 s, random 150 / 1.2 s: random (0.6), hop-bytes greedy (+25 %)
///   cg packet  greedy 50 / 0.8 s, random 150 / 1 s: greedy, as hop-bytes
ReportData hand_data() {
  ReportData data;
  data.metrics.assign(std::begin(kReportStaticMetrics), std::end(kReportStaticMetrics));
  data.metrics.emplace_back("makespan_s");
  data.contexts = {
      context("lu:S:4", "flow",
              {row("in-order", 100, 2), row("greedy", 50, 1.5), row("random", 150, 1)}),
      context("cg:S:4", "flow",
              {row("in-order", 100, 2), row("greedy", 50, 1.0005), row("random", 150, 1)}),
      context("ft:S:4", "flow",
              {row("in-order", 100, 2), row("greedy", 100.05, 1), row("random", 100.02, 1.5)}),
      context("is:S:4", "static",
              {row("in-order", 100, std::nullopt), row("greedy", 50, std::nullopt)}),
      context("lu:S:4", "packet",
              {row("in-order", 100, 2), row("greedy", 50, 1.5), row("random", 150, 1.2)}),
      context("cg:S:4", "packet",
              {row("in-order", 100, 2), row("greedy", 50, 0.8), row("random", 150, 1)}),
  };
  return data;
}

TEST(ReportFindings, RecommendsTheFastestAndSaysWhatHopBytesWouldChoose) {
  const auto data = hand_data();
  const auto found = findings(data);
  ASSERT_EQ(found.size(), 6U);
  // lu flow: random at 1 s / 2 s = 0.5; greedy has the fewest hop-bytes and takes 1.5 s.
  EXPECT_TRUE(found[0].simulated);
  EXPECT_EQ(found[0].best, "random");
  EXPECT_NEAR(*found[0].best_ratio, 0.5, kTolerance);
  EXPECT_TRUE(found[0].tied_with_best.empty());
  EXPECT_EQ(found[0].static_choice, StaticChoice::Other);
  EXPECT_EQ(found[0].static_pick, "greedy");
  EXPECT_NEAR(*found[0].static_pick_slowdown, 1.5, kTolerance);
  // cg flow: greedy's 1.0005 s is within 0.1 % of random's 1 s (0.0005 <= 0.0010005).
  EXPECT_EQ(found[1].best, "random");
  EXPECT_EQ(found[1].tied_with_best, std::vector<std::string>{"greedy"});
  EXPECT_EQ(found[1].static_choice, StaticChoice::TiedTime);
  // At tolerance 0 greedy is just slower.
  EXPECT_EQ(findings(data, 0)[1].static_choice, StaticChoice::Other);
  EXPECT_TRUE(findings(data, 0)[1].tied_with_best.empty());
  // ft flow: hop-bytes picks in-order (100), within 0.1 % of greedy's 100.05.
  EXPECT_EQ(found[2].best, "greedy");
  EXPECT_EQ(found[2].static_pick, "in-order");
  EXPECT_EQ(found[2].static_choice, StaticChoice::TiedMetric);
  // is static: by hop-bytes, 50 / 100.
  EXPECT_FALSE(found[3].simulated);
  EXPECT_EQ(found[3].best, "greedy");
  EXPECT_NEAR(*found[3].best_ratio, 0.5, kTolerance);
  EXPECT_EQ(found[3].static_choice, StaticChoice::StaticOnly);
  EXPECT_FALSE(found[3].static_pick_slowdown);
  // cg packet: greedy both ways.
  EXPECT_EQ(found[5].best, "greedy");
  EXPECT_EQ(found[5].static_choice, StaticChoice::Same);
}

TEST(ReportFindings, ComparesTheModelsOfAWorkloadAndMachine) {
  const auto data = hand_data();
  const auto found = findings(data);
  const auto models = compare_models(data, found);
  // lu and cg ran under flow and packet; ft only under flow, is only static.
  ASSERT_EQ(models.size(), 2U);
  EXPECT_EQ(models[0].workload, "lu:S:4");
  EXPECT_EQ(models[0].findings, (std::vector<std::size_t>{0, 4}));
  EXPECT_TRUE(models[0].same_winner);  // random under both
  EXPECT_TRUE(models[0].same_best);
  EXPECT_NEAR(*models[0].ratio_spread, 0.6 - 0.5, kTolerance);
  EXPECT_EQ(models[1].workload, "cg:S:4");
  // random (0.5) under flow, greedy (0.4) under packet: not the same recommendation, but greedy
  // is within 0.1 % of random under flow, so greedy serves both.
  EXPECT_FALSE(models[1].same_best);
  EXPECT_TRUE(models[1].same_winner);
  EXPECT_NEAR(*models[1].ratio_spread, 0.5 - 0.4, kTolerance);
  // At tolerance 0 nothing is tied: no mapper serves both.
  const auto exact = findings(data, 0);
  EXPECT_FALSE(compare_models(data, exact)[1].same_winner);
}

TEST(ReportFindings, TablesLeadWithTheCountsAndSayMostlyTied) {
  const auto data = hand_data();
  const auto found = findings(data);
  const auto tables = findings_tables(data, found, compare_models(data, found),
                                      agreement(data, "hop_bytes"), kDefaultTieTolerance);
  ASSERT_EQ(tables.size(), 2U);
  const auto& mappers = tables[0];
  EXPECT_EQ(mappers.suffix, "mappers");
  // Simulated: lu, cg, ft flow and lu, cg packet. As good: cg flow (tied time), cg packet
  // (same); slower: lu flow (+50 %), lu packet (1.5 / 1.2: +25 %); hop-bytes tie: ft. ft's
  // three pairs are all tied (100, 100.05, 100.02 within 0.1 %): mostly tied.
  EXPECT_EQ(mappers.caption.substr(0, mappers.caption.find(" The mapper")),
            "Of 5 simulated workload, machine and model combinations, choosing the mapper by "
            "hop-bytes alone gets the fastest one (or one as fast) in 2, a slower one in 2 (up to "
            "+50.0 % time), and cannot tell the fastest from its pick in 1; 1 is mostly tied. 1 "
            "combination is static only (no simulated time): chosen by hop-bytes.");
  ASSERT_EQ(mappers.rows.size(), 6U);
  // lu flow: ranks by hop-bytes (2, 1, 3), by time (3, 2, 1): sum d^2 = 1 + 1 + 4, rho =
  // 1 - 6 * 6 / 24 = -0.5.
  EXPECT_EQ(mappers.rows[0],
            (std::vector<std::string>{"lu:S:4", "torus:4x4", "flow", "random", "0.500 (-50.0 %)",
                                      "no: greedy, +50.0 % time", "-0.50 (0 of 3 pairs tied)"}));
  EXPECT_EQ(mappers.rows[1][3], "random (tied within 0.1 %: greedy)");
  EXPECT_EQ(mappers.rows[1][5], "yes, as good: greedy (time within 0.1 %)");
  EXPECT_EQ(mappers.rows[1][6], "+0.00 (1 of 3 pairs tied)");
  EXPECT_EQ(mappers.rows[2][5], "tie: in-order has hop-bytes within 0.1 % of greedy's");
  EXPECT_EQ(mappers.rows[2][6], "mostly tied (3 of 3 pairs tied)");
  EXPECT_EQ(mappers.rows[3][5], "- (static only: chosen by hop-bytes)");
  EXPECT_EQ(mappers.rows[3][6], "-");
  const auto& models = tables[1];
  EXPECT_EQ(models.suffix, "models");
  ASSERT_EQ(models.rows.size(), 2U);
  EXPECT_EQ(models.rows[0][3], "yes");
  EXPECT_EQ(models.rows[1], (std::vector<std::string>{"cg:S:4", "torus:4x4",
                                                      "flow: random 0.500; packet: greedy 0.400",
                                                      "yes, within 0.1 %", "0.100"}));
}

TEST(ReportFindings, OneModelHasNoModelsTable) {
  auto data = hand_data();
  data.contexts.resize(3);
  const auto found = findings(data);
  EXPECT_TRUE(compare_models(data, found).empty());
  EXPECT_EQ(findings_tables(data, found, {}, {}, 0.001).size(), 1U);
}

TEST(ReportFindings, IndexOpensWithTheFindingsAndWideChartsScroll) {
  const testing::TempDir temp;
  const auto data = hand_data();
  const auto found = findings(data);
  const auto tables = findings_tables(data, found, compare_models(data, found),
                                      agreement(data, "hop_bytes"), kDefaultTieTolerance);
  auto charts = bar_charts(data);
  ASSERT_FALSE(charts.empty());
  charts[0].width = 2000;  // wider than the page
  ReportOptions options;
  options.out = temp.path() / "report";
  options.command = "mapsim report r.db --out report";
  write_report(charts, options, tables);
  const auto csv = testing::read_file(options.out / "findings-mappers.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "workload,machine,model,recommended mapper,/ in-order,hop-bytes would choose it,"
            "hop-bytes vs time");
  EXPECT_NE(csv.find("\nlu:S:4,torus:4x4,flow,random,0.500 (-50.0 %),\"no: greedy, +50.0 % "
                     "time\",-0.50 (0 of 3 pairs tied)\n"),
            std::string::npos)
      << csv;
  EXPECT_TRUE(std::filesystem::is_regular_file(options.out / "findings-models.csv"));
  const auto md = testing::read_file(options.out / "index.md");
  const auto findings_at = md.find("## Findings");
  ASSERT_NE(findings_at, std::string::npos);
  EXPECT_LT(findings_at, md.find("## Charts"));
  EXPECT_LT(md.find("| lu:S:4 | torus:4x4 | flow | random |"), md.find("## Charts"));
  const auto html = testing::read_file(options.out / "index.html");
  EXPECT_LT(html.find("<h2>Findings</h2>"), html.find("<h2>Charts</h2>"));
  // The wide chart keeps its size in a scrolling box with a link to the full image; the others
  // fit the page.
  EXPECT_NE(html.find(fmt::format("<div class=\"wide\"><img src=\"{}.svg\"", charts[0].name)),
            std::string::npos);
  EXPECT_NE(html.find("width=\"2000\""), std::string::npos);
  EXPECT_NE(
      html.find(fmt::format("open <a href=\"{}.svg\">the full-size image</a>", charts[0].name)),
      std::string::npos);
  ASSERT_GE(charts.size(), 2U);
  EXPECT_NE(html.find(fmt::format("<p><img src=\"{}.svg\"", charts[1].name)), std::string::npos);
  const auto manifest = testing::read_file(options.out / ".mapsim-report-files");
  EXPECT_NE(manifest.find("findings-mappers.csv\n"), std::string::npos);
}

}  // namespace
}  // namespace mapsim::exp
