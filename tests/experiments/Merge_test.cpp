// Merging results databases: shards into one, identical and conflicting runs, refused inputs.

#include "experiments/Merge.hpp"

#include <array>
#include <atomic>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Runner.hpp"
#include "experiments/Store.hpp"
#include "support/Error.hpp"
#include "tests/experiments/SweepTestSupport.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

using mapsim::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace mapsim::exp::testing;

/// The sweep run whole into full.db and in three shards into shard-I.db, links stored.
struct ShardedSweep {
  Sweep sweep;
  std::filesystem::path full;
  std::vector<std::filesystem::path> shards;
  std::size_t shard_runs = 0;  ///< over the shards
};

RunnerReport run_into(const Sweep& sweep, const std::filesystem::path& database, int index,
                      int count) {
  RunnerOptions options;
  options.database = database;
  options.jobs = 1;
  options.shard_index = index;
  options.shard_count = count;
  options.store_links = true;
  return run_sweep(sweep, options);
}

ShardedSweep run_sharded(const TempDir& dir) {
  ShardedSweep s{make_sweep(dir.path(), kSmallSweep), dir.path() / "full.db", {}, 0};
  EXPECT_EQ(run_into(s.sweep, s.full, 1, 1).done, kSmallSweepRuns);
  for (int i = 1; i <= 3; ++i) {
    s.shards.push_back(dir.path() / fmt::format("shard-{}.db", i));
    const auto report = run_into(s.sweep, s.shards.back(), i, 3);
    EXPECT_EQ(report.done, report.runs);
    s.shard_runs += report.runs;
  }
  return s;
}

/// A copy of a database file (its log checkpointed into it first).
std::filesystem::path copy_database(const std::filesystem::path& from,
                                    const std::filesystem::path& to) {
  {
    sql::Connection db(from, sql::Connection::Mode::ReadWrite);
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
  return to;
}

void execute(const std::filesystem::path& database, std::string_view sql) {
  sql::Connection db(database, sql::Connection::Mode::ReadWrite);
  db.execute(sql);
}

std::string text(const std::filesystem::path& database, std::string_view query) {
  sql::Connection db(database, sql::Connection::Mode::ReadWrite);
  return db.query_text(query);
}

/// Everything a database holds, to see that a refused merge wrote nothing.
Table contents(const std::filesystem::path& database) {
  Table all = select_all(database, "SELECT * FROM runs ORDER BY run_key");
  for (const auto* query : {"SELECT * FROM mappings ORDER BY mapping_key",
                            "SELECT * FROM links ORDER BY run_key, link"}) {
    for (auto& row : select_all(database, query)) all.push_back(std::move(row));
  }
  return all;
}

std::string message_of(const std::filesystem::path& output,
                       const std::vector<std::filesystem::path>& inputs) {
  try {
    (void)merge(output, inputs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr std::string_view kConfigQuery =
    "SELECT run_key, mapping_key, context_key, name, config, workload, machine, mapper, model, "
    "repeat FROM runs ORDER BY run_key";
constexpr std::string_view kLinksQuery = "SELECT * FROM links ORDER BY run_key, link";

TEST(Merge, ShardsMergedEqualTheUnshardedRun) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  EXPECT_EQ(s.shard_runs, kSmallSweepRuns);
  const auto out = dir.path() / "merged.db";
  const auto report = merge(out, s.shards);
  EXPECT_EQ(report.inputs, 3U);
  EXPECT_EQ(report.inserted, kSmallSweepRuns);
  EXPECT_EQ(report.identical, 0U);
  EXPECT_EQ(report.replaced, 0U);
  EXPECT_EQ(report.kept, 0U);
  EXPECT_EQ(report.unfinished, 0U);
  EXPECT_EQ(report.mappings_inserted, kSmallSweepMappings);
  EXPECT_TRUE(report.conflicts.empty());
  EXPECT_EQ(report.integrity, "ok");

  const auto results = select_all(s.full, results_query());
  ASSERT_EQ(results.size(), kSmallSweepRuns);
  EXPECT_EQ(select_all(out, results_query()), results);
  EXPECT_EQ(select_all(out, kConfigQuery), select_all(s.full, kConfigQuery));
  EXPECT_EQ(select_all(out, kMappingsQuery), select_all(s.full, kMappingsQuery));
  const auto links = select_all(s.full, kLinksQuery);
  EXPECT_FALSE(links.empty());
  EXPECT_EQ(select_all(out, kLinksQuery), links);
  // Provenance comes along unchanged: each run is the shard's row.
  Table provenance;
  for (const auto& shard : s.shards) {
    for (auto& row : select_all(shard,
                                "SELECT run_key, owner, started_at, finished_at, "
                                "sim_seconds FROM runs")) {
      provenance.push_back(std::move(row));
    }
  }
  std::sort(provenance.begin(), provenance.end());
  EXPECT_EQ(select_all(out,
                       "SELECT run_key, owner, started_at, finished_at, sim_seconds FROM "
                       "runs ORDER BY run_key"),
            provenance);
  Store merged(out, Store::Access::Read);  // a valid mapsim database
  EXPECT_EQ(merged.integrity_check(), "ok");
}

TEST(Merge, SameRunsAgainAreIdentical) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "merged.db";
  const auto first = merge(out, std::vector{s.shards[0]});
  const auto before = contents(out);
  const auto again = merge(out, std::vector{s.shards[0]});
  EXPECT_EQ(again.inserted, 0U);
  EXPECT_EQ(again.identical, first.inserted);
  EXPECT_EQ(again.mappings_inserted, 0U);
  EXPECT_TRUE(again.conflicts.empty());
  EXPECT_EQ(contents(out), before);

  // The unsharded run's results equal the shards' though their wall times differ: only
  // results are compared.
  const auto whole = copy_database(s.full, dir.path() / "whole.db");
  const auto report = merge(whole, s.shards);
  EXPECT_EQ(report.identical, kSmallSweepRuns);
  EXPECT_EQ(report.inserted, 0U);
  EXPECT_TRUE(report.conflicts.empty());
}

TEST(Merge, TamperedResultIsAConflictAndTheOutputKeepsItsValue) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "merged.db";
  (void)merge(out, s.shards);
  const auto tampered = copy_database(s.shards[0], dir.path() / "tampered.db");
  const auto key = text(tampered, "SELECT run_key FROM runs ORDER BY run_key LIMIT 1");
  const auto name = text(tampered, "SELECT name FROM runs ORDER BY run_key LIMIT 1");
  const auto other = text(tampered, "SELECT run_key FROM runs ORDER BY run_key DESC LIMIT 1");
  ASSERT_NE(key, other);
  execute(tampered,
          fmt::format("UPDATE runs SET hop_bytes = hop_bytes + 1 WHERE run_key = '{}'", key));
  execute(tampered, fmt::format("UPDATE runs SET makespan_ps = makespan_ps + 1, "
                                "link_utilisation_max = 2 WHERE run_key = '{}'",
                                other));
  const auto before = contents(out);
  const auto rows = count(tampered, "SELECT COUNT(*) FROM runs");

  const auto report = merge(out, std::vector{tampered});
  ASSERT_EQ(report.conflicts.size(), 2U);
  EXPECT_EQ(report.conflicts[0].input, tampered.string());
  EXPECT_EQ(report.conflicts[0].key, key);
  EXPECT_EQ(report.conflicts[0].name, name);
  EXPECT_THAT(report.conflicts[0].columns, ElementsAre("hop_bytes"));
  EXPECT_EQ(report.conflicts[1].key, other);
  EXPECT_THAT(report.conflicts[1].columns, ElementsAre("makespan_ps", "link_utilisation_max"));
  EXPECT_EQ(report.identical, static_cast<std::size_t>(rows) - 2);
  EXPECT_EQ(report.inserted, 0U);
  EXPECT_EQ(report.integrity, "ok");
  EXPECT_EQ(contents(out), before);  // the output keeps its values
}

TEST(Merge, AlteredConfigurationIsAConflictNeverIdentical) {
  // A run's `config` column is what its key hashes. An input whose config was altered used to
  // count as identical (and, for a key the output lacked, would have been inserted as that run).
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "merged.db";
  (void)merge(out, std::vector{s.shards[0]});
  const auto tampered = copy_database(s.shards[0], dir.path() / "tampered.db");
  const auto key = text(tampered, "SELECT run_key FROM runs ORDER BY run_key LIMIT 1");
  execute(tampered,
          fmt::format("UPDATE runs SET config = config || 'x: 1' || char(10) WHERE run_key = '{}'",
                      key));
  const auto before = contents(out);
  const auto report = merge(out, std::vector{tampered});
  ASSERT_EQ(report.conflicts.size(), 1U);
  EXPECT_EQ(report.conflicts[0].key, key);
  EXPECT_THAT(report.conflicts[0].columns,
              ElementsAre("config (not the configuration of its run key)"));
  EXPECT_EQ(report.identical, static_cast<std::size_t>(count(tampered,
                                                             "SELECT COUNT(*) FROM "
                                                             "runs")) -
                                  1);
  EXPECT_EQ(contents(out), before);
  // Into an output without the run, it is not inserted either.
  const auto fresh = dir.path() / "fresh.db";
  const auto into_fresh = merge(fresh, std::vector{tampered});
  EXPECT_EQ(into_fresh.conflicts.size(), 1U);
  EXPECT_EQ(count(fresh, fmt::format("SELECT COUNT(*) FROM runs WHERE run_key = '{}'", key)), 0);
}

TEST(Merge, ADamagedInputIsNamedAndNothingIsMerged) {
  // A damaged input used to surface, mid-merge, as the healthy output being malformed.
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "merged.db";
  (void)merge(out, std::vector{s.shards[0]});
  const auto before = contents(out);
  const auto damaged = copy_database(s.shards[1], dir.path() / "damaged.db");
  {
    // Garbage over the pages after the first two (the header and schema stay readable).
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(2 * 4096);
    const std::string garbage(3 * 4096, '\x5a');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const auto message = message_of(out, {s.shards[2], damaged});
  EXPECT_THAT(message, AllOf(HasSubstr("input database '" + damaged.string() + "' is damaged"),
                             HasSubstr("nothing was merged")));
  EXPECT_THAT(message, ::testing::Not(HasSubstr(out.string())));
  EXPECT_EQ(contents(out), before);
}

TEST(Merge, InterruptedMergeIntoANewFileLeavesNothing) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "new.db";
  const std::atomic<bool> interrupt{true};
  EXPECT_THROW((void)merge(out, s.shards, &interrupt), Cancelled);
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().filename().string().starts_with("new.db"))
      left.push_back(entry.path().filename().string());
  }
  EXPECT_THAT(left, ::testing::IsEmpty());
  // Into an existing output, the inputs merged before stay; the rest is left for a rerun.
  const auto existing = dir.path() / "existing.db";
  (void)merge(existing, std::vector{s.shards[0]});
  const auto before = contents(existing);
  const auto report = merge(existing, s.shards, &interrupt);
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.inputs, 0U);
  EXPECT_EQ(contents(existing), before);
}

TEST(Merge, ChangedMappingIsAConflictOnNodes) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "merged.db";
  (void)merge(out, s.shards);
  const auto tampered = copy_database(s.shards[1], dir.path() / "tampered.db");
  // Swap the nodes of ranks 0 and 1 in one mapping that puts them on different nodes.
  std::string key;
  {
    Store store(tampered, Store::Access::Write);
    auto select = store.connection().prepare("SELECT mapping_key FROM mappings ORDER BY 1");
    std::vector<std::string> keys;
    while (select.step()) keys.push_back(select.text(0));
    for (const auto& k : keys) {
      auto mapping = store.mapping(k)->mapping;
      std::vector<topo::NodeId> nodes(mapping.nodes().begin(), mapping.nodes().end());
      if (nodes.size() < 2 || nodes[0] == nodes[1]) continue;
      std::swap(nodes[0], nodes[1]);
      const auto blob = encode_mapping(topo::Mapping(nodes));
      store.connection()
          .prepare("UPDATE mappings SET nodes = ? WHERE mapping_key = ?")
          .bind_blob(1, std::as_bytes(std::span(blob.data(), blob.size())))
          .bind(2, k)
          .run();
      key = k;
      break;
    }
  }
  ASSERT_FALSE(key.empty()) << "no mapping with two ranks on different nodes";
  const auto runs = count(tampered, fmt::format("SELECT COUNT(*) FROM runs WHERE mapping_key = "
                                                "'{}'",
                                                key));
  const auto before = contents(out);
  const auto report = merge(out, std::vector{tampered});
  ASSERT_EQ(report.conflicts.size(), 1U);
  EXPECT_EQ(report.conflicts[0].key, key);
  EXPECT_EQ(report.conflicts[0].name, fmt::format("the mapping of {} runs", runs));
  EXPECT_THAT(report.conflicts[0].columns, ElementsAre("nodes"));
  EXPECT_EQ(report.mappings_inserted, 0U);
  EXPECT_EQ(contents(out), before);
}

/// A database holding the sweep's first run failed, or left running by a dead runner.
std::filesystem::path one_unfinished_run(const ShardedSweep& s, const std::filesystem::path& path,
                                         bool failed) {
  Store store(path, Store::Access::Write);
  const auto owner = failed ? this_process("test") : owner_with_pid(dead_pid(), "ghost");
  const std::vector<RunIdentity> runs{identity(s.sweep, s.sweep.runs[0])};
  EXPECT_EQ(store.claim(runs, owner, false), std::vector<bool>{true});
  if (failed) {
    RunRecord record;
    record.key = s.sweep.runs[0].key;
    record.message = "it broke";
    EXPECT_TRUE(store.commit(record, owner));
  }
  return path;
}

TEST(Merge, DoneReplacesFailedOrUnfinishedButNeverTheOtherWayRound) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto& key = s.sweep.runs[0].key;

  // Failed in the output, done in the input: replaced.
  const auto failed = one_unfinished_run(s, dir.path() / "failed.db", true);
  const auto repaired = copy_database(failed, dir.path() / "repaired.db");
  const auto replace = merge(repaired, std::vector{s.full});
  EXPECT_EQ(replace.replaced, 1U);
  EXPECT_EQ(replace.inserted, kSmallSweepRuns - 1);
  EXPECT_TRUE(replace.conflicts.empty());
  EXPECT_EQ(select_all(repaired, results_query()), select_all(s.full, results_query()));
  EXPECT_EQ(select_all(repaired, kLinksQuery), select_all(s.full, kLinksQuery));

  // Left running by a dead runner in the output: replaced too.
  const auto stale = one_unfinished_run(s, dir.path() / "stale.db", false);
  const auto report = merge(stale, std::vector{s.full});
  EXPECT_EQ(report.replaced, 1U);
  EXPECT_EQ(select_all(stale, results_query()), select_all(s.full, results_query()));

  // Done in the output, failed in the input: the output keeps its run.
  const auto done = copy_database(s.full, dir.path() / "done.db");
  const auto before = contents(done);
  const auto keep = merge(done, std::vector{failed});
  EXPECT_EQ(keep.kept, 1U);
  EXPECT_EQ(keep.replaced, 0U);
  EXPECT_TRUE(keep.conflicts.empty());
  EXPECT_EQ(contents(done), before);
  Store store(done, Store::Access::Read);
  EXPECT_EQ(store.state(key).status, RunStatus::Done);
}

TEST(Merge, RunningRowsOfAnInputAreSkipped) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto input = dir.path() / "running.db";
  {
    Store store(input, Store::Access::Write);
    const auto me = this_process("test");
    const std::vector<RunIdentity> running{identity(s.sweep, s.sweep.runs[0])};
    const std::vector<RunIdentity> stale{identity(s.sweep, s.sweep.runs[1])};
    ASSERT_EQ(store.claim(running, me, false), std::vector<bool>{true});
    ASSERT_EQ(store.claim(stale, owner_with_pid(dead_pid(), "ghost"), false),
              std::vector<bool>{true});
    ASSERT_EQ(store.mark_stale(me), 1);
  }
  const auto out = dir.path() / "merged.db";
  const auto report = merge(out, std::vector{input, s.shards[0]});
  EXPECT_EQ(report.unfinished, 2U);
  EXPECT_EQ(report.inserted,
            static_cast<std::size_t>(count(s.shards[0], "SELECT COUNT(*) FROM runs")));
  EXPECT_EQ(count(out, "SELECT COUNT(*) FROM runs WHERE status NOT IN ('done', 'failed')"), 0);
}

TEST(Merge, RefusesBadInputsBeforeWritingAnything) {
  const TempDir dir;
  const auto s = run_sharded(dir);
  const auto out = dir.path() / "merged.db";
  (void)merge(out, std::vector{s.shards[0]});
  const auto before = contents(out);

  const auto foreign = dir.path() / "foreign.db";
  {
    sql::Connection db(foreign, sql::Connection::Mode::Create);
    db.execute("CREATE TABLE runs (run_key TEXT)");
  }
  EXPECT_THAT(message_of(out, {s.shards[1], foreign}),
              AllOf(HasSubstr(foreign.string()), HasSubstr("another application")));
  EXPECT_EQ(contents(out), before);

  const auto newer = copy_database(s.shards[2], dir.path() / "newer.db");
  execute(newer, fmt::format("PRAGMA user_version = {}", schema::kVersion + 1));
  EXPECT_THAT(message_of(out, {s.shards[1], newer}),
              AllOf(HasSubstr(newer.string()),
                    HasSubstr(fmt::format("schema version {}", schema::kVersion + 1))));
  EXPECT_EQ(contents(out), before);

  const auto missing = dir.path() / "missing.db";
  EXPECT_THAT(message_of(out, {s.shards[1], missing}),
              AllOf(HasSubstr(missing.string()), HasSubstr("does not exist")));
  EXPECT_FALSE(std::filesystem::exists(missing));
  EXPECT_EQ(contents(out), before);

  // The output as an input, however it is spelt.
  for (const auto& self : {out, dir.path() / "." / "merged.db"}) {
    EXPECT_THAT(message_of(out, {s.shards[1], self}),
                AllOf(HasSubstr(self.string()), HasSubstr("output itself")));
    EXPECT_EQ(contents(out), before);
  }

  // A refused merge into a new file does not create it.
  const auto fresh = dir.path() / "fresh.db";
  EXPECT_NE(message_of(fresh, {s.shards[1], foreign}), "");
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

}  // namespace
}  // namespace mapsim::exp
