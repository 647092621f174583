#pragma once
// The results database (SQLite; schema in Schema.hpp). Every connection runs in WAL mode with
// synchronous=NORMAL and a busy timeout, so readers (`mapsim results`, sqlite3, pandas) work
// while a sweep writes, and a second writer waits instead of failing; writes take the lock at
// once (BEGIN IMMEDIATE) and each run's results are one transaction.
//
// Run lifecycle: a runner *claims* a run (a row with status `running`, its owner's host, pid and
// random token, and a heartbeat the runner refreshes), then *commits* it as `done` or `failed`
// with everything it measured, or *releases* it (deletes the row) if it was interrupted. A
// `running` row whose owner is gone — on this host its pid no longer exists or belongs to
// another process (a different token under our own pid), on any host its heartbeat is older
// than the expiry (or further in the future: the hosts' clocks must agree within it) — reads as
// `stale`, and a runner re-runs it.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/Schema.hpp"
#include "experiments/Sqlite.hpp"
#include "topologies/Mapping.hpp"

namespace mapsim::exp {

/// The process that runs: what a `running` row records of its owner.
struct Owner {
  std::string host;
  std::int64_t pid = 0;
  std::string token;  ///< random, per process
  std::string command;
};

/// This process, with a fresh token.
Owner this_process(std::string command);

enum class RunStatus : std::uint8_t { New, Running, Done, Failed, Stale };
std::string_view name(RunStatus status);

struct StoredState {
  RunStatus status = RunStatus::New;
  std::string host;  ///< running / stale: the owner
  std::int64_t pid = 0;
  std::string message;  ///< failed: why
};

/// What identifies a run in the database (from the Sweep; see Sweep.hpp).
struct RunIdentity {
  std::string key;
  std::string mapping_key;
  std::string context_key;
  std::string name;
  std::string config;
  schema::Row config_row;  ///< schema::config_columns() order
};

struct StoredMapping {
  std::string key;
  std::string workload_digest;
  std::string topology;
  std::string mapper;
  std::string params;
  std::int64_t seed = 0;
  topo::Mapping mapping;
  double map_seconds = 0;
};

/// Per-link loads of one run.
struct LinkLoad {
  std::int64_t link = 0;
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::string link_class;
  std::int64_t static_bytes = 0;
  std::optional<std::int64_t> bytes;  ///< replay only
  std::optional<std::int64_t> busy_ps;
  std::optional<double> utilisation;
};

/// A finished run: what commit() stores.
struct RunRecord {
  std::string key;
  bool done = false;  ///< false: failed, with `message`
  std::string message;
  std::optional<schema::Row> static_row;      ///< schema::static_columns() order
  std::optional<schema::Row> simulation_row;  ///< schema::simulation_columns() order
  std::optional<StoredMapping> mapping;       ///< stored if not there yet
  std::vector<LinkLoad> links;
};

/// Seconds after which a running row without a heartbeat is stale, and the heartbeat period.
inline constexpr double kStaleAfterSeconds = 60;
inline constexpr double kHeartbeatSeconds = 10;

class Store {
 public:
  enum class Access {
    Read,   ///< an existing database, read only
    Write,  ///< created with the schema if missing
  };

  /// Opens `path`. Throws InputError naming the file if it is missing (Read), not a mapsim
  /// database (another application id, or tables without one), of a newer schema version (with
  /// both versions), or of an older one (saying to run `mapsim upgrade`).
  Store(const std::filesystem::path& path, Access access);

  [[nodiscard]] sql::Connection& connection() { return db_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  /// The run's state; a running row whose owner is gone reads as Stale (see the file comment).
  /// `me`: the runner asking, whose pid may be a dead runner's (then a row under that pid with
  /// another token is stale); nullptr: an observer that owns nothing.
  [[nodiscard]] StoredState state(std::string_view key, const Owner* me = nullptr);
  /// Marks every running row whose owner is gone as stale; returns how many.
  std::int64_t mark_stale(const Owner& me, double expiry_seconds = kStaleAfterSeconds);

  /// In one transaction, claims for `me` each run that is new, stale, or failed if
  /// `rerun_failed`; returns which it claimed (the others are done, failed, or running
  /// elsewhere).
  std::vector<bool> claim(std::span<const RunIdentity> runs, const Owner& me, bool rerun_failed);
  /// Stores a claimed run's results in one transaction. Returns false if the row is no longer
  /// ours (another runner took it over as stale): nothing is written then.
  bool commit(const RunRecord& record, const Owner& me);
  /// Deletes claimed rows that were not finished (an interrupted run), in one transaction.
  void release(std::span<const std::string> keys, const Owner& me);
  /// Refreshes the heartbeat of every row `me` runs.
  void heartbeat(const Owner& me);

  /// The stored mapping with this key, if any.
  [[nodiscard]] std::optional<StoredMapping> mapping(std::string_view key);

  /// Runs PRAGMA integrity_check; returns "ok" or the problems.
  [[nodiscard]] std::string integrity_check();
  /// Runs PRAGMA quick_check (the pages and records, without matching indexes to tables);
  /// returns "ok" or the problems.
  [[nodiscard]] std::string quick_check();

  /// Upgrades an older schema to the current one with `steps` (default: schema::migrations()),
  /// in one transaction, after copying the file to PATH.bak. Returns the version it found.
  static std::int64_t upgrade(const std::filesystem::path& path,
                              std::span<const schema::Migration> steps = schema::migrations(),
                              std::int64_t target = schema::kVersion);

 private:
  std::filesystem::path path_;
  sql::Connection db_;
};

/// Removes a database file with its -wal, -shm and -journal files, if there (errors ignored).
void remove_database_files(const std::filesystem::path& path) noexcept;

/// Mapping blobs: rank r as 4 bytes little-endian at offset 4r, its node in the low 21 bits
/// (topo::kMaxNodes) and, when the mapping names cores (topologies/Mapping.hpp), its core + 1 in
/// the 11 bits above (0: the rank order, so a mapping without cores has the blob it always had).
std::string encode_mapping(const topo::Mapping& mapping);
/// Throws InputError naming `what` if the blob's size is not a multiple of 4.
topo::Mapping decode_mapping(std::span<const std::byte> blob, std::string_view what);

/// The current UTC time as ISO 8601 with milliseconds, e.g. "2026-11-23T10:15:30.123Z".
std::string utc_now();

}  // namespace mapsim::exp
