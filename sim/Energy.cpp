#include "sim/Energy.hpp"

#include "sim/Network.hpp"
#include "support/Error.hpp"

namespace mapsim::sim {

Energy replay_energy(const Result& result, const topo::Topology& topology,
                     const topo::LinkTable& links) {
  Energy energy;
  energy.seconds = to_seconds(result.makespan);
  const auto resources = result.resource_bytes.size();
  MAPSIM_EXPECTS(resources >= static_cast<std::size_t>(topology.link_count()),
                 "a result of a replay on this machine");
  for (std::size_t r = 0; r < resources; ++r) {
    const auto id = static_cast<ResourceId>(r);
    const auto link_class = id < topology.link_count() ? topology.link(id).link_class
                                                       : node_channel(topology, id).link_class;
    const auto& e = links.energy(link_class);
    const double bytes = static_cast<double>(result.resource_bytes[r]);
    auto& c = energy.per_class[static_cast<std::size_t>(link_class)];
    c.dynamic_joules += 8 * bytes * e.pj_per_bit * 1e-12;
    c.static_joules += e.idle_watts * energy.seconds +
                       (e.busy_watts - e.idle_watts) * bytes / links[link_class].bandwidth;
  }
  for (const auto& c : energy.per_class) {
    energy.dynamic_joules += c.dynamic_joules;
    energy.static_joules += c.static_joules;
  }
  return energy;
}

}  // namespace mapsim::sim
