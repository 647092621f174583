#include "experiments/Sqlite.hpp"

#include <chrono>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <sqlite3.h>

#include "support/Error.hpp"

namespace mapsim::exp::sql {
namespace {

std::string shorten(std::string_view sql) {
  std::string text(sql.substr(0, 120));
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  return sql.size() > 120 ? text + "..." : text;
}

}  // namespace

Connection::Connection(const std::filesystem::path& path, Mode mode, int busy_timeout_ms)
    : name_(path.string()) {
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case Mode::ReadOnly:
      flags |= SQLITE_OPEN_READONLY;
      break;
    case Mode::ReadWrite:
      flags |= SQLITE_OPEN_READWRITE;
      break;
    case Mode::Create:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
  }
  if (mode != Mode::Create && name_ != ":memory:" && !std::filesystem::exists(path))
    throw InputError(fmt::format("database '{}' does not exist", name_));
  const int code = sqlite3_open_v2(name_.c_str(), &db_, flags, nullptr);
  if (code != SQLITE_OK) {
    const std::string reason = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(fmt::format("cannot open database '{}': {}", name_, reason));
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, busy_timeout_ms);
  if (name_ != ":memory:") {
    // A file that is not a database fails here, on the first read.
    try {
      if (mode != Mode::ReadOnly) {
        // Changing the journal mode does not wait on the busy handler: retry while another
        // connection holds the lock (e.g. two runners creating one database), up to the timeout.
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
        for (;;) {
          const int status =
              sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
          if (status == SQLITE_OK) break;
          if ((status & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
            execute("PRAGMA journal_mode=WAL");  // throws with SQLite's message
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
      execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
      (void)query_integer("PRAGMA application_id");
    } catch (...) {
      sqlite3_close(db_);
      db_ = nullptr;
      throw;
    }
  }
}

Connection::~Connection() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Connection::Connection(Connection&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), name_(std::move(other.name_)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    name_ = std::move(other.name_);
  }
  return *this;
}

void Connection::execute(std::string_view sql) {
  char* message = nullptr;
  const std::string text(sql);
  const int code = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
  if (code != SQLITE_OK) {
    const std::string reason = message != nullptr ? message : sqlite3_errstr(code);
    sqlite3_free(message);
    throw InputError(fmt::format("database '{}': {} (in: {})", name_, reason, shorten(sql)));
  }
}

Statement Connection::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  const char* tail = nullptr;
  const int code =
      sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement, &tail);
  if (code != SQLITE_OK) {
    throw InputError(
        fmt::format("database '{}': {} (in: {})", name_, sqlite3_errmsg(db_), shorten(sql)));
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
  (void)code;
  throw InputError(fmt::format("database '{}': {} (in: {})", connection_->name(),
                               sqlite3_errmsg(connection_->handle()), shorten(sql_)));
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
