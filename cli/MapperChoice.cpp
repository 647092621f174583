#include "cli/MapperChoice.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "mappers/Mapper.hpp"
#include "support/Error.hpp"

namespace mapsim::cli {

std::vector<std::string_view> choose_mappers(std::string_view list, std::string_view what) {
  std::vector<std::string_view> names;
  if (list == "all") {
    // Every mapper that maps from the matrix alone: replay-search runs others and replays.
    for (const auto& info : map::mapper_infos()) {
      if (!info.replays) names.push_back(info.name);
    }
    return names;
  }
  for (;;) {
    const auto comma = list.find(',');
    const auto item = list.substr(0, comma);
    if (item.empty()) {
      throw InputError(fmt::format(
          "{} '{}': an empty mapper name (give NAME, NAME,NAME,... or all)", what, list));
    }
    if (item == "all") {
      throw InputError(fmt::format("{}: 'all' stands alone, not in a list", what));
    }
    const auto name = map::find_mapper(item).name;  // registry storage outlives the command
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InputError(fmt::format("{}: mapper '{}' is named twice", what, name));
    }
    names.push_back(name);
    if (comma == std::string_view::npos) return names;
    list.remove_prefix(comma + 1);
  }
}

std::vector<ChosenMapper> with_params(const std::vector<std::string_view>& names,
                                      std::span<const std::string> given, std::string_view list) {
  if (names.size() > 1) {
    if (const auto* bare = map::first_bare_param(given)) {
      throw po::error(fmt::format("--param {}: with --mapper {}, name the mapper: MAPPER.{}", *bare,
                                  list, *bare));
    }
  }
  std::vector<map::ParamOwner> known;
  for (const auto& info : map::mapper_infos()) known.push_back({info.name, info.params});
  std::vector<map::ParamOwner> chosen;
  for (const auto name : names) {
    const auto& info = map::find_mapper(name);
    chosen.push_back({info.name, info.params});
  }
  auto lists = map::assign_params(chosen, known, given, "--param");
  std::vector<ChosenMapper> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& info = map::find_mapper(names[i]);
    auto described =
        map::parse_params(fmt::format("mapper '{}'", info.name), info.params, lists[i]).describe();
    out.push_back({info.name, std::move(lists[i]), std::move(described)});
  }
  return out;
}

}  // namespace mapsim::cli
