#include "experiments/YamlReader.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "support/Parse.hpp"

namespace mapsim::exp {
namespace {

std::string_view type_name(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.IsNull()) return "empty";
  return "a single value";
}

}  // namespace

Origin YamlReader::origin(const YAML::Node& node) const {
  const auto mark = node.Mark();
  return {file_, mark.line + 1, mark.column + 1};
}

InputError YamlReader::error(const YAML::Node& node, std::string_view path,
                             std::string_view message) const {
  return InputError(fmt::format("{}: {}: {}", origin(node).str(), path, message));
}

void YamlReader::expect_map(const YAML::Node& node, std::string_view path) const {
  if (!node.IsMap())
    throw error(node, path, fmt::format("expected a map, got {}", type_name(node)));
}

std::vector<std::pair<YAML::Node, YAML::Node>> YamlReader::entries(
    const YAML::Node& node, std::string_view path, std::span<const std::string_view> valid) const {
  expect_map(node, path);
  std::vector<std::pair<YAML::Node, YAML::Node>> result;
  std::set<std::string> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) throw error(key, path, "a key must be a single word");
    const std::string& text = key.Scalar();
    if (!valid.empty() && std::find(valid.begin(), valid.end(), text) == valid.end()) {
      throw error(key, path,
                  fmt::format("unknown key '{}' (valid: {})", text, fmt::join(valid, ", ")));
    }
    if (!seen.insert(text).second)
      throw error(key, path, fmt::format("key '{}' is given twice", text));
    if (it->second.IsNull()) {
      throw error(key, path == "config" ? text : fmt::format("{}.{}", path, text),
                  "the key has no value");
    }
    result.emplace_back(key, it->second);
  }
  return result;
}

std::vector<YAML::Node> YamlReader::elements(const YAML::Node& node, std::string_view path) const {
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

std::string YamlReader::scalar(const YAML::Node& node, std::string_view path) const {
  if (!node.IsScalar())
    throw error(node, path, fmt::format("expected a single value, got {}", type_name(node)));
  return node.Scalar();
}

std::string YamlReader::label(const YAML::Node& node, std::string_view path,
                              std::string_view what) const {
  auto text = scalar(node, path);
  if (text.empty()) throw error(node, path, fmt::format("the {} is empty", what));
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      throw error(node, path,
                  fmt::format("the {} holds a control character (0x{:02x}); names are one line "
                              "of text",
                              what, byte));
    }
  }
  return text;
}

std::int64_t YamlReader::integer(const YAML::Node& node, std::string_view path, std::int64_t min,
                                 std::int64_t max) const {
  const auto text = scalar(node, path);
  try {
    return parse_integer(text, "value", min, max);
  } catch (const InputError& e) {
    throw error(node, path, e.what());
  }
}

double YamlReader::real(const YAML::Node& node, std::string_view path, double min,
                        double max) const {
  const auto text = scalar(node, path);
  try {
    // -0 is 0: one value, one run key (its text would be "-0").
    const double value = parse_real(text, "value", min, max);
    return value == 0 ? 0.0 : value;
  } catch (const InputError& e) {
    throw error(node, path, e.what());
  }
}

bool YamlReader::boolean(const YAML::Node& node, std::string_view path) const {
  const auto text = scalar(node, path);
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  throw error(node, path, fmt::format("'{}' is not true or false", text));
}

}  // namespace mapsim::exp
