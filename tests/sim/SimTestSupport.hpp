#pragma once
// Shared settings of the simulator's hand-solved tests: round link parameters, so that expected
// times can be worked out on paper. Grid links: 1 GB/s (1 byte = 1 ns) and 100 ns; intra-node
// channel: 1 GB/s and 200 ns.

#include <algorithm>
#include <random>
#include <string>
#include <vector>

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

/// In-order and `count` random mappings of `ranks` ranks on the machine, each core at most once.
inline std::vector<topo::Mapping> random_mappings(const topo::Topology& machine, Rank ranks,
                                                  int count, unsigned seed) {
  std::vector<topo::NodeId> slots;
  for (topo::NodeId n = 0; n < machine.node_count(); ++n)
    for (int c = 0; c < machine.cores_per_node(); ++c) slots.push_back(n);
  std::mt19937 rng(seed);
  std::vector<topo::Mapping> mappings;
  mappings.push_back(topo::in_order_mapping(ranks, machine));
  for (int k = 0; k < count; ++k) {
    std::shuffle(slots.begin(), slots.end(), rng);
    mappings.emplace_back(std::vector<topo::NodeId>(
        slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(ranks)));
  }
  return mappings;
}

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
