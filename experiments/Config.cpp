#include "experiments/Config.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <span>
#include <sstream>
#include <utility>
#include <vector>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include "experiments/ConfigAxes.hpp"
#include "experiments/ConfigExclude.hpp"
#include "experiments/YamlReader.hpp"
#include "sim/Calibration.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::exp {
namespace {

constexpr std::array<std::string_view, kAxisCount> kAxisNames{
    "workload", "machine", "mapper", "model", "eager-threshold", "compute-scale", "seed", "repeat"};

constexpr std::array<std::string_view, 16> kSections{
    "workloads", "machines", "mappers", "models", "mpi",  "sim",   "matrix", "seeds",
    "repeats",   "zip",      "exclude", "where",  "name", "store", "run",    "quick"};
/// What a `quick:` map may replace: every section but `quick` itself.
constexpr std::span<const std::string_view> kQuickSections{kSections.data(), kSections.size() - 1};

template <typename Value>
void check_unique_labels(const YamlReader& reader, const std::vector<Value>& values,
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

Axis parse_axis(const YamlReader& reader, const YAML::Node& node, const std::string& path) {
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
void check_template(const YamlReader& reader, const YAML::Node& node, std::string_view text) {
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

/// The sections to read — the file's, with those of its `quick:` map in their place if `quick`
/// — and those of the other variant that differ (whose axis values `exclude` may name too).
struct VariantSections {
  std::vector<std::pair<YAML::Node, YAML::Node>> effective;
  std::vector<std::pair<YAML::Node, YAML::Node>> other;
  /// Sections the variant sets where the other has its defaults.
  std::vector<std::pair<YAML::Node, YAML::Node>> other_defaulted;
};

/// The `quick:` map's keys are checked either way, so that a misspelt one is never ignored.
VariantSections variant_sections(const YamlReader& reader, const YAML::Node& root, bool quick,
                                 SweepConfig& config) {
  auto sections = reader.entries(root, "config", kSections);
  const auto is_quick = [](const auto& entry) { return entry.first.Scalar() == "quick"; };
  const auto found = std::find_if(sections.begin(), sections.end(), is_quick);
  config.has_quick = found != sections.end();
  config.quick = quick;
  if (!config.has_quick) {
    if (quick) {
      throw InputError(
          fmt::format("{}: --quick: the config has no quick variant (a top-level "
                      "`quick:` map of the sections to replace)",
                      reader.file()));
    }
    return {sections, {}, {}};
  }
  const YAML::Node quick_node = found->second;
  // YAML::Node's assignment overwrites the tree it refers to: entries are never assigned (as
  // vector::erase would, shifting the sections after `quick:` onto it), only copy-constructed.
  std::vector<std::pair<YAML::Node, YAML::Node>> file_sections;
  for (const auto& entry : sections) {
    if (!is_quick(entry)) file_sections.push_back(entry);
  }
  reader.expect_map(quick_node, "quick");
  for (auto it = quick_node.begin(); it != quick_node.end(); ++it) {
    const YAML::Node key = it->first;
    if (key.IsScalar() && std::find(kQuickSections.begin(), kQuickSections.end(), key.Scalar()) ==
                              kQuickSections.end()) {
      throw reader.error(key, fmt::format("quick.{}", key.Scalar()),
                         fmt::format("unknown key '{}' (valid: {})", key.Scalar(),
                                     fmt::join(kQuickSections, ", ")));
    }
  }
  const auto replacements = reader.entries(quick_node, "quick", kQuickSections);
  if (!quick) return {file_sections, replacements, {}};
  VariantSections variants;
  for (const auto& entry : file_sections) {
    const auto same = [&](const auto& r) { return r.first.Scalar() == entry.first.Scalar(); };
    const auto by = std::find_if(replacements.begin(), replacements.end(), same);
    if (by == replacements.end()) {
      variants.effective.push_back(entry);
    } else {
      variants.other.push_back(entry);
      variants.effective.emplace_back(entry.first, by->second);
    }
  }
  for (const auto& replacement : replacements) {
    const auto same = [&](const auto& e) { return e.first.Scalar() == replacement.first.Scalar(); };
    if (std::none_of(file_sections.begin(), file_sections.end(), same)) {
      variants.effective.push_back(replacement);
      variants.other_defaulted.push_back(replacement);
    }
  }
  return variants;
}

/// Throws InputError at the first byte of `text` that is not UTF-8 (or at a NUL byte), with its
/// line and column (in characters).
void check_utf8(std::string_view text, std::string_view file) {
  if (text.starts_with("\xff\xfe") || text.starts_with("\xfe\xff")) {
    throw InputError(fmt::format(
        "{}:1:1: config: the file is UTF-16 (it starts with a byte-order mark); save it as UTF-8",
        file));
  }
  int line = 1;
  int column = 1;
  for (std::size_t at = 0; at < text.size();) {
    const auto byte = static_cast<unsigned char>(text[at]);
    const auto length = utf8_length(text, at);
    if (length == 0 || byte == 0) {
      throw InputError(
          fmt::format("{}:{}:{}: config: byte 0x{:02x} is not {}: a config is UTF-8 text", file,
                      line, column, byte, byte == 0 ? "text (a NUL byte)" : "UTF-8"));
    }
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    at += length;
  }
}

/// Where each document of a YAML stream starts, and nothing else.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// The config's one YAML document; a second one (after `---`) is an error at its marker.
YAML::Node load_document(std::string_view text, std::string_view file) {
  // The documents are counted first, at most three: yaml-cpp 0.7's LoadAll loops for ever,
  // allocating, on a token no document can start with (a top-level ',' as in "&a ,": an empty
  // document at the same place each time; yaml-cpp issue 1040, fixed upstream by pull request
  // 1319 in 2024, after 0.8.0). Such a document is a syntax error at that token.
  const std::string copy(text);
  DocumentStarts documents;
  YAML::Node root;
  try {
    std::istringstream stream(copy);
    YAML::Parser parser(stream);
    while (documents.starts.size() < 3 && parser.HandleNextDocument(documents)) {
      const auto& starts = documents.starts;
      if (starts.size() >= 2 && starts.back().pos == starts[starts.size() - 2].pos) {
        const auto& at = starts.back();
        const auto where = static_cast<std::size_t>(std::max(0, at.pos));
        throw InputError(fmt::format(
            "{}:{}:{}: YAML syntax: unexpected '{}' (a value cannot start with it)", file,
            at.line + 1, at.column + 1, where < copy.size() ? copy.substr(where, 1) : ""));
      }
    }
    if (documents.starts.size() <= 1) root = YAML::Load(copy);
  } catch (const YAML::Exception& e) {
    // A tab in a line's indentation (YAML indents with spaces) gives yaml-cpp's messages about
    // the structure, not about the tab: say it.
    std::string hint;
    for (std::size_t at = 0, line = 0; at < copy.size(); ++line) {
      const auto end = std::min(copy.find('\n', at), copy.size());
      const auto indent = copy.find_first_not_of(" \t", at);
      if (indent != std::string::npos && indent < end && copy.find('\t', at) < indent) {
        hint = fmt::format(" (line {} is indented with a tab: YAML indents with spaces)", line + 1);
        break;
      }
      at = end + 1;
    }
    throw InputError(fmt::format("{}:{}:{}: YAML syntax: {}{}", file, e.mark.line + 1,
                                 e.mark.column + 1, e.msg, hint));
  }
  if (documents.starts.size() > 1) {
    // The second document's node starts after its `---` line: point at the marker.
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at <= text.size();) {
      const auto end = std::min(text.find('\n', at), text.size());
      lines.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    auto line = static_cast<std::size_t>(std::max(0, documents.starts[1].line));
    line = std::min(line, lines.size() - 1);
    while (line > 0 && !lines[line].starts_with("---")) --line;
    throw InputError(fmt::format(
        "{}:{}:1: config: a second YAML document starts here ('---'); a config is one document "
        "(merge the two, or remove the marker)",
        file, line + 1));
  }
  return documents.starts.empty() ? YAML::Node() : root;
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
                         const std::filesystem::path& base, bool quick) {
  const YamlReader reader{std::string(file)};
  check_utf8(text, file);
  const YAML::Node root = load_document(text, file);
  if (root.IsNull()) throw InputError(fmt::format("{}:1:1: config: the config is empty", file));
  SweepConfig config;
  config.file = std::string(file);
  const auto variants = variant_sections(reader, root, quick, config);
  const auto& sections = variants.effective;
  bool has_workloads = false;
  bool has_machines = false;
  bool has_mappers = false;
  sim::Calibration calibration;             // mpi.calibration
  std::optional<sim::Overheads> overheads;  // mpi.overheads
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
        config.machines.push_back(
            parse_machine(reader, items[i], fmt::format("machines[{}]", i), base));
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
      static constexpr std::array<std::string_view, 4> kKeys{"eager-threshold", "collectives",
                                                             "overheads", "calibration"};
      for (const auto& [k, item] : reader.entries(node, section, kKeys)) {
        if (k.Scalar() == "calibration") {
          auto spec = reader.scalar(item, "mpi.calibration");
          if (spec != "none" && spec != "smpi" && std::filesystem::path(spec).is_relative())
            spec = (base / spec).string();
          calibration = reader.at_value(item, "mpi.calibration", [&] {
            return sim::load_calibration(spec, "mpi.calibration");
          });
          continue;
        }
        if (k.Scalar() == "overheads") {
          const auto spec = reader.scalar(item, "mpi.overheads");
          overheads = reader.at_value(item, "mpi.overheads",
                                      [&] { return sim::parse_overheads(spec, "mpi.overheads"); });
          continue;
        }
        if (k.Scalar() == "collectives") {
          const auto spec = reader.scalar(item, "mpi.collectives");
          config.collective_algorithms = reader.at_value(item, "mpi.collectives", [&] {
            return traces::parse_collective_options(spec, "mpi.collectives");
          });
          continue;
        }
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
          Exclusion::Condition condition{parse_axis(reader, k, item_path), {}, {}, {}, {}};
          const auto value_path = item_path + "." + k.Scalar();
          for (const auto& v : reader.elements(values, value_path)) {
            condition.origins.push_back(reader.origin(v));
            // Numeric axes compare as numbers.
            switch (condition.axis) {
              case Axis::EagerThreshold:
              case Axis::Seed:
              case Axis::Repeat:
                condition.integers.push_back(reader.integer(v, value_path, INT64_MIN, INT64_MAX));
                break;
              case Axis::ComputeScale:
                condition.reals.push_back(reader.real(v, value_path, -1e300, 1e300));
                break;
              default:
                condition.values.push_back(reader.scalar(v, value_path));
            }
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
      config.name_template = reader.label(node, section, "template");
      config.name_origin = reader.origin(node);
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
  // The calibration, under what the config gives itself.
  config.overheads = overheads ? *overheads : calibration.overheads;
  for (auto& model : config.models) {
    sim::ModelOptions calibrated = model.options;
    sim::apply(calibration, model.name, calibrated);
    const auto given = [&](std::string_view option) {
      return std::find(model.given.begin(), model.given.end(), option) != model.given.end();
    };
    if (!given("bw-factor")) model.options.bandwidth_factor = calibrated.bandwidth_factor;
    if (!given("lat-factor")) model.options.latency_factor = calibrated.latency_factor;
    if (!given("reverse-traffic")) model.options.reverse_traffic = calibrated.reverse_traffic;
    model.options.weight_s = calibrated.weight_s;
    model.options.envelope = calibrated.envelope;
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
  KnownValues known;
  known.add(config);
  known.add(reader, variants.other, base);
  known.add_defaults(variants.other_defaulted);
  check_exclusions(config, known);
  return config;
}

SweepConfig load_config(const std::filesystem::path& path, bool quick) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(fmt::format("config '{}' is a directory, not a file", path.string()));
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(fmt::format("cannot read config '{}': {}", path.string(),
                                 errno != 0 ? system_reason(errno) : "cannot open it"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("cannot read config '{}'", path.string()));
  return parse_config(text.str(), path.string(), path.parent_path(), quick);
}

}  // namespace mapsim::exp
