#include "topologies/HostNames.hpp"

#include <algorithm>
#include <fstream>
#include <unordered_map>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Hostlist.hpp"

namespace mapsim::topo {

HostNames::HostNames(std::int32_t nodes) : nodes_(nodes) {}

HostNames::HostNames(std::vector<std::string> names, std::string_view source)
    : nodes_(static_cast<std::int32_t>(names.size())), names_(std::move(names)), source_(source) {
  index_.reserve(names_.size());
  for (std::size_t n = 0; n < names_.size(); ++n) {
    check_host_name(names_[n], source_);
    const auto [it, inserted] = index_.emplace(names_[n], static_cast<std::int32_t>(n));
    if (!inserted) {
      throw InputError(fmt::format("{}: host '{}' is named twice (nodes {} and {})", source_,
                                   names_[n], it->second, n));
    }
  }
}

std::string HostNames::name(std::int32_t node) const {
  if (!names_.empty()) return names_[static_cast<std::size_t>(node)];
  const auto width = fmt::formatted_size("{}", std::max(nodes_ - 1, 0));
  return fmt::format("node{:0{}}", node, width);
}

std::optional<std::int32_t> HostNames::find(std::string_view name) const {
  if (names_.empty()) {
    // node<digits>, of exactly the default width.
    const auto width = fmt::formatted_size("{}", std::max(nodes_ - 1, 0));
    if (!name.starts_with("node") || name.size() != 4 + width) return std::nullopt;
    std::int64_t node = 0;
    for (const char c : name.substr(4)) {
      if (c < '0' || c > '9') return std::nullopt;
      node = node * 10 + (c - '0');
    }
    if (node >= nodes_) return std::nullopt;
    return static_cast<std::int32_t>(node);
  }
  const auto it = index_.find(std::string(name));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void check_host_name(std::string_view name, std::string_view where) {
  if (name.empty() || name.size() > 255) {
    throw InputError(fmt::format("{}: a host name must have 1 to 255 characters, got '{}'", where,
                                 name.substr(0, 300)));
  }
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == '_';
    if (!ok) {
      throw InputError(
          fmt::format("{}: host name '{}' holds '{}'; names are letters, digits, '.', '-' and '_'",
                      where, name, c));
    }
  }
  if (std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw InputError(
        fmt::format("{}: host name '{}' is all digits, which reads as a node id; give hosts names",
                    where, name));
  }
}

HostNames read_host_names(const std::filesystem::path& path, std::int32_t nodes) {
  const std::string file = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(fmt::format("hosts file {}: is a directory", file));
  }
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("hosts file {}: cannot be opened", file));
  std::vector<std::string> names;
  std::unordered_map<std::string, int> line_of;  // where each name was first given
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto where = fmt::format("{}:{}", file, number);
    std::string_view text = line;
    if (const auto hash = text.find('#'); hash != std::string_view::npos)
      text = text.substr(0, hash);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
      text.remove_suffix(1);
    }
    if (text.empty()) continue;
    if (text.find_first_of(" \t") != std::string_view::npos) {
      throw InputError(
          fmt::format("{}: '{}' holds a space; give one host name or hostlist expression per line",
                      where, text));
    }
    for (auto& name : expand_hostlist(text, where)) {
      check_host_name(name, where);
      const auto [it, inserted] = line_of.emplace(name, number);
      if (!inserted) {
        throw InputError(fmt::format("{}: host '{}' is named twice (first on line {})", where, name,
                                     it->second));
      }
      names.push_back(std::move(name));
      if (names.size() > static_cast<std::size_t>(nodes)) {
        throw InputError(fmt::format(
            "{}: the file names more hosts than the machine's {} nodes (one name per node)", where,
            nodes));
      }
    }
  }
  if (in.bad()) throw InputError(fmt::format("hosts file {}: read error", file));
  if (names.size() != static_cast<std::size_t>(nodes)) {
    throw InputError(
        fmt::format("hosts file {}: names {} hosts; the machine has {} nodes (one "
                    "name per node, in node order)",
                    file, names.size(), nodes));
  }
  return HostNames(std::move(names), fmt::format("hosts file {}", file));
}

}  // namespace mapsim::topo
