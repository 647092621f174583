// Mapping files (`rank node` lines) on a small machine with two cores per node: a mapping that is
// read is valid for the machine.

#include <sstream>
#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "mappers/MappingFile.hpp"
#include "topologies/TopologySpec.hpp"

namespace {

void fuzz(std::string_view input) {
  static const auto machine = mapsim::topo::make_topology("torus:4x4:cores=2");
  std::istringstream in{std::string(input)};
  const auto mapping = mapsim::map::read_mapping(in, "<fuzz>", *machine);
  try {
    mapsim::topo::validate(mapping, *machine);
  } catch (const mapsim::InputError&) {
    MAPSIM_EXPECTS(false, "read_mapping returned a mapping that does not fit the machine");
  }
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
