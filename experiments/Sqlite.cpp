#include "experiments/Sqlite.hpp"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>
#include <sqlite3.h>

#include "support/Error.hpp"
#include "support/OutputFile.hpp"

namespace mapsim::exp::sql {
namespace {

namespace fs = std::filesystem;

std::string shorten(std::string_view sql) {
  std::string text(sql.substr(0, 120));
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  return sql.size() > 120 ? text + "..." : text;
}

/// `path` as a "file:" URI (for SQLite's immutable flag): absolute, unreserved bytes kept, every
/// other byte percent-encoded.
std::string file_uri(const fs::path& path) {
  std::string uri = "file:";
  for (const char c : fs::absolute(path).string()) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '/' || c == '.' || c == '_' || c == '-' || c == '~') {
      uri += c;
    } else {
      uri += fmt::format("%{:02X}", byte);
    }
  }
  return uri;
}

/// Whether `path`'s write-ahead log holds anything (a reader that ignored it would miss data).
bool has_wal_content(const fs::path& path) {
  std::error_code error;
  auto wal = path;
  wal += "-wal";
  const auto size = fs::file_size(wal, error);
  return !error && size > 0;
}

}  // namespace

std::string plain_path(const fs::path& path) {
  if (path.empty()) throw InputError("the database path is empty");
  if (path.is_absolute()) return path.string();
  return "./" + path.string();
}

std::string read_only_uri(const fs::path& path) {
  const bool writable = ::access(plain_path(path).c_str(), W_OK) == 0;
  return file_uri(path) + (writable || has_wal_content(path) ? "?mode=ro" : "?mode=ro&immutable=1");
}

Connection::Connection(const fs::path& path, Mode mode, int busy_timeout_ms)
    : name_(path.string()), busy_timeout_ms_(busy_timeout_ms) {
  const auto file = plain_path(path);
  // What the operating system says about the file first, in its words: SQLite would only say
  // "unable to open database file".
  std::error_code error;
  const auto status = fs::status(path, error);
  const bool exists = fs::exists(status);
  if (exists && fs::is_directory(status))
    throw InputError(fmt::format("database '{}' is a directory", name_));
  if (!exists && error && error != std::errc::no_such_file_or_directory)
    throw InputError(fmt::format("cannot open database '{}': {}", name_, error.message()));
  bool writable = true;
  if (exists) {
    if (::access(file.c_str(), R_OK) != 0)
      throw InputError(fmt::format("cannot read database '{}': {}", name_, system_reason(errno)));
    writable = ::access(file.c_str(), W_OK) == 0;
    if (!writable && mode != Mode::ReadOnly)
      throw InputError(fmt::format("cannot write database '{}': {}", name_, system_reason(errno)));
  } else if (mode != Mode::Create) {
    throw InputError(fmt::format("database '{}' does not exist", name_));
  } else {
    const auto folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    if (::access(folder.c_str(), W_OK) != 0)
      throw InputError(fmt::format("cannot create database '{}': {}", name_, system_reason(errno)));
  }

  // URIs are understood (for ATTACH of read_only_uri()); the file's own name never is one.
  int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI |
              (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY);
  if (mode == Mode::Create) flags |= SQLITE_OPEN_CREATE;
  std::string failure;
  int code = open(file, flags, failure);
  if ((code & 0xff) == SQLITE_READONLY || (code & 0xff) == SQLITE_CANTOPEN) {
    // A WAL database on read-only media (or in a folder we may not write) cannot be read the
    // usual way, for want of its -shm file: nothing can write it, so read it as immutable (unless
    // its WAL holds data that an immutable read would miss).
    if (!writable && !has_wal_content(path)) {
      code = open(file_uri(path) + "?immutable=1", flags, failure);
    }
  }
  if (code != SQLITE_OK) throw InputError(fmt::format("database '{}': {}", name_, failure));
  if (mode == Mode::ReadOnly) execute("PRAGMA query_only = ON");
}

Connection Connection::in_memory() {
  Connection connection;
  connection.name_ = ":memory:";
  connection.busy_timeout_ms_ = 30'000;
  std::string failure;
  if (connection.open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      failure) != SQLITE_OK)
    throw InputError(fmt::format("an in-memory database: {}", failure));
  return connection;
}

int Connection::open(const std::string& sqlite_name, int flags, std::string& failure) {
  if (db_ != nullptr) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
  }
  int code = sqlite3_open_v2(sqlite_name.c_str(), &db_, flags, nullptr);
  if (code == SQLITE_OK) {
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, busy_timeout_ms_);
    // The first read: a file that is not a database (or cannot be read) fails here. Nothing is
    // written: the pragmas only set this connection's options.
    for (const char* sql :
         {"PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON", "PRAGMA application_id"}) {
      code = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
      if (code != SQLITE_OK) {
        // What the first read found says what the file is; the pragma it was is noise.
        const auto what = error_message(code);
        if ((code & 0xff) == SQLITE_NOTADB) {
          failure = fmt::format("it is not an SQLite database ({})", what);
        } else if ((code & 0xff) == SQLITE_CORRUPT) {
          failure = fmt::format(
              "it is damaged ({}): copy what can be read with sqlite3's "
              ".recover, or run its sweep again",
              what);
        } else {
          failure = what;
        }
        break;
      }
    }
  } else {
    failure = db_ != nullptr ? error_message(code) : sqlite3_errstr(code);
  }
  if (code != SQLITE_OK) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
  }
  return code;
}

void Connection::use_wal() {
  // Changing the journal mode does not wait on the busy handler: retry while another connection
  // holds the lock (e.g. two runners opening one database), up to the timeout.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms_);
  for (;;) {
    const int status = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (status == SQLITE_OK) return;
    if ((status & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
      execute("PRAGMA journal_mode=WAL");  // throws with SQLite's message
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void Connection::set_interrupt(const std::atomic<bool>* flag) {
  if (flag == nullptr) {
    sqlite3_progress_handler(db_, 0, nullptr, nullptr);
    return;
  }
  sqlite3_progress_handler(
      db_, 1000,
      [](void* data) -> int { return static_cast<const std::atomic<bool>*>(data)->load() ? 1 : 0; },
      const_cast<std::atomic<bool>*>(flag));  // NOLINT: SQLite's callback data is not const
}

std::string Connection::error_message(int code) const {
  std::string text = sqlite3_errmsg(db_);
  switch (code & 0xff) {
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM: {
      // SQLite keeps the OS error of some failures only (none for a failed write): where it has
      // none, what may be stopping writes in the database's folder.
      const int os = sqlite3_system_errno(db_);
      if (os != 0) text += ": " + system_reason(os);
      if ((code & 0xff) == SQLITE_IOERR || (code & 0xff) == SQLITE_FULL) {
        const auto cause = write_failure_cause(fs::path(name_).parent_path());
        if (!cause.empty()) text += ": " + cause;
      }
      break;
    }
    default:
      break;
  }
  return text;
}

Connection::~Connection() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Connection::Connection(Connection&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      name_(std::move(other.name_)),
      busy_timeout_ms_(other.busy_timeout_ms_) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    name_ = std::move(other.name_);
    busy_timeout_ms_ = other.busy_timeout_ms_;
  }
  return *this;
}

void Connection::execute(std::string_view sql) {
  const std::string text(sql);
  const int code = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) {
    throw InputError(
        fmt::format("database '{}': {} (in: {})", name_, error_message(code), shorten(sql)));
  }
}

Statement Connection::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  const char* tail = nullptr;
  const int code =
      sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement, &tail);
  if (code != SQLITE_OK) {
    throw InputError(
        fmt::format("database '{}': {} (in: {})", name_, error_message(code), shorten(sql)));
  }
  Statement result(*this, statement, std::string(sql));
  if (statement == nullptr) throw InputError(fmt::format("database '{}': empty statement", name_));
  for (const char* c = tail; c != nullptr && c < sql.data() + sql.size(); ++c) {
    if (*c != ' ' && *c != '\n' && *c != '\t' && *c != ';' && *c != '\r') {
      throw InputError(
          fmt::format("database '{}': more than one statement in: {}", name_, shorten(sql)));
    }
  }
  return result;
}

std::int64_t Connection::query_integer(std::string_view sql) {
  auto statement = prepare(sql);
  if (!statement.step()) return 0;
  return statement.integer(0);
}

std::string Connection::query_text(std::string_view sql) {
  auto statement = prepare(sql);
  if (!statement.step()) return {};
  return statement.text(0);
}

std::int64_t Connection::changes() const {
  return sqlite3_changes(db_);
}

Transaction::Transaction(Connection& connection, bool immediate) : connection_(&connection) {
  connection_->execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
  if (open_) {
    try {
      connection_->execute("ROLLBACK");
    } catch (...) {
      // The transaction may already have been rolled back by SQLite after an error.
    }
  }
}

void Transaction::commit() {
  connection_->execute("COMMIT");
  open_ = false;
}

Statement::Statement(Connection& connection, sqlite3_stmt* statement, std::string sql)
    : connection_(&connection), statement_(statement), sql_(std::move(sql)) {}

Statement::~Statement() {
  if (statement_ != nullptr) sqlite3_finalize(statement_);
}

Statement::Statement(Statement&& other) noexcept
    : connection_(other.connection_),
      statement_(std::exchange(other.statement_, nullptr)),
      sql_(std::move(other.sql_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (statement_ != nullptr) sqlite3_finalize(statement_);
    connection_ = other.connection_;
    statement_ = std::exchange(other.statement_, nullptr);
    sql_ = std::move(other.sql_);
  }
  return *this;
}

void Statement::fail(int code) const {
  throw InputError(fmt::format("database '{}': {} (in: {})", connection_->name(),
                               connection_->error_message(code), shorten(sql_)));
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (const int code = sqlite3_bind_int64(statement_, index, value); code != SQLITE_OK) fail(code);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (const int code = sqlite3_bind_double(statement_, index, value); code != SQLITE_OK) fail(code);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  if (const int code = sqlite3_bind_text64(statement_, index, value.data(), value.size(),
                                           SQLITE_TRANSIENT, SQLITE_UTF8);
      code != SQLITE_OK)
    fail(code);
  return *this;
}

Statement& Statement::bind_blob(int index, std::span<const std::byte> value) {
  if (const int code =
          sqlite3_bind_blob64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT);
      code != SQLITE_OK)
    fail(code);
  return *this;
}

Statement& Statement::bind(int index, const Value& value) {
  return std::visit(
      [&](const auto& v) -> Statement& {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return bind_null(index);
        } else {
          return bind(index, v);
        }
      },
      value);
}

Value Statement::value(int column) const {
  switch (sqlite3_column_type(statement_, column)) {
    case SQLITE_INTEGER:
      return integer(column);
    case SQLITE_FLOAT:
      return real(column);
    case SQLITE_TEXT:
      return text(column);
    default:
      return std::monostate{};
  }
}

Statement& Statement::bind_null(int index) {
  if (const int code = sqlite3_bind_null(statement_, index); code != SQLITE_OK) fail(code);
  return *this;
}

bool Statement::step() {
  const int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  fail(code);
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int Statement::column_count() const {
  return sqlite3_column_count(statement_);
}

std::string Statement::column_name(int column) const {
  return sqlite3_column_name(statement_, column);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int Statement::type(int column) const {
  return sqlite3_column_type(statement_, column);
}

std::int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(statement_, column);
}

std::string Statement::text(int column) const {
  const auto* text = sqlite3_column_text(statement_, column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}

std::span<const std::byte> Statement::blob(int column) const {
  const void* data = sqlite3_column_blob(statement_, column);
  const auto size = static_cast<std::size_t>(sqlite3_column_bytes(statement_, column));
  if (data == nullptr) return {};
  return {static_cast<const std::byte*>(data), size};
}

}  // namespace mapsim::exp::sql
