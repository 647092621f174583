#include "sim/PlacementBound.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "topologies/TopologySpec.hpp"

namespace mapsim::sim {
namespace {

/// The cheapest of a set of channels: the smallest latency, the largest bandwidth.
struct Cheapest {
  Time latency = std::numeric_limits<Time>::max();
  double bandwidth = 0;

  void take(Time l, double bw) {
    latency = std::min(latency, l);
    bandwidth = std::max(bandwidth, bw);
  }
};

/// The cheapest network route between two distinct nodes can do no better (see the header).
Cheapest network_route(const topo::Topology& machine, const topo::LinkTable& links) {
  const topo::VertexId nodes = machine.node_count();
  const bool direct = machine.nodes_are_routers();
  Time leave = std::numeric_limits<Time>::max();
  Time enter = std::numeric_limits<Time>::max();
  Cheapest route;
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const topo::Link link = machine.link(id);
    const auto& params = links[link.link_class];
    const Time latency = seconds_to_time(params.latency);
    if (direct) {
      route.take(latency, params.bandwidth);
      continue;
    }
    if (link.from < nodes) {
      leave = std::min(leave, latency);
      route.bandwidth = std::max(route.bandwidth, params.bandwidth);
    }
    if (link.to < nodes) enter = std::min(enter, latency);
  }
  if (!direct && leave != std::numeric_limits<Time>::max() &&
      enter != std::numeric_limits<Time>::max()) {
    route.latency = add_time(leave, enter);
  }
  return route;
}

/// Term by term the least of two channels' costs; the gap dropped (see the header).
ChannelCosts least(const ChannelCosts& a, const ChannelCosts& b) {
  return {std::min(a.send, b.send), std::min(a.send_ns_per_byte, b.send_ns_per_byte),
          std::min(a.receive, b.receive), std::min(a.receive_ns_per_byte, b.receive_ns_per_byte),
          0};
}

}  // namespace

IdealMachine ideal_machine(const topo::Topology& machine, Rank ranks, const SimConfig& config) {
  if (config.model != "analytic" && config.model != "flow") {
    throw InputError(fmt::format(
        "the placement bound holds under the analytic and flow models, not '{}' (the packet "
        "model rounds each packet's time to the ps, so its replays can end just under it)",
        config.model));
  }
  if (ranks < 1) throw InputError(fmt::format("a placement bound needs ranks, got {}", ranks));
  // The channels two distinct ranks can take on this machine, and their costs.
  std::vector<Channel> channels;
  Cheapest cheapest;
  // (One node of one core holds no two ranks; any channel will do: its intra-node one.)
  const bool single = machine.node_count() == 1 && machine.sockets_per_node() == 1;
  if (machine.cores_per_socket() > 1 || single) {
    channels.push_back(Channel::IntraNode);
    const auto& p = config.links[topo::LinkClass::IntraNode];
    cheapest.take(seconds_to_time(p.latency), p.bandwidth);
  }
  if (machine.sockets_per_node() > 1) {
    channels.push_back(Channel::InterSocket);
    const auto& p = config.links[topo::LinkClass::InterSocket];
    cheapest.take(seconds_to_time(p.latency), p.bandwidth);
  }
  if (machine.node_count() > 1) {
    channels.push_back(Channel::Network);
    const Cheapest route = network_route(machine, config.links);
    cheapest.take(route.latency, route.bandwidth);
  }

  IdealMachine ideal;
  ideal.latency = cheapest.latency;
  ideal.bandwidth = cheapest.bandwidth;
  ideal.topology = topo::make_topology(fmt::format("fattree:1;{};1;1", ranks));
  ideal.mapping = topo::in_order_mapping(ranks, *ideal.topology);
  ideal.config = config;
  ideal.config.model = "analytic";
  ideal.config.critical_messages = false;
  // Two links per route (node, switch, node): L*/2 each, rounded down.
  const Time half = cheapest.latency / 2;
  ideal.config.links = config.links.with(
      topo::LinkClass::FtHost,
      {cheapest.bandwidth, static_cast<double>(half) / static_cast<double>(kPicosecondsPerSecond)});
  // A rank's messages to itself keep the intra-node channel's costs (its links entry is kept);
  // every other message takes the network channel of the ideal machine.
  ChannelCosts costs = config.overheads.of(channels.front());
  for (std::size_t i = 1; i < channels.size(); ++i) {
    costs = least(costs, config.overheads.of(channels[i]));
  }
  ideal.config.overheads.of(Channel::Network) = costs;
  return ideal;
}

Result placement_bound(const traces::Trace& trace, const topo::Topology& machine,
                       const SimConfig& config) {
  traces::TraceStreams streams(trace);
  return placement_bound(streams, machine, config);
}

Result placement_bound(traces::EventStreams& streams, const topo::Topology& machine,
                       const SimConfig& config) {
  const IdealMachine ideal = ideal_machine(machine, streams.rank_count(), config);
  return simulate(streams, *ideal.topology, ideal.mapping, ideal.config);
}

}  // namespace mapsim::sim
