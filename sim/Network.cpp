#include "sim/Network.hpp"

#include <algorithm>
#include <limits>

#include "support/Error.hpp"

namespace mapsim::sim {
namespace {

constexpr std::uint32_t kUnknown = std::numeric_limits<std::uint32_t>::max();
// Machines up to this many nodes get a dense route table (4 bytes per ordered pair, 4 MiB).
constexpr topo::NodeId kDenseNodes = 1024;

}  // namespace

Network::Network(const topo::Topology& topology, const topo::LinkTable& links, std::uint64_t seed)
    : topology_(&topology),
      link_count_(topology.link_count()),
      nodes_(topology.node_count()),
      sockets_(topology.sockets_per_node()),
      routing_(topology.routing()),
      seed_(seed),
      block_(static_cast<std::uint32_t>(std::max(1, topology.max_route_links()))) {
  const auto channels = static_cast<std::size_t>(topology.node_count()) *
                        static_cast<std::size_t>(sockets_ == 1 ? 1 : sockets_ + 1);
  const auto resources = static_cast<std::size_t>(link_count_) + channels;
  MAPSIM_EXPECTS(resources <= static_cast<std::size_t>(std::numeric_limits<ResourceId>::max()),
                 "resource ids fit in 32 bits");
  bw_.resize(resources);
  lat_.resize(resources);
  for (topo::LinkId id = 0; id < link_count_; ++id) {
    const auto& params = links[topology.link(id).link_class];
    bw_[static_cast<std::size_t>(id)] = params.bandwidth;
    lat_[static_cast<std::size_t>(id)] = seconds_to_time(params.latency);
  }
  for (auto r = static_cast<std::size_t>(link_count_); r < resources; ++r) {
    const auto& params = links[node_channel(topology, static_cast<ResourceId>(r)).link_class];
    bw_[r] = params.bandwidth;
    lat_[r] = seconds_to_time(params.latency);
  }
  if (sockets_ > 1) socket_routes_.assign(channels, kUnknown);
  const auto nodes = topology.node_count();
  if (nodes <= kDenseNodes) {
    dense_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(nodes), kUnknown);
  }
  buffer_.reserve(static_cast<std::size_t>(topology.max_route_links()));
  other_.reserve(static_cast<std::size_t>(topology.max_route_links()));
}

const Route& Network::route(topo::NodeId a, topo::NodeId b) {
  if (!dense_.empty()) {
    const auto key =
        static_cast<std::size_t>(a) * static_cast<std::size_t>(topology_->node_count()) +
        static_cast<std::size_t>(b);
    if (dense_[key] == kUnknown) {
      compute(a, b);
      dense_[key] = static_cast<std::uint32_t>(routes_.size() - 1);
    }
    return routes_[dense_[key]];
  }
  const auto key = (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b);
  const auto [it, inserted] = sparse_.try_emplace(key, kUnknown);
  if (inserted) {
    compute(a, b);
    it->second = static_cast<std::uint32_t>(routes_.size() - 1);
  }
  return routes_[it->second];
}

NodeChannel node_channel(const topo::Topology& topology, ResourceId r) {
  const auto nodes = topology.node_count();
  const auto sockets = topology.sockets_per_node();
  const auto k = r - topology.link_count();
  MAPSIM_EXPECTS(k >= 0, "a channel resource, past the links");
  if (k < nodes) return {k, topo::LinkClass::IntraNode, 0};
  if (k < nodes * sockets) {
    const auto j = k - nodes;
    return {j / (sockets - 1), topo::LinkClass::IntraNode, j % (sockets - 1) + 1};
  }
  return {k - nodes * sockets, topo::LinkClass::InterSocket, 0};
}

const Route& Network::socket_route(topo::NodeId a, int a_socket, int b_socket) {
  const auto key = static_cast<std::size_t>(a) * static_cast<std::size_t>(sockets_ + 1) +
                   static_cast<std::size_t>(a_socket == b_socket ? a_socket : sockets_);
  if (socket_routes_[key] == kUnknown) {
    const auto channel =
        a_socket == b_socket ? intra_node_channel(a, a_socket) : inter_socket_channel(a);
    Route route;
    route.offset = static_cast<std::uint32_t>(resources_.size());
    route.length = 1;
    resources_.push_back(channel);
    route.latency = lat_[static_cast<std::size_t>(channel)];
    route.bandwidth = bw_[static_cast<std::size_t>(channel)];
    routes_.push_back(route);
    socket_routes_[key] = static_cast<std::uint32_t>(routes_.size() - 1);
  }
  return routes_[socket_routes_[key]];
}

const Route& Network::compute(topo::NodeId a, topo::NodeId b) {
  Route route;
  route.offset = static_cast<std::uint32_t>(resources_.size());
  if (a == b) {
    resources_.push_back(intra_node_channel(a));
  } else {
    topology_->route_into(a, b, buffer_);
    resources_.insert(resources_.end(), buffer_.begin(), buffer_.end());
  }
  route.length = static_cast<std::uint32_t>(resources_.size()) - route.offset;
  route.bandwidth = std::numeric_limits<double>::infinity();
  for (std::uint32_t i = 0; i < route.length; ++i) {
    const auto r = static_cast<std::size_t>(resources_[route.offset + i]);
    route.latency = add_time(route.latency, lat_[r]);
    route.bandwidth = std::min(route.bandwidth, bw_[r]);
  }
  routes_.push_back(route);
  return routes_.back();
}

namespace {

/// SplitMix64's finaliser: a 64-bit mix with full avalanche.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

Route Network::message_route(topo::NodeId a, topo::NodeId b, std::uint64_t ordinal,
                             const LinkLoads& loads, int socket_a, int socket_b) {
  if (routing_ == topo::Routing::Minimal || a == b) return route(a, b, socket_a, socket_b);
  const std::uint64_t choice = mix(seed_ ^ mix(ordinal));
  topology_->alternative_route_into(a, b, choice, other_);
  if (routing_ == topo::Routing::Ugal) {
    const Route& minimal = route(a, b);
    const auto path = resources(minimal);
    const double q_min = first_router_load(path, loads) * static_cast<double>(path.size());
    const double q_val = first_router_load(other_, loads) * static_cast<double>(other_.size());
    if (q_min <= q_val) return minimal;
  }
  return transient(a, other_);
}

double Network::first_router_load(std::span<const topo::LinkId> path,
                                  const LinkLoads& loads) const {
  for (const auto id : path) {
    if (topology_->is_router(topology_->link(id).from)) return loads.link_load(id);
  }
  return 0;
}

Route Network::transient(topo::NodeId a, std::span<const topo::LinkId> path) {
  std::uint32_t block = 0;
  if (free_blocks_.empty()) {
    block = static_cast<std::uint32_t>(transient_.size());
    MAPSIM_EXPECTS(block + block_ < Route::kTransient, "too many routes in flight");
    transient_.resize(transient_.size() + block_);
  } else {
    block = free_blocks_.back();
    free_blocks_.pop_back();
  }
  Route r;
  r.offset = block | Route::kTransient;
  MAPSIM_EXPECTS(path.size() <= block_, "a route longer than the machine's longest");
  std::copy(path.begin(), path.end(), transient_.begin() + block);
  r.length = static_cast<std::uint32_t>(path.size());
  if (path.empty()) {
    transient_[block] = intra_node_channel(a);
    r.length = 1;
  }
  r.bandwidth = std::numeric_limits<double>::infinity();
  for (const auto res : resources(r)) {
    r.latency = add_time(r.latency, lat_[static_cast<std::size_t>(res)]);
    r.bandwidth = std::min(r.bandwidth, bw_[static_cast<std::size_t>(res)]);
  }
  return r;
}

void Network::release(const Route& r) {
  if (r.transient()) free_blocks_.push_back(r.offset & ~Route::kTransient);
}

Time Network::free_time(topo::NodeId a, topo::NodeId b, std::int64_t bytes, int socket_a,
                        int socket_b) {
  const Route& r = route(a, b, socket_a, socket_b);
  return add_time(r.latency, transfer_time(static_cast<double>(bytes), r.bandwidth));
}

}  // namespace mapsim::sim
