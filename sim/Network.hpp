#pragma once
// The machine as the network models see it: resources with a bandwidth and a latency, and the
// route of every message as a list of resources.
//
// Resources 0 .. link_count()-1 are the topology's directed links; resource link_count() + n is
// node n's intra-node channel (shared memory), which carries every message between two ranks on
// node n (a rank sending to itself included). Parameters come per link class from a LinkTable.
// A route's latency is the sum of its resources' latencies and its bandwidth the smallest of
// theirs (the bottleneck).

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "sim/Time.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::sim {

using ResourceId = std::int32_t;

struct Route {
  std::uint32_t offset = 0;  ///< into Network::route_resources
  std::uint32_t length = 0;
  Time latency = 0;      ///< sum over the route, ps
  double bandwidth = 0;  ///< bottleneck, bytes per second
};

class Network {
 public:
  Network(const topo::Topology& topology, const topo::LinkTable& links);

  [[nodiscard]] const topo::Topology& topology() const { return *topology_; }
  [[nodiscard]] ResourceId resource_count() const { return static_cast<ResourceId>(bw_.size()); }
  [[nodiscard]] ResourceId link_count() const { return link_count_; }
  [[nodiscard]] ResourceId intra_node_channel(topo::NodeId node) const {
    return link_count_ + node;
  }
  [[nodiscard]] double bandwidth(ResourceId r) const { return bw_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] Time latency(ResourceId r) const { return lat_[static_cast<std::size_t>(r)]; }

  /// The route from node a to node b, computed once and cached.
  const Route& route(topo::NodeId a, topo::NodeId b);
  [[nodiscard]] std::span<const ResourceId> resources(const Route& route) const {
    return {resources_.data() + route.offset, route.length};
  }

  /// Latency plus size over bottleneck bandwidth: the contention-free time of `bytes` from a to b.
  Time free_time(topo::NodeId a, topo::NodeId b, std::int64_t bytes);

 private:
  const Route& compute(topo::NodeId a, topo::NodeId b);

  const topo::Topology* topology_;
  ResourceId link_count_ = 0;
  std::vector<double> bw_;
  std::vector<Time> lat_;
  std::vector<ResourceId> resources_;  // every cached route's resources, back to back
  std::vector<Route> routes_;
  // Route index per (a, b): a dense table on small machines, a hash map on large ones.
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_;
  std::vector<topo::LinkId> buffer_;
};

}  // namespace mapsim::sim
