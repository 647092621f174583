#include "sim/FlowModel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

namespace mapsim::sim {
namespace {

constexpr std::uint32_t kFlowDrained = kModelEvents;
constexpr std::uint32_t kResolve = kModelEvents + 1;
constexpr std::uint32_t kFlowJoins = kModelEvents + 2;
}  // namespace

FlowModel::FlowModel(Engine& engine, Network& network, const ModelOptions& options,
                     std::size_t scan_links, bool inline_resolves)
    : NetworkModel(engine, network, options),
      links_(static_cast<std::size_t>(network.resource_count())),
      uses_(links_.size()),
      route_block_(static_cast<std::size_t>(std::max(1, network.topology().max_route_links())) *
                   (options.reverse_traffic ? 2 : 1)),
      reverse_(options.reverse_traffic),
      weight_s_(options.weight_s),
      scan_links_(scan_links),
      inline_resolves_(inline_resolves) {
  // weight_s / bw_l of each link, in ps, as penalty() adds them.
  if (weight_s_ > 0) {
    weight_s_terms_.resize(links_.size());
    for (std::size_t r = 0; r < links_.size(); ++r) {
      weight_s_terms_[r] = weight_s_ / network.bandwidth(static_cast<ResourceId>(r)) *
                           static_cast<double>(kPicosecondsPerSecond);
    }
  }
  // Odd multipliers of the bundle key, one per position of a bundle's links (splitmix64).
  multipliers_.resize(route_block_);
  std::uint64_t state = 0;
  for (auto& m : multipliers_) {
    std::uint64_t z = state += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    m = (z ^ (z >> 31)) | 1;
  }
}

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
  flow.bytes = factor == 1.0 ? static_cast<double>(transfer.bytes)
                             : static_cast<double>(transfer.bytes) / factor;
  flow.weight = 1.0 / penalty(route);
  flow.order = started_++;
  flow.transfer = transfer.id;
  flow.src = transfer.src;
  flow.dst = transfer.dst;
  engine_->schedule(add_time(engine_->now(), latency), kFlowJoins, id);
}

double FlowModel::penalty(const Route& route) const {
  double ps = static_cast<double>(std::max<Time>(route.latency, 1));
  if (weight_s_ > 0) {
    for (const auto r : network_->resources(route))
      ps += weight_s_terms_[static_cast<std::size_t>(r)];
  }
  return ps;
}

void FlowModel::join(std::uint32_t id) {
  Flow& flow = flows_[id];
  // The route back first: computing it may move the cached routes' resources.
  const auto back = reverse_ && flow.src != flow.dst
                        ? network_->resources(network_->route(flow.dst, flow.src))
                        : std::span<const ResourceId>{};
  const auto route = network_->resources(flow.route);
  // A flow on exactly the links of a bundle alone there joins it where it is, off the lists.
  // Else a bundle alone on one of these links goes on its lists now, where it would have been
  // all along; on links that carried nothing (then no bundle of these links exists) the flow
  // forms one that stays off the lists until it must be on them.
  std::uint32_t b = route.empty() ? kNoBundle : uses_[static_cast<std::size_t>(route[0])].alone;
  if (b != kNoBundle && same_links(b, route, back, flow.weight)) {
    for (const auto r : links_of(b)) ++uses_[static_cast<std::size_t>(r)].streaming;
  } else {
    bool alone = true;
    for (const auto links : {route, back}) {
      for (const auto r : links) {
        Use& use = uses_[static_cast<std::size_t>(r)];
        if (use.alone != kNoBundle) list(use.alone);
        alone = ++use.streaming == 1 && alone;
      }
    }
    b = alone && inline_resolves_ ? unlisted_bundle(route, back, flow.weight)
                                  : bundle_for(route, back, flow.weight);
  }
  Bundle& bundle = bundles_[b];
  advance(bundle, engine_->now());
  flow.bytes += bundle.progress;  // from here on, the progress at which it drains
  flow.bundle = b;
  bundle.flows.push_back(id);
  std::push_heap(bundle.flows.begin(), bundle.flows.end(),
                 [this](std::uint32_t x, std::uint32_t y) { return drains_later(x, y); });
  ++bundle.count;
  // Streaming: the newcomer may drain first. A bundle re-solved at once (solve_alone) takes its
  // new place in the drain heap there, in one move.
  const bool streaming = bundle.heap != kNotQueued;
  if (streaming) bundle.drain = first_drain(bundle);
  if (!bundle.listed && !resolve_queued_ && solve_alone(b)) return;
  if (streaming) heap_set(b);
  touch(b);
}

bool FlowModel::same_links(std::uint32_t id, std::span<const ResourceId> route,
                           std::span<const ResourceId> back, double weight) const {
  const Bundle& bundle = bundles_[id];
  const auto have = links_of(id);
  return bundle.forward == route.size() && bundle.weight == weight &&
         have.size() == route.size() + back.size() &&
         std::equal(route.begin(), route.end(), have.begin()) &&
         std::equal(back.begin(), back.end(), have.begin() + bundle.forward);
}

void FlowModel::solve_alone_at_resolve(std::uint32_t id) {
  Bundle& bundle = bundles_[id];
  if (!bundle.alone_queued) {
    bundle.alone_queued = true;
    alone_.push_back(id);
  }
}

bool FlowModel::solve_alone(std::uint32_t id) {
  // When only the drain timer is due now, the re-solve would run at the end of the drain's
  // handling: the drain cannot change this bundle (none of its flows crosses these links), so the
  // rate is the same; what that re-solve does for links the drain touches it still does there.
  // A drain time of now would be the drain's to deliver: left to the re-solve.
  // A bundle in the drain heap (flows streaming) is not solved before the drain: the drain's
  // timer would be set from its new drain time, not from its old one as there.
  if (nothing_due_now()) return solve_alone(id, false);
  if (bundles_[id].heap != kNotQueued || !only_timer_due_now() || !solve_alone(id, true)) {
    return false;
  }
  resolve_queued_ = true;
  deferred_ = Deferred::AfterDrain;
  return true;
}

bool FlowModel::solve_alone(std::uint32_t id, bool before_drain) {
  // The re-solve that touch() would queue would run next, on the component of this bundle alone:
  // this is what it computes (rate_alone).
  const double alone = rate_alone(id);
  if (!(alone >= 0)) return false;  // resolve() reports it
  Bundle& bundle = bundles_[id];
  if (!before_drain) {  // as set_rate(), but a streaming bundle's drain is new (join)
    if (bundle.rate != alone || bundle.heap == kNotQueued) {
      advance(bundle, engine_->now());
      bundle.rate = alone;
      bundle.drain = first_drain(bundle);
    }
    heap_set(id);
    arm();
    return true;
  }
  advance(bundle, engine_->now());
  const double rate = bundle.rate;
  bundle.rate = alone;
  bundle.drain = first_drain(bundle);
  if (bundle.drain <= engine_->now()) {
    bundle.rate = rate;
    bundle.drain = 0;
    return false;
  }
  heap_set(id);
  arm();
  return true;
}

double FlowModel::rate_alone(std::uint32_t id) const {
  // What a re-solve of the component of this bundle alone computes: each link's share is
  // residual / weights, summed as there; the first smallest share in the order the component
  // search reaches the links (the reverse of the bundle's: it pops them off a stack) is the
  // bottleneck.
  const Bundle& bundle = bundles_[id];
  const auto links = links_of(id);
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  // Within the route's links, and within the route back's, every link weighs the same,
  // c * w * count, and division is monotonic: the smallest share is the narrowest link's, found
  // with one division per group. The search visits the route back first and takes a later link
  // only if its share is smaller. (A wider link whose share rounds to the same value could come
  // first in that order; the bottleneck's only use, the floor of 10^-12 of its bandwidth, is far
  // below either's share times w.)
  double share = kInfinity;
  double bottleneck = 0;  // its bandwidth
  const auto narrowest = [&](std::span<const ResourceId> group, double c) {
    if (group.empty()) return;
    double bw = kInfinity;
    for (const auto r : group) bw = std::min(bw, network_->bandwidth(r));
    double weights = 0;
    weights += c * bundle.weight * bundle.count;
    const double s = share_of(bw, weights);
    if (s < share) {
      share = s;
      bottleneck = bw;
    }
  };
  narrowest(links.subspan(bundle.forward), kReverseShare);
  narrowest(links.first(bundle.forward), 1.0);
  if (!(share < kInfinity)) return std::numeric_limits<double>::quiet_NaN();
  return std::max(share * bundle.weight, bottleneck * 1e-12);
}

void FlowModel::set_rate(std::uint32_t id, double rate) {
  Bundle& bundle = bundles_[id];
  if (bundle.rate == rate && bundle.heap != kNotQueued) return;  // drain time unchanged
  advance(bundle, engine_->now());                               // the bytes moved at the old rate
  bundle.rate = rate;
  bundle.drain = first_drain(bundle);
  heap_set(id);
}

std::uint64_t FlowModel::key_of(std::span<const ResourceId> route, std::span<const ResourceId> back,
                                double weight) const {
  // A sum of independent products, one multiplier per position (no chain of dependent
  // multiplications, as in FNV-1a), with the split and the weight's bits, then avalanched.
  std::uint64_t bits = 0;
  static_assert(sizeof bits == sizeof weight);
  std::memcpy(&bits, &weight, sizeof bits);
  std::uint64_t sum =
      (bits ^ (static_cast<std::uint64_t>(route.size()) << 56)) * 0xD6E8FEB86659FD93ull;
  const std::uint64_t* m = multipliers_.data();
  for (const auto r : route) sum += (static_cast<std::uint64_t>(r) + 1) * *m++;
  for (const auto r : back) sum += (static_cast<std::uint64_t>(r) + 1) * *m++;
  sum ^= sum >> 32;
  sum *= 0xD6E8FEB86659FD93ull;
  return sum ^ (sum >> 32);
}

std::uint32_t FlowModel::bundle_for(std::span<const ResourceId> route,
                                    std::span<const ResourceId> back, double weight) {
  const std::uint64_t key = key_of(route, back, weight);
  const auto forward = static_cast<std::uint32_t>(route.size());
  const auto found = by_key_.find(key);
  if (found) {
    const Bundle& b = bundles_[*found];
    const auto have = links_of(*found);
    if (b.forward == forward && b.weight == weight && have.size() == route.size() + back.size() &&
        std::equal(route.begin(), route.end(), have.begin()) &&
        std::equal(back.begin(), back.end(), have.begin() + forward)) {
      return *found;
    }
  }
  const std::uint32_t id = new_bundle(route, back, weight);
  Bundle& bundle = bundles_[id];
  bundle.key = key;
  bundle.mapped = !found;  // a rare hash collision: a bundle not in by_key_
  if (bundle.mapped) by_key_.insert(key, id);
  enter_lists(id);
  return id;
}

std::uint32_t FlowModel::unlisted_bundle(std::span<const ResourceId> route,
                                         std::span<const ResourceId> back, double weight) {
  const std::uint32_t id = new_bundle(route, back, weight);
  for (const auto r : links_of(id)) uses_[static_cast<std::size_t>(r)].alone = id;
  return id;
}

std::uint32_t FlowModel::new_bundle(std::span<const ResourceId> route,
                                    std::span<const ResourceId> back, double weight) {
  std::uint32_t id = 0;
  if (free_bundles_.empty()) {
    id = static_cast<std::uint32_t>(bundles_.size());
    bundles_.emplace_back();
    places_.resize(bundles_.size() * route_block_);
    entry_links_.resize(bundles_.size() * route_block_);
  } else {
    id = free_bundles_.back();
    free_bundles_.pop_back();
  }
  Bundle& bundle = bundles_[id];
  bundle.progress = 0;
  bundle.rate = 0;
  bundle.weight = weight;
  bundle.updated = engine_->now();
  bundle.drain = 0;
  bundle.key = 0;
  bundle.count = 0;
  bundle.mark = epoch_;
  bundle.heap = kNotQueued;
  bundle.links = static_cast<std::uint32_t>(route.size() + back.size());
  bundle.forward = static_cast<std::uint32_t>(route.size());
  bundle.fixed = false;
  bundle.mapped = false;
  bundle.listed = false;
  bundle.alone_queued = false;
  ResourceId* const links = entry_links_.data() + id * route_block_;
  std::copy(back.begin(), back.end(), std::copy(route.begin(), route.end(), links));
  return id;
}

void FlowModel::list(std::uint32_t id) {
  Bundle& bundle = bundles_[id];
  const auto links = links_of(id);
  bundle.key = key_of(links.first(bundle.forward), links.subspan(bundle.forward), bundle.weight);
  bundle.mapped = !by_key_.find(bundle.key);
  if (bundle.mapped) by_key_.insert(bundle.key, id);
  for (const auto r : links) uses_[static_cast<std::size_t>(r)].alone = kNoBundle;
  enter_lists(id);
}

bool FlowModel::alone_on_links(std::uint32_t id) const {
  for (const auto r : links_of(id)) {
    if (links_[static_cast<std::size_t>(r)].bundles.size() != 1) return false;
  }
  return true;
}

void FlowModel::unlist(std::uint32_t id) {
  Bundle& bundle = bundles_[id];
  leave_lists(id);
  if (bundle.mapped) by_key_.erase(bundle.key);
  bundle.mapped = false;
  bundle.listed = false;
  for (const auto r : links_of(id)) uses_[static_cast<std::size_t>(r)].alone = id;
}

void FlowModel::enter_lists(std::uint32_t id) {
  bundles_[id].listed = true;
  const auto links = links_of(id);
  for (std::uint32_t k = 0; k < links.size(); ++k) {
    auto& list = links_[static_cast<std::size_t>(links[k])].bundles;
    places_[id * route_block_ + k] = static_cast<std::uint32_t>(list.size());
    list.push_back(Entry{id, k});
  }
}

void FlowModel::dissolve(std::uint32_t id) {
  Bundle& bundle = bundles_[id];
  const auto resources = links_of(id);
  if (!bundle.listed) {
    for (const auto r : resources) uses_[static_cast<std::size_t>(r)].alone = kNoBundle;
  } else {
    leave_lists(id);
    // A bundle left alone on all its links is its component from now on: off the lists, to be
    // solved alone by the re-solve this bundle's last drain queued (its links are dirty).
    for (const auto r : resources) {
      const auto& left = links_[static_cast<std::size_t>(r)].bundles;
      if (inline_resolves_ && left.size() == 1 && alone_on_links(left.front().bundle)) {
        const std::uint32_t other = left.front().bundle;
        unlist(other);
        solve_alone_at_resolve(other);
      }
    }
  }
  if (bundle.mapped) by_key_.erase(bundle.key);
  bundle.links = 0;
  bundle.alone_queued = false;
  free_bundles_.push_back(id);
}

void FlowModel::leave_lists(std::uint32_t id) {
  const auto resources = links_of(id);
  for (std::size_t k = 0; k < resources.size(); ++k) {
    // Off the link's list in O(1): the last entry takes its place, and its place is updated.
    auto& list = links_[static_cast<std::size_t>(resources[k])].bundles;
    const std::uint32_t at = places_[id * route_block_ + k];
    MAPSIM_EXPECTS(at < list.size() && list[at].bundle == id,
                   "an emptied bundle was not on its link");
    const Entry moved = list.back();
    list[at] = moved;
    list.pop_back();
    if (at < list.size()) places_[moved.bundle * route_block_ + moved.k] = at;
  }
}

void FlowModel::advance(Bundle& bundle, Time now) const {
  if (bundle.rate > 0 && now > bundle.updated) {
    bundle.progress += bundle.rate * to_seconds(now - bundle.updated);
  }
  bundle.updated = now;
}

Time FlowModel::first_drain(const Bundle& bundle) const {
  // Rounded to the nearest ps, so that a lone flow takes exactly transfer_time(n, bw).
  const double left = std::max(0.0, flows_[bundle.flows.front()].bytes - bundle.progress);
  return add_time(bundle.updated, transfer_time(left, bundle.rate));
}

void FlowModel::handle(const QueuedEvent& event) {
  if (event.kind == kFlowJoins) {
    join(event.data);
  } else if (event.kind == kResolve) {
    resolve_queued_ = false;
    resolve();
    return;
  } else {
    MAPSIM_EXPECTS(event.kind == kFlowDrained, "unknown flow-model event");
    if (armed_ && event.seq == armed_seq_) {  // else superseded by an earlier drain
      armed_ = false;
      drain_due();
      arm();
    }
    if (deferred_ == Deferred::AfterDrain) deferred_ = Deferred::AfterThis;
  }
  if (deferred_ == Deferred::AfterThis) {  // the re-solve that would have been the next event
    deferred_ = Deferred::None;
    resolve_queued_ = false;
    resolve();
  }
}

void FlowModel::mark_dirty(std::uint32_t bundle) {
  for (const auto r : links_of(bundle)) {
    auto& link = links_[static_cast<std::size_t>(r)];
    if (!link.dirty) {
      link.dirty = true;
      dirty_.push_back(r);
    }
  }
}

void FlowModel::touch(std::uint32_t bundle) {
  // An unlisted bundle is alone on its links: whenever the queued re-solve runs this picosecond,
  // and whatever else it solves, it solves that bundle's component, the bundle alone, as
  // rate_alone does; it does that instead of a component search. If a flow crosses one of these
  // links before then, it lists the bundle (its links already marked dirty) and the re-solve
  // solves the two as a component.
  mark_dirty(bundle);
  if (!bundles_[bundle].listed) solve_alone_at_resolve(bundle);
  queue_resolve();
}

void FlowModel::queue_resolve() {
  if (!resolve_queued_) {
    resolve_queued_ = true;
    // A re-solve queued now would run next when nothing else is due now (after this event), or
    // when only the drain timer is (after the drain's handling): then it runs there, without an
    // event. Events scheduled meanwhile would queue behind it either way.
    if (inline_resolves_ && nothing_due_now()) {
      deferred_ = Deferred::AfterThis;
    } else if (inline_resolves_ && only_timer_due_now()) {
      deferred_ = Deferred::AfterDrain;
    } else {
      engine_->schedule(engine_->now(), kResolve, 0);
    }
  }
}

void FlowModel::drain_due() {
  const Time now = engine_->now();
  const auto later = [this](std::uint32_t x, std::uint32_t y) { return drains_later(x, y); };
  // The flows due now, bundle by bundle (each bundle's together: the order they are taken in
  // decides nothing); delivered below in the order they started.
  due_.clear();
  while (!drains_.empty() && drains_.front().drain <= now) {
    const std::uint32_t b = drains_.front().bundle;
    Bundle& bundle = bundles_[b];
    do {
      std::pop_heap(bundle.flows.begin(), bundle.flows.end(), later);
      due_.push_back(bundle.flows.back());
      bundle.flows.pop_back();
    } while (!bundle.flows.empty() && (bundle.drain = first_drain(bundle)) <= now);
    if (bundle.flows.empty()) {
      heap_erase(b);
    } else {
      heap_set(b);
    }
  }
  std::sort(due_.begin(), due_.end(),
            [this](std::uint32_t x, std::uint32_t y) { return flows_[x].order < flows_[y].order; });
  for (const auto id : due_) {
    const Flow& flow = flows_[id];
    const std::uint32_t b = flow.bundle;
    if (inline_resolves_) {
      deliver_now(flow.transfer);
    } else {
      engine_->schedule(now, kDelivery, flow.transfer);
    }
    bool shared = false;
    for (const auto r : links_of(b)) {
      shared = --uses_[static_cast<std::size_t>(r)].streaming > 0 || shared;
    }
    // A flow whose links carry nothing else once it is gone leaves every other rate as it is:
    // no re-solve (the solve of those links alone would find no flow). Flows left in a bundle
    // alone on its links are its component.
    if (shared) touch(b);
    if (--bundles_[b].count == 0) dissolve(b);
    network_->release(flow.route);
    flows_.release(id);
  }
}

void FlowModel::resolve() {
  // Bundles still alone on their links (touch) are their components. One listed
  // since is solved below with its component, as is one that no link limits (reported there).
  for (const auto b : alone_) {
    Bundle& bundle = bundles_[b];
    if (!bundle.alone_queued) continue;  // dissolved since
    bundle.alone_queued = false;
    if (bundle.listed) continue;
    const double rate = rate_alone(b);
    if (rate >= 0) {
      set_rate(b, rate);
    } else {
      list(b);
    }
  }
  alone_.clear();
  if (dirty_.empty()) {  // a drain's re-solve left to after it that the drain gave nothing to do
    arm();
    return;
  }
  ++epoch_;
  stack_.clear();
  component_links_.clear();
  component_bundles_.clear();
  for (const auto r : dirty_) {
    auto& link = links_[static_cast<std::size_t>(r)];
    link.dirty = false;
    // A link an unlisted bundle is alone on: that bundle is its component, solved above.
    if (uses_[static_cast<std::size_t>(r)].alone != kNoBundle) continue;
    if (link.mark != epoch_) {
      link.mark = epoch_;
      stack_.push_back(r);
    }
  }
  dirty_.clear();
  // The connected components of the dirty links in the bundle/link sharing graph; each link is
  // reset for the solve as it is reached (its weights summed over its bundles in list order).
  while (!stack_.empty()) {
    const ResourceId r = stack_.back();
    stack_.pop_back();
    component_links_.push_back(r);
    auto& link = links_[static_cast<std::size_t>(r)];
    link.residual = network_->bandwidth(r);
    link.unfixed = static_cast<std::uint32_t>(link.bundles.size());
    double weights = 0;
    for (const auto [b, k] : link.bundles) {
      Bundle& bundle = bundles_[b];
      weights += share_of(b, k) * bundle.weight * bundle.count;
      if (bundle.mark == epoch_) continue;
      bundle.mark = epoch_;
      bundle.fixed = false;
      component_bundles_.push_back(b);
      for (const auto r2 : links_of(b)) {
        auto& link2 = links_[static_cast<std::size_t>(r2)];
        if (link2.mark != epoch_) {
          link2.mark = epoch_;
          stack_.push_back(r2);
        }
      }
    }
    link.weights = weights;
  }
  // Progressive filling: each round saturates the link with the smallest share per weight (the
  // first in component order among equal ones). Each link's share is kept by component index
  // (a link without unfixed bundles has none) and refreshed as the rounds change the link; small
  // components find the smallest by a scan of them, large ones in blocks with their least
  // (LeastShare). Both choose the same link.
  const bool blocked = component_links_.size() > scan_links_;
  constexpr double kNoShare = std::numeric_limits<double>::infinity();
  // Padded to whole blocks: the scan reads them in order.
  shares_.assign((component_links_.size() + kShareBlock - 1) / kShareBlock * kShareBlock, kNoShare);
  for (std::uint32_t i = 0; i < component_links_.size(); ++i) {
    auto& link = links_[static_cast<std::size_t>(component_links_[i])];
    link.index = i;
    if (link.unfixed > 0) shares_[i] = share_of(link);
  }
  if (blocked) least_share_.assign(std::span<const double>(shares_).first(component_links_.size()));
  std::size_t unfixed_bundles = component_bundles_.size();
  while (unfixed_bundles > 0) {
    const std::size_t at = blocked ? least_share_.least() : first_least(shares_);
    MAPSIM_EXPECTS(at < component_links_.size(), "unfixed flows but no link carries them");
    const double share = blocked ? least_share_.value(at) : shares_[at];
    const ResourceId bottleneck = component_links_[at];
    // Rounding may leave a link a hair below zero; never let a flow stall at rate 0.
    const double least = network_->bandwidth(bottleneck) * 1e-12;
    for (const auto [b, k] : links_[static_cast<std::size_t>(bottleneck)].bundles) {
      Bundle& bundle = bundles_[b];
      if (bundle.fixed) continue;
      bundle.fixed = true;
      --unfixed_bundles;
      const double rate = std::max(share * bundle.weight, least);
      const auto loaded = links_of(b);
      for (std::uint32_t j = 0; j < loaded.size(); ++j) {
        auto& link = links_[static_cast<std::size_t>(loaded[j])];
        const double c = share_of(b, j) * bundle.count;
        link.residual -= c * rate;
        link.weights -= c * bundle.weight;
        --link.unfixed;
        const double now = link.unfixed > 0 ? share_of(link) : kNoShare;
        if (blocked) {
          least_share_.set(link.index, now);
        } else {
          shares_[link.index] = now;
        }
      }
      set_rate(b, rate);
    }
  }
  arm();
}

void FlowModel::arm() {
  if (drains_.empty()) return;
  const Time next = drains_.front().drain;
  if (armed_ && armed_at_ <= next) return;  // fires no later than needed; re-arms if early
  armed_seq_ = engine_->set_timer(next, kFlowDrained, 0);
  armed_at_ = next;
  armed_ = true;
}

bool FlowModel::drains_later(std::uint32_t a, std::uint32_t b) const {
  const Flow& fa = flows_[a];
  const Flow& fb = flows_[b];
  return fa.bytes > fb.bytes || (fa.bytes == fb.bytes && fa.order > fb.order);
}

void FlowModel::heap_place(std::size_t i, const Due& due) {
  drains_[i] = due;
  bundles_[due.bundle].heap = static_cast<std::uint32_t>(i);
}

void FlowModel::sift_up(std::size_t i, const Due& due) {
  const OrderKey key = due_key(due);
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!(key < due_key(drains_[parent]))) break;
    heap_place(i, drains_[parent]);
    i = parent;
  }
  heap_place(i, due);
}

void FlowModel::sift_down(std::size_t i, const Due& due) {
  const OrderKey key = due_key(due);
  const std::size_t n = drains_.size();
  for (;;) {
    const std::size_t first = kArity * i + 1;
    if (first >= n) break;
    const auto [best, least] = least_of(drains_, first, std::min(first + kArity, n), due_key);
    if (!(least < key)) break;
    heap_place(i, drains_[best]);
    i = best;
  }
  heap_place(i, due);
}

void FlowModel::heap_move(std::size_t i, const Due& due) {
  if (i > 0 && due_key(due) < due_key(drains_[(i - 1) / kArity])) {
    sift_up(i, due);
  } else {
    sift_down(i, due);
  }
}

void FlowModel::heap_set(std::uint32_t id) {
  const Bundle& bundle = bundles_[id];
  const Due due{bundle.drain, flows_[bundle.flows.front()].order, id};
  if (bundle.heap == kNotQueued) {
    drains_.push_back(due);
    sift_up(drains_.size() - 1, due);
  } else {
    heap_move(bundle.heap, due);
  }
}

void FlowModel::heap_erase(std::uint32_t id) {
  const std::size_t i = bundles_[id].heap;
  bundles_[id].heap = kNotQueued;
  const Due last = drains_.back();
  drains_.pop_back();
  if (i < drains_.size()) heap_move(i, last);
}

}  // namespace mapsim::sim
