#pragma once
// `where` conditions: SQL boolean expressions over a run's columns, e.g.
//   ranks <= 64 AND mapper IN ('scotch', 'best') AND NOT (model = 'packet' AND seed > 0)
// One language everywhere: a config's `where`, `mapsim run --where` (over the configuration
// columns, before anything runs) and `mapsim results --where` (over the results view, where the
// metrics and the status are columns too). SQLite evaluates them.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/Schema.hpp"
#include "experiments/Sqlite.hpp"

namespace mapsim::exp {

/// `expression` as one parenthesised SQL expression to put into a statement: "(EXPRESSION\n)"
/// (the line break ends a trailing `-- comment`). Throws InputError "WHAT 'EXPRESSION': REASON"
/// (WHAT: "--where", "sweep.yaml:9:8: where") unless it is exactly one complete expression: its
/// parentheses balance (outside strings, quoted names and comments) and never close more than they
/// opened, it has no `;`, every string, quoted name and comment is closed, and it is not empty. So
/// nothing in it can end the expression early and add to the statement around it (`1) GROUP BY
/// mapper --`).
std::string where_clause(std::string_view expression, std::string_view what);

/// A where condition over rows of schema::config_columns() plus the run name last, evaluated
/// in a private in-memory database: checked and compiled once, then applied to batch after
/// batch of rows (a sweep's combinations stream through it).
class WhereFilter {
 public:
  /// Throws InputError "ORIGIN: where 'EXPRESSION': REASON" ("--where 'EXPRESSION': REASON" for
  /// an ORIGIN that is an option) (with the valid columns for an unknown one) if the expression
  /// is not one valid condition over those columns.
  WhereFilter(std::string_view expression, std::string_view origin);

  /// Which of `rows` satisfy the condition.
  std::vector<bool> holds(std::span<const schema::Row> rows);

 private:
  std::string expression_;
  std::string origin_;
  sql::Connection db_;
  std::optional<sql::Statement> insert_;
  std::optional<sql::Statement> select_;
};

/// Which of `rows` satisfy `expression` (WhereFilter for one batch).
std::vector<bool> where_holds(std::string_view expression, std::span<const schema::Row> rows,
                              std::string_view origin);

}  // namespace mapsim::exp
