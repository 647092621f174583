#pragma once
// `flow`: max-min fair sharing of link bandwidth among the transfers in flight (fluid model, as
// SimGrid's LMM solver without its TCP corrections).
//
// Each transfer f is a flow over the resources of its route R_f, at rate r_f (bytes/s). At every
// instant the rates are the max-min fair allocation:
//
//     for every link l:  sum_{f : l in R_f} r_f  <=  bw_l
//     every flow f has a bottleneck l in R_f that is saturated and on which r_f >= r_g for all
//     g crossing l,
//
// found by progressive filling: repeatedly take the link with the smallest fair share
// residual_l / unfixed_l, fix its unfixed flows at that share, subtract it from their other links.
// A flow of n bytes started at t0 drains when  integral_{t0}^{t1} r_f(t) dt = n  and is delivered
// at  t1 + sum_{l in R_f} lat_l  (the last byte still has to travel the route). A single flow on
// idle links therefore takes exactly  lat(R) + n / min bw  — the analytic model's time.
//
// Incremental re-solve: the max-min allocation decomposes over connected components of the
// flow/link sharing graph, so when a flow starts or ends only the component of its links is
// re-solved (the flows reachable through shared links); every other flow keeps its rate and its
// scheduled drain event. Flows whose rate changes get their remaining bytes advanced at the old
// rate and a new drain event; the superseded event is recognised by its sequence number and
// dropped. Zero-byte transfers take the route latency and no bandwidth.

#include <vector>

#include "sim/NetworkModel.hpp"
#include "sim/SlotPool.hpp"

namespace mapsim::sim {

class FlowModel final : public NetworkModel {
 public:
  FlowModel(Engine& engine, Network& network);

  void start(const Transfer& transfer) override;
  void handle(const QueuedEvent& event) override;

 private:
  struct Flow {
    Route route;
    double remaining = 0;  // bytes
    double rate = 0;       // bytes per second
    Time updated = 0;      // when `remaining` was last brought up to date
    std::uint64_t event_seq = 0;
    std::uint32_t transfer = 0;
    std::uint32_t mark = 0;  // component search epoch
    bool fixed = false;
    bool scheduled = false;
  };
  struct Link {
    std::vector<std::uint32_t> flows;
    double residual = 0;
    std::uint32_t unfixed = 0;
    std::uint32_t mark = 0;
  };

  void resolve(const Route& seed);
  void reschedule(std::uint32_t flow);

  SlotPool<Flow> flows_;
  std::vector<Link> links_;
  std::uint32_t epoch_ = 0;
  // Scratch of the component search, kept to avoid allocating per re-solve.
  std::vector<ResourceId> stack_;
  std::vector<ResourceId> component_links_;
  std::vector<std::uint32_t> component_flows_;
  std::vector<double> old_rates_;
};

}  // namespace mapsim::sim
