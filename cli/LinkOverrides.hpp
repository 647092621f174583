#pragma once
// `--link CLASS:GBPS:NS`, the same in every command that models a machine's links (`simulate`,
// and `export` writing a SimGrid platform): one link class's bandwidth and latency overridden,
// for a class the machine has; `--link-energy CLASS:PJ:IDLE:BUSY` its energy (`map`,
// `simulate`).

#include <array>
#include <string>
#include <vector>

#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::cli {

/// The default link table with `overrides` (each CLASS:GBPS:NS, e.g. grid:25:100) applied.
/// Throws InputError naming the override for a malformed one, a value out of range, a class
/// `topology` does not have (listing those it has) or a class set twice.
topo::LinkTable apply_link_overrides(const std::vector<std::string>& overrides,
                                     const topo::Topology& topology);

/// `table` with `overrides` of `--link-energy CLASS:PJ_PER_BIT:IDLE_W:BUSY_W` applied (e.g.
/// grid:5:3:4; topologies/LinkClass.hpp, LinkEnergy). Throws InputError as apply_link_overrides,
/// and for busy power below idle.
topo::LinkTable apply_link_energy(const std::vector<std::string>& overrides,
                                  const topo::Topology& topology, topo::LinkTable table);

}  // namespace mapsim::cli
