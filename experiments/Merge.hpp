#pragma once
// Merging results databases (the shards of a sweep run on several machines) into one.
//
// Each input must be a mapsim database of this schema version whose pages are sound (the
// application id, the version and PRAGMA quick_check are checked before anything is written).
// Per run key of an input:
// - finished (done or failed) and absent from the output: inserted, with its links and mapping;
// - present in both with equal results (status, static metrics, simulation results, mapping;
//   wall times and provenance are not results) and configuration: counted as identical;
// - done in the input and failed or unfinished in the output: the done run replaces it;
// - different results for the same key: a conflict — the output keeps its run, and the
//   conflict is reported with the columns that differ (a sign of nondeterminism, or of a
//   tampered file). Nothing is dropped silently.
// - running or stale in the input: skipped (it has no results).
// - a configuration that does not hash to its run key (an altered row): a conflict, not taken.
// Each input is merged in one transaction; the output ends with PRAGMA integrity_check. A new
// output is built beside its path and linked into place at the end, so a merge that fails or is
// interrupted leaves no output (an existing output keeps the inputs merged before).

#include <atomic>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace mapsim::exp {

struct MergeConflict {
  std::string input;
  std::string key;
  std::string name;
  std::vector<std::string> columns;  ///< that differ
};

struct MergeReport {
  std::size_t inputs = 0;
  std::size_t inserted = 0;
  std::size_t identical = 0;
  std::size_t replaced = 0;    ///< failed or unfinished in the output, done in an input
  std::size_t kept = 0;        ///< done in the output, failed in an input
  std::size_t unfinished = 0;  ///< running or stale in an input: skipped
  std::size_t mappings_inserted = 0;
  std::vector<MergeConflict> conflicts;
  std::string integrity;     ///< "ok" or the problems PRAGMA integrity_check found
  bool interrupted = false;  ///< stopped by `interrupt` (into an existing output)
};

/// Merges `inputs` into `output` (created if missing). Throws InputError naming the file for an
/// input that is missing, not a mapsim database, of another schema version, damaged, or the
/// output itself; naming the input and the output for an error while merging. When `*interrupt`
/// is set, the input being merged is rolled back and the merge stops: into a new output it
/// throws Cancelled (nothing is written), into an existing one it returns with `interrupted`.
MergeReport merge(const std::filesystem::path& output,
                  std::span<const std::filesystem::path> inputs,
                  const std::atomic<bool>* interrupt = nullptr);

}  // namespace mapsim::exp
