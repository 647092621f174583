#pragma once
// The energy of a replay's network (docs/models.md, "Energy"): per link class, from the bytes
// each resource carried (Result::resource_bytes) and the class's energy parameters
// (topologies/LinkClass.hpp, LinkEnergy), over the replay's makespan T:
//
//   dynamic  E_dyn(l)    = 8 B_l pj_per_bit 1e-12            B_l bytes across resource l
//   static   E_static(l) = idle T + (busy - idle) B_l / bw_l   SimGrid's wattage_range, the
//                                                             utilisation integrated over T
//   total    E = sum over every resource of the machine (its links, used or not, and the nodes'
//            channels) of E_dyn + E_static;  average power P = E / T
//
// B_l / bw_l is the time the link would need for its bytes at full bandwidth: the integral of
// its utilisation, whether the bytes went at full rate or shared. A message's latency phase
// costs no busy power (SimGrid's plugin, which updates a link's power only when a transfer
// starts or ends, bills it as busy; docs/models.md says why mapsim does not). Computed after the
// replay from what it measured: no cost to the replay itself.

#include <array>

#include "sim/Result.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::sim {

struct ClassEnergy {
  double dynamic_joules = 0;
  double static_joules = 0;
  [[nodiscard]] double joules() const { return dynamic_joules + static_joules; }
};

struct Energy {
  std::array<ClassEnergy, topo::kLinkClassCount> per_class{};
  double dynamic_joules = 0;
  double static_joules = 0;
  double seconds = 0;  ///< the makespan T
  [[nodiscard]] double joules() const { return dynamic_joules + static_joules; }
  /// E / T; 0 for a replay of no duration.
  [[nodiscard]] double watts() const { return seconds > 0 ? joules() / seconds : 0; }
};

/// The energy of `result`, a replay on `topology` with link parameters `links`.
Energy replay_energy(const Result& result, const topo::Topology& topology,
                     const topo::LinkTable& links);

}  // namespace mapsim::sim
