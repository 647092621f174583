#pragma once
// A sweep: a config's axes expanded into runs, each with its identity.
//
// Expansion. The axes (workload, machine, mapper, model, eager-threshold, compute-scale, seed,
// repeat) are crossed in that order, the last varying fastest; the axes of a zip group advance
// together, at the place of the group's first axis. Then, in this order: combinations matching
// an `exclude` entry are dropped; the effective configuration is formed (a run without replay —
// the static model, or a matrix workload, which has no trace — has no model options, MPI or sim
// settings, and its model is `static`); the `where` condition (an SQL expression over the
// columns of schema::config_columns(), ANDed with the command line's) is applied; runs with
// equal keys are merged (the first keeps its name).
//
// Identity. A run's canonical configuration lists every effective value, defaults filled in:
// the results version, the workload's kind and content digest, the topology, every link
// class's bandwidth and latency the machine uses, the mapper with all its parameters and the
// seed, and for replays the model with its options, the eager threshold, the compute scale,
// whole-run, and the repeat. Labels, names, paths and list positions are not part of it, so
// adding a value to an axis or reordering a list leaves every existing key unchanged.
//   run key      SHA-256 of the canonical configuration
//   mapping key  SHA-256 of results version, workload digest, topology, mapper, params, seed
//                (and what a mapper's result depends on beyond them: the links' energy per bit
//                of an energy objective when not the defaults, a search's replay settings):
//                the runs that share it reuse one mapping
//   context key  SHA-256 of the canonical configuration without mapper, params, seed and
//                repeat: the runs compared with each other (and with in-order)

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/Config.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Workloads.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::exp {

/// Bumped whenever a generator's, mapper's or model's output changes: every run key changes
/// with it, so that results of the old code are never taken for the new code's (they stay in
/// the database under their old keys).
///   1  the first results;
///   2  best's objective=congestion counts each link's time (bytes over its bandwidth), not its
///      bytes: other mappings on machines whose links differ in bandwidth (HAEC Box, Tianhe-3,
///      tapered trees, dragonflies); replay-search's portfolio adds best under
///      congestion-smooth and latency.
///   3  the HAEC Box's wireless links idle at 0 W, not 1 W (docs/models.md, "Energy"): other
///      replayed energies and average powers on the Box; best and replay-search gained
///      parameters (energy-weight, replay-search's objective), which every key of theirs lists.
///   4  the flow model solves flows of one route as one bundle (sim/FlowModel.hpp): the same
///      allocation, rounded differently; replays move by that rounding's consequences (median
///      1e-9, at most 1.6 % on 72 replays; docs/models.md, "flow").
///   5  Open MPI's collectives as Open MPI and SimGrid SMPI run them: the linear all-to-all posts
///      every message at once, the recursive doubling barrier folds the members above the power
///      of two onto those below, the ring allreduce of the `ompi` selector is SMPI's
///      (traces/CollectiveSchedule.hpp): other replays under `collectives: ompi` or an override
///      naming these algorithms; every other result is unchanged.
inline constexpr std::int64_t kResultsVersion = 5;

struct Run {
  std::size_t workload = 0;  ///< indices into the config's axes
  std::size_t machine = 0;
  std::size_t mapper = 0;
  std::size_t model = 0;
  std::int64_t eager_threshold = 0;  ///< 0 for a static run
  /// The eager threshold of a replaying mapper's search (replay-search): the configured one, also
  /// for a static run.
  std::int64_t search_eager_threshold = 0;
  double compute_scale = 0;
  std::int64_t seed = 0;
  int repeat = 0;
  bool replays = true;  ///< false: static metrics only
  std::string name;
  std::string key;  ///< SHA-256 of canonical_config()
  std::string mapping_key;
  std::string context_key;
};

struct Sweep {
  SweepConfig config;
  std::vector<WorkloadInfo> inputs;                             ///< per workload of the config
  std::vector<std::shared_ptr<const topo::Topology>> machines;  ///< per machine of the config
  /// Per machine, what its runs' keys say of it: the spec as written, or for a machine with an
  /// allocation or read from files, its canonical spec and the digests of those files.
  std::vector<std::string> machine_keys;
  std::vector<Run> runs;
  std::size_t combinations = 0;  ///< before exclude, where and merging equal keys
  std::size_t excluded = 0;
  std::size_t filtered = 0;  ///< dropped by where
  std::size_t merged = 0;    ///< equal to an earlier run

  [[nodiscard]] const WorkloadValue& workload(const Run& run) const {
    return config.workloads[run.workload];
  }
  [[nodiscard]] const MachineValue& machine(const Run& run) const {
    return config.machines[run.machine];
  }
  [[nodiscard]] const MapperValue& mapper(const Run& run) const {
    return config.mappers[run.mapper];
  }
  [[nodiscard]] const ModelValue& model(const Run& run) const { return config.models[run.model]; }
  /// The model actually run: kStaticModel for runs without replay.
  [[nodiscard]] std::string_view model_name(const Run& run) const;
};

/// The most combinations expand() makes by default (mapsim run --max-combinations). The runs kept
/// are held in memory (about half a kilobyte each) and every combination is named and tested
/// against `where`: a million takes some seconds and some hundred megabytes.
inline constexpr std::size_t kMaxCombinations = 1'000'000;

/// Inspects the workloads (digests; see Workloads.hpp), builds the machines and expands the
/// config, streaming its combinations (only the runs kept are held). `extra_where` (the command
/// line's --where) is ANDed with the config's condition. Throws InputError for more than
/// `max_combinations` combinations (counted before anything is done; naming the count and the
/// axes), a bad where expression (naming the config position or --where), an exclude value of
/// the wrong type, a name template that gives two runs one name, or a machine that cannot be
/// built.
Sweep expand(SweepConfig config, std::string_view extra_where = {},
             std::size_t max_combinations = kMaxCombinations);

/// The run's canonical effective configuration, "key: value" lines (what its key hashes).
std::string canonical_config(const Sweep& sweep, const Run& run);

/// The run's configuration columns (schema::config_columns() order).
schema::Row config_row(const Sweep& sweep, const Run& run);

/// The subset of runs a shard runs: shard `index` of `count` (1-based) takes the runs whose
/// mapping key, read as a number, is index - 1 modulo count. By mapping key rather than run key
/// so that the runs sharing a mapping stay in one shard and map it once.
bool in_shard(const Run& run, int index, int count);

}  // namespace mapsim::exp
