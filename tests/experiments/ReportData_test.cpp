// The report's data: per context and mapper the mean of the done runs and its ratio to in-order,
// workload families, the order of contexts and rows, the agreement of static metrics with the
// simulated time, per-link loads and the default heat maps — on hand-made databases.

#include "experiments/ReportData.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/experiments/ReportTestSupport.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

using mapsim::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace mapsim::exp::testing;

constexpr double kTolerance = 1e-12;
constexpr std::size_t kHopBytes = 0;
constexpr std::size_t kLinkBytesMax = 1;

/// A run of `workload` (spec = label) on torus:4x4 unless said otherwise, with its hop-bytes and
/// simulated time (nullopt: static).
HandRun run_of(std::string mapper, double hop_bytes, std::optional<double> makespan_s,
               std::string workload = "npb:lu:W:16", std::int64_t ranks = 16,
               std::string machine = "torus:4x4") {
  auto run = hand_run(std::move(workload), std::move(machine), std::move(mapper), ranks);
  run.hop_bytes = hop_bytes;
  run.link_bytes_max = hop_bytes;
  run.makespan_s = makespan_s;
  if (!makespan_s) run.model = "static";
  return run;
}

ReportData read(const TempDir& dir, ReportQuery query = {}) {
  Store store(dir.path() / "r.db", Store::Access::Read);
  return read_report(store, query);
}

std::vector<std::string> mappers_of(const ReportContext& context) {
  std::vector<std::string> names;
  for (const auto& row : context.rows) names.push_back(row.mapper);
  return names;
}

template <typename F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ReportData, DividesByInOrderInTheSameContext) {
  const TempDir dir;
  add_runs(dir.path() / "r.db",
           {run_of("random", 300, 3.0), run_of("in-order", 200, 2.0), run_of("greedy", 150, 1.0)});
  const auto data = read(dir);
  // hop_bytes scales: no extra column; the network's energy, then the critical path's parts.
  EXPECT_THAT(data.metrics,
              ElementsAre("hop_bytes", "link_bytes_max", "dilation_max", "busiest_link_s",
                          "link_load_squares", "latency_s", "makespan_s", "energy_j",
                          "critical_compute_s", "critical_overhead_s", "critical_latency_s",
                          "critical_bandwidth_s", "critical_contention_s", "critical_waiting_s"));
  ASSERT_EQ(data.contexts.size(), 1U);
  const auto& c = data.contexts[0];
  // In-order first, then by label.
  ASSERT_THAT(mappers_of(c), ElementsAre("in-order", "greedy", "random"));
  // hop-bytes / 200: 1, 150/200 = 0.75, 300/200 = 1.5; time / 2 s: 1, 0.5, 1.5.
  const double hop[] = {1.0, 0.75, 1.5};
  const double time[] = {1.0, 0.5, 1.5};
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(c.rows[r].runs, 1);
    ASSERT_TRUE(c.rows[r].ratios[kHopBytes]);
    EXPECT_NEAR(*c.rows[r].ratios[kHopBytes], hop[r], kTolerance);
    ASSERT_TRUE(c.rows[r].ratios[ReportData::kTime]);
    EXPECT_NEAR(*c.rows[r].ratios[ReportData::kTime], time[r], kTolerance);
  }
  EXPECT_NEAR(*c.rows[1].values[kHopBytes], 150, kTolerance);
  EXPECT_NEAR(*c.rows[1].values[ReportData::kTime], 1.0, kTolerance);
  // dilation_max is 0 for in-order too: no ratio.
  EXPECT_FALSE(c.rows[1].ratios[data.metric_index("dilation_max")]);
}

TEST(ReportData, AveragesRepeatsAndLeavesOutFailedRuns) {
  const TempDir dir;
  std::vector<HandRun> runs{run_of("in-order", 100, 1.0), run_of("greedy", 100, 1.0),
                            run_of("greedy", 300, 3.0), run_of("greedy", 9999, 99.0),
                            run_of("random", 50, 0.5)};
  runs[2].repeat = 1;
  runs[3].repeat = 2;
  runs[3].failed = true;
  runs[4].failed = true;
  add_runs(dir.path() / "r.db", runs);
  const auto data = read(dir);
  ASSERT_EQ(data.contexts.size(), 1U);
  // random has only a failed run: dropped. greedy: the mean of 100 and 300 = 200 (the failed
  // 9999 left out), 2 runs, ratio 200 / 100 = 2.
  const auto& c = data.contexts[0];
  ASSERT_THAT(mappers_of(c), ElementsAre("in-order", "greedy"));
  EXPECT_EQ(c.rows[1].runs, 2);
  EXPECT_NEAR(*c.rows[1].values[kHopBytes], 200, kTolerance);
  EXPECT_NEAR(*c.rows[1].ratios[kHopBytes], 2, kTolerance);
  EXPECT_NEAR(*c.rows[1].values[ReportData::kTime], 2.0, kTolerance);
}

TEST(ReportData, RatiosNeedANonZeroInOrderValue) {
  const TempDir dir;
  add_runs(dir.path() / "r.db",
           {// No in-order in lu:W:16.
            run_of("greedy", 150, 1.0), run_of("random", 300, 3.0),
            // In-order's hop-bytes are 0 in cg:W:16 (but its time is not).
            run_of("in-order", 0, 2.0, "npb:cg:W:16"), run_of("greedy", 10, 1.0, "npb:cg:W:16")});
  const auto data = read(dir);
  ASSERT_EQ(data.contexts.size(), 2U);
  // Family "npb:cg:W" sorts before "npb:lu:W".
  const auto& cg = data.contexts[0];
  const auto& lu = data.contexts[1];
  ASSERT_EQ(lu.workload, "npb:lu:W:16");
  for (const auto& row : lu.rows) {
    for (const auto& ratio : row.ratios) EXPECT_FALSE(ratio) << row.mapper;
    EXPECT_TRUE(row.values[kHopBytes]);
  }
  ASSERT_THAT(mappers_of(cg), ElementsAre("in-order", "greedy"));
  EXPECT_FALSE(cg.rows[1].ratios[kHopBytes]);
  EXPECT_NEAR(*cg.rows[1].ratios[ReportData::kTime], 0.5, kTolerance);
}

TEST(ReportData, FamilyDropsTheRankCountField) {
  const TempDir dir;
  auto lu = run_of("in-order", 1, 1.0, "npb:lu:D:256", 256);
  lu.workload_spec = "npb:lu:D:256:iterations=1";
  auto snap = run_of("in-order", 1, 1.0, "snap:ohtma:1024", 1024);
  // The first field (the kind) never counts; the first later field equal to 4 is dropped.
  auto twice = run_of("in-order", 1, 1.0, "4:x:4:4", 4);
  auto trace = run_of("in-order", 1, 1.0, "lu.D.256", 256);
  trace.workload_kind = "trace";
  trace.workload_spec = "/data/traces/lu.D.256/traces.otf2";
  add_runs(dir.path() / "r.db", {lu, snap, twice, trace});
  const auto data = read(dir);
  std::vector<std::pair<std::string, std::int64_t>> families;
  for (const auto& c : data.contexts) families.emplace_back(c.family, c.ranks);
  // Ordered by family on one machine and model.
  EXPECT_THAT(families,
              ElementsAre(std::pair<std::string, std::int64_t>{"4:x:4", 4},
                          std::pair<std::string, std::int64_t>{"lu.D.256", 256},
                          std::pair<std::string, std::int64_t>{"npb:lu:D:iterations=1", 256},
                          std::pair<std::string, std::int64_t>{"snap:ohtma", 1024}));
}

TEST(ReportData, OrdersContextsByMachineModelSettingsFamilyAndRanks) {
  const TempDir dir;
  std::vector<HandRun> runs{run_of("in-order", 1, 1.0, "npb:lu:W:64", 64),
                            run_of("in-order", 1, 1.0, "npb:lu:W:16"),
                            run_of("in-order", 1, 1.0, "npb:cg:W:64", 64),
                            run_of("in-order", 1, 1.0, "npb:lu:W:16", 16, "mesh:4x4"),
                            run_of("in-order", 1, 1.0, "npb:lu:W:16"),
                            run_of("in-order", 1, 1.0, "npb:lu:W:16"),
                            run_of("in-order", 1, std::nullopt, "npb:lu:W:16")};
  runs[4].model = "analytic";
  runs[5].eager_threshold = 4096;
  runs[5].compute_scale = 0.0;
  add_runs(dir.path() / "r.db", runs);
  const auto data = read(dir);
  std::vector<std::string> order;
  for (const auto& c : data.contexts)
    order.push_back(fmt::format("{} {} {} {}", c.machine, c.model_title(), c.workload, c.ranks));
  // mesh before torus; on torus: analytic, flow, flow with settings, static; in flow: family
  // cg before lu, lu 16 before lu 64.
  EXPECT_THAT(order,
              ElementsAre("mesh:4x4 flow npb:lu:W:16 16", "torus:4x4 analytic npb:lu:W:16 16",
                          "torus:4x4 flow npb:cg:W:64 64", "torus:4x4 flow npb:lu:W:16 16",
                          "torus:4x4 flow npb:lu:W:64 64",
                          "torus:4x4 flow (eager 4096 B, compute x0) npb:lu:W:16 16",
                          "torus:4x4 static npb:lu:W:16 16"));
  EXPECT_EQ(data.contexts[0].topology, "mesh:4x4");
  EXPECT_EQ(data.contexts[0].topology_kind, "mesh");
  EXPECT_EQ(data.contexts[5].eager_threshold, 4096);
  EXPECT_EQ(data.contexts[5].compute_scale, 0.0);
}

TEST(ReportData, ModelTitleShowsTheMpiAndSimSettings) {
  ReportContext c;
  c.model = "packet[size=512]";
  EXPECT_EQ(c.model_title(), "packet[size=512]");
  c.eager_threshold = 65536;
  EXPECT_EQ(c.model_title(), "packet[size=512] (eager 65536 B, compute x0)");
  c.eager_threshold.reset();
  c.compute_scale = 0.5;
  EXPECT_EQ(c.model_title(), "packet[size=512] (eager 0 B, compute x0.5)");
  c.mpi = "overheads typical";
  EXPECT_EQ(c.model_title(), "packet[size=512] (eager 0 B, compute x0.5; overheads typical)");
  c.compute_scale.reset();
  EXPECT_EQ(c.model_title(), "packet[size=512] (overheads typical)");
}

// Runs that differ only in their MPI settings are two contexts, their titles told apart by the
// settings their stored configuration names.
TEST(ReportData, ContextsOfOtherMpiSettingsAreToldApart) {
  const TempDir dir;
  auto plain = run_of("greedy", 1, 1.0);
  auto costly = run_of("greedy", 1, 2.0);
  costly.mpi = "collectives: ompi\noverheads: typical\n";
  add_runs(dir.path() / "r.db", {plain, costly});
  const auto data = read(dir);
  ASSERT_EQ(data.contexts.size(), 2U);
  std::vector<std::string> titles{data.contexts[0].model_title(), data.contexts[1].model_title()};
  std::sort(titles.begin(), titles.end());
  EXPECT_EQ(titles,
            (std::vector<std::string>{"flow", "flow (collectives ompi, overheads typical)"}));
}

/// Agreement contexts:
///   lu:W:16   static hop-bytes greedy 100 < scotch 200 < random 300 < in-order 400, time
///             random 1 < scotch 2 < greedy 3 < in-order 4
///   cg:W:16   ties: in-order 100 / 2 s, greedy 100 / 1 s, random 200 / 2 s
///   ft:W:16   two mappers, greedy better by hop-bytes, in-order faster
///   is:W:16   static only
/// and on mesh:4x4 lu:W:16 as on torus:4x4.
std::vector<HandRun> agreement_runs() {
  return {run_of("in-order", 400, 4.0),
          run_of("greedy", 100, 3.0),
          run_of("random", 300, 1.0),
          run_of("scotch", 200, 2.0),
          run_of("in-order", 100, 2.0, "npb:cg:W:16"),
          run_of("greedy", 100, 1.0, "npb:cg:W:16"),
          run_of("random", 200, 2.0, "npb:cg:W:16"),
          run_of("in-order", 200, 1.0, "npb:ft:W:16"),
          run_of("greedy", 100, 2.0, "npb:ft:W:16"),
          run_of("in-order", 200, std::nullopt, "npb:is:W:16"),
          run_of("greedy", 100, std::nullopt, "npb:is:W:16"),
          run_of("in-order", 400, 4.0, "npb:lu:W:16", 16, "mesh:4x4"),
          run_of("greedy", 100, 3.0, "npb:lu:W:16", 16, "mesh:4x4"),
          run_of("random", 300, 1.0, "npb:lu:W:16", 16, "mesh:4x4"),
          run_of("scotch", 200, 2.0, "npb:lu:W:16", 16, "mesh:4x4")};
}

TEST(ReportAgreement, ListsExactlyTheDiscordantPairs) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", agreement_runs());
  const auto data = read(dir);
  const auto agreements = agreement(data, "hop_bytes");
  // mesh lu; torus cg, ft, lu (is: no times).
  ASSERT_EQ(agreements.size(), 4U);
  const auto& lu = agreements[3];
  EXPECT_EQ(data.contexts[lu.context].workload, "npb:lu:W:16");
  EXPECT_EQ(data.contexts[lu.context].machine, "torus:4x4");
  EXPECT_EQ(lu.metric, "hop_bytes");
  EXPECT_EQ(lu.mappers, 4U);
  EXPECT_EQ(lu.pairs, 6U);
  // Ranks static / time: greedy 1/3, scotch 2/2, random 3/1, in-order 4/4; sum d^2 = 4+0+4+0 = 8,
  // rho = 1 - 6 * 8 / (4 * (16 - 1)) = 0.2.
  ASSERT_TRUE(lu.rho);
  EXPECT_NEAR(*lu.rho, 0.2, kTolerance);
  // greedy beats random and scotch by hop-bytes but is slower; scotch beats random by hop-bytes
  // but is slower; in-order is last in both.
  ASSERT_EQ(lu.discordant.size(), 3U);
  const auto expect_pair = [](const DiscordantPair& p, std::string_view first,
                              std::string_view second, double s1, double s2, double t1, double t2) {
    EXPECT_EQ(p.first, first);
    EXPECT_EQ(p.second, second);
    EXPECT_NEAR(p.static_first, s1, kTolerance);
    EXPECT_NEAR(p.static_second, s2, kTolerance);
    EXPECT_NEAR(p.time_first, t1, kTolerance);
    EXPECT_NEAR(p.time_second, t2, kTolerance);
  };
  expect_pair(lu.discordant[0], "greedy", "random", 100, 300, 3, 1);
  expect_pair(lu.discordant[1], "greedy", "scotch", 100, 200, 3, 2);
  expect_pair(lu.discordant[2], "scotch", "random", 200, 300, 2, 1);
}

TEST(ReportAgreement, TiesAreNotDiscordantAndTwoMappersHaveNoRho) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", agreement_runs());
  const auto data = read(dir);
  const auto agreements = agreement(data, "hop_bytes");
  ASSERT_EQ(agreements.size(), 4U);
  const auto& cg = agreements[1];
  ASSERT_EQ(data.contexts[cg.context].workload, "npb:cg:W:16");
  // in-order/greedy tie by hop-bytes, in-order/random by time; greedy < random in both.
  EXPECT_EQ(cg.pairs, 3U);
  EXPECT_TRUE(cg.discordant.empty());
  EXPECT_EQ(cg.ties, 2U);  // in-order/greedy and in-order/random
  // Ranks static (1.5, 1.5, 3), time (2.5, 1, 2.5) for in-order, greedy, random: centred
  // (-0.5, -0.5, 1) and (0.5, -1, 0.5), covariance 0.75, variances 1.5: rho = 0.5.
  ASSERT_TRUE(cg.rho);
  EXPECT_NEAR(*cg.rho, 0.5, kTolerance);
  const auto& ft = agreements[2];
  ASSERT_EQ(data.contexts[ft.context].workload, "npb:ft:W:16");
  EXPECT_EQ(ft.mappers, 2U);
  EXPECT_EQ(ft.pairs, 1U);
  EXPECT_FALSE(ft.rho);
  EXPECT_EQ(ft.ties, 0U);
  ASSERT_EQ(ft.discordant.size(), 1U);
  EXPECT_EQ(ft.discordant[0].first, "greedy");
  EXPECT_EQ(ft.discordant[0].second, "in-order");
  for (const auto& a : agreements) EXPECT_NE(data.contexts[a.context].workload, "npb:is:W:16");
}

TEST(ReportAgreement, SummarisesPerMachineModelAndMetric) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", agreement_runs());
  const auto data = read(dir);
  // link_bytes_max = hop_bytes in every run: the same agreement. Given first, listed second.
  auto agreements = agreement(data, "link_bytes_max");
  for (auto& a : agreement(data, "hop_bytes")) agreements.push_back(std::move(a));
  const auto summary = summarise(data, agreements);
  ASSERT_EQ(summary.size(), 4U);
  const auto expect = [](const AgreementSummary& s, std::string_view machine,
                         std::string_view metric, std::size_t contexts,
                         std::optional<double> mean_rho, std::size_t pairs,
                         std::size_t discordant) {
    EXPECT_EQ(s.machine, machine);
    EXPECT_EQ(s.model, "flow");
    EXPECT_EQ(s.metric, metric);
    EXPECT_EQ(s.contexts, contexts);
    ASSERT_EQ(s.mean_rho.has_value(), mean_rho.has_value());
    if (mean_rho) {
      EXPECT_NEAR(*s.mean_rho, *mean_rho, kTolerance);
    }
    EXPECT_EQ(s.pairs, pairs);
    EXPECT_EQ(s.discordant, discordant);
  };
  // mesh: lu only (rho 0.2, 6 pairs, 3 discordant). torus: lu, cg, ft: rho 0.2 (ft has none,
  // and cg's 0.5 is no finding: 2 of its 3 pairs are tied), pairs 6 + 3 + 1, discordant
  // 3 + 0 + 1.
  expect(summary[0], "mesh:4x4", "hop_bytes", 1, 0.2, 6, 3);
  expect(summary[1], "mesh:4x4", "link_bytes_max", 1, 0.2, 6, 3);
  expect(summary[2], "torus:4x4", "hop_bytes", 3, 0.2, 10, 4);
  expect(summary[3], "torus:4x4", "link_bytes_max", 3, 0.2, 10, 4);
  EXPECT_EQ(summary[0].mostly_tied, 0U);
  EXPECT_EQ(summary[2].mostly_tied, 1U);  // cg
  EXPECT_EQ(summary[2].ties, 2U);
  EXPECT_EQ(summary[2].tie_tolerance, kDefaultTieTolerance);
}

TEST(ReportAgreement, NearTiesWithinTheToleranceAreTies) {
  // in-order 100000 bytes / 3 s, greedy 100050 (0.05 % more) / 1 s, random 200000 / 2 s.
  const TempDir dir;
  add_runs(dir.path() / "r.db", {run_of("in-order", 100000, 3.0, "npb:mg:W:16"),
                                 run_of("greedy", 100050, 1.0, "npb:mg:W:16"),
                                 run_of("random", 200000, 2.0, "npb:mg:W:16")});
  const auto data = read(dir);
  // Exact (tolerance 0): static ranks (1, 2, 3), time ranks (3, 1, 2), sum d^2 = 4 + 1 + 1,
  // rho = 1 - 6 * 6 / (3 * 8) = -0.5; in-order/greedy and in-order/random discordant.
  const auto exact = agreement(data, "hop_bytes", 0);
  ASSERT_EQ(exact.size(), 1U);
  ASSERT_TRUE(exact[0].rho);
  EXPECT_NEAR(*exact[0].rho, -0.5, kTolerance);
  EXPECT_EQ(exact[0].discordant.size(), 2U);
  EXPECT_EQ(exact[0].ties, 0U);
  // Within 0.1 %: in-order and greedy tie by hop-bytes, static ranks (1.5, 1.5, 3): centred
  // (-0.5, -0.5, 1) against (1, -1, 0), covariance 0, rho 0. Only in-order/random is
  // discordant, one pair tied, one alike: not mostly tied.
  const auto tolerant = agreement(data, "hop_bytes");
  ASSERT_EQ(tolerant.size(), 1U);
  ASSERT_TRUE(tolerant[0].rho);
  EXPECT_NEAR(*tolerant[0].rho, 0, kTolerance);
  ASSERT_EQ(tolerant[0].discordant.size(), 1U);
  EXPECT_EQ(tolerant[0].discordant[0].first, "in-order");
  EXPECT_EQ(tolerant[0].discordant[0].second, "random");
  EXPECT_EQ(tolerant[0].ties, 1U);
  EXPECT_FALSE(tolerant[0].mostly_tied());
  // At 1 % the times 1, 2, 3 s still differ, so still one tie.
  EXPECT_EQ(agreement(data, "hop_bytes", 0.01)[0].ties, 1U);
  // At 60 %, 2 s ties with 3 s (1 <= 0.6 * 3) and with 1 s (1 <= 0.6 * 2), though 1 s and 3 s
  // do not (2 > 1.8); 100000 and 200000 bytes tie too (100000 <= 120000): every pair is tied on
  // one side or both, 3 of 3: mostly tied.
  const auto loose = agreement(data, "hop_bytes", 0.6);
  EXPECT_EQ(loose[0].ties, 3U);
  EXPECT_TRUE(loose[0].mostly_tied());
  EXPECT_TRUE(loose[0].discordant.empty());
}

TEST(ReportQuery, WhereSelectsRuns) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", agreement_runs());
  ReportQuery query;
  query.where = "machine = 'mesh:4x4' AND mapper <> 'random'";
  const auto data = read(dir, query);
  ASSERT_EQ(data.contexts.size(), 1U);
  EXPECT_THAT(mappers_of(data.contexts[0]), ElementsAre("in-order", "greedy", "scotch"));
  query.where = "ranks > 16";
  EXPECT_TRUE(read(dir, query).contexts.empty());
}

TEST(ReportQuery, BadWhereOrMetricIsAnInputError) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", {run_of("in-order", 1, 1.0)});
  ReportQuery query;
  query.where = "no_such_column = 1";
  EXPECT_THAT(input_error([&] { (void)read(dir, query); }),
              AllOf(HasSubstr("--where 'no_such_column = 1'"), HasSubstr("no_such_column")));
  query.where.clear();
  query.time_metric = "makespan";
  EXPECT_THAT(input_error([&] { (void)read(dir, query); }),
              AllOf(HasSubstr("unknown time metric 'makespan'"), HasSubstr("makespan_s"),
                    HasSubstr("mpi_time_max_s")));
  query.time_metric = "makespan_s";
  query.scaling_metric = "hops";
  EXPECT_THAT(input_error([&] { (void)read(dir, query); }),
              AllOf(HasSubstr("unknown scaling metric 'hops'"), HasSubstr("hop_bytes")));
}

TEST(ReportQuery, MetricsEndWithTimeAndScalingMetric) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", {run_of("in-order", 1, 1.0)});
  ReportQuery query;
  query.time_metric = "mpi_time_max_s";
  query.scaling_metric = "hop-bytes";  // as hop_bytes
  // The critical path's parts need the makespan: it comes after the energy.
  EXPECT_THAT(
      read(dir, query).metrics,
      ElementsAre("hop_bytes", "link_bytes_max", "dilation_max", "busiest_link_s",
                  "link_load_squares", "latency_s", "mpi_time_max_s", "energy_j", "makespan_s",
                  "critical_compute_s", "critical_overhead_s", "critical_latency_s",
                  "critical_bandwidth_s", "critical_contention_s", "critical_waiting_s"));
  query.scaling_metric = "makespan_s";
  const auto data = read(dir, query);
  EXPECT_THAT(
      data.metrics,
      ElementsAre("hop_bytes", "link_bytes_max", "dilation_max", "busiest_link_s",
                  "link_load_squares", "latency_s", "mpi_time_max_s", "makespan_s", "energy_j",
                  "critical_compute_s", "critical_overhead_s", "critical_latency_s",
                  "critical_bandwidth_s", "critical_contention_s", "critical_waiting_s"));
  // The energy is one column, whichever metric the time or the scaling is.
  query.scaling_metric = "energy_j";
  EXPECT_THAT(
      read(dir, query).metrics,
      ElementsAre("hop_bytes", "link_bytes_max", "dilation_max", "busiest_link_s",
                  "link_load_squares", "latency_s", "mpi_time_max_s", "energy_j", "makespan_s",
                  "critical_compute_s", "critical_overhead_s", "critical_latency_s",
                  "critical_bandwidth_s", "critical_contention_s", "critical_waiting_s"));
  EXPECT_EQ(data.metric_index("makespan_s"), 7U);
  // No mpi_time_max_ps stored: no value.
  EXPECT_FALSE(data.contexts.at(0).rows.at(0).values[ReportData::kTime]);
  EXPECT_THAT(input_error([&] { (void)data.metric_index("ienlc"); }), HasSubstr("'ienlc'"));
}

std::vector<LinkLoad> links(bool replayed, std::int64_t bytes = 100) {
  std::vector<LinkLoad> out;
  for (std::int64_t l = 2; l >= 0; --l) {
    out.push_back({l, l, l + 1, "torus", bytes + l, replayed ? std::optional(bytes) : std::nullopt,
                   std::nullopt, std::nullopt});
  }
  return out;
}

TEST(ReportLinks, ReadsARunsLinksByNameOrKey) {
  const TempDir dir;
  auto replayed = run_of("greedy", 1, 1.0);
  replayed.name = "lu-greedy";
  replayed.links = links(true);
  auto static_only = run_of("random", 1, std::nullopt);
  static_only.name = "lu-random";
  static_only.links = links(false);
  auto none = run_of("in-order", 1, 1.0);
  none.name = "lu-in-order";
  const auto keys = add_runs(dir.path() / "r.db", {replayed, static_only, none});
  Store store(dir.path() / "r.db", Store::Access::Read);
  const auto by_name = read_link_loads(store, "lu-greedy");
  EXPECT_EQ(by_name.key, keys[0]);
  EXPECT_EQ(by_name.name, "lu-greedy");
  EXPECT_EQ(by_name.workload, "npb:lu:W:16");
  EXPECT_EQ(by_name.machine, "torus:4x4");
  EXPECT_EQ(by_name.topology, "torus:4x4");
  EXPECT_EQ(by_name.mapper, "greedy");
  EXPECT_EQ(by_name.model, "flow");
  EXPECT_TRUE(by_name.replayed);
  ASSERT_EQ(by_name.links.size(), 3U);
  for (std::size_t l = 0; l < 3; ++l) {
    const auto id = static_cast<std::int64_t>(l);
    EXPECT_EQ(by_name.links[l].link, id);  // ordered by link
    EXPECT_EQ(by_name.links[l].static_bytes, 100 + id);
    EXPECT_EQ(by_name.links[l].bytes, 100);
  }
  const auto by_prefix = read_link_loads(store, keys[1].substr(0, 12));
  EXPECT_EQ(by_prefix.name, "lu-random");
  EXPECT_EQ(by_prefix.model, "static");
  EXPECT_FALSE(by_prefix.replayed);
  EXPECT_EQ(read_link_loads(store, keys[1]).key, keys[1]);

  EXPECT_THAT(input_error([&] { (void)read_link_loads(store, "no-such-run"); }),
              HasSubstr("'no-such-run': no run"));
  EXPECT_THAT(input_error([&] { (void)read_link_loads(store, keys[0].substr(0, 5)); }),
              HasSubstr("no run"));
  EXPECT_THAT(input_error([&] { (void)read_link_loads(store, "lu-in-order"); }),
              AllOf(HasSubstr("'lu-in-order'"), HasSubstr("mapsim run --store-links")));
}

TEST(ReportLinks, DefaultHeatMapsAreInOrderAndTheFastestOfTheLargestContext) {
  const TempDir dir;
  const auto with_links = [](HandRun run) {
    run.links = links(run.makespan_s.has_value());
    return run;
  };
  std::vector<HandRun> runs{
      // 16 ranks: smaller.
      with_links(run_of("in-order", 1, 1.0)), with_links(run_of("greedy", 1, 0.5)),
      // 64 ranks: in-order, greedy 2 s, random 1 s; scotch is faster but has no links; a repeat
      // of greedy is faster still but only repeat 0 counts.
      with_links(run_of("greedy", 1, 2.0, "npb:lu:W:64", 64)),
      with_links(run_of("in-order", 1, 4.0, "npb:lu:W:64", 64)),
      with_links(run_of("random", 1, 1.0, "npb:lu:W:64", 64)),
      run_of("scotch", 1, 0.5, "npb:lu:W:64", 64),
      with_links(run_of("greedy", 1, 0.1, "npb:lu:W:64", 64)),
      // Static runs, 16 ranks on mesh: by hop-bytes.
      with_links(run_of("in-order", 30, std::nullopt, "npb:lu:W:16", 16, "mesh:4x4")),
      with_links(run_of("greedy", 20, std::nullopt, "npb:lu:W:16", 16, "mesh:4x4")),
      with_links(run_of("random", 10, std::nullopt, "npb:lu:W:16", 16, "mesh:4x4"))};
  runs[6].repeat = 1;
  const auto keys = add_runs(dir.path() / "r.db", runs);
  Store store(dir.path() / "r.db", Store::Access::Read);
  EXPECT_THAT(default_heatmap_runs(store, ""), ElementsAre(keys[3], keys[4]));
  EXPECT_THAT(default_heatmap_runs(store, "ranks = 16 AND model = 'flow'"),
              ElementsAre(keys[0], keys[1]));
  EXPECT_THAT(default_heatmap_runs(store, "model = 'static'"), ElementsAre(keys[7], keys[9]));
  // Without in-order: only the fastest.
  EXPECT_THAT(default_heatmap_runs(store, "ranks = 64 AND mapper <> 'in-order'"),
              ElementsAre(keys[4]));
  EXPECT_TRUE(default_heatmap_runs(store, "mapper = 'scotch'").empty());
  EXPECT_THAT(input_error([&] { (void)default_heatmap_runs(store, "nonsense("); }),
              HasSubstr("--where 'nonsense('"));
}

TEST(ReportLinks, NoDefaultHeatMapsWithoutStoredLinks) {
  const TempDir dir;
  add_runs(dir.path() / "r.db", agreement_runs());
  Store store(dir.path() / "r.db", Store::Access::Read);
  EXPECT_TRUE(default_heatmap_runs(store, "").empty());
}

}  // namespace
}  // namespace mapsim::exp
