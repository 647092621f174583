#pragma once
// Parsing the axis entries of experiment configs: workloads, machines, mappers and models, in
// their short (one value) and long (a map) forms. An internal header of the experiments library
// (see Config.hpp for the format; Config.cpp reads the sections and calls these).

#include <filesystem>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "experiments/Config.hpp"
#include "experiments/YamlReader.hpp"

namespace mapsim::exp {

/// One workload entry; relative trace and matrix paths resolve against `base`.
WorkloadValue parse_workload(const YamlReader& reader, const YAML::Node& node,
                             const std::string& path, const std::filesystem::path& base);

/// One machine entry: a topology spec, with a label and link overrides in the long form; the
/// files a spec names (a Slurm topology file, an allocation file, a hosts file) resolve against
/// `base` when relative.
MachineValue parse_machine(const YamlReader& reader, const YAML::Node& node,
                           const std::string& path, const std::filesystem::path& base);

/// One mapper entry: one value per combination of its parameter lists, appended to `out`
/// (`nodes` gets the entry's node once per value).
void parse_mapper(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                  std::vector<MapperValue>& out, std::vector<YAML::Node>& nodes);

/// One model entry: one value per combination of its option lists.
void parse_model(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                 std::vector<ModelValue>& out, std::vector<YAML::Node>& nodes);

}  // namespace mapsim::exp
