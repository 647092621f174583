// Results databases that cannot be written, are not ours, or are named oddly, through the binary
// (issue 25): every one ends with an error that names the file and what happened, never a hang,
// and leaves what is stored (and a file that is not ours) exactly as it was.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Sqlite.hpp"
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

}  // namespace
}  // namespace mapsim
