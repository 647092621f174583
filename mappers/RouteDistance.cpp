#include "mappers/RouteDistance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "support/Error.hpp"

namespace mapsim::map {

RouteDistance::RouteDistance(const topo::Topology& topology, RouteWeight weight,
                             const topo::LinkTable& links)
    : topology_(&topology), weight_kind_(weight), nodes_(topology.node_count()) {
  weight_.resize(topo::kLinkClassCount);
  std::int64_t heaviest = 0;
  const auto present = topology.has_link_classes();
  for (const auto& info : topo::link_classes()) {
    const auto w = weight == RouteWeight::Energy
                       ? std::llround(links.energy(info.id).pj_per_bit * 1000)
                       : std::llround(links[info.id].latency * 1e12);
    weight_[static_cast<std::size_t>(info.id)] = w;
    // The bound needs the classes the machine has only (the intra-node channel: every machine).
    if (present[static_cast<std::size_t>(info.id)] || info.id == topo::LinkClass::IntraNode)
      heaviest = std::max<std::int64_t>(heaviest, w);
  }
  if (nodes_ <= kDenseNodes) {
    const auto n = static_cast<std::size_t>(nodes_);
    table_.resize(n * n);
    tbb::parallel_for(topo::NodeId{0}, nodes_, [&](topo::NodeId a) {
      for (topo::NodeId b = 0; b < nodes_; ++b)
        table_[static_cast<std::size_t>(a) * n + static_cast<std::size_t>(b)] = walk(a, b);
    });
    bound_ = *std::max_element(table_.begin(), table_.end());
  } else {
    bound_ = heaviest * std::max(1, topology.max_route_links());
  }
}

std::int64_t RouteDistance::walk(topo::NodeId a, topo::NodeId b) const {
  if (a == b) return weight_[static_cast<std::size_t>(topo::LinkClass::IntraNode)];
  thread_local std::vector<topo::LinkId> route;
  topology_->route_into(a, b, route);
  std::int64_t sum = 0;
  for (const auto l : route)
    sum += weight_[static_cast<std::size_t>(topology_->link(l).link_class)];
  return sum;
}

void RouteDistance::check_summable(const CommGraph& graph, std::string_view objective) const {
  const bool energy = weight_kind_ == RouteWeight::Energy;
  std::uint64_t bytes = 0;
  for (Rank r = 0; r < graph.rank_count(); ++r) bytes += graph.bytes(r);
  // graph.bytes counts each pair's bytes at both ends.
  bytes /= 2;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (bound_ > 0 && bytes > kMax / static_cast<std::uint64_t>(bound_)) {
    throw InputError(fmt::format(
        "objective={}: {} {} between ranks times up to {} {} along a route pass 2^63 - 1, the "
        "most the objective sums exactly; use objective=hop-bytes",
        objective.empty() ? (energy ? "energy" : "latency") : objective, bytes,
        energy ? "bytes" : "messages", bound_, energy ? "thousandths of a pJ per bit" : "ps"));
  }
}

}  // namespace mapsim::map
