#pragma once
// Choosing mappers on the command line, the same in `map`, `simulate`, `export`, `advise` and
// `run`: `--mapper` takes one name, a comma list or `all` (items with parameters,
// NAME:key=value, where a mapper is run: not in `run`, which picks runs of a sweep by name),
// and every `--param` of every chosen mapper is checked before anything runs.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mappers/Mapper.hpp"
#include "mappers/Parameters.hpp"

namespace mapsim::cli {

/// The mappers `list` names ("greedy", "greedy,scotch", "all": every registered one but those
/// that replay (replay-search), in
/// registry order), in the order given: names only (`run` picks a sweep's runs by mapper name).
/// Throws InputError for an unknown or repeated name, an empty item or an item with
/// parameters, naming `what` ("--mapper").
std::vector<std::string_view> choose_mappers(std::string_view list, std::string_view what);

/// The mappers `list` names as `map` and `simulate` take them: "all" (as above, without
/// parameters), or a comma list of items NAME or NAME:key=value[:key=value...]
/// (map::parse_mapper_item: "greedy,mxovlp:layers=tile,mxovlp:layers=tile-fold"), each checked
/// now. Throws InputError for an unknown mapper, a bad parameter, an empty item or an item
/// given twice, naming `what`.
std::vector<map::MapperItem> choose_mapper_items(std::string_view list, std::string_view what);

struct ChosenMapper {
  std::string_view name;
  std::string label;      ///< the item as written: the name, or NAME:key=value...
  map::ParamList params;  ///< the item's, then its share of --param ("MAPPER." removed)
  std::string described;  ///< every parameter, defaults filled in: "key=value key=value"
};

/// The chosen mappers with their share of `given` (--param): validated now (see
/// map::assign_params). MAPPER.key=value goes to every item of that mapper; a bare "key=value"
/// with several mappers is a command-line error. `list` is the --mapper text, for messages.
std::vector<ChosenMapper> with_params(const std::vector<map::MapperItem>& items,
                                      std::span<const std::string> given, std::string_view list);

}  // namespace mapsim::cli
