#pragma once
// The machine as the network models see it: resources with a bandwidth and a latency, and the
// route of every message as a list of resources.
//
// Resources 0 .. link_count()-1 are the topology's directed links; resource link_count() + n is
// node n's intra-node channel (shared memory), which carries every message between two ranks on
// node n (a rank sending to itself included). On nodes of S > 1 sockets (Topology::
// sockets_per_node) that channel is socket 0's; the channels of sockets 1 .. S-1 of every node
// follow (link_count() + N + n (S-1) + s - 1, N nodes), then every node's inter-socket channel
// (link_count() + N S + n), which carries every message between two sockets of the node. A
// message between nodes takes the network route whichever sockets its ranks are on (the NIC is
// reached from every socket at the same cost). Parameters come per link class from a LinkTable.
// A route's latency is the sum of its resources' latencies and its bandwidth the smallest of
// theirs (the bottleneck).
//
// Routing (Topology::routing, spec option routing=): under `minimal` every message between two
// nodes takes the machine's one route, computed once and cached. Under the per-message routings
// each message asks for its own (message_route), given a 64-bit choice that mixes the replay's
// seed with the message's ordinal among the transfers the model started (deterministic for a
// seed, whatever the thread count):
//   ecmp      the machine's alternative route for that choice (the up-ports of a fat-tree);
//   valiant   the Valiant route for that choice (through a random intermediate group);
//   ugal      UGAL-L: the minimal route R_m or the Valiant route R_v, whichever has the smaller
//             q(R) * |R|, where |R| is the route's length in links and q(R) the load the network
//             model reports (NetworkModel::link_load) on the route's first link that leaves a
//             router — the output port at the source router, which is all a router sees locally;
//             ties go to the minimal route (so an idle network, and the analytic model, whose
//             links carry no load, route minimally).
// Such routes live in a pool of transient routes until the model releases them (release).

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
  std::uint32_t offset = 0;  ///< into the cached routes' resources, or (kTransient) the pool's
  std::uint32_t length = 0;
  Time latency = 0;      ///< sum over the route, ps
  double bandwidth = 0;  ///< bottleneck, bytes per second

  static constexpr std::uint32_t kTransient = 1u << 31;
  [[nodiscard]] bool transient() const { return (offset & kTransient) != 0; }
};

/// The load a network model sees on a link at this instant, for adaptive routing (UGAL).
class LinkLoads {
 public:
  virtual ~LinkLoads() = default;
  [[nodiscard]] virtual double link_load(ResourceId link) const = 0;
};

/// What a resource past the links is: a channel of a node.
struct NodeChannel {
  topo::NodeId node = 0;
  topo::LinkClass link_class = topo::LinkClass::IntraNode;  ///< IntraNode or InterSocket
  int socket = 0;                                           ///< IntraNode: the socket
};

/// The channel resource `r` (>= topology.link_count()) of a network on `topology` is.
NodeChannel node_channel(const topo::Topology& topology, ResourceId r);

class Network {
 public:
  /// `seed` draws the per-message routes of the ecmp, valiant and ugal routings.
  Network(const topo::Topology& topology, const topo::LinkTable& links, std::uint64_t seed = 0);

  [[nodiscard]] const topo::Topology& topology() const { return *topology_; }
  [[nodiscard]] ResourceId resource_count() const { return static_cast<ResourceId>(bw_.size()); }
  [[nodiscard]] ResourceId link_count() const { return link_count_; }
  /// The shared-memory channel of `socket` of `node`.
  [[nodiscard]] ResourceId intra_node_channel(topo::NodeId node, int socket = 0) const {
    if (socket == 0) return link_count_ + node;
    return link_count_ + nodes_ + node * (sockets_ - 1) + socket - 1;
  }
  /// The channel between the sockets of `node`. Precondition: the nodes have several sockets.
  [[nodiscard]] ResourceId inter_socket_channel(topo::NodeId node) const {
    return link_count_ + nodes_ * sockets_ + node;
  }
  [[nodiscard]] double bandwidth(ResourceId r) const { return bw_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] Time latency(ResourceId r) const { return lat_[static_cast<std::size_t>(r)]; }

  /// The route from node a to node b, computed once and cached.
  const Route& route(topo::NodeId a, topo::NodeId b);
  /// The route from socket socket_a of node a to socket socket_b of node b: route(a, b) between
  /// nodes, the node's channel of that socket or between its sockets within one.
  const Route& route(topo::NodeId a, topo::NodeId b, int socket_a, int socket_b) {
    if (a != b || sockets_ == 1) return route(a, b);
    return socket_route(a, socket_a, socket_b);
  }
  [[nodiscard]] std::span<const ResourceId> resources(const Route& route) const {
    if (route.transient()) {
      return {transient_.data() + (route.offset & ~Route::kTransient), route.length};
    }
    return {resources_.data() + route.offset, route.length};
  }

  /// The route of the `ordinal`-th message a model starts, from a to b, under the machine's
  /// routing (see the file comment); `loads` is read under ugal. A transient route must be given
  /// back with release() once the message no longer needs it.
  Route message_route(topo::NodeId a, topo::NodeId b, std::uint64_t ordinal, const LinkLoads& loads,
                      int socket_a = 0, int socket_b = 0);
  /// Gives a transient route's storage back; does nothing for a cached route.
  void release(const Route& route);

  /// Latency plus size over bottleneck bandwidth: the contention-free time of `bytes` from a to b.
  Time free_time(topo::NodeId a, topo::NodeId b, std::int64_t bytes, int socket_a = 0,
                 int socket_b = 0);

 private:
  const Route& compute(topo::NodeId a, topo::NodeId b);
  /// The one-channel route within node a, between sockets a_socket and b_socket, cached.
  const Route& socket_route(topo::NodeId a, int a_socket, int b_socket);
  /// `path` as a transient route (a == b: the node's intra-node channel).
  Route transient(topo::NodeId a, std::span<const topo::LinkId> path);
  /// The load UGAL compares: on the first link of `path` that leaves a router.
  [[nodiscard]] double first_router_load(std::span<const topo::LinkId> path,
                                         const LinkLoads& loads) const;

  const topo::Topology* topology_;
  ResourceId link_count_ = 0;
  topo::NodeId nodes_ = 0;
  int sockets_ = 1;
  std::vector<std::uint32_t> socket_routes_;  // per node, S + 1 (the last: between sockets)
  std::vector<double> bw_;
  std::vector<Time> lat_;
  std::vector<ResourceId> resources_;  // every cached route's resources, back to back
  std::vector<Route> routes_;
  // Route index per (a, b): a dense table on small machines, a hash map on large ones.
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_;
  std::vector<topo::LinkId> buffer_;
  // Per-message routing: the routing, its seed, and the pool of transient routes (blocks of
  // block_ resources, free ones listed in free_blocks_).
  topo::Routing routing_ = topo::Routing::Minimal;
  std::uint64_t seed_ = 0;
  std::uint32_t block_ = 0;
  std::vector<ResourceId> transient_;
  std::vector<std::uint32_t> free_blocks_;
  std::vector<topo::LinkId> other_;
};

}  // namespace mapsim::sim
