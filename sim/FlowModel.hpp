#pragma once
// `flow`: fluid sharing of link bandwidth among the transfers in flight — SimGrid's CM02 network
// model (the one under SMPI) without its calibration factors.
//
// A transfer f of n bytes over route R_f, started at t0, first spends the route's latency
// lat_f = sum_{l in R_f} lat_l in flight without loading any link (the head crossing the route),
// then, from t0 + lat_f, streams its n bytes at rate r_f(t) until
// integral_{t0 + lat_f}^{t1} r_f(t) dt = n, and is delivered at t1. A lone transfer therefore
// takes exactly  lat_f + n / min_{l in R_f} bw_l  — the analytic model's time.
// At every instant the rates of the streaming flows are the weighted max-min fair allocation
// with weight w_f = 1 / lat_f (penalty lat_f, as in SimGrid):
//
//     for every link l:  sum_{f : l in R_f} r_f  <=  bw_l
//     every flow f has a saturated bottleneck l in R_f on which r_f / w_f >= r_g / w_g for all
//     g crossing l,
//
// found by progressive filling: repeatedly take the link with the smallest share per unit of
// weight  residual_l / sum_{unfixed f on l} w_f, fix each unfixed flow f on it at that share times
// w_f, subtract the rates from the flows' other links. Flows of equal route latency share a
// bottleneck equally; a flow whose route is twice as long gets half the share (on a uniform
// torus: shares inversely proportional to hops, the way round-robin arbitration at every router
// favours short routes — SimGrid's TCP-derived RTT unfairness). A zero-latency route counts as
// 1 ps. Both rules (latency before bandwidth, weights) are why mapsim agrees with SMPI's
// uncalibrated replay in the communication-bound regime; README, "Which network model".
//
// How the solver stays cheap under contention (each step keeps the allocation above exact):
// - Flows of one route stream as one bundle. Flows with the same links (and shares) and the same
//   weight get the same rate in every max-min allocation, so the solver allocates per bundle: a
//   bundle of k flows weighs k w_f on each of its links and takes k r_f from them. A bundle
//   keeps its progress P(t) = integral r_f dt since it formed; a flow of n bytes joining at
//   P(t_j) drains when P reaches P(t_j) + n. A re-solve thus touches each bundle, not each flow
//   (a rank that posts hundreds of sends to one neighbour, as LU's pipelined planes do with the
//   computation left out, is one bundle on its links, not hundreds of flows).
//   A route's bundle is found by a hash of its links and weight in a flat index (KeyIndex.hpp):
//   with MPI overheads most bundles hold one flow, made and dissolved per message. A bundle that
//   forms on links carrying nothing stays unlisted: in no link's list and not in the index, each
//   of its links naming it instead (Use::alone). A flow on exactly its links joins it there; a
//   flow onto one of its links lists it first, where it would have been all along: into the
//   index and at the head of each of its links' lists, which nothing else joined since. A listed
//   bundle left alone on all its links when another bundle dissolves is unlisted again (it is
//   at the head of each list already). So flows that stream alone, most of them with overheads,
//   cost no hash and no list entry, and neither do a rank's messages to one neighbour in a row.
// - One re-solve per instant. Flow starts and drains only mark their links dirty; a single
//   re-solve event at the same picosecond, queued behind every event already due then, solves
//   once for all of them (max-min fairness has a unique allocation, so batching changes nothing
//   but the work; a flow's zero-length wait for it moves no bytes).
// - A re-solve that would be the next event runs without one. When a join or a drain needs a
//   re-solve and nothing else is due at this picosecond, the re-solve queued now would run next:
//   it runs at the end of this event's handling instead; when only the drain timer is due now, at
//   the end of the drain's handling, which runs next. Events scheduled meanwhile would queue behind
//   it either way, so every event keeps its order. A flow that joins links carrying nothing else
//   (or only an unlisted bundle of its route) then needs no component search at all: join
//   computes what that re-solve would (the same shares, the same bottleneck, the same
//   arithmetic). For a new bundle that holds too when only the drain timer is due: none of the
//   draining flows crosses the newcomer's links, so the drain cannot change its rate, and a
//   re-solve stays queued for after the drain, for whatever links the drain touches (a drain time
//   of now, the drain's to deliver, is left to that re-solve; a bundle already in the drain heap
//   is too, as the drain re-arms the timer from its old drain time). With MPI overheads
//   almost every flow joins alone (LU.B.64, 100 iterations, communication only: over 99 % of
//   2.29 M joins): 1.83 M re-solve events of its 10.8 M engine events are saved, and 1.82 M of
//   the joins need no re-solve at all (0.24 M re-solves are left of 2.29 M).
//   An unlisted bundle whose flows change when its re-solve cannot run next (other events are
//   due now: ranks that compute alike send at one picosecond; a drain leaves flows in it) is left
//   to the re-solve, queued as before, to solve alone (alone_): whenever it runs this picosecond
//   and whatever else it solves, it solves that bundle's component, the bundle alone, the same
//   way (rate_alone), without a component search. Its links are marked dirty as they would have
//   been; if a flow joins one of them meanwhile, the bundle is listed and solved with its
//   component. (Bundles so solved, LU.B.64, whole run, on 2-socket nodes, 2.29 M flows:
//   1.14 M without overheads, 1.25 M under `--calibration smpi`; Sweep3D class B with typical
//   overheads, communication only, 0.57 M flows: 0.33 M.)
// - Only what changed is re-solved. The allocation decomposes over connected components of the
//   bundle/link sharing graph; the re-solve covers the components of the dirty links, every
//   other bundle keeps its rate and its drain time.
// - Each round of progressive filling finds its bottleneck among the component's links' shares,
//   kept in an array in component order and refreshed as a round changes a link (no division
//   and no dependent chain of comparisons per link): by a scan (sim/LeastShare.hpp: the smallest
//   value with eight running minima, two per SSE2 instruction, then the first block of eight
//   and the first link in it holding that value), or, in components of more than kScanLinks
//   links, in blocks of 64 shares with each block's least, of which a round reads the leasts and
//   one block (a round changes the shares of the few links its flows cross, and shares only grow
//   as flows are fixed): the same link either way (the smallest share, the first in component
//   order among equal ones).
// - Solving touches each bundle once per link of its route: the component search resets each
//   link as it reaches it, and a bundle that empties leaves its links' lists in O(1) (each
//   bundle knows its place in them).
// - Drain times are kept in the model's own indexed heap of bundles (each bundle holds its flows
//   in a heap of their drain points), not as engine events: a rate change updates the bundle's
//   entry, and the engine holds one event, at the earliest drain. Flows that drain at the same
//   picosecond are delivered by that one event, in the order they started; a bundle's flows due
//   then leave it together, and it moves in the heap once. The heap is 4-ary, each entry holding
//   its key (drain time, first flow's start order): a comparison reads no bundle and no flow.
//   Keys are unique (start orders are), so its layout never decides which bundle comes first.
// Zero-byte transfers take the route latency and no bandwidth.
//
// Options (ModelOptions): size factors (sim/SizeFactors.hpp) scale a transfer's latency in flight
// by latency_factor(n) and its progress by bandwidth_factor(n) (it loads its links at r_f and
// moves r_f * factor bytes per second; its weight stays 1 / lat_f); reverse traffic makes each
// flow also load the links of the route back, destination to source, with kReverseShare * r_f:
//
//     for every link l:  sum_f c_fl r_f <= bw_l,   c_fl = 1 on R_f, kReverseShare on the way back
//
// (progressive filling with shares residual_l / sum_f c_fl w_f), as SimGrid's crosstraffic; and
// weight_s (SimGrid's network/weight-S) adds weight_s / bw_l per link to the penalty 1 / w_f.
//
// Engine events: per flow one join (the end of its latency), one drain (shared with
// simultaneous drains) and one delivery, at most one re-solve per instant (not an event of its
// own when it would run next, as above), and one extra wake-up when a re-solve slows the
// earliest-draining bundle down. A delivery that would run next, the first of a drain when
// nothing else is due then, is no event either: the replay takes it at the end of the drain's
// handling (NetworkModel::deliver_now; with MPI overheads, almost every delivery). The drain
// wake-up is the engine's timer (Engine.hpp): moving it earlier costs no heap operation.

#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "sim/KeyIndex.hpp"
#include "sim/LeastShare.hpp"
#include "sim/NetworkModel.hpp"
#include "sim/SlotPool.hpp"

namespace mapsim::sim {

class FlowModel final : public NetworkModel {
 public:
  /// Components of more links than this find their bottlenecks in blocks (LeastShare), not by a
  /// scan (the same links either way). The scan costs rounds x links, the blocks rounds x
  /// (links / 64 + 64 + the blocks a round changes the least of). Measured (CG class D, 1
  /// iteration, 512 ranks of torus:8x8x8 mapped at random, communication only: 543,000
  /// re-solves, 33 M rounds, nearly all in components of 512-2,047 links): 9.4 s by scan, 8.2 s
  /// in blocks above 256 links, 8.2-8.4 s above 128 or 512. Blocks of 16 or 32 shares: 8.9 and
  /// 8.4 s; of 128: 8.5 s.
  static constexpr std::size_t kScanLinks = 256;

  /// `scan_links`: kScanLinks, or (tests) 0 for the blocks always, SIZE_MAX for the scan always.
  /// `inline_resolves`: true, or (tests) false for a re-solve event every time one is due and a
  /// delivery event for every delivery (NetworkModel::deliver_now).
  FlowModel(Engine& engine, Network& network, const ModelOptions& options = {},
            std::size_t scan_links = kScanLinks, bool inline_resolves = true);

  void start(const Transfer& transfer) override;
  void handle(const QueuedEvent& event) override;
  [[nodiscard]] bool takes_delay() const override { return true; }
  /// UGAL's load: the flows streaming on the link now.
  [[nodiscard]] double link_load(ResourceId link) const override {
    return static_cast<double>(uses_[static_cast<std::size_t>(link)].streaming);
  }

 private:
  static constexpr std::uint32_t kNotQueued = UINT32_MAX;
  static constexpr std::uint32_t kNoBundle = UINT32_MAX;
  /// One transfer between its start and its drain.
  struct Flow {
    Route route;
    double bytes = 0;  // of link capacity, until it joins; then the bundle progress it drains at
    double weight = 0;
    std::uint64_t order = 0;  // start order: the tie-breaker of equal drain times
    std::uint32_t transfer = 0;
    std::uint32_t bundle = kNoBundle;
    topo::NodeId src = 0;
    topo::NodeId dst = 0;
  };
  /// The streaming flows of one route and weight: they share one rate r (per flow).
  struct Bundle {
    double progress = 0;  // bytes each flow streamed since the bundle formed, as of `updated`
    double rate = 0;      // per flow, bytes per second; 0 until the first re-solve
    double weight = 0;    // per flow: 1 / penalty (ps)
    Time updated = 0;
    Time drain = 0;  // when its first flow drains at `rate`
    std::uint64_t key = 0;
    std::uint32_t count = 0;          // flows
    std::uint32_t mark = 0;           // component search epoch
    std::uint32_t heap = kNotQueued;  // position in drains_
    std::uint32_t links = 0;          // entries: the route's links, then the route back's
    std::uint32_t forward = 0;        // of them, the route's
    bool fixed = false;
    bool mapped = false;               // reachable from by_key_
    bool listed = false;               // on its links' lists (else alone there: Use::alone)
    bool alone_queued = false;         // in alone_
    std::vector<std::uint32_t> flows;  // a heap of (drain point, order)
  };
  // A bundle on a link: its id and the index of the link among the bundle's entries.
  struct Entry {
    std::uint32_t bundle;
    std::uint32_t k;
  };
  /// What every join and drain reads of a link, kept apart from Link (a small array stays in
  /// cache).
  struct Use {
    std::uint32_t streaming = 0;      // flows
    std::uint32_t alone = kNoBundle;  // an unlisted bundle, the only one on the link
  };
  struct Link {
    std::vector<Entry> bundles;  // the listed bundles on it
    bool dirty = false;          // in dirty_
    double residual = 0;
    double weights = 0;  // of the unfixed bundles
    std::uint32_t unfixed = 0;
    std::uint32_t mark = 0;
    std::uint32_t index = 0;  // in component_links_
  };
  /// A link's share per unit of weight: residual / weights of its unfixed bundles (NaN read as
  /// no bottleneck, as the scan's comparison reads it).
  [[nodiscard]] static double share_of(const Link& link) {
    return share_of(link.residual, link.weights);
  }
  [[nodiscard]] static double share_of(double residual, double weights) {
    const double s = residual / weights;
    return std::isnan(s) ? std::numeric_limits<double>::infinity() : s;
  }

  /// The flow's latency has passed: it joins the bundle of its route and starts loading links.
  void join(std::uint32_t flow);
  /// The bundle of these links (the route's, then with reverse traffic the route back's) and
  /// weight, made if there is none.
  std::uint32_t bundle_for(std::span<const ResourceId> route, std::span<const ResourceId> back,
                           double weight);
  /// A new bundle of these links and weight, on links that carry nothing: unlisted (on no
  /// link's list and not in by_key_) until another flow joins one of its links or it needs a
  /// re-solve (list).
  std::uint32_t unlisted_bundle(std::span<const ResourceId> route, std::span<const ResourceId> back,
                                double weight);
  /// A slot for a new bundle, its fields set but not its links'.
  std::uint32_t new_bundle(std::span<const ResourceId> route, std::span<const ResourceId> back,
                           double weight);
  /// Puts an unlisted bundle on its links' lists and in by_key_, where bundle_for would have put
  /// it when it formed (at the head of each list: its links carried nothing else since).
  void list(std::uint32_t bundle);
  /// Adds the bundle at the end of each of its links' lists (places_ keeps where).
  void enter_lists(std::uint32_t bundle);
  /// Takes the bundle off its links' lists in O(1) each.
  void leave_lists(std::uint32_t bundle);
  /// Its key in by_key_: a hash of the links, the split between route and route back, and the
  /// weight.
  [[nodiscard]] std::uint64_t key_of(std::span<const ResourceId> route,
                                     std::span<const ResourceId> back, double weight) const;
  /// Marks the bundle's links for the next re-solve and makes sure one is queued now; an unlisted
  /// bundle, alone on its links, that re-solve solves alone (alone_), without a component search.
  void touch(std::uint32_t bundle);
  /// Makes sure a re-solve is queued now: at the end of this event's handling or of the drain's
  /// due now if it would run next, else as an event.
  void queue_resolve();
  /// An unlisted bundle a flow joined, with no re-solve queued and no other event due now (or, for
  /// a new bundle, only the drain timer): gives it the rate and the drain that the re-solve, the
  /// next event or the one after the drain, would give it, without that event. False (nothing
  /// changed) otherwise. A streaming bundle comes with its drain recomputed for the newcomer but
  /// not yet moved in the drain heap: it moves there once, with its new rate.
  bool solve_alone(std::uint32_t bundle);
  /// The same when no other event is due now, or (before_drain) only the drain timer, where a drain
  /// time of now is refused.
  bool solve_alone(std::uint32_t bundle, bool before_drain);
  /// Leaves an unlisted bundle for the next re-solve to solve alone (alone_).
  void solve_alone_at_resolve(std::uint32_t bundle);
  /// Whether a listed bundle is the only one on each of its links.
  [[nodiscard]] bool alone_on_links(std::uint32_t bundle) const;
  /// Takes a listed bundle alone on its links off their lists and out of by_key_, as if it had
  /// formed there unlisted (list puts it back where it was: at the head of each list).
  void unlist(std::uint32_t bundle);
  /// Whether the bundle's links and weight are these.
  [[nodiscard]] bool same_links(std::uint32_t bundle, std::span<const ResourceId> route,
                                std::span<const ResourceId> back, double weight) const;
  /// Gives the bundle this rate from now, and its drain (unchanged if the rate is).
  void set_rate(std::uint32_t bundle, double rate);
  /// The rate a re-solve of the bundle's component gives it when it is alone there (NaN if no link
  /// limits it: resolve() reports that).
  [[nodiscard]] double rate_alone(std::uint32_t bundle) const;
  /// Marks the bundle's links for the next re-solve.
  void mark_dirty(std::uint32_t bundle);
  /// The links bundle `id` loads.
  [[nodiscard]] std::span<const ResourceId> links_of(std::uint32_t id) const {
    return {entry_links_.data() + id * route_block_, bundles_[id].links};
  }
  /// c_fl of the bundle's k-th link (1 without reverse traffic).
  [[nodiscard]] double share_of(std::uint32_t id, std::uint32_t k) const {
    return k < bundles_[id].forward ? 1.0 : kReverseShare;
  }
  /// Brings the bundle's progress to now at its current rate.
  void advance(Bundle& bundle, Time now) const;
  /// When the bundle's first flow drains at its current rate.
  [[nodiscard]] Time first_drain(const Bundle& bundle) const;
  void resolve();
  void drain_due();
  /// Takes an emptied bundle off its links and frees it.
  void dissolve(std::uint32_t bundle);
  /// Makes the engine's single drain event fire at the earliest drain time.
  void arm();

  // A bundle's flows: a min-heap of (drain point, order).
  [[nodiscard]] bool drains_later(std::uint32_t a, std::uint32_t b) const;
  // The indexed min-heap of bundles' drain times, ordered by (drain, first flow's order), each
  // entry holding its key (a bundle's `heap` is its place). 4-ary: measured against 2-ary, 2 %
  // faster on Sweep3D class B with overheads, the same on LU.
  static constexpr std::size_t kArity = 4;
  struct Due {
    Time drain;
    std::uint64_t order;  // of the bundle's first flow
    std::uint32_t bundle;
  };
  [[nodiscard]] static OrderKey due_key(const Due& due) {
    return (static_cast<OrderKey>(static_cast<std::uint64_t>(due.drain)) << 64) | due.order;
  }
  void heap_set(std::uint32_t bundle);  // insert, or move after its drain or first flow changed
  void heap_erase(std::uint32_t bundle);
  // Inlined into heap_set and heap_erase, so that the entry moved stays in registers: passed by
  // reference to a call, it went through the stack, and the 16-byte read of what was just
  // written there as 8-byte values stalled every insertion (measured, 2 % of LU's replay with
  // overheads and computation).
  /// Puts `due` at i, then where it belongs.
  [[gnu::always_inline]] inline void heap_move(std::size_t i, const Due& due);
  [[gnu::always_inline]] inline void sift_up(std::size_t i, const Due& due);
  [[gnu::always_inline]] inline void sift_down(std::size_t i, const Due& due);
  void heap_place(std::size_t i, const Due& due);

  SlotPool<Flow> flows_;
  std::vector<Bundle> bundles_;  // slots; free ones in free_bundles_ (their flow heaps kept)
  std::vector<std::uint32_t> free_bundles_;
  KeyIndex by_key_;  // bundles by key (key_of)
  std::vector<Link> links_;
  std::vector<Use> uses_;  // by link
  std::vector<Due> drains_;
  std::uint64_t started_ = 0;
  std::uint32_t epoch_ = 0;
  std::vector<ResourceId> dirty_;     // links whose bundles changed since the last re-solve
  std::vector<std::uint32_t> alone_;  // bundles for the next re-solve to solve alone
  bool resolve_queued_ = false;
  std::uint64_t armed_seq_ = 0;  // the engine's drain event, if armed_
  Time armed_at_ = 0;
  bool armed_ = false;
  // Scratch kept to avoid allocating per re-solve or join.
  std::vector<ResourceId> stack_;
  std::vector<ResourceId> component_links_;
  std::vector<std::uint32_t> component_bundles_;
  std::vector<double> shares_;  // by component index
  LeastShare least_share_;      // over shares_ (large components)
  std::vector<std::uint32_t> due_;
  // Per bundle, route_block_ entries from id * route_block_: the links it loads (its route's,
  // then with reverse traffic the route back's) and where the bundle sits in each link's list
  // (an emptied bundle leaves in O(1)).
  std::size_t route_block_ = 1;
  std::vector<ResourceId> entry_links_;
  std::vector<std::uint32_t> places_;
  std::vector<std::uint64_t> multipliers_;  // key_of's, one per entry of a route block
  bool reverse_ = false;
  double weight_s_ = 0;
  std::vector<double> weight_s_terms_;  // per link, weight_s / bw_l in ps (penalty)
  std::size_t scan_links_ = kScanLinks;
  bool inline_resolves_ = true;
  /// A re-solve that would be the next event, run instead at the end of this event's handling, or
  /// of the drain's that is due now and runs next.
  enum class Deferred : std::uint8_t { None, AfterThis, AfterDrain };
  Deferred deferred_ = Deferred::None;
  /// A flow's max-min penalty (1 / weight), ps: route latency (at least 1) + weight_s / bw_l.
  [[nodiscard]] double penalty(const Route& route) const;
};

}  // namespace mapsim::sim
