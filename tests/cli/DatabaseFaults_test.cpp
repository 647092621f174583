// Results databases that cannot be written, are not ours, or are named oddly, through the binary
// (issue 25): every one ends with an error that names the file and what happened, never a hang,
// and leaves what is stored (and a file that is not ours) exactly as it was.

#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Sqlite.hpp"
#include "experiments/Store.hpp"
#include "tests/cli/SmallSweep.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using testing::count_rows;
using ::testing::HasSubstr;
using testing::kSmallConfig;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using testing::sh;
using testing::TempDir;
using Connection = exp::sql::Connection;

/// Adds `count` link rows to the first run of `db`: a large input to merge.
void add_links(const fs::path& db, int count) {
  Connection(db, Connection::Mode::ReadWrite)
      .execute(
          "INSERT INTO links (run_key, link, from_node, to_node, class, static_bytes) "
          "SELECT (SELECT run_key FROM runs LIMIT 1), 1000 + i, 0, 1, 'torus', i FROM "
          "(WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < " +
          std::to_string(count) + ") SELECT i FROM c)");
}

/// A directory with the config, and a database of its 4 in-order runs.
struct Sweep {
  TempDir dir;
  fs::path config = dir.write("sweep.yaml", kSmallConfig);
  fs::path db = dir.path() / "results.db";

  Sweep() {
    const auto first =
        run_mapsim("-q run " + sh(config) + " --db " + sh(db) + " --where \"mapper = 'in-order'\"");
    EXPECT_EQ(first.exit_code, 0) << first.err;
  }
};

TEST(DatabaseFaults, AFailedClaimStopsEveryJobInsteadOfHanging) {
  // A claim that the database refuses (here a trigger; a read-only file or a full disk in the
  // wild) used to leave the other job waiting forever for work from a job that had thrown: the
  // sweep printed "2 of 2 runs to do" and hung (wait_for kills it then: -1000), ignoring SIGINT.
  // The trigger first counts to two million, so that the other job is surely waiting for work
  // when the claim fails (one mapping to do: one job has it, the other has none). The sweep must
  // fail at once with the database's reason, keeping the runs stored before.
  const Sweep sweep;
  Connection(sweep.db, Connection::Mode::ReadWrite)
      .execute(
          "CREATE TRIGGER refuse_claims BEFORE INSERT ON runs BEGIN "
          "SELECT RAISE(ABORT, 'claims refused by the test') FROM (WITH RECURSIVE c(i) AS "
          "(SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000000) SELECT MAX(i) AS m FROM c) "
          "WHERE m > 0; END");
  const auto out = sweep.dir.path() / "out";
  const auto err = sweep.dir.path() / "err";
  const auto pid =
      testing::spawn_mapsim({"run", sweep.config.string(), "--db", sweep.db.string(), "--jobs", "2",
                             "--where", "mapper = 'random' AND workload LIKE 'npb:lu%'"},
                            out, err);
  EXPECT_EQ(testing::wait_for(pid, std::chrono::seconds(120)), 1) << read_file(err);
  EXPECT_THAT(read_file(err), HasSubstr("claims refused by the test"));
  EXPECT_EQ(count_rows(sweep.db, "status = 'done'"), 4);
  EXPECT_EQ(count_rows(sweep.db), 4);
}

/// Every file in `dir` (not below) with its content.
std::map<std::string, std::string> files_in(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    files[entry.path().filename().string()] =
        entry.is_regular_file() ? read_file(entry.path()) : std::string("<dir>");
  }
  return files;
}

TEST(DatabaseFaults, AnotherApplicationsDatabaseStaysByteForByte) {
  // `run --db`, `merge OUT` and `upgrade` refused another application's database only after
  // switching it to WAL: its header bytes changed and -wal and -shm files appeared.
  const Sweep sweep;
  const auto other = sweep.dir.path() / "other.db";
  {
    Connection db(other, Connection::Mode::Create);
    db.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
  }
  const auto before = files_in(sweep.dir.path());
  for (const std::string& args :
       {"run " + sh(sweep.config) + " --db " + sh(other), "merge " + sh(other) + " " + sh(sweep.db),
        "upgrade " + sh(other), "results " + sh(other),
        "run " + sh(sweep.config) + " --db " + sh(other) + " --dry-run"}) {
    const auto r = run_mapsim(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_THAT(r.err, HasSubstr(other.string())) << args;
    EXPECT_THAT(r.err, HasSubstr("an SQLite database of another application")) << args;
    EXPECT_EQ(files_in(sweep.dir.path()), before) << args;
  }
}

TEST(DatabaseFaults, DbIsAPlainPathNeverAnSqliteUri) {
  // SQLite reads "file:x.db" as a URI and ":memory:" as a private in-memory database: `run --db
  // file:x.db` ran the sweep into x.db and then said file:x.db did not exist, and `--db :memory:`
  // ran the whole sweep and threw the results away. --db names a file, whatever its name.
  const Sweep sweep;
  const auto& dir = sweep.dir.path();
  for (const std::string name : {"file:x.db", ":memory:", "file:y.db?mode=memory"}) {
    const auto r = run_mapsim("-q run " + sh(sweep.config) + " --db " + sh(name), dir);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(count_rows(dir / name, "status = 'done'"), testing::kSmallRuns) << name;
    const auto results = run_mapsim("results " + sh(name) + " --format csv", dir);
    EXPECT_EQ(results.exit_code, 0) << name << ": " << results.err;
    EXPECT_THAT(results.out, HasSubstr("greedy")) << name;
  }
  EXPECT_FALSE(fs::exists(dir / "x.db"));
  EXPECT_FALSE(fs::exists(dir / "y.db"));
  // The same for merge's output and inputs.
  const auto merged = run_mapsim("merge " + sh("file:merged.db") + " " + sh("file:x.db"), dir);
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(count_rows(dir / "file:merged.db"), testing::kSmallRuns);
  EXPECT_FALSE(fs::exists(dir / "merged.db"));
  // An empty path is no file.
  const auto empty = run_mapsim("run " + sh(sweep.config) + " --db ''", dir);
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_THAT(empty.err, HasSubstr("the database path is empty"));
}

TEST(DatabaseFaults, CleanExitsLeaveNoWalOrShmFiles) {
  // The last connection to close used to be a read-only one (the summary, `results`), which
  // may not checkpoint: results.db-wal and results.db-shm stayed beside every database.
  const Sweep sweep;
  const auto names = [&] {
    std::vector<std::string> list;
    for (const auto& [name, content] : files_in(sweep.dir.path())) list.push_back(name);
    return list;
  };
  const std::vector<std::string> expected{"results.db", "sweep.yaml"};
  EXPECT_EQ(names(), expected);
  for (const std::string& args :
       {"run " + sh(sweep.config) + " --db " + sh(sweep.db), "results " + sh(sweep.db),
        "run " + sh(sweep.config) + " --db " + sh(sweep.db) + " --dry-run"}) {
    const auto r = run_mapsim(args);
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(names(), expected) << args;
  }
}

TEST(DatabaseFaults, ADatabaseNobodyMayWriteIsStillRead) {
  // On read-only media (here: a folder and a file this user may not write) a WAL database
  // could not even be read: SQLite needs its -shm file. What only reads works.
  const Sweep sweep;
  const auto folder = sweep.dir.path() / "readonly";
  fs::create_directory(folder);
  fs::copy_file(sweep.db, folder / "results.db");
  fs::permissions(folder, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  const auto db = folder / "results.db";
  const auto before = files_in(folder);
  const auto results = testing::run_mapsim_unprivileged("results " + sh(db) + " --format csv");
  EXPECT_EQ(results.exit_code, 0) << results.err;
  EXPECT_THAT(results.out, HasSubstr("in-order"));
  const auto dry = testing::run_mapsim_unprivileged("run " + sh(sweep.config) + " --db " + sh(db) +
                                                    " --dry-run");
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("20 runs: 16 new, 4 done"));
  // And merged from (a shard on read-only storage): it was attached read-write, and refused.
  const auto shared = sweep.dir.path() / "shared";
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all);
  const auto merged =
      testing::run_mapsim_unprivileged("merge " + sh(shared / "merged.db") + " " + sh(db));
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(count_rows(shared / "merged.db"), 4);
  // Writing is refused at once, naming the file and why.
  const auto run = testing::run_mapsim_unprivileged("run " + sh(sweep.config) + " --db " + sh(db));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("cannot write database '" + db.string() + "'"));
  EXPECT_EQ(files_in(folder), before);
}

TEST(DatabaseFaults, AnUnwritableDatabaseInAWritableFolderFailsAtOnce) {
  // Runs still to do and a database file this user may not write, in a folder that takes -wal
  // and -shm files: `run` said "16 of 20 runs to do" and then failed (or hung) on the first
  // claim. It fails before it starts, naming the file and why.
  const Sweep sweep;
  const auto folder = sweep.dir.path() / "shared";
  fs::create_directory(folder);
  fs::permissions(folder, fs::perms::all);
  const auto db = folder / "results.db";
  fs::copy_file(sweep.db, db);
  for (const std::string jobs : {"1", "2"}) {
    const auto r = testing::run_mapsim_unprivileged("run " + sh(sweep.config) + " --db " + sh(db) +
                                                    " --jobs " + jobs);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("cannot write database '" + db.string() + "': permission denied"));
    EXPECT_THAT(r.err, Not(HasSubstr("runs to do")));
  }
  EXPECT_EQ(count_rows(db), 4);
}

TEST(DatabaseFaults, AFullDiskDuringCreationLeavesNoDatabase) {
  // A file size limit of 1 KiB stands in for a full disk. Creation used to leave a 0-byte database
  // (that `results` and `report` then refused) and say "disk I/O error (in: PRAGMA
  // application_id)". Now the database is made beside and linked into place whole, so nothing
  // is left, and the message says what the system said.
  const Sweep sweep;
  const auto& dir = sweep.dir.path();
  const auto before = files_in(dir);
  const auto r =
      testing::run_mapsim_with_file_limit(1, "run " + sh(sweep.config) + " --db new.db", dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot create database 'new.db'"));
  EXPECT_THAT(r.err, HasSubstr("the file size limit of this process (ulimit -f) is"));
  EXPECT_EQ(files_in(dir), before);
  // Without the limit the same command works.
  EXPECT_EQ(run_mapsim("-q run " + sh(sweep.config) + " --db new.db", dir).exit_code, 0);
  EXPECT_EQ(count_rows(dir / "new.db"), testing::kSmallRuns);
}

/// The names in `dir` that start with `prefix`.
std::vector<std::string> names_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with(prefix))
      names.push_back(entry.path().filename().string());
  }
  return names;
}

TEST(DatabaseFaults, AFullDiskDuringAMergeIntoANewFileLeavesNothing) {
  // It used to leave an empty database with -wal and -shm files beside it.
  // The limit lets the input be read (its 32 KiB -shm file), not the output of its 20000 links
  // written.
  const Sweep sweep;
  const auto& dir = sweep.dir.path();
  add_links(sweep.db, 20'000);
  const auto r = testing::run_mapsim_with_file_limit(100, "merge merged.db results.db", dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("merged.db"));
  EXPECT_THAT(r.err, HasSubstr("the file size limit of this process (ulimit -f) is"));
  EXPECT_THAT(names_starting(dir, "merged.db"), ::testing::IsEmpty());
}

TEST(DatabaseFaults, CtrlCDuringAMergeIntoANewFileLeavesNothing) {
  // An input with a million link rows takes a while to merge; SIGINT once the output's file
  // appears. Ctrl-C used to kill the merge, leaving an empty database with -wal and -shm.
  const Sweep sweep;
  const auto& dir = sweep.dir.path();
  add_links(sweep.db, 1'000'000);
  const auto out = dir / "out";
  const auto err = dir / "err";
  const auto pid =
      testing::spawn_mapsim({"merge", (dir / "merged.db").string(), sweep.db.string()}, out, err);
  bool started = false;
  for (int i = 0; i < 60'000 && !started; ++i) {
    started = !names_starting(dir, "merged.db").empty();
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(started) << read_file(err);
  ::kill(pid, SIGINT);
  EXPECT_EQ(testing::wait_for(pid, std::chrono::seconds(120)), 130) << read_file(err);
  EXPECT_THAT(read_file(err), HasSubstr("interrupted"));
  EXPECT_THAT(names_starting(dir, "merged.db"), ::testing::IsEmpty());
}

TEST(DatabaseFaults, TheSlurmTaskCopiesTheRunsInItsDatabasesWal) {
  // A runner killed after commits leaves them in its database's -wal file. The array task copied
  // the database with cp and then deleted the -wal: runs that were stored were lost (194 done in
  // the task's database, 147 in the copy). Here another connection stays open on the task's
  // database while it runs, so that the runner's commits stay in the -wal as a killed runner's
  // would: cp copied a database without a single run.
  const Sweep sweep;
  const auto& dir = sweep.dir.path();
  const auto slurm =
      run_mapsim("run " + sh(sweep.config) + " --slurm 1 --db " + sh(dir / "all.db"));
  ASSERT_EQ(slurm.exit_code, 0) << slurm.err;
  const auto node = dir / "node tmp";
  fs::create_directory(node);
  const auto local = node / "mapsim-77-1.db";
  (void)exp::Store(local, exp::Store::Access::Write);
  {
    const Connection held_open(local, Connection::Mode::ReadOnly);
    const auto task = testing::shell(
        "cd / && SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=77 SLURM_CPUS_PER_TASK=2 TMPDIR=" +
        sh(node) + " bash " + sh(dir / "sweep.sbatch"));
    EXPECT_EQ(task, 0) << read_file(dir / "sweep-shards" / "shard-1.log");
  }
  EXPECT_FALSE(fs::exists(local));  // copied, then removed
  const auto copy = dir / "sweep-shards" / "shard-1.db";
  EXPECT_EQ(count_rows(copy, "status = 'done'"), testing::kSmallRuns);
  EXPECT_THAT(names_starting(dir / "sweep-shards", "shard-1.db"),
              ::testing::ElementsAre("shard-1.db"));
}

TEST(DatabaseFaults, DirectoriesAndUnreadableFilesSaySo) {
  const Sweep sweep;
  const auto& dir = sweep.dir.path();
  fs::create_directory(dir / "folder.db");
  for (const char* args :
       {"run sweep.yaml --db folder.db", "results folder.db", "merge out.db folder.db",
        "merge folder.db results.db", "upgrade folder.db", "report folder.db --out report"}) {
    const auto r = run_mapsim(args, dir);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_THAT(r.err, HasSubstr("database 'folder.db' is a directory")) << args;
  }
  fs::permissions(sweep.db, fs::perms::owner_read | fs::perms::owner_write);
  for (const char* args : {"results results.db", "merge out.db results.db"}) {
    const auto r = testing::run_mapsim_unprivileged(args, dir);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_THAT(r.err, HasSubstr("cannot read database 'results.db': permission denied")) << args;
  }
  EXPECT_FALSE(fs::exists(dir / "out.db"));
  EXPECT_FALSE(fs::exists(dir / "report"));
}

}  // namespace
}  // namespace mapsim
