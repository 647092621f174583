// Topology spec strings: parse, and for machines small enough to walk, build them and check that
// a route (minimal, and alternative under the spec's routing) is a chain of existing links of
// hops(a, b) router traversals. Specs that name files (a Slurm topology, hosts, an allocation
// file) are only parsed: a fuzzer must not read whatever path it makes up.

#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "topologies/TopologySpec.hpp"

namespace {

void fuzz(std::string_view input) {
  const auto spec = mapsim::topo::parse_topology_spec(input);
  if (spec.kind == "slurm" || !spec.hosts.empty() || spec.allocation.starts_with('@')) return;
  std::int64_t nodes = spec.kind == "tianhe3" ? spec.nodes_per_chip : 1;
  for (const int size : spec.sizes) nodes *= size;
  if (nodes > 4096) return;
  const auto machine = mapsim::topo::make_topology(spec);  // shaped kinds: cheap at any size
  if (machine->node_count() > 4096) return;
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
  std::vector<mapsim::topo::LinkId> other;
  machine->alternative_route_into(0, last, input.size(), other);
  at = 0;
  for (const auto id : other) {
    MAPSIM_EXPECTS(machine->link(id).from == at, "an alternative route is a chain of links");
    at = machine->link(id).to;
  }
  MAPSIM_EXPECTS(at == last && static_cast<int>(other.size()) <= machine->max_route_links(),
                 "an alternative route ends at its destination and fits the route buffers");
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
