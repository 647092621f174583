#include "experiments/Where.hpp"

#include <fmt/format.h>

#include "experiments/Sqlite.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {

std::vector<bool> where_holds(std::string_view expression, std::span<const schema::Row> rows,
                              std::string_view origin) {
  auto db = sql::Connection::in_memory();
  std::vector<std::string> names;
  std::string columns;
  std::string slots;
  for (const auto& c : schema::config_columns()) {
    names.emplace_back(c.name);
    columns += fmt::format("{} {}, ", c.name, schema::sql_type(c.type));
    slots += "?, ";
  }
  names.emplace_back("name");
  db.execute(
      fmt::format("CREATE TABLE candidates (row INTEGER PRIMARY KEY, {}name TEXT)", columns));
  std::optional<sql::Statement> select;
  try {
    select.emplace(
        db.prepare(fmt::format("SELECT row FROM candidates WHERE ({}) ORDER BY row", expression)));
  } catch (const InputError& e) {
    std::string reason = e.what();
    // "database ':memory:': REASON (in: SQL)" -> REASON
    if (const auto colon = reason.find(": "); colon != std::string::npos)
      reason = reason.substr(colon + 2);
    if (const auto in = reason.rfind(" (in: "); in != std::string::npos) reason.resize(in);
    if (reason.find("no such column") != std::string::npos)
      reason += fmt::format("; columns: {}", fmt::join(names, ", "));
    throw InputError(fmt::format("{}: where '{}': {}", origin, expression, reason));
  }
  {
    sql::Transaction transaction(db);
    auto insert = db.prepare(fmt::format("INSERT INTO candidates VALUES (?, {}?)", slots));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      insert.bind(1, static_cast<std::int64_t>(i));
      for (std::size_t c = 0; c < rows[i].size(); ++c)
        insert.bind(static_cast<int>(c) + 2, rows[i][c]);
      insert.run();
      insert.reset();
    }
    transaction.commit();
  }
  std::vector<bool> holds(rows.size(), false);
  try {
    while (select->step()) holds[static_cast<std::size_t>(select->integer(0))] = true;
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: where '{}': {}", origin, expression, e.what()));
  }
  return holds;
}

}  // namespace mapsim::exp
