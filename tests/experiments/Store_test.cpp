// The results database: schema checks, upgrades, the run lifecycle, the writer thread, the views.

#include "experiments/Store.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>

#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/RankCorrelation.hpp"
#include "experiments/StoreWriter.hpp"
#include "support/Error.hpp"
#include "tests/experiments/SweepTestSupport.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

using mapsim::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace mapsim::exp::testing;

constexpr double kTolerance = 1e-12;
constexpr std::string_view kLongAgo = "2000-01-01T00:00:00.000Z";

/// The message of the InputError `open` throws ("" if it throws none).
template <typename F>
std::string error_of(F&& open) {
  try {
    open();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::filesystem::path new_database(const TempDir& dir, std::string_view name = "r.db") {
  const auto path = dir.path() / name;
  (void)Store(path, Store::Access::Write);
  return path;
}

void set_pragma(const std::filesystem::path& path, std::string_view pragma, std::int64_t value) {
  sql::Connection db(path, sql::Connection::Mode::ReadWrite);
  db.execute(fmt::format("PRAGMA {} = {}", pragma, value));
}

std::int64_t pragma(const std::filesystem::path& path, std::string_view name) {
  sql::Connection db(path, sql::Connection::Mode::ReadWrite);
  return db.query_integer(fmt::format("PRAGMA {}", name));
}

std::vector<std::string> table_columns(sql::Connection& db, std::string_view table) {
  auto info = db.prepare(fmt::format("PRAGMA table_info({})", table));
  std::vector<std::string> names;
  while (info.step()) names.push_back(info.text(1));
  return names;
}

/// One column of one run, read straight from the table.
schema::Value column(Store& store, std::string_view key, std::string_view name) {
  auto select =
      store.connection().prepare(fmt::format("SELECT {} FROM runs WHERE run_key = ?", name));
  select.bind(1, key);
  if (!select.step()) return std::string("absent");
  return select.value(0);
}

RunRecord done_record(
    std::string key, schema::Row static_row = schema::Row(schema::static_columns().size()),
    schema::Row simulation_row = schema::Row(schema::simulation_columns().size())) {
  RunRecord record;
  record.key = std::move(key);
  record.done = true;
  record.static_row = std::move(static_row);
  record.simulation_row = std::move(simulation_row);
  return record;
}

RunRecord failed_record(std::string key, std::string message) {
  RunRecord record;
  record.key = std::move(key);
  record.message = std::move(message);
  return record;
}

// --- Opening and schema checks ---

TEST(Store, NewDatabaseCarriesIdVersionAndWal) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  auto& db = store.connection();
  EXPECT_EQ(db.query_integer("PRAGMA application_id"), schema::kApplicationId);
  EXPECT_EQ(db.query_integer("PRAGMA user_version"), schema::kVersion);
  EXPECT_EQ(db.query_text("PRAGMA journal_mode"), "wal");
  EXPECT_EQ(db.query_integer("PRAGMA foreign_keys"), 1);
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM meta WHERE key IN ('created_by', "
                             "'created_from', 'created_at')"),
            3);
  for (const auto* name : {"runs", "mappings", "links", "meta", "tie_tolerances", "results",
                           "normalized", "rank_correlation"}) {
    EXPECT_EQ(
        db.query_integer(fmt::format("SELECT COUNT(*) FROM sqlite_schema WHERE name = '{}'", name)),
        1)
        << name;
  }
  EXPECT_EQ(store.integrity_check(), "ok");
  // Opening it again, to read or to write, changes nothing.
  const auto meta = select_all(db, "SELECT * FROM meta ORDER BY key");
  (void)Store(store.path(), Store::Access::Write);
  Store reader(store.path(), Store::Access::Read);
  EXPECT_EQ(select_all(reader.connection(), "SELECT * FROM meta ORDER BY key"), meta);
}

TEST(Store, TablesAreStrict) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  auto& db = store.connection();
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM pragma_table_list WHERE strict = 1 AND name "
                             "IN ('runs', 'mappings', 'links', 'meta')"),
            4);
  // Text in an INTEGER column is refused, not stored as text.
  const auto message = error_of([&] {
    db.execute(
        "INSERT INTO mappings VALUES ('k', 'd', 't', 'm', '', 'seven', 1, x'00000000', "
        "0.5)");
  });
  EXPECT_THAT(message, AllOf(HasSubstr("cannot store TEXT value in INTEGER column"),
                             HasSubstr("mappings.seed")));
  EXPECT_EQ(db.query_integer("SELECT COUNT(*) FROM mappings"), 0);
  // A run's status is one of four.
  auto run = fake_identity("k1");
  const std::vector<RunIdentity> runs{run};
  ASSERT_EQ(store.claim(runs, this_process("t"), false), std::vector<bool>{true});
  EXPECT_THAT(error_of([&] { db.execute("UPDATE runs SET status = 'finished'"); }),
              HasSubstr("CHECK constraint failed"));
}

TEST(Store, ColumnNamesAreUniqueAndMatchTheRunsTable) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  std::vector<std::string> expected{"run_key", "mapping_key", "context_key", "name",
                                    "status",  "message",     "config"};
  std::vector<std::string> types(expected.size(), "TEXT");
  for (const auto columns : {schema::config_columns(), schema::static_columns(),
                             schema::simulation_columns(), schema::provenance_columns()}) {
    for (const auto& c : columns) {
      expected.emplace_back(c.name);
      types.emplace_back(schema::sql_type(c.type));
    }
  }
  const std::set<std::string> unique(expected.begin(), expected.end());
  EXPECT_EQ(unique.size(), expected.size()) << "a column name is used twice";
  EXPECT_EQ(table_columns(store.connection(), "runs"), expected);
  auto info = store.connection().prepare("PRAGMA table_info(runs)");
  std::vector<std::string> declared;
  while (info.step()) declared.push_back(info.text(2));
  EXPECT_EQ(declared, types);
  // Every metric the queries accept is a column of the results view.
  const auto view = table_columns(store.connection(), "results");
  for (const auto metric : schema::metrics()) {
    EXPECT_NE(std::find(view.begin(), view.end(), metric), view.end()) << metric;
  }
  for (const auto metric : schema::correlated_metrics()) {
    EXPECT_NE(std::find(view.begin(), view.end(), metric), view.end()) << metric;
  }
}

TEST(Store, RefusesNewerSchemaNamingBothVersions) {
  const TempDir dir;
  const auto path = new_database(dir);
  set_pragma(path, "user_version", schema::kVersion + 1);
  for (const auto access : {Store::Access::Read, Store::Access::Write}) {
    EXPECT_THAT(error_of([&] { (void)Store(path, access); }),
                AllOf(HasSubstr(path.string()),
                      HasSubstr(fmt::format("schema version {}", schema::kVersion + 1)),
                      HasSubstr(fmt::format("this mapsim's {}", schema::kVersion))));
  }
  EXPECT_EQ(pragma(path, "user_version"), schema::kVersion + 1);  // left as it was
}

TEST(Store, RefusesOlderSchemaTellingToUpgrade) {
  const TempDir dir;
  const auto path = new_database(dir);
  set_pragma(path, "user_version", schema::kVersion - 1);
  EXPECT_THAT(error_of([&] { (void)Store(path, Store::Access::Write); }),
              AllOf(HasSubstr(path.string()),
                    HasSubstr(fmt::format("schema version {}", schema::kVersion - 1)),
                    HasSubstr("mapsim upgrade")));
  EXPECT_EQ(pragma(path, "user_version"), schema::kVersion - 1);
}

/// Every file in `dir` with its content.
std::map<std::string, std::string> directory_files(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    files[entry.path().filename().string()] = {std::istreambuf_iterator<char>(in),
                                               std::istreambuf_iterator<char>()};
  }
  return files;
}

TEST(Store, RefusesDatabasesOfOtherApplications) {
  const TempDir dir;
  // Tables, no application id.
  const auto tables = dir.path() / "tables.db";
  {
    sql::Connection db(tables, sql::Connection::Mode::Create);
    db.execute("CREATE TABLE notes (text TEXT)");
  }
  // Refused before anything is written: the file keeps every byte (it used to be switched to
  // WAL first: its header changed and -wal and -shm files appeared beside it).
  const auto files = [&] { return directory_files(dir.path()); };
  const auto before = files();
  for (const auto access : {Store::Access::Read, Store::Access::Write}) {
    EXPECT_THAT(error_of([&] { (void)Store(tables, access); }),
                AllOf(HasSubstr(tables.string()), HasSubstr("another application")));
    EXPECT_EQ(files(), before);
  }
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(tables); }),
              AllOf(HasSubstr(tables.string()), HasSubstr("another application")));
  EXPECT_EQ(files(), before);
  EXPECT_EQ(count(tables, "SELECT COUNT(*) FROM sqlite_schema"), 1);  // nothing added

  // Another application's id.
  const auto other = dir.path() / "other.db";
  {
    sql::Connection db(other, sql::Connection::Mode::Create);
    db.execute("PRAGMA application_id = 42; CREATE TABLE t (x INTEGER)");
  }
  const auto with_other = files();
  EXPECT_THAT(error_of([&] { (void)Store(other, Store::Access::Write); }),
              AllOf(HasSubstr(other.string()), HasSubstr("not a mapsim results database"),
                    HasSubstr("0x2a")));
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(other); }),
              AllOf(HasSubstr(other.string()), HasSubstr("0x2a")));
  EXPECT_EQ(files(), with_other);

  // An empty database is not one to read.
  const auto empty = dir.path() / "empty.db";
  { sql::Connection db(empty, sql::Connection::Mode::Create); }
  EXPECT_THAT(error_of([&] { (void)Store(empty, Store::Access::Read); }),
              AllOf(HasSubstr(empty.string()), HasSubstr("empty database")));
}

TEST(Store, RefusesFileThatIsNotADatabase) {
  const TempDir dir;
  std::string text;
  for (int i = 0; i < 100; ++i) text += "workload,machine,mapper,hop_bytes\n";
  const auto path = dir.write("results.csv", text);
  for (const auto access : {Store::Access::Read, Store::Access::Write}) {
    EXPECT_THAT(error_of([&] { (void)Store(path, access); }),
                AllOf(HasSubstr(path.string()), HasSubstr("not a database")));
  }
  // Untouched.
  std::ifstream in(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text);
}

TEST(Store, ReadingMissingFileNamesItAndCreatesNothing) {
  const TempDir dir;
  const auto path = dir.path() / "missing.db";
  EXPECT_THAT(error_of([&] { (void)Store(path, Store::Access::Read); }),
              AllOf(HasSubstr(path.string()), HasSubstr("does not exist")));
  EXPECT_FALSE(std::filesystem::exists(path));
  const auto nowhere = dir.path() / "no" / "such" / "folder" / "r.db";
  EXPECT_THAT(error_of([&] { (void)Store(nowhere, Store::Access::Write); }),
              HasSubstr(nowhere.string()));
}

TEST(Store, RunnersCreatingOneDatabaseAtOnceWaitInsteadOfFailing) {
  // Store.hpp: a second writer waits instead of failing. Two runners that start together on a
  // new file must both open it, and the schema must be created once.
  const TempDir dir;
  constexpr int kAttempts = 100;
  constexpr int kRunners = 2;
  int failures = 0;
  std::set<std::string> reasons;
  std::mutex mutex;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const auto path = dir.path() / fmt::format("r{}.db", attempt);
    std::atomic<int> ready{0};
    std::vector<std::thread> runners;
    for (int r = 0; r < kRunners; ++r) {
      runners.emplace_back([&] {
        ++ready;
        while (ready.load() < kRunners) {
        }
        try {
          (void)Store(path, Store::Access::Write);
        } catch (const std::exception& e) {
          std::string reason = e.what();
          if (const auto at = reason.find(path.string()); at != std::string::npos)
            reason.erase(at, path.string().size());
          const std::lock_guard lock(mutex);
          ++failures;
          reasons.insert(reason);
        }
      });
    }
    for (auto& runner : runners) runner.join();
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM meta"), 3);
  }
  EXPECT_EQ(failures, 0) << fmt::format("{}", fmt::join(reasons, "\n"));
}

// --- Upgrades ---

TEST(StoreUpgrade, MigratesKeepingACopy) {
  const TempDir dir;
  const auto path = new_database(dir);
  set_pragma(path, "user_version", schema::kVersion - 1);
  const std::array steps{
      schema::Migration{schema::kVersion - 1, "ALTER TABLE meta ADD COLUMN x TEXT"}};
  EXPECT_EQ(Store::upgrade(path, steps, schema::kVersion), schema::kVersion - 1);

  Store store(path, Store::Access::Read);  // the current version now
  EXPECT_EQ(store.connection().query_integer("PRAGMA user_version"), schema::kVersion);
  EXPECT_EQ(table_columns(store.connection(), "meta"),
            (std::vector<std::string>{"key", "value", "x"}));
  // The copy is the database as it was: the old version, its tables, no new column.
  auto backup = path;
  backup += ".bak";
  ASSERT_TRUE(std::filesystem::exists(backup));
  sql::Connection old(backup, sql::Connection::Mode::ReadWrite);
  EXPECT_EQ(old.query_integer("PRAGMA user_version"), schema::kVersion - 1);
  EXPECT_EQ(table_columns(old, "meta"), (std::vector<std::string>{"key", "value"}));
  EXPECT_EQ(old.query_integer("SELECT COUNT(*) FROM meta"), 3);
}

TEST(StoreUpgrade, RunsEveryStepInOrder) {
  const TempDir dir;
  const auto path = new_database(dir);
  set_pragma(path, "user_version", 0);
  // Listed out of order: each step is found by its version.
  const std::array steps{schema::Migration{1, "ALTER TABLE meta ADD COLUMN b TEXT"},
                         schema::Migration{0, "ALTER TABLE meta ADD COLUMN a TEXT"},
                         schema::Migration{2, "ALTER TABLE meta RENAME COLUMN a TO c"}};
  EXPECT_EQ(Store::upgrade(path, steps, 3), 0);
  sql::Connection db(path, sql::Connection::Mode::ReadWrite);
  EXPECT_EQ(db.query_integer("PRAGMA user_version"), 3);
  EXPECT_EQ(table_columns(db, "meta"), (std::vector<std::string>{"key", "value", "c", "b"}));
}

TEST(StoreUpgrade, MissingOrFailingStepChangesNothing) {
  const TempDir dir;
  const auto path = new_database(dir);
  set_pragma(path, "user_version", 0);
  // Step 0 works, step 1 is missing: step 0 is rolled back with the rest.
  const std::array gap{schema::Migration{0, "ALTER TABLE meta ADD COLUMN a TEXT"},
                       schema::Migration{2, "ALTER TABLE meta ADD COLUMN c TEXT"}};
  EXPECT_THAT(
      error_of([&] { (void)Store::upgrade(path, gap, 3); }),
      AllOf(HasSubstr(path.string()), HasSubstr("no migration from schema version 1 to 2")));
  EXPECT_EQ(pragma(path, "user_version"), 0);
  {
    sql::Connection db(path, sql::Connection::Mode::ReadWrite);
    EXPECT_EQ(table_columns(db, "meta"), (std::vector<std::string>{"key", "value"}));
  }
  const std::array broken{schema::Migration{0, "ALTER TABLE nowhere ADD COLUMN a TEXT"}};
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(path, broken, 1); }), HasSubstr("nowhere"));
  EXPECT_EQ(pragma(path, "user_version"), 0);
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(path, {}, 1); }),
              HasSubstr("no migration from schema version 0 to 1"));
}

TEST(StoreUpgrade, CurrentVersionIsLeftAloneAndOthersRefused) {
  const TempDir dir;
  const auto path = new_database(dir);
  EXPECT_EQ(Store::upgrade(path), schema::kVersion);
  auto backup = path;
  backup += ".bak";
  EXPECT_FALSE(std::filesystem::exists(backup));  // nothing to do, nothing copied

  set_pragma(path, "user_version", schema::kVersion + 1);
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(path); }),
              HasSubstr(fmt::format("schema version {}, newer", schema::kVersion + 1)));
  EXPECT_EQ(pragma(path, "user_version"), schema::kVersion + 1);

  const auto other = dir.path() / "other.db";
  {
    sql::Connection db(other, sql::Connection::Mode::Create);
    db.execute("CREATE TABLE t (x INTEGER)");
  }
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(other); }),
              AllOf(HasSubstr(other.string()), HasSubstr("another application")));
  EXPECT_THAT(error_of([&] { (void)Store::upgrade(dir.path() / "missing.db"); }),
              HasSubstr("does not exist"));
}

// --- The run lifecycle ---

TEST(StoreClaim, NewRunsAreClaimedOnce) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> runs{fake_identity("a"), fake_identity("b")};
  EXPECT_EQ(store.claim(runs, me, false), (std::vector<bool>{true, true}));
  EXPECT_EQ(store.state("a").status, RunStatus::Running);
  // The claimed row holds the run's identity and its owner.
  const auto row = select_all(store.connection(),
                              "SELECT mapping_key, context_key, name, status, config, mapper, "
                              "repeat, host, pid, owner, command, results_version FROM runs "
                              "WHERE run_key = 'a'");
  ASSERT_EQ(row.size(), 1U);
  EXPECT_EQ(row[0],
            (schema::Row{std::string("mapping-a"), std::string("context"), std::string("run-a"),
                         std::string("running"), std::string("key: a\n"), std::string("in-order"),
                         std::int64_t{0}, me.host, me.pid, me.token, me.command, kResultsVersion}));
  // Our own running rows are not claimed twice.
  EXPECT_EQ(store.claim(runs, me, false), (std::vector<bool>{false, false}));
  EXPECT_EQ(store.claim(runs, me, true), (std::vector<bool>{false, false}));
}

TEST(StoreClaim, FinishedRunsAreNotClaimedButFailedOnesWithRerunFailed) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> runs{fake_identity("done"), fake_identity("failed")};
  ASSERT_EQ(store.claim(runs, me, false), (std::vector<bool>{true, true}));
  ASSERT_TRUE(store.commit(done_record("done"), me));
  ASSERT_TRUE(store.commit(failed_record("failed", "it broke"), me));
  const auto later = this_process("later");
  EXPECT_EQ(store.claim(runs, later, false), (std::vector<bool>{false, false}));
  EXPECT_EQ(store.state("failed").status, RunStatus::Failed);
  EXPECT_EQ(store.claim(runs, later, true), (std::vector<bool>{false, true}));
  EXPECT_EQ(store.state("done").status, RunStatus::Done);
  EXPECT_EQ(store.state("failed").status, RunStatus::Running);
  EXPECT_EQ(column(store, "failed", "owner"), schema::Value(later.token));
  EXPECT_EQ(column(store, "failed", "message"), schema::Value());
}

TEST(StoreClaim, RunOfLiveOwnerIsNotClaimed) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  // Our parent process is alive: its row is taken by no one.
  const auto live = owner_with_pid(::getppid(), "parent");
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, live, false), std::vector<bool>{true});
  EXPECT_EQ(store.claim(runs, this_process("test"), false), std::vector<bool>{false});
  EXPECT_EQ(store.claim(runs, this_process("test"), true), std::vector<bool>{false});
  const auto state = store.state("a");
  EXPECT_EQ(state.status, RunStatus::Running);
  EXPECT_EQ(state.pid, ::getppid());
  EXPECT_EQ(state.host, live.host);
  EXPECT_EQ(column(store, "a", "owner"), schema::Value(std::string("parent")));
}

TEST(StoreClaim, RunOfDeadOwnerIsTakenOver) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto ghost = owner_with_pid(dead_pid(), "ghost");
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, ghost, false), std::vector<bool>{true});
  EXPECT_EQ(store.state("a").status, RunStatus::Stale);
  const auto me = this_process("test");
  EXPECT_EQ(store.claim(runs, me, false), std::vector<bool>{true});
  EXPECT_EQ(store.state("a").status, RunStatus::Running);
  EXPECT_EQ(column(store, "a", "owner"), schema::Value(me.token));
  EXPECT_EQ(column(store, "a", "pid"), schema::Value(me.pid));
  // The ghost can no longer commit it.
  EXPECT_FALSE(store.commit(done_record("a"), ghost));
  EXPECT_TRUE(store.commit(done_record("a"), me));
}

TEST(StoreClaim, RunOfOurPidWithAnotherTokenIsTakenOver) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto earlier = owner_with_pid(::getpid(), "earlier process with our pid");
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, earlier, false), std::vector<bool>{true});
  const auto me = this_process("test");
  EXPECT_EQ(store.claim(runs, me, false), std::vector<bool>{true});
  EXPECT_EQ(column(store, "a", "owner"), schema::Value(me.token));
}

TEST(StoreClaim, RunWithExpiredHeartbeatIsTakenOverOnAnyHost) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  auto remote = owner_with_pid(::getppid(), "remote");
  remote.host = "another-host.example";
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, remote, false), std::vector<bool>{true});
  // A pid on another host says nothing here: a fresh heartbeat keeps the row.
  EXPECT_EQ(store.state("a").status, RunStatus::Running);
  EXPECT_EQ(store.claim(runs, this_process("test"), false), std::vector<bool>{false});
  store.connection().execute(fmt::format("UPDATE runs SET heartbeat_at = '{}'", kLongAgo));
  EXPECT_EQ(store.state("a").status, RunStatus::Stale);
  EXPECT_EQ(store.claim(runs, this_process("test"), false), std::vector<bool>{true});
}

TEST(StoreClaim, RunWithAHeartbeatFarInTheFutureIsTakenOver) {
  // A heartbeat ahead of this host's clock by more than the expiry (another host's clock far
  // off, or an altered row) read as fresh until that time came: the run was skipped forever.
  // Clocks of hosts sharing a database agree within the expiry, or no heartbeat means anything.
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  auto remote = owner_with_pid(::getppid(), "remote");
  remote.host = "another-host.example";
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, remote, false), std::vector<bool>{true});
  store.connection().execute("UPDATE runs SET heartbeat_at = '2999-01-01T00:00:00.000Z'");
  EXPECT_EQ(store.state("a").status, RunStatus::Stale);
  EXPECT_EQ(store.mark_stale(this_process("test")), 1);
  EXPECT_EQ(store.claim(runs, this_process("test"), false), std::vector<bool>{true});
  // A few seconds ahead (clocks a little apart) is a live runner.
  const std::vector<RunIdentity> other{fake_identity("b")};
  ASSERT_EQ(store.claim(other, remote, false), std::vector<bool>{true});
  store.connection().execute(
      "UPDATE runs SET heartbeat_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+5 seconds') "
      "WHERE run_key = 'b'");
  EXPECT_EQ(store.state("b").status, RunStatus::Running);
}

TEST(StoreCommit, StoresResultsMappingAndLinks) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, me, false), std::vector<bool>{true});
  auto record = done_record(
      "a",
      row_of(schema::static_columns(), {{"hop_bytes", std::int64_t{1234}}, {"dilation_avg", 1.5}}),
      row_of(schema::simulation_columns(),
             {{"makespan_ps", std::int64_t{5'000'000}}, {"sim_seconds", 0.25}}));
  record.mapping = StoredMapping{
      "mapping-a", "digest", "torus:2x2", "greedy", "k=1", 7, topo::Mapping({3, 1, 2, 0}), 0.125};
  record.links = {{0, 0, 1, "torus", 100, 90, 1000, 0.5}, {3, 2, 3, "torus", 50, {}, {}, {}}};
  ASSERT_TRUE(store.commit(record, me));

  const auto state = store.state("a");
  EXPECT_EQ(state.status, RunStatus::Done);
  EXPECT_EQ(column(store, "a", "hop_bytes"), schema::Value(std::int64_t{1234}));
  EXPECT_EQ(column(store, "a", "dilation_avg"), schema::Value(1.5));
  EXPECT_EQ(column(store, "a", "bytes"), schema::Value());
  EXPECT_EQ(column(store, "a", "makespan_ps"), schema::Value(std::int64_t{5'000'000}));
  EXPECT_EQ(column(store, "a", "message"), schema::Value());
  EXPECT_EQ(store.connection().query_integer(
                "SELECT finished_at IS NOT NULL AND finished_at >= started_at FROM runs"),
            1);
  // The results view gives times in seconds and the mapper's wall time.
  const auto view = select_all(store.connection(),
                               "SELECT makespan_s, map_seconds FROM results WHERE run_key = 'a'");
  ASSERT_EQ(view.size(), 1U);
  EXPECT_NEAR(std::get<double>(view[0][0]), 5e-6, kTolerance);
  EXPECT_EQ(view[0][1], schema::Value(0.125));

  const auto mapping = store.mapping("mapping-a");
  ASSERT_TRUE(mapping.has_value());
  EXPECT_EQ(mapping->mapping, topo::Mapping({3, 1, 2, 0}));
  EXPECT_EQ(mapping->workload_digest, "digest");
  EXPECT_EQ(mapping->topology, "torus:2x2");
  EXPECT_EQ(mapping->mapper, "greedy");
  EXPECT_EQ(mapping->params, "k=1");
  EXPECT_EQ(mapping->seed, 7);
  EXPECT_EQ(mapping->map_seconds, 0.125);
  EXPECT_FALSE(store.mapping("mapping-b").has_value());

  EXPECT_EQ(
      select_all(store.connection(), "SELECT * FROM links ORDER BY link"),
      (Table{{std::string("a"), std::int64_t{0}, std::int64_t{0}, std::int64_t{1},
              std::string("torus"), std::int64_t{100}, std::int64_t{90}, std::int64_t{1000}, 0.5},
             {std::string("a"), std::int64_t{3}, std::int64_t{2}, std::int64_t{3},
              std::string("torus"), std::int64_t{50}, schema::Value(), schema::Value(),
              schema::Value()}}));
  // A finished run is no longer ours to commit.
  EXPECT_FALSE(store.commit(record, me));
}

TEST(StoreCommit, FailedRunKeepsItsMessageAndNoResults) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, me, false), std::vector<bool>{true});
  ASSERT_TRUE(store.commit(failed_record("a", "mapper 'x': too many ranks"), me));
  const auto state = store.state("a");
  EXPECT_EQ(state.status, RunStatus::Failed);
  EXPECT_EQ(state.message, "mapper 'x': too many ranks");
  EXPECT_EQ(column(store, "a", "hop_bytes"), schema::Value());
  EXPECT_EQ(column(store, "a", "makespan_ps"), schema::Value());
}

TEST(StoreCommit, NonOwnerWritesNothing) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> runs{fake_identity("a")};
  ASSERT_EQ(store.claim(runs, me, false), std::vector<bool>{true});
  const auto before = select_all(store.connection(), "SELECT * FROM runs");
  auto record =
      done_record("a", row_of(schema::static_columns(), {{"hop_bytes", std::int64_t{1}}}));
  record.mapping = StoredMapping{"mapping-a", "d", "t", "m", "", 0, topo::Mapping({0}), 0};
  record.links = {{0, 0, 1, "torus", 100, {}, {}, {}}};
  EXPECT_FALSE(store.commit(record, this_process("intruder")));
  EXPECT_EQ(select_all(store.connection(), "SELECT * FROM runs"), before);
  EXPECT_EQ(store.connection().query_integer("SELECT COUNT(*) FROM mappings"), 0);
  EXPECT_EQ(store.connection().query_integer("SELECT COUNT(*) FROM links"), 0);
  // An unknown run is nobody's.
  EXPECT_FALSE(store.commit(done_record("unknown"), me));
  EXPECT_EQ(store.connection().query_integer("SELECT COUNT(*) FROM runs"), 1);
}

TEST(StoreRelease, DeletesOnlyOwnRunningRows) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const auto live = owner_with_pid(::getppid(), "parent");
  const std::vector<RunIdentity> mine{fake_identity("mine"), fake_identity("finished")};
  const std::vector<RunIdentity> theirs{fake_identity("theirs")};
  ASSERT_EQ(store.claim(mine, me, false), (std::vector<bool>{true, true}));
  ASSERT_EQ(store.claim(theirs, live, false), std::vector<bool>{true});
  ASSERT_TRUE(store.commit(done_record("finished"), me));
  const std::vector<std::string> keys{"mine", "finished", "theirs", "unknown"};
  store.release(keys, me);
  EXPECT_EQ(store.state("mine").status, RunStatus::New);
  EXPECT_EQ(store.state("finished").status, RunStatus::Done);
  EXPECT_EQ(store.state("theirs").status, RunStatus::Running);
  store.release({}, me);  // nothing to do
  EXPECT_EQ(store.connection().query_integer("SELECT COUNT(*) FROM runs"), 2);
}

TEST(StoreState, ReportsEveryStatus) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const auto live = owner_with_pid(::getppid(), "parent");
  const auto ghost = owner_with_pid(dead_pid(), "ghost");
  const std::vector<RunIdentity> mine{fake_identity("done"), fake_identity("failed")};
  const std::vector<RunIdentity> running{fake_identity("running")};
  const std::vector<RunIdentity> stale{fake_identity("stale")};
  ASSERT_EQ(store.claim(mine, me, false), (std::vector<bool>{true, true}));
  ASSERT_EQ(store.claim(running, live, false), std::vector<bool>{true});
  ASSERT_EQ(store.claim(stale, ghost, false), std::vector<bool>{true});
  ASSERT_TRUE(store.commit(done_record("done"), me));
  ASSERT_TRUE(store.commit(failed_record("failed", "why"), me));

  EXPECT_EQ(store.state("new").status, RunStatus::New);
  EXPECT_EQ(store.state("done").status, RunStatus::Done);
  const auto failed = store.state("failed");
  EXPECT_EQ(failed.status, RunStatus::Failed);
  EXPECT_EQ(failed.message, "why");
  const auto other = store.state("running");
  EXPECT_EQ(other.status, RunStatus::Running);
  EXPECT_EQ(other.pid, ::getppid());
  const auto left = store.state("stale");
  EXPECT_EQ(left.status, RunStatus::Stale);
  EXPECT_EQ(left.pid, ghost.pid);
  EXPECT_EQ(left.host, ghost.host);

  EXPECT_EQ(name(RunStatus::New), "new");
  EXPECT_EQ(name(RunStatus::Running), "running");
  EXPECT_EQ(name(RunStatus::Done), "done");
  EXPECT_EQ(name(RunStatus::Failed), "failed");
  EXPECT_EQ(name(RunStatus::Stale), "stale");
}

TEST(StoreState, MarkStaleCountsRowsWhoseOwnerIsGone) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> dead{fake_identity("dead1"), fake_identity("dead2")};
  const std::vector<RunIdentity> reused{fake_identity("reused")};
  const std::vector<RunIdentity> live{fake_identity("live")};
  const std::vector<RunIdentity> mine{fake_identity("mine")};
  const std::vector<RunIdentity> silent{fake_identity("silent")};
  ASSERT_EQ(store.claim(dead, owner_with_pid(dead_pid(), "ghost"), false),
            (std::vector<bool>{true, true}));
  ASSERT_EQ(store.claim(reused, owner_with_pid(::getpid(), "earlier"), false),
            std::vector<bool>{true});
  ASSERT_EQ(store.claim(live, owner_with_pid(::getppid(), "parent"), false),
            std::vector<bool>{true});
  ASSERT_EQ(store.claim(mine, me, false), std::vector<bool>{true});
  auto remote = owner_with_pid(::getppid(), "remote");
  remote.host = "another-host.example";
  ASSERT_EQ(store.claim(silent, remote, false), std::vector<bool>{true});
  store.connection().execute(
      fmt::format("UPDATE runs SET heartbeat_at = '{}' WHERE run_key = 'silent'", kLongAgo));

  // Dead pid (2), our pid with another token (1), a heartbeat older than the expiry (1).
  EXPECT_EQ(store.mark_stale(me), 4);
  EXPECT_EQ(select_all(store.connection(),
                       "SELECT run_key FROM runs WHERE status = 'stale' ORDER BY run_key"),
            (Table{{std::string("dead1")},
                   {std::string("dead2")},
                   {std::string("reused")},
                   {std::string("silent")}}));
  EXPECT_EQ(store.state("dead1").status, RunStatus::Stale);
  EXPECT_EQ(store.state("live").status, RunStatus::Running);
  EXPECT_EQ(store.state("mine").status, RunStatus::Running);
  EXPECT_EQ(store.mark_stale(me), 0);  // stale rows are counted once
  // A stale row is claimed again.
  EXPECT_EQ(store.claim(dead, me, false), (std::vector<bool>{true, true}));
}

TEST(StoreHeartbeat, RefreshesOwnRunningRowsOnly) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const std::vector<RunIdentity> mine{fake_identity("mine"), fake_identity("finished")};
  const std::vector<RunIdentity> theirs{fake_identity("theirs")};
  ASSERT_EQ(store.claim(mine, me, false), (std::vector<bool>{true, true}));
  ASSERT_EQ(store.claim(theirs, owner_with_pid(::getppid(), "parent"), false),
            std::vector<bool>{true});
  ASSERT_TRUE(store.commit(done_record("finished"), me));
  store.connection().execute(fmt::format("UPDATE runs SET heartbeat_at = '{}'", kLongAgo));
  store.heartbeat(me);
  const auto now = utc_now();
  const auto beat = [&](std::string_view key) {
    return std::get<std::string>(column(store, key, "heartbeat_at"));
  };
  EXPECT_GT(beat("mine"), "2020");
  EXPECT_LE(beat("mine"), now);
  EXPECT_EQ(beat("finished"), kLongAgo);
  EXPECT_EQ(beat("theirs"), kLongAgo);
}

TEST(StoreProcess, OwnerIsThisProcessWithAFreshToken) {
  const auto a = this_process("mapsim run x.yaml");
  const auto b = this_process("mapsim run x.yaml");
  EXPECT_EQ(a.pid, ::getpid());
  EXPECT_FALSE(a.host.empty());
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.command, "mapsim run x.yaml");
  EXPECT_EQ(a.token.size(), 16U);
  EXPECT_NE(a.token, b.token);
  EXPECT_THAT(utc_now(),
              ::testing::MatchesRegex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"
                                      "\\.[0-9]{3}Z"));
}

// --- Mapping blobs ---

TEST(MappingBlob, RoundTripsAndIsLittleEndian) {
  const topo::Mapping mapping({0, 5, 70000, 3, 0x001F0304});
  const auto blob = encode_mapping(mapping);
  ASSERT_EQ(blob.size(), 20U);
  // 70000 = 0x00011170, stored low byte first at offset 8.
  EXPECT_EQ(blob.substr(8, 4), std::string("\x70\x11\x01\x00", 4));
  EXPECT_EQ(blob.substr(16, 4), std::string("\x04\x03\x1F\x00", 4));
  const auto bytes = std::as_bytes(std::span(blob.data(), blob.size()));
  EXPECT_EQ(decode_mapping(bytes, "test"), mapping);
  // Cores + 1 in the 11 bits above the node's 21: rank 1 on node 5, core 2 = 5 | 3 << 21.
  const topo::Mapping with_cores({0, 5, 0}, {1, 2, 0});
  ASSERT_FALSE(with_cores.cores().empty());
  const auto cored = encode_mapping(with_cores);
  EXPECT_EQ(cored.substr(4, 4), std::string("\x05\x00\x60\x00", 4));
  EXPECT_EQ(decode_mapping(std::as_bytes(std::span(cored.data(), cored.size())), "test"),
            with_cores);
  EXPECT_EQ(decode_mapping({}, "test"), topo::Mapping());
  EXPECT_EQ(encode_mapping(topo::Mapping()), "");
}

TEST(MappingBlob, BadSizeFailsNamingWhat) {
  const std::string blob(7, '\0');
  EXPECT_THAT(error_of([&] {
                (void)decode_mapping(std::as_bytes(std::span(blob.data(), blob.size())),
                                     "'r.db': mapping abc");
              }),
              AllOf(HasSubstr("'r.db': mapping abc"), HasSubstr("7 bytes")));
}

TEST(MappingBlob, DamagedStoredBlobIsAnInputError) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  store.connection().execute(
      "INSERT INTO mappings VALUES ('m1', 'd', 't', 'in-order', '', 0, 2, "
      "x'000000000100', 0.0)");
  EXPECT_THAT(error_of([&] { (void)store.mapping("m1"); }),
              AllOf(HasSubstr("mapping m1"), HasSubstr("6 bytes")));
}

// --- The writer thread ---

TEST(StoreWriter, ReaderAndSecondWriterWorkWhileItCommits) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  constexpr int kRuns = 300;
  StoreWriter writer(path, this_process("writer"));
  std::vector<RunIdentity> runs;
  for (int i = 0; i < kRuns; ++i) runs.push_back(fake_identity(fmt::format("run{:04}", i)));
  ASSERT_EQ(writer.claim(runs, false), std::vector<bool>(kRuns, true));

  std::atomic<bool> over{false};
  std::vector<std::int64_t> counts;
  std::string reader_error;
  std::thread reader([&] {
    try {
      Store store(path, Store::Access::Read);
      do {
        counts.push_back(
            store.connection().query_integer("SELECT COUNT(*) FROM runs WHERE status = 'done'"));
      } while (!over.load());
      counts.push_back(
          store.connection().query_integer("SELECT COUNT(*) FROM runs WHERE status = 'done'"));
    } catch (const std::exception& e) {
      reader_error = e.what();
    }
  });
  // Another runner claims runs of its own meanwhile: it waits for the lock, never fails.
  std::string other_error;
  std::thread other([&] {
    try {
      Store store(path, Store::Access::Write);
      const auto owner = this_process("other");
      for (int i = 0; i < 50; ++i) {
        const std::vector<RunIdentity> one{fake_identity(fmt::format("other{:03}", i))};
        if (store.claim(one, owner, false) != std::vector<bool>{true}) other_error = "not claimed";
      }
    } catch (const std::exception& e) {
      other_error = e.what();
    }
  });

  std::vector<std::future<bool>> answers;
  for (int i = 0; i < kRuns; ++i) {
    answers.push_back(writer.commit(
        done_record(runs[static_cast<std::size_t>(i)].key,
                    row_of(schema::static_columns(), {{"hop_bytes", std::int64_t{i}}}))));
  }
  for (auto& answer : answers) EXPECT_TRUE(answer.get());
  writer.finish();
  over = true;
  reader.join();
  other.join();

  EXPECT_EQ(reader_error, "");
  EXPECT_EQ(other_error, "");
  ASSERT_GE(counts.size(), 2U);
  EXPECT_TRUE(std::is_sorted(counts.begin(), counts.end())) << "a count decreased";
  EXPECT_EQ(counts.back(), kRuns);
  EXPECT_EQ(writer.commits(), static_cast<std::uint64_t>(kRuns));
  EXPECT_GE(writer.commit_seconds(), 0.0);
  EXPECT_EQ(count(path, "SELECT COUNT(*) FROM runs WHERE status = 'running'"), 50);
  EXPECT_EQ(count(path, "SELECT SUM(hop_bytes) FROM runs"), kRuns * (kRuns - 1) / 2);
}

TEST(StoreWriter, WriteErrorReachesTheCommitAndFinish) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  StoreWriter writer(path, this_process("writer"));
  const std::vector<RunIdentity> runs{fake_identity("a"), fake_identity("b")};
  ASSERT_EQ(writer.claim(runs, false), (std::vector<bool>{true, true}));
  // Two rows for one link break the links table's primary key.
  auto record = done_record("a");
  record.links = {{1, 0, 1, "torus", 10, {}, {}, {}}, {1, 0, 1, "torus", 20, {}, {}, {}}};
  auto answer = writer.commit(record);
  EXPECT_THROW((void)answer.get(), InputError);
  EXPECT_THROW(writer.finish(), InputError);
  // The failed commit is rolled back whole: the run is still claimed, without results.
  Store store(path, Store::Access::Read);
  EXPECT_EQ(store.state("a").status, RunStatus::Running);
  EXPECT_EQ(store.connection().query_integer("SELECT COUNT(*) FROM links"), 0);
}

TEST(StoreWriter, AClaimQueuedBehindAFailedWriteIsAnswered) {
  // A claim waits for its answer. One queued behind a write that failed used to be dropped
  // unanswered while the claim itself kept its promise alive: the worker waited forever (a
  // sweep on a read-only database hung). It must get the write's error.
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  auto writer = std::make_unique<StoreWriter>(path, this_process("writer"));
  const std::vector<RunIdentity> runs{fake_identity("a"), fake_identity("b")};
  ASSERT_EQ(writer->claim(runs, false), (std::vector<bool>{true, true}));
  // Another connection holds the write lock: the writer waits in the failing commit until the
  // claim is queued behind it.
  sql::Connection blocker(path, sql::Connection::Mode::ReadWrite);
  blocker.execute("BEGIN IMMEDIATE");
  auto record = done_record("a");  // two rows for one link break the links table's primary key
  record.links = {{1, 0, 1, "torus", 10, {}, {}, {}}, {1, 0, 1, "torus", 20, {}, {}, {}}};
  auto failed = writer->commit(record);
  // The writer's thread takes the commit (and waits for the lock in it) before the claim is
  // queued: on a loaded machine it may not have yet, and both would be counted as queued.
  for (int i = 0; i < 60'000 && writer->queued() != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(writer->queued(), 0U) << "the writer did not take the commit";
  std::promise<std::string> claim_answer;
  auto claimed = claim_answer.get_future();
  std::thread worker([&] {
    try {
      (void)writer->claim({fake_identity("c")}, false);
      claim_answer.set_value("claimed");
    } catch (const InputError& e) {
      claim_answer.set_value(std::string("InputError: ") + e.what());
    } catch (const std::exception& e) {
      claim_answer.set_value(std::string("other error: ") + e.what());
    }
  });
  for (int i = 0; i < 60'000 && writer->queued() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(writer->queued(), 1U) << "the claim was not queued";
  blocker.execute("ROLLBACK");
  EXPECT_THROW((void)failed.get(), InputError);
  if (claimed.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    ADD_FAILURE() << "the queued claim got no answer";
    worker.detach();  // it waits forever: leave it, and the writer it uses, to the process
    (void)writer.release();
    return;
  }
  worker.join();
  EXPECT_THAT(claimed.get(), AllOf(HasSubstr("InputError"), HasSubstr("UNIQUE constraint")));
  EXPECT_THROW(writer->finish(), InputError);
  // Nothing was written after the failure: c was never claimed.
  EXPECT_EQ(count(path, "SELECT COUNT(*) FROM runs WHERE run_key = 'c'"), 0);
}

TEST(StoreWriter, ReleasesAndHeartbeats) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  const std::vector<RunIdentity> runs{fake_identity("a"), fake_identity("b")};
  {
    // A short heartbeat period: the rows it holds are refreshed while it waits.
    StoreWriter writer(path, this_process("writer"), 0.001);
    ASSERT_EQ(writer.claim(runs, false), (std::vector<bool>{true, true}));
    {
      Store store(path, Store::Access::Write);
      store.connection().execute(fmt::format("UPDATE runs SET heartbeat_at = '{}'", kLongAgo));
    }
    bool refreshed = false;
    for (int i = 0; i < 5000 && !refreshed; ++i) {
      refreshed = count(path, fmt::format("SELECT COUNT(*) FROM runs WHERE heartbeat_at = '{}'",
                                          kLongAgo)) == 0;
      if (!refreshed) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_TRUE(refreshed);
    writer.release({"a"});
    EXPECT_TRUE(writer.commit(done_record("b")).get());
    writer.finish();
  }
  EXPECT_EQ(select_all(path, "SELECT run_key, status FROM runs"),
            (Table{{std::string("b"), std::string("done")}}));
}

// --- Views ---

/// Commits a done run in `context` with the given static and simulation values.
void add_done_run(Store& store, const Owner& me, const std::string& key, const std::string& context,
                  const std::string& mapper, schema::Row static_row, schema::Row simulation_row,
                  std::int64_t repeat = 0) {
  const std::vector<RunIdentity> runs{fake_identity(key, context, mapper, repeat)};
  ASSERT_EQ(store.claim(runs, me, false), std::vector<bool>{true});
  ASSERT_TRUE(store.commit(done_record(key, std::move(static_row), std::move(simulation_row)), me));
}

TEST(StoreViews, RankCorrelationEqualsSpearman) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  // Context A: six mappings, with ties in several metrics and in the makespan.
  const std::vector<std::vector<double>> a_static{
      // hop_bytes, hop_messages, dilation_avg, link_bytes_max, busiest_link_s,
      // link_load_squares, latency_s, ienlc
      {100, 1, 1.5, 10, 0.1, 5, 0.3, 3}, {200, 2, 1.5, 9, 0.2, 4, 0.1, 3},
      {200, 3, 1.5, 8, 0.1, 3, 0.2, 3},  {50, 4, 2.0, 7, 0.2, 2, 0.3, 3},
      {400, 5, 1.0, 6, 0.1, 1, 0.5, 3},  {300, 6, 3.0, 5, 0.2, 6, 0.4, 3}};
  const std::vector<double> a_makespan{1000, 3000, 2000, 1000, 5000, 4000};
  const auto static_row = [](const std::vector<double>& v) {
    return row_of(schema::static_columns(), {{"hop_bytes", static_cast<std::int64_t>(v[0])},
                                             {"hop_messages", static_cast<std::int64_t>(v[1])},
                                             {"dilation_avg", v[2]},
                                             {"link_bytes_max", static_cast<std::int64_t>(v[3])},
                                             {"busiest_link_s", v[4]},
                                             {"link_load_squares", v[5]},
                                             {"latency_s", v[6]},
                                             {"ienlc", static_cast<std::int64_t>(v[7])}});
  };
  const auto makespan = [](double ps) {
    return row_of(schema::simulation_columns(), {{"makespan_ps", static_cast<std::int64_t>(ps)}});
  };
  for (std::size_t i = 0; i < a_static.size(); ++i) {
    add_done_run(store, me, fmt::format("a{}", i), "A", fmt::format("m{}", i),
                 static_row(a_static[i]), makespan(a_makespan[i]));
  }
  // Not samples: a repeat, a failed run, a running one, a run without replay.
  add_done_run(store, me, "a-repeat", "A", "m0", static_row({9999, 0, 0, 0, 0, 0, 0, 0}),
               makespan(1), 1);
  add_done_run(store, me, "a-static", "A", "m9", static_row({1, 1, 1, 1, 1, 1, 1, 1}),
               schema::Row(schema::simulation_columns().size()));
  const std::vector<RunIdentity> others{fake_identity("a-failed", "A"),
                                        fake_identity("a-running", "A")};
  ASSERT_EQ(store.claim(others, me, false), (std::vector<bool>{true, true}));
  ASSERT_TRUE(store.commit(failed_record("a-failed", "x"), me));
  // Context B: hop-bytes orders the three runs the opposite way of the makespan.
  for (int i = 0; i < 3; ++i) {
    add_done_run(store, me, fmt::format("b{}", i), "B", fmt::format("m{}", i),
                 static_row({static_cast<double>(i + 1), 1, 1, 1, 1, 1, 1, 1}), makespan(3 - i));
  }

  const auto metrics = schema::correlated_metrics();
  ASSERT_EQ(metrics.size(), 8U);
  // Exact ties: tolerance 0, added to the default's row.
  store.connection().execute("INSERT INTO tie_tolerances VALUES (0)");
  auto select = store.connection().prepare(
      "SELECT runs, rho, workload, machine, model FROM rank_correlation "
      "WHERE context_key = ? AND metric = ? AND tie_tolerance = 0");
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    SCOPED_TRACE(metrics[m]);
    std::vector<double> x;
    for (const auto& v : a_static) x.push_back(v[m]);
    select.bind(1, "A").bind(2, metrics[m]);
    ASSERT_TRUE(select.step());
    EXPECT_EQ(select.integer(0), 6);
    const double expected = spearman(x, a_makespan);
    if (metrics[m] == "ienlc") {
      EXPECT_TRUE(select.is_null(1)) << "a constant metric has no rank correlation";
      EXPECT_EQ(expected, 0);
    } else {
      ASSERT_FALSE(select.is_null(1));
      EXPECT_NEAR(select.real(1), expected, kTolerance);
    }
    EXPECT_EQ(select.text(2), "w");
    EXPECT_EQ(select.text(3), "m");
    EXPECT_EQ(select.text(4), "flow");
    EXPECT_FALSE(select.step());
    select.reset();
  }
  // hop_bytes in A by hand: ranks (2, 3.5, 3.5, 1, 6, 5) against the makespan's
  // (1.5, 4, 3, 1.5, 6, 5); about the mean 3.5 the products sum to 16.5, the squares to 17
  // each: rho = 16.5 / 17.
  EXPECT_NEAR(spearman(std::vector<double>{100, 200, 200, 50, 400, 300}, a_makespan), 16.5 / 17,
              kTolerance);
  select.bind(1, "B").bind(2, "hop_bytes");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.integer(0), 3);
  EXPECT_NEAR(select.real(1), -1.0, kTolerance);
}

TEST(StoreViews, RankCorrelationTiesWithinEveryTolerance) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  // A new database computes the view at the default tolerance only.
  EXPECT_EQ(select_all(store.connection(), "SELECT tolerance FROM tie_tolerances"),
            (Table{{kDefaultTieTolerance}}));
  // Near ties on both sides: a chain 100000, 100050, 100100 (0.05 % steps: at 0.1 % the first
  // two and the third form two groups measured from the group's first value), values equal at
  // one tolerance and apart at the next.
  const std::vector<double> hop_bytes{100000, 100050, 100100, 100200,
                                      150000, 99990,  300000, 300200};
  const std::vector<double> busiest{0.5, 0.5004, 0.7, 0.503, 0.2, 0.2001, 0.9, 0.1};
  const std::vector<double> makespan{1e6, 1000400, 999500, 2e6, 1.5e6, 1.2e6, 1200500, 3e6};
  for (std::size_t i = 0; i < hop_bytes.size(); ++i) {
    add_done_run(
        store, me, fmt::format("c{}", i), "C", fmt::format("m{}", i),
        row_of(schema::static_columns(), {{"hop_bytes", static_cast<std::int64_t>(hop_bytes[i])},
                                          {"busiest_link_s", busiest[i]},
                                          {"ienlc", std::int64_t{7}}}),
        row_of(schema::simulation_columns(),
               {{"makespan_ps", static_cast<std::int64_t>(makespan[i])}}));
  }
  const std::vector<double> tolerances{0, 1e-3, 1e-2, 0.6};
  for (const double t : tolerances) {
    store.connection().execute(fmt::format("INSERT OR IGNORE INTO tie_tolerances VALUES ({})", t));
  }
  auto select = store.connection().prepare(
      "SELECT runs, rho, concordant, discordant, tied_pairs, mostly_tied FROM rank_correlation "
      "WHERE context_key = 'C' AND metric = ? AND tie_tolerance = ?");
  const std::vector<std::pair<std::string, std::vector<double>>> samples{
      {"hop_bytes", hop_bytes}, {"busiest_link_s", busiest}, {"ienlc", std::vector(8, 7.0)}};
  int numbers = 0;  // rho values the view gave (not NULL)
  for (const auto& [metric, x] : samples) {
    for (const double t : tolerances) {
      SCOPED_TRACE(fmt::format("{} at {}", metric, t));
      select.bind(1, metric).bind(2, t);
      ASSERT_TRUE(select.step());
      EXPECT_EQ(select.integer(0), 8);
      const double expected = spearman(x, makespan, t);
      // NULL: one side is a single tie group (spearman's 0).
      const bool single =
          tied_ranks(x, t) == std::vector(8, 4.5) || tied_ranks(makespan, t) == std::vector(8, 4.5);
      EXPECT_EQ(select.is_null(1), single);
      if (!select.is_null(1)) {
        EXPECT_NEAR(select.real(1), expected, kTolerance);
        ++numbers;
      }
      const auto pairs = count_pairs(x, makespan, t);
      EXPECT_EQ(select.integer(2), static_cast<std::int64_t>(pairs.concordant));
      EXPECT_EQ(select.integer(3), static_cast<std::int64_t>(pairs.discordant));
      EXPECT_EQ(select.integer(4), static_cast<std::int64_t>(pairs.tied));
      EXPECT_EQ(pairs.concordant + pairs.discordant + pairs.tied, 28U);
      EXPECT_EQ(select.integer(5), 2 * pairs.tied > 28 ? 1 : 0);
      EXPECT_FALSE(select.step());
      select.reset();
    }
  }
  EXPECT_GE(numbers, 6);
  // By hand, hop_bytes at 0.1 %: groups {99990, 100000, 100050}, {100100, 100200}, {150000},
  // {300000, 300200}; the makespan's {999500, 1e6, 1000400}, {1.2e6, 1200500}, {1.5e6}, {2e6},
  // {3e6}. Pairs are tied pairwise: on hop-bytes c5-c0, c5-c1, c0-c1, c0-c2 (100 <= 100.1),
  // c1-c2, c2-c3, c6-c7; on the makespan c0-c1, c0-c2, c1-c2, c5-c6; 8 tied on either side.
  select.bind(1, "hop_bytes").bind(2, 1e-3);
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.integer(4), 8);
  select.reset();
  // At 60 % every makespan but 3e6 ties with 1e6: most pairs are tied.
  select.bind(1, "hop_bytes").bind(2, 0.6);
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.integer(5), 1);
  select.reset();
  // A tolerance outside [0, 1) is refused by the table.
  EXPECT_THROW(store.connection().execute("INSERT INTO tie_tolerances VALUES (1)"), std::exception);
  EXPECT_THROW(store.connection().execute("INSERT INTO tie_tolerances VALUES (-0.1)"),
               std::exception);
}

TEST(StoreUpgrade, SchemaOneGainsTheTieToleranceColumns) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  {
    Store store(path, Store::Access::Write);
    const auto me = this_process("test");
    for (int i = 0; i < 3; ++i) {
      add_done_run(store, me, fmt::format("a{}", i), "A", fmt::format("m{}", i),
                   row_of(schema::static_columns(), {{"hop_bytes", std::int64_t{10 + i}}}),
                   row_of(schema::simulation_columns(), {{"makespan_ps", std::int64_t{30 - i}}}));
    }
    // Back to schema 1 as version 1 wrote it: no tie_tolerances, a view without tolerance, no
    // inter_socket column (schema 3).
    store.connection().execute(
        "DROP VIEW rank_correlation; DROP TABLE tie_tolerances; DROP VIEW normalized; "
        "DROP VIEW results; CREATE VIEW results AS SELECT runs.* FROM runs; "
        "ALTER TABLE runs DROP COLUMN link_load_squares; ALTER TABLE runs DROP COLUMN latency_s; "
        "ALTER TABLE runs DROP COLUMN critical_compute_ps; ALTER TABLE runs DROP COLUMN "
        "critical_overhead_ps; "
        "ALTER TABLE runs DROP COLUMN critical_latency_ps; "
        "ALTER TABLE runs DROP COLUMN critical_bandwidth_ps; "
        "ALTER TABLE runs DROP COLUMN critical_contention_ps; "
        "ALTER TABLE runs DROP COLUMN critical_waiting_ps; ALTER TABLE runs DROP COLUMN "
        "critical_transfers; "

        "CREATE VIEW normalized AS SELECT run_key FROM runs; "
        "ALTER TABLE runs DROP COLUMN inter_socket; ALTER TABLE runs DROP COLUMN traffic_energy_j; "
        "ALTER TABLE runs DROP COLUMN energy_j; ALTER TABLE runs DROP COLUMN energy_dynamic_j; "
        "ALTER TABLE runs DROP COLUMN energy_static_j; ALTER TABLE runs DROP COLUMN power_w; "
        "CREATE VIEW rank_correlation AS SELECT context_key, 'hop_bytes' AS metric, 3 AS runs, "
        "-1.0 AS rho FROM runs GROUP BY context_key; PRAGMA user_version = 1");
  }
  EXPECT_THAT(error_of([&] { (void)Store(path, Store::Access::Read); }),
              AllOf(HasSubstr("schema version 1"), HasSubstr("mapsim upgrade")));
  const auto runs_before = select_all(path, "SELECT * FROM runs ORDER BY run_key");
  EXPECT_EQ(Store::upgrade(path), 1);
  Store store(path, Store::Access::Read);
  // Every stored value unchanged; schema 3's six columns, schema 4's seven and schema 5's two
  // appended, NULL (these runs have no ianlc, and no run stored before schema 3 has energies,
  // nor before schema 4 a critical path, nor before schema 5 the objectives' sums).
  auto runs_after = select_all(store.connection(), "SELECT * FROM runs ORDER BY run_key");
  for (auto& row : runs_after) {
    ASSERT_GE(row.size(), 15U);
    for (int k = 0; k < 15; ++k) {
      EXPECT_EQ(row.back(), schema::Value{});
      row.pop_back();
    }
  }
  EXPECT_EQ(runs_after, runs_before);
  EXPECT_EQ(select_all(store.connection(),
                       "SELECT tie_tolerance, runs, rho, concordant, discordant, tied_pairs, "
                       "mostly_tied FROM rank_correlation WHERE metric = 'hop_bytes'"),
            (Table{{kDefaultTieTolerance, std::int64_t{3}, -1.0, std::int64_t{0}, std::int64_t{3},
                    std::int64_t{0}, std::int64_t{0}}}));
}

TEST(StoreUpgrade, SchemaTwoGainsTheInterSocketColumn) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  {
    Store store(path, Store::Access::Write);
    const auto me = this_process("test");
    add_done_run(store, me, "static", "A", "m0",
                 row_of(schema::static_columns(),
                        {{"hop_bytes", std::int64_t{10}}, {"ianlc", std::int64_t{7}}}),
                 row_of(schema::simulation_columns(), {{"makespan_ps", std::int64_t{30}}}));
    add_done_run(store, me, "no-metrics", "A", "m1", row_of(schema::static_columns(), {}),
                 row_of(schema::simulation_columns(), {{"makespan_ps", std::int64_t{40}}}));
    // Back to schema 2: the runs table without inter_socket and the energies, the normalized
    // view without energies.
    store.connection().execute(
        "DROP VIEW rank_correlation; DROP VIEW normalized; DROP VIEW results; "
        "CREATE VIEW results AS SELECT runs.* FROM runs; "
        "ALTER TABLE runs DROP COLUMN link_load_squares; ALTER TABLE runs DROP COLUMN latency_s; "
        "ALTER TABLE runs DROP COLUMN inter_socket; "
        "ALTER TABLE runs DROP COLUMN critical_compute_ps; ALTER TABLE runs DROP COLUMN "
        "critical_overhead_ps; "
        "ALTER TABLE runs DROP COLUMN critical_latency_ps; "
        "ALTER TABLE runs DROP COLUMN critical_bandwidth_ps; "
        "ALTER TABLE runs DROP COLUMN critical_contention_ps; "
        "ALTER TABLE runs DROP COLUMN critical_waiting_ps; ALTER TABLE runs DROP COLUMN "
        "critical_transfers; "

        "ALTER TABLE runs DROP COLUMN traffic_energy_j; ALTER TABLE runs DROP COLUMN energy_j; "
        "ALTER TABLE runs DROP COLUMN energy_dynamic_j; "
        "ALTER TABLE runs DROP COLUMN energy_static_j; ALTER TABLE runs DROP COLUMN power_w; "
        "CREATE VIEW normalized AS SELECT run_key FROM runs; PRAGMA user_version = 2");
  }
  EXPECT_THAT(error_of([&] { (void)Store(path, Store::Access::Read); }),
              AllOf(HasSubstr("schema version 2"), HasSubstr("mapsim upgrade")));
  const auto runs_before = select_all(path, "SELECT * FROM runs ORDER BY run_key");
  EXPECT_EQ(Store::upgrade(path), 2);
  Store store(path, Store::Access::Read);
  // Runs stored before sockets existed had one socket per node: none of their IaNLC messages
  // crossed sockets; a run without static metrics keeps NULL.
  EXPECT_EQ(
      select_all(store.connection(), "SELECT run_key, inter_socket FROM runs ORDER BY run_key"),
      (Table{{std::string("no-metrics"), schema::Value{}},
             {std::string("static"), std::int64_t{0}}}));
  auto runs_after = select_all(store.connection(), "SELECT * FROM runs ORDER BY run_key");
  // Schema 3's six, schema 4's seven, schema 5's two.
  for (auto& row : runs_after) row.resize(row.size() - 15);
  EXPECT_EQ(runs_after, runs_before);
  // The energies are NULL, and the normalized view has them.
  EXPECT_EQ(select_all(store.connection(),
                       "SELECT energy_j, traffic_energy_j FROM normalized ORDER BY run_key"),
            (Table{}));
  EXPECT_EQ(select_all(store.connection(), "SELECT count(*) FROM runs WHERE energy_j IS NULL"),
            (Table{{std::int64_t{2}}}));
}

TEST(StoreUpgrade, SchemaThreeGainsTheCriticalPathColumns) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  {
    Store store(path, Store::Access::Write);
    const auto me = this_process("test");
    add_done_run(store, me, "a", "A", "m0", row_of(schema::static_columns(), {}),
                 row_of(schema::simulation_columns(), {{"makespan_ps", std::int64_t{30}}}));
    // Back to schema 3: the runs table and the results view without the critical path.
    store.connection().execute(
        "DROP VIEW rank_correlation; DROP VIEW normalized; DROP VIEW results; "
        "ALTER TABLE runs DROP COLUMN link_load_squares; ALTER TABLE runs DROP COLUMN latency_s; "
        "ALTER TABLE runs DROP COLUMN critical_compute_ps; ALTER TABLE runs DROP COLUMN "
        "critical_overhead_ps; "
        "ALTER TABLE runs DROP COLUMN critical_latency_ps; "
        "ALTER TABLE runs DROP COLUMN critical_bandwidth_ps; "
        "ALTER TABLE runs DROP COLUMN critical_contention_ps; "
        "ALTER TABLE runs DROP COLUMN critical_waiting_ps; ALTER TABLE runs DROP COLUMN "
        "critical_transfers; "
        "CREATE VIEW results AS SELECT runs.* FROM runs; "
        "CREATE VIEW normalized AS SELECT run_key FROM runs; PRAGMA user_version = 3");
  }
  const auto runs_before = select_all(path, "SELECT * FROM runs ORDER BY run_key");
  EXPECT_EQ(Store::upgrade(path), 3);
  Store store(path, Store::Access::Read);
  auto runs_after = select_all(store.connection(), "SELECT * FROM runs ORDER BY run_key");
  for (auto& row : runs_after) {
    ASSERT_GE(row.size(), 9U);  // schema 4's seven, schema 5's two
    for (int k = 0; k < 9; ++k) {
      EXPECT_EQ(row.back(), schema::Value{});
      row.pop_back();
    }
  }
  EXPECT_EQ(runs_after, runs_before);
  // The results view has them again, in seconds too (NULL for the stored run).
  EXPECT_EQ(select_all(store.connection(),
                       "SELECT makespan_s, critical_contention_s, critical_transfers FROM results"),
            (Table{{30e-12, schema::Value{}, schema::Value{}}}));
}

TEST(StoreUpgrade, SchemaFourGainsTheObjectivesSums) {
  const TempDir dir;
  const auto path = dir.path() / "r.db";
  {
    Store store(path, Store::Access::Write);
    const auto me = this_process("test");
    add_done_run(store, me, "a", "A", "m0",
                 row_of(schema::static_columns(), {{"hop_bytes", std::int64_t{10}}}),
                 row_of(schema::simulation_columns(), {{"makespan_ps", std::int64_t{30}}}));
    // Back to schema 4: no link_load_squares and latency_s, views without them.
    store.connection().execute(
        "DROP VIEW rank_correlation; DROP VIEW normalized; DROP VIEW results; "
        "ALTER TABLE runs DROP COLUMN link_load_squares; ALTER TABLE runs DROP COLUMN latency_s; "
        "CREATE VIEW results AS SELECT runs.* FROM runs; "
        "CREATE VIEW normalized AS SELECT run_key FROM runs; "
        "CREATE VIEW rank_correlation AS SELECT context_key FROM runs; PRAGMA user_version = 4");
  }
  EXPECT_THAT(error_of([&] { (void)Store(path, Store::Access::Read); }),
              AllOf(HasSubstr("schema version 4"), HasSubstr("mapsim upgrade")));
  const auto runs_before = select_all(path, "SELECT * FROM runs ORDER BY run_key");
  EXPECT_EQ(Store::upgrade(path), 4);
  Store store(path, Store::Access::Read);
  auto runs_after = select_all(store.connection(), "SELECT * FROM runs ORDER BY run_key");
  for (auto& row : runs_after) {
    ASSERT_GE(row.size(), 2U);
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(row.back(), schema::Value{});
      row.pop_back();
    }
  }
  EXPECT_EQ(runs_after, runs_before);
  // The views have them again: NULL for the stored run, and a metric of rank_correlation.
  EXPECT_EQ(select_all(store.connection(), "SELECT latency_s, link_load_squares FROM results"),
            (Table{{schema::Value{}, schema::Value{}}}));
  EXPECT_EQ(select_all(store.connection(), "SELECT latency_s FROM normalized"), (Table{}));
  EXPECT_EQ(select_all(store.connection(),
                       "SELECT metric FROM rank_correlation WHERE metric IN ('latency_s', "
                       "'link_load_squares') ORDER BY metric"),
            (Table{{std::string("latency_s")}, {std::string("link_load_squares")}}));
}

TEST(StoreViews, NormalizedDividesByInOrder) {
  const TempDir dir;
  Store store(dir.path() / "r.db", Store::Access::Write);
  const auto me = this_process("test");
  const auto values = [](std::int64_t hop_bytes, double dilation, std::int64_t makespan) {
    return std::pair{
        row_of(schema::static_columns(), {{"hop_bytes", hop_bytes}, {"dilation_avg", dilation}}),
        row_of(schema::simulation_columns(), {{"makespan_ps", makespan}})};
  };
  const auto add = [&](const std::string& key, const std::string& context,
                       const std::string& mapper, std::int64_t hop_bytes, double dilation,
                       std::int64_t makespan) {
    auto [s, r] = values(hop_bytes, dilation, makespan);
    add_done_run(store, me, key, context, mapper, s, r);
  };
  add("n-in-order", "N", "in-order", 200, 2.0, 1000);
  add("n-greedy", "N", "greedy", 100, 1.0, 1500);
  add("n-random", "N", "random", 300, 3.0, 800);
  add("o-in-order", "O", "in-order", 0, 0.0, 10);  // nothing to divide by: NULL
  add("o-greedy", "O", "greedy", 50, 1.0, 20);
  add("p-greedy", "P", "greedy", 50, 1.0, 20);  // no in-order run: not in the view
  const std::vector<RunIdentity> failed{fake_identity("n-failed", "N", "scotch")};
  ASSERT_EQ(store.claim(failed, me, false), std::vector<bool>{true});
  ASSERT_TRUE(store.commit(failed_record("n-failed", "x"), me));

  const auto rows = select_all(store.connection(),
                               "SELECT run_key, hop_bytes, dilation_avg, makespan_s FROM "
                               "normalized ORDER BY run_key");
  ASSERT_EQ(rows.size(), 5U);
  const auto real = [](const schema::Value& v) { return std::get<double>(v); };
  // In-order itself: exactly 1.
  EXPECT_EQ(rows[1][0], schema::Value(std::string("n-in-order")));
  EXPECT_EQ(real(rows[1][1]), 1.0);
  EXPECT_EQ(real(rows[1][2]), 1.0);
  EXPECT_EQ(real(rows[1][3]), 1.0);
  // greedy: 100 / 200, 1 / 2, 1500 / 1000.
  EXPECT_EQ(rows[0][0], schema::Value(std::string("n-greedy")));
  EXPECT_NEAR(real(rows[0][1]), 0.5, kTolerance);
  EXPECT_NEAR(real(rows[0][2]), 0.5, kTolerance);
  EXPECT_NEAR(real(rows[0][3]), 1.5, kTolerance);
  // random: 300 / 200, 3 / 2, 800 / 1000.
  EXPECT_EQ(rows[2][0], schema::Value(std::string("n-random")));
  EXPECT_NEAR(real(rows[2][1]), 1.5, kTolerance);
  EXPECT_NEAR(real(rows[2][2]), 1.5, kTolerance);
  EXPECT_NEAR(real(rows[2][3]), 0.8, kTolerance);
  // Context O: in-order's hop-bytes are 0, so no ratio; the makespan still divides.
  EXPECT_EQ(rows[3][0], schema::Value(std::string("o-greedy")));
  EXPECT_EQ(rows[3][1], schema::Value());
  EXPECT_NEAR(real(rows[3][3]), 2.0, kTolerance);
  EXPECT_EQ(rows[4][0], schema::Value(std::string("o-in-order")));
}

}  // namespace
}  // namespace mapsim::exp
