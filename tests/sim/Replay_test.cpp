// Replay semantics: matching, requests, cancellation, errors, determinism, link loads.

#include <map>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "sim/Engine.hpp"
#include "sim/EventQueue.hpp"

namespace mapsim::testing {
namespace {

std::string error_of(const traces::Trace& trace, const std::string& model = "flow") {
  try {
    std::vector<topo::NodeId> nodes(trace.ranks.size());
    std::iota(nodes.begin(), nodes.end(), 0);
    run(trace, "torus:4x4x4", nodes, round_config(model));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Replay, MatchesByTagInPostingOrder) {
  TraceBuilder b(2);
  // Rank 0 sends tag 1 (1000 B) then tag 2 (10 B); rank 1 receives tag 2 first, then tag 1.
  b.send(0, 1, 1000, 1).send(0, 1, 10, 2);
  b.recv(1, 0, 10, 2).recv(1, 0, 1000, 1);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config("analytic"));
  // Both eager from time 0: tag 2 arrives at 100 + 10 ns, tag 1 at 100 + 1000 ns; the receives
  // take them by tag, so rank 1 ends at 1100 ns.
  EXPECT_EQ(r.rank_finish[1], 1100 * kNs);
  EXPECT_EQ(r.unmatched_messages, 0U);
}

TEST(Replay, SameTagMatchesInSendingOrder) {
  TraceBuilder b(2);
  // Two messages on one tag: 1000 B then 10 B. The first receive must take the first send even
  // though, under the analytic model, the short one arrives first (no overtaking in matching).
  b.send(0, 1, 1000, 5).send(0, 1, 10, 5);
  b.recv(1, 0, 1000, 5).send(1, 0, 1, 9, 0).recv(1, 0, 10, 5);
  b.recv(0, 1, 1, 9);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config("analytic"));
  // Rank 1's first receive completes at 1100 ns (the 1000 B message); its 1-byte reply reaches
  // rank 0 at 1100 + 101 ns.
  EXPECT_EQ(r.rank_finish[0], 1201 * kNs);
}

TEST(Replay, IrecvPostedBeforeTheSend) {
  TraceBuilder b(2);
  b.irecv(1, 0, 100000, 3).wait(1, 3);
  b.send(0, 1, 100000, 0, 5000 * kNs);  // rendezvous, after 5 us of computation
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config("flow"));
  // 5 us + RTS 100 ns + CTS 100 ns + data 100 ns + 100000 ns.
  EXPECT_EQ(r.makespan, 105300 * kNs);
}

// A rank resumed by the message it waits for, with nothing else due at that picosecond, would
// run next: it resumes within the delivery's handling, without an engine event of its own.
TEST(Replay, ARankResumedByTheNextEventNeedsNoEventOfItsOwn) {
  TraceBuilder b(2);
  for (int round = 0; round < 3; ++round) {
    b.send(0, 1, 1000).recv(0, 1, 1000);
    b.recv(1, 0, 1000).send(1, 0, 1000);
  }
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config("flow"));
  // Six messages one after the other, each 100 ns over one hop + 1000 B at 1 B/ns.
  EXPECT_EQ(r.makespan, 6 * 1100 * kNs);
  // Each rank's first resumption, then per message its join and drain (a lone flow needs no
  // re-solve event; its delivery would run next after the drain, and is not an event either);
  // the six resumptions of a receiver are not events.
  EXPECT_EQ(r.engine_events, 2U + 6U * 2U);
}

TEST(Replay, CancelledReceiveNeverCompletes) {
  TraceBuilder b(2);
  b.irecv(1, 0, 10, 1).cancel(1, 1).recv(1, 0, 10);
  b.send(0, 1, 10, 0, 1000 * kNs);  // after 1 us, when the Irecv has been cancelled
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config("flow"));
  // The cancelled Irecv does not take the message: the blocking Recv gets it at 1000 + 110 ns.
  EXPECT_EQ(r.makespan, 1110 * kNs);
  EXPECT_EQ(r.cancelled, 1U);
  EXPECT_EQ(r.unmatched_messages, 0U);
}

TEST(Replay, UnreceivedEagerSendIsCountedNotFatal) {
  TraceBuilder b(2);
  b.send(0, 1, 10);
  const auto r = run(b.trace(), "torus:4x4x4", {0, 1}, round_config("flow"));
  EXPECT_EQ(r.unmatched_messages, 1U);
}

TEST(Replay, DeadlockNamesTheBlockedRanksAndTheirOperations) {
  TraceBuilder b(3);
  b.recv(0, 1, 8, 4).send(0, 1, 8);
  b.recv(1, 0, 8, 4).send(1, 0, 8);
  const auto message = error_of(b.trace());
  EXPECT_NE(message.find("2 of 3 ranks are blocked"), std::string::npos) << message;
  EXPECT_NE(message.find("rank 0 (event 0 of 2): Recv receive from rank 1, tag 4"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("rank 1 (event 0 of 2): Recv receive from rank 0, tag 4"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("no matching send"), std::string::npos) << message;
}

TEST(Replay, RendezvousSendSendDeadlocks) {
  TraceBuilder b(2);
  // Both send 1 MB first: above the eager threshold, neither send can complete.
  b.send(0, 1, 1'000'000).recv(0, 1, 1'000'000);
  b.send(1, 0, 1'000'000).recv(1, 0, 1'000'000);
  const auto message = error_of(b.trace(), "packet");
  EXPECT_NE(message.find("Send send to rank 1"), std::string::npos) << message;
  EXPECT_NE(message.find("rendezvous: no matching receive"), std::string::npos) << message;
}

TEST(Replay, WaitOnUnknownRequest) {
  TraceBuilder b(1);
  b.wait(0, 42);
  const auto message = error_of(b.trace());
  EXPECT_NE(message.find("rank 0, event 0: Wait on request 42"), std::string::npos) << message;
}

TEST(Replay, CollectiveThatAMemberSkipsDeadlocksWithItsStep) {
  TraceBuilder b(2);
  b.collective(0, traces::CollectiveOp::Barrier, -1, 0, 0)
      .collective(0, traces::CollectiveOp::Barrier, -1, 0, 0);
  b.collective(1, traces::CollectiveOp::Barrier, -1, 0, 0).recv(1, 0, 4);
  b.collective(1, traces::CollectiveOp::Barrier, -1, 0, 0);
  const auto message = error_of(b.trace());
  EXPECT_NE(message.find("rank 0 (event 1 of 2): Collective Barrier #2"), std::string::npos)
      << message;
  EXPECT_NE(message.find("rank 1 (event 1 of 3): Recv"), std::string::npos) << message;
}

TEST(Replay, MappingMustMatchTheTrace) {
  TraceBuilder b(2);
  EXPECT_THROW(run(b.trace(), "torus:4x4x4", {0}, round_config("flow")), InputError);
  EXPECT_THROW(run(b.trace(), "torus:4x4x4", {0, 0}, round_config("flow")), InputError);
  EXPECT_THROW(run(b.trace(), "torus:4x4x4", {0, 64}, round_config("flow")), InputError);
}

TEST(Replay, InvalidConfigurationIsAnError) {
  TraceBuilder b(1);
  auto config = round_config("flow");
  config.compute_scale = -1;
  EXPECT_THROW(run(b.trace(), "torus:4x4x4", {0}, config), InputError);
  config = round_config("packet");
  config.model_options.packet_bytes = 0;
  EXPECT_THROW(run(b.trace(), "torus:4x4x4", {0}, config), InputError);
  config = round_config("flow");
  config.eager_threshold = -5;
  EXPECT_THROW(run(b.trace(), "torus:4x4x4", {0}, config), InputError);
}

/// A random exchange among `ranks` ranks: each rank Isends to a few random peers and Irecvs what
/// the others send it, then waits for all; sizes from 1 B to 200 KB (eager and rendezvous).
traces::Trace random_exchange(Rank ranks, int rounds, unsigned seed) {
  std::mt19937 rng(seed);
  TraceBuilder b(ranks);
  std::uniform_int_distribution<Rank> peer(0, ranks - 1);
  std::uniform_int_distribution<std::int64_t> size(1, 200'000);
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::uint32_t> next(static_cast<std::size_t>(ranks), 1);
    std::vector<std::vector<std::uint32_t>> waits(static_cast<std::size_t>(ranks));
    for (Rank s = 0; s < ranks; ++s) {
      for (int k = 0; k < 3; ++k) {
        const Rank d = peer(rng);
        const auto bytes = size(rng);
        const auto rq = next[static_cast<std::size_t>(s)]++;
        b.isend(s, d, bytes, rq, round);
        waits[static_cast<std::size_t>(s)].push_back(rq);
        const auto rr = next[static_cast<std::size_t>(d)]++;
        b.irecv(d, s, bytes, rr, round);
        waits[static_cast<std::size_t>(d)].push_back(rr);
      }
    }
    for (Rank r = 0; r < ranks; ++r)
      for (const auto rq : waits[static_cast<std::size_t>(r)]) b.wait(r, rq);
    for (Rank r = 0; r < ranks; ++r)
      b.collective(r, traces::CollectiveOp::Allreduce, -1, 8 * ranks, 8 * ranks);
  }
  auto trace = b.trace();
  // Request ids must be unique per rank: renumber them round by round.
  for (auto& stream : trace.ranks) {
    std::uint32_t base = 0;
    std::uint32_t seen = 0;
    for (auto& e : stream.events) {
      if (e.kind == traces::EventKind::Collective) {
        base += seen + 1;
        seen = 0;
        continue;
      }
      if (e.kind != traces::EventKind::Send && e.kind != traces::EventKind::Recv) {
        seen = std::max(seen, e.request);
        e.request += base * 1000;
      }
    }
  }
  return trace;
}

std::vector<topo::NodeId> permuted(Rank ranks, unsigned seed) {
  std::vector<topo::NodeId> nodes(static_cast<std::size_t>(ranks));
  std::iota(nodes.begin(), nodes.end(), 0);
  std::shuffle(nodes.begin(), nodes.end(), std::mt19937(seed));
  return nodes;
}

TEST(Replay, SameRunTwiceGivesIdenticalResults) {
  const auto trace = random_exchange(64, 5, 7);
  const auto nodes = permuted(64, 3);
  for (const auto& model : kModels) {
    const auto a = run(trace, "torus:4x4x4", nodes, round_config(model));
    const auto b = run(trace, "torus:4x4x4", nodes, round_config(model));
    EXPECT_EQ(a.makespan, b.makespan) << model;
    EXPECT_EQ(a.rank_finish, b.rank_finish) << model;
    EXPECT_EQ(a.resource_bytes, b.resource_bytes) << model;
    EXPECT_EQ(a.engine_events, b.engine_events) << model;
    EXPECT_EQ(a.latency.percentile(0.99), b.latency.percentile(0.99)) << model;
    EXPECT_GT(a.makespan, 0) << model;
    EXPECT_EQ(a.unmatched_messages, 0U) << model;
    EXPECT_EQ(a.messages, 64U * 3U * 5U) << model;
  }
}

// The torus's dimension-order route, written again here from its definition (x, then y, then z;
// each dimension the shorter way round, a tie the positive way), as (from, to) node pairs.
std::vector<std::pair<int, int>> dor_route(int a, int b, int k) {
  std::vector<std::pair<int, int>> hops;
  int c[3] = {a % k, (a / k) % k, a / (k * k)};
  const int t[3] = {b % k, (b / k) % k, b / (k * k)};
  for (int d = 0; d < 3; ++d) {
    const int forward = ((t[d] - c[d]) % k + k) % k;
    const int step = forward <= k - forward ? 1 : -1;
    while (c[d] != t[d]) {
      const int from = c[0] + k * c[1] + k * k * c[2];
      c[d] = ((c[d] + step) % k + k) % k;
      hops.emplace_back(from, c[0] + k * c[1] + k * k * c[2]);
    }
  }
  return hops;
}

TEST(Replay, LinkBytesEqualStaticDimensionOrderLoads) {
  // Point-to-point only, so that every byte on a link is a trace message's.
  TraceBuilder b(64);
  std::mt19937 rng(11);
  std::uniform_int_distribution<Rank> peer(0, 63);
  std::uniform_int_distribution<std::int64_t> size(1, 100'000);
  std::uint32_t request = 1;
  std::vector<std::vector<std::uint32_t>> waits(64);
  for (int i = 0; i < 400; ++i) {
    const Rank s = peer(rng);
    const Rank d = peer(rng);
    const auto bytes = size(rng);
    b.isend(s, d, bytes, request, i);
    b.irecv(d, s, bytes, request + 1, i);
    waits[static_cast<std::size_t>(s)].push_back(request);
    waits[static_cast<std::size_t>(d)].push_back(request + 1);
    request += 2;
  }
  for (Rank r = 0; r < 64; ++r)
    for (const auto rq : waits[static_cast<std::size_t>(r)]) b.wait(r, rq);
  const auto nodes = permuted(64, 5);
  std::map<std::pair<int, int>, std::int64_t> expected;
  for (Rank s = 0; s < 64; ++s) {
    for (const auto& e : b.trace().ranks[static_cast<std::size_t>(s)].events) {
      if (e.kind != traces::EventKind::Isend) continue;
      for (const auto& hop : dor_route(nodes[static_cast<std::size_t>(s)],
                                       nodes[static_cast<std::size_t>(e.peer)], 4))
        expected[hop] += e.bytes;
    }
  }
  const auto topology = topo::make_topology("torus:4x4x4");
  for (const auto& model : kModels) {
    const auto r = sim::simulate(b.trace(), *topology, topo::Mapping(nodes), round_config(model));
    std::map<std::pair<int, int>, std::int64_t> measured;
    for (topo::LinkId l = 0; l < topology->link_count(); ++l) {
      const auto bytes = r.resource_bytes[static_cast<std::size_t>(l)];
      if (bytes > 0) measured[{topology->link(l).from, topology->link(l).to}] = bytes;
    }
    EXPECT_EQ(measured, expected) << model;
  }
}

TEST(EventQueue, AllQueuesPopInTimeThenSchedulingOrder) {
  sim::BinaryHeap binary;
  sim::QuadHeap quad;
  sim::PairingHeap pairing;
  std::mt19937 rng(1);
  std::uniform_int_distribution<sim::Time> time(0, 50);  // many ties
  std::vector<sim::QueuedEvent> all;
  for (std::uint64_t seq = 0; seq < 2000; ++seq) {
    const sim::QueuedEvent e{time(rng), seq, 0, static_cast<std::uint32_t>(seq)};
    all.push_back(e);
    binary.push(e);
    quad.push(e);
    pairing.push(e);
  }
  std::sort(all.begin(), all.end(), sim::earlier);
  for (const auto& want : all) {
    EXPECT_EQ(binary.top().data, want.data);
    EXPECT_EQ(quad.top().data, want.data);
    EXPECT_EQ(pairing.top().data, want.data);
    binary.pop();
    quad.pop();
    pairing.pop();
  }
  EXPECT_TRUE(binary.empty() && quad.empty() && pairing.empty());
}

// Times up to the clock's end and sequence numbers past 2^32 (the 4-ary heap compares (time, seq)
// as one 128-bit key), with pushes and pops interleaved: every queue pops the earliest pending
// event.
TEST(EventQueue, AllQueuesKeepTheOrderAtLargeTimesAndSequenceNumbers) {
  sim::BinaryHeap binary;
  sim::QuadHeap quad;
  sim::PairingHeap pairing;
  std::mt19937_64 rng(3);
  const std::vector<sim::Time> times{0,
                                     1,
                                     (sim::Time{1} << 32) - 1,
                                     sim::Time{1} << 32,
                                     sim::Time{1} << 62,
                                     sim::kMaxTime - 1,
                                     sim::kMaxTime};
  std::vector<sim::QueuedEvent> pending;
  std::uint64_t seq = (std::uint64_t{1} << 33) - 500;  // crosses 2^33 on the way
  for (int step = 0; step < 3000; ++step) {
    if (pending.empty() || rng() % 3 != 0) {
      const sim::QueuedEvent e{times[rng() % times.size()], seq, 0,
                               static_cast<std::uint32_t>(step)};
      seq += 1 + rng() % 3;
      pending.push_back(e);
      binary.push(e);
      quad.push(e);
      pairing.push(e);
      continue;
    }
    const auto want = *std::min_element(pending.begin(), pending.end(), sim::earlier);
    ASSERT_EQ(binary.top().data, want.data) << "step " << step;
    ASSERT_EQ(quad.top().data, want.data) << "step " << step;
    ASSERT_EQ(pairing.top().data, want.data) << "step " << step;
    binary.pop();
    quad.pop();
    pairing.pop();
    pending.erase(std::find_if(pending.begin(), pending.end(),
                               [&](const sim::QueuedEvent& e) { return e.data == want.data; }));
  }
  EXPECT_EQ(quad.size(), pending.size());
}

// The engine runs events in (time, scheduling order) while handlers schedule more, many of them
// for the current picosecond (which skip the heap): the order it runs them in is the order a
// single queue of every event, sorted by (time, seq), gives.
TEST(Engine, RunsEventsInTimeThenSchedulingOrderWhileTheyScheduleMore) {
  sim::Engine engine;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> children(0, 2);
  std::uniform_int_distribution<sim::Time> delay(0, 3);  // 0: the current picosecond
  std::vector<sim::QueuedEvent> scheduled;
  const auto schedule = [&](sim::Time at) {
    const auto data = static_cast<std::uint32_t>(scheduled.size());
    const auto seq = engine.schedule(at, 0, data);
    scheduled.push_back(sim::QueuedEvent{at, seq, 0, data});
  };
  for (int i = 0; i < 20; ++i) schedule(delay(rng));
  std::vector<sim::QueuedEvent> ran;
  sim::QueuedEvent event;
  while (engine.next(event)) {
    EXPECT_EQ(engine.now(), event.time);
    ran.push_back(event);
    if (scheduled.size() < 3000) {
      for (int k = children(rng); k > 0; --k) schedule(engine.now() + delay(rng));
    }
  }
  EXPECT_EQ(engine.pending(), 0U);
  ASSERT_EQ(ran.size(), scheduled.size());
  std::sort(scheduled.begin(), scheduled.end(), sim::earlier);
  for (std::size_t i = 0; i < ran.size(); ++i) {
    ASSERT_EQ(ran[i].data, scheduled[i].data) << i;
    EXPECT_EQ(ran[i].seq, scheduled[i].seq) << i;
  }
}

TEST(Engine, RunsATimerDueNowBeforeTheEventsScheduledForNow) {
  // A at 10 (sequence 0), the timer at 10 (1), set again to 10 from 20 (superseding it): A runs
  // first and schedules B for now (sequence 3). The timer was set before the clock reached 10,
  // so it runs before B; then C, scheduled for 12 before the timer moved to 11, runs after it.
  sim::Engine engine;
  engine.schedule(10, 0, 'A');
  engine.set_timer(20, 1, 'X');
  engine.set_timer(10, 1, 'T');
  engine.schedule(12, 0, 'C');
  std::string order;
  sim::QueuedEvent event;
  while (engine.next(event)) {
    order += static_cast<char>(event.data);
    if (event.data == 'A') engine.schedule(engine.now(), 0, 'B');
    if (event.data == 'T') engine.set_timer(11, 1, 'U');
  }
  EXPECT_EQ(order, "ATBUC");
  EXPECT_EQ(engine.processed(), 6U);  // the five and X, superseded
}

TEST(Engine, RunsTheTimerAsTheEventItStandsForAndCountsSupersededOnes) {
  // Handlers schedule events and move the timer (at now or later, earlier or later than it
  // was), as the flow model moves its drain wake-up. Every event but the superseded timers runs,
  // in (time, sequence) order as though the timer's events had been scheduled, and processed()
  // counts the superseded ones too, as the stale events they replace.
  sim::Engine engine;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> children(0, 3);
  std::uniform_int_distribution<int> coin(0, 9);
  std::uniform_int_distribution<sim::Time> delay(0, 4);
  std::vector<sim::QueuedEvent> expected;
  std::uint64_t superseded = 0;
  constexpr std::size_t kNoTimer = SIZE_MAX;
  std::size_t timer = kNoTimer;  // index in expected of the timer's event
  std::uint32_t next_data = 0;
  const auto schedule = [&](sim::Time at) {
    const auto data = next_data++;
    if (coin(rng) == 0) {
      const auto seq = engine.set_timer(at, 1, data);
      if (timer != kNoTimer) {
        expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(timer));
        ++superseded;
      }
      timer = at == engine.now() ? kNoTimer : expected.size();
      expected.push_back(sim::QueuedEvent{at, seq, 1, data});
    } else {
      const auto seq = engine.schedule(at, 0, data);
      expected.push_back(sim::QueuedEvent{at, seq, 0, data});
    }
  };
  for (int i = 0; i < 20; ++i) schedule(delay(rng));
  std::vector<sim::QueuedEvent> ran;
  sim::QueuedEvent event;
  while (engine.next(event)) {
    EXPECT_EQ(engine.now(), event.time);
    if (timer != kNoTimer && expected[timer].seq == event.seq) timer = kNoTimer;
    ran.push_back(event);
    if (next_data < 3000) {
      for (int k = children(rng); k > 0; --k) schedule(engine.now() + delay(rng));
    }
  }
  const auto timers_ran = static_cast<std::size_t>(
      std::count_if(ran.begin(), ran.end(), [](const sim::QueuedEvent& e) { return e.kind == 1; }));
  EXPECT_GT(superseded, 100U);
  EXPECT_GT(timers_ran, 50U);
  EXPECT_EQ(engine.pending(), 0U);
  EXPECT_EQ(engine.processed(), ran.size() + superseded);
  ASSERT_EQ(ran.size(), expected.size());
  std::sort(expected.begin(), expected.end(), sim::earlier);
  for (std::size_t i = 0; i < ran.size(); ++i) {
    ASSERT_EQ(ran[i].data, expected[i].data) << i;
    EXPECT_EQ(ran[i].seq, expected[i].seq) << i;
    EXPECT_EQ(ran[i].kind, expected[i].kind) << i;
  }
}

}  // namespace
}  // namespace mapsim::testing
