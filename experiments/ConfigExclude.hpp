#pragma once
// Checking a config's `exclude` entries against the values its axes have: a value that matches
// nothing would exclude nothing, silently, so it is an error at its FILE:LINE:COLUMN with a "did
// you mean". Values of the other variant of the config (the `quick:` map's axes without --quick,
// the file's with it) count as known, so that one `exclude` serves both. An internal header of
// the experiments library (Config.cpp calls it).

#include <cstdint>
#include <filesystem>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "experiments/Config.hpp"
#include "experiments/YamlReader.hpp"

namespace mapsim::exp {

/// The values an exclude condition may name, per axis.
struct KnownValues {
  std::vector<std::vector<std::string>> names = std::vector<std::vector<std::string>>(kAxisCount);
  std::set<std::int64_t> eager_thresholds, seeds, repeats;
  std::set<double> compute_scales;

  /// The labels, specs and names and the numbers of `config`'s axes.
  void add(const SweepConfig& config);
  /// Those of `sections` (top-level config sections: the other variant's), read leniently: an
  /// entry that does not parse counts by the words in it (the variant is not run here, so its
  /// errors are not this run's).
  void add(const YamlReader& reader, std::span<const std::pair<YAML::Node, YAML::Node>> sections,
           const std::filesystem::path& base);
  /// The default values of the axes of `sections` (the other variant has none of its own).
  void add_defaults(std::span<const std::pair<YAML::Node, YAML::Node>> sections);
};

/// Throws InputError "FILE:LINE:COLUMN: exclude[I].AXIS: 'VALUE' matches no AXIS of the sweep
/// (AXIS values: ...); did you mean ...?" for the first condition value that is not known.
void check_exclusions(const SweepConfig& config, const KnownValues& known);

}  // namespace mapsim::exp
