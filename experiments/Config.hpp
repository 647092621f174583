#pragma once
// Experiment configs: YAML files that name the axes of a sweep. Every section, key and value is
// checked here, and every error names file:line:column and the key (see docs/experiments.md for
// the reference with examples):
//
//   workloads:  [npb:lu:W:64, {generate: npb:cg:S:64, iterations: 2, label: cg},
//                {trace: path/to/archive}, {matrix: file.csv}]      (required)
//   machines:   [torus:4x4x4, {topology: tianhe3:2x2:nodes=16, label: th3,
//                              links: {th3-switch: {bandwidth: 25, latency: 100}}}]  (required)
//   mappers:    [in-order, {name: scotch, params: {runs: [1, 8]}}]   (required)
//   models:     [flow, {name: packet, packet-size: [1024, 4096], store-and-forward: false},
//                static]                                            (default [flow])
//   mpi:        {eager-threshold: [65536], collectives: ompi, overheads: typical}   (default:
//               the simulator's; the collectives' algorithms, mpich or ompi[,OP=ALG...], for the
//               replay and the matrix alike: traces/CollectiveAlgorithm.hpp; default mpich; the
//               per-message costs on the ranks, sim/Overheads.hpp: default none;
//               calibration: none|smpi|FILE, sim/Calibration.hpp, relative to the config: its
//               overheads unless mpi.overheads is given, its flow-level corrections for every
//               model entry that does not give them)
//   sim:        {compute-scale: [0, 1], whole-run: false}           (default: 1, false)
//   matrix:     {collectives: true}   what mappers and static metrics see of a trace: its
//               point-to-point messages and (default) its collectives' messages, expanded by
//               the algorithms the simulator replays them with
//   seeds:      [0, 1]      repeats: 1                              (default [0], 1)
//   zip:        [[workload, machine]]        axes that vary together (equal lengths)
//   exclude:    [{mapper: scotch, machine: haec:4x4x4}]   drop matching combinations
//   where:      "ranks <= 64 AND model = 'flow'"          an SQL condition over the run columns
//   name:       "{workload}/{machine}/{mapper}"           run names (a template of axis values)
//   store:      {links: false}                            also store per-link loads
//   run:        {time-limit: 600}                         seconds per replay (not in the run key)
//   quick:      {workloads: [npb:lu:S:16], mappers: [in-order, greedy]}   the quick variant
//               (`mapsim run --quick`): each key replaces the same top-level section
//
// A list in a mapper's params or a model's options makes one axis value per element (crossed
// within the entry). Relative trace and matrix paths are relative to the config file.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mappers/Parameters.hpp"
#include "sim/NetworkModel.hpp"
#include "sim/Overheads.hpp"
#include "topologies/LinkClass.hpp"
#include "traces/CollectiveAlgorithm.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::exp {

/// Where a value stands in a config file: "sweep.yaml:12:5" (1-based line and column).
struct Origin {
  std::string file;
  int line = 0;
  int column = 0;

  [[nodiscard]] std::string str() const;
};

/// The axes of a sweep, by the names `zip`, `exclude`, `where` and `name` use.
enum class Axis : std::uint8_t {
  Workload,
  Machine,
  Mapper,
  Model,
  EagerThreshold,
  ComputeScale,
  Seed,
  Repeat
};
inline constexpr int kAxisCount = 8;
/// "workload", "machine", "mapper", "model", "eager-threshold", "compute-scale", "seed", "repeat".
std::string_view name(Axis axis);

enum class WorkloadKind : std::uint8_t { Generated, Trace, Matrix };
std::string_view name(WorkloadKind kind);

struct WorkloadValue {
  WorkloadKind kind = WorkloadKind::Generated;
  std::string label;                   ///< its name in run names and results
  std::string spec;                    ///< canonical generator spec, or the path as written
  traces::GeneratorOptions generator;  ///< Generated
  std::filesystem::path path;          ///< Trace, Matrix: resolved against the config's folder
  Origin origin;
};

struct MachineValue {
  /// A link class the config sets: checked against the machine when it is built.
  struct LinkOverride {
    topo::LinkClass link_class = topo::LinkClass::IntraNode;
    std::string path;  ///< "machines[1].links.th3-switch"
    Origin origin;
  };

  std::string label;
  std::string topology;   ///< canonical topology spec
  topo::LinkTable links;  ///< effective bandwidth and latency of every link class
  std::string overrides;  ///< the overridden classes, canonical ("" if none)
  std::vector<LinkOverride> link_overrides;
  Origin origin;
};

struct MapperValue {
  std::string label;  ///< name, with the parameters given: "scotch[runs=8]"
  std::string name;
  map::ParamList given;  ///< as the config gave them (one value each)
  std::string params;    ///< every parameter with defaults filled in: "key=value,..."
  Origin origin;
};

/// `static` is no replay: static metrics only (also what matrix workloads get).
inline constexpr std::string_view kStaticModel = "static";

struct ModelValue {
  std::string label;  ///< name, with the options given: "packet[packet-size=1024]"
  std::string name;   ///< a network model, or kStaticModel
  sim::ModelOptions options;
  Origin origin;
  /// The options the entry gave (its keys but name and label): a calibration fills the others.
  std::vector<std::string> given = {};
};

/// exclude: a combination is dropped if, for every axis named, its value is one of those listed.
struct Exclusion {
  struct Condition {
    Axis axis;
    std::vector<std::string> values;     ///< workload, machine, mapper, model: labels, specs, names
    std::vector<std::int64_t> integers;  ///< eager-threshold, seed, repeat
    std::vector<double> reals;           ///< compute-scale
    std::vector<Origin> origins;         ///< where each value stands, in the list's order
  };
  std::vector<Condition> conditions;
  Origin origin;
};

struct SweepConfig {
  std::string file;  ///< as errors name it
  std::vector<WorkloadValue> workloads;
  std::vector<MachineValue> machines;
  std::vector<MapperValue> mappers;
  std::vector<ModelValue> models;
  std::vector<std::int64_t> eager_thresholds;
  std::vector<double> compute_scales;
  bool whole_run = false;
  bool collectives = true;                          ///< matrix.collectives
  traces::CollectiveOptions collective_algorithms;  ///< mpi.collectives
  sim::Overheads overheads;                         ///< mpi.overheads (or the calibration's)
  std::vector<std::int64_t> seeds;
  int repeats = 1;
  std::vector<std::vector<Axis>> zips;
  Origin zip_origin;
  std::vector<Exclusion> exclusions;
  std::string where;  ///< "" = every combination
  Origin where_origin;
  std::string name_template;  ///< "" = the default (see Sweep.hpp)
  Origin name_origin;
  bool store_links = false;
  double time_limit = 0;   ///< seconds per replay; 0 = none
  bool has_quick = false;  ///< the file has a `quick:` variant
  bool quick = false;      ///< this is the quick variant (its sections replaced the file's)

  /// How many values an axis has.
  [[nodiscard]] std::size_t size(Axis axis) const;
};

/// Parses a config's text. `file` names it in errors; relative paths resolve against `base`.
/// With `quick`, the sections of the config's `quick:` map replace the top-level sections of the
/// same name (an InputError if it has none); without, `quick:` is only checked for unknown keys.
/// Throws InputError "FILE:LINE:COLUMN: KEY: what is wrong" for YAML syntax errors, unknown or
/// repeated keys, wrong types (a map where a list belongs, text where a number belongs), bad
/// values (unknown mapper, model, link class or parameter; invalid topology or generator spec;
/// out-of-range numbers), zip axes of unequal lengths, unknown axes in zip and exclude, a
/// missing trace or matrix file.
SweepConfig parse_config(std::string_view text, std::string_view file,
                         const std::filesystem::path& base, bool quick = false);

/// Reads and parses a config file (its quick variant with `quick`).
SweepConfig load_config(const std::filesystem::path& path, bool quick = false);

/// The bundled default sweep (experiments/configs/demo.yaml, compiled in) and its name.
std::string_view demo_config_text();
inline constexpr std::string_view kDemoConfigName = "demo.yaml (built in)";

}  // namespace mapsim::exp
