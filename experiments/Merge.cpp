#include "experiments/Merge.hpp"

#include <fmt/format.h>

#include "experiments/Schema.hpp"
#include "experiments/Store.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {
namespace {

/// The columns whose values are results: compared between two runs of one key.
std::vector<std::string> result_columns() {
  std::vector<std::string> names;
  for (const auto& c : schema::static_columns()) names.emplace_back(c.name);
  for (const auto& c : schema::simulation_columns()) {
    if (std::string_view(c.name) != "sim_seconds") names.emplace_back(c.name);  // a wall time
  }
  return names;
}

std::vector<std::string> table_columns(sql::Connection& db, std::string_view table) {
  auto info = db.prepare(fmt::format("PRAGMA main.table_info({})", table));
  std::vector<std::string> names;
  while (info.step()) names.push_back(info.text(1));
  return names;
}

}  // namespace

MergeReport merge(const std::filesystem::path& output,
                  std::span<const std::filesystem::path> inputs) {
  std::error_code error;
  for (const auto& input : inputs) {
    if (!std::filesystem::exists(input, error))
      throw InputError(fmt::format("input database '{}' does not exist", input.string()));
    if (std::filesystem::exists(output, error) && std::filesystem::equivalent(input, output, error))
      throw InputError(fmt::format("'{}' is the output itself", input.string()));
    // Checks the application id and the schema version before anything is written.
    (void)Store(input, Store::Access::Read);
  }
  Store store(output, Store::Access::Write);
  auto& db = store.connection();
  MergeReport report;
  const auto results = result_columns();
  const auto run_columns = table_columns(db, "runs");
  std::string run_list;
  for (const auto& c : run_columns) run_list += (run_list.empty() ? "" : ", ") + c;
  std::string differences;
  for (const auto& c : results) differences += fmt::format(", s.{0} IS NOT o.{0}", c);

  for (const auto& input : inputs) {
    db.prepare("ATTACH DATABASE ? AS src").bind(1, sql::plain_path(input)).run();
    try {
      sql::Transaction transaction(db);
      auto rows = db.prepare(
          fmt::format("SELECT s.run_key, s.name, s.status, o.status{} FROM src.runs AS s "
                      "LEFT JOIN main.runs AS o ON o.run_key = s.run_key ORDER BY s.run_key",
                      differences));
      auto insert_run = db.prepare(fmt::format(
          "INSERT INTO main.runs ({0}) SELECT {0} FROM src.runs WHERE run_key = ?", run_list));
      auto insert_links =
          db.prepare("INSERT INTO main.links SELECT * FROM src.links WHERE run_key = ?");
      auto erase = db.prepare("DELETE FROM main.runs WHERE run_key = ?");
      const auto copy = [&](const std::string& key) {
        insert_run.bind(1, key).run();
        insert_run.reset();
        insert_links.bind(1, key).run();
        insert_links.reset();
      };
      std::vector<std::string> inserts;
      std::vector<std::string> replacements;
      while (rows.step()) {
        const auto key = rows.text(0);
        const auto status = rows.text(2);
        if (status != "done" && status != "failed") {
          ++report.unfinished;
          continue;
        }
        if (rows.is_null(3)) {
          inserts.push_back(key);
          continue;
        }
        const auto existing = rows.text(3);
        if (existing != "done" && existing != "failed") {
          replacements.push_back(key);
        } else if (existing == "failed" && status == "done") {
          replacements.push_back(key);
        } else if (existing == "done" && status == "failed") {
          ++report.kept;
        } else if (existing == "failed") {
          ++report.identical;
        } else {
          MergeConflict conflict{input.string(), key, rows.text(1), {}};
          for (std::size_t c = 0; c < results.size(); ++c) {
            if (rows.integer(4 + static_cast<int>(c)) != 0) conflict.columns.push_back(results[c]);
          }
          if (conflict.columns.empty()) {
            ++report.identical;
          } else {
            report.conflicts.push_back(std::move(conflict));
          }
        }
      }
      for (const auto& key : inserts) copy(key);
      for (const auto& key : replacements) {
        erase.bind(1, key).run();
        erase.reset();
        copy(key);
      }
      report.inserted += inserts.size();
      report.replaced += replacements.size();

      // Mappings: new ones are copied; one key with other nodes is a conflict.
      auto mapping_conflicts = db.prepare(
          "SELECT s.mapping_key, (SELECT COUNT(*) FROM src.runs r WHERE r.mapping_key = "
          "s.mapping_key) FROM src.mappings AS s JOIN main.mappings AS o USING (mapping_key) "
          "WHERE s.nodes IS NOT o.nodes ORDER BY s.mapping_key");
      while (mapping_conflicts.step()) {
        report.conflicts.push_back(
            {input.string(),
             mapping_conflicts.text(0),
             fmt::format("the mapping of {} runs", mapping_conflicts.integer(1)),
             {"nodes"}});
      }
      db.execute("INSERT OR IGNORE INTO main.mappings SELECT * FROM src.mappings");
      report.mappings_inserted += static_cast<std::size_t>(db.changes());
      transaction.commit();
    } catch (...) {
      try {
        db.execute("DETACH DATABASE src");
      } catch (...) {
        // Already detached or never attached: nothing to clean up.
      }
      throw;
    }
    db.execute("DETACH DATABASE src");
    ++report.inputs;
  }
  report.integrity = store.integrity_check();
  return report;
}

}  // namespace mapsim::exp
