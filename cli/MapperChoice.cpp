#include "cli/MapperChoice.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::cli {

namespace {

/// Every mapper that maps from the matrix alone: replay-search runs others and replays.
std::vector<std::string_view> all_mappers() {
  std::vector<std::string_view> names;
  for (const auto& info : map::mapper_infos()) {
    if (!info.replays) names.push_back(info.name);
  }
  return names;
}

}  // namespace

std::vector<std::string_view> choose_mappers(std::string_view list, std::string_view what) {
  if (list == "all") return all_mappers();
  std::vector<std::string_view> names;
  for (const auto& item : choose_mapper_items(list, what)) {
    if (!item.params.empty()) {
      throw InputError(
          fmt::format("{}: '{}': name mappers only here, without parameters", what, item.label));
    }
    names.push_back(map::find_mapper(item.name).name);  // registry storage outlives the command
  }
  return names;
}

std::vector<map::MapperItem> choose_mapper_items(std::string_view list, std::string_view what) {
  std::vector<map::MapperItem> items;
  if (list == "all") {
    for (const auto name : all_mappers())
      items.push_back({std::string(name), {}, std::string(name)});
    return items;
  }
  for (const auto item : split_fields(list, ',')) {
    const auto text = trim(item);
    if (text.empty()) {
      throw InputError(fmt::format(
          "{} '{}': an empty mapper name (give NAME, NAME,NAME,... or all)", what, list));
    }
    if (text == "all") throw InputError(fmt::format("{}: 'all' stands alone, not in a list", what));
    auto parsed = map::parse_mapper_item(text, what);
    if (std::any_of(items.begin(), items.end(),
                    [&](const map::MapperItem& m) { return m.label == parsed.label; })) {
      throw InputError(fmt::format("{}: mapper '{}' is named twice", what, parsed.label));
    }
    items.push_back(std::move(parsed));
  }
  return items;
}

std::vector<ChosenMapper> with_params(const std::vector<map::MapperItem>& items,
                                      std::span<const std::string> given, std::string_view list) {
  // --param goes by mapper: to every item of it.
  std::vector<map::ParamOwner> owners;
  for (const auto& item : items) {
    const auto& info = map::find_mapper(item.name);
    if (std::none_of(owners.begin(), owners.end(),
                     [&](const map::ParamOwner& o) { return o.name == info.name; }))
      owners.push_back({info.name, info.params});
  }
  if (owners.size() > 1) {
    if (const auto* bare = map::first_bare_param(given)) {
      throw po::error(fmt::format("--param {}: with --mapper {}, name the mapper: MAPPER.{}", *bare,
                                  list, *bare));
    }
  }
  std::vector<map::ParamOwner> known;
  for (const auto& info : map::mapper_infos()) known.push_back({info.name, info.params});
  const auto lists = map::assign_params(owners, known, given, "--param");
  std::vector<ChosenMapper> out;
  for (const auto& item : items) {
    const auto& info = map::find_mapper(item.name);
    const auto owner = std::find_if(owners.begin(), owners.end(),
                                    [&](const map::ParamOwner& o) { return o.name == info.name; });
    auto params = item.params;
    const auto& share = lists[static_cast<std::size_t>(owner - owners.begin())];
    params.insert(params.end(), share.begin(), share.end());
    auto described =
        map::parse_params(fmt::format("mapper '{}'", item.label), info.params, params).describe();
    out.push_back({info.name, item.label, std::move(params), std::move(described)});
  }
  return out;
}

}  // namespace mapsim::cli
