#pragma once
// A network model moves transfers (messages, or the control packets of the rendezvous protocol)
// between nodes and tells the replay when each has arrived. Models are registered by name with a
// one-line description (`mapsim list models`); each model's header states its equations.
//
// Contract: start() is called at engine.now(); the model schedules engine events of its own kinds
// (>= kModelEvents), handles them in handle(), and finally schedules kDelivery with the transfer's
// id at the time the transfer's last byte reaches the destination, or, from handle(), delivers it
// with deliver_now() (whoever drives the engine then takes it with take_delivery() at the end of
// that handling). Every transfer is delivered exactly once. A zero-byte transfer (a rendezvous
// request or clear-to-send) costs the route's latency and no bandwidth.

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/Engine.hpp"
#include "sim/Network.hpp"
#include "sim/SizeFactors.hpp"

namespace mapsim::sim {

struct Transfer {
  std::uint32_t id = 0;
  topo::NodeId src = 0;
  topo::NodeId dst = 0;
  /// The sockets of the sending and receiving ranks on their nodes (0 on nodes of one socket).
  std::int32_t src_socket = 0;
  std::int32_t dst_socket = 0;
  std::int64_t bytes = 0;
  /// It enters the network this long after now (its sender's overheads; sim/Overheads.hpp); only
  /// for a model whose takes_delay() is true.
  Time delay = 0;
};

/// Parameters of the models that have any, declared once here (defaults included).
struct ModelOptions {
  /// packet: payload bytes per packet; a message of n bytes is ceil(n / packet_bytes) packets.
  std::int64_t packet_bytes = 4096;
  /// packet: virtual cut-through (true) or store-and-forward (false).
  bool cut_through = true;
  /// analytic, flow: size-dependent factors on a message's bandwidth and latency
  /// (sim/SizeFactors.hpp; SimGrid's network/bandwidth-factor and network/latency-factor).
  SizeFactors bandwidth_factor;
  SizeFactors latency_factor;
  /// flow: each flow also loads the links of the route back (destination to source) with
  /// kReverseShare of its rate, as SimGrid's network/crosstraffic does (TCP's acknowledgements).
  bool reverse_traffic = false;
  /// flow: SimGrid's network/weight-S, bytes: a flow's max-min penalty is its route latency plus
  /// weight_s / bw_l for each link l of the route (0: the latency alone).
  double weight_s = 0;
  /// every model: bytes each message's data carries beyond its payload — MPI's envelope (tag,
  /// source, communicator); SMPI sends 16 — so a message of n bytes crosses its route as n +
  /// envelope bytes (its size factors looked up there, as SMPI's network model sees the comm's
  /// size), while the eager threshold, the overheads and the matrix see its n bytes; the
  /// rendezvous protocol's control transfers carry none (0: the payload alone).
  std::int64_t envelope = 0;
};

/// The largest envelope (ModelOptions::envelope), and SMPI's: it sends every message's payload
/// plus 16 bytes (smpi_request.cpp, "MPI envelope size (tag+dest+communicator)").
inline constexpr std::int64_t kMaxEnvelope = std::int64_t{1} << 20;
inline constexpr std::int64_t kSmpiEnvelope = 16;

/// The share of a flow's rate its reverse traffic takes on the route back (SimGrid's 0.05).
inline constexpr double kReverseShare = 0.05;

class NetworkModel : public LinkLoads {
 public:
  NetworkModel(Engine& engine, Network& network, const ModelOptions& options = {})
      : engine_(&engine),
        network_(&network),
        bytes_(static_cast<std::size_t>(network.resource_count()), 0),
        factors_(!options.bandwidth_factor.identity() || !options.latency_factor.identity()),
        bandwidth_factor_(options.bandwidth_factor),
        latency_factor_(options.latency_factor) {}
  virtual ~NetworkModel() = default;
  NetworkModel(const NetworkModel&) = delete;
  NetworkModel& operator=(const NetworkModel&) = delete;

  virtual void start(const Transfer& transfer) = 0;
  virtual void handle(const QueuedEvent& event) = 0;
  /// Whether start() takes a transfer that enters the network later (Transfer::delay): saves the
  /// replay an engine event per message under overheads. The route is chosen at start().
  [[nodiscard]] virtual bool takes_delay() const { return false; }

  /// The transfer delivered now whose delivery event would have run next, or kNoDelivery: the
  /// replay delivers it at the end of the handling of this event instead (deliver_now).
  std::uint32_t take_delivery() { return std::exchange(next_delivery_, kNoDelivery); }
  static constexpr std::uint32_t kNoDelivery = UINT32_MAX;

  /// Bytes that crossed each resource (see Network.hpp for resource ids).
  [[nodiscard]] std::span<const std::int64_t> resource_bytes() const { return bytes_; }

  /// The load on a link now, as UGAL routing sees it (Network.hpp); none by default.
  [[nodiscard]] double link_load(ResourceId /*link*/) const override { return 0; }

  /// The contention-free time of `bytes` from a to b (the yardstick of message slowdowns): the
  /// route's latency plus size over bottleneck bandwidth, with the size factors.
  Time free_time(topo::NodeId a, topo::NodeId b, std::int64_t bytes, int socket_a = 0,
                 int socket_b = 0) {
    if (!factors_) return network_->free_time(a, b, bytes, socket_a, socket_b);
    return lone_time(network_->route(a, b, socket_a, socket_b), bytes);
  }
  /// The same for 0 bytes (the route's latency) and for `bytes`, from one route lookup.
  struct FreeTimes {
    Time latency = 0;
    Time total = 0;
  };
  FreeTimes free_times(topo::NodeId a, topo::NodeId b, std::int64_t bytes, int socket_a = 0,
                       int socket_b = 0) {
    const Route& route = network_->route(a, b, socket_a, socket_b);
    if (!factors_) {
      return {route.latency,
              add_time(route.latency, transfer_time(static_cast<double>(bytes), route.bandwidth))};
    }
    return {lone_time(route, 0), lone_time(route, bytes)};
  }

 protected:
  /// The route of a transfer the model starts now, under the machine's routing; a transient
  /// route goes back to the network with network_->release() when the transfer is done with it.
  Route route_of(const Transfer& transfer) {
    return network_->message_route(transfer.src, transfer.dst, started_transfers_++, *this,
                                   transfer.src_socket, transfer.dst_socket);
  }

  /// Delivers `transfer` now. When nothing else is due now, its delivery event would run next:
  /// it runs at the end of this event's handling (take_delivery), without an event; events
  /// scheduled meanwhile would queue behind it either way.
  void deliver_now(std::uint32_t transfer) {
    if (nothing_due_now()) {
      next_delivery_ = transfer;
    } else {
      engine_->schedule(engine_->now(), kDelivery, transfer);
    }
  }
  /// Whether an event scheduled now would run next (Engine::nothing_due_now), a delivery left to
  /// the replay counted as due.
  [[nodiscard]] bool nothing_due_now() const {
    return next_delivery_ == kNoDelivery && engine_->nothing_due_now();
  }
  /// Whether the timer, due now, would run next (Engine::only_timer_due_now), as above.
  [[nodiscard]] bool only_timer_due_now() const {
    return next_delivery_ == kNoDelivery && engine_->only_timer_due_now();
  }

  void count_bytes(const Route& route, std::int64_t bytes) {
    for (const auto r : network_->resources(route)) {
      auto& total = bytes_[static_cast<std::size_t>(r)];
      if (__builtin_add_overflow(total, bytes, &total)) [[unlikely]]
        throw_bytes_overflow(r);
    }
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void throw_bytes_overflow(ResourceId r) {
    throw InputError(fmt::format(
        "the bytes crossing resource {} of the network sum past {}, the most mapsim counts", r,
        std::numeric_limits<std::int64_t>::max()));
  }

  /// The route's latency times the latency factor of `bytes` (the latency itself without
  /// factors).
  [[nodiscard]] Time factored_latency(const Route& route, std::int64_t bytes) const {
    if (!factors_) return route.latency;
    const double factor = factors_of(bytes).latency;
    return checked_time(static_cast<double>(route.latency) * factor, [&] {
      return fmt::format("a route latency of {} ps times the latency factor {:.6g}", route.latency,
                         factor);
    });
  }
  /// The bandwidth factor of `bytes` (1 without factors).
  [[nodiscard]] double bandwidth_factor(std::int64_t bytes) const {
    return factors_ ? factors_of(bytes).bandwidth : 1.0;
  }
  /// A lone transfer's time over `route`: factored latency + bytes / (bottleneck * factor).
  [[nodiscard]] Time lone_time(const Route& route, std::int64_t bytes) const {
    const double factor = bandwidth_factor(bytes);
    return add_time(factored_latency(route, bytes),
                    transfer_time(static_cast<double>(bytes),
                                  factor == 1.0 ? route.bandwidth : route.bandwidth * factor));
  }

  Engine* engine_;
  Network* network_;
  std::vector<std::int64_t> bytes_;
  bool factors_ = false;  // some size factor is not 1
  SizeFactors bandwidth_factor_;
  SizeFactors latency_factor_;
  std::uint64_t started_transfers_ = 0;
  std::uint32_t next_delivery_ = kNoDelivery;

 private:
  struct Factors {
    std::int64_t bytes = -1;
    double latency = 1;
    double bandwidth = 1;
  };
  /// The factors of `bytes`, looked up once per run of messages of one size (a message's
  /// start and its delivery's free times ask for its size's several times; those of 0 bytes are
  /// kept apart, as the free times ask for them in between).
  [[nodiscard]] const Factors& factors_of(std::int64_t bytes) const {
    Factors& f = bytes == 0 ? zero_bytes_ : last_size_;
    if (f.bytes != bytes) f = Factors{bytes, latency_factor_(bytes), bandwidth_factor_(bytes)};
    return f;
  }
  mutable Factors zero_bytes_;
  mutable Factors last_size_;
};

struct NetworkModelInfo {
  std::string_view name;
  std::string_view description;
};

/// Every registered model, in the order `mapsim list models` prints them.
std::span<const NetworkModelInfo> network_models();

/// The model named `name`; throws InputError listing the valid names.
std::unique_ptr<NetworkModel> make_network_model(std::string_view name, Engine& engine,
                                                 Network& network, const ModelOptions& options);

}  // namespace mapsim::sim
