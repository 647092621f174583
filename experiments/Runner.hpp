#pragma once
// Runs a sweep into the results database.
//
// - Runs already done are skipped; so are failed ones unless rerun_failed, and runs that a live
//   runner elsewhere holds. Runs left `running` by a dead runner (stale) are run again.
// - Runs that share a mapping key form a group: the group's runs are claimed together, its
//   workload is loaded (generated or read once per process, shared by every group that needs it
//   and freed after its last one), its mapping computed once — or taken from the database if an
//   earlier sweep stored it — and scored statically once per link table; then each run replays
//   the trace under it. Groups start longest expected first (an estimate from the workload's
//   size, the mapper and the model); a started group's replays go before new groups.
// - `jobs` workers run groups and replays in parallel in one oneTBB arena; mappers' own
//   parallelism shares it. Results do not depend on the number of jobs.
// - One writer thread stores each finished run in one transaction (StoreWriter). A run that
//   fails — unreadable workload, mapper error, deadlocked replay, time limit — is stored as
//   failed with its message; the sweep goes on.
// - When `interrupt` is set (Ctrl-C), no new run starts, running replays stop, and every run
//   not finished is released (its row deleted): the database holds exactly the finished runs,
//   and running the sweep again completes it.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "experiments/Store.hpp"
#include "experiments/Sweep.hpp"

namespace mapsim::exp {

struct RunnerOptions {
  std::filesystem::path database = "results.db";
  int jobs = 0;  ///< runs in parallel; 0 = one per core
  bool rerun_failed = false;
  int shard_index = 1;  ///< 1-based; see in_shard()
  int shard_count = 1;
  std::optional<double> time_limit;  ///< seconds per replay; overrides the config's
  std::optional<bool> store_links;   ///< overrides the config's store.links
  std::string command;               ///< stored as provenance
  const std::atomic<bool>* interrupt = nullptr;
};

struct RunnerReport {
  std::size_t runs = 0;  ///< of the sweep in this shard
  std::size_t already_done = 0;
  std::size_t already_failed = 0;     ///< skipped (not rerun_failed)
  std::size_t running_elsewhere = 0;  ///< held by a live runner
  std::size_t stale = 0;              ///< left by a dead runner, run again
  std::size_t to_run = 0;
  std::size_t done = 0;
  std::size_t failed = 0;
  std::size_t discarded = 0;  ///< released after an interrupt
  std::size_t taken = 0;      ///< claimed or finished by another runner meanwhile
  std::size_t mapper_invocations = 0;
  std::size_t mappings_reused = 0;  ///< taken from the database
  std::size_t workloads_loaded = 0;
  std::uint64_t commits = 0;
  double commit_seconds = 0;  ///< the writer's time in commits
  double seconds = 0;
  bool interrupted = false;
};

/// Runs the runs of `sweep` in `options`' shard that still need running. Throws InputError if
/// the database cannot be opened or written (runs stored before stay stored).
RunnerReport run_sweep(const Sweep& sweep, const RunnerOptions& options);

/// The state of each run of `sweep` (indexed like sweep.runs) in the database at `path`; every
/// run is new if the file does not exist. Reads only.
std::vector<StoredState> run_states(const Sweep& sweep, const std::filesystem::path& path);

/// The run's identity as the database stores it.
RunIdentity identity(const Sweep& sweep, const Run& run);

}  // namespace mapsim::exp
