#pragma once
// Hand-made results databases for the report's tests and benchmarks: runs described by the few
// columns the report reads (HandRun), claimed and committed through the public Store API as a
// runner would, with deterministic keys.
//
//   HandRun run = hand_run("npb:lu:D:256", "torus:8x8x4", "greedy", 256);
//   run.hop_bytes = 150;
//   run.makespan_s = 2.0;
//   add_runs(database, std::span(&run, 1));
//
// Keys (SHA-256, hex; see hand_identity()):
//   context key  workload, workload spec, ranks, machine, topology, model, eager threshold and
//                compute scale (what `mapsim results` groups by: all but mapper, seed, repeat)
//   mapping key  the context key with the mapper label and seed
//   run key      the mapping key with the repeat
// Two HandRuns that differ only in `failed` or in their metrics have the same run key: adding
// the second is an error (give them different repeats or seeds).
//
// No mapping is stored (the results view's map_seconds is NULL). Without gtest, so that a
// benchmark can include it too.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "experiments/Digest.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Store.hpp"

namespace mapsim::exp::testing {

/// One run of a hand-made database: its configuration and what it measured.
struct HandRun {
  std::string workload;       ///< label, e.g. "npb:lu:D:256"
  std::string workload_spec;  ///< e.g. "npb:lu:D:256:iterations=1" ("" = the label)
  std::string workload_kind = "generated";
  std::string machine;        ///< label
  std::string topology;       ///< canonical spec ("" = the machine label)
  std::string topology_kind;  ///< "" = the topology spec up to its first ':'
  std::string model = "flow";
  std::string model_label;  ///< "" = the model
  std::string mapper;
  std::string mapper_label;  ///< "" = the mapper
  std::int64_t ranks = 0;
  std::int64_t seed = 0;
  std::int64_t repeat = 0;
  std::optional<std::int64_t> eager_threshold;
  std::optional<double> compute_scale;
  /// Configuration lines of MPI settings that are not the defaults, e.g. "overheads: typical\n"
  /// (part of the context, as a sweep's).
  std::string mpi;
  std::string name;  ///< "" = workload/machine/mapper/model/seed/repeat, like a sweep's

  double hop_bytes = 0;       ///< stored as an integer (rounded)
  double link_bytes_max = 0;  ///< stored as an integer (rounded)
  double dilation_max = 0;    ///< stored as an integer (rounded)
  /// Simulated time; stored as makespan_ps = round(s * 1e12), so the results view gives back
  /// makespan_ps * 1e-12 (equal to within rounding). nullopt: a static run (no replay).
  std::optional<double> makespan_s;
  /// Any other static or simulation column by its name in the runs table, e.g.
  /// {"mpi_time_max_ps", std::int64_t{5}}.
  std::vector<std::pair<std::string, schema::Value>> columns;
  bool failed = false;  ///< committed as failed with message "hand-made failure"
  std::vector<LinkLoad> links;
};

/// A run with the fields every test sets; the metrics are 0 until set.
inline HandRun hand_run(std::string workload, std::string machine, std::string mapper,
                        std::int64_t ranks) {
  HandRun run;
  run.workload = std::move(workload);
  run.machine = std::move(machine);
  run.mapper = std::move(mapper);
  run.ranks = ranks;
  return run;
}

namespace detail {

inline std::string or_default(const std::string& value, const std::string& fallback) {
  return value.empty() ? fallback : value;
}

inline std::string optional_text(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : "-";
}

inline std::string optional_text(const std::optional<double>& v) {
  return v ? fmt::format("{}", *v) : "-";
}

inline schema::Value optional_value(const std::optional<std::int64_t>& v) {
  return v ? schema::Value(*v) : schema::Value();
}

inline schema::Value optional_value(const std::optional<double>& v) {
  return v ? schema::Value(*v) : schema::Value();
}

/// Sets the column `name` of `row` if `columns` has it; returns whether it did.
inline bool set_column(schema::Row& row, std::span<const schema::Column> columns,
                       std::string_view name, const schema::Value& value) {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].name == name) {
      row[c] = value;
      return true;
    }
  }
  return false;
}

}  // namespace detail

/// The identity a sweep would give `run` (keys as in the file comment).
inline RunIdentity hand_identity(const HandRun& run) {
  const auto spec = detail::or_default(run.workload_spec, run.workload);
  const auto topology = detail::or_default(run.topology, run.machine);
  const auto kind = detail::or_default(run.topology_kind, topology.substr(0, topology.find(':')));
  const auto model_label = detail::or_default(run.model_label, run.model);
  const auto mapper_label = detail::or_default(run.mapper_label, run.mapper);
  const auto eager = detail::optional_text(run.eager_threshold);
  const auto compute = detail::optional_text(run.compute_scale);
  const auto context = fmt::format(
      "workload: {}\nworkload_spec: {}\nranks: {}\nmachine: {}\ntopology: {}\nmodel: {}\n"
      "eager_threshold: {}\ncompute_scale: {}\n{}",
      run.workload, spec, run.ranks, run.machine, topology, model_label, eager, compute, run.mpi);
  const auto mapping = fmt::format("{}mapper: {}\nseed: {}\n", context, mapper_label, run.seed);
  const auto config = fmt::format("{}repeat: {}\n", mapping, run.repeat);

  RunIdentity identity;
  identity.context_key = sha256(context);
  identity.mapping_key = sha256(mapping);
  identity.key = sha256(config);
  identity.config = config;
  identity.name = !run.name.empty() ? run.name
                                    : fmt::format("{}/{}/{}/{}/{}/{}", run.workload, run.machine,
                                                  mapper_label, model_label, run.seed, run.repeat);
  schema::Row row(schema::config_columns().size());
  const auto set = [&](std::string_view name, schema::Value value) {
    if (!detail::set_column(row, schema::config_columns(), name, value))
      throw std::logic_error(fmt::format("no configuration column '{}'", name));
  };
  set("workload", run.workload);
  set("workload_kind", run.workload_kind);
  set("workload_spec", spec);
  set("workload_digest", sha256(spec));
  set("ranks", run.ranks);
  set("machine", run.machine);
  set("topology", topology);
  set("topology_kind", kind);
  set("links", std::string());
  set("mapper", run.mapper);
  set("mapper_label", mapper_label);
  set("params", std::string());
  set("seed", run.seed);
  set("model", run.model);
  set("model_label", model_label);
  set("eager_threshold", detail::optional_value(run.eager_threshold));
  set("compute_scale", detail::optional_value(run.compute_scale));
  set("repeat", run.repeat);
  identity.config_row = std::move(row);
  return identity;
}

/// What commit() stores for `run` under `key`.
inline RunRecord hand_record(const HandRun& run, std::string key) {
  RunRecord record;
  record.key = std::move(key);
  record.done = !run.failed;
  if (run.failed) {
    record.message = "hand-made failure";
    return record;
  }
  schema::Row static_row(schema::static_columns().size());
  schema::Row simulation_row(schema::simulation_columns().size());
  const auto set = [&](std::string_view name, const schema::Value& value) {
    if (!detail::set_column(static_row, schema::static_columns(), name, value) &&
        !detail::set_column(simulation_row, schema::simulation_columns(), name, value)) {
      throw std::logic_error(fmt::format("no static or simulation column '{}'", name));
    }
  };
  set("hop_bytes", std::llround(run.hop_bytes));
  set("link_bytes_max", std::llround(run.link_bytes_max));
  set("dilation_max", std::llround(run.dilation_max));
  if (run.makespan_s) set("makespan_ps", std::llround(*run.makespan_s * 1e12));
  for (const auto& [name, value] : run.columns) set(name, value);
  record.static_row = std::move(static_row);
  if (run.makespan_s) record.simulation_row = std::move(simulation_row);
  record.links = run.links;
  return record;
}

/// Adds `runs` to the database at `path` (created if missing): claims them all in one
/// transaction, then commits each (one transaction per run, as Store::commit does; 10,000 runs
/// take about a second or two). Returns the run keys in the order of `runs`. Throws
/// std::logic_error if a key is already there (claimed or done) or a column is unknown.
inline std::vector<std::string> add_runs(const std::filesystem::path& path,
                                         std::span<const HandRun> runs) {
  Store store(path, Store::Access::Write);
  const auto me = this_process("hand-made report database");
  std::vector<RunIdentity> identities;
  identities.reserve(runs.size());
  for (const auto& run : runs) identities.push_back(hand_identity(run));
  const auto claimed = store.claim(identities, me, false);
  std::vector<std::string> keys;
  keys.reserve(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!claimed[i] || !store.commit(hand_record(runs[i], identities[i].key), me)) {
      throw std::logic_error(
          fmt::format("hand-made run '{}' is already in '{}' (same key: differ in mapper, seed or "
                      "repeat)",
                      identities[i].name, path.string()));
    }
    keys.push_back(identities[i].key);
  }
  return keys;
}

inline std::vector<std::string> add_runs(const std::filesystem::path& path,
                                         std::initializer_list<HandRun> runs) {
  return add_runs(path, std::span(runs.begin(), runs.size()));
}

}  // namespace mapsim::exp::testing
