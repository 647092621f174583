#pragma once
// The results database's schema, declared once: every column with its SQLite type and meaning
// (docs/experiments.md is written from these tables), the DDL, the views, and the migrations.
//
// Tables (all STRICT):
//   meta      key/value: schema and mapsim version that created the file
//   runs      one row per run key: its configuration columns, status, static metrics,
//             simulation results, provenance
//   mappings  one row per mapping key: the placement (compact), the mapper's wall time
//   links     optional per-link loads of a run (store: {links: true})
//   tie_tolerances  the relative tie tolerances rank_correlation is computed at (0.001 at
//             creation; insert 0 for exact ties, or any other tolerance in [0, 1))
// Views:
//   results         runs joined with their mapping, times also in seconds (*_s)
//   normalized      done runs' metrics divided by in-order's in the same context (workload,
//                   machine with its links, model, MPI and sim settings): 1 = as in-order
//   rank_correlation  per context, static metric and tie tolerance (column tie_tolerance):
//                   Spearman's rho between the metric and the simulated makespan over the
//                   mappings of the context (repeat 0 of each run), and the concordant,
//                   discordant and tied pairs, ties as RankCorrelation.hpp defines them (as
//                   `mapsim report` and `results` compute them)
//
// PRAGMA application_id identifies a mapsim database; PRAGMA user_version is kVersion. A newer
// version is refused; an older one is upgraded only by `mapsim upgrade` (Store::upgrade).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/Sqlite.hpp"

namespace mapsim::exp::schema {

inline constexpr std::int64_t kApplicationId = 0x6d617073;  // "maps"
inline constexpr std::int64_t kVersion = 5;

enum class Type : std::uint8_t { Integer, Real, Text };

struct Column {
  std::string_view name;
  Type type;
  std::string_view doc;
};

/// A row's values in the order of a column table; monostate is NULL.
using Value = sql::Value;
using Row = std::vector<Value>;

/// What identifies and configures a run: the columns `where` expressions see before running.
std::span<const Column> config_columns();
/// Static metrics of the run's mapping on its machine.
std::span<const Column> static_columns();
/// What the replay measured (NULL for the static model and matrix workloads).
std::span<const Column> simulation_columns();
/// Provenance: who ran it, where, when, with which mapsim (never compared by merge).
std::span<const Column> provenance_columns();

/// Metrics that `mapsim results --metric` (and `mapsim report`) accepts, as the `results` view
/// names them: normalized_metrics(), then the replay's energy parts (energy_dynamic_j,
/// energy_static_j, power_w).
std::span<const std::string_view> metrics();
/// The metrics the `normalized` view divides by in-order's.
std::span<const std::string_view> normalized_metrics();
/// The static metrics correlated with the makespan in `rank_correlation`.
std::span<const std::string_view> correlated_metrics();

/// "INTEGER", "REAL" or "TEXT".
std::string_view sql_type(Type type);

/// The DDL of schema version kVersion: tables, indexes and views (idempotent: IF NOT EXISTS).
std::string create_sql();

/// One upgrade step from `from` to from + 1.
struct Migration {
  std::int64_t from;
  std::string_view sql;
};
/// Every migration to kVersion, oldest first (1 -> 2: tie_tolerances and rank_correlation's
/// tie_tolerance and pair columns; 2 -> 3: the static column inter_socket and the energies;
/// 3 -> 4: the critical path's parts).
std::span<const Migration> migrations();

}  // namespace mapsim::exp::schema
