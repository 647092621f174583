#include "experiments/Where.hpp"

#include <fmt/format.h>

#include "experiments/Sqlite.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {

std::string where_clause(std::string_view expression, std::string_view origin) {
  const auto fail = [&](const std::string& reason) {
    return InputError(fmt::format("{} '{}': {}", origin, expression, reason));
  };
  const auto closing = [&](std::size_t from, char quote, std::string_view what) {
    for (std::size_t at = from + 1; at < expression.size(); ++at) {
      if (expression[at] != quote) continue;
      // A quote written twice inside a string or name stands for itself.
      if (quote != ']' && at + 1 < expression.size() && expression[at + 1] == quote) {
        ++at;
        continue;
      }
      return at;
    }
    throw fail(fmt::format("the {} at position {} is not closed", what, from + 1));
  };
  std::vector<std::size_t> open;  // positions of the parentheses not closed yet
  bool empty = true;
  for (std::size_t at = 0; at < expression.size(); ++at) {
    const char c = expression[at];
    const auto next = at + 1 < expression.size() ? expression[at + 1] : '\0';
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '-' && next == '-') {
      const auto end = expression.find('\n', at);
      if (end == std::string_view::npos) break;
      at = end;
      continue;
    }
    if (c == '/' && next == '*') {
      const auto end = expression.find("*/", at + 2);
      if (end == std::string_view::npos)
        throw fail(fmt::format("the comment at position {} is not closed", at + 1));
      at = end + 1;
      continue;
    }
    empty = false;
    if (c == '\'') {
      at = closing(at, '\'', "string");
    } else if (c == '"' || c == '`') {
      at = closing(at, c, "quoted name");
    } else if (c == '[') {
      at = closing(at, ']', "quoted name");
    } else if (c == '(') {
      open.push_back(at);
    } else if (c == ')') {
      if (open.empty()) {
        throw fail(fmt::format(
            "')' at position {} closes a parenthesis it did not open: a condition is one "
            "expression",
            at + 1));
      }
      open.pop_back();
    } else if (c == ';') {
      throw fail(
          fmt::format("';' at position {}: a condition is one expression, not statements", at + 1));
    }
  }
  if (empty) throw fail("the condition is empty");
  if (!open.empty()) throw fail(fmt::format("'(' at position {} is not closed", open.back() + 1));
  return fmt::format("({}\n)", expression);
}

namespace {

/// What names a condition in errors: "sweep.yaml:9:8: where" for a config's, "--where" for an
/// option's.
std::string condition_name(std::string_view origin) {
  return origin.starts_with("--") ? std::string(origin) : fmt::format("{}: where", origin);
}

}  // namespace

WhereFilter::WhereFilter(std::string_view expression, std::string_view origin)
    : expression_(expression), origin_(condition_name(origin)), db_(sql::Connection::in_memory()) {
  std::vector<std::string> names;
  std::string columns;
  std::string slots;
  for (const auto& c : schema::config_columns()) {
    names.emplace_back(c.name);
    columns += fmt::format("{} {}, ", c.name, schema::sql_type(c.type));
    slots += "?, ";
  }
  names.emplace_back("name");
  db_.execute(
      fmt::format("CREATE TABLE candidates (row INTEGER PRIMARY KEY, {}name TEXT)", columns));
  const auto clause = where_clause(expression, origin_);
  try {
    select_.emplace(
        db_.prepare(fmt::format("SELECT row FROM candidates WHERE {} ORDER BY row", clause)));
  } catch (const InputError& e) {
    std::string reason = e.what();
    // "database ':memory:': REASON (in: SQL)" -> REASON
    if (const auto colon = reason.find(": "); colon != std::string::npos)
      reason = reason.substr(colon + 2);
    if (const auto in = reason.rfind(" (in: "); in != std::string::npos) reason.resize(in);
    if (reason.find("no such column") != std::string::npos)
      reason += fmt::format("; columns: {}", fmt::join(names, ", "));
    throw InputError(fmt::format("{} '{}': {}", origin_, expression, reason));
  }
  insert_.emplace(db_.prepare(fmt::format("INSERT INTO candidates VALUES (?, {}?)", slots)));
}

std::vector<bool> WhereFilter::holds(std::span<const schema::Row> rows) {
  {
    sql::Transaction transaction(db_);
    db_.execute("DELETE FROM candidates");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      insert_->bind(1, static_cast<std::int64_t>(i));
      for (std::size_t c = 0; c < rows[i].size(); ++c)
        insert_->bind(static_cast<int>(c) + 2, rows[i][c]);
      insert_->run();
      insert_->reset();
    }
    transaction.commit();
  }
  std::vector<bool> holds(rows.size(), false);
  try {
    while (select_->step()) holds[static_cast<std::size_t>(select_->integer(0))] = true;
    select_->reset();
  } catch (const InputError& e) {
    select_->reset();
    throw InputError(fmt::format("{} '{}': {}", origin_, expression_, e.what()));
  }
  return holds;
}

std::vector<bool> where_holds(std::string_view expression, std::span<const schema::Row> rows,
                              std::string_view origin) {
  return WhereFilter(expression, origin).holds(rows);
}

}  // namespace mapsim::exp
