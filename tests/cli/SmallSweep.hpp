#pragma once
// Shared by the system tests of `mapsim run` and its results database: a sweep small enough to
// run in well under a second, and reading its database back.

#include <cstdint>
#include <filesystem>
#include <string>

#include "experiments/Sqlite.hpp"

namespace mapsim::testing {

// 2 workloads x 1 machine x 5 mappers x 2 models = 20 runs over 10 mappings, well under a second.
constexpr const char* kSmallConfig = R"(workloads:
  - npb:lu:S:16:iterations=1
  - npb:cg:S:16:iterations=1
machines:
  - torus:2x2x4
mappers: [in-order, random, hilbert, greedy, rcm]
models: [flow, static]
sim:
  compute-scale: 0
)";
constexpr int kSmallRuns = 20;

/// `path` quoted for the shell.
inline std::string sh(const std::filesystem::path& path) {
  // Appended, not `"'" + path.string() + "'"`: GCC 12 warns of a bogus overlap (-Wrestrict) in
  // the inlined operator+ when this is inlined into some callers.
  std::string text = "'";
  text += path.string();
  text += '\'';
  return text;
}

/// The runs of the database at `db` for which `where` holds.
inline std::int64_t count_rows(const std::filesystem::path& db, const std::string& where = "1") {
  exp::sql::Connection connection(db, exp::sql::Connection::Mode::ReadOnly);
  return connection.query_integer("SELECT COUNT(*) FROM runs WHERE " + where);
}

}  // namespace mapsim::testing
