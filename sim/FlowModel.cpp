#include "sim/FlowModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mapsim::sim {
namespace {

constexpr std::uint32_t kFlowDrained = kModelEvents;

}  // namespace

FlowModel::FlowModel(Engine& engine, Network& network)
    : NetworkModel(engine, network), links_(static_cast<std::size_t>(network.resource_count())) {}

void FlowModel::start(const Transfer& transfer) {
  const Route route = network_->route(transfer.src, transfer.dst);
  count_bytes(route, transfer.bytes);
  if (transfer.bytes == 0) {
    engine_->schedule(engine_->now() + route.latency, kDelivery, transfer.id);
    return;
  }
  const std::uint32_t id = flows_.acquire();
  Flow& flow = flows_[id];
  flow.route = route;
  flow.remaining = static_cast<double>(transfer.bytes);
  flow.updated = engine_->now();
  flow.transfer = transfer.id;
  flow.mark = epoch_;
  for (const auto r : network_->resources(route))
    links_[static_cast<std::size_t>(r)].flows.push_back(id);
  resolve(route);
}

void FlowModel::handle(const QueuedEvent& event) {
  MAPSIM_EXPECTS(event.kind == kFlowDrained, "unknown flow-model event");
  Flow& flow = flows_[event.data];
  if (!flow.scheduled || flow.event_seq != event.seq) return;  // superseded by a re-solve
  const Route route = flow.route;
  engine_->schedule(engine_->now() + route.latency, kDelivery, flow.transfer);
  flow.scheduled = false;
  for (const auto r : network_->resources(route)) {
    auto& list = links_[static_cast<std::size_t>(r)].flows;
    const auto it = std::find(list.begin(), list.end(), event.data);
    MAPSIM_EXPECTS(it != list.end(), "a drained flow was not on its link");
    *it = list.back();
    list.pop_back();
  }
  flows_.release(event.data);
  resolve(route);
}

void FlowModel::resolve(const Route& seed) {
  ++epoch_;
  const Time now = engine_->now();
  stack_.clear();
  component_links_.clear();
  component_flows_.clear();
  for (const auto r : network_->resources(seed)) {
    auto& link = links_[static_cast<std::size_t>(r)];
    if (link.mark != epoch_) {
      link.mark = epoch_;
      stack_.push_back(r);
    }
  }
  // The connected component of the seed's links in the flow/link sharing graph.
  while (!stack_.empty()) {
    const ResourceId r = stack_.back();
    stack_.pop_back();
    component_links_.push_back(r);
    for (const auto f : links_[static_cast<std::size_t>(r)].flows) {
      Flow& flow = flows_[f];
      if (flow.mark == epoch_) continue;
      flow.mark = epoch_;
      component_flows_.push_back(f);
      for (const auto r2 : network_->resources(flow.route)) {
        auto& link2 = links_[static_cast<std::size_t>(r2)];
        if (link2.mark != epoch_) {
          link2.mark = epoch_;
          stack_.push_back(r2);
        }
      }
    }
  }
  old_rates_.clear();
  for (const auto f : component_flows_) {
    Flow& flow = flows_[f];
    flow.remaining = std::max(0.0, flow.remaining - flow.rate * to_seconds(now - flow.updated));
    flow.updated = now;
    old_rates_.push_back(flow.rate);
    flow.fixed = false;
  }
  for (const auto r : component_links_) {
    auto& link = links_[static_cast<std::size_t>(r)];
    link.residual = network_->bandwidth(r);
    link.unfixed = static_cast<std::uint32_t>(link.flows.size());
  }
  // Progressive filling: each round saturates the link with the smallest fair share.
  std::size_t unfixed_flows = component_flows_.size();
  while (unfixed_flows > 0) {
    ResourceId bottleneck = -1;
    double share = std::numeric_limits<double>::infinity();
    for (const auto r : component_links_) {
      const auto& link = links_[static_cast<std::size_t>(r)];
      if (link.unfixed == 0) continue;
      const double s = link.residual / link.unfixed;
      if (s < share) {
        share = s;
        bottleneck = r;
      }
    }
    MAPSIM_EXPECTS(bottleneck >= 0, "unfixed flows but no link carries them");
    // Rounding may leave a link a hair below zero; never let a flow stall at rate 0.
    share = std::max(share, network_->bandwidth(bottleneck) * 1e-12);
    for (const auto f : links_[static_cast<std::size_t>(bottleneck)].flows) {
      Flow& flow = flows_[f];
      if (flow.fixed) continue;
      flow.fixed = true;
      flow.rate = share;
      --unfixed_flows;
      for (const auto r : network_->resources(flow.route)) {
        auto& link = links_[static_cast<std::size_t>(r)];
        link.residual -= share;
        --link.unfixed;
      }
    }
  }
  for (std::size_t i = 0; i < component_flows_.size(); ++i) {
    const auto f = component_flows_[i];
    if (!flows_[f].scheduled || flows_[f].rate != old_rates_[i]) reschedule(f);
  }
}

void FlowModel::reschedule(std::uint32_t id) {
  Flow& flow = flows_[id];
  // Rounded to the nearest ps so that a lone flow takes exactly transfer_time(n, bw).
  const Time drain = transfer_time(flow.remaining, flow.rate);
  flow.event_seq = engine_->schedule(engine_->now() + drain, kFlowDrained, id);
  flow.scheduled = true;
}

}  // namespace mapsim::sim
