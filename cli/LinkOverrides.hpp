#pragma once
// `--link CLASS:GBPS:NS`, the same in every command that models a machine's links (`simulate`,
// and `export` writing a SimGrid platform): one link class's bandwidth and latency overridden,
// for a class the machine has; `--link-energy CLASS:PJ:IDLE:BUSY` its energy (`map`,
// `simulate`, `advise`, `export`). Reports record both in their settings.

#include <array>
#include <string>
#include <vector>

#include "cli/Report.hpp"
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

/// The energy in effect, into a report's settings as `link_overrides` records `--link`:
/// `link_energy_overrides` (the --link-energy texts, space-separated) and, for every class
/// `topology` has, link_CLASS_pj_per_bit, link_CLASS_idle_w and link_CLASS_busy_w of `links`.
void add_link_energy_settings(Record& settings, const std::vector<std::string>& overrides,
                              const topo::Topology& topology, const topo::LinkTable& links);

}  // namespace mapsim::cli
