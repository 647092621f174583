#pragma once
// `analytic`: no contention. A transfer of n bytes over route R arrives after
//
//     T(n, R) = sum_{l in R} lat_l  +  n / min_{l in R} bw_l          [ps; bytes, bytes/s]
//
// (with size factors, sim/SizeFactors.hpp: sum lat_l * latency_factor(n) + n / (min bw_l *
// bandwidth_factor(n)))
//
// whatever else is in flight: links never saturate, so this is the contention-free time every
// other model is compared with (one engine event per transfer). Assumes wormhole-like pipelining
// (the whole message streams at the bottleneck rate; no per-hop store), no injection limit and no
// protocol overhead beyond what the replay adds (rendezvous handshake).

#include "sim/NetworkModel.hpp"

namespace mapsim::sim {

class AnalyticModel final : public NetworkModel {
 public:
  using NetworkModel::NetworkModel;

  void start(const Transfer& transfer) override;
  void handle(const QueuedEvent& event) override;
  [[nodiscard]] bool takes_delay() const override { return true; }
};

}  // namespace mapsim::sim
