// `mapsim run`, `results`, `merge`, `upgrade` end to end; sweeps killed (-9, Ctrl-C) and resumed.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Schema.hpp"
#include "experiments/Sqlite.hpp"
#include "tests/cli/SmallSweep.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using testing::spawn_mapsim;
using testing::TempDir;
using testing::wait_for;
using Connection = exp::sql::Connection;

using testing::count_rows;
using testing::kSmallConfig;
using testing::kSmallRuns;
using testing::sh;

// 16 ranks do not fit on the 4 nodes of torus:2x2 (1 core each): 2 failed runs, 2 done.
constexpr const char* kFailingConfig = R"(workloads:
  - npb:lu:S:16:iterations=1
  - npb:lu:S:4:iterations=1
machines: [torus:2x2]
mappers: [in-order, random]
models: [flow]
)";

// 2 workloads x 2 machines x 8 mappers x 2 eager thresholds = 64 runs over 32 mappings: about
// 5 s with 2 jobs, long enough to be interrupted in the middle.
constexpr const char* kLongConfig = R"(workloads:
  - npb:lu:W:64:iterations=10
  - npb:bt:W:64:iterations=10
machines: [torus:4x4x4, mesh:4x4x4]
mappers: [in-order, random, hilbert, greedy, rcm, bft, minmd, scotch]
models: [flow]
mpi:
  eager-threshold: [4096, 65536]
sim:
  compute-scale: 0
)";
constexpr int kLongRuns = 64;

std::string integrity(const fs::path& db) {
  Connection connection(db, Connection::Mode::ReadWrite);
  return connection.query_text("PRAGMA integrity_check");
}

/// Every row of a query, each rendered as "col=value | col=value ...".
std::vector<std::string> query_rows(const fs::path& db, const std::string& sql) {
  Connection connection(db, Connection::Mode::ReadOnly);
  auto select = connection.prepare(sql);
  std::vector<std::string> rows;
  while (select.step()) {
    std::string row;
    for (int c = 0; c < select.column_count(); ++c) {
      row += (c == 0 ? "" : " | ") + select.column_name(c) + "=";
      switch (select.type(c)) {
        case 1:
          row += std::to_string(select.integer(c));
          break;
        case 2: {
          char text[64];
          std::snprintf(text, sizeof text, "%.17g", select.real(c));
          row += text;
          break;
        }
        case 5:
          row += "NULL";
          break;
        default:
          row += select.text(c);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

/// The results of every run, ordered by run key: its identity, status, static metrics and
/// simulation results (without the replay's wall time) and its mapping's nodes.
std::vector<std::string> result_rows(const fs::path& db) {
  std::string columns = "r.run_key, r.mapping_key, r.status";
  for (const auto& c : exp::schema::static_columns()) columns += ", r." + std::string(c.name);
  for (const auto& c : exp::schema::simulation_columns()) {
    if (c.name != "sim_seconds") columns += ", r." + std::string(c.name);
  }
  columns += ", hex(m.nodes) AS nodes";
  return query_rows(db, "SELECT " + columns +
                            " FROM runs AS r LEFT JOIN mappings AS m USING (mapping_key) "
                            "ORDER BY r.run_key");
}

/// Who finished each done run and when: unchanged if the run was not run again.
std::vector<std::string> finished_rows(const fs::path& db) {
  return query_rows(db,
                    "SELECT run_key, status, owner, finished_at FROM runs WHERE status = 'done' "
                    "ORDER BY run_key");
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

/// The run lines of `run --dry-run` output: status -> key prefixes.
std::map<std::string, std::set<std::string>> dry_run_keys(const std::string& out) {
  std::map<std::string, std::set<std::string>> keys;
  // "STATUS   KEY12        NAME": a status word, spaces, 12 hex digits, a space.
  for (const auto& line : lines(out)) {
    std::istringstream fields(line);
    std::string status;
    std::string key;
    fields >> status >> key;
    const bool is_status = status == "new" || status == "done" || status == "failed" ||
                           status == "stale" || status == "running";
    if (is_status && key.size() == 12 &&
        key.find_first_not_of("0123456789abcdef") == std::string::npos)
      keys[status].insert(key);
  }
  return keys;
}

std::set<std::string> key_prefixes(const fs::path& db, const std::string& where = "1") {
  std::set<std::string> keys;
  Connection connection(db, Connection::Mode::ReadOnly);
  auto select = connection.prepare("SELECT run_key FROM runs WHERE " + where);
  while (select.step()) keys.insert(select.text(0).substr(0, 12));
  return keys;
}

struct StatusCounts {
  std::int64_t done = 0;
  std::int64_t running = 0;
};

/// The runs done and running in a database a sweep is writing; nullopt while it cannot be read
/// yet (not created, no schema yet).
std::optional<StatusCounts> read_counts(const fs::path& db) {
  try {
    Connection connection(db, Connection::Mode::ReadOnly, 2000);
    auto select = connection.prepare(
        "SELECT COUNT(*) FILTER (WHERE status = 'done'), COUNT(*) FILTER (WHERE status = "
        "'running') FROM runs");
    if (!select.step()) return std::nullopt;
    return StatusCounts{select.integer(0), select.integer(1)};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// Polls the database of the sweep `pid` runs until at least 3 of its `total` runs are done but
/// not all (and, if `need_running`, some are running); returns whether that happened while it
/// was still running.
bool wait_until_partly_done(pid_t pid, const fs::path& db, std::int64_t total, bool need_running) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      ADD_FAILURE() << "the sweep ended before it could be interrupted";
      return false;
    }
    if (const auto counts = read_counts(db)) {
      if (counts->done >= total) return false;
      if (counts->done >= 3 && (!need_running || counts->running > 0)) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

/// A directory with the small config, run into `db` by the test where needed.
struct SmallSweep {
  TempDir dir;
  fs::path config = dir.write("small.yaml", kSmallConfig);
  fs::path db = dir.path() / "results.db";

  [[nodiscard]] testing::RunResult run(const std::string& extra = "") const {
    return run_mapsim("run " + sh(config) + " --db " + sh(db) + " --jobs 2 " + extra);
  }
};

TEST(RunCommand, DryRunListsEveryRunAsNewThenDone) {
  const SmallSweep sweep;
  const auto before = sweep.run("--dry-run");
  EXPECT_EQ(before.exit_code, 0) << before.err;
  EXPECT_FALSE(fs::exists(sweep.db)) << "--dry-run runs nothing and writes nothing";
  const auto listed = dry_run_keys(before.out);
  ASSERT_EQ(listed.size(), 1U) << before.out;
  ASSERT_TRUE(listed.contains("new")) << before.out;
  EXPECT_EQ(listed.at("new").size(), static_cast<std::size_t>(kSmallRuns));
  EXPECT_THAT(before.out, HasSubstr("20 runs: 20 new"));
  EXPECT_THAT(before.out, HasSubstr("npb:cg:S:16:iterations=1/torus:2x2x4/hilbert/static"));

  const auto run = sweep.run();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto after = sweep.run("--dry-run");
  EXPECT_EQ(after.exit_code, 0) << after.err;
  const auto stored = dry_run_keys(after.out);
  ASSERT_EQ(stored.size(), 1U) << after.out;
  ASSERT_TRUE(stored.contains("done")) << after.out;
  // The keys listed are the keys stored, and the same as before the run.
  EXPECT_EQ(stored.at("done"), listed.at("new"));
  EXPECT_EQ(stored.at("done"), key_prefixes(sweep.db));
  EXPECT_THAT(after.out, HasSubstr("20 runs: 20 done"));
}

TEST(RunCommand, WithoutConfigRunsTheBundledDemoSweep) {
  const TempDir dir;
  const auto db = dir.path() / "results.db";
  const auto listed = run_mapsim("run --dry-run --db " + sh(db));
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("288 runs: 288 new"));
  // A slice of it, end to end: CG with two mappers on the four machines.
  const auto run = run_mapsim("run --db " + sh(db) +
                              " --where \"kernel = 'cg' AND mapper IN ('in-order', 'greedy')\"");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_rows(db, "status = 'done'"), 8);
  for (const char* machine : {"torus:4x4x4", "mesh:4x4x4", "haec:4x4x4", "tianhe3:2x2:nodes=16"})
    EXPECT_THAT(run.out, HasSubstr(machine));
  const auto again = run_mapsim("run --dry-run --db " + sh(db));
  EXPECT_THAT(again.out, HasSubstr("288 runs: 280 new, 8 done"));
}

TEST(RunCommand, StoresEveryRunAndPrintsSummary) {
  const SmallSweep sweep;
  const auto r = sweep.run();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_rows(sweep.db), kSmallRuns);
  EXPECT_EQ(count_rows(sweep.db, "status = 'done'"), kSmallRuns);
  // One mapping per workload and mapper: the flow and static runs share it.
  Connection db(sweep.db, Connection::Mode::ReadOnly);
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM mappings"), 10);
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM runs WHERE model = 'flow' AND makespan_ps > 0"),
            10);
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM runs WHERE hop_bytes > 0"), kSmallRuns);
  EXPECT_THAT(r.out, HasSubstr("20 runs in " + sweep.db.string() +
                               ": 20 done and 0 failed now, 0 done before"));
  EXPECT_THAT(r.out, HasSubstr("10 mapper calls"));
  // The summary: a line per context, with the best mapper relative to in-order.
  EXPECT_THAT(r.out, HasSubstr("lowest hop-bytes"));
  EXPECT_THAT(r.out, HasSubstr("npb:cg:S:16:iterations=1"));
  EXPECT_THAT(r.out, HasSubstr("tables: mapsim results '" + sweep.db.string() + "'"));
}

// replay-search in a sweep: its search replays the workload with the sweep's MPI settings and
// its own model (flow, communication only), whatever model the run then scores it under. A flow
// run and a static run of it search alike, so their searches replay the in-order mapping in the
// same time; a matrix workload, which cannot be replayed, fails its runs saying so.
TEST(RunCommand, ReplaySearchSearchesAlikeForStaticAndReplayedRuns) {
  const TempDir dir;
  (void)dir.write("m.csv", "src,dst,messages,bytes\n0,1,2,100\n1,0,2,100\n");
  const auto config = dir.write("rs.yaml", R"(workloads: [npb:lu:S:4, {matrix: m.csv}]
machines: [torus:4x4]
mappers: [{name: replay-search, params: {evaluations: 0, portfolio: in-order}}]
models: [static, flow]
)");
  const auto db = dir.path() / "results.db";
  const auto r = run_mapsim("run " + sh(config) + " --db " + sh(db) + " --jobs 1");
  EXPECT_EQ(count_rows(db, "status = 'done'"), 2) << r.err;
  // The matrix has one run: a static one (it cannot be replayed).
  EXPECT_EQ(count_rows(db, "status = 'failed' AND message LIKE '%needs a trace%'"), 1) << r.err;
  // The search's model is its own parameter and the runs' other replay settings agree, so the
  // static and the flow run share one search: its report is printed once, and the two runs share
  // the mapping.
  std::size_t reports = 0;
  for (std::size_t at = r.err.find("  portfolio: in-order"); at != std::string::npos;
       at = r.err.find("  portfolio: in-order", at + 1)) {
    ++reports;
  }
  EXPECT_EQ(reports, 1U) << r.err;
  EXPECT_EQ(count_rows(db,
                       "status = 'done' AND mapping_key = (SELECT mapping_key FROM runs WHERE "
                       "status = 'done' AND model = 'static')"),
            2)
      << r.err;
}

TEST(RunCommand, StoreLinksKeepsPerLinkLoads) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run("--where \"workload LIKE 'npb:lu%'\"").exit_code, 0);
  EXPECT_EQ(
      Connection(sweep.db, Connection::Mode::ReadOnly).query_integer("SELECT COUNT(*) FROM links"),
      0);
  const auto links = sweep.run("--store-links --where \"workload LIKE 'npb:cg%'\"");
  ASSERT_EQ(links.exit_code, 0) << links.err;
  Connection db(sweep.db, Connection::Mode::ReadOnly);
  // Every cg run has link rows, the lu runs (stored without) none; replays measured theirs.
  EXPECT_EQ(db.query_integer("SELECT COUNT(DISTINCT run_key) FROM links"), 10);
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM links JOIN runs USING (run_key) WHERE "
                             "workload LIKE 'npb:lu%'"),
            0);
  EXPECT_GT(db.query_integer("SELECT COUNT(*) FROM links JOIN runs USING (run_key) WHERE "
                             "model = 'flow' AND links.bytes > 0"),
            0);
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM links JOIN runs USING (run_key) WHERE "
                             "model = 'static' AND links.bytes IS NOT NULL"),
            0);
}

TEST(RunCommand, SecondRunDoesNothingNew) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const auto first = finished_rows(sweep.db);
  ASSERT_EQ(first.size(), static_cast<std::size_t>(kSmallRuns));
  const auto again = sweep.run();
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("0 done and 0 failed now, 20 done before"));
  EXPECT_THAT(again.out, HasSubstr("0 mapper calls"));
  EXPECT_EQ(count_rows(sweep.db), kSmallRuns);
  // Same owner and finish time: nothing was run again.
  EXPECT_EQ(finished_rows(sweep.db), first);
}

TEST(RunCommand, WhereRestrictsTheRuns) {
  const SmallSweep sweep;
  const auto r = sweep.run("--where \"mapper = 'random' AND model = 'flow'\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_rows(sweep.db), 2);
  EXPECT_EQ(count_rows(sweep.db, "mapper = 'random' AND model = 'flow'"), 2);
  EXPECT_THAT(r.out, HasSubstr("2 runs in"));
  const auto dry = sweep.run("--where \"mapper = 'random' AND model = 'flow'\" --dry-run");
  EXPECT_THAT(dry.out, HasSubstr("2 runs: 2 done"));
  EXPECT_THAT(dry.out, HasSubstr("18 dropped by --where or --mapper"));

  const auto bad = sweep.run("--where \"no_such_column = 1\"");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("no_such_column"));
}

TEST(RunCommand, WhereIsExactlyOneExpression) {
  // A where expression was spliced into the SQL text: `results --where "1) GROUP BY mapper --"`
  // printed a wrong table and exited 0, a config's where dropped runs silently, and a trailing
  // comment failed with "incomplete input".
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const std::string spliced = "\"1) GROUP BY mapper --\"";
  const auto results = run_mapsim("results " + sh(sweep.db) + " --where " + spliced);
  EXPECT_EQ(results.exit_code, 1);
  EXPECT_THAT(results.err, HasSubstr("--where '1) GROUP BY mapper --': ')' at position 2"));
  const auto report = run_mapsim("report " + sh(sweep.db) + " --where " + spliced + " --out " +
                                 sh(sweep.dir.path() / "report"));
  EXPECT_EQ(report.exit_code, 1);
  EXPECT_THAT(report.err, HasSubstr("closes a parenthesis it did not open"));
  const auto config = sweep.dir.write(
      "spliced.yaml", std::string(kSmallConfig) + "where: \"model = 'flow') GROUP BY (mapper\"\n");
  const auto run = run_mapsim("run " + sh(config) + " --db " + sh(sweep.db) + " --dry-run");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("spliced.yaml:10:8: where 'model = 'flow') GROUP BY (mapper'"));

  const auto commented =
      run_mapsim("results " + sh(sweep.db) + " --format csv --where \"ranks = 16 -- small\"");
  EXPECT_EQ(commented.exit_code, 0) << commented.err;
  EXPECT_THAT(commented.out, HasSubstr("greedy"));
  const auto in_config = sweep.dir.write(
      "commented.yaml", std::string(kSmallConfig) + "where: \"model = 'flow' -- replays\"\n");
  const auto dry = run_mapsim("run " + sh(in_config) + " --db " + sh(sweep.db) + " --dry-run");
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("10 runs: 10 done"));
}

TEST(RunCommand, ShardsMergeIntoTheUnshardedSweep) {
  const SmallSweep sweep;
  const auto whole = sweep.run();
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto a = sweep.dir.path() / "a.db";
  const auto b = sweep.dir.path() / "b.db";
  const auto out = sweep.dir.path() / "merged.db";
  const auto base = "run " + sh(sweep.config) + " --jobs 2 --db ";
  ASSERT_EQ(run_mapsim(base + sh(a) + " --shard 1/2").exit_code, 0);
  ASSERT_EQ(run_mapsim(base + sh(b) + " --shard 2/2").exit_code, 0);
  const auto in_a = count_rows(a);
  const auto in_b = count_rows(b);
  EXPECT_GT(in_a, 0);
  EXPECT_GT(in_b, 0);
  EXPECT_EQ(in_a + in_b, kSmallRuns);
  // A shard keeps the runs of a mapping together: no mapping key is in both.
  Connection shard_a(a, Connection::Mode::ReadOnly);
  shard_a.execute("ATTACH DATABASE '" + b.string() + "' AS other");
  EXPECT_EQ(shard_a.query_integer(
                "SELECT COUNT(*) FROM main.runs WHERE mapping_key IN (SELECT mapping_key FROM "
                "other.runs)"),
            0);

  const auto merged = run_mapsim("merge " + sh(out) + " " + sh(a) + " " + sh(b));
  EXPECT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  EXPECT_THAT(merged.out, HasSubstr("20 runs inserted, 0 identical"));
  EXPECT_THAT(merged.out, HasSubstr("integrity check: ok"));
  EXPECT_EQ(result_rows(out), result_rows(sweep.db));
}

TEST(RunCommand, MergeReportsATamperedShardAsConflict) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const auto copy = sweep.dir.path() / "copy.db";
  const auto out = sweep.dir.path() / "out.db";
  ASSERT_EQ(run_mapsim("merge " + sh(copy) + " " + sh(sweep.db)).exit_code, 0);
  std::string key;
  {
    Connection db(copy, Connection::Mode::ReadWrite);
    key = db.query_text(
        "SELECT run_key FROM runs WHERE mapper = 'hilbert' AND model = 'flow' ORDER BY run_key "
        "LIMIT 1");
    db.execute("UPDATE runs SET hop_bytes = hop_bytes + 1 WHERE run_key = '" + key + "'");
  }
  const auto r = run_mapsim("merge " + sh(out) + " " + sh(sweep.db) + " " + sh(copy));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("conflict: " + key.substr(0, 12)));
  EXPECT_THAT(r.out, HasSubstr("(" + key + ")"));
  EXPECT_THAT(r.out, HasSubstr("hop_bytes differ"));
  EXPECT_THAT(r.out, HasSubstr("19 identical"));
  EXPECT_THAT(r.err, HasSubstr("1 conflicting runs"));
  // The output keeps its own value.
  Connection merged(out, Connection::Mode::ReadOnly);
  Connection original(sweep.db, Connection::Mode::ReadOnly);
  const auto hop_bytes = "SELECT hop_bytes FROM runs WHERE run_key = '" + key + "'";
  EXPECT_EQ(merged.query_integer(hop_bytes), original.query_integer(hop_bytes));
}

TEST(RunCommand, ResultsInEveryFormatListTheMappers) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const auto results = "results " + sh(sweep.db);
  const auto table = run_mapsim(results);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("npb:lu:S:16:iterations=1 on torus:2x2x4, flow"));
  EXPECT_THAT(table.out, HasSubstr("hop_bytes"));

  const auto csv = run_mapsim(results + " --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const auto csv_lines = lines(csv.out);
  ASSERT_FALSE(csv_lines.empty());
  EXPECT_THAT(csv_lines.front(), HasSubstr("workload,machine,model"));
  EXPECT_EQ(csv_lines.size(), static_cast<std::size_t>(kSmallRuns) + 1) << csv.out;

  const auto json = run_mapsim(results + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.front(), '[');

  const auto markdown = run_mapsim(results + " --format markdown");
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_THAT(markdown.out, HasSubstr("|---|"));

  for (const char* mapper : {"in-order", "random", "hilbert", "greedy", "rcm"}) {
    const std::string name = mapper;
    EXPECT_THAT(table.out, HasSubstr("  " + name + " ")) << name;
    EXPECT_THAT(csv.out, HasSubstr("," + name + ",")) << name;
    EXPECT_THAT(json.out, HasSubstr("\"mapper\": \"" + name + "\"")) << name;
    EXPECT_THAT(markdown.out, HasSubstr("| " + name + " |")) << name;
  }

  const auto bad = run_mapsim(results + " --format yaml");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("yaml"));
}

TEST(RunCommand, NormalizedResultsShowInOrderAsOne) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const auto r = run_mapsim("results " + sh(sweep.db) + " --normalize in-order --metric hop_bytes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("values relative to in-order"));
  int in_order_rows = 0;
  for (const auto& line : lines(r.out)) {
    if (line.rfind("  in-order ", 0) != 0) continue;
    ++in_order_rows;
    EXPECT_THAT(line, HasSubstr("1.000")) << line;
  }
  EXPECT_EQ(in_order_rows, 4) << r.out;  // 2 workloads x 2 models

  const auto other = run_mapsim("results " + sh(sweep.db) + " --normalize random");
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.err, HasSubstr("in-order"));
}

TEST(RunCommand, ResultsExportAStoredMapping) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const std::string name = "npb:lu:S:16:iterations=1/torus:2x2x4/hilbert/flow";
  const auto r =
      run_mapsim("results " + sh(sweep.db) + " --mapping '" + name + "' --format rankfile");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int ranks = 0;
  for (const auto& line : lines(r.out)) {
    if (line.rfind("rank ", 0) == 0) ++ranks;
  }
  EXPECT_EQ(ranks, 16) << r.out;
  EXPECT_THAT(r.out, HasSubstr("rank 0="));
  EXPECT_THAT(r.out, HasSubstr("rank 15="));

  // By key prefix, the same mapping.
  Connection db(sweep.db, Connection::Mode::ReadOnly);
  const auto key = db.query_text("SELECT run_key FROM runs WHERE name = '" + name + "'");
  const auto by_key = run_mapsim("results " + sh(sweep.db) + " --mapping " + key.substr(0, 8) +
                                 " --format rankfile");
  EXPECT_EQ(by_key.exit_code, 0) << by_key.err;
  EXPECT_EQ(by_key.out, r.out);

  const auto missing = run_mapsim("results " + sh(sweep.db) + " --mapping no-such-run");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("no-such-run"));
}

TEST(RunCommand, UpgradeOfACurrentDatabaseSaysSo) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run().exit_code, 0);
  const auto r = run_mapsim("upgrade " + sh(sweep.db));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("is at schema version " + std::to_string(exp::schema::kVersion) +
                               " already"));
  EXPECT_FALSE(fs::exists(sweep.db.string() + ".bak"));
  EXPECT_EQ(count_rows(sweep.db), kSmallRuns);
}

TEST(RunCommand, NewerSchemaVersionIsRefusedEverywhere) {
  const SmallSweep sweep;
  ASSERT_EQ(sweep.run("--where \"model = 'static'\"").exit_code, 0);
  const auto newer = exp::schema::kVersion + 1;
  {
    Connection db(sweep.db, Connection::Mode::ReadWrite);
    db.execute("PRAGMA user_version = " + std::to_string(newer));
  }
  const auto versions = "schema version " + std::to_string(newer) + ", newer than this mapsim's " +
                        std::to_string(exp::schema::kVersion);
  const auto run = sweep.run();
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr(versions));
  const auto results = run_mapsim("results " + sh(sweep.db));
  EXPECT_EQ(results.exit_code, 1);
  EXPECT_THAT(results.err, HasSubstr(versions));
  const auto out = sweep.dir.path() / "out.db";
  const auto merge = run_mapsim("merge " + sh(out) + " " + sh(sweep.db));
  EXPECT_EQ(merge.exit_code, 1);
  EXPECT_THAT(merge.err, HasSubstr(versions));
  EXPECT_FALSE(fs::exists(out)) << "merge checks its inputs before creating the output";
  // Nothing was written: the 10 static runs only, and the version as set.
  EXPECT_EQ(count_rows(sweep.db), 10);
  Connection db(sweep.db, Connection::Mode::ReadOnly);
  EXPECT_EQ(db.query_integer("PRAGMA user_version"), newer);
}

TEST(RunCommand, ConfigErrorsNameFileLineAndColumn) {
  const TempDir dir;
  const auto db = dir.path() / "results.db";
  // 'nosuch' starts at column 21 of line 3.
  const auto mapper = dir.write("mapper.yaml",
                                "workloads: [npb:lu:S:4]\nmachines: [torus:2x2]\n"
                                "mappers: [in-order, nosuch]\n");
  const auto r = run_mapsim("run " + sh(mapper) + " --db " + sh(db));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("mapper.yaml:3:21:"));
  EXPECT_THAT(r.err, HasSubstr("unknown mapper 'nosuch'"));

  const auto key = dir.write("key.yaml",
                             "workloads: [npb:lu:S:4]\nmachines: [torus:2x2]\nmappers: [in-order]\n"
                             "bogus: 1\n");
  const auto unknown = run_mapsim("run " + sh(key) + " --db " + sh(db));
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("key.yaml:4:1:"));
  EXPECT_THAT(unknown.err, HasSubstr("unknown key 'bogus'"));

  const auto number = dir.write("number.yaml",
                                "workloads: [npb:lu:S:4]\nmachines: [torus:2x2]\n"
                                "mappers: [in-order]\nsim:\n  compute-scale: [fast]\n");
  const auto text = run_mapsim("run " + sh(number) + " --db " + sh(db) + " --dry-run");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_THAT(text.err, HasSubstr("number.yaml:5:"));
  EXPECT_THAT(text.err, HasSubstr("fast"));

  const auto syntax = dir.write("syntax.yaml", "workloads: [npb:lu:S:4\nmachines: [torus:2x2]\n");
  const auto yaml = run_mapsim("run " + sh(syntax) + " --db " + sh(db));
  EXPECT_EQ(yaml.exit_code, 1);
  EXPECT_THAT(yaml.err, ::testing::ContainsRegex("syntax\\.yaml:[0-9]+:[0-9]+:"));

  const auto missing = run_mapsim("run " + sh(dir.path() / "none.yaml") + " --db " + sh(db));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("none.yaml"));
  EXPECT_FALSE(fs::exists(db));
}

TEST(RunCommand, BadOptionsAreCommandLineErrors) {
  // A malformed command line exits 2; a well-formed option with a value out of range is bad
  // input (exit 1), as for every command (e.g. generate --iterations 0).
  const SmallSweep sweep;
  const auto run = "run " + sh(sweep.config) + " --db " + sh(sweep.db) + " ";
  const auto jobs = run_mapsim(run + "--jobs 0");
  EXPECT_EQ(jobs.exit_code, 1) << jobs.err;
  EXPECT_THAT(jobs.err, HasSubstr("--jobs"));
  const auto shard = run_mapsim(run + "--shard 3/2");
  EXPECT_EQ(shard.exit_code, 1) << shard.err;
  EXPECT_THAT(shard.err, HasSubstr("--shard"));
  const auto text = run_mapsim(run + "--shard x");
  EXPECT_EQ(text.exit_code, 2) << text.err;
  EXPECT_THAT(text.err, HasSubstr("--shard 'x'"));
  const auto both = run_mapsim(run + "--shard 1/2 --slurm 2");
  EXPECT_EQ(both.exit_code, 2) << both.err;
  const auto slurm = run_mapsim("run --slurm 4 --db " + sh(sweep.db));
  EXPECT_EQ(slurm.exit_code, 2) << slurm.err;
  EXPECT_THAT(slurm.err, HasSubstr("--slurm needs a CONFIG file"));
  const auto unknown = run_mapsim(run + "--bogus");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_FALSE(fs::exists(sweep.db));
}

TEST(RunCommand, SlurmWritesScriptsBesideTheConfig) {
  const SmallSweep sweep;
  const auto r = sweep.run("--slurm 4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto array = sweep.dir.path() / "small.sbatch";
  const auto merge = sweep.dir.path() / "small-merge.sbatch";
  ASSERT_TRUE(fs::exists(array));
  ASSERT_TRUE(fs::exists(merge));
  EXPECT_THAT(r.out, HasSubstr("array=$(sbatch --parsable '" + array.string() + "')"));
  EXPECT_THAT(r.out, HasSubstr("sbatch --dependency=afterok:$array '" + merge.string() + "'"));
  const auto script = read_file(array);
  EXPECT_THAT(script, HasSubstr("#SBATCH --array=1-4"));
  EXPECT_THAT(script, HasSubstr("--shard \"$shard/4\""));
  EXPECT_THAT(read_file(merge), HasSubstr(" merge "));
  EXPECT_FALSE(fs::exists(sweep.db)) << "--slurm writes scripts and runs nothing";
}

TEST(RunCommand, FailedRunsAreStoredAndRerunOnRequest) {
  const TempDir dir;
  const auto config = dir.write("fail.yaml", kFailingConfig);
  const auto db = dir.path() / "results.db";
  const auto run = "run " + sh(config) + " --db " + sh(db) + " --jobs 2";
  // Failed runs stored: exit status 4, with the count.
  const auto first = run_mapsim(run);
  ASSERT_EQ(first.exit_code, 4) << first.err;
  EXPECT_THAT(first.err, HasSubstr("mapsim run: 2 of 4 runs failed: stored with their messages"));
  EXPECT_THAT(first.out, HasSubstr("2 done and 2 failed now"));
  EXPECT_EQ(count_rows(db, "status = 'failed' AND ranks = 16 AND message LIKE '%do not fit%'"), 2);
  EXPECT_EQ(count_rows(db, "status = 'done' AND ranks = 4"), 2);
  EXPECT_THAT(first.err, HasSubstr("failed npb:lu:S:16:iterations=1/torus:2x2/in-order/flow"));

  const auto failed_owners = query_rows(db, "SELECT owner FROM runs WHERE status = 'failed'");
  const auto done = finished_rows(db);
  // Failed before and not run again: still not a sweep that is done.
  const auto again = run_mapsim(run);
  ASSERT_EQ(again.exit_code, 4) << again.err;
  EXPECT_THAT(again.out, HasSubstr("0 done and 0 failed now, 2 done before, 2 failed before"));
  EXPECT_THAT(again.out, HasSubstr("--rerun-failed"));
  EXPECT_EQ(query_rows(db, "SELECT owner FROM runs WHERE status = 'failed'"), failed_owners);

  const auto rerun = run_mapsim(run + " --rerun-failed");
  ASSERT_EQ(rerun.exit_code, 4) << rerun.err;
  EXPECT_THAT(rerun.out, HasSubstr("0 done and 2 failed now, 2 done before, 0 failed before"));
  EXPECT_THAT(rerun.err, HasSubstr("2 of 4 runs to do"));
  // Run again by the new process; the done runs were left alone.
  for (const auto& owner : query_rows(db, "SELECT owner FROM runs WHERE status = 'failed'")) {
    EXPECT_THAT(failed_owners, Not(::testing::Contains(owner)));
  }
  EXPECT_EQ(finished_rows(db), done);
  EXPECT_EQ(count_rows(db), 4);
}

TEST(RunCommand, TinyTimeLimitFailsTheReplays) {
  const SmallSweep sweep;
  const auto r = sweep.run("--time-limit 1e-9");
  ASSERT_EQ(r.exit_code, 4) << r.err;
  // The static runs replay nothing: done; every replay fails.
  EXPECT_EQ(count_rows(sweep.db, "model = 'static' AND status = 'done'"), 10);
  EXPECT_EQ(count_rows(sweep.db,
                       "model = 'flow' AND status = 'failed' AND message LIKE "
                       "'%time limit of 1e-09 s%'"),
            10);
  EXPECT_THAT(r.err, HasSubstr("time limit"));
  EXPECT_THAT(r.out, HasSubstr("10 done and 10 failed now"));

  const auto negative = sweep.run("--time-limit=-1");
  EXPECT_NE(negative.exit_code, 0);
  EXPECT_THAT(negative.err, HasSubstr("--time-limit"));
}

TEST(RunCommand, OneCoreUnderTasksetGetsOneJobAndNoWarning) {
  // On one usable core (taskset), the default was one job per core of the machine, and more
  // jobs than cores made oneTBB print "TBB Warning: The number of workers is currently
  // limited..." on stderr. The default counts the usable cores; --jobs beyond them is honoured.
  const SmallSweep sweep;
  for (const std::string jobs : {"", " --jobs 3"}) {
    const auto db = sweep.dir.path() / ("taskset" + std::to_string(jobs.size()) + ".db");
    const auto r = testing::run_mapsim_with(
        "taskset -c 0 ", "run " + sh(sweep.config) + " --db " + sh(db) + jobs, {});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("TBB"))) << jobs;
    EXPECT_THAT(r.err, HasSubstr(jobs.empty() ? "1 job\n" : "3 jobs\n")) << jobs;
  }
}

TEST(RunCommand, PipedStderrGetsOneDoneLinePerRun) {
  const SmallSweep sweep;
  // stderr into a pipe to cat, whose output run_mapsim captures; stdout discarded.
  const auto r = run_mapsim("run " + sh(sweep.config) + " --db " + sh(sweep.db) +
                            " --jobs 2 2>&1 >/dev/null | cat");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.find('\r'), std::string::npos) << "no progress line on a pipe";
  EXPECT_THAT(r.out, Not(HasSubstr("mapsim: sweep")));
  std::map<std::string, int> done;
  // "mapsim: info: done NAME (0.12 s)"
  constexpr std::string_view kPrefix = "mapsim: info: done ";
  for (const auto& line : lines(r.out)) {
    const auto open = line.rfind(" (");
    if (!line.starts_with(kPrefix) || open == std::string::npos || !line.ends_with(" s)")) continue;
    ++done[line.substr(kPrefix.size(), open - kPrefix.size())];
  }
  const auto names = query_rows(sweep.db, "SELECT name FROM runs ORDER BY name");
  ASSERT_EQ(names.size(), static_cast<std::size_t>(kSmallRuns));
  EXPECT_EQ(done.size(), names.size()) << r.out;
  for (const auto& row : names) {
    const auto name = row.substr(row.find('=') + 1);
    EXPECT_EQ(done[name], 1) << name;
  }
}

TEST(RunCommand, TerminalGetsProgressInsteadOfDoneLines) {
  const SmallSweep sweep;
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string terminal = ::ptsname(master);
  std::vector<std::string> words{
      MAPSIM_BINARY, "run", sweep.config.string(), "--db", sweep.db.string(), "--jobs", "2"};
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    const int slave = ::open(terminal.c_str(), O_RDWR);
    const int null = ::open("/dev/null", O_WRONLY);
    if (slave < 0 || null < 0) ::_exit(126);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(slave, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ASSERT_GT(pid, 0);
  std::string seen;
  char buffer[4096];
  for (;;) {
    const auto n = ::read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child has closed the terminal
    seen.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(master);
  EXPECT_EQ(wait_for(pid), 0) << seen;
  EXPECT_THAT(seen, HasSubstr("mapsim: sweep 100% (20/20 runs)"));
  EXPECT_THAT(seen, Not(HasSubstr("info: done ")));
  EXPECT_EQ(count_rows(sweep.db, "status = 'done'"), kSmallRuns);
}

// A sweep of several seconds, interrupted and resumed. Its uninterrupted results are computed
// once per process, by the first test that compares with them.
class SweepInterruption : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("mapsim-sweep-interruption-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    config_ = dir_ / "long.yaml";
    std::ofstream(config_) << kLongConfig;
    reference_run_.reset();
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  /// The results of the sweep run without interruption (see result_rows()).
  static std::vector<std::string> uninterrupted() {
    const auto db = dir_ / "uninterrupted.db";
    if (!reference_run_) {
      reference_run_ = run_mapsim("run " + sh(config_) + " --db " + sh(db) + " --jobs 2");
    }
    EXPECT_EQ(reference_run_->exit_code, 0) << reference_run_->err;
    if (!fs::exists(db)) return {};
    EXPECT_EQ(count_rows(db, "status = 'done'"), kLongRuns);
    return result_rows(db);
  }

  /// Starts the sweep into `db` with 2 jobs; its output goes to `db`.out and `db`.err.
  static pid_t start(const fs::path& db) {
    return spawn_mapsim({"run", config_.string(), "--db", db.string(), "--jobs", "2"},
                        db.string() + ".out", db.string() + ".err");
  }

  static testing::RunResult resume(const fs::path& db) {
    return run_mapsim("run " + sh(config_) + " --db " + sh(db) + " --jobs 2");
  }

  inline static fs::path dir_;
  inline static fs::path config_;
  inline static std::optional<testing::RunResult> reference_run_;
};

TEST_F(SweepInterruption, KillNineThenResumeRunsEachRunExactlyOnce) {
  const TempDir dir;
  const auto db = dir.path() / "a.db";
  const pid_t pid = start(db);
  ASSERT_GT(pid, 0);
  const bool caught = wait_until_partly_done(pid, db, kLongRuns, false);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  EXPECT_EQ(wait_for(pid), -SIGKILL);
  ASSERT_TRUE(caught) << "the sweep was not caught with some runs done and some not";

  EXPECT_EQ(integrity(db), "ok");
  const auto done_before = finished_rows(db);
  const auto left_running = count_rows(db, "status = 'running'");
  ASSERT_GE(done_before.size(), 3U);
  ASSERT_LT(done_before.size(), static_cast<std::size_t>(kLongRuns));
  EXPECT_EQ(count_rows(db, "status NOT IN ('done', 'running')"), 0);

  const auto resumed = resume(db);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const auto done_now = kLongRuns - static_cast<int>(done_before.size());
  EXPECT_THAT(resumed.out, HasSubstr(std::to_string(kLongRuns) + " runs in " + db.string() + ": " +
                                     std::to_string(done_now) + " done and 0 failed now, " +
                                     std::to_string(done_before.size()) + " done before"));
  if (left_running > 0) {
    EXPECT_THAT(resumed.err, HasSubstr(std::to_string(left_running) + " stale re-run"));
  }
  EXPECT_EQ(integrity(db), "ok");

  // Every run of the sweep once, done; the runs done before the kill were not run again.
  const auto listing = run_mapsim("run " + sh(config_) + " --db " + sh(db) + " --dry-run");
  const auto listed = dry_run_keys(listing.out);
  ASSERT_EQ(listed.size(), 1U) << listing.out;
  ASSERT_TRUE(listed.contains("done")) << listing.out;
  EXPECT_EQ(listed.at("done").size(), static_cast<std::size_t>(kLongRuns));
  EXPECT_EQ(listed.at("done"), key_prefixes(db));
  EXPECT_EQ(count_rows(db), kLongRuns);
  EXPECT_EQ(count_rows(db, "status = 'done'"), kLongRuns);
  const auto after = finished_rows(db);
  for (const auto& row : done_before) {
    EXPECT_THAT(after, ::testing::Contains(row)) << "run again: " << row;
  }
  EXPECT_EQ(result_rows(db), uninterrupted());
}

TEST_F(SweepInterruption, CtrlCStopsCleanlyAndResumes) {
  const TempDir dir;
  const auto db = dir.path() / "a.db";
  const pid_t pid = start(db);
  ASSERT_GT(pid, 0);
  const bool caught = wait_until_partly_done(pid, db, kLongRuns, false);
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const int exit_code = wait_for(pid);
  ASSERT_TRUE(caught) << "the sweep was not caught with some runs done and some not";
  EXPECT_EQ(exit_code, 130);
  const auto err = read_file(db.string() + ".err");
  EXPECT_THAT(err, HasSubstr("mapsim run: interrupted: "));
  EXPECT_THAT(err, HasSubstr("run the same command again to resume"));

  // Exactly the finished runs are stored: none running, stale or failed.
  EXPECT_EQ(integrity(db), "ok");
  const auto stored = count_rows(db);
  EXPECT_EQ(count_rows(db, "status = 'done'"), stored);
  EXPECT_GE(stored, 3);
  EXPECT_LT(stored, kLongRuns);
  EXPECT_THAT(err,
              HasSubstr(std::to_string(stored) + " runs finished and stored in " + db.string()));
  const auto done_before = finished_rows(db);

  const auto resumed = resume(db);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_THAT(resumed.out,
              HasSubstr(std::to_string(kLongRuns - stored) + " done and 0 failed now, " +
                        std::to_string(stored) + " done before"));
  EXPECT_THAT(resumed.err, Not(HasSubstr("stale")));
  EXPECT_EQ(integrity(db), "ok");
  EXPECT_EQ(count_rows(db, "status = 'done'"), kLongRuns);
  const auto after = finished_rows(db);
  for (const auto& row : done_before) {
    EXPECT_THAT(after, ::testing::Contains(row)) << "run again: " << row;
  }
  EXPECT_EQ(result_rows(db), uninterrupted());
}

TEST_F(SweepInterruption, SigtermStopsLikeCtrlC) {
  const TempDir dir;
  const auto db = dir.path() / "a.db";
  const pid_t pid = start(db);
  ASSERT_GT(pid, 0);
  const bool caught = wait_until_partly_done(pid, db, kLongRuns, false);
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  const int exit_code = wait_for(pid);
  ASSERT_TRUE(caught) << "the sweep was not caught with some runs done and some not";
  EXPECT_EQ(exit_code, 130);
  EXPECT_THAT(read_file(db.string() + ".err"), HasSubstr("run the same command again to resume"));
  EXPECT_EQ(integrity(db), "ok");
  EXPECT_EQ(count_rows(db, "status <> 'done'"), 0);
  EXPECT_GE(count_rows(db), 3);
}

TEST_F(SweepInterruption, RunsOfAKilledSweepShowAsStale) {
  const TempDir dir;
  const auto db = dir.path() / "a.db";
  const pid_t pid = start(db);
  ASSERT_GT(pid, 0);
  const bool caught = wait_until_partly_done(pid, db, kLongRuns, true);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  EXPECT_EQ(wait_for(pid), -SIGKILL);
  ASSERT_TRUE(caught) << "the sweep was not caught with runs done and running";

  const auto running = key_prefixes(db, "status = 'running'");
  const auto done = key_prefixes(db, "status = 'done'");
  ASSERT_FALSE(running.empty());
  const auto r = run_mapsim("run " + sh(config_) + " --db " + sh(db) + " --dry-run");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto listed = dry_run_keys(r.out);
  ASSERT_TRUE(listed.contains("stale")) << r.out;
  EXPECT_EQ(listed.at("stale"), running);
  EXPECT_EQ(listed.at("done"), done);
  EXPECT_FALSE(listed.contains("running")) << r.out;
  const auto fresh = listed.contains("new") ? listed.at("new").size() : 0;
  EXPECT_EQ(fresh + running.size() + done.size(), static_cast<std::size_t>(kLongRuns));
  EXPECT_THAT(r.out, HasSubstr(std::to_string(running.size()) + " stale"));
  for (const auto& line : lines(r.out)) {
    if (line.rfind("stale ", 0) == 0) {
      EXPECT_THAT(line, HasSubstr("pid " + std::to_string(pid) + ")"));
    }
  }
  // Looking does not change the database: the rows stay `running` until a runner takes them.
  EXPECT_EQ(key_prefixes(db, "status = 'running'"), running);
}

TEST(RunCommand, QuickRunsTheQuickVariant) {
  const TempDir dir;
  // The full sweep: 2 workloads x 1 machine x 5 mappers x 2 models = 20 runs; its quick variant
  // replaces workloads and mappers: 1 workload x 2 mappers x 2 models = 4 runs.
  const auto config = dir.write("quick.yaml", std::string(kSmallConfig) +
                                                  "quick:\n"
                                                  "  workloads: [npb:cg:S:16:iterations=1]\n"
                                                  "  mappers: [in-order, greedy]\n");
  const auto db = dir.path() / "quick.db";
  const auto listed = run_mapsim("run " + sh(config) + " --quick --dry-run --db " + sh(db));
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("4 runs: 4 new"));
  const auto full = run_mapsim("run " + sh(config) + " --dry-run --db " + sh(db));
  EXPECT_THAT(full.out, HasSubstr("20 runs: 20 new"));

  const auto run = run_mapsim("run " + sh(config) + " --quick --db " + sh(db));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_rows(db), 4);
  EXPECT_EQ(count_rows(db,
                       "status = 'done' AND workload = 'npb:cg:S:16:iterations=1' AND "
                       "mapper IN ('in-order', 'greedy')"),
            4);

  // A config without a quick variant: an input error naming the file.
  const auto plain = dir.write("plain.yaml", kSmallConfig);
  const auto none = run_mapsim("run " + sh(plain) + " --quick --dry-run --db " + sh(db));
  EXPECT_NE(none.exit_code, 0);
  EXPECT_THAT(none.err, HasSubstr(plain.string()));
  EXPECT_THAT(none.err, HasSubstr("no quick variant"));
}

}  // namespace
}  // namespace mapsim
