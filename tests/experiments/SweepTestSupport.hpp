#pragma once
// Shared by the results-database tests: small sweeps, hand-made runs, and whole tables read
// back as values so that two databases can be compared.

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "experiments/Config.hpp"
#include "experiments/Runner.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Sqlite.hpp"
#include "experiments/Store.hpp"
#include "experiments/Sweep.hpp"

namespace mapsim::exp::testing {

/// 2 workloads x 2 machines x 3 mappers x 2 models = 24 runs over 12 mappings; replays only
/// communication (compute scale 0), so the whole sweep takes well under a second.
inline constexpr std::string_view kSmallSweep = R"(
workloads:
  - {generate: npb:lu:S:4, iterations: 1}
  - stencil2d:S:16:iterations=2
machines: [torus:4x4, mesh:2x2:cores=4]
mappers: [in-order, random, greedy]
models: [flow, analytic]
sim: {compute-scale: 0}
)";
inline constexpr std::size_t kSmallSweepRuns = 24;
inline constexpr std::size_t kSmallSweepMappings = 12;

inline Sweep make_sweep(const std::filesystem::path& dir, std::string_view yaml) {
  return expand(parse_config(yaml, "t.yaml", dir));
}

inline RunnerReport run(const Sweep& sweep, const std::filesystem::path& database, int jobs = 1) {
  RunnerOptions options;
  options.database = database;
  options.jobs = jobs;
  options.command = "experiments_store_test";
  return run_sweep(sweep, options);
}

/// How many different values `member` takes over the sweep's runs.
inline std::size_t distinct(const Sweep& sweep, std::string Run::*member) {
  std::set<std::string> values;
  for (const auto& run : sweep.runs) values.insert(run.*member);
  return values.size();
}

using Table = std::vector<schema::Row>;

/// Every row of `query`, blobs as lowercase hex text (so that mappings compare too).
inline Table select_all(sql::Connection& db, std::string_view query) {
  auto select = db.prepare(query);
  Table table;
  while (select.step()) {
    schema::Row row;
    for (int c = 0; c < select.column_count(); ++c) {
      if (select.type(c) == 4) {
        std::string hex;
        for (const auto b : select.blob(c)) hex += fmt::format("{:02x}", std::to_integer<int>(b));
        row.emplace_back(std::move(hex));
      } else {
        row.push_back(select.value(c));
      }
    }
    table.push_back(std::move(row));
  }
  return table;
}

inline Table select_all(const std::filesystem::path& database, std::string_view query) {
  sql::Connection db(database, sql::Connection::Mode::ReadWrite);
  return select_all(db, query);
}

/// The results of every run, by run key: status, mapping and every static and simulation column
/// but the replay's wall time.
inline std::string results_query() {
  std::string columns = "run_key, mapping_key, context_key, name, status";
  for (const auto& c : schema::static_columns()) columns += fmt::format(", {}", c.name);
  for (const auto& c : schema::simulation_columns()) {
    if (c.name != "sim_seconds") columns += fmt::format(", {}", c.name);
  }
  return fmt::format("SELECT {} FROM runs ORDER BY run_key", columns);
}

/// Every mapping but its wall time, by mapping key.
inline constexpr std::string_view kMappingsQuery =
    "SELECT mapping_key, workload_digest, topology, mapper, params, seed, ranks, nodes "
    "FROM mappings ORDER BY mapping_key";

inline std::int64_t count(const std::filesystem::path& database, std::string_view query) {
  sql::Connection db(database, sql::Connection::Mode::ReadWrite);
  return db.query_integer(query);
}

/// Position of a column in one of the schema's column tables.
inline std::size_t column_index(std::span<const schema::Column> columns, std::string_view name) {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].name == name) return c;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

/// A row of `columns` with the named values set and every other value NULL.
inline schema::Row row_of(
    std::span<const schema::Column> columns,
    std::initializer_list<std::pair<std::string_view, schema::Value>> values) {
  schema::Row row(columns.size());
  for (const auto& [name, value] : values) row[column_index(columns, name)] = value;
  return row;
}

/// A run that no sweep made, with the configuration columns the views read.
inline RunIdentity fake_identity(std::string key, std::string context = "context",
                                 std::string mapper = "in-order", std::int64_t repeat = 0) {
  RunIdentity run;
  run.key = std::move(key);
  run.mapping_key = "mapping-" + run.key;
  run.context_key = std::move(context);
  run.name = "run-" + run.key;
  run.config = "key: " + run.key + "\n";
  run.config_row = row_of(schema::config_columns(), {{"workload", std::string("w")},
                                                     {"machine", std::string("m")},
                                                     {"mapper", mapper},
                                                     {"mapper_label", mapper},
                                                     {"params", std::string()},
                                                     {"seed", std::int64_t{0}},
                                                     {"model", std::string("flow")},
                                                     {"model_label", std::string("flow")},
                                                     {"repeat", repeat}});
  return run;
}

/// Another runner on this host with the given pid.
inline Owner owner_with_pid(std::int64_t pid, std::string token) {
  auto owner = this_process("another runner");
  owner.pid = pid;
  owner.token = std::move(token);
  return owner;
}

/// The pid of a process that has exited (a child, waited for).
inline std::int64_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  EXPECT_GT(child, 0) << "fork failed";
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

}  // namespace mapsim::exp::testing
