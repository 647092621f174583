// Topology spec strings: parse, and for machines small enough to walk, build them and check that
// a route is a chain of existing links of hops(a, b) router traversals.

#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "topologies/TopologySpec.hpp"

namespace {

void fuzz(std::string_view input) {
  const auto spec = mapsim::topo::parse_topology_spec(input);
  std::int64_t nodes = spec.kind == "tianhe3" ? spec.nodes_per_chip : 1;
  for (const int size : spec.sizes) nodes *= size;
  if (nodes > 4096) return;
  const auto machine = mapsim::topo::make_topology(spec);
  MAPSIM_EXPECTS(mapsim::topo::to_string(mapsim::topo::parse_topology_spec(machine->spec())) ==
                     machine->spec(),
                 "a machine's spec round-trips");
  const auto last = machine->node_count() - 1;
  const auto path = machine->route(0, last);
  mapsim::topo::VertexId at = 0;
  for (const auto id : path) {
    MAPSIM_EXPECTS(machine->link(id).from == at, "a route is a chain of links");
    at = machine->link(id).to;
  }
  MAPSIM_EXPECTS(at == last && machine->route_hops(path) == machine->hops(0, last),
                 "a route ends at its destination after hops(a, b) routers");
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
