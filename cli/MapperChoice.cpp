#include "cli/MapperChoice.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

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
    out.push_back({info.name, item.label, std::move(params), std::move(described), {}});
  }
  return out;
}

std::string inherit_replay_settings(std::string_view name, map::ParamList& params,
                                    const CommandReplay& command) {
  const auto& info = map::find_mapper(name);
  const auto takes = [&](std::string_view key) {
    return std::any_of(info.params.begin(), info.params.end(),
                       [&](const map::ParamSpec& spec) { return spec.key == key; });
  };
  const auto given = [&](std::string_view key) {
    return std::any_of(params.begin(), params.end(), [&](const auto& p) { return p.first == key; });
  };
  std::vector<std::string> filled;
  if (takes("model") && !given("model")) {
    params.emplace_back("model", command.model);
    filled.push_back(fmt::format("model={} from {}", command.model, command.model_source));
  }
  if (takes("compute-scale") && !given("compute-scale")) {
    params.emplace_back("compute-scale", fmt::format("{}", command.compute_scale));
    filled.push_back(
        fmt::format("compute-scale={} from {}", command.compute_scale, command.scale_source));
  }
  if (filled.empty()) return {};
  return fmt::format("{}, not given as parameters", fmt::join(filled, ", "));
}

void inherit_replay_settings(std::vector<ChosenMapper>& chosen, const CommandReplay& command) {
  for (auto& c : chosen) {
    c.inherited = inherit_replay_settings(c.name, c.params, command);
    if (c.inherited.empty()) continue;
    const auto& info = map::find_mapper(c.name);
    try {
      c.described =
          map::parse_params(fmt::format("mapper '{}'", c.label), info.params, c.params).describe();
    } catch (const InputError& e) {  // e.g. a --compute-scale beyond the mapper's range
      throw InputError(fmt::format("{} ({})", e.what(), c.inherited));
    }
  }
}

}  // namespace mapsim::cli
