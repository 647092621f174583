#pragma once
// What one unit of traffic between two nodes costs along its minimal route, for the search
// mappers' distance objectives (SearchObjective.hpp): a weight per link class, summed over the
// links of the route,
//   d(a, b) = sum over the links l of route(a, b) of w(class of l)   a != b
//   d(a, a) = w(intra-node)
// with the weights of one of two quantities:
//   energy   w = round(1000 pJ/bit(class)), thousandths of a pJ per bit: sum over rank pairs
//            of 8 bytes(i, j) d(f(i), f(j)) 1e-15 J is the mapping's traffic energy
//            (metrics::Metrics::traffic_energy_joules, without sockets);
//   latency  w = round(latency(class) / 1 ps), picoseconds: sum over rank pairs of
//            messages(i, j) d(f(i), f(j)) is the time the mapping's messages spend in the links'
//            latencies (every message counted once; without sockets: the intra-node channel's
//            latency between any two ranks of a node).
// The link classes' parameters (topologies/LinkClass.hpp) are the defaults or the table given.
// A dense table of every pair on machines of at most kDenseNodes nodes; larger machines walk
// the route per call.

#include <cstdint>
#include <string_view>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

enum class RouteWeight : std::uint8_t { Energy, Latency };

class RouteDistance {
 public:
  static constexpr topo::NodeId kDenseNodes = 1024;

  explicit RouteDistance(const topo::Topology& topology, RouteWeight weight = RouteWeight::Energy,
                         const topo::LinkTable& links = {});

  [[nodiscard]] std::int64_t operator()(topo::NodeId a, topo::NodeId b) const {
    if (!table_.empty()) {
      return table_[static_cast<std::size_t>(a) * static_cast<std::size_t>(nodes_) +
                    static_cast<std::size_t>(b)];
    }
    return walk(a, b);
  }
  /// An upper bound of d(a, b) over every pair.
  [[nodiscard]] std::int64_t bound() const { return bound_; }
  [[nodiscard]] RouteWeight weight() const { return weight_kind_; }

  /// Throws InputError unless the cost of `graph` (its bytes: the messages of a message graph,
  /// CommGraph::by_messages) fits 64 bits under any mapping: its total times bound() at most
  /// 2^63 - 1.
  /// `objective` names the objective in the error (default: energy or latency, by the weight).
  void check_summable(const CommGraph& graph, std::string_view objective = {}) const;

 private:
  [[nodiscard]] std::int64_t walk(topo::NodeId a, topo::NodeId b) const;

  const topo::Topology* topology_;
  RouteWeight weight_kind_;
  topo::NodeId nodes_ = 0;
  std::vector<std::int64_t> weight_;  // per link class
  std::vector<std::int64_t> table_;   // nodes x nodes, or empty
  std::int64_t bound_ = 0;
};

}  // namespace mapsim::map
