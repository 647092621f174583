#pragma once
// A thin RAII layer over the SQLite C API: a connection and prepared statements, move-only, with
// every error turned into an exception that names the database file and the SQL that failed (and
// the operating system's reason when a file could not be read or written: "no space left on
// device", "permission denied").
//
// Every connection is opened with the settings the store relies on (see Store.hpp):
// synchronous=NORMAL, a busy timeout, foreign keys on. Opening writes nothing: the store switches
// a database to WAL (use_wal()) only once it knows the file is its own. Paths are plain file
// paths, never URIs: "file:x.db" and ":memory:" name files of those names.

#include <atomic>
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

/// The name to give SQLite for the file at `path`: absolute, or relative with "./" in front, so
/// that SQLite never reads it as a URI ("file:x.db") or as ":memory:". Throws InputError for an
/// empty path.
std::string plain_path(const std::filesystem::path& path);

/// The name to ATTACH the database at `path` by, read-only: a "file:" URI with mode=ro, and
/// immutable=1 where this process may not write it and it has no WAL to read (read-only media).
std::string read_only_uri(const std::filesystem::path& path);

class Connection {
 public:
  enum class Mode {
    /// Reads only (PRAGMA query_only). A file this process may write is opened read-write all the
    /// same, so that closing the last connection tidies the WAL away; one on read-only media or
    /// without write permission is opened read-only, and if it has no WAL to read and its
    /// directory takes no -shm file, as immutable.
    ReadOnly,
    ReadWrite,
    Create,  ///< ReadWrite, making the file if missing
  };

  /// Opens `path`. Throws InputError naming the file if it is missing (unless Create), a
  /// directory, unreadable, unwritable (ReadWrite, Create), not a database, or SQLite cannot open
  /// it, with the reason.
  Connection(const std::filesystem::path& path, Mode mode, int busy_timeout_ms = 30'000);
  /// A private in-memory database.
  [[nodiscard]] static Connection in_memory();
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Switches the database to WAL journal mode (waiting while another connection holds the lock,
  /// up to the busy timeout): the first write to a file.
  void use_wal();

  /// While `*flag` is set, statements stop within a few thousand steps with SQLite's
  /// "interrupted" (nullptr: never). For Ctrl-C during long statements.
  void set_interrupt(const std::atomic<bool>* flag);

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
  /// SQLite's message for the last error, with the operating system's reason for a file error.
  [[nodiscard]] std::string error_message(int code) const;

 private:
  Connection() = default;
  /// Opens `sqlite_name` and reads its header; SQLITE_OK, or the failure's code with its message
  /// in `failure` (and no connection).
  int open(const std::string& sqlite_name, int flags, std::string& failure);

  sqlite3* db_ = nullptr;
  std::string name_;
  int busy_timeout_ms_ = 0;
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
