#include "sim/FlowModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mapsim::sim {
namespace {

constexpr std::uint32_t kFlowDrained = kModelEvents;
constexpr std::uint32_t kResolve = kModelEvents + 1;
constexpr std::uint32_t kFlowJoins = kModelEvents + 2;

}  // namespace

FlowModel::FlowModel(Engine& engine, Network& network, const ModelOptions& options)
    : NetworkModel(engine, network, options),
      links_(static_cast<std::size_t>(network.resource_count())),
      route_block_(static_cast<std::size_t>(std::max(1, network.topology().max_route_links())) *
                   (options.reverse_traffic ? 2 : 1)),
      reverse_(options.reverse_traffic),
      weight_s_(options.weight_s) {}

void FlowModel::start(const Transfer& transfer) {
  const Route route = route_of(transfer);
  count_bytes(route, transfer.bytes);
  // In flight from the end of the sender's overheads (transfer.delay) for the route's latency.
  const Time latency = add_time(transfer.delay, factored_latency(route, transfer.bytes));
  if (transfer.bytes == 0) {
    engine_->schedule(add_time(engine_->now(), latency), kDelivery, transfer.id);
    network_->release(route);
    return;
  }
  const std::uint32_t id = flows_.acquire();
  Flow& flow = flows_[id];
  flow.route = route;
  // In bytes of link capacity: a bandwidth factor f moves f bytes per byte the links carry.
  const double factor = bandwidth_factor(transfer.bytes);
  flow.remaining = factor == 1.0 ? static_cast<double>(transfer.bytes)
                                 : static_cast<double>(transfer.bytes) / factor;
  flow.weight = 1.0 / penalty(route);
  flow.order = started_++;
  flow.transfer = transfer.id;
  flow.mark = epoch_;
  flow.src = transfer.src;
  flow.dst = transfer.dst;
  engine_->schedule(add_time(engine_->now(), latency), kFlowJoins, id);
}

double FlowModel::penalty(const Route& route) const {
  double ps = static_cast<double>(std::max<Time>(route.latency, 1));
  if (weight_s_ > 0) {
    for (const auto r : network_->resources(route)) {
      ps += weight_s_ / network_->bandwidth(r) * static_cast<double>(kPicosecondsPerSecond);
    }
  }
  return ps;
}

void FlowModel::join(std::uint32_t id) {
  Flow& flow = flows_[id];
  flow.updated = engine_->now();
  if (places_.size() < (id + 1) * route_block_) {
    places_.resize((id + 1) * route_block_);
    entry_links_.resize((id + 1) * route_block_);
    entry_shares_.resize((id + 1) * route_block_, 1.0);
  }
  std::uint32_t k = 0;
  const auto load = [&](ResourceId r, double share) {
    auto& list = links_[static_cast<std::size_t>(r)].flows;
    entry_links_[id * route_block_ + k] = r;
    entry_shares_[id * route_block_ + k] = share;
    places_[id * route_block_ + k] = static_cast<std::uint32_t>(list.size());
    list.push_back(Entry{id, k});
    ++k;
  };
  for (const auto r : network_->resources(flow.route)) load(r, 1.0);
  if (reverse_ && flow.src != flow.dst) {
    for (const auto r : network_->resources(network_->route(flow.dst, flow.src)))
      load(r, kReverseShare);
  }
  flow.links = k;
  touch(id);
}

void FlowModel::handle(const QueuedEvent& event) {
  if (event.kind == kFlowJoins) {
    join(event.data);
    return;
  }
  if (event.kind == kResolve) {
    resolve_queued_ = false;
    resolve();
    return;
  }
  MAPSIM_EXPECTS(event.kind == kFlowDrained, "unknown flow-model event");
  if (!armed_ || event.seq != armed_seq_) return;  // superseded by an earlier drain
  armed_ = false;
  drain_due();
  arm();
}

void FlowModel::touch(std::uint32_t flow) {
  for (const auto r : links_of(flow)) {
    auto& link = links_[static_cast<std::size_t>(r)];
    if (!link.dirty) {
      link.dirty = true;
      dirty_.push_back(r);
    }
  }
  if (!resolve_queued_) {
    resolve_queued_ = true;
    engine_->schedule(engine_->now(), kResolve, 0);
  }
}

void FlowModel::drain_due() {
  const Time now = engine_->now();
  while (!drains_.empty() && flows_[drains_.front()].drain <= now) {
    const std::uint32_t id = drains_.front();
    heap_erase(id);
    const Route route = flows_[id].route;
    engine_->schedule(now, kDelivery, flows_[id].transfer);
    const auto resources = links_of(id);
    for (std::size_t k = 0; k < resources.size(); ++k) {
      // Off the link's list in O(1): the last entry takes its place, and its place is updated.
      auto& list = links_[static_cast<std::size_t>(resources[k])].flows;
      const std::uint32_t at = places_[id * route_block_ + k];
      MAPSIM_EXPECTS(at < list.size() && list[at].flow == id, "a drained flow was not on its link");
      const Entry moved = list.back();
      list[at] = moved;
      list.pop_back();
      if (at < list.size()) places_[moved.flow * route_block_ + moved.k] = at;
    }
    touch(id);
    flows_.release(id);
    network_->release(route);
  }
}

void FlowModel::resolve() {
  ++epoch_;
  const Time now = engine_->now();
  stack_.clear();
  component_links_.clear();
  component_flows_.clear();
  for (const auto r : dirty_) {
    auto& link = links_[static_cast<std::size_t>(r)];
    link.dirty = false;
    if (link.mark != epoch_) {
      link.mark = epoch_;
      stack_.push_back(r);
    }
  }
  dirty_.clear();
  // The connected components of the dirty links in the flow/link sharing graph; each link is
  // reset for the solve as it is reached (its weights summed over its flows in list order).
  while (!stack_.empty()) {
    const ResourceId r = stack_.back();
    stack_.pop_back();
    component_links_.push_back(r);
    auto& link = links_[static_cast<std::size_t>(r)];
    link.residual = network_->bandwidth(r);
    link.unfixed = static_cast<std::uint32_t>(link.flows.size());
    double weights = 0;
    for (const auto [f, k] : link.flows) {
      Flow& flow = flows_[f];
      weights += reverse_ ? share_of(f, k) * flow.weight : flow.weight;
      if (flow.mark == epoch_) continue;
      flow.mark = epoch_;
      flow.fixed = false;
      component_flows_.push_back(f);
      for (const auto r2 : links_of(f)) {
        auto& link2 = links_[static_cast<std::size_t>(r2)];
        if (link2.mark != epoch_) {
          link2.mark = epoch_;
          stack_.push_back(r2);
        }
      }
    }
    link.weights = weights;
  }
  // Progressive filling: each round saturates the link with the smallest share per weight.
  std::size_t unfixed_flows = component_flows_.size();
  while (unfixed_flows > 0) {
    ResourceId bottleneck = -1;
    double share = std::numeric_limits<double>::infinity();
    for (const auto r : component_links_) {
      const auto& link = links_[static_cast<std::size_t>(r)];
      if (link.unfixed == 0) continue;
      const double s = link.residual / link.weights;
      if (s < share) {
        share = s;
        bottleneck = r;
      }
    }
    MAPSIM_EXPECTS(bottleneck >= 0, "unfixed flows but no link carries them");
    // Rounding may leave a link a hair below zero; never let a flow stall at rate 0.
    const double least = network_->bandwidth(bottleneck) * 1e-12;
    for (const auto [f, k] : links_[static_cast<std::size_t>(bottleneck)].flows) {
      Flow& flow = flows_[f];
      if (flow.fixed) continue;
      flow.fixed = true;
      --unfixed_flows;
      const double rate = std::max(share * flow.weight, least);
      const auto loaded = links_of(f);
      for (std::uint32_t j = 0; j < loaded.size(); ++j) {
        auto& link = links_[static_cast<std::size_t>(loaded[j])];
        if (reverse_) {
          const double c = share_of(f, j);
          link.residual -= c * rate;
          link.weights -= c * flow.weight;
        } else {
          link.residual -= rate;
          link.weights -= flow.weight;
        }
        --link.unfixed;
      }
      if (flow.rate == rate && flow.heap != kNotQueued) continue;  // drain time unchanged
      // Bytes moved at the old rate, then the drain time at the new one (rounded to the nearest
      // ps, so that a lone flow takes exactly transfer_time(n, bw)).
      flow.remaining = std::max(0.0, flow.remaining - flow.rate * to_seconds(now - flow.updated));
      flow.updated = now;
      flow.rate = rate;
      flow.drain = add_time(now, transfer_time(flow.remaining, rate));
      heap_set(f);
    }
  }
  arm();
}

void FlowModel::arm() {
  if (drains_.empty()) return;
  const Time next = flows_[drains_.front()].drain;
  if (armed_ && armed_at_ <= next) return;  // fires no later than needed; re-arms if early
  armed_seq_ = engine_->schedule(next, kFlowDrained, 0);
  armed_at_ = next;
  armed_ = true;
}

bool FlowModel::before(std::uint32_t a, std::uint32_t b) const {
  const Flow& fa = flows_[a];
  const Flow& fb = flows_[b];
  return fa.drain < fb.drain || (fa.drain == fb.drain && fa.order < fb.order);
}

void FlowModel::heap_place(std::size_t i, std::uint32_t flow) {
  drains_[i] = flow;
  flows_[flow].heap = static_cast<std::uint32_t>(i);
}

void FlowModel::sift_up(std::size_t i) {
  const std::uint32_t flow = drains_[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!before(flow, drains_[parent])) break;
    heap_place(i, drains_[parent]);
    i = parent;
  }
  heap_place(i, flow);
}

void FlowModel::sift_down(std::size_t i) {
  const std::uint32_t flow = drains_[i];
  const std::size_t n = drains_.size();
  for (;;) {
    std::size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && before(drains_[child + 1], drains_[child])) ++child;
    if (!before(drains_[child], flow)) break;
    heap_place(i, drains_[child]);
    i = child;
  }
  heap_place(i, flow);
}

void FlowModel::heap_set(std::uint32_t flow) {
  auto& pos = flows_[flow].heap;
  if (pos == kNotQueued) {
    drains_.push_back(flow);
    pos = static_cast<std::uint32_t>(drains_.size() - 1);
    sift_up(pos);
    return;
  }
  const std::size_t i = pos;
  sift_up(i);
  sift_down(flows_[flow].heap);
}

void FlowModel::heap_erase(std::uint32_t flow) {
  const std::size_t i = flows_[flow].heap;
  flows_[flow].heap = kNotQueued;
  const std::uint32_t last = drains_.back();
  drains_.pop_back();
  if (i == drains_.size()) return;
  heap_place(i, last);
  sift_up(i);
  sift_down(flows_[last].heap);
}

}  // namespace mapsim::sim
