// Mapper parameters: the first byte picks a mapper, the remaining lines are key=value pairs.
// Parameters that parse must build a mapper that maps a small instance validly.

#include <sstream>
#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "mappers/Mapper.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/CommMatrix.hpp"

namespace {

void fuzz(std::string_view input) {
  if (input.empty()) return;
  const auto infos = mapsim::map::mapper_infos();
  const auto& info = infos[static_cast<unsigned char>(input.front()) % infos.size()];
  mapsim::map::ParamList params;
  std::istringstream lines{std::string(input.substr(1))};
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) params.push_back(mapsim::map::split_param(line, "<fuzz>"));
  }
  const auto mapper = mapsim::map::make_mapper(info.name, params);
  // A 3x3 stencil on a 3x3 mesh: every mapper handles it quickly with any valid parameters.
  static const auto machine = mapsim::topo::make_topology("mesh:3x3");
  static const auto matrix = [] {
    mapsim::traces::CommMatrixBuilder builder(9);
    for (mapsim::Rank r = 0; r < 9; ++r) {
      if (r % 3 != 2) builder.add(r, r + 1, 1, 64);
      if (r < 6) builder.add(r, r + 3, 1, 64);
    }
    return builder.build();
  }();
  const auto mapping = mapper->map(matrix, *machine, 1);
  try {
    mapsim::topo::validate(mapping, *machine);
  } catch (const mapsim::InputError&) {
    MAPSIM_EXPECTS(false, "a mapper returned a mapping that does not fit the machine");
  }
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
