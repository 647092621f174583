#pragma once
// A thin RAII layer over the SQLite C API: a connection and prepared statements, move-only, with
// every error turned into an exception that names the database file and the SQL that failed.
//
// Every connection is opened with the settings the store relies on (see Store.hpp): WAL journal,
// synchronous=NORMAL, a busy timeout, foreign keys on.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

struct sqlite3;
struct sqlite3_stmt;

namespace mapsim::exp::sql {

class Statement;

/// One value of a row: NULL, INTEGER, REAL or TEXT.
using Value = std::variant<std::monostate, std::int64_t, double, std::string>;

class Connection {
 public:
  enum class Mode { ReadOnly, ReadWrite, Create };

  /// Opens `path` (":memory:" for a private in-memory database). Create makes the file if
  /// missing. Throws InputError naming the file and SQLite's reason.
  Connection(const std::filesystem::path& path, Mode mode, int busy_timeout_ms = 30'000);
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Runs one or more statements without results.
  void execute(std::string_view sql);
  /// Compiles exactly one statement; trailing SQL after it is an error.
  [[nodiscard]] Statement prepare(std::string_view sql);
  /// The value of a single-value query (e.g. a pragma), as an integer.
  [[nodiscard]] std::int64_t query_integer(std::string_view sql);
  [[nodiscard]] std::string query_text(std::string_view sql);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] sqlite3* handle() const { return db_; }
  [[nodiscard]] std::int64_t changes() const;

 private:
  sqlite3* db_ = nullptr;
  std::string name_;
};

/// One transaction, rolled back unless commit() is called. `immediate` takes the write lock at
/// once (BEGIN IMMEDIATE), so that a writer never fails half-way on a lock.
class Transaction {
 public:
  explicit Transaction(Connection& connection, bool immediate = true);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection* connection_;
  bool open_ = true;
};

class Statement {
 public:
  Statement(Connection& connection, sqlite3_stmt* statement, std::string sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  /// Parameters are numbered from 1. nullopt binds NULL.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind_blob(int index, std::span<const std::byte> value);
  Statement& bind_null(int index);
  template <typename T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement& bind(int index, bool value) { return bind(index, std::int64_t{value ? 1 : 0}); }
  Statement& bind(int index, const Value& value);

  /// Advances to the next row: true if there is one, false when done.
  bool step();
  /// Runs a statement without result rows to completion.
  void run();
  /// Resets it (keeping the bindings' slots, clearing their values) for another execution.
  void reset();

  [[nodiscard]] int column_count() const;
  [[nodiscard]] std::string column_name(int column) const;
  [[nodiscard]] bool is_null(int column) const;
  [[nodiscard]] std::int64_t integer(int column) const;
  [[nodiscard]] double real(int column) const;
  [[nodiscard]] std::string text(int column) const;
  [[nodiscard]] std::span<const std::byte> blob(int column) const;
  /// SQLite's storage class of the value: 1 integer, 2 real, 3 text, 4 blob, 5 null.
  [[nodiscard]] int type(int column) const;
  /// The value as a Value (a blob reads as NULL).
  [[nodiscard]] Value value(int column) const;

 private:
  [[noreturn]] void fail(int code) const;

  Connection* connection_;
  sqlite3_stmt* statement_;
  std::string sql_;
};

}  // namespace mapsim::exp::sql
