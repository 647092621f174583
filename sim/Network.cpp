#include "sim/Network.hpp"

#include <algorithm>
#include <limits>

namespace mapsim::sim {
namespace {

constexpr std::uint32_t kUnknown = std::numeric_limits<std::uint32_t>::max();
// Machines up to this many nodes get a dense route table (4 bytes per ordered pair, 4 MiB).
constexpr topo::NodeId kDenseNodes = 1024;

}  // namespace

Network::Network(const topo::Topology& topology, const topo::LinkTable& links)
    : topology_(&topology), link_count_(topology.link_count()) {
  const auto resources = static_cast<std::size_t>(link_count_ + topology.node_count());
  bw_.resize(resources);
  lat_.resize(resources);
  for (topo::LinkId id = 0; id < link_count_; ++id) {
    const auto& params = links[topology.link(id).link_class];
    bw_[static_cast<std::size_t>(id)] = params.bandwidth;
    lat_[static_cast<std::size_t>(id)] = seconds_to_time(params.latency);
  }
  const auto& intra = links[topo::LinkClass::IntraNode];
  for (auto r = static_cast<std::size_t>(link_count_); r < resources; ++r) {
    bw_[r] = intra.bandwidth;
    lat_[r] = seconds_to_time(intra.latency);
  }
  const auto nodes = topology.node_count();
  if (nodes <= kDenseNodes) {
    dense_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(nodes), kUnknown);
  }
  buffer_.reserve(static_cast<std::size_t>(topology.max_route_links()));
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

Time Network::free_time(topo::NodeId a, topo::NodeId b, std::int64_t bytes) {
  const Route& r = route(a, b);
  return add_time(r.latency, transfer_time(static_cast<double>(bytes), r.bandwidth));
}

}  // namespace mapsim::sim
