#include "experiments/ConfigExclude.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "experiments/ConfigAxes.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Suggest.hpp"

namespace mapsim::exp {
namespace {

void add_name(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

/// Every scalar in `node`, at any depth: the words of an entry that does not parse.
void add_words(std::vector<std::string>& names, const YAML::Node& node) {
  if (node.IsScalar()) {
    add_name(names, node.Scalar());
  } else if (node.IsSequence()) {
    for (const auto& element : node) add_words(names, element);
  } else if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) add_words(names, it->second);
  }
}

/// Each element of a section, parsed by `parse` (which adds what it knows), or else its words.
template <typename Parse>
void add_elements(const YamlReader& reader, const YAML::Node& section,
                  std::vector<std::string>& names, Parse&& parse) {
  if (!section.IsSequence() && !section.IsScalar()) return;
  for (const auto& element : reader.elements(section, "")) {
    try {
      parse(element);
    } catch (const InputError&) {
      add_words(names, element);
    }
  }
}

/// The numbers of a list section that parse (others name nothing).
template <typename Number, typename Read>
void add_numbers(const YamlReader& reader, const YAML::Node& list, std::set<Number>& numbers,
                 Read&& read) {
  if (!list.IsSequence() && !list.IsScalar()) return;
  for (const auto& element : reader.elements(list, "")) {
    try {
      numbers.insert(read(element));
    } catch (const InputError&) {
      // Not a number: it names no value of the axis.
    }
  }
}

template <typename T>
std::string listed(const std::set<T>& values) {
  return fmt::format("{}", fmt::join(values, ", "));
}

}  // namespace

void KnownValues::add(const SweepConfig& config) {
  auto& workloads = names[static_cast<std::size_t>(Axis::Workload)];
  for (const auto& w : config.workloads) {
    add_name(workloads, w.label);
    add_name(workloads, w.spec);
  }
  auto& machines = names[static_cast<std::size_t>(Axis::Machine)];
  for (const auto& m : config.machines) {
    add_name(machines, m.label);
    add_name(machines, m.topology);
  }
  auto& mappers = names[static_cast<std::size_t>(Axis::Mapper)];
  for (const auto& m : config.mappers) {
    add_name(mappers, m.label);
    add_name(mappers, m.name);
  }
  auto& models = names[static_cast<std::size_t>(Axis::Model)];
  for (const auto& m : config.models) {
    add_name(models, m.label);
    add_name(models, m.name);
  }
  eager_thresholds.insert(config.eager_thresholds.begin(), config.eager_thresholds.end());
  compute_scales.insert(config.compute_scales.begin(), config.compute_scales.end());
  seeds.insert(config.seeds.begin(), config.seeds.end());
  for (int r = 0; r < config.repeats; ++r) repeats.insert(r);
}

void KnownValues::add(const YamlReader& reader,
                      std::span<const std::pair<YAML::Node, YAML::Node>> sections,
                      const std::filesystem::path& base) {
  const auto integer = [&](const YAML::Node& v) {
    return reader.integer(v, "", INT64_MIN, INT64_MAX);
  };
  for (const auto& [key, node] : sections) {
    const auto& section = key.Scalar();
    try {
      if (section == "workloads") {
        auto& list = names[static_cast<std::size_t>(Axis::Workload)];
        add_elements(reader, node, list, [&](const YAML::Node& element) {
          const auto w = parse_workload(reader, element, section, base);
          add_name(list, w.label);
          add_name(list, w.spec);
        });
      } else if (section == "machines") {
        auto& list = names[static_cast<std::size_t>(Axis::Machine)];
        add_elements(reader, node, list, [&](const YAML::Node& element) {
          const auto m = parse_machine(reader, element, section, base);
          add_name(list, m.label);
          add_name(list, m.topology);
        });
      } else if (section == "mappers" || section == "models") {
        const bool mappers = section == "mappers";
        auto& list = names[static_cast<std::size_t>(mappers ? Axis::Mapper : Axis::Model)];
        add_elements(reader, node, list, [&](const YAML::Node& element) {
          std::vector<YAML::Node> nodes;
          if (mappers) {
            std::vector<MapperValue> values;
            parse_mapper(reader, element, section, values, nodes);
            for (const auto& v : values) {
              add_name(list, v.label);
              add_name(list, v.name);
            }
          } else {
            std::vector<ModelValue> values;
            parse_model(reader, element, section, values, nodes);
            for (const auto& v : values) {
              add_name(list, v.label);
              add_name(list, v.name);
            }
          }
        });
      } else if (section == "mpi" && node.IsMap() && node["eager-threshold"]) {
        add_numbers(reader, node["eager-threshold"], eager_thresholds, integer);
      } else if (section == "sim" && node.IsMap() && node["compute-scale"]) {
        add_numbers(reader, node["compute-scale"], compute_scales,
                    [&](const YAML::Node& v) { return reader.real(v, "", -1e300, 1e300); });
      } else if (section == "seeds") {
        add_numbers(reader, node, seeds, integer);
      } else if (section == "repeats") {
        for (std::int64_t r = 0; r < reader.integer(node, "", 1, 1000); ++r) repeats.insert(r);
      }
    } catch (const InputError&) {
      // A section of the other variant that does not read: it names nothing here.
    }
  }
}

void KnownValues::add_defaults(std::span<const std::pair<YAML::Node, YAML::Node>> sections) {
  const sim::SimConfig defaults;
  for (const auto& [key, node] : sections) {
    const auto& section = key.Scalar();
    if (section == "models") {
      add_name(names[static_cast<std::size_t>(Axis::Model)], "flow");
    } else if (section == "mpi") {
      eager_thresholds.insert(defaults.eager_threshold);
    } else if (section == "sim") {
      compute_scales.insert(defaults.compute_scale);
    } else if (section == "seeds") {
      seeds.insert(0);
    } else if (section == "repeats") {
      repeats.insert(0);
    }
  }
}

void check_exclusions(const SweepConfig& config, const KnownValues& known) {
  for (std::size_t e = 0; e < config.exclusions.size(); ++e) {
    for (const auto& condition : config.exclusions[e].conditions) {
      const auto axis = name(condition.axis);
      const auto path = fmt::format("exclude[{}].{}", e, axis);
      const auto fail = [&](std::size_t at, const std::string& value, const std::string& valid,
                            const std::string& suggestion) {
        return InputError(fmt::format(
            "{}: {}: '{}' matches no {} of the sweep, so it would exclude nothing ({}s: {}){}",
            condition.origins.at(at).str(), path, value, axis, axis, valid, suggestion));
      };
      switch (condition.axis) {
        case Axis::EagerThreshold:
        case Axis::Seed:
        case Axis::Repeat: {
          const auto& set = condition.axis == Axis::EagerThreshold ? known.eager_thresholds
                            : condition.axis == Axis::Seed         ? known.seeds
                                                                   : known.repeats;
          for (std::size_t i = 0; i < condition.integers.size(); ++i) {
            if (!set.contains(condition.integers[i]))
              throw fail(i, std::to_string(condition.integers[i]), listed(set), "");
          }
          break;
        }
        case Axis::ComputeScale:
          for (std::size_t i = 0; i < condition.reals.size(); ++i) {
            if (!known.compute_scales.contains(condition.reals[i]))
              throw fail(i, fmt::format("{}", condition.reals[i]), listed(known.compute_scales),
                         "");
          }
          break;
        default: {
          const auto& names = known.names[static_cast<std::size_t>(condition.axis)];
          for (std::size_t i = 0; i < condition.values.size(); ++i) {
            const auto& value = condition.values[i];
            if (std::find(names.begin(), names.end(), value) == names.end())
              throw fail(i, value, fmt::format("{}", fmt::join(names, ", ")),
                         suggest_suffix(value, names));
          }
        }
      }
    }
  }
}

}  // namespace mapsim::exp
