#pragma once
// Reading experiment configs' YAML (yaml-cpp) with errors that name FILE:LINE:COLUMN and the key
// path, and the checks every section of a config shares: strict keys, types, number ranges. An
// internal header of the experiments library (Config.cpp, ConfigAxes.cpp).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "experiments/Config.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {

/// Reads one config file's YAML tree, remembering the file for error messages.
class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  [[nodiscard]] const std::string& file() const { return file_; }
  /// Where `node` starts (1-based line and column).
  [[nodiscard]] Origin origin(const YAML::Node& node) const;
  /// InputError "FILE:LINE:COLUMN: PATH: message" at `node`.
  [[nodiscard]] InputError error(const YAML::Node& node, std::string_view path,
                                 std::string_view message) const;
  /// `parse()`, a parser of the value at `node` that names it `path` in its errors
  /// ("PATH: message"); its InputError rethrown placed at the value ("FILE:LINE:COLUMN: PATH:
  /// message").
  template <typename Parse>
  auto at_value(const YAML::Node& node, std::string_view path, Parse&& parse) const
      -> decltype(parse()) {
    try {
      return parse();
    } catch (const InputError& e) {
      std::string_view message = e.what();
      if (message.starts_with(path) && message.substr(path.size()).starts_with(": "))
        message.remove_prefix(path.size() + 2);
      throw error(node, path, message);
    }
  }

  /// Throws unless `node` is a map.
  void expect_map(const YAML::Node& node, std::string_view path) const;
  /// The (key, value) entries of a map, checking every key against `valid` (any key if empty),
  /// rejecting repeated keys and keys without a value (named at the key: yaml-cpp places an
  /// empty value at the next token).
  [[nodiscard]] std::vector<std::pair<YAML::Node, YAML::Node>> entries(
      const YAML::Node& node, std::string_view path, std::span<const std::string_view> valid) const;
  /// The elements of a non-empty list; a single value counts as a list of one.
  [[nodiscard]] std::vector<YAML::Node> elements(const YAML::Node& node,
                                                 std::string_view path) const;

  [[nodiscard]] std::string scalar(const YAML::Node& node, std::string_view path) const;
  /// A label or name template: a single value, not empty, without control characters (a
  /// newline in a run's name would break every line-per-run listing of it).
  [[nodiscard]] std::string label(const YAML::Node& node, std::string_view path,
                                  std::string_view what = "label") const;
  [[nodiscard]] std::int64_t integer(const YAML::Node& node, std::string_view path,
                                     std::int64_t min, std::int64_t max) const;
  [[nodiscard]] double real(const YAML::Node& node, std::string_view path, double min,
                            double max) const;
  /// true/yes/on or false/no/off.
  [[nodiscard]] bool boolean(const YAML::Node& node, std::string_view path) const;

 private:
  std::string file_;
};

}  // namespace mapsim::exp
