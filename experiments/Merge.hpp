#pragma once
// Merging results databases (the shards of a sweep run on several machines) into one.
//
// Each input must be a mapsim database of this schema version (the application id and version
// are checked before anything is written). Per run key of an input:
// - finished (done or failed) and absent from the output: inserted, with its links and mapping;
// - present in both with equal results (status, static metrics, simulation results, mapping;
//   wall times and provenance are not results): counted as identical;
// - done in the input and failed or unfinished in the output: the done run replaces it;
// - different results for the same key: a conflict — the output keeps its run, and the
//   conflict is reported with the columns that differ (a sign of nondeterminism, or of a
//   tampered file). Nothing is dropped silently.
// - running or stale in the input: skipped (it has no results).
// Each input is merged in one transaction; the output ends with PRAGMA integrity_check.

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
  std::string integrity;  ///< "ok" or the problems PRAGMA integrity_check found
};

/// Merges `inputs` into `output` (created if missing). Throws InputError naming the file for an
/// input that is missing, not a mapsim database, of another schema version, or the output
/// itself.
MergeReport merge(const std::filesystem::path& output,
                  std::span<const std::filesystem::path> inputs);

}  // namespace mapsim::exp
