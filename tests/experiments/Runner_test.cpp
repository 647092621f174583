// The sweep runner: what it stores, what it skips, failures, staleness, reuse and interrupts.

#include "experiments/Runner.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <thread>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Store.hpp"
#include "experiments/Workloads.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"
#include "tests/experiments/SweepTestSupport.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::exp {
namespace {

using mapsim::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace mapsim::exp::testing;

constexpr double kTolerance = 1e-12;

/// One workload on one machine with two mappers: 2 runs over 2 mappings.
constexpr std::string_view kTwoRuns = R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:2x2]
mappers: [in-order, greedy]
models: [flow]
sim: {compute-scale: 0}
)";

std::string status_of(const std::filesystem::path& database, const std::string& key) {
  sql::Connection db(database, sql::Connection::Mode::ReadWrite);
  auto select = db.prepare("SELECT status FROM runs WHERE run_key = ?");
  select.bind(1, key);
  return select.step() ? select.text(0) : "absent";
}

TEST(Runner, StoresEveryRunOnceAsDone) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kSmallSweep);
  ASSERT_EQ(sweep.runs.size(), kSmallSweepRuns);
  ASSERT_EQ(distinct(sweep, &Run::mapping_key), kSmallSweepMappings);
  const auto db = dir.path() / "r.db";
  const auto report = run(sweep, db, 2);

  EXPECT_EQ(report.runs, kSmallSweepRuns);
  EXPECT_EQ(report.to_run, kSmallSweepRuns);
  EXPECT_EQ(report.done, kSmallSweepRuns);
  EXPECT_EQ(report.failed, 0U);
  EXPECT_EQ(report.already_done, 0U);
  EXPECT_EQ(report.stale, 0U);
  EXPECT_EQ(report.taken, 0U);
  EXPECT_EQ(report.discarded, 0U);
  EXPECT_EQ(report.commits, kSmallSweepRuns);
  EXPECT_FALSE(report.interrupted);
  // One mapper call per mapping key (flow and analytic share it); each workload loaded once.
  EXPECT_EQ(report.mapper_invocations, kSmallSweepMappings);
  EXPECT_LT(report.mapper_invocations, report.runs);
  EXPECT_EQ(report.mappings_reused, 0U);
  EXPECT_EQ(report.workloads_loaded, 2U);

  const auto rows = select_all(db,
                               "SELECT run_key, name, status, pid, makespan_ps IS NOT NULL, "
                               "hop_bytes IS NOT NULL, finished_at IS NOT NULL FROM runs "
                               "ORDER BY run_key");
  ASSERT_EQ(rows.size(), sweep.runs.size());
  std::map<std::string, std::string> names;
  for (const auto& r : sweep.runs) names.emplace(r.key, r.name);
  for (const auto& row : rows) {
    const auto key = std::get<std::string>(row[0]);
    ASSERT_TRUE(names.contains(key)) << key;
    EXPECT_EQ(std::get<std::string>(row[1]), names.at(key));
    EXPECT_EQ(std::get<std::string>(row[2]), "done");
    EXPECT_EQ(std::get<std::int64_t>(row[3]), ::getpid());
    EXPECT_EQ(row[4], schema::Value(std::int64_t{1}));
    EXPECT_EQ(row[5], schema::Value(std::int64_t{1}));
    EXPECT_EQ(row[6], schema::Value(std::int64_t{1}));
  }
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM mappings"),
            static_cast<std::int64_t>(kSmallSweepMappings));
  // Every run's mapping is stored, with the run's rank count.
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs JOIN mappings USING (mapping_key) "
                  "WHERE mappings.ranks = runs.ranks AND length(mappings.nodes) = 4 * runs.ranks"),
            static_cast<std::int64_t>(kSmallSweepRuns));
}

// Energy: every run stores the traffic's energy and, when it replays, the network's (sim/
// Energy.hpp); with every class at idle 0 W, busy 1 W and no per-bit term, the network's energy
// is the links' busy time, which the links table holds. Energy parameters that are not the
// defaults are in the key; the normalized view divides energies by in-order's.
TEST(Runner, StoresTheEnergyOfEveryRun) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines:
  - torus:2x2
  - topology: torus:2x2
    label: unit
    links:
      grid: {pj-per-bit: 0, idle-w: 0, busy-w: 1}
      intra-node: {pj-per-bit: 0, idle-w: 0, busy-w: 1}
mappers: [in-order, greedy]
models: [flow, static]
store: {links: true}
sim: {compute-scale: 0}
)");
  const auto db = dir.path() / "r.db";
  (void)run(sweep, db, 1);
  for (const auto& r : sweep.runs) {
    EXPECT_EQ(canonical_config(sweep, r).find("link-energy: grid:0:0:1,intra-node:0:0:1\n") !=
                  std::string::npos,
              r.name.find("unit") != std::string::npos)
        << r.name;
  }
  // Defaults: a traffic energy and a replayed energy, positive; static runs have no replay.
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE machine = 'torus:2x2' AND model = 'flow' AND "
                  "traffic_energy_j > 0 AND energy_j > energy_dynamic_j AND energy_dynamic_j > 0 "
                  "AND abs(power_w - energy_j / (makespan_ps * 1e-12)) < 1e-9 * power_w"),
            2);
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE model = 'static' AND energy_j IS NULL AND "
                  "traffic_energy_j IS NOT NULL"),
            4);
  // Unit busy power: energy = sum of the links' busy time.
  const auto rows = select_all(db,
                               "SELECT r.energy_j, r.traffic_energy_j, (SELECT sum(busy_ps) * "
                               "1e-12 FROM links WHERE links.run_key = r.run_key) FROM runs AS r "
                               "WHERE r.machine = 'unit' AND r.model = 'flow'");
  ASSERT_EQ(rows.size(), 2U);
  for (const auto& row : rows) {
    const double busy = std::get<double>(row[2]);
    EXPECT_GT(busy, 0);
    EXPECT_NEAR(std::get<double>(row[0]), busy, busy * 1e-6);
    EXPECT_EQ(std::get<double>(row[1]), 0.0);
  }
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM normalized WHERE mapper = 'in-order' AND model = 'flow' "
                  "AND energy_j = 1.0"),
            2);
}

TEST(Runner, SecondRunDoesNothing) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kSmallSweep);
  const auto db = dir.path() / "r.db";
  (void)run(sweep, db);
  const auto before = select_all(db, "SELECT * FROM runs ORDER BY run_key");
  const auto again = run(sweep, db);
  EXPECT_EQ(again.runs, kSmallSweepRuns);
  EXPECT_EQ(again.already_done, kSmallSweepRuns);
  EXPECT_EQ(again.to_run, 0U);
  EXPECT_EQ(again.done, 0U);
  EXPECT_EQ(again.mapper_invocations, 0U);
  EXPECT_EQ(again.workloads_loaded, 0U);
  EXPECT_EQ(again.commits, 0U);
  // Not a single value changed, provenance included.
  EXPECT_EQ(select_all(db, "SELECT * FROM runs ORDER BY run_key"), before);
}

TEST(Runner, ResultsDoNotDependOnJobs) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kSmallSweep);
  const auto one = dir.path() / "one.db";
  const auto two = dir.path() / "two.db";
  for (const auto& [database, jobs] : {std::pair{one, 1}, std::pair{two, 2}}) {
    RunnerOptions options;
    options.database = database;
    options.jobs = jobs;
    options.store_links = true;
    EXPECT_EQ(run_sweep(sweep, options).done, kSmallSweepRuns);
  }
  const auto results_one = select_all(one, results_query());
  ASSERT_EQ(results_one.size(), kSmallSweepRuns);
  EXPECT_EQ(select_all(two, results_query()), results_one);
  EXPECT_EQ(select_all(two, kMappingsQuery), select_all(one, kMappingsQuery));
  const std::string links = "SELECT * FROM links ORDER BY run_key, link";
  const auto links_one = select_all(one, links);
  EXPECT_FALSE(links_one.empty());
  EXPECT_EQ(select_all(two, links), links_one);
}

TEST(Runner, MapperThatCannotFitFailsAndSweepCompletes) {
  const TempDir dir;
  // 16 ranks do not fit on 4 nodes of 1 core; the 4-rank workload does.
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [stencil2d:S:16:iterations=1, {generate: npb:lu:S:4, iterations: 1}]
machines: [torus:2x2]
mappers: [in-order, greedy]
models: [flow]
sim: {compute-scale: 0}
)");
  const auto db = dir.path() / "r.db";
  const auto report = run(sweep, db);
  EXPECT_EQ(report.runs, 4U);
  EXPECT_EQ(report.failed, 2U);
  EXPECT_EQ(report.done, 2U);
  const auto failed = select_all(db,
                                 "SELECT workload, message, hop_bytes, makespan_ps FROM runs "
                                 "WHERE status = 'failed' ORDER BY mapper");
  ASSERT_EQ(failed.size(), 2U);
  for (const auto& row : failed) {
    EXPECT_EQ(std::get<std::string>(row[0]), "stencil2d:S:16:iterations=1");
    EXPECT_THAT(std::get<std::string>(row[1]), StartsWith("mapper '"));
    EXPECT_EQ(row[2], schema::Value());
    EXPECT_EQ(row[3], schema::Value());
  }
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE status = 'done' AND workload LIKE "
                  "'npb:lu%'"),
            2);
  // Failed runs stay failed: not run again without rerun_failed.
  const auto again = run(sweep, db);
  EXPECT_EQ(again.already_failed, 2U);
  EXPECT_EQ(again.already_done, 2U);
  EXPECT_EQ(again.to_run, 0U);
}

/// A generated lu:S:4 archive in DIR/lu, and a config with it and a generated workload.
Sweep damaged_trace_sweep(const TempDir& dir,
                          const std::function<void(const std::filesystem::path&)>& damage) {
  traces::GeneratorOptions options;
  options.kernel = "lu";
  options.problem_class = 'S';
  options.ranks = 4;
  options.iterations = 1;
  (void)traces::write_generated_trace(options, dir.path() / "lu");
  damage(dir.path() / "lu");
  return make_sweep(dir.path(), R"(
workloads: [{trace: lu/traces.otf2, label: damaged}, {generate: npb:lu:S:4, iterations: 1}]
machines: [torus:2x2]
mappers: [in-order, greedy]
models: [flow]
sim: {compute-scale: 0}
)");
}

void expect_damaged_runs_failed(const std::filesystem::path& db, const RunnerReport& report) {
  EXPECT_EQ(report.runs, 4U);
  EXPECT_EQ(report.failed, 2U);
  EXPECT_EQ(report.done, 2U);
  const auto failed = select_all(db, "SELECT workload, message FROM runs WHERE status = 'failed'");
  ASSERT_EQ(failed.size(), 2U);
  for (const auto& row : failed) {
    EXPECT_EQ(std::get<std::string>(row[0]), "damaged");
    EXPECT_THAT(std::get<std::string>(row[1]), StartsWith("workload: "));
  }
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE status = 'done' AND workload <> "
                  "'damaged'"),
            2);
}

TEST(Runner, DamagedTraceDefinitionsFailTheirRuns) {
  const TempDir dir;
  const auto sweep = damaged_trace_sweep(dir, [](const std::filesystem::path& archive) {
    const auto definitions = archive / "traces.def";
    std::filesystem::resize_file(definitions, std::filesystem::file_size(definitions) / 2);
  });
  const auto db = dir.path() / "r.db";
  const auto report = run(sweep, db);
  expect_damaged_runs_failed(db, report);
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE status = 'failed' AND message LIKE "
                  "'%traces.def%'"),
            2);
}

TEST(Runner, DamagedTraceEventsFailTheirRuns) {
  const TempDir dir;
  const auto sweep = damaged_trace_sweep(dir, [](const std::filesystem::path& archive) {
    const auto events = archive / "traces" / "2.evt";
    std::filesystem::resize_file(events, std::filesystem::file_size(events) / 2);
  });
  // The definitions are intact: the damage shows only when the events are read.
  ASSERT_EQ(sweep.inputs[0].error, "");
  const auto db = dir.path() / "r.db";
  const auto report = run(sweep, db);
  expect_damaged_runs_failed(db, report);
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE status = 'failed' AND message LIKE "
                  "'%2.evt%'"),
            2);
}

/// lu:S:4 with its 50 iterations: far more than the 4096 engine events between time checks.
constexpr std::string_view kLongReplay = R"(
workloads: [npb:lu:S:4]
machines: [torus:2x2]
mappers: [in-order]
models: [flow, analytic]
sim: {compute-scale: 0}
)";

TEST(Runner, TimeLimitFailsTheReplayAndRerunFailedRunsItAgain) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kLongReplay);
  const auto db = dir.path() / "r.db";
  RunnerOptions options;
  options.database = db;
  options.jobs = 1;
  options.time_limit = 1e-9;
  const auto limited = run_sweep(sweep, options);
  EXPECT_EQ(limited.failed, 2U);
  EXPECT_EQ(limited.done, 0U);
  const auto failed = select_all(db,
                                 "SELECT message, hop_bytes, makespan_ps FROM runs "
                                 "WHERE status = 'failed'");
  ASSERT_EQ(failed.size(), 2U);
  for (const auto& row : failed) {
    EXPECT_THAT(std::get<std::string>(row[0]),
                AllOf(StartsWith("replay: "), HasSubstr("time limit")));
    EXPECT_EQ(row[1], schema::Value());  // a failed run keeps no partial results
    EXPECT_EQ(row[2], schema::Value());
  }

  // Without rerun_failed they stay failed; with it they run again, now without a limit.
  options.time_limit.reset();
  const auto skipped = run_sweep(sweep, options);
  EXPECT_EQ(skipped.already_failed, 2U);
  EXPECT_EQ(skipped.to_run, 0U);
  options.rerun_failed = true;
  const auto rerun = run_sweep(sweep, options);
  EXPECT_EQ(rerun.to_run, 2U);
  EXPECT_EQ(rerun.done, 2U);
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE status = 'done' AND message IS NULL AND "
                  "engine_events > 4096"),
            2);
}

TEST(Runner, StaleRowOfDeadRunnerIsRunAgain) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kTwoRuns);
  const auto db = dir.path() / "r.db";
  {
    Store store(db, Store::Access::Write);
    const auto ghost = owner_with_pid(dead_pid(), "ghost");
    const std::vector<RunIdentity> runs{identity(sweep, sweep.runs[0])};
    ASSERT_EQ(store.claim(runs, ghost, false), std::vector<bool>{true});
    EXPECT_EQ(store.state(sweep.runs[0].key).status, RunStatus::Stale);
  }
  const auto report = run(sweep, db);
  EXPECT_EQ(report.stale, 1U);
  EXPECT_EQ(report.to_run, 2U);
  EXPECT_EQ(report.done, 2U);
  EXPECT_EQ(report.taken, 0U);
  const auto rows = select_all(db, "SELECT status, pid, owner FROM runs ORDER BY run_key");
  ASSERT_EQ(rows.size(), 2U);
  for (const auto& row : rows) {
    EXPECT_EQ(row[0], schema::Value(std::string("done")));
    EXPECT_EQ(row[1], schema::Value(std::int64_t{::getpid()}));
    EXPECT_NE(row[2], schema::Value(std::string("ghost")));
  }
}

TEST(Runner, RowLeftUnderOurPidByAnotherRunnerIsRunAgain) {
  // Store.hpp: a running row of this host whose pid is ours but whose token is not (a runner
  // that died, its pid since reused by this process) is stale, and a runner re-runs it.
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kTwoRuns);
  const auto db = dir.path() / "r.db";
  {
    Store store(db, Store::Access::Write);
    const std::vector<RunIdentity> runs{identity(sweep, sweep.runs[0])};
    ASSERT_EQ(store.claim(runs, owner_with_pid(::getpid(), "earlier runner"), false),
              std::vector<bool>{true});
  }
  const auto report = run(sweep, db);
  EXPECT_EQ(report.running_elsewhere, 0U);
  EXPECT_EQ(report.stale, 1U);
  EXPECT_EQ(report.done, 2U);
  EXPECT_EQ(status_of(db, sweep.runs[0].key), "done");
}

TEST(Runner, RowOfLiveRunnerIsLeftAlone) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kTwoRuns);
  const auto db = dir.path() / "r.db";
  const auto live = owner_with_pid(::getppid(), "live runner");
  {
    Store store(db, Store::Access::Write);
    const std::vector<RunIdentity> runs{identity(sweep, sweep.runs[1])};
    ASSERT_EQ(store.claim(runs, live, false), std::vector<bool>{true});
  }
  const auto report = run(sweep, db);
  EXPECT_EQ(report.running_elsewhere, 1U);
  EXPECT_EQ(report.to_run, 1U);
  EXPECT_EQ(report.done, 1U);
  EXPECT_EQ(status_of(db, sweep.runs[0].key), "done");
  EXPECT_EQ(status_of(db, sweep.runs[1].key), "running");
  EXPECT_EQ(count(db, "SELECT pid FROM runs WHERE status = 'running'"), ::getppid());
}

TEST(Runner, ReusesMappingsStoredByAnEarlierSweep) {
  const TempDir dir;
  const auto db = dir.path() / "r.db";
  const auto first = make_sweep(dir.path(), R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:4x4]
mappers: [in-order, random, greedy]
models: [flow]
sim: {compute-scale: 0}
)");
  const auto report1 = run(first, db);
  EXPECT_EQ(report1.mapper_invocations, 3U);
  const auto mappings = select_all(db, kMappingsQuery);
  ASSERT_EQ(mappings.size(), 3U);

  // A model and a mapper more: the three old mappings come from the database.
  const auto second = make_sweep(dir.path(), R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:4x4]
mappers: [in-order, random, greedy, round-robin]
models: [flow, analytic]
sim: {compute-scale: 0}
)");
  const auto report2 = run(second, db);
  EXPECT_EQ(report2.runs, 8U);
  EXPECT_EQ(report2.already_done, 3U);
  EXPECT_EQ(report2.to_run, 5U);
  EXPECT_EQ(report2.done, 5U);
  EXPECT_EQ(report2.mappings_reused, 3U);
  EXPECT_EQ(report2.mapper_invocations, 1U);  // round-robin only
  const auto after = select_all(db, kMappingsQuery);
  ASSERT_EQ(after.size(), 4U);
  for (const auto& row : mappings) {
    EXPECT_NE(std::find(after.begin(), after.end(), row), after.end());
  }
  // Each analytic run uses the mapping of the flow run with the same mapper.
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs AS a JOIN runs AS f USING (mapping_key) "
                  "WHERE a.model = 'analytic' AND f.model = 'flow'"),
            4);
}

TEST(Runner, InterruptBeforeTheStartRunsNothing) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kSmallSweep);
  const auto db = dir.path() / "r.db";
  const std::atomic<bool> interrupt{true};
  RunnerOptions options;
  options.database = db;
  options.jobs = 2;
  options.interrupt = &interrupt;
  const auto report = run_sweep(sweep, options);
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.done, 0U);
  EXPECT_EQ(report.failed, 0U);
  EXPECT_EQ(report.mapper_invocations, 0U);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs"), 0);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM mappings"), 0);
  // The next sweep does everything.
  EXPECT_EQ(run(sweep, db).done, kSmallSweepRuns);
}

TEST(Runner, InterruptMidwayKeepsExactlyTheFinishedRuns) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kSmallSweep);
  const auto db = dir.path() / "r.db";
  std::atomic<bool> interrupt{false};
  std::atomic<bool> over{false};
  RunnerOptions options;
  options.database = db;
  options.jobs = 2;
  options.interrupt = &interrupt;
  // Interrupts as soon as a first run is stored (or never, if the sweep is over first).
  std::thread watcher([&] {
    while (!over.load()) {
      std::error_code error;
      if (std::filesystem::exists(db, error)) {
        try {
          if (count(db, "SELECT COUNT(*) FROM runs WHERE status = 'done'") > 0) {
            interrupt = true;
            return;
          }
        } catch (const InputError&) {
          // The database is still being created.
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  RunnerReport report;
  try {
    report = run_sweep(sweep, options);
  } catch (...) {
    over = true;
    watcher.join();
    throw;
  }
  over = true;
  watcher.join();
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE status NOT IN ('done', 'failed')"), 0);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE status = 'done'"),
            static_cast<std::int64_t>(report.done));
  EXPECT_EQ(report.failed, 0U);
  const auto rest = run(sweep, db);
  EXPECT_EQ(rest.already_done, report.done);
  EXPECT_EQ(rest.done, kSmallSweepRuns - report.done);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE status = 'done'"),
            static_cast<std::int64_t>(kSmallSweepRuns));
}

// Ctrl-C while replay-search replays (its search would run for hours: a huge budget, no stall):
// the run is left to the next `mapsim run`, neither stored as failed nor done.
TEST(Runner, InterruptDuringAReplaySearchStoresNoFailure) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [npb:lu:S:8]
machines: [torus:2x2x2]
mappers: [{name: replay-search, params: {evaluations: 1000000, stall: 1000000, portfolio: in-order}}]
models: [flow]
)");
  const auto db = dir.path() / "r.db";
  std::atomic<bool> interrupt{false};
  RunnerOptions options;
  options.database = db;
  options.jobs = 1;
  options.interrupt = &interrupt;
  std::thread watcher([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    interrupt = true;
  });
  RunnerReport report;
  try {
    report = run_sweep(sweep, options);
  } catch (...) {
    watcher.join();
    throw;
  }
  watcher.join();
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.failed, 0U);
  EXPECT_EQ(report.done, 0U);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE status IN ('done', 'failed')"), 0);
}

TEST(Runner, StaticModelStoresStaticMetricsOnly) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:2x2, mesh:2x2]
mappers: [in-order, greedy]
models: [static]
)");
  const auto db = dir.path() / "r.db";
  EXPECT_EQ(run(sweep, db).done, 4U);
  std::string any_simulation = "0";
  for (const auto& c : schema::simulation_columns())
    any_simulation += fmt::format(" OR {} IS NOT NULL", c.name);
  std::string every_static = "1";
  for (const auto& c : schema::static_columns())
    every_static += fmt::format(" AND {} IS NOT NULL", c.name);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE " + any_simulation), 0);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE " + every_static), 4);
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE model = 'static' AND model_label = "
                  "'static' AND eager_threshold IS NULL AND compute_scale IS NULL AND "
                  "whole_run IS NULL AND hop_bytes > 0"),
            4);
}

// The critical path (sim/Result.hpp, CriticalPath): every replayed run stores its parts, which
// add up to its makespan exactly, overheads included only when the replay charges them; a
// static run does not replay and stores none.
TEST(Runner, StoresTheCriticalPathOfReplayedRuns) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:2x2, mesh:2x2:cores=2]
mappers: [in-order, greedy]
models: [flow, packet, static]
mpi: {overheads: typical}
)");
  const auto db = dir.path() / "r.db";
  EXPECT_EQ(run(sweep, db).done, 12U);
  const std::string parts[] = {"critical_compute_ps",    "critical_overhead_ps",
                               "critical_latency_ps",    "critical_bandwidth_ps",
                               "critical_contention_ps", "critical_waiting_ps"};
  std::string every = "critical_transfers IS NOT NULL";
  std::string none = "critical_transfers IS NULL";
  std::string sum = "0";
  for (const auto& part : parts) {
    every += fmt::format(" AND {} IS NOT NULL AND {} >= 0", part, part);
    none += fmt::format(" AND {} IS NULL", part);
    sum += " + " + part;
  }
  EXPECT_EQ(count(db, fmt::format("SELECT COUNT(*) FROM runs WHERE status = 'done' AND model <> "
                                  "'static' AND {} AND {} = makespan_ps",
                                  every, sum)),
            8);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE model = 'static' AND " + none), 4);
  // Under the typical overheads every replayed path holds computation, overheads and messages.
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM runs WHERE model <> 'static' AND critical_compute_ps > 0 "
                  "AND critical_overhead_ps > 0 AND critical_transfers > 0 AND "
                  "critical_latency_ps > 0"),
            8);
}

TEST(Runner, StoredLinkLoadsAddUpToHopBytes) {
  // On direct networks a dimension-order route crosses hops(a, b) links, so the bytes over all
  // links add up to hop-bytes (mappers/Metrics.hpp).
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}, stencil2d:S:16:iterations=1]
machines: [torus:4x4, mesh:2x2:cores=4]
mappers: [in-order, random]
models: [static, flow]
sim: {compute-scale: 0}
store: {links: true}
)");
  const auto db = dir.path() / "r.db";
  EXPECT_EQ(run(sweep, db).done, 16U);
  const auto sums = select_all(db,
                               "SELECT r.name, r.hop_bytes, COALESCE(SUM(l.static_bytes), 0), "
                               "COALESCE(MAX(l.static_bytes), 0), r.link_bytes_max FROM runs AS r "
                               "LEFT JOIN links AS l USING (run_key) GROUP BY r.run_key");
  ASSERT_EQ(sums.size(), 16U);
  std::int64_t total = 0;
  for (const auto& row : sums) {
    SCOPED_TRACE(std::get<std::string>(row[0]));
    EXPECT_EQ(row[2], row[1]);  // sum of link bytes = hop-bytes
    EXPECT_EQ(row[3], row[4]);  // the busiest link
    total += std::get<std::int64_t>(row[1]);
  }
  EXPECT_GT(total, 0);

  // Link by link, the rows are the stored mapping's dimension-order loads (links that carry
  // bytes; intra-node channels carry none statically).
  Store store(db, Store::Access::Read);
  for (const auto& r : sweep.runs) {
    SCOPED_TRACE(r.name);
    const auto& topology = *sweep.machines[r.machine];
    const auto matrix = load(sweep.workload(r), sweep.config.collectives).matrix;
    const auto stored = store.mapping(r.mapping_key);
    ASSERT_TRUE(stored.has_value());
    const auto loads = map::metrics::link_loads(matrix, topology, stored->mapping);
    Table expected;
    for (topo::LinkId l = 0; l < topology.link_count(); ++l) {
      const auto bytes = loads.bytes[static_cast<std::size_t>(l)];
      if (bytes == 0) continue;
      const auto link = topology.link(l);
      expected.push_back({std::int64_t{l}, std::int64_t{link.from}, std::int64_t{link.to},
                          static_cast<std::int64_t>(bytes)});
    }
    auto select = store.connection().prepare(
        "SELECT link, from_node, to_node, static_bytes FROM links WHERE run_key = ? AND "
        "static_bytes > 0 ORDER BY link");
    select.bind(1, r.key);
    Table stored_links;
    while (select.step()) {
      stored_links.push_back({select.value(0), select.value(1), select.value(2), select.value(3)});
    }
    EXPECT_EQ(stored_links, expected);
  }
  // Replays also store what the replay carried; static runs do not.
  EXPECT_GT(count(db,
                  "SELECT COUNT(*) FROM links JOIN runs USING (run_key) WHERE "
                  "runs.model = 'flow' AND links.bytes IS NOT NULL"),
            0);
  EXPECT_EQ(count(db,
                  "SELECT COUNT(*) FROM links JOIN runs USING (run_key) WHERE "
                  "runs.model = 'static' AND links.bytes IS NOT NULL"),
            0);

  // The command line's store_links overrides the config's.
  RunnerOptions options;
  options.database = dir.path() / "no-links.db";
  options.jobs = 1;
  options.store_links = false;
  EXPECT_EQ(run_sweep(sweep, options).done, 16U);
  EXPECT_EQ(count(options.database, "SELECT COUNT(*) FROM links"), 0);
}

TEST(Runner, HandSolvedMatrixMetrics) {
  const TempDir dir;
  // Ranks 0 and 1 send each other one message of 100 bytes.
  (void)dir.write("pair.csv", "src,dst,messages,bytes\n0,1,1,100\n1,0,1,100\n");
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [{matrix: pair.csv}]
machines: [torus:4, torus:4:cores=2]
mappers: [in-order]
models: [flow]
)");
  const auto db = dir.path() / "r.db";
  EXPECT_EQ(run(sweep, db).done, 2U);
  const auto rows = select_all(db,
                               "SELECT cores, workload_kind, model, ranks, collectives, bytes, "
                               "ieplc, self_messages, ianlc, ienlc, hop_bytes, hop_messages, "
                               "dilation_max, dilation_avg, link_bytes_max, link_bytes_min, "
                               "link_messages_max, static_links_used, makespan_ps FROM runs "
                               "ORDER BY cores");
  ASSERT_EQ(rows.size(), 2U);
  const auto integer = [](std::int64_t v) { return schema::Value(v); };
  // One rank per node: in-order puts the ranks on neighbours 0 and 1, one hop apart each way:
  // hop-bytes 2 x 100 x 1 = 200, each direction's link carries 100 bytes in one message.
  const auto& apart = rows[0];
  EXPECT_EQ(apart[0], integer(1));
  EXPECT_EQ(apart[1], schema::Value(std::string("matrix")));
  EXPECT_EQ(apart[2], schema::Value(std::string("static")));  // a matrix has no trace to replay
  EXPECT_EQ(apart[3], integer(2));
  EXPECT_EQ(apart[4], schema::Value());
  EXPECT_EQ(apart[5], integer(200));
  EXPECT_EQ(apart[6], integer(2));
  EXPECT_EQ(apart[7], integer(0));
  EXPECT_EQ(apart[8], integer(0));
  EXPECT_EQ(apart[9], integer(2));
  EXPECT_EQ(apart[10], integer(200));
  EXPECT_EQ(apart[11], integer(2));
  EXPECT_EQ(apart[12], integer(1));
  EXPECT_NEAR(std::get<double>(apart[13]), 1.0, kTolerance);
  EXPECT_EQ(apart[14], integer(100));
  EXPECT_EQ(apart[15], integer(100));
  EXPECT_EQ(apart[16], integer(1));
  EXPECT_EQ(apart[17], integer(2));
  EXPECT_EQ(apart[18], schema::Value());
  // Two cores per node: both ranks on node 0, no hop, no link.
  const auto& together = rows[1];
  EXPECT_EQ(together[0], integer(2));
  EXPECT_EQ(together[5], integer(200));
  EXPECT_EQ(together[8], integer(2));
  EXPECT_EQ(together[9], integer(0));
  EXPECT_EQ(together[10], integer(0));
  EXPECT_EQ(together[12], integer(0));
  EXPECT_EQ(together[17], integer(0));
}

TEST(Runner, RejectsShardsOutOfRangeBeforeOpeningTheDatabase) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kTwoRuns);
  for (const auto& [index, total] :
       {std::pair{0, 3}, std::pair{4, 3}, std::pair{1, 0}, std::pair{-1, 2}}) {
    RunnerOptions options;
    options.database = dir.path() / "r.db";
    options.shard_index = index;
    options.shard_count = total;
    try {
      (void)run_sweep(sweep, options);
      ADD_FAILURE() << "shard " << index << "/" << total << " accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(fmt::format("shard {}/{}", index, total)));
    }
    EXPECT_FALSE(std::filesystem::exists(options.database));
  }
}

TEST(Runner, ShardsPartitionTheRunsByMapping) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kSmallSweep);
  std::size_t runs = 0;
  for (int shard = 1; shard <= 3; ++shard) {
    RunnerOptions options;
    options.database = dir.path() / "r.db";
    options.jobs = 1;
    options.shard_index = shard;
    options.shard_count = 3;
    const auto report = run_sweep(sweep, options);
    EXPECT_EQ(report.already_done, 0U) << "shard " << shard << " overlaps an earlier one";
    EXPECT_EQ(report.done, report.runs);
    runs += report.runs;
  }
  EXPECT_EQ(runs, kSmallSweepRuns);
  EXPECT_EQ(count(dir.path() / "r.db", "SELECT COUNT(*) FROM runs WHERE status = 'done'"),
            static_cast<std::int64_t>(kSmallSweepRuns));
}

TEST(Runner, RunStatesReadTheDatabase) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), kTwoRuns);
  const auto db = dir.path() / "r.db";
  // No database yet: every run is new, and none is created.
  for (const auto& state : run_states(sweep, db)) EXPECT_EQ(state.status, RunStatus::New);
  EXPECT_FALSE(std::filesystem::exists(db));
  (void)run(sweep, db);
  const auto states = run_states(sweep, db);
  ASSERT_EQ(states.size(), 2U);
  for (const auto& state : states) EXPECT_EQ(state.status, RunStatus::Done);
}

}  // namespace
}  // namespace mapsim::exp
