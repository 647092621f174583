#include "experiments/ConfigAxes.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "mappers/Mapper.hpp"
#include "sim/NetworkModel.hpp"
#include "support/Error.hpp"
#include "support/Suggest.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::exp {
namespace {

/// The cross product of per-key value lists, in key order, the last key varying fastest.
std::vector<map::ParamList> cross(
    const std::vector<std::pair<std::string, std::vector<std::string>>>& lists) {
  std::vector<map::ParamList> result{{}};
  for (const auto& [key, values] : lists) {
    std::vector<map::ParamList> next;
    for (const auto& prefix : result) {
      for (const auto& v : values) {
        auto list = prefix;
        list.emplace_back(key, v);
        next.push_back(std::move(list));
      }
    }
    result = std::move(next);
  }
  return result;
}

std::string with_given(const std::string& name, const map::ParamList& given) {
  if (given.empty()) return name;
  std::vector<std::string> parts;
  for (const auto& [key, value] : given) parts.push_back(key + "=" + value);
  return fmt::format("{}[{}]", name, fmt::join(parts, ","));
}

/// A mapper or model entry: a name alone, or a map with `name` (required), `label` and the
/// entry's own keys, which go to `other(key, value, path)`.
struct NamedEntry {
  std::string name;
  YAML::Node name_node;
  std::optional<std::string> label;
};

template <typename Other>
NamedEntry parse_named(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                       std::span<const std::string_view> keys, std::string_view what,
                       Other&& other) {
  NamedEntry entry;
  entry.name_node.reset(node);
  if (node.IsScalar()) {
    entry.name = node.Scalar();
    return entry;
  }
  bool has_name = false;
  for (const auto& [key, item] : reader.entries(node, path, keys)) {
    const auto item_path = path + "." + key.Scalar();
    if (key.Scalar() == "name") {
      entry.name = reader.scalar(item, item_path);
      entry.name_node.reset(item);  // rebinds the handle (operator= would overwrite the tree)
      has_name = true;
    } else if (key.Scalar() == "label") {
      entry.label = reader.label(item, item_path);
    } else {
      other(key, item, item_path);
    }
  }
  if (!has_name) throw reader.error(node, path, fmt::format("a {0} needs name: {0}", what));
  return entry;
}

}  // namespace

// ---- workloads ----------------------------------------------------------------------------------

WorkloadValue parse_workload(const YamlReader& reader, const YAML::Node& node,
                             const std::string& path, const std::filesystem::path& base) {
  WorkloadValue value;
  value.origin = reader.origin(node);
  if (node.IsScalar()) {
    const auto& text = node.Scalar();
    if (!traces::is_generator_spec(text)) {
      throw reader.error(node, path,
                         fmt::format("'{}' is not a generator spec (npb:KERNEL:CLASS:RANKS, "
                                     "sweep3d:..., stencil2d:..., stencil3d:...); name files as "
                                     "{{trace: PATH}} or {{matrix: FILE.csv}}",
                                     text));
    }
    try {
      value.generator = traces::parse_generator_spec(text);
    } catch (const InputError& e) {
      throw reader.error(node, path, e.what());
    }
    value.spec = traces::format_generator_spec(value.generator);
    value.label = value.spec;
    return value;
  }
  static constexpr std::array<std::string_view, 6> kKeys{"generate", "trace",      "matrix",
                                                         "label",    "iterations", "message-bytes"};
  const auto entries = reader.entries(node, path, kKeys);
  const YAML::Node* source = nullptr;
  std::string source_key;
  std::optional<std::string> label;
  std::optional<std::pair<YAML::Node, std::int64_t>> iterations;
  std::optional<std::pair<YAML::Node, std::int64_t>> message_bytes;
  for (const auto& [key, item] : entries) {
    const auto& name = key.Scalar();
    const auto item_path = path + "." + name;
    if (name == "generate" || name == "trace" || name == "matrix") {
      if (source != nullptr) {
        throw reader.error(key, item_path,
                           fmt::format("a workload is one of generate, trace or matrix; '{}' is "
                                       "already given",
                                       source_key));
      }
      source = &item;
      source_key = name;
    } else if (name == "label") {
      label = reader.label(item, item_path);
    } else if (name == "iterations") {
      iterations.emplace(item, reader.integer(item, item_path, 1, 1'000'000));
    } else {
      message_bytes.emplace(item, reader.integer(item, item_path, 0, std::int64_t{1} << 40));
    }
  }
  if (source == nullptr) {
    throw reader.error(node, path,
                       "a workload needs one of generate: SPEC, trace: PATH or "
                       "matrix: FILE");
  }
  const auto source_path = path + "." + source_key;
  const auto text = reader.scalar(*source, source_path);
  if (source_key == "generate") {
    value.kind = WorkloadKind::Generated;
    try {
      value.generator = traces::parse_generator_spec(text);
      for (const auto& [option, given, what] :
           {std::tuple{&value.generator.iterations, iterations, "iterations"},
            std::tuple{&value.generator.message_bytes, message_bytes, "message-bytes"}}) {
        if (!given) continue;
        if (*option) {
          throw reader.error(given->first, path + "." + what,
                             fmt::format("{} is already given in the spec '{}'", what, text));
        }
        *option = given->second;
      }
      value.spec = traces::format_generator_spec(value.generator);
      (void)traces::parse_generator_spec(value.spec);  // the overrides' validity for the kernel
    } catch (const InputError& e) {
      if (std::string_view(e.what()).starts_with(reader.file())) throw;
      throw reader.error(*source, source_path, e.what());
    }
  } else {
    if (iterations || message_bytes) {
      const auto& node_at = iterations ? iterations->first : message_bytes->first;
      throw reader.error(node_at, path,
                         fmt::format("iterations and message-bytes apply to generated workloads, "
                                     "not to a {}",
                                     source_key));
    }
    if (text.empty()) throw reader.error(*source, source_path, "the path is empty");
    value.kind = source_key == "trace" ? WorkloadKind::Trace : WorkloadKind::Matrix;
    value.spec = text;
    value.path =
        std::filesystem::path(text).is_absolute() ? std::filesystem::path(text) : base / text;
    std::error_code error;
    if (!std::filesystem::exists(value.path, error)) {
      throw reader.error(*source, source_path,
                         fmt::format("{} '{}' does not exist", source_key, value.path.string()));
    }
    // What the file system says, here at the key, rather than when the sweep reads it.
    const bool directory = std::filesystem::is_directory(value.path, error);
    if (value.kind == WorkloadKind::Matrix && directory) {
      throw reader.error(
          *source, source_path,
          fmt::format("matrix '{}' is a directory, not a CSV file", value.path.string()));
    }
    if (value.kind == WorkloadKind::Trace && !directory && value.path.extension() != ".otf2") {
      throw reader.error(*source, source_path,
                         fmt::format("trace '{}' is neither an OTF2 archive's directory nor its "
                                     "anchor file (*.otf2); a CSV matrix is {{matrix: FILE}}",
                                     value.path.string()));
    }
    if (::access(value.path.c_str(), directory ? R_OK | X_OK : R_OK) != 0) {
      throw reader.error(*source, source_path,
                         fmt::format("cannot read {} '{}': {}", source_key, value.path.string(),
                                     system_reason(errno)));
    }
  }
  if (label) {
    value.label = *label;
  } else if (value.kind == WorkloadKind::Generated) {
    value.label = value.spec;
  } else {
    auto p = value.path.lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    value.label = value.kind == WorkloadKind::Trace && p.extension() == ".otf2"
                      ? p.parent_path().filename().string()
                      : p.filename().string();
  }
  return value;
}

// ---- machines -----------------------------------------------------------------------------------

MachineValue parse_machine(const YamlReader& reader, const YAML::Node& node,
                           const std::string& path, const std::filesystem::path& base) {
  MachineValue value;
  value.origin = reader.origin(node);
  YAML::Node spec_node = node;
  std::optional<std::string> label;
  std::vector<std::string> overrides;
  if (!node.IsScalar()) {
    static constexpr std::array<std::string_view, 3> kKeys{"topology", "label", "links"};
    bool has_topology = false;
    for (const auto& [key, item] : reader.entries(node, path, kKeys)) {
      const auto& name = key.Scalar();
      const auto item_path = path + "." + name;
      if (name == "topology") {
        spec_node.reset(item);  // rebinds the handle (operator= would overwrite the tree)
        has_topology = true;
      } else if (name == "label") {
        label = reader.label(item, item_path);
      } else {
        static constexpr std::array<std::string_view, 5> kLinkKeys{
            "bandwidth", "latency", "pj-per-bit", "idle-w", "busy-w"};
        std::vector<std::string_view> classes;
        for (const auto& info : topo::link_classes()) classes.push_back(info.name);
        for (const auto& [class_key, params] : reader.entries(item, item_path, classes)) {
          const auto class_path = item_path + "." + class_key.Scalar();
          const auto link_class = topo::link_class_from_name(class_key.Scalar());
          value.link_overrides.push_back({link_class, class_path, reader.origin(class_key)});
          auto link = value.links[link_class];
          auto energy = value.links.energy(link_class);
          std::vector<std::string> energy_keys;  // the energy keys given, for messages
          for (const auto& [param_key, param] : reader.entries(params, class_path, kLinkKeys)) {
            const auto param_path = class_path + "." + param_key.Scalar();
            const auto& param_name = param_key.Scalar();
            if (param_name != "bandwidth" && param_name != "latency")
              energy_keys.push_back(param_name);
            if (param_name == "bandwidth") {
              link.bandwidth = reader.real(param, param_path, 1e-6, 1e6) * 1e9;  // GB/s
            } else if (param_name == "latency") {
              link.latency = reader.real(param, param_path, 0, 1e9) * 1e-9;  // ns
            } else if (param_name == "pj-per-bit") {
              energy.pj_per_bit = reader.real(param, param_path, 0, topo::kMaxEnergyParameter);
            } else if (param_name == "idle-w") {
              energy.idle_watts = reader.real(param, param_path, 0, topo::kMaxEnergyParameter);
            } else {
              energy.busy_watts = reader.real(param, param_path, 0, topo::kMaxEnergyParameter);
            }
          }
          value.links = value.links.with(link_class, link);
          try {
            value.links = value.links.with_energy(link_class, energy);
          } catch (const InputError& e) {
            // Busy below idle (the values are in range): say which power is the class's
            // default (not given here).
            std::vector<std::string_view> defaults;
            for (const auto power : {"idle-w", "busy-w"}) {
              if (std::find(energy_keys.begin(), energy_keys.end(), power) == energy_keys.end())
                defaults.emplace_back(power);
            }
            throw reader.error(
                params, class_path,
                defaults.empty()
                    ? std::string(e.what())
                    : fmt::format("{} ({} not given: the class's default{})", e.what(),
                                  fmt::join(defaults, ", "), defaults.size() > 1 ? "s" : ""));
          }
        }
      }
    }
    if (!has_topology) throw reader.error(node, path, "a machine needs topology: SPEC");
  }
  const auto spec = reader.scalar(spec_node, path);
  std::string written;  // the canonical spec as written, for the default label
  try {
    auto parsed = topo::parse_topology_spec(spec);
    written = topo::to_string(parsed);
    // Files the spec names, relative to the config's folder as traces are.
    const auto resolve = [&](const std::string& file) {
      return std::filesystem::path(file).is_absolute() ? file : (base / file).string();
    };
    if (parsed.kind == "slurm") parsed.shape = resolve(parsed.shape);
    if (parsed.allocation.starts_with('@')) {
      parsed.allocation = "@" + resolve(parsed.allocation.substr(1));
    }
    if (!parsed.hosts.empty()) parsed.hosts = resolve(parsed.hosts);
    value.topology = topo::to_string(parsed);
  } catch (const InputError& e) {
    throw reader.error(spec_node, path, e.what());
  }
  const topo::LinkTable defaults;
  for (const auto& info : topo::link_classes()) {
    const auto& link = value.links[info.id];
    const auto& standard = defaults[info.id];
    if (link.bandwidth != standard.bandwidth || link.latency != standard.latency) {
      // As written: GB/s and ns, without the noise of the unit conversions.
      overrides.push_back(
          fmt::format("{}:{:.12g}:{:.12g}", info.name, link.bandwidth / 1e9, link.latency * 1e9));
    }
    const auto& energy = value.links.energy(info.id);
    if (energy != defaults.energy(info.id)) {
      overrides.push_back(fmt::format("{}-energy:{:.12g}:{:.12g}:{:.12g}", info.name,
                                      energy.pj_per_bit, energy.idle_watts, energy.busy_watts));
    }
  }
  value.overrides = fmt::format("{}", fmt::join(overrides, ","));
  value.label =
      label ? *label : (value.overrides.empty() ? written : written + "[" + value.overrides + "]");
  return value;
}

// ---- mappers and models -------------------------------------------------------------------------

void parse_mapper(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                  std::vector<MapperValue>& out, std::vector<YAML::Node>& nodes) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
  YAML::Node params_node;
  static constexpr std::array<std::string_view, 3> kKeys{"name", "params", "label"};
  const auto [name, name_node, label] = parse_named(
      reader, node, path, kKeys, "mapper",
      [&](const YAML::Node&, const YAML::Node& item, const std::string& item_path) {
        params_node.reset(item);
        for (const auto& [param, values] : reader.entries(item, item_path, {})) {
          std::vector<std::string> texts;
          for (const auto& v : reader.elements(values, item_path + "." + param.Scalar()))
            texts.push_back(reader.scalar(v, item_path + "." + param.Scalar()));
          lists.emplace_back(param.Scalar(), std::move(texts));
        }
      });
  const map::MapperInfo* info = nullptr;
  try {
    info = &map::find_mapper(name);
  } catch (const InputError& e) {
    throw reader.error(name_node, path, e.what());
  }
  const auto combinations = cross(lists);
  if (label && combinations.size() > 1) {
    throw reader.error(node, path + ".label",
                       "a label names one mapper; this entry's parameter lists make several");
  }
  for (const auto& given : combinations) {
    MapperValue value;
    value.name = name;
    value.given = given;
    value.origin = reader.origin(node);
    try {
      value.params =
          map::parse_params(fmt::format("mapper '{}'", name), info->params, given).describe();
    } catch (const InputError& e) {
      throw reader.error(params_node ? params_node : node, path + ".params", e.what());
    }
    std::replace(value.params.begin(), value.params.end(), ' ', ',');
    value.label = label ? *label : with_given(name, given);
    out.push_back(std::move(value));
    nodes.push_back(node);
  }
}

void parse_model(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                 std::vector<ModelValue>& out, std::vector<YAML::Node>& nodes) {
  std::vector<std::int64_t> packet_sizes;
  std::vector<bool> store_and_forward;
  std::vector<std::pair<std::string, YAML::Node>> options;
  sim::ModelOptions flow_level;  // the size factors and reverse traffic (one value each)
  map::ParamList flow_given;
  static constexpr std::array<std::string_view, 7> kKeys{
      "name",      "label",      "packet-size",    "store-and-forward",
      "bw-factor", "lat-factor", "reverse-traffic"};
  const auto [name, name_node, label] = parse_named(
      reader, node, path, kKeys, "model",
      [&](const YAML::Node& key, const YAML::Node& item, const std::string& item_path) {
        options.emplace_back(key.Scalar(), key);
        if (key.Scalar() == "bw-factor" || key.Scalar() == "lat-factor") {
          const auto text = reader.scalar(item, item_path);
          (key.Scalar() == "bw-factor" ? flow_level.bandwidth_factor : flow_level.latency_factor) =
              reader.at_value(item, item_path,
                              [&] { return sim::SizeFactors::parse(text, item_path); });
          flow_given.emplace_back(key.Scalar(), text);
          return;
        }
        if (key.Scalar() == "reverse-traffic") {
          flow_level.reverse_traffic = reader.boolean(item, item_path);
          flow_given.emplace_back(key.Scalar(), flow_level.reverse_traffic ? "true" : "false");
          return;
        }
        for (const auto& v : reader.elements(item, item_path)) {
          if (key.Scalar() == "packet-size") {
            packet_sizes.push_back(reader.integer(v, item_path, 1, 1 << 30));
          } else {
            store_and_forward.push_back(reader.boolean(v, item_path));
          }
        }
      });
  std::vector<std::string_view> valid;
  for (const auto& info : sim::network_models()) valid.push_back(info.name);
  valid.push_back(kStaticModel);
  if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
    throw reader.error(name_node, path,
                       fmt::format("unknown model '{}' (valid: {}){}", name, fmt::join(valid, ", "),
                                   suggest_suffix(name, valid)));
  }
  for (const auto& [option, at] : options) {
    const bool packet_only = option == "packet-size" || option == "store-and-forward";
    const bool flow_only = option == "reverse-traffic";
    const bool factor = !packet_only && !flow_only;
    if ((packet_only && name != "packet") || (flow_only && name != "flow") ||
        (factor && name != "flow" && name != "analytic")) {
      throw reader.error(at, path + "." + option,
                         fmt::format("{} applies to the {} model{} only, not to {}", option,
                                     packet_only ? "packet"
                                     : flow_only ? "flow"
                                                 : "flow and analytic",
                                     factor ? "s" : "", name));
    }
  }
  const sim::ModelOptions defaults;
  if (packet_sizes.empty()) packet_sizes.push_back(defaults.packet_bytes);
  if (store_and_forward.empty()) store_and_forward.push_back(!defaults.cut_through);
  if (label && packet_sizes.size() * store_and_forward.size() > 1) {
    throw reader.error(node, path + ".label",
                       "a label names one model; this entry's option lists make several");
  }
  for (const auto size : packet_sizes) {
    for (const bool saf : store_and_forward) {
      ModelValue value;
      value.name = name;
      value.options = flow_level;
      value.options.packet_bytes = size;
      value.options.cut_through = !saf;
      value.origin = reader.origin(node);
      map::ParamList given = flow_given;
      for (const auto& [option, at] : options) {
        if (option == "packet-size") given.emplace_back(option, std::to_string(size));
        if (option == "store-and-forward") given.emplace_back(option, saf ? "true" : "false");
      }
      value.label = label ? *label : with_given(name, given);
      for (const auto& [option, at] : options) value.given.push_back(option);
      out.push_back(std::move(value));
      nodes.push_back(node);
    }
  }
}

}  // namespace mapsim::exp
