#pragma once
// The traffic energy of a byte between two nodes, for the search mappers' objective=energy
// (SearchObjective.hpp): the energy per bit of every link of the minimal route from a to b, in
// integer units of 0.001 pJ per bit,
//   e(a, b) = sum over the links l of route(a, b) of round(1000 pJ/bit(class of l))   a != b
//   e(a, a) = round(1000 pJ/bit(intra-node))
// so that sum over rank pairs of 8 bytes(i, j) e(f(i), f(j)) 1e-15 J is the mapping's traffic
// energy (metrics::Metrics::traffic_energy_joules, without sockets). The link classes' energy per
// bit (topologies/LinkClass.hpp) are the defaults or the table given. A dense table of every pair
// on machines of at most kDenseNodes nodes; larger machines walk the route per call.

#include <cstdint>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

class EnergyDistance {
 public:
  static constexpr topo::NodeId kDenseNodes = 1024;

  explicit EnergyDistance(const topo::Topology& topology, const topo::LinkTable& links = {});

  [[nodiscard]] std::int64_t operator()(topo::NodeId a, topo::NodeId b) const {
    if (!table_.empty()) {
      return table_[static_cast<std::size_t>(a) * static_cast<std::size_t>(nodes_) +
                    static_cast<std::size_t>(b)];
    }
    return walk(a, b);
  }
  /// An upper bound of e(a, b) over every pair.
  [[nodiscard]] std::int64_t bound() const { return bound_; }

  /// Throws InputError unless the cost of `graph` fits 64 bits under any mapping: its bytes
  /// times bound() at most 2^63 - 1.
  void check_summable(const CommGraph& graph) const;

 private:
  [[nodiscard]] std::int64_t walk(topo::NodeId a, topo::NodeId b) const;

  const topo::Topology* topology_;
  topo::NodeId nodes_ = 0;
  std::vector<std::int64_t> weight_;  // per link class, 0.001 pJ per bit
  std::vector<std::int64_t> table_;   // nodes x nodes, or empty
  std::int64_t bound_ = 0;
};

}  // namespace mapsim::map
