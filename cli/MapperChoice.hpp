#pragma once
// Choosing mappers on the command line, the same in `map`, `simulate` and `run`: `--mapper`
// takes one name, a comma list or `all`, and every `--param` of every chosen mapper is checked
// before anything runs.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mappers/Parameters.hpp"

namespace mapsim::cli {

/// The mappers `list` names ("greedy", "greedy,scotch", "all": every registered one but those
/// that replay (replay-search), in
/// registry order), in the order given. Throws InputError for an unknown or repeated name or
/// an empty item, naming `what` ("--mapper").
std::vector<std::string_view> choose_mappers(std::string_view list, std::string_view what);

struct ChosenMapper {
  std::string_view name;
  map::ParamList params;  ///< as given, "MAPPER." removed
  std::string described;  ///< every parameter, defaults filled in: "key=value key=value"
};

/// The chosen mappers with their share of `given` (--param): validated now (see
/// map::assign_params). A bare "key=value" with several mappers is a command-line error.
/// `list` is the --mapper text, for messages.
std::vector<ChosenMapper> with_params(const std::vector<std::string_view>& names,
                                      std::span<const std::string> given, std::string_view list);

}  // namespace mapsim::cli
