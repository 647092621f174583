#include "experiments/Merge.hpp"

#include <cerrno>
#include <optional>
#include <unistd.h>

#include <fmt/format.h>

#include "experiments/Digest.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Store.hpp"
#include "support/Error.hpp"
#include "support/OutputFile.hpp"

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

/// Merges one input, attached as `src`, into `db` in one transaction (see Merge.hpp).
void merge_input(sql::Connection& db, const std::filesystem::path& input, MergeReport& report) {
  const auto results = result_columns();
  std::string run_list;
  for (const auto& c : table_columns(db, "runs")) run_list += (run_list.empty() ? "" : ", ") + c;
  std::string differences;
  for (const auto& c : results) differences += fmt::format(", s.{0} IS NOT o.{0}", c);
  // The fixed columns of the rows query before the differences.
  constexpr int kFixed = 6;

  db.prepare("ATTACH DATABASE ? AS src").bind(1, sql::read_only_uri(input)).run();
  try {
    sql::Transaction transaction(db);
    auto rows = db.prepare(
        fmt::format("SELECT s.run_key, s.name, s.status, o.status, s.config, "
                    "s.config IS NOT o.config{} FROM src.runs AS s "
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
      MergeConflict conflict{input.string(), key, rows.text(1), {}};
      // A run key is the SHA-256 of the run's configuration: a row whose configuration does not
      // hash to its key was altered, and is never taken as the run it claims to be.
      if (sha256(rows.text(4)) != key) {
        conflict.columns.emplace_back("config (not the configuration of its run key)");
        report.conflicts.push_back(std::move(conflict));
        continue;
      }
      if (rows.is_null(3)) {
        inserts.push_back(key);
        continue;
      }
      if (rows.integer(5) != 0) conflict.columns.emplace_back("config");
      const auto existing = rows.text(3);
      if (existing != "done" && existing != "failed") {
        replacements.push_back(key);
        continue;
      }
      if (existing == "failed" && status == "done") {
        replacements.push_back(key);
        continue;
      }
      if (existing == "done" && status == "done") {
        for (std::size_t c = 0; c < results.size(); ++c) {
          if (rows.integer(kFixed + static_cast<int>(c)) != 0)
            conflict.columns.push_back(results[c]);
        }
      }
      if (!conflict.columns.empty()) {
        report.conflicts.push_back(std::move(conflict));
      } else if (existing == "done" && status == "failed") {
        ++report.kept;
      } else {
        ++report.identical;
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
}

/// Checks an input before anything is written: it exists, is not the output, is a mapsim
/// database of this schema version, and its pages are sound (a damaged input is named as such,
/// not reported later as a malformed output).
void check_input(const std::filesystem::path& input, const std::filesystem::path& output) {
  std::error_code error;
  if (!std::filesystem::exists(input, error))
    throw InputError(fmt::format("input database '{}' does not exist", input.string()));
  if (std::filesystem::exists(output, error) && std::filesystem::equivalent(input, output, error))
    throw InputError(fmt::format("'{}' is the output itself", input.string()));
  Store store(input, Store::Access::Read);
  std::string problems;
  try {
    problems = store.quick_check();
  } catch (const InputError& e) {
    problems = e.what();
  }
  if (problems != "ok") {
    throw InputError(fmt::format("input database '{}' is damaged ({}); nothing was merged",
                                 input.string(), problems));
  }
}

/// A new output, built as a temporary beside it: removed (with its -wal, -shm, -journal) unless
/// published, so that a failed or interrupted merge into a new file leaves nothing.
class NewOutput {
 public:
  explicit NewOutput(std::filesystem::path output)
      : output_(std::move(output)), temporary_(temporary_sibling(output_)) {}
  ~NewOutput() {
    if (!published_) remove_database_files(temporary_);
  }
  NewOutput(const NewOutput&) = delete;
  NewOutput& operator=(const NewOutput&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return temporary_; }

  /// Links the (closed) temporary into place, unless the output appeared meanwhile.
  void publish() {
    if (::link(temporary_.c_str(), output_.c_str()) != 0) {
      const int error = errno;
      std::error_code exists_error;
      if (error == EEXIST || std::filesystem::exists(output_, exists_error) ||
          ::rename(temporary_.c_str(), output_.c_str()) != 0) {
        throw InputError(
            fmt::format("cannot create '{}': {}", output_.string(),
                        error == EEXIST ? "it appeared while merging" : system_reason(error)));
      }
      published_ = true;
      return;
    }
    published_ = true;
    remove_database_files(temporary_);
  }

 private:
  std::filesystem::path output_;
  std::filesystem::path temporary_;
  bool published_ = false;
};

}  // namespace

MergeReport merge(const std::filesystem::path& output,
                  std::span<const std::filesystem::path> inputs,
                  const std::atomic<bool>* interrupt) {
  for (const auto& input : inputs) check_input(input, output);
  std::error_code error;
  std::optional<NewOutput> fresh;
  if (!std::filesystem::exists(output, error)) fresh.emplace(output);
  const auto interrupted = [&] { return interrupt != nullptr && interrupt->load(); };
  MergeReport report;
  {
    Store store(fresh ? fresh->path() : output, Store::Access::Write);
    auto& db = store.connection();
    db.set_interrupt(interrupt);
    for (const auto& input : inputs) {
      if (interrupted()) break;
      try {
        merge_input(db, input, report);
      } catch (const InputError& e) {
        if (interrupted()) break;  // rolled back: the inputs before it stay merged
        throw InputError(
            fmt::format("merging '{}' into '{}': {}", input.string(), output.string(), e.what()));
      }
      ++report.inputs;
    }
    report.interrupted = interrupted();
    if (report.interrupted && fresh) throw Cancelled("mapsim merge: interrupted; nothing written");
    db.set_interrupt(nullptr);
    report.integrity = store.integrity_check();
  }  // closed: the WAL is checkpointed into the file
  if (fresh) fresh->publish();
  return report;
}

}  // namespace mapsim::exp
