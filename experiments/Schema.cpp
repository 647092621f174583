#include "experiments/Schema.hpp"

#include <array>

#include <fmt/format.h>

#include "experiments/RankCorrelation.hpp"

namespace mapsim::exp::schema {
namespace {

using T = Type;

constexpr std::array<Column, 26> kConfig{{
    {"workload", T::Text,
     "workload label (the generator spec, the archive's or file's name, or "
     "the config's label)"},
    {"workload_kind", T::Text, "generated, trace or matrix"},
    {"workload_spec", T::Text, "canonical generator spec, or the path as the config gave it"},
    {"workload_digest", T::Text, "SHA-256 of the workload's content (of the spec if generated)"},
    {"kernel", T::Text, "generated workloads: the kernel (lu, cg, ...)"},
    {"class", T::Text, "generated workloads: the problem class (S, W, A, B, C, D)"},
    {"ranks", T::Integer, "MPI ranks of the workload"},
    {"collectives", T::Integer,
     "1: mappers and static metrics see the collectives' messages "
     "too, 0: point-to-point only (NULL for a matrix workload)"},
    {"machine", T::Text, "machine label (the topology spec unless the config names it)"},
    {"topology", T::Text, "canonical topology spec"},
    {"topology_kind", T::Text, "mesh, torus, haec or tianhe3"},
    {"nodes", T::Integer, "nodes of the machine"},
    {"cores", T::Integer, "ranks per node"},
    {"links", T::Text, "link classes overridden, CLASS:GBPS:NS,... ('' = defaults)"},
    {"mapper", T::Text, "mapper name"},
    {"mapper_label", T::Text, "mapper with the parameters the config gave, e.g. scotch[runs=8]"},
    {"params", T::Text, "every mapper parameter, defaults filled in: key=value,..."},
    {"seed", T::Integer, "random seed of the mapper"},
    {"model", T::Text, "network model (analytic, flow, packet) or static (no replay)"},
    {"model_label", T::Text, "model with the options the config gave"},
    {"packet_size", T::Integer, "packet model: payload bytes per packet"},
    {"cut_through", T::Integer, "packet model: 1 virtual cut-through, 0 store-and-forward"},
    {"eager_threshold", T::Integer, "largest eager message, bytes (NULL without replay)"},
    {"compute_scale", T::Real, "factor on recorded compute gaps (NULL without replay)"},
    {"whole_run", T::Integer, "1: the replay covers the whole run, 0: MPI_Init to MPI_Finalize"},
    {"repeat", T::Integer, "repetition index, 0 ..  repeats - 1"},
}};

constexpr std::array<Column, 20> kStatic{{
    {"bytes", T::Integer, "bytes between distinct ranks"},
    {"ieplc", T::Integer, "messages between distinct ranks (IePLC)"},
    {"self_messages", T::Integer, "messages of a rank to itself"},
    {"ianlc", T::Integer, "messages between distinct ranks on one node (IaNLC)"},
    {"ienlc", T::Integer, "messages between ranks on different nodes (IeNLC)"},
    {"hop_bytes", T::Integer, "sum of bytes x hops over rank pairs"},
    {"hop_messages", T::Integer, "sum of messages x hops (total IeNPC)"},
    {"dilation_max", T::Integer, "most hops between two communicating ranks"},
    {"dilation_avg", T::Real, "hops per byte: hop_bytes / bytes"},
    {"link_bytes_max", T::Integer, "bytes on the busiest directed link (dimension-order routes)"},
    {"link_bytes_avg", T::Real, "mean bytes over the directed links used"},
    {"link_bytes_min", T::Integer, "bytes on the least used directed link that is used"},
    {"link_messages_max", T::Integer, "messages on the busiest directed link"},
    {"link_messages_avg", T::Real, "mean messages over the directed links used"},
    {"static_links_used", T::Integer, "directed links crossed by at least one message"},
    {"busiest_link_s", T::Real, "max over directed links of bytes / bandwidth, seconds"},
    {"inter_socket", T::Integer,
     "of IaNLC, messages between ranks on two sockets of one node (0 on nodes of one socket)"},
    {"traffic_energy_j", T::Real,
     "8 x bytes x pJ/bit over the static routes and the nodes' channels, J"},
    {"link_load_squares", T::Real,
     "sum over directed links of bytes^2 / bandwidth, byte-seconds (congestion-smooth)"},
    {"latency_s", T::Real, "sum over messages of their static route's latency, seconds"},
}};

constexpr std::array<Column, 35> kSimulation{{
    {"makespan_ps", T::Integer, "simulated time until the last rank finished, ps"},
    {"mpi_time_max_ps", T::Integer, "largest time in MPI of a rank, ps"},
    {"mpi_time_mean_ps", T::Real, "mean time in MPI over the ranks, ps"},
    {"link_utilisation_max", T::Real, "busiest link's busy time / makespan"},
    {"link_utilisation_mean", T::Real, "mean over the links used"},
    {"links_used", T::Integer, "network links that carried a byte"},
    {"messages", T::Integer, "point-to-point messages sent"},
    {"message_bytes", T::Integer, "their bytes"},
    {"collective_calls", T::Integer, "collective operations, per member"},
    {"collective_messages", T::Integer, "point-to-point messages of collective schedules"},
    {"collective_bytes", T::Integer, "their bytes"},
    {"unmatched_messages", T::Integer, "sent and never received"},
    {"cancelled_requests", T::Integer, "requests cancelled"},
    {"latency_count", T::Integer, "data transfers measured"},
    {"latency_mean_ps", T::Real, "mean message latency, ps"},
    {"latency_p50_ps", T::Integer, "median message latency, ps"},
    {"latency_p90_ps", T::Integer, "90th percentile, ps"},
    {"latency_p99_ps", T::Integer, "99th percentile, ps"},
    {"latency_max_ps", T::Integer, "largest message latency, ps"},
    {"slowdown_mean", T::Real, "mean of latency / contention-free time"},
    {"slowdown_aggregate", T::Real, "sum of latencies / sum of contention-free times"},
    {"trace_events", T::Integer, "trace events replayed"},
    {"engine_events", T::Integer, "discrete events the engine processed"},
    {"sim_seconds", T::Real, "wall time of the replay, s (not compared by merge)"},
    {"energy_j", T::Real, "the network's energy over the replay (sim/Energy.hpp), J"},
    {"energy_dynamic_j", T::Real, "of which the bytes' energy per bit, J"},
    {"energy_static_j", T::Real, "of which the links' idle and busy power over the makespan, J"},
    {"power_w", T::Real, "average power of the network: energy_j / makespan, W"},
    {"critical_compute_ps", T::Integer,
     "of the makespan, the critical path's computation (sim/Result.hpp, CriticalPath), ps"},
    {"critical_overhead_ps", T::Integer, "the critical path's MPI overheads on the ranks, ps"},
    {"critical_latency_ps", T::Integer, "the route latency of the messages on it, ps"},
    {"critical_bandwidth_ps", T::Integer, "their bytes over the bottleneck bandwidth, ps"},
    {"critical_contention_ps", T::Integer, "the rest of their transfer time: shared links, ps"},
    {"critical_waiting_ps", T::Integer, "waiting with no message to blame, ps"},
    {"critical_transfers", T::Integer, "transfers on the critical path"},
}};

constexpr std::array<Column, 10> kProvenance{{
    {"results_version", T::Integer, "version of mapsim's results (part of the run key)"},
    {"mapsim_version", T::Text, "mapsim's version"},
    {"git_revision", T::Text, "git revision mapsim was built from"},
    {"host", T::Text, "host that ran it"},
    {"pid", T::Integer, "process id of the runner"},
    {"owner", T::Text, "random id of the runner process (tells a reused pid apart)"},
    {"command", T::Text, "command line"},
    {"started_at", T::Text, "UTC, ISO 8601"},
    {"finished_at", T::Text, "UTC, ISO 8601"},
    {"heartbeat_at", T::Text, "UTC, ISO 8601: last sign of life while running"},
}};

// The metrics of the normalized view (schema version 5: adding one changes the view, which
// needs a migration).
constexpr std::array<std::string_view, 26> kMetrics{"hop_bytes",
                                                    "hop_messages",
                                                    "dilation_max",
                                                    "dilation_avg",
                                                    "link_bytes_max",
                                                    "link_bytes_avg",
                                                    "link_messages_max",
                                                    "busiest_link_s",
                                                    "link_load_squares",
                                                    "latency_s",
                                                    "ianlc",
                                                    "ienlc",
                                                    "makespan_s",
                                                    "mpi_time_max_s",
                                                    "mpi_time_mean_s",
                                                    "link_utilisation_max",
                                                    "link_utilisation_mean",
                                                    "latency_mean_s",
                                                    "latency_p50_s",
                                                    "latency_p99_s",
                                                    "latency_max_s",
                                                    "slowdown_mean",
                                                    "map_seconds",
                                                    "sim_seconds",
                                                    "traffic_energy_j",
                                                    "energy_j"};
// And the replay's energy parts, stored columns `mapsim results` reads from the results view
// as well (not in the normalized view).
constexpr std::array<std::string_view, 3> kEnergyParts{"energy_dynamic_j", "energy_static_j",
                                                       "power_w"};
constexpr auto kQueryMetrics = [] {
  std::array<std::string_view, kMetrics.size() + kEnergyParts.size()> all{};
  std::size_t at = 0;
  for (const auto m : kMetrics) all[at++] = m;
  for (const auto m : kEnergyParts) all[at++] = m;
  return all;
}();

constexpr std::array<std::string_view, 8> kCorrelated{
    "hop_bytes",      "hop_messages",      "dilation_avg", "link_bytes_max",
    "busiest_link_s", "link_load_squares", "latency_s",    "ienlc"};

std::string column_list(std::span<const Column> columns, std::string_view indent) {
  std::string text;
  for (const auto& c : columns) text += fmt::format("{}{} {},\n", indent, c.name, sql_type(c.type));
  return text;
}

/// The tie tolerances `rank_correlation` computes rho and pair counts at, one row each.
std::string results_sql() {
  // results: every run with its mapping's wall time and its times in seconds.
  std::string seconds;
  for (const auto& c : kSimulation) {
    const std::string_view name = c.name;
    if (name.ends_with("_ps")) {
      seconds += fmt::format(",\n  runs.{} * 1e-12 AS {}_s", name, name.substr(0, name.size() - 3));
    }
  }
  return fmt::format(R"(
CREATE VIEW IF NOT EXISTS results AS
SELECT runs.*, mappings.map_seconds AS map_seconds{}
FROM runs LEFT JOIN mappings USING (mapping_key);
)",
                     seconds);
}

/// normalized: metric / in-order's metric in the same context.
std::string normalized_sql() {
  std::string baseline;
  std::string ratios;
  for (const auto metric : kMetrics) {
    baseline += fmt::format(",\n    AVG({0}) AS {0}", metric);
    ratios += fmt::format(",\n  r.{0} / NULLIF(b.{0}, 0) AS {0}", metric);
  }
  std::string config;
  for (const auto& c : kConfig) config += fmt::format(", r.{}", c.name);
  return fmt::format(R"(
CREATE VIEW IF NOT EXISTS normalized AS
WITH baseline AS (
  SELECT context_key{}
  FROM results WHERE mapper = 'in-order' AND status = 'done' GROUP BY context_key)
SELECT r.run_key, r.context_key, r.name{}{}
FROM results AS r JOIN baseline AS b USING (context_key)
WHERE r.status = 'done';
)",
                     baseline, config, ratios);
}

std::string tie_tolerances_sql() {
  return fmt::format(R"(
CREATE TABLE IF NOT EXISTS tie_tolerances (
  tolerance REAL PRIMARY KEY CHECK (tolerance >= 0 AND tolerance < 1)
) STRICT;
INSERT OR IGNORE INTO tie_tolerances (tolerance) VALUES ({});
)",
                     kDefaultTieTolerance);
}

/// rank_correlation: Spearman's rho between each correlated metric and the makespan, and the
/// pairs' counts, at every tie tolerance, as RankCorrelation.hpp defines them:
///   tied(a, b)   |a - b| <= t * max(|a|, |b|)
///   tie groups   in ascending order, a group takes every following value tied with its first
///                value (the recursive CTE `grouped` carries the first value as `start`)
///   ranks        1..n; every value of a group at the group's average rank
///   rho          Pearson's correlation of the ranks (NULL if either side is one group)
///   pairs        tied on either side, else concordant or discordant
std::string rank_correlation_sql() {
  std::string longform;
  for (const auto metric : kCorrelated) {
    if (!longform.empty()) longform += "\n  UNION ALL ";
    longform += fmt::format(
        "SELECT run_key, context_key, '{0}' AS metric, CAST({0} AS REAL) AS x, "
        "CAST(makespan_ps AS REAL) AS y FROM samples",
        metric);
  }
  return fmt::format(R"(
CREATE VIEW IF NOT EXISTS rank_correlation AS
WITH samples AS (
  SELECT * FROM runs WHERE status = 'done' AND repeat = 0 AND makespan_ps IS NOT NULL),
long AS (
  {}),
cases AS (
  SELECT long.*, t.tolerance FROM long CROSS JOIN tie_tolerances AS t),
sides AS (
  SELECT run_key, context_key, metric, tolerance, 0 AS side, x AS v FROM cases
  UNION ALL
  SELECT run_key, context_key, metric, tolerance, 1 AS side, y AS v FROM cases),
sorted AS (
  SELECT sides.*,
    ROW_NUMBER() OVER (PARTITION BY context_key, metric, tolerance, side ORDER BY v) AS i
  FROM sides),
grouped (run_key, context_key, metric, tolerance, side, i, v, start) AS (
  SELECT run_key, context_key, metric, tolerance, side, i, v, v FROM sorted WHERE i = 1
  UNION ALL
  SELECT s.run_key, s.context_key, s.metric, s.tolerance, s.side, s.i, s.v,
    CASE WHEN abs(s.v - g.start) <= g.tolerance * max(abs(s.v), abs(g.start))
         THEN g.start ELSE s.v END
  FROM grouped AS g JOIN sorted AS s
    ON s.context_key = g.context_key AND s.metric = g.metric AND s.tolerance = g.tolerance
       AND s.side = g.side AND s.i = g.i + 1),
ranked AS (
  SELECT run_key, context_key, metric, tolerance, side,
    AVG(i) OVER (PARTITION BY context_key, metric, tolerance, side, start) AS r
  FROM grouped),
paired AS (
  SELECT x.context_key, x.metric, x.tolerance, x.r AS rx, y.r AS ry
  FROM ranked AS x JOIN ranked AS y USING (run_key, context_key, metric, tolerance)
  WHERE x.side = 0 AND y.side = 1),
centred AS (
  SELECT context_key, metric, tolerance,
    rx - AVG(rx) OVER (PARTITION BY context_key, metric, tolerance) AS dx,
    ry - AVG(ry) OVER (PARTITION BY context_key, metric, tolerance) AS dy
  FROM paired),
rho AS (
  SELECT context_key, metric, tolerance, COUNT(*) AS runs,
    SUM(dx * dy) / NULLIF(sqrt(SUM(dx * dx) * SUM(dy * dy)), 0) AS rho
  FROM centred GROUP BY context_key, metric, tolerance),
pair_kinds AS (
  SELECT a.context_key, a.metric, a.tolerance,
    CASE WHEN abs(a.x - b.x) <= a.tolerance * max(abs(a.x), abs(b.x))
           OR abs(a.y - b.y) <= a.tolerance * max(abs(a.y), abs(b.y)) THEN 0
         WHEN (a.x - b.x) * (a.y - b.y) > 0 THEN 1 ELSE -1 END AS kind
  FROM cases AS a JOIN cases AS b
    ON a.context_key = b.context_key AND a.metric = b.metric AND a.tolerance = b.tolerance
       AND a.run_key < b.run_key),
pairs AS (
  SELECT context_key, metric, tolerance,
    SUM(kind = 1) AS concordant, SUM(kind = -1) AS discordant, SUM(kind = 0) AS tied_pairs
  FROM pair_kinds GROUP BY context_key, metric, tolerance)
SELECT rho.context_key, c.workload, c.machine, c.model_label AS model, c.eager_threshold,
       c.compute_scale, rho.metric, rho.tolerance AS tie_tolerance, rho.runs, rho.rho,
       coalesce(p.concordant, 0) AS concordant, coalesce(p.discordant, 0) AS discordant,
       coalesce(p.tied_pairs, 0) AS tied_pairs,
       coalesce(2 * p.tied_pairs > p.concordant + p.discordant + p.tied_pairs, 0) AS mostly_tied
FROM rho
JOIN (SELECT context_key, workload, machine, model_label, eager_threshold, compute_scale
      FROM runs GROUP BY context_key) AS c USING (context_key)
LEFT JOIN pairs AS p USING (context_key, metric, tolerance);
)",
                     longform);
}

}  // namespace

std::span<const Column> config_columns() {
  return kConfig;
}
std::span<const Column> static_columns() {
  return kStatic;
}
std::span<const Column> simulation_columns() {
  return kSimulation;
}
std::span<const Column> provenance_columns() {
  return kProvenance;
}
std::span<const std::string_view> metrics() {
  return kQueryMetrics;
}
std::span<const std::string_view> normalized_metrics() {
  return kMetrics;
}
std::span<const std::string_view> correlated_metrics() {
  return kCorrelated;
}

std::string_view sql_type(Type type) {
  switch (type) {
    case Type::Integer:
      return "INTEGER";
    case Type::Real:
      return "REAL";
    case Type::Text:
      return "TEXT";
  }
  return "ANY";
}

std::string create_sql() {
  std::string sql = R"(
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS mappings (
  mapping_key TEXT PRIMARY KEY,
  workload_digest TEXT NOT NULL,
  topology TEXT NOT NULL,
  mapper TEXT NOT NULL,
  params TEXT NOT NULL,
  seed INTEGER NOT NULL,
  ranks INTEGER NOT NULL,
  nodes BLOB NOT NULL,      -- node of rank r: 4 bytes little-endian at 4r
  map_seconds REAL NOT NULL -- wall time of the mapper
) STRICT;

CREATE TABLE IF NOT EXISTS runs (
  run_key TEXT PRIMARY KEY,     -- SHA-256 of the canonical effective configuration
  mapping_key TEXT NOT NULL,
  context_key TEXT NOT NULL,    -- the run's key without mapper, params, seed and repeat
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'stale')),
  message TEXT,                 -- why it failed
  config TEXT NOT NULL,         -- the canonical effective configuration (key: value lines)
)";
  sql += column_list(kConfig, "  ");
  sql += column_list(kStatic, "  ");
  sql += column_list(kSimulation, "  ");
  std::string provenance = column_list(kProvenance, "  ");
  provenance.resize(provenance.size() - 2);  // the last comma
  sql += provenance;
  sql += R"(
) STRICT;
CREATE INDEX IF NOT EXISTS runs_by_context ON runs (context_key, status);
CREATE INDEX IF NOT EXISTS runs_by_mapping ON runs (mapping_key);

CREATE TABLE IF NOT EXISTS links (
  run_key TEXT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
  link INTEGER NOT NULL,        -- link id (mapsim topo); ids from the link count up are the
                                -- intra-node channels of the nodes
  from_node INTEGER NOT NULL,
  to_node INTEGER NOT NULL,
  class TEXT NOT NULL,
  static_bytes INTEGER NOT NULL,  -- bytes of the dimension-order routes (static)
  bytes INTEGER,                  -- bytes the replay carried (NULL without replay)
  busy_ps INTEGER,
  utilisation REAL,
  PRIMARY KEY (run_key, link)
) STRICT, WITHOUT ROWID;
)";

  sql += results_sql();
  sql += normalized_sql();

  sql += tie_tolerances_sql();
  sql += rank_correlation_sql();
  return sql;
}

std::span<const Migration> migrations() {
  // 1 -> 2: rank_correlation at every tolerance of the new table tie_tolerances, with pairs.
  static const std::string kTwo =
      "DROP VIEW IF EXISTS rank_correlation;\n" + tie_tolerances_sql() + rank_correlation_sql();
  // 2 -> 3: the static column inter_socket (every stored run's nodes had one socket) and the
  // energy columns (NULL: stored runs kept no per-link bytes to compute them from); the
  // normalized view gains the energies.
  static const std::string kThree =
      "ALTER TABLE runs ADD COLUMN inter_socket INTEGER;\n"
      "UPDATE runs SET inter_socket = 0 WHERE ianlc IS NOT NULL;\n"
      "ALTER TABLE runs ADD COLUMN traffic_energy_j REAL;\n"
      "ALTER TABLE runs ADD COLUMN energy_j REAL;\n"
      "ALTER TABLE runs ADD COLUMN energy_dynamic_j REAL;\n"
      "ALTER TABLE runs ADD COLUMN energy_static_j REAL;\n"
      "ALTER TABLE runs ADD COLUMN power_w REAL;\n"
      "DROP VIEW IF EXISTS normalized;\n" +
      normalized_sql();
  // 3 -> 4: the critical path's parts (NULL for stored runs: their replays did not follow it);
  // the results view gains them in seconds.
  static const std::string kFour =
      "ALTER TABLE runs ADD COLUMN critical_compute_ps INTEGER;\n"
      "ALTER TABLE runs ADD COLUMN critical_overhead_ps INTEGER;\n"
      "ALTER TABLE runs ADD COLUMN critical_latency_ps INTEGER;\n"
      "ALTER TABLE runs ADD COLUMN critical_bandwidth_ps INTEGER;\n"
      "ALTER TABLE runs ADD COLUMN critical_contention_ps INTEGER;\n"
      "ALTER TABLE runs ADD COLUMN critical_waiting_ps INTEGER;\n"
      "ALTER TABLE runs ADD COLUMN critical_transfers INTEGER;\n"
      "DROP VIEW IF EXISTS normalized;\n"
      "DROP VIEW IF EXISTS results;\n" +
      results_sql() + normalized_sql();
  // 4 -> 5: the static sums of the objectives congestion-smooth and latency (NULL for stored
  // runs: computed from the mapping, which runs do not keep); the views gain them.
  static const std::string kFive =
      "ALTER TABLE runs ADD COLUMN link_load_squares REAL;\n"
      "ALTER TABLE runs ADD COLUMN latency_s REAL;\n"
      "DROP VIEW IF EXISTS rank_correlation;\n"
      "DROP VIEW IF EXISTS normalized;\n"
      "DROP VIEW IF EXISTS results;\n" +
      results_sql() + normalized_sql() + rank_correlation_sql();
  static const std::array kSteps{Migration{1, kTwo}, Migration{2, kThree}, Migration{3, kFour},
                                 Migration{4, kFive}};
  return kSteps;
}

}  // namespace mapsim::exp::schema
