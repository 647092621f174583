#include "experiments/Store.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <ctime>
#include <random>
#include <tuple>
#include <unistd.h>

#include <fmt/format.h>

#include "experiments/Sweep.hpp"
#include "support/Error.hpp"
#include "support/OutputFile.hpp"
#include "support/Version.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::exp {
namespace {

using sql::Connection;
using sql::Statement;
using sql::Transaction;

std::string host_name() {
  char buffer[256] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0) return "unknown";
  return buffer;
}

/// Whether the owner of a running row is gone (see Store.hpp).
bool owner_gone(const std::string& host, std::int64_t pid, const std::string& token,
                double heartbeat_age, const Owner& me, double expiry) {
  // A heartbeat from further ahead than the expiry is no sign of life either: clocks that
  // disagree that much make every heartbeat meaningless, and one in the year 2999 would keep a
  // dead runner's row forever.
  if (std::abs(heartbeat_age) > expiry) return true;
  if (host != me.host) return false;
  if (pid == me.pid) return token != me.token;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

constexpr std::string_view kStateColumns =
    "status, host, pid, owner, message, (julianday('now') - julianday(heartbeat_at)) * 86400.0";

std::string comma_list(std::span<const schema::Column> columns, std::string_view suffix = "") {
  std::string text;
  for (const auto& c : columns) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{}{}", c.name, suffix);
  }
  return text;
}

std::string slots(std::size_t n) {
  std::string text;
  for (std::size_t i = 0; i < n; ++i) text += i == 0 ? "?" : ", ?";
  return text;
}

/// The application id and schema version, read in one transaction (another runner may be
/// creating the database between two separate reads).
std::pair<std::int64_t, std::int64_t> read_header(Connection& db) {
  Transaction transaction(db, /*immediate=*/false);
  const auto id = db.query_integer("PRAGMA application_id");
  const auto version = db.query_integer("PRAGMA user_version");
  transaction.commit();
  return {id, version};
}

/// The tables, views, application id, schema version and meta rows of a new database, in one
/// transaction taken under the write lock. False if the database is not empty by then (another
/// runner made it meanwhile): nothing is written.
bool create_schema(Connection& db) {
  Transaction transaction(db);
  if (db.query_integer("PRAGMA application_id") != 0 ||
      db.query_integer("PRAGMA user_version") != 0 ||
      db.query_integer("SELECT COUNT(*) FROM sqlite_schema") != 0) {
    transaction.commit();
    return false;
  }
  db.execute(schema::create_sql());
  db.execute(fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {}",
                         schema::kApplicationId, schema::kVersion));
  auto meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  for (const auto& [key, value] :
       {std::pair<std::string, std::string>{"created_by", std::string(version())},
        {"created_from", std::string(git_revision())},
        {"created_at", utc_now()}}) {
    meta.bind(1, key).bind(2, value).run();
    meta.reset();
  }
  transaction.commit();
  return true;
}

/// Creates a new results database at `path`, which does not exist, all at once: it is built in a
/// temporary beside `path` and linked into place, so that `path` never names a half-made
/// database (a kill leaves at most the temporary). If another runner creates `path` meanwhile,
/// theirs is kept.
void create_database(const std::filesystem::path& path) {
  // The folder first, in the database's name (not the temporary's).
  const auto folder = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  if (::access(folder.c_str(), W_OK) != 0) {
    throw InputError(
        fmt::format("cannot create database '{}': {}", path.string(), system_reason(errno)));
  }
  const auto temporary = temporary_sibling(path);
  const auto remove_temporary = [&] { remove_database_files(temporary); };
  try {
    {
      Connection db(temporary, Connection::Mode::Create);
      db.use_wal();
      (void)create_schema(db);
    }  // closed: its WAL is checkpointed into the file and removed
    if (::link(temporary.c_str(), path.c_str()) != 0 && errno != EEXIST) {
      const int error = errno;
      // A file system without hard links: rename, unless the database appeared meanwhile.
      std::error_code exists_error;
      if ((error != EPERM && error != ENOTSUP && error != EXDEV) ||
          (!std::filesystem::exists(path, exists_error) &&
           ::rename(temporary.c_str(), path.c_str()) != 0)) {
        throw InputError(
            fmt::format("cannot create database '{}': {}", path.string(), system_reason(errno)));
      }
    }
  } catch (const InputError& e) {
    remove_temporary();
    if (std::string_view(e.what()).starts_with("cannot create database")) throw;
    throw InputError(fmt::format("cannot create database '{}': {}", path.string(), e.what()));
  }
  remove_temporary();
}

/// Throws for a database with tables but not our application id (another application's).
void refuse_foreign(Connection& db, const std::filesystem::path& path, std::int64_t id) {
  if (id == 0 && db.query_integer("SELECT COUNT(*) FROM sqlite_schema") != 0) {
    throw InputError(
        fmt::format("'{}' is an SQLite database of another application (it has "
                    "tables but no mapsim application id)",
                    path.string()));
  }
  if (id != 0 && id != schema::kApplicationId) {
    throw InputError(
        fmt::format("'{}' is not a mapsim results database (application id {:#x}, "
                    "mapsim's is {:#x})",
                    path.string(), id, schema::kApplicationId));
  }
}

/// Checks that `db` is a mapsim results database of this schema version, reading only (a file
/// of another application is never written). With `may_create`, an empty database (a 0-byte
/// file) gets the schema.
void check_schema(Connection& db, const std::filesystem::path& path, bool may_create) {
  const auto [id, found] = read_header(db);
  refuse_foreign(db, path, id);
  if (id == 0 && found == 0) {
    if (may_create) {
      db.use_wal();
      if (create_schema(db)) return;
      check_schema(db, path, false);  // made by another runner meanwhile: check theirs
      return;
    }
    std::error_code error;
    if (std::filesystem::file_size(path, error) == 0 && !error) {
      throw InputError(
          fmt::format("'{}' is an empty database (an empty file), not a results database yet "
                      "(`mapsim run CONFIG --db {}` makes it one)",
                      path.string(), path.string()));
    }
    throw InputError(
        fmt::format("'{}' is an empty database, not a mapsim results database", path.string()));
  }
  if (id == 0) {
    throw InputError(
        fmt::format("'{}' is not a mapsim results database (application id 0x0, "
                    "schema version {})",
                    path.string(), found));
  }
  if (found > schema::kVersion) {
    throw InputError(
        fmt::format("'{}' has schema version {}, newer than this mapsim's {}: use "
                    "the mapsim that wrote it, or a newer one",
                    path.string(), found, schema::kVersion));
  }
  if (found < schema::kVersion) {
    throw InputError(
        fmt::format("'{}' has schema version {}, older than this mapsim's {}: run "
                    "'mapsim upgrade {}' to migrate it (it keeps a copy as .bak)",
                    path.string(), found, schema::kVersion, path.string()));
  }
  if (may_create) db.use_wal();  // ours: the first write
}

/// The connection of a Store: a new database is created first (all at once) for writing.
Connection open_store(const std::filesystem::path& path, Store::Access access) {
  if (access == Store::Access::Read) return Connection(path, Connection::Mode::ReadOnly);
  std::error_code error;
  if (!std::filesystem::exists(path, error) && !error) {
    (void)sql::plain_path(path);  // an empty path is an error before a temporary is made
    create_database(path);
  }
  return Connection(path, Connection::Mode::ReadWrite);
}

}  // namespace

Owner this_process(std::string command) {
  std::random_device device;
  std::mt19937_64 random(
      (std::uint64_t{device()} << 32) ^ device() ^ static_cast<std::uint64_t>(::getpid()) ^
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  return {host_name(), ::getpid(), fmt::format("{:016x}", random()), std::move(command)};
}

std::string_view name(RunStatus status) {
  switch (status) {
    case RunStatus::New:
      return "new";
    case RunStatus::Running:
      return "running";
    case RunStatus::Done:
      return "done";
    case RunStatus::Failed:
      return "failed";
    case RunStatus::Stale:
      return "stale";
  }
  return "?";
}

std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const auto seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900,
                     utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

namespace {
constexpr int kNodeBits = 21;
static_assert(topo::kMaxNodes == std::int64_t{1} << kNodeBits, "node ids fill the low bits");
static_assert(topo::kMaxCoresPerNode < (1 << (32 - kNodeBits)), "core + 1 fills the high bits");
constexpr std::uint32_t kNodeMask = (1u << kNodeBits) - 1;
}  // namespace

std::string encode_mapping(const topo::Mapping& mapping) {
  std::string blob;
  blob.reserve(4 * static_cast<std::size_t>(mapping.rank_count()));
  const auto cores = mapping.cores();
  for (std::size_t r = 0; r < mapping.nodes().size(); ++r) {
    auto v = static_cast<std::uint32_t>(mapping.nodes()[r]);
    if (!cores.empty()) v |= static_cast<std::uint32_t>(cores[r] + 1) << kNodeBits;
    for (int b = 0; b < 4; ++b) blob.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
  }
  return blob;
}

topo::Mapping decode_mapping(std::span<const std::byte> blob, std::string_view what) {
  if (blob.size() % 4 != 0)
    throw InputError(
        fmt::format("{}: a mapping blob of {} bytes (not 4 per rank)", what, blob.size()));
  std::vector<topo::NodeId> nodes(blob.size() / 4);
  std::vector<std::int32_t> cores(nodes.size());
  std::size_t with_core = 0;
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b)
      v |= static_cast<std::uint32_t>(std::to_integer<unsigned>(blob[4 * r + b])) << (8 * b);
    nodes[r] = static_cast<topo::NodeId>(v & kNodeMask);
    cores[r] = static_cast<std::int32_t>(v >> kNodeBits) - 1;
    with_core += cores[r] >= 0 ? 1 : 0;
  }
  if (with_core == 0) return topo::Mapping(std::move(nodes));
  if (with_core != nodes.size()) {
    throw InputError(fmt::format("{}: a mapping blob names the cores of {} of its {} ranks", what,
                                 with_core, nodes.size()));
  }
  return {std::move(nodes), std::move(cores)};
}

Store::Store(const std::filesystem::path& path, Access access)
    : path_(path), db_(open_store(path, access)) {
  check_schema(db_, path_, access == Access::Write);
}

StoredState Store::state(std::string_view key, const Owner* me) {
  auto select = db_.prepare(fmt::format("SELECT {} FROM runs WHERE run_key = ?", kStateColumns));
  select.bind(1, key);
  StoredState state;
  if (!select.step()) return state;
  const auto status = select.text(0);
  state.host = select.text(1);
  state.pid = select.integer(2);
  state.message = select.text(4);
  if (status == "done") {
    state.status = RunStatus::Done;
  } else if (status == "failed") {
    state.status = RunStatus::Failed;
  } else if (status == "stale") {
    state.status = RunStatus::Stale;
  } else {
    // An observer owns no row: on this host only a dead pid makes it stale.
    const Owner observer{host_name(), -1, "", ""};
    const bool gone = owner_gone(state.host, state.pid, select.text(3), select.real(5),
                                 me != nullptr ? *me : observer, kStaleAfterSeconds);
    state.status = gone ? RunStatus::Stale : RunStatus::Running;
  }
  return state;
}

std::int64_t Store::mark_stale(const Owner& me, double expiry_seconds) {
  Transaction transaction(db_);
  auto select = db_.prepare(
      fmt::format("SELECT run_key, {} FROM runs WHERE status = 'running'", kStateColumns));
  std::vector<std::string> gone;
  while (select.step()) {
    if (owner_gone(select.text(2), select.integer(3), select.text(4), select.real(6), me,
                   expiry_seconds)) {
      gone.push_back(select.text(0));
    }
  }
  auto update = db_.prepare("UPDATE runs SET status = 'stale' WHERE run_key = ?");
  for (const auto& key : gone) {
    update.bind(1, key).run();
    update.reset();
  }
  transaction.commit();
  return static_cast<std::int64_t>(gone.size());
}

std::vector<bool> Store::claim(std::span<const RunIdentity> runs, const Owner& me,
                               bool rerun_failed) {
  std::vector<bool> claimed(runs.size(), false);
  Transaction transaction(db_);
  auto select = db_.prepare(fmt::format("SELECT {} FROM runs WHERE run_key = ?", kStateColumns));
  const auto provenance = schema::provenance_columns();
  const std::size_t fixed = 7;  // run_key .. config
  auto insert = db_.prepare(fmt::format(
      "INSERT OR REPLACE INTO runs (run_key, mapping_key, context_key, name, status, message, "
      "config, {}, {}) VALUES ({})",
      comma_list(schema::config_columns()), comma_list(provenance),
      slots(fixed + schema::config_columns().size() + provenance.size())));
  const auto now = utc_now();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    select.bind(1, run.key);
    bool free = true;
    if (select.step()) {
      const auto status = select.text(0);
      if (status == "done") {
        free = false;
      } else if (status == "failed") {
        free = rerun_failed;
      } else if (status == "running") {
        free = owner_gone(select.text(1), select.integer(2), select.text(3), select.real(5), me,
                          kStaleAfterSeconds);
      }
    }
    select.reset();
    if (!free) continue;
    MAPSIM_EXPECTS(run.config_row.size() == schema::config_columns().size(),
                   "a run's configuration row has the wrong length");
    schema::Row values{run.key,   run.mapping_key,        run.context_key,
                       run.name,  std::string("running"), std::monostate{},
                       run.config};
    values.insert(values.end(), run.config_row.begin(), run.config_row.end());
    for (schema::Value v :
         {schema::Value(kResultsVersion), schema::Value(std::string(version())),
          schema::Value(std::string(git_revision())), schema::Value(me.host), schema::Value(me.pid),
          schema::Value(me.token), schema::Value(me.command), schema::Value(now),
          schema::Value(std::monostate{}), schema::Value(now)}) {
      values.push_back(std::move(v));
    }
    for (std::size_t v = 0; v < values.size(); ++v) insert.bind(static_cast<int>(v) + 1, values[v]);
    insert.run();
    insert.reset();
    claimed[i] = true;
  }
  transaction.commit();
  return claimed;
}

bool Store::commit(const RunRecord& record, const Owner& me) {
  Transaction transaction(db_);
  std::string assignments = "status = ?, message = ?, finished_at = ?, heartbeat_at = ?";
  for (const auto& c : schema::static_columns()) assignments += fmt::format(", {} = ?", c.name);
  for (const auto& c : schema::simulation_columns()) assignments += fmt::format(", {} = ?", c.name);
  auto update = db_.prepare(fmt::format(
      "UPDATE runs SET {} WHERE run_key = ? AND owner = ? AND status = 'running'", assignments));
  const auto now = utc_now();
  int at = 1;
  update.bind(at++, record.done ? "done" : "failed");
  if (record.done) {
    update.bind_null(at++);
  } else {
    update.bind(at++, record.message);
  }
  update.bind(at++, now);
  update.bind(at++, now);
  const auto bind_row = [&](const std::optional<schema::Row>& row,
                            std::span<const schema::Column> columns) {
    if (row) MAPSIM_EXPECTS(row->size() == columns.size(), "a result row has the wrong length");
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (row) {
        update.bind(at++, (*row)[c]);
      } else {
        update.bind_null(at++);
      }
    }
  };
  bind_row(record.static_row, schema::static_columns());
  bind_row(record.simulation_row, schema::simulation_columns());
  update.bind(at++, record.key);
  update.bind(at++, me.token);
  update.run();
  if (db_.changes() != 1) return false;  // rolled back by the transaction's destructor
  if (record.mapping) {
    const auto& m = *record.mapping;
    auto insert = db_.prepare(
        "INSERT OR IGNORE INTO mappings (mapping_key, workload_digest, topology, mapper, params, "
        "seed, ranks, nodes, map_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const auto blob = encode_mapping(m.mapping);
    insert.bind(1, m.key)
        .bind(2, m.workload_digest)
        .bind(3, m.topology)
        .bind(4, m.mapper)
        .bind(5, m.params)
        .bind(6, m.seed)
        .bind(7, std::int64_t{m.mapping.rank_count()})
        .bind_blob(8, std::as_bytes(std::span(blob.data(), blob.size())))
        .bind(9, m.map_seconds)
        .run();
  }
  if (!record.links.empty()) {
    db_.prepare("DELETE FROM links WHERE run_key = ?").bind(1, record.key).run();
    auto insert = db_.prepare(
        "INSERT INTO links (run_key, link, from_node, to_node, class, static_bytes, bytes, "
        "busy_ps, utilisation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& link : record.links) {
      insert.bind(1, record.key)
          .bind(2, link.link)
          .bind(3, link.from)
          .bind(4, link.to)
          .bind(5, link.link_class)
          .bind(6, link.static_bytes)
          .bind(7, link.bytes)
          .bind(8, link.busy_ps)
          .bind(9, link.utilisation)
          .run();
      insert.reset();
    }
  }
  transaction.commit();
  return true;
}

void Store::release(std::span<const std::string> keys, const Owner& me) {
  if (keys.empty()) return;
  Transaction transaction(db_);
  auto erase =
      db_.prepare("DELETE FROM runs WHERE run_key = ? AND owner = ? AND status = 'running'");
  for (const auto& key : keys) {
    erase.bind(1, key).bind(2, me.token).run();
    erase.reset();
  }
  transaction.commit();
}

void Store::heartbeat(const Owner& me) {
  Transaction transaction(db_);
  db_.prepare("UPDATE runs SET heartbeat_at = ? WHERE owner = ? AND status = 'running'")
      .bind(1, utc_now())
      .bind(2, me.token)
      .run();
  transaction.commit();
}

std::optional<StoredMapping> Store::mapping(std::string_view key) {
  auto select = db_.prepare(
      "SELECT mapping_key, workload_digest, topology, mapper, params, seed, nodes, map_seconds "
      "FROM mappings WHERE mapping_key = ?");
  select.bind(1, key);
  if (!select.step()) return std::nullopt;
  StoredMapping m;
  m.key = select.text(0);
  m.workload_digest = select.text(1);
  m.topology = select.text(2);
  m.mapper = select.text(3);
  m.params = select.text(4);
  m.seed = select.integer(5);
  m.mapping =
      decode_mapping(select.blob(6), fmt::format("'{}': mapping {}", path_.string(), m.key));
  m.map_seconds = select.real(7);
  return m;
}

namespace {

/// The rows of PRAGMA integrity_check or quick_check, joined: "ok" or the problems.
std::string check_pages(Connection& db, std::string_view pragma) {
  auto check = db.prepare(fmt::format("PRAGMA {}", pragma));
  std::string text;
  while (check.step()) {
    if (!text.empty()) text += "; ";
    text += check.text(0);
  }
  return text;
}

}  // namespace

std::string Store::integrity_check() {
  return check_pages(db_, "integrity_check");
}

std::string Store::quick_check() {
  return check_pages(db_, "quick_check");
}

void remove_database_files(const std::filesystem::path& path) noexcept {
  std::error_code ignored;
  for (const auto* suffix : {"", "-wal", "-shm", "-journal"}) {
    auto file = path;
    file += suffix;
    std::filesystem::remove(file, ignored);
  }
}

std::int64_t Store::upgrade(const std::filesystem::path& path,
                            std::span<const schema::Migration> steps, std::int64_t target) {
  Connection db(path, Connection::Mode::ReadWrite);
  // Read before anything is written: a file of another application stays as it was.
  const auto [id, found] = read_header(db);
  refuse_foreign(db, path, id);
  if (id != schema::kApplicationId) {
    throw InputError(fmt::format("'{}' is {}", path.string(),
                                 found == 0
                                     ? "an empty database: there is nothing to upgrade"
                                     : "not a mapsim results database (application id 0x0)"));
  }
  if (found > target) {
    throw InputError(fmt::format("'{}' has schema version {}, newer than this mapsim's {}",
                                 path.string(), found, target));
  }
  if (found == target) return found;
  db.use_wal();
  db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  auto backup = path;
  backup += ".bak";
  std::error_code error;
  std::filesystem::copy_file(path, backup, std::filesystem::copy_options::overwrite_existing,
                             error);
  if (error) {
    throw InputError(fmt::format("cannot keep a copy of '{}' as '{}': {}", path.string(),
                                 backup.string(), error.message()));
  }
  Transaction transaction(db);
  for (auto v = found; v < target; ++v) {
    const schema::Migration* step = nullptr;
    for (const auto& s : steps) {
      if (s.from == v) step = &s;
    }
    if (step == nullptr) {
      throw InputError(
          fmt::format("'{}': no migration from schema version {} to {}", path.string(), v, v + 1));
    }
    db.execute(step->sql);
  }
  db.execute(fmt::format("PRAGMA user_version = {}", target));
  transaction.commit();
  return found;
}

}  // namespace mapsim::exp
