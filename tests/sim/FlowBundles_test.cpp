// The flow model's bundles (sim/FlowModel.hpp): flows of one route and weight stream as one
// bundle with a shared progress P(t); a flow of n bytes joining at P(t_j) drains when P reaches
// P(t_j) + n, and flows due at one picosecond are delivered in start order.
//
// Hand-solved cases go through the replay with round links (grid links 1 GB/s = 1 byte per ns,
// 100 ns; SimTestSupport.hpp). The random cases drive the model directly and compare every
// delivery with a per-flow reference fluid simulator written here, which knows nothing of
// bundles: it recomputes the weighted max-min rates of all flows by progressive filling at every
// event, in double-precision seconds (drains on the engine's picosecond clock).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "RandomExchange.hpp"
#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/Engine.hpp"
#include "sim/FlowModel.hpp"
#include "sim/Network.hpp"
#include "sim/NetworkModel.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;

/// A delivery time agrees with the reference within this many picoseconds, or this relative
/// error if larger: both round drains to the picosecond, but from progress summed differently
/// (per bundle, per flow), so a drain may land a picosecond apart and shift the flows after it.
constexpr double kTolerancePs = 10;
constexpr double kRelativeTolerance = 1e-9;

sim::SimConfig eager_flow_config() {
  auto config = round_config("flow");
  config.eager_threshold = 1 << 30;  // every message eager: the data leaves at once
  return config;
}

// ---------------------------------------------------------------------------------------------
// Driving the model directly.

/// One transfer of a random or hand-made instance.
struct Xfer {
  topo::NodeId src = 0;
  topo::NodeId dst = 0;
  std::int64_t bytes = 0;
  Time start = 0;           // when start() is called (after >= 0: this long after that delivery)
  Time delay = 0;           // Transfer::delay: it enters the network this long after its start
  std::int32_t after = -1;  // the transfer whose delivery starts this one, as a reply
};

struct Delivery {
  std::uint32_t id = 0;
  Time at = 0;
};

/// Starts transfer i (its id) at xs[i].start, in index order among equal starts, or xs[i].start
/// after transfer xs[i].after is delivered, and returns the deliveries in the order the engine ran
/// them. Precondition: starts are non-decreasing.
/// `scan_links` and `inline_resolves`: FlowModel's constructor's, by default as make_network_model
/// builds it. `events`, if given, receives the number of engine events processed.
std::vector<Delivery> run_flow_model(const topo::Topology& topology, const topo::LinkTable& links,
                                     std::span<const Xfer> xs, const sim::ModelOptions& options,
                                     std::size_t scan_links = sim::FlowModel::kScanLinks,
                                     bool inline_resolves = true, std::uint64_t* events = nullptr) {
  sim::Engine engine;
  sim::Network network(topology, links);
  const auto model =
      std::make_unique<sim::FlowModel>(engine, network, options, scan_links, inline_resolves);
  std::vector<std::vector<std::uint32_t>> replies(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].after < 0) {
      engine.schedule(xs[i].start, sim::kInject, static_cast<std::uint32_t>(i));
    } else {
      replies[static_cast<std::size_t>(xs[i].after)].push_back(static_cast<std::uint32_t>(i));
    }
  }
  std::vector<Delivery> deliveries;
  const auto deliver = [&](std::uint32_t id) {
    deliveries.push_back(Delivery{id, engine.now()});
    for (const auto reply : replies[id]) {
      const Xfer& x = xs[reply];
      if (x.start > 0) {
        engine.schedule(engine.now() + x.start, sim::kInject, reply);
      } else {  // within the delivery's handling, as a replay's resumed rank sends
        model->start(sim::Transfer{
            .id = reply, .src = x.src, .dst = x.dst, .bytes = x.bytes, .delay = x.delay});
      }
    }
  };
  sim::QueuedEvent event;
  while (engine.next(event)) {
    switch (event.kind) {
      case sim::kInject: {
        const Xfer& x = xs[event.data];
        model->start(sim::Transfer{
            .id = event.data, .src = x.src, .dst = x.dst, .bytes = x.bytes, .delay = x.delay});
        break;
      }
      case sim::kDelivery:
        deliver(event.data);
        break;
      default:
        model->handle(event);
        // A delivery that would have been the next event, handled as the replay does.
        if (const auto id = model->take_delivery(); id != sim::NetworkModel::kNoDelivery)
          deliver(id);
    }
  }
  if (events != nullptr) *events = engine.processed();
  return deliveries;
}

// ---------------------------------------------------------------------------------------------
// The reference: per flow, no bundles, no batching, no incremental solve.

/// `seconds` rounded to the nearest picosecond.
double on_clock(double seconds) {
  return std::round(seconds * 1e12) * 1e-12;
}

/// Delivery time of every transfer in picoseconds (as a double), by a fluid simulation of each
/// flow on its own: a transfer enters the network at start + delay, spends its route's latency
/// in flight, then streams; between two events (a join or a drain) the rates are constant and
/// are the weighted max-min allocation found by progressive filling with weight
/// 1 / (max(latency ps, 1) + sum_l weight_s / bw_l ps) and, with reverse traffic, load
/// kReverseShare r_f on every link of route(dst, src). A zero-byte transfer takes the latency.
/// Bytes and rates are doubles; a drain happens at its time rounded to the nearest picosecond,
/// as on the engine's clock (the model rounds the same way). Without that rounding the exact
/// fluid times differ from the model's by up to ~8 ps on these instances: a drain half a
/// picosecond early or late shifts the others' bytes, which a flow slowed down later turns into
/// several picoseconds. With it they agree within 2 ps.
std::vector<double> reference_delivery_ps(const topo::Topology& topology,
                                          const topo::LinkTable& links, std::span<const Xfer> xs,
                                          const sim::ModelOptions& options) {
  sim::Network network(topology, links);
  struct Load {
    sim::ResourceId link;
    double c;
  };
  const std::size_t n = xs.size();
  std::vector<double> finish(n, -1);
  std::vector<std::vector<Load>> loads(n);
  std::vector<double> weight(n, 0);
  std::vector<double> left(n, 0);
  std::vector<double> join(n, 0);  // seconds
  std::vector<std::size_t> waiting;
  for (std::size_t i = 0; i < n; ++i) {
    const Xfer& x = xs[i];
    const sim::Route route = network.route(x.src, x.dst);  // a copy: the cache may grow
    const double arrive_ps = static_cast<double>(x.start + x.delay + route.latency);
    if (x.bytes == 0) {
      finish[i] = arrive_ps;
      continue;
    }
    double penalty = static_cast<double>(std::max<Time>(route.latency, 1));
    for (const auto r : network.resources(route)) {
      loads[i].push_back(Load{r, 1.0});
      penalty += options.weight_s / network.bandwidth(r) * 1e12;
    }
    if (options.reverse_traffic) {
      const sim::Route back = network.route(x.dst, x.src);
      for (const auto r : network.resources(back)) loads[i].push_back(Load{r, sim::kReverseShare});
    }
    weight[i] = 1.0 / penalty;
    left[i] = static_cast<double>(x.bytes);
    join[i] = arrive_ps * 1e-12;
    waiting.push_back(i);
  }

  const auto resources = static_cast<std::size_t>(network.resource_count());
  std::vector<char> active(n, 0);
  std::vector<double> rate(n, 0);
  std::vector<double> residual(resources);
  std::vector<double> weights(resources);
  std::vector<char> fixed(n);
  double now = 0;
  for (;;) {
    std::erase_if(waiting, [&](std::size_t i) {
      if (join[i] > now) return false;
      active[i] = 1;
      return true;
    });
    // Progressive filling over the active flows.
    for (std::size_t l = 0; l < resources; ++l)
      residual[l] = network.bandwidth(static_cast<sim::ResourceId>(l));
    std::size_t unfixed = 0;
    for (std::size_t f = 0; f < n; ++f) {
      fixed[f] = active[f] ? 0 : 1;
      if (active[f]) ++unfixed;
    }
    while (unfixed > 0) {
      std::fill(weights.begin(), weights.end(), 0.0);
      for (std::size_t f = 0; f < n; ++f) {
        if (fixed[f]) continue;
        for (const auto [l, c] : loads[f]) weights[static_cast<std::size_t>(l)] += c * weight[f];
      }
      double share = std::numeric_limits<double>::infinity();
      sim::ResourceId bottleneck = -1;
      for (std::size_t l = 0; l < resources; ++l) {
        if (weights[l] > 0 && residual[l] / weights[l] < share) {
          share = residual[l] / weights[l];
          bottleneck = static_cast<sim::ResourceId>(l);
        }
      }
      EXPECT_GE(bottleneck, 0) << "reference: unfixed flows on no link";
      if (bottleneck < 0) return finish;
      for (std::size_t f = 0; f < n; ++f) {
        if (fixed[f]) continue;
        const bool crosses = std::any_of(loads[f].begin(), loads[f].end(),
                                         [&](const Load& load) { return load.link == bottleneck; });
        if (!crosses) continue;
        fixed[f] = 1;
        --unfixed;
        rate[f] = share * weight[f];
        for (const auto [l, c] : loads[f]) residual[static_cast<std::size_t>(l)] -= c * rate[f];
      }
    }
    // The next event: a join or a drain.
    double next = std::numeric_limits<double>::infinity();
    for (const auto i : waiting) next = std::min(next, join[i]);
    for (std::size_t f = 0; f < n; ++f) {
      if (active[f]) next = std::min(next, on_clock(now + left[f] / rate[f]));
    }
    if (next == std::numeric_limits<double>::infinity()) break;
    for (std::size_t f = 0; f < n; ++f) {
      if (!active[f]) continue;
      const double drain = on_clock(now + left[f] / rate[f]);
      left[f] -= rate[f] * (next - now);
      if (drain <= next) {
        active[f] = 0;
        finish[f] = next * 1e12;
      }
    }
    now = next;
  }
  return finish;
}

// ---------------------------------------------------------------------------------------------
// Random instances.

struct Instance {
  std::string spec;
  topo::LinkTable links;
  std::vector<Xfer> transfers;  // by start time
};

/// 30 to 80 transfers, most of them between a few node pairs (so that bundles form, empty and
/// form again), sizes 0 to 2 MB (some zero, some equal), starts in 0 to 3 ms (some on a 250 us
/// grid, so that flows start and drain together), some with a delay of up to 2 us, and some
/// posted with the previous one (same start and size, on its route or another).
/// Uniform integers in [lo, hi] from a seeded generator.
struct Uniform {
  std::mt19937_64 rng;
  std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  }
};

Instance random_instance(std::string spec, topo::LinkTable links, std::uint64_t seed) {
  const auto topology = topo::make_topology(spec);
  const topo::NodeId nodes = topology->node_count();
  Uniform uniform{std::mt19937_64(seed)};
  const auto pair = [&] {
    const auto a = static_cast<topo::NodeId>(uniform(0, nodes - 1));
    auto b = static_cast<topo::NodeId>(uniform(0, nodes - 2));
    if (b >= a) ++b;  // distinct nodes: a flow to its own node has no route back
    return std::pair{a, b};
  };
  std::vector<std::pair<topo::NodeId, topo::NodeId>> pool(static_cast<std::size_t>(uniform(3, 8)));
  for (auto& p : pool) p = pair();
  Instance instance{std::move(spec), std::move(links), {}};
  const auto count = uniform(30, 80);
  for (std::int64_t i = 0; i < count; ++i) {
    Xfer x;
    const auto last = static_cast<std::int64_t>(pool.size()) - 1;
    std::tie(x.src, x.dst) =
        uniform(0, 99) < 75 ? pool[static_cast<std::size_t>(uniform(0, last))] : pair();
    const auto kind = uniform(0, 9);
    if (kind == 0) {
      x.bytes = 0;
    } else if (kind <= 2) {
      x.bytes = 250'000 * uniform(1, 4);
    } else {
      x.bytes = uniform(1, 2'000'000);
    }
    x.start = uniform(0, 2) == 0 ? 250 * kUs * uniform(0, 12) : uniform(0, 3 * kMs);
    if (uniform(0, 4) == 0) x.delay = uniform(0, 2 * kUs);
    if (!instance.transfers.empty() && uniform(0, 5) == 0) {
      // Posted together with the previous one, as large: they drain at one picosecond.
      const Xfer& previous = instance.transfers.back();
      x.bytes = previous.bytes;
      x.start = previous.start;
      x.delay = previous.delay;
      if (uniform(0, 1) == 0) std::tie(x.src, x.dst) = std::pair{previous.src, previous.dst};
    }
    instance.transfers.push_back(x);
  }
  std::stable_sort(instance.transfers.begin(), instance.transfers.end(),
                   [](const Xfer& x, const Xfer& y) { return x.start < y.start; });
  return instance;
}

/// Transfers on a coarse grid: starts, delays and (on round links, 1 byte per ns, 100 ns a hop)
/// transfer times all multiples of 100 ns, so that joins and drains of flows sharing links fall
/// on the same picoseconds, the order of events then deciding what each re-solve sees.
Instance grid_instance(std::string spec, topo::LinkTable links, std::uint64_t seed) {
  const auto topology = topo::make_topology(spec);
  const topo::NodeId nodes = topology->node_count();
  Uniform uniform{std::mt19937_64(seed)};
  Instance instance{std::move(spec), std::move(links), {}};
  const auto count = uniform(40, 120);
  for (std::int64_t i = 0; i < count; ++i) {
    Xfer x;
    x.src = static_cast<topo::NodeId>(uniform(0, nodes - 1));
    x.dst = static_cast<topo::NodeId>(uniform(0, nodes - 2));
    if (x.dst >= x.src) ++x.dst;
    x.bytes = 100 * uniform(1, 20);
    x.start = 100 * kNs * uniform(0, 40);
    if (uniform(0, 2) == 0) x.delay = 100 * kNs * uniform(1, 5);
    instance.transfers.push_back(x);
  }
  std::stable_sort(instance.transfers.begin(), instance.transfers.end(),
                   [](const Xfer& x, const Xfer& y) { return x.start < y.start; });
  return instance;
}

/// grid_instance's transfers, a third of them replies: each starts 0 to 300 ns after an earlier
/// one is delivered, so that deliveries schedule events among the joins and drains of one
/// picosecond, as a replay's do.
Instance reply_instance(std::string spec, topo::LinkTable links, std::uint64_t seed) {
  Instance instance = grid_instance(std::move(spec), std::move(links), seed);
  Uniform uniform{std::mt19937_64(seed ^ 0x5eed)};
  for (std::size_t i = 1; i < instance.transfers.size(); ++i) {
    if (uniform(0, 2) != 0) continue;
    Xfer& x = instance.transfers[i];
    x.after = static_cast<std::int32_t>(uniform(0, static_cast<std::int64_t>(i) - 1));
    x.start = 100 * kNs * uniform(0, 3);
  }
  return instance;
}

std::string describe(const Xfer& x) {
  return fmt::format("{} -> {}, {} B, start {} ps, delay {} ps", x.src, x.dst, x.bytes, x.start,
                     x.delay);
}

/// Every transfer delivered once, at the reference's time; equal times in start order.
void expect_matches_reference(const Instance& instance, const sim::ModelOptions& options,
                              const std::string& label,
                              std::size_t scan_links = sim::FlowModel::kScanLinks) {
  const auto topology = topo::make_topology(instance.spec);
  const auto deliveries =
      run_flow_model(*topology, instance.links, instance.transfers, options, scan_links);
  const auto expected =
      reference_delivery_ps(*topology, instance.links, instance.transfers, options);
  const std::size_t n = instance.transfers.size();
  ASSERT_EQ(deliveries.size(), n) << label;
  std::vector<int> seen(n, 0);
  for (std::size_t k = 0; k < deliveries.size(); ++k) {
    const Delivery& d = deliveries[k];
    ASSERT_LT(d.id, n) << label;
    ++seen[d.id];
    const double want = expected[d.id];
    const double tolerance = std::max(kTolerancePs, kRelativeTolerance * want);
    EXPECT_NEAR(static_cast<double>(d.at), want, tolerance)
        << label << ", transfer " << d.id << " (" << describe(instance.transfers[d.id]) << ")";
    // Flows (not zero-byte transfers, which are delivered by their own events) due at one
    // picosecond are delivered in the order they started, i.e. by id.
    if (k > 0) {
      const Delivery& p = deliveries[k - 1];
      if (p.at == d.at && instance.transfers[p.id].bytes > 0 &&
          instance.transfers[d.id].bytes > 0) {
        EXPECT_LT(p.id, d.id) << label << ": transfers " << p.id << " and " << d.id
                              << " delivered at " << d.at << " ps out of start order";
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << label << ", transfer " << i;
}

topo::LinkTable torus_links() {
  return round_config("flow").links;
}

// Unequal classes, so that routes differ in weight and bottleneck.
topo::LinkTable dragonfly_links() {
  return topo::LinkTable{}
      .with(topo::LinkClass::DfHost, {1e9, 100e-9})
      .with(topo::LinkClass::DfLocal, {1.5e9, 150e-9})
      .with(topo::LinkClass::DfGlobal, {0.5e9, 400e-9});
}

topo::LinkTable fattree_links() {
  return topo::LinkTable{}
      .with(topo::LinkClass::FtHost, {1e9, 130e-9})
      .with(topo::LinkClass::Ft1, {0.75e9, 150e-9});
}

struct Machine {
  const char* spec;
  topo::LinkTable (*links)();
};

const std::vector<Machine> kMachines{{"torus:4x4", torus_links},
                                     {"torus:8x8", torus_links},
                                     {"dragonfly:3,2,2,1", dragonfly_links},
                                     {"fattree:2;4,4;1,2;1,2", fattree_links}};

constexpr std::uint64_t kSeeds = 20;

void check_random_instances(const sim::ModelOptions& options, const std::string& variant,
                            std::size_t scan_links = sim::FlowModel::kScanLinks) {
  for (const auto& machine : kMachines) {
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
      const auto instance = random_instance(machine.spec, machine.links(), seed);
      expect_matches_reference(instance, options,
                               fmt::format("{}, {}, seed {}", machine.spec, variant, seed),
                               scan_links);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-solved, through the replay.

// torus:4x4x4:cores=3, rank 0 on node 0, ranks 1..3 on node 1: every message crosses link
// 0 -> 1 (100 ns). Rank 0 Isends 1 MB to rank 1 at 0, 1 MB to rank 2 at 0.5 ms and, after the
// bundle has emptied, 1 MB to rank 3 at 3 ms.
TEST(FlowBundles, LaterFlowJoinsTheBundleAtItsProgress) {
  TraceBuilder b(4);
  b.isend(0, 1, 1'000'000, 1)
      .isend(0, 2, 1'000'000, 2, 0, 500 * kUs)
      .isend(0, 3, 1'000'000, 3, 0, 2500 * kUs)
      .wait(0, 1)
      .wait(0, 2)
      .wait(0, 3);
  for (Rank r = 1; r <= 3; ++r) b.recv(r, 0, 1'000'000);
  const auto result = run(b.trace(), "torus:4x4x4:cores=3", {0, 1, 1, 1}, eager_flow_config());
  // A joins at 100 ns and streams alone at 1 GB/s; B joins at 0.5 ms + 100 ns, when A has
  // moved 0.5 MB. Then 0.5 GB/s each: A's last 0.5 MB take 1 ms, A drains at 1.5 ms + 100 ns,
  // when B has moved 0.5 MB too; B's last 0.5 MB alone take 0.5 ms: 2 ms + 100 ns. C starts at
  // 3 ms into an empty route and runs alone: 3 ms + 100 ns + 1 ms.
  EXPECT_EQ(result.rank_finish[1], 1500 * kUs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[2], 2 * kMs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[3], 4 * kMs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[0], 3 * kMs);  // its computation; eager sends return at once
}

// The same route, three sizes posted at once, largest first.
TEST(FlowBundles, SameRouteFlowsDrainInSizeOrder) {
  TraceBuilder b(4);
  b.isend(0, 1, 3'000'000, 1).isend(0, 2, 2'000'000, 2).isend(0, 3, 1'000'000, 3);
  b.wait(0, 1).wait(0, 2).wait(0, 3);
  b.recv(1, 0, 3'000'000).recv(2, 0, 2'000'000).recv(3, 0, 1'000'000);
  const auto result = run(b.trace(), "torus:4x4x4:cores=3", {0, 1, 1, 1}, eager_flow_config());
  // All join at 100 ns at 1/3 GB/s: the 1 MB flow drains after 3 ms, when the others have 1 and
  // 2 MB left; at 1/2 GB/s the 2 MB flow drains 2 ms later (5 ms), the 3 MB one has 1 MB left
  // and takes 1 ms alone (6 ms). Plus 100 ns of latency each.
  EXPECT_EQ(result.rank_finish[3], 3 * kMs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[2], 5 * kMs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[1], 6 * kMs + 100 * kNs);
}

// mesh:8:cores=4. Rank 0 on node 0 Isends k x 1 MB to ranks 1..k on node 2 (route 0->1, 1->2,
// 200 ns): one bundle. Rank k + 1 on node 1 sends 2 MB to rank k + 2 on node 3 (1->2, 2->3,
// 200 ns, the same weight). They share link 1 -> 2.
TEST(FlowBundles, BundleOfKFlowsTakesKSharesOfALink) {
  for (Rank k = 1; k <= 4; ++k) {
    TraceBuilder b(k + 3);
    std::vector<topo::NodeId> nodes{0};
    for (Rank r = 1; r <= k; ++r) {
      b.isend(0, r, 1'000'000, static_cast<std::uint32_t>(r));
      b.recv(r, 0, 1'000'000);
      nodes.push_back(2);
    }
    for (Rank r = 1; r <= k; ++r) b.wait(0, static_cast<std::uint32_t>(r));
    b.send(k + 1, k + 2, 2'000'000).recv(k + 2, k + 1, 2'000'000);
    nodes.push_back(1);
    nodes.push_back(3);
    const auto result = run(b.trace(), "mesh:8:cores=4", nodes, eager_flow_config());
    // All join at 200 ns; link 1 -> 2 has k + 1 flows of equal weight: 1/(k + 1) GB/s each, the
    // bundle k/(k + 1) of the link. The bundle's 1 MB flows drain after (k + 1) ms, when the
    // other flow has moved 1 MB; its last 1 MB takes 1 ms alone.
    for (Rank r = 1; r <= k; ++r)
      EXPECT_EQ(result.rank_finish[static_cast<std::size_t>(r)], (k + 1) * kMs + 200 * kNs) << k;
    EXPECT_EQ(result.rank_finish[static_cast<std::size_t>(k + 2)], (k + 2) * kMs + 200 * kNs) << k;
  }
}

// mesh:8:cores=4. Rank 0 on node 0 Isends 2 x 1 MB to ranks 1, 2 on node 2 (two hops, 200 ns,
// weight 1/2 in units of 1/100 ns); rank 3 on node 1 computes 100 ns, then sends 3 MB to rank 4
// on node 2 (link 1 -> 2 alone, 100 ns, weight 1). All join link 1 -> 2 at 200 ns.
TEST(FlowBundles, BundleSharesByWeight) {
  TraceBuilder b(5);
  b.isend(0, 1, 1'000'000, 1).isend(0, 2, 1'000'000, 2).wait(0, 1).wait(0, 2);
  b.recv(1, 0, 1'000'000).recv(2, 0, 1'000'000);
  b.send(3, 4, 3'000'000, 0, 100 * kNs).recv(4, 3, 3'000'000);
  const auto result = run(b.trace(), "mesh:8:cores=4", {0, 2, 2, 1, 2}, eager_flow_config());
  // Link 1 -> 2 carries weight 1/2 + 1/2 + 1 = 2: 1/2 GB/s per unit of weight, so the bundle's
  // flows get 1/4 GB/s each and the one-hop flow 1/2 GB/s (link 0 -> 1 carries 1/2 GB/s). The
  // bundle drains after 4 ms (4 ms + 200 ns), when the one-hop flow has moved 2 MB; its last
  // 1 MB alone take 1 ms.
  EXPECT_EQ(result.rank_finish[1], 4 * kMs + 200 * kNs);
  EXPECT_EQ(result.rank_finish[2], 4 * kMs + 200 * kNs);
  EXPECT_EQ(result.rank_finish[4], 5 * kMs + 200 * kNs);
}

// torus:4x4x4:cores=3. Rank 0 on node 0 Isends 1 MB to ranks 1 and 2 on node 1 (one bundle on
// link 0 -> 1); rank 3 on node 1 sends 0.5 MB to rank 4 on node 0 (link 1 -> 0). All 100 ns.
TEST(FlowBundles, ReverseTrafficOfABundle) {
  TraceBuilder b(5);
  b.isend(0, 1, 1'000'000, 1).isend(0, 2, 1'000'000, 2).wait(0, 1).wait(0, 2);
  b.recv(1, 0, 1'000'000).recv(2, 0, 1'000'000);
  b.send(3, 4, 500'000).recv(4, 3, 500'000);
  const std::vector<topo::NodeId> nodes{0, 1, 1, 1, 0};
  auto config = eager_flow_config();
  // Without reverse traffic: the bundle's two flows at 1/2 GB/s (2 ms), the other alone (0.5 ms).
  auto result = run(b.trace(), "torus:4x4x4:cores=3", nodes, config);
  EXPECT_EQ(result.rank_finish[1], 2 * kMs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[2], 2 * kMs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[4], 500 * kUs + 100 * kNs);
  // With it: link 0 -> 1 carries the bundle (c = 1 each) and the opposite flow's reverse
  // traffic (c = 0.05): weights 2.05, share 1/2.05 GB/s; link 1 -> 0 carries 1 + 2 x 0.05 = 1.1,
  // share 1/1.1. Link 0 -> 1 is the bottleneck of all three: 1/2.05 GB/s each. The 0.5 MB flow
  // drains after 1.025 ms, when the bundle's flows have 0.5 MB left; then link 0 -> 1 carries
  // only them: 1/2 GB/s each (link 1 -> 0 only their 2 x 0.05), 1 ms more: 2.025 ms.
  config.model_options.reverse_traffic = true;
  result = run(b.trace(), "torus:4x4x4:cores=3", nodes, config);
  EXPECT_EQ(result.rank_finish[4], 1025 * kUs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[1], 2025 * kUs + 100 * kNs);
  EXPECT_EQ(result.rank_finish[2], 2025 * kUs + 100 * kNs);
  // The same instance driven directly agrees with the per-flow reference.
  Instance instance{"torus:4x4x4",
                    torus_links(),
                    {{.src = 0, .dst = 1, .bytes = 1'000'000},
                     {.src = 0, .dst = 1, .bytes = 1'000'000},
                     {.src = 1, .dst = 0, .bytes = 500'000}}};
  expect_matches_reference(instance, config.model_options, "reverse, by hand");
}

// ---------------------------------------------------------------------------------------------
// Driven directly.

// torus:4x4x4: bundle X on node 0 -> 1 and bundle Y on node 2 -> 3 (disjoint links, 100 ns).
// Started in the order: 0 X 2 MB at 0, 1 Y 2 MB at 0, 2 X 1 MB at 1 ms, 3 Y 1 MB at 1 ms.
TEST(FlowBundles, SimultaneousDrainsAreDeliveredInStartOrder) {
  const std::vector<Xfer> xs{{.src = 0, .dst = 1, .bytes = 2'000'000, .start = 0},
                             {.src = 2, .dst = 3, .bytes = 2'000'000, .start = 0},
                             {.src = 0, .dst = 1, .bytes = 1'000'000, .start = kMs},
                             {.src = 2, .dst = 3, .bytes = 1'000'000, .start = kMs}};
  const auto topology = topo::make_topology("torus:4x4x4");
  const auto deliveries = run_flow_model(*topology, torus_links(), xs, {});
  // In each bundle the first flow streams alone from 100 ns and has 1 MB left when the second
  // joins at 1 ms + 100 ns with 1 MB: both drain at the same progress, 2 ms later at 1/2 GB/s.
  // All four are due at 3 ms + 100 ns and are delivered in start order, across bundles.
  ASSERT_EQ(deliveries.size(), 4U);
  for (std::uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(deliveries[i].id, i);
    EXPECT_EQ(deliveries[i].at, 3 * kMs + 100 * kNs) << i;
  }
}

// Within one bundle a later flow may reach its drain point first and still be due at the same
// picosecond: it is delivered after the earlier one. torus:4x4x4 with grid links of
// 1/1000.1 byte per ps (so that drain times fall between picoseconds), 100 ns; node 0 -> 1.
TEST(FlowBundles, SamePicosecondInABundleInStartOrder) {
  const auto links = topo::LinkTable{}.with(topo::LinkClass::Grid, {1e12 / 1000.1, 100e-9});
  const std::vector<Xfer> xs{{.src = 0, .dst = 1, .bytes = 1'000'001, .start = 0},
                             {.src = 0, .dst = 1, .bytes = 1'000'000, .start = 1000}};
  const auto topology = topo::make_topology("torus:4x4x4");
  const auto deliveries = run_flow_model(*topology, links, xs, {});
  // A joins at 100,000 ps and streams alone; B joins at T = 101,000 ps, when the progress is
  // 1000 / 1000.1 B, so B drains at progress 1,000,000.9999, before A's 1,000,001. At
  // 1/2000.2 B/ps each from T, B is due at T + 1,000,000 x 2000.2 = T + 2,000,200,000 ps and A
  // at T + (1,000,001 - 1000 / 1000.1) x 2000.2 = T + 2,000,200,000.2 ps: the same picosecond,
  // 2,000,301,000 ps. A started first, so A is delivered first.
  ASSERT_EQ(deliveries.size(), 2U);
  EXPECT_EQ(deliveries[0].id, 0U);
  EXPECT_EQ(deliveries[1].id, 1U);
  EXPECT_EQ(deliveries[0].at, 2'000'301'000);
  EXPECT_EQ(deliveries[1].at, 2'000'301'000);
}

// A zero-byte transfer in the middle of a bundle's life takes the latency and no bandwidth.
TEST(FlowBundles, ZeroByteTransferOnABundlesRoute) {
  const std::vector<Xfer> xs{{.src = 0, .dst = 1, .bytes = 1'000'000, .start = 0},
                             {.src = 0, .dst = 1, .bytes = 0, .start = 200 * kUs},
                             {.src = 0, .dst = 1, .bytes = 1'000'000, .start = 200 * kUs}};
  const auto topology = topo::make_topology("torus:4x4x4");
  const auto deliveries = run_flow_model(*topology, torus_links(), xs, {});
  ASSERT_EQ(deliveries.size(), 3U);
  // The empty one: 200 us + 100 ns. The first flow moves 0.2 MB alone, then 0.8 MB at
  // 1/2 GB/s (1.6 ms): 1.8 ms + 100 ns, the second has 0.2 MB left alone: 2 ms + 100 ns.
  EXPECT_EQ(deliveries[0].id, 1U);
  EXPECT_EQ(deliveries[0].at, 200 * kUs + 100 * kNs);
  EXPECT_EQ(deliveries[1].id, 0U);
  EXPECT_EQ(deliveries[1].at, 1800 * kUs + 100 * kNs);
  EXPECT_EQ(deliveries[2].id, 2U);
  EXPECT_EQ(deliveries[2].at, 2 * kMs + 100 * kNs);
}

TEST(FlowBundles, MatchesPerFlowReference) {
  check_random_instances({}, "plain");
}

TEST(FlowBundles, MatchesPerFlowReferenceWithReverseTraffic) {
  sim::ModelOptions options;
  options.reverse_traffic = true;
  check_random_instances(options, "reverse traffic");
}

TEST(FlowBundles, MatchesPerFlowReferenceWithWeightS) {
  sim::ModelOptions options;
  options.weight_s = 2000;  // bytes: 2 us per 1 GB/s link on top of the latency
  check_random_instances(options, "weight_s");
}

// The bottleneck search in blocks (LeastShare; every component, here) against the reference, and
// against the scan: the same deliveries to the picosecond, as both choose the same links.
TEST(FlowBundles, BlocksAndScanFindTheSameBottlenecks) {
  sim::ModelOptions reverse;
  reverse.reverse_traffic = true;
  check_random_instances({}, "blocks", 0);
  check_random_instances(reverse, "blocks, reverse traffic", 0);
  for (const auto& machine : kMachines) {
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
      const auto instance = random_instance(machine.spec, machine.links(), seed);
      const auto topology = topo::make_topology(instance.spec);
      const auto blocks = run_flow_model(*topology, instance.links, instance.transfers, {}, 0);
      const auto scan = run_flow_model(*topology, instance.links, instance.transfers, {},
                                       std::numeric_limits<std::size_t>::max());
      ASSERT_EQ(blocks.size(), scan.size()) << machine.spec << ", seed " << seed;
      for (std::size_t k = 0; k < blocks.size(); ++k) {
        EXPECT_EQ(blocks[k].id, scan[k].id) << machine.spec << ", seed " << seed << ", #" << k;
        EXPECT_EQ(blocks[k].at, scan[k].at) << machine.spec << ", seed " << seed << ", #" << k;
      }
    }
  }
}

// A re-solve or a delivery that would be the next event runs without one, and a flow that joins
// links carrying nothing else takes at once the rate that re-solve would give it (FlowModel.hpp,
// NetworkModel::deliver_now): the same
// deliveries, in the same order and to the picosecond, as with a re-solve event every time one is
// due, with fewer engine events. The random instances hold flows started alone and flows started
// together, the grid instances flows whose joins and drains meet at one picosecond, the reply
// instances also flows started by deliveries there (whose events then fall between a drain and
// the re-solve after it).
TEST(FlowBundles, ReSolvesWithoutTheirEventsDeliverTheSame) {
  std::uint64_t saved = 0;
  for (const bool reverse : {false, true}) {
    sim::ModelOptions options;
    options.reverse_traffic = reverse;
    for (const auto& machine : kMachines) {
      for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        const auto instance = seed % 3 == 0   ? random_instance(machine.spec, machine.links(), seed)
                              : seed % 3 == 1 ? grid_instance(machine.spec, machine.links(), seed)
                                              : reply_instance(machine.spec, machine.links(), seed);
        const auto topology = topo::make_topology(instance.spec);
        std::uint64_t alone_events = 0;
        std::uint64_t plain_events = 0;
        const auto alone = run_flow_model(*topology, instance.links, instance.transfers, options,
                                          sim::FlowModel::kScanLinks, true, &alone_events);
        const auto plain = run_flow_model(*topology, instance.links, instance.transfers, options,
                                          sim::FlowModel::kScanLinks, false, &plain_events);
        const std::string where = std::string(machine.spec) + ", seed " + std::to_string(seed) +
                                  (reverse ? ", reverse traffic" : "");
        ASSERT_EQ(alone.size(), plain.size()) << where;
        for (std::size_t k = 0; k < alone.size(); ++k) {
          EXPECT_EQ(alone[k].id, plain[k].id) << where << ", #" << k;
          EXPECT_EQ(alone[k].at, plain[k].at) << where << ", #" << k;
        }
        EXPECT_LE(alone_events, plain_events) << where;
        saved += plain_events - std::min(plain_events, alone_events);
      }
    }
  }
  EXPECT_GT(saved, 0u);  // the shortcut was taken
}

// One transfer on an idle machine: join, re-solve, drain, delivery, and without the re-solve
// and delivery events when it joins alone; the same delivery time, latency + size / bandwidth.
TEST(FlowBundles, ALoneTransferNeedsNoReSolveEvent) {
  const auto topology = topo::make_topology("torus:4x4");
  const auto links = torus_links();
  const std::vector<Xfer> one{Xfer{.src = 0, .dst = 2, .bytes = 1000, .start = 0, .delay = 0}};
  std::uint64_t alone_events = 0;
  std::uint64_t plain_events = 0;
  const auto alone =
      run_flow_model(*topology, links, one, {}, sim::FlowModel::kScanLinks, true, &alone_events);
  const auto plain =
      run_flow_model(*topology, links, one, {}, sim::FlowModel::kScanLinks, false, &plain_events);
  ASSERT_EQ(alone.size(), 1u);
  ASSERT_EQ(plain.size(), 1u);
  // Two hops of 100 ns, then 1000 bytes at 1 byte per ns.
  EXPECT_EQ(alone[0].at, 200 * kNs + 1000 * kNs);
  EXPECT_EQ(plain[0].at, alone[0].at);
  EXPECT_EQ(plain_events, 5u);  // inject, join, re-solve, drain, delivery
  EXPECT_EQ(alone_events, 3u);  // the delivery, which would run next, is not an event either
}

// A delivery runs without an event only when it would run next (NetworkModel::deliver_now). Here
// a zero-byte transfer's delivery, scheduled after the drain timer was set, falls due at the
// drain's picosecond: the drain runs first (its timer is the earlier event), and the drained
// flow's delivery queues behind the zero-byte one, which the heap holds for now.
TEST(FlowBundles, ADeliveryWithAnEventDueBeforeItWaitsForIt) {
  const auto topology = topo::make_topology("torus:4x4");
  const auto links = torus_links();
  // One hop of 100 ns: 1000 bytes at 1 byte per ns join at 100 ns and drain at 1100 ns; the
  // zero-byte transfer, started at 1000 ns, arrives at 1100 ns.
  const std::vector<Xfer> two{Xfer{.src = 0, .dst = 1, .bytes = 1000, .start = 0},
                              Xfer{.src = 0, .dst = 1, .bytes = 0, .start = 1000 * kNs}};
  for (const bool inline_resolves : {true, false}) {
    const auto deliveries =
        run_flow_model(*topology, links, two, {}, sim::FlowModel::kScanLinks, inline_resolves);
    ASSERT_EQ(deliveries.size(), 2u);
    EXPECT_EQ(deliveries[0].id, 1u) << "inline " << inline_resolves;
    EXPECT_EQ(deliveries[1].id, 0u) << "inline " << inline_resolves;
    EXPECT_EQ(deliveries[0].at, 1100 * kNs);
    EXPECT_EQ(deliveries[1].at, 1100 * kNs);
  }
}

// A flow that joins links carrying nothing stays off their lists until it must be on them
// (FlowModel::list): when a later flow joins its route, or crosses one of its links, later or at
// the picosecond it joined, before a re-solve queued then. Hand-solved on torus:8x8 (1 byte per
// ns, 100 ns per hop), each with and without the shortcuts.
TEST(FlowBundles, AFlowAloneOnItsLinksIsFoundByLaterFlows) {
  const auto topology = topo::make_topology("torus:8x8");
  const auto links = torus_links();
  // The same route, node 0 -> 1: A joins at 100 ns alone; B at 400 ns, when A has moved 300 of
  // its 1000 bytes. Half a byte per ns each: A drains after 1400 ns (1800 ns), when B has moved
  // 700; B's last 300 bytes alone take 300 ns (2100 ns).
  const std::vector<Xfer> same{Xfer{.src = 0, .dst = 1, .bytes = 1000, .start = 0},
                               Xfer{.src = 0, .dst = 1, .bytes = 1000, .start = 300 * kNs}};
  // Links 0 -> 1 -> 2 and 1 -> 2: A (two hops, weight 1/200) joins at 200 ns alone; B (one hop,
  // weight 1/100) at 400 ns, when A has moved 200 of its 2000 bytes. B takes 2/3 of link 1 -> 2,
  // A 1/3: B drains after 1500 ns (1900 ns), when A has moved 500 more; A's last 1300 bytes alone
  // take 1300 ns (3200 ns).
  const std::vector<Xfer> crossing{Xfer{.src = 0, .dst = 2, .bytes = 2000, .start = 0},
                                   Xfer{.src = 1, .dst = 2, .bytes = 1000, .start = 300 * kNs}};
  // Three flows join at 200 ns, one hop of 100 ns after a delay of 100 ns, or two hops: X (0 -> 1)
  // first, with other joins due, so its re-solve cannot run next and is queued; X and then Y
  // (8 -> 9), alone on their links, are left to it to solve alone (FlowModel::solve_at_resolve);
  // then V (8 -> 10, weight 1/200) joins Y's link, where Y (weight 1/100) takes 2/3. X alone
  // drains at 1200 ns; Y's 1000 bytes take 1500 ns (1700 ns), when V has moved 500 of its 2000;
  // V's last 1500 alone, 3200 ns.
  const std::vector<Xfer> queued{
      Xfer{.src = 0, .dst = 1, .bytes = 1000, .start = 0, .delay = 100 * kNs},
      Xfer{.src = 8, .dst = 9, .bytes = 1000, .start = 0, .delay = 100 * kNs},
      Xfer{.src = 8, .dst = 10, .bytes = 2000, .start = 0}};
  const auto expect = [&](const std::vector<Xfer>& xs, const std::vector<Delivery>& want) {
    for (const bool inline_resolves : {true, false}) {
      const auto got =
          run_flow_model(*topology, links, xs, {}, sim::FlowModel::kScanLinks, inline_resolves);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(got[k].id, want[k].id) << "#" << k << ", inline " << inline_resolves;
        EXPECT_EQ(got[k].at, want[k].at) << "#" << k << ", inline " << inline_resolves;
      }
    }
  };
  expect(same, {{0, 1800 * kNs}, {1, 2100 * kNs}});
  expect(crossing, {{1, 1900 * kNs}, {0, 3200 * kNs}});
  expect(queued, {{0, 1200 * kNs}, {1, 1700 * kNs}, {2, 3200 * kNs}});
}

// A flow alone on its links again once a crossing flow has drained streams as a bundle off the
// links' lists (FlowModel::unlist): a later flow on its route joins it there, a later crossing
// flow finds it. Hand-solved on torus:8x8 (1 byte per ns, 100 ns per hop), with and without the
// shortcuts. A (0 -> 2, two hops, weight 1/200, 3000 bytes) joins at 200 ns alone. B (1 -> 2,
// weight 1/100, 1000 bytes) joins at 400 ns, when A has moved 200: B takes 2/3 of link 1 -> 2,
// A 1/3, until B drains after 1500 ns (1900 ns), A at 700. C (0 -> 2, A's route, 1000 bytes)
// joins at 2100 ns, A at 900: half a byte per ns each, C drains after 2000 ns (4100 ns), A at
// 1900. D (1 -> 2, 1000 bytes) joins at 4500 ns, A at 2300: D takes 2/3 again and drains after
// 1500 ns (6000 ns), A at 2800; A's last 200 bytes alone, 6200 ns.
TEST(FlowBundles, AFlowLeftAloneStreamsOffTheListsAndIsFoundAgain) {
  const auto topology = topo::make_topology("torus:8x8");
  const std::vector<Xfer> xs{Xfer{.src = 0, .dst = 2, .bytes = 3000, .start = 0},
                             Xfer{.src = 1, .dst = 2, .bytes = 1000, .start = 300 * kNs},
                             Xfer{.src = 0, .dst = 2, .bytes = 1000, .start = 1900 * kNs},
                             Xfer{.src = 1, .dst = 2, .bytes = 1000, .start = 4400 * kNs}};
  const std::vector<Delivery> want{
      {1, 1900 * kNs}, {2, 4100 * kNs}, {3, 6000 * kNs}, {0, 6200 * kNs}};
  for (const bool reverse : {false, true}) {
    // With reverse traffic each flow also loads its route back at a twentieth of its rate:
    // nothing there limits it, and the times stay the same.
    sim::ModelOptions options;
    options.reverse_traffic = reverse;
    for (const bool inline_resolves : {true, false}) {
      const auto got = run_flow_model(*topology, torus_links(), xs, options,
                                      sim::FlowModel::kScanLinks, inline_resolves);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(got[k].id, want[k].id)
            << "#" << k << ", inline " << inline_resolves << ", reverse " << reverse;
        EXPECT_EQ(got[k].at, want[k].at)
            << "#" << k << ", inline " << inline_resolves << ", reverse " << reverse;
      }
    }
  }
}

// With reverse traffic a flow's route back is first looked up when it joins, and computing it
// grows the network's cache of routes: the route it was started on must be read after that (a
// span taken before would point into freed memory, as AddressSanitizer reports). Here node 0
// sends to every other node of a 4x4x4 torus in turn, each transfer started when the one before
// is delivered, so every join computes a new route back. Each flow is alone: its hops at 100 ns,
// then its bytes at 1 byte per ns (its reverse load, a twentieth of its rate, limits nothing).
TEST(FlowBundles, ReverseTrafficOnRoutesNotYetComputed) {
  const auto topology = topo::make_topology("torus:4x4x4");
  std::vector<Xfer> xs;
  for (topo::NodeId j = 1; j < 64; ++j) {
    xs.push_back(Xfer{.src = 0, .dst = j, .bytes = 1000 + j, .start = 0, .after = j - 2});
  }
  sim::ModelOptions options;
  options.reverse_traffic = true;
  const auto deliveries = run_flow_model(*topology, torus_links(), xs, options);
  ASSERT_EQ(deliveries.size(), xs.size());
  const auto ring = [](int d) { return std::min(d, 4 - d); };
  Time at = 0;
  for (topo::NodeId j = 1; j < 64; ++j) {
    const int hops = ring(j % 4) + ring(j / 4 % 4) + ring(j / 16);
    at += hops * 100 * kNs + (1000 + j) * kNs;
    EXPECT_EQ(deliveries[static_cast<std::size_t>(j - 1)].id, static_cast<std::uint32_t>(j - 1));
    EXPECT_EQ(deliveries[static_cast<std::size_t>(j - 1)].at, at) << "to node " << j;
  }
}

TEST(FlowBundles, SameInstanceSameDeliveries) {
  for (const bool reverse : {false, true}) {
    sim::ModelOptions options;
    options.reverse_traffic = reverse;
    for (const auto& machine : kMachines) {
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const auto instance = random_instance(machine.spec, machine.links(), seed);
        const auto topology = topo::make_topology(instance.spec);
        const auto first = run_flow_model(*topology, instance.links, instance.transfers, options);
        const auto second = run_flow_model(*topology, instance.links, instance.transfers, options);
        ASSERT_EQ(first.size(), second.size());
        for (std::size_t k = 0; k < first.size(); ++k) {
          EXPECT_EQ(first[k].id, second[k].id) << machine.spec << ", seed " << seed << ", " << k;
          EXPECT_EQ(first[k].at, second[k].at) << machine.spec << ", seed " << seed << ", " << k;
        }
      }
    }
  }
}

TEST(FlowBundles, SameReplaySameResult) {
  // Several ranks per node: messages between the same nodes form bundles.
  const auto trace = random_exchange(16, 4, 7);
  std::vector<topo::NodeId> nodes;
  for (topo::NodeId r = 0; r < 16; ++r) nodes.push_back(r / 4);
  for (const bool reverse : {false, true}) {
    auto config = round_config("flow");
    config.model_options.reverse_traffic = reverse;
    const auto a = run(trace, "torus:4x4:cores=4", nodes, config);
    const auto b = run(trace, "torus:4x4:cores=4", nodes, config);
    expect_same_result(a, b);
  }
}

}  // namespace
}  // namespace mapsim::testing
