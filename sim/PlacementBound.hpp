#pragma once
// The placement bound: a makespan below which no mapping of a trace's ranks onto a machine
// replays, under the analytic and flow models and the replay's other settings (so a user sees
// how much any placement could still gain over the one at hand).
//
// A message of n bytes between two distinct ranks takes one channel c of the machine — a
// socket's intra-node channel, the channel between two sockets, or a network route — and costs
// at least its contention-free time there (both models; flow shares bandwidth, so never less):
//
//     T(n) >= L* lf(n) + n / (B* bf(n)),    L* = min_c L_c,  B* = max_c B_c
//
// over the channels c a pair of distinct ranks can take on the machine (lf, bf the size
// factors). For the network: a route has at least one link, so on machines whose nodes route
// (mesh, torus, HAEC Box) L_net = the smallest link latency; elsewhere it leaves its source on
// one link and enters its destination on another, so L_net = the smallest latency of a link
// leaving a node plus the smallest of a link entering one. B_net = the largest bandwidth of a
// link leaving a node (a route is no faster than its first link). The sender and receiver
// overheads (sim/Overheads.hpp) are at least their smallest over the same channels, term by term
// (o_s, O_s, o_r, O_r); the gap is kept only when distinct ranks can take one channel kind alone
// (else 0: two channels' gaps run independently). Messages of a rank to itself take its
// intra-node channel on every machine and keep its costs.
//
// The bound is the trace replayed with those costs and no contention: the analytic model on an
// ideal machine (ideal_machine) of one node per rank, every two joined through one switch by
// links of B* and L*/2 each (rounded down to the ps), the replay's settings otherwise unchanged.
// It bounds every real replay because the replay's makespan cannot fall when a message or an
// overhead takes longer: each rank's events run in program order, messages match in posting
// order whatever their timing, and Waits name their requests (traces/Trace.hpp), so the replay
// is a max-plus system of its costs. (One exception is not covered: a non-blocking collective's
// steps occupying a CPU beside other work, in the order they arrive, under overheads.) The
// packet model cuts messages into packets whose times round to the ps one by one, so its
// replays can end a few ps under the bound: it is not offered there.
//
// No mapping attains the bound unless every pair of ranks that talk sits on the cheapest
// channel, which the machine rarely allows for all pairs at once; where contention or distance
// decides, the bound is loose (the critical path of its Result says what it is made of).

#include <memory>

#include "sim/Simulation.hpp"

namespace mapsim::sim {

/// The machine and settings whose replay is the bound.
struct IdealMachine {
  std::unique_ptr<topo::Topology> topology;  ///< fattree:1;R;1;1, one node per rank
  topo::Mapping mapping;                     ///< rank r on node r
  SimConfig config;                          ///< analytic, with L*, B* and the least overheads
  Time latency = 0;                          ///< L*, ps
  double bandwidth = 0;                      ///< B*, bytes per second
};

/// The ideal machine of `ranks` ranks on `machine` under `config`. Throws InputError if the
/// model is not analytic or flow, or ranks < 1.
IdealMachine ideal_machine(const topo::Topology& machine, Rank ranks, const SimConfig& config);

/// The replay of the trace on its ideal machine: its makespan is the bound, its critical path
/// what the bound is made of. Throws as simulate() and ideal_machine() do.
Result placement_bound(const traces::Trace& trace, const topo::Topology& machine,
                       const SimConfig& config);
Result placement_bound(traces::EventStreams& streams, const topo::Topology& machine,
                       const SimConfig& config);

}  // namespace mapsim::sim
