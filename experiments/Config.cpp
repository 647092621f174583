#include "experiments/Config.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include "mappers/Mapper.hpp"
#include "sim/NetworkModel.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::exp {
namespace {

constexpr std::array<std::string_view, kAxisCount> kAxisNames{
    "workload", "machine", "mapper", "model", "eager-threshold", "compute-scale", "seed", "repeat"};

constexpr std::array<std::string_view, 15> kSections{
    "workloads", "machines", "mappers", "models", "mpi",  "sim",   "matrix", "seeds",
    "repeats",   "zip",      "exclude", "where",  "name", "store", "run"};

/// Reads one config file's YAML tree, remembering the file for error messages.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[nodiscard]] Origin origin(const YAML::Node& node) const {
    const auto mark = node.Mark();
    return {file_, mark.line + 1, mark.column + 1};
  }

  /// "FILE:LINE:COLUMN: PATH: message".
  [[nodiscard]] InputError error(const YAML::Node& node, std::string_view path,
                                 std::string_view message) const {
    return InputError(fmt::format("{}: {}: {}", origin(node).str(), path, message));
  }

  [[nodiscard]] static std::string_view type_name(const YAML::Node& node) {
    if (node.IsMap()) return "a map";
    if (node.IsSequence()) return "a list";
    if (node.IsNull()) return "empty";
    return "a single value";
  }

  void expect_map(const YAML::Node& node, std::string_view path) const {
    if (!node.IsMap())
      throw error(node, path, fmt::format("expected a map, got {}", type_name(node)));
  }

  /// The entries of a map, checking every key against `valid` (any key if empty) and rejecting
  /// repeated keys.
  [[nodiscard]] std::vector<std::pair<YAML::Node, YAML::Node>> entries(
      const YAML::Node& node, std::string_view path,
      std::span<const std::string_view> valid) const {
    expect_map(node, path);
    std::vector<std::pair<YAML::Node, YAML::Node>> result;
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) throw error(key, path, "a key must be a single word");
      const std::string& text = key.Scalar();
      if (!valid.empty() && std::find(valid.begin(), valid.end(), text) == valid.end()) {
        throw error(key, path,
                    valid.empty() ? fmt::format("unknown key '{}'", text)
                                  : fmt::format("unknown key '{}' (valid: {})", text,
                                                fmt::join(valid, ", ")));
      }
      if (!seen.insert(text).second)
        throw error(key, path, fmt::format("key '{}' is given twice", text));
      if (it->second.IsNull()) {
        // yaml-cpp places an empty value at the next token: name the key's line instead.
        throw error(key, path == "config" ? text : fmt::format("{}.{}", path, text),
                    "the key has no value");
      }
      result.emplace_back(key, it->second);
    }
    return result;
  }

  /// The elements of a list; a single value counts as a list of one.
  [[nodiscard]] std::vector<YAML::Node> elements(const YAML::Node& node,
                                                 std::string_view path) const {
    if (node.IsSequence()) {
      std::vector<YAML::Node> result;
      for (const auto& element : node) result.push_back(element);
      if (result.empty()) throw error(node, path, "the list is empty");
      return result;
    }
    if (node.IsScalar()) return {node};
    if (node.IsNull()) throw error(node, path, "expected a value or a list, got nothing");
    throw error(node, path, fmt::format("expected a value or a list, got {}", type_name(node)));
  }

  [[nodiscard]] std::string scalar(const YAML::Node& node, std::string_view path) const {
    if (!node.IsScalar()) {
      throw error(node, path, fmt::format("expected a single value, got {}", type_name(node)));
    }
    return node.Scalar();
  }

  [[nodiscard]] std::int64_t integer(const YAML::Node& node, std::string_view path,
                                     std::int64_t min, std::int64_t max) const {
    const auto text = scalar(node, path);
    try {
      return parse_integer(text, "value", min, max);
    } catch (const InputError& e) {
      throw error(node, path, e.what());
    }
  }

  [[nodiscard]] double real(const YAML::Node& node, std::string_view path, double min,
                            double max) const {
    const auto text = scalar(node, path);
    double value = 0;
    try {
      value = parse_real(text, "value");
    } catch (const InputError& e) {
      throw error(node, path, e.what());
    }
    if (value < min || value > max)
      throw error(node, path, fmt::format("{} is out of range {} .. {}", text, min, max));
    return value;
  }

  [[nodiscard]] bool boolean(const YAML::Node& node, std::string_view path) const {
    const auto text = scalar(node, path);
    if (text == "true" || text == "yes" || text == "on") return true;
    if (text == "false" || text == "no" || text == "off") return false;
    throw error(node, path, fmt::format("'{}' is not true or false", text));
  }

  [[nodiscard]] const std::string& file() const { return file_; }

 private:
  std::string file_;
};

template <typename Value>
void check_unique_labels(const Reader& reader, const std::vector<Value>& values,
                         const std::vector<YAML::Node>& nodes, std::string_view section) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (values[i].label == values[j].label) {
        throw reader.error(nodes[i], fmt::format("{}[{}]", section, i),
                           fmt::format("label '{}' is already used by {}[{}] at line {}; give "
                                       "one of them another label",
                                       values[i].label, section, j, values[j].origin.line));
      }
    }
  }
}

// ---- workloads ----------------------------------------------------------------------------------

WorkloadValue parse_workload(const Reader& reader, const YAML::Node& node, const std::string& path,
                             const std::filesystem::path& base) {
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
      label = reader.scalar(item, item_path);
      if (label->empty()) throw reader.error(item, item_path, "the label is empty");
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

MachineValue parse_machine(const Reader& reader, const YAML::Node& node, const std::string& path) {
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
        label = reader.scalar(item, item_path);
        if (label->empty()) throw reader.error(item, item_path, "the label is empty");
      } else {
        static constexpr std::array<std::string_view, 2> kLinkKeys{"bandwidth", "latency"};
        std::vector<std::string_view> classes;
        for (const auto& info : topo::link_classes()) classes.push_back(info.name);
        for (const auto& [class_key, params] : reader.entries(item, item_path, classes)) {
          const auto class_path = item_path + "." + class_key.Scalar();
          const auto link_class = topo::link_class_from_name(class_key.Scalar());
          auto link = value.links[link_class];
          for (const auto& [param_key, param] : reader.entries(params, class_path, kLinkKeys)) {
            const auto param_path = class_path + "." + param_key.Scalar();
            if (param_key.Scalar() == "bandwidth") {
              link.bandwidth = reader.real(param, param_path, 1e-6, 1e6) * 1e9;  // GB/s
            } else {
              link.latency = reader.real(param, param_path, 0, 1e9) * 1e-9;  // ns
            }
          }
          value.links = value.links.with(link_class, link);
        }
      }
    }
    if (!has_topology) throw reader.error(node, path, "a machine needs topology: SPEC");
  }
  const auto spec = reader.scalar(spec_node, path);
  try {
    value.topology = topo::to_string(topo::parse_topology_spec(spec));
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
  }
  value.overrides = fmt::format("{}", fmt::join(overrides, ","));
  value.label = label ? *label
                      : (value.overrides.empty() ? value.topology
                                                 : value.topology + "[" + value.overrides + "]");
  return value;
}

// ---- mappers and models -------------------------------------------------------------------------

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
NamedEntry parse_named(const Reader& reader, const YAML::Node& node, const std::string& path,
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
      entry.label = reader.scalar(item, item_path);
      if (entry.label->empty()) throw reader.error(item, item_path, "the label is empty");
    } else {
      other(key, item, item_path);
    }
  }
  if (!has_name) throw reader.error(node, path, fmt::format("a {0} needs name: {0}", what));
  return entry;
}

void parse_mapper(const Reader& reader, const YAML::Node& node, const std::string& path,
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

void parse_model(const Reader& reader, const YAML::Node& node, const std::string& path,
                 std::vector<ModelValue>& out, std::vector<YAML::Node>& nodes) {
  std::vector<std::int64_t> packet_sizes;
  std::vector<bool> store_and_forward;
  std::vector<std::pair<std::string, YAML::Node>> options;
  static constexpr std::array<std::string_view, 4> kKeys{"name", "label", "packet-size",
                                                         "store-and-forward"};
  const auto [name, name_node, label] =
      parse_named(reader, node, path, kKeys, "model",
                  [&](const YAML::Node& key, const YAML::Node& item, const std::string& item_path) {
                    options.emplace_back(key.Scalar(), key);
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
                       fmt::format("unknown model '{}' (valid: {})", name, fmt::join(valid, ", ")));
  }
  if (name != "packet" && !options.empty()) {
    throw reader.error(
        options.front().second, path + "." + options.front().first,
        fmt::format("{} applies to the packet model only, not to {}", options.front().first, name));
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
      value.options.packet_bytes = size;
      value.options.cut_through = !saf;
      value.origin = reader.origin(node);
      map::ParamList given;
      for (const auto& [option, at] : options) {
        given.emplace_back(
            option, option == "packet-size" ? std::to_string(size) : (saf ? "true" : "false"));
      }
      value.label = label ? *label : with_given(name, given);
      out.push_back(std::move(value));
      nodes.push_back(node);
    }
  }
}

// ---- zip and exclude ----------------------------------------------------------------------------

std::optional<Axis> axis_from_name(std::string_view text) {
  for (int i = 0; i < kAxisCount; ++i) {
    const auto axis_name = kAxisNames[static_cast<std::size_t>(i)];
    if (text == axis_name || (text.size() == axis_name.size() + 1 && text.starts_with(axis_name) &&
                              text.back() == 's')) {
      return static_cast<Axis>(i);
    }
    // eager_threshold, compute_scale: the column spelling of where expressions
    std::string underscored(axis_name);
    std::replace(underscored.begin(), underscored.end(), '-', '_');
    if (text == underscored) return static_cast<Axis>(i);
  }
  return std::nullopt;
}

Axis parse_axis(const Reader& reader, const YAML::Node& node, const std::string& path) {
  const auto text = reader.scalar(node, path);
  const auto axis = axis_from_name(text);
  if (!axis) {
    throw reader.error(
        node, path,
        fmt::format("unknown axis '{}' (valid: {})", text, fmt::join(kAxisNames, ", ")));
  }
  return *axis;
}

/// The placeholders of a name template; throws for an unknown or unclosed one.
void check_template(const Reader& reader, const YAML::Node& node, std::string_view text) {
  for (std::size_t at = 0; (at = text.find('{', at)) != std::string_view::npos;) {
    const auto end = text.find('}', at);
    if (end == std::string_view::npos)
      throw reader.error(node, "name", fmt::format("'{{' at position {} is not closed", at));
    const auto placeholder = text.substr(at + 1, end - at - 1);
    if (std::find(kAxisNames.begin(), kAxisNames.end(), placeholder) == kAxisNames.end()) {
      throw reader.error(node, "name",
                         fmt::format("unknown placeholder {{{}}} (valid: {{{}}})", placeholder,
                                     fmt::join(kAxisNames, "}, {")));
    }
    at = end + 1;
  }
}

}  // namespace

std::string Origin::str() const {
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string_view name(Axis axis) {
  return kAxisNames[static_cast<std::size_t>(axis)];
}

std::string_view name(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::Generated:
      return "generated";
    case WorkloadKind::Trace:
      return "trace";
    case WorkloadKind::Matrix:
      return "matrix";
  }
  return "?";
}

std::size_t SweepConfig::size(Axis axis) const {
  switch (axis) {
    case Axis::Workload:
      return workloads.size();
    case Axis::Machine:
      return machines.size();
    case Axis::Mapper:
      return mappers.size();
    case Axis::Model:
      return models.size();
    case Axis::EagerThreshold:
      return eager_thresholds.size();
    case Axis::ComputeScale:
      return compute_scales.size();
    case Axis::Seed:
      return seeds.size();
    case Axis::Repeat:
      return static_cast<std::size_t>(repeats);
  }
  return 0;
}

SweepConfig parse_config(std::string_view text, std::string_view file,
                         const std::filesystem::path& base) {
  const Reader reader{std::string(file)};
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw InputError(
        fmt::format("{}:{}:{}: YAML syntax: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (root.IsNull()) throw InputError(fmt::format("{}:1:1: config: the config is empty", file));
  SweepConfig config;
  config.file = std::string(file);
  const auto sections = reader.entries(root, "config", kSections);
  bool has_workloads = false;
  bool has_machines = false;
  bool has_mappers = false;
  std::vector<YAML::Node> workload_nodes, machine_nodes, mapper_nodes, model_nodes;
  for (const auto& [key, node] : sections) {
    const std::string section = key.Scalar();
    if (section == "workloads") {
      has_workloads = true;
      const auto items = reader.elements(node, section);
      for (std::size_t i = 0; i < items.size(); ++i) {
        config.workloads.push_back(
            parse_workload(reader, items[i], fmt::format("workloads[{}]", i), base));
        workload_nodes.push_back(items[i]);
      }
    } else if (section == "machines") {
      has_machines = true;
      const auto items = reader.elements(node, section);
      for (std::size_t i = 0; i < items.size(); ++i) {
        config.machines.push_back(parse_machine(reader, items[i], fmt::format("machines[{}]", i)));
        machine_nodes.push_back(items[i]);
      }
    } else if (section == "mappers") {
      has_mappers = true;
      const auto items = reader.elements(node, section);
      for (std::size_t i = 0; i < items.size(); ++i)
        parse_mapper(reader, items[i], fmt::format("mappers[{}]", i), config.mappers, mapper_nodes);
    } else if (section == "models") {
      const auto items = reader.elements(node, section);
      for (std::size_t i = 0; i < items.size(); ++i)
        parse_model(reader, items[i], fmt::format("models[{}]", i), config.models, model_nodes);
    } else if (section == "mpi") {
      static constexpr std::array<std::string_view, 1> kKeys{"eager-threshold"};
      for (const auto& [k, item] : reader.entries(node, section, kKeys)) {
        for (const auto& v : reader.elements(item, "mpi.eager-threshold")) {
          config.eager_thresholds.push_back(
              reader.integer(v, "mpi.eager-threshold", 0, std::int64_t{1} << 40));
        }
      }
    } else if (section == "sim") {
      static constexpr std::array<std::string_view, 2> kKeys{"compute-scale", "whole-run"};
      for (const auto& [k, item] : reader.entries(node, section, kKeys)) {
        if (k.Scalar() == "compute-scale") {
          for (const auto& v : reader.elements(item, "sim.compute-scale"))
            config.compute_scales.push_back(reader.real(v, "sim.compute-scale", 0, 1e6));
        } else {
          config.whole_run = reader.boolean(item, "sim.whole-run");
        }
      }
    } else if (section == "matrix") {
      static constexpr std::array<std::string_view, 1> kKeys{"collectives"};
      for (const auto& [k, item] : reader.entries(node, section, kKeys))
        config.collectives = reader.boolean(item, "matrix.collectives");
    } else if (section == "seeds") {
      for (const auto& v : reader.elements(node, section))
        config.seeds.push_back(reader.integer(v, section, 0, INT64_MAX));
    } else if (section == "repeats") {
      config.repeats = static_cast<int>(reader.integer(node, section, 1, 1000));
    } else if (section == "zip") {
      config.zip_origin = reader.origin(node);
      const auto groups = reader.elements(node, section);
      for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto group_path = fmt::format("zip[{}]", g);
        if (!groups[g].IsSequence() || groups[g].size() < 2) {
          throw reader.error(groups[g], group_path, "a zip group is a list of two or more axes");
        }
        std::vector<Axis> axes;
        for (const auto& a : groups[g]) {
          const auto axis = parse_axis(reader, a, group_path);
          for (const auto& earlier : config.zips) {
            if (std::find(earlier.begin(), earlier.end(), axis) != earlier.end())
              throw reader.error(a, group_path,
                                 fmt::format("axis '{}' is already in a zip group", name(axis)));
          }
          if (std::find(axes.begin(), axes.end(), axis) != axes.end())
            throw reader.error(a, group_path, fmt::format("axis '{}' is listed twice", name(axis)));
          axes.push_back(axis);
        }
        config.zips.push_back(std::move(axes));
      }
    } else if (section == "exclude") {
      const auto items = reader.elements(node, section);
      for (std::size_t i = 0; i < items.size(); ++i) {
        const auto item_path = fmt::format("exclude[{}]", i);
        Exclusion exclusion;
        exclusion.origin = reader.origin(items[i]);
        reader.expect_map(items[i], item_path);
        if (items[i].size() == 0) throw reader.error(items[i], item_path, "the map is empty");
        for (const auto& [k, values] : reader.entries(items[i], item_path, {})) {
          Exclusion::Condition condition{parse_axis(reader, k, item_path), {}};
          const auto value_path = item_path + "." + k.Scalar();
          for (const auto& v : reader.elements(values, value_path)) {
            // Numeric axes compare as numbers: check the values now.
            switch (condition.axis) {
              case Axis::EagerThreshold:
              case Axis::Seed:
              case Axis::Repeat:
                (void)reader.integer(v, value_path, INT64_MIN, INT64_MAX);
                break;
              case Axis::ComputeScale:
                (void)reader.real(v, value_path, -1e300, 1e300);
                break;
              default:
                break;
            }
            condition.values.push_back(reader.scalar(v, value_path));
          }
          exclusion.conditions.push_back(std::move(condition));
        }
        config.exclusions.push_back(std::move(exclusion));
      }
    } else if (section == "where") {
      config.where = reader.scalar(node, section);
      config.where_origin = reader.origin(node);
      if (config.where.find_first_not_of(" \t\r\n") == std::string::npos)
        throw reader.error(node, section, "the condition is empty");
    } else if (section == "name") {
      config.name_template = reader.scalar(node, section);
      config.name_origin = reader.origin(node);
      if (config.name_template.empty()) throw reader.error(node, section, "the template is empty");
      check_template(reader, node, config.name_template);
    } else if (section == "store") {
      static constexpr std::array<std::string_view, 1> kKeys{"links"};
      for (const auto& [k, item] : reader.entries(node, section, kKeys))
        config.store_links = reader.boolean(item, "store.links");
    } else {
      static constexpr std::array<std::string_view, 1> kKeys{"time-limit"};
      for (const auto& [k, item] : reader.entries(node, section, kKeys))
        config.time_limit = reader.real(item, "run.time-limit", 0, 1e7);
    }
  }
  const Origin top{std::string(file), 1, 1};
  for (const auto& [present, section] :
       {std::pair{has_workloads, "workloads"}, std::pair{has_machines, "machines"},
        std::pair{has_mappers, "mappers"}}) {
    if (!present)
      throw InputError(
          fmt::format("{}: {}: the section is missing (required)", top.str(), section));
  }
  check_unique_labels(reader, config.workloads, workload_nodes, "workloads");
  check_unique_labels(reader, config.machines, machine_nodes, "machines");
  check_unique_labels(reader, config.mappers, mapper_nodes, "mappers");
  check_unique_labels(reader, config.models, model_nodes, "models");
  if (config.models.empty()) {
    config.models.push_back(ModelValue{"flow", "flow", {}, top});
  }
  const sim::SimConfig defaults;
  if (config.eager_thresholds.empty()) config.eager_thresholds.push_back(defaults.eager_threshold);
  if (config.compute_scales.empty()) config.compute_scales.push_back(defaults.compute_scale);
  if (config.seeds.empty()) config.seeds.push_back(0);
  for (std::size_t g = 0; g < config.zips.size(); ++g) {
    const auto& axes = config.zips[g];
    for (const auto axis : axes) {
      if (config.size(axis) != config.size(axes.front())) {
        throw InputError(fmt::format(
            "{}: zip[{}]: the axes of a zip group need as many values each: {} has {}, {} has {}",
            config.zip_origin.str(), g, name(axes.front()), config.size(axes.front()), name(axis),
            config.size(axis)));
      }
    }
  }
  return config;
}

SweepConfig load_config(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read config '{}'", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("cannot read config '{}'", path.string()));
  return parse_config(text.str(), path.string(), path.parent_path());
}

}  // namespace mapsim::exp
