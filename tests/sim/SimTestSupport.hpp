#pragma once
// Shared settings of the simulator's hand-solved tests: round link parameters, so that expected
// times can be worked out on paper. Grid links: 1 GB/s (1 byte = 1 ns) and 100 ns; intra-node
// channel: 1 GB/s and 200 ns.

#include <string>

#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::testing {

inline constexpr sim::Time kNs = 1000;  // ps
inline constexpr sim::Time kUs = 1000 * kNs;
inline constexpr sim::Time kMs = 1000 * kUs;

inline sim::SimConfig round_config(const std::string& model) {
  sim::SimConfig config;
  config.model = model;
  config.links = topo::LinkTable{}
                     .with(topo::LinkClass::Grid, {1e9, 100e-9})
                     .with(topo::LinkClass::IntraNode, {1e9, 200e-9});
  return config;
}

inline sim::Result run(const traces::Trace& trace, const std::string& spec,
                       std::vector<topo::NodeId> nodes, const sim::SimConfig& config) {
  const auto topology = topo::make_topology(spec);
  return sim::simulate(trace, *topology, topo::Mapping(std::move(nodes)), config);
}

inline const std::vector<std::string> kModels{"analytic", "flow", "packet"};

/// The message of the InputError `f` throws, or "no error".
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace mapsim::testing
