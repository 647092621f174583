// first_share / consistent_cut: hand-solved cuts (a ping-pong, a message left half in, a
// collective reached at different depths, a request completed after the cut, a cancelled
// receive, a cascade along a pipeline), the cut's rules checked independently on generated
// workloads and on real NPB traces, the streamed cut equal to the in-memory one, and bad shares.

#include "traces/TraceSlice.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "traces/EventStreams.hpp"
#include "traces/Otf2Streams.hpp"
#include "traces/TraceReader.hpp"
#include "traces/WorkloadStreams.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::traces {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kData = MAPSIM_TEST_DATA_DIR;

Event send(Rank peer, std::int32_t tag = 0) {
  Event e;
  e.kind = EventKind::Send;
  e.peer = peer;
  e.tag = tag;
  e.bytes = 8;
  return e;
}
Event recv(Rank peer, std::int32_t tag = 0) {
  Event e = send(peer, tag);
  e.kind = EventKind::Recv;
  return e;
}
Event isend(Rank peer, std::uint32_t request) {
  Event e = send(peer);
  e.kind = EventKind::Isend;
  e.request = request;
  return e;
}
Event irecv(Rank peer, std::uint32_t request) {
  Event e = recv(peer);
  e.kind = EventKind::Irecv;
  e.request = request;
  return e;
}
Event wait(std::uint32_t request) {
  Event e;
  e.kind = EventKind::Wait;
  e.request = request;
  return e;
}
Event cancel(std::uint32_t request) {
  Event e = wait(request);
  e.kind = EventKind::Cancel;
  return e;
}
Event allreduce() {
  Event e;
  e.kind = EventKind::Collective;
  e.op = CollectiveOp::Allreduce;
  e.bytes = e.received = 8;
  return e;
}

/// A trace of these ranks' events on MPI_COMM_WORLD, each rank with final gap 7.
Trace make_trace(std::vector<std::vector<Event>> ranks) {
  Trace trace;
  trace.source = "hand-made";
  Communicator world{"MPI_COMM_WORLD", {}};
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    world.members.push_back(static_cast<Rank>(r));
    trace.ranks.push_back(RankStream{std::move(ranks[r]), 7});
  }
  trace.communicators.push_back(world);
  return trace;
}

std::vector<std::size_t> lengths(const Trace& trace) {
  std::vector<std::size_t> out;
  for (const auto& rank : trace.ranks) out.push_back(rank.events.size());
  return out;
}

/// The cut's three rules, counted independently of consistent_cut: every channel's sends and
/// receives equally many, every communicator's collectives equally many at each member, every
/// request posted completed. Returns what breaks them ("" if nothing).
std::string broken_rules(const Trace& trace) {
  std::map<std::tuple<Rank, Rank, int, int>, long> balance;  // sends - receives
  std::map<int, std::map<Rank, long>> calls;
  std::string broken;
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    const auto rank = static_cast<Rank>(r);
    std::set<std::uint32_t> open;
    std::set<std::uint32_t> cancelled;
    for (const auto& e : trace.ranks[r].events) {
      if (e.kind == EventKind::Cancel) cancelled.insert(e.request);
    }
    for (const auto& e : trace.ranks[r].events) {
      switch (e.kind) {
        case EventKind::Isend:
        case EventKind::Irecv:
        case EventKind::ICollective:
          open.insert(e.request);
          break;
        case EventKind::Wait:
        case EventKind::Cancel:
          open.erase(e.request);
          break;
        default:
          break;
      }
      if ((e.kind == EventKind::Isend || e.kind == EventKind::Irecv) &&
          cancelled.contains(e.request))
        continue;
      if (e.kind == EventKind::Send || e.kind == EventKind::Isend)
        ++balance[{rank, e.peer, e.comm, e.tag}];
      if (e.kind == EventKind::Recv || e.kind == EventKind::Irecv)
        --balance[{e.peer, rank, e.comm, e.tag}];
      if (e.kind == EventKind::Collective || e.kind == EventKind::ICollective)
        ++calls[e.comm][rank];
    }
    if (!open.empty()) broken += "rank " + std::to_string(r) + " leaves a request open; ";
  }
  for (const auto& [channel, n] : balance) {
    if (n != 0) {
      broken += "channel " + std::to_string(std::get<0>(channel)) + "->" +
                std::to_string(std::get<1>(channel)) + " unbalanced; ";
    }
  }
  for (const auto& [comm, members] : calls) {
    for (const auto member : trace.communicators[static_cast<std::size_t>(comm)].members) {
      const auto it = members.find(member);
      const long n = it == members.end() ? 0 : it->second;
      if (n != members.begin()->second ||
          members.size() != trace.communicators[static_cast<std::size_t>(comm)].members.size())
        broken += "communicator " + std::to_string(comm) + " split; ";
    }
  }
  return broken;
}

/// Each rank's events of the slice are the first ones of the trace's.
void expect_prefixes(const Trace& slice, const Trace& trace) {
  ASSERT_EQ(slice.ranks.size(), trace.ranks.size());
  EXPECT_EQ(slice.communicators, trace.communicators);
  EXPECT_EQ(slice.world, trace.world);
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    const auto& cut = slice.ranks[r].events;
    const auto& all = trace.ranks[r].events;
    ASSERT_LE(cut.size(), all.size()) << r;
    EXPECT_TRUE(std::equal(cut.begin(), cut.end(), all.begin())) << r;
    EXPECT_EQ(slice.ranks[r].final_gap, cut.size() == all.size() ? trace.ranks[r].final_gap : 0)
        << r;
  }
}

// A ping-pong of two round trips: half of each rank's events is the first round trip; three
// quarters (3 events each) are consistent as they are.
TEST(TraceSlice, CutsAPingPongAtItsRoundTrips) {
  const auto trace =
      make_trace({{send(1), recv(1), send(1), recv(1)}, {recv(0), send(0), recv(0), send(0)}});
  const auto half = first_share(trace, 0.5);
  EXPECT_EQ(lengths(half), (std::vector<std::size_t>{2, 2}));
  expect_prefixes(half, trace);
  EXPECT_EQ(lengths(first_share(trace, 0.75)), (std::vector<std::size_t>{3, 3}));
  // ⌈0.3 · 4⌉ = 2.
  EXPECT_EQ(lengths(first_share(trace, 0.3)), (std::vector<std::size_t>{2, 2}));
  const auto whole = first_share(trace, 1);
  EXPECT_EQ(whole.ranks, trace.ranks);  // final gaps kept
}

// Rank 0 sends four messages, which rank 1 receives after two sends of its own to rank 2. At half
// the prefixes hold 2, 3 and 1 events: rank 0's 2 sends against 1 receive at rank 1, rank 1's 2
// sends against 1 receive at rank 2. Rank 1 ends before its second send (1 event), so it keeps
// no receive of rank 0's, and rank 0 keeps no send.
TEST(TraceSlice, LeavesOutTheMessagesHalfIn) {
  const auto trace = make_trace({{send(1), send(1), send(1), send(1)},
                                 {send(2), send(2), recv(0), recv(0), recv(0), recv(0)},
                                 {recv(1), recv(1)}});
  const auto half = first_share(trace, 0.5);
  EXPECT_EQ(lengths(half), (std::vector<std::size_t>{0, 1, 1}));
  EXPECT_EQ(broken_rules(half), "");
  expect_prefixes(half, trace);
}

// A collective reached at different depths: each member keeps its calls up to the fewest any
// member keeps.
TEST(TraceSlice, KeepsACollectiveAtEveryMemberOrAtNone) {
  const auto trace = make_trace({{allreduce(), send(1), allreduce(), send(1)},
                                 {allreduce(), recv(0), allreduce(), recv(0)},
                                 {allreduce(), allreduce()}});
  // At half: 2, 2 and 1 events; rank 2 keeps one allreduce, so do the others (rank 0 keeps its
  // send, rank 1 its receive: two events each).
  EXPECT_EQ(lengths(first_share(trace, 0.5)), (std::vector<std::size_t>{2, 2, 1}));
  // At 0.6: 3, 3 and 2 events: all keep two allreduces.
  EXPECT_EQ(lengths(first_share(trace, 0.6)), (std::vector<std::size_t>{3, 3, 2}));
  // At 0.4: 2, 2 and 1: the same as at half.
  EXPECT_EQ(lengths(first_share(trace, 0.4)), (std::vector<std::size_t>{2, 2, 1}));
  // At 0.25: 1, 1, 1: one allreduce each.
  EXPECT_EQ(lengths(first_share(trace, 0.25)), (std::vector<std::size_t>{1, 1, 1}));
}

// An Isend whose Wait is after the cut goes, with the receive that matches it.
TEST(TraceSlice, KeepsARequestOnlyWithItsCompletion) {
  const auto trace =
      make_trace({{isend(1, 1), send(1), wait(1), send(1)}, {recv(0), recv(0), recv(0)}, {}});
  // Rank 0's first 2 events hold isend 1 without its wait: rank 0 keeps none, so rank 1 none.
  const auto half = first_share(trace, 0.5);
  EXPECT_EQ(lengths(half), (std::vector<std::size_t>{0, 0, 0}));
  // Three quarters: rank 0 keeps isend, send, wait (two messages); rank 1 their two receives of
  // its three.
  EXPECT_EQ(lengths(first_share(trace, 0.75)), (std::vector<std::size_t>{3, 2, 0}));
}

// A cancelled receive takes no message: the cut keeps it (with its cancel) without a send.
TEST(TraceSlice, ACancelledReceiveNeedsNoSend) {
  const auto trace = make_trace({{irecv(1, 4), cancel(4), recv(1), send(1)}, {send(0), recv(0)}});
  const auto cut = consistent_cut(trace, {3, 1});
  EXPECT_EQ(cut, (std::vector<std::size_t>{3, 1}));
  // Without the cancel in the cut the irecv is open: rank 0 keeps nothing, nor rank 1.
  EXPECT_EQ(consistent_cut(trace, {1, 1}), (std::vector<std::size_t>{0, 0}));
}

// A pipeline 0 -> 1 -> 2 -> 3 of four waves, cut where rank 0 has sent three waves and each later
// rank has received one wave fewer: the cut cascades down the pipeline.
TEST(TraceSlice, CascadesAlongAPipeline) {
  std::vector<std::vector<Event>> ranks(4);
  for (int wave = 0; wave < 4; ++wave) {
    ranks[0].push_back(send(1));
    for (Rank r = 1; r < 3; ++r) {
      ranks[static_cast<std::size_t>(r)].push_back(recv(r - 1));
      ranks[static_cast<std::size_t>(r)].push_back(send(r + 1));
    }
    ranks[3].push_back(recv(2));
  }
  const auto trace = make_trace(ranks);
  // Rank 0: 3 sends; rank 1: 2 waves and a receive (5 events); rank 2: 1 wave (2); rank 3: 0.
  const auto cut = consistent_cut(trace, {3, 5, 2, 0});
  // Rank 3 receives nothing, so rank 2 sends nothing (it keeps its first receive), so rank 1
  // sends once (it keeps receive, send, receive), so rank 0 sends twice.
  EXPECT_EQ(cut, (std::vector<std::size_t>{2, 3, 1, 0}));
  // Within prefixes that are consistent already, nothing moves.
  EXPECT_EQ(consistent_cut(trace, {2, 4, 4, 2}), (std::vector<std::size_t>{2, 4, 4, 2}));
}

TEST(TraceSlice, RefusesAShareOutsideZeroToOne) {
  const auto trace = make_trace({{send(1)}, {recv(0)}});
  for (const double bad : {0.0, -0.5, 1.5}) {
    try {
      (void)first_share(trace, bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("(0, 1]")) << bad;
    }
  }
}

GeneratorOptions generated(const std::string& kernel, Rank ranks) {
  GeneratorOptions options;
  options.kernel = kernel;
  options.ranks = ranks;
  return options;
}

// On every generated kernel: the slice keeps the three rules, is a prefix of each rank, grows
// with the share, and the streamed cut equals the in-memory one.
TEST(TraceSlice, GeneratedKernelsCutConsistently) {
  for (const auto& [kernel, ranks] : std::vector<std::pair<std::string, Rank>>{
           {"lu", 8}, {"cg", 8}, {"mg", 8}, {"ft", 8}, {"is", 8}, {"bt", 9}, {"sp", 9}}) {
    SCOPED_TRACE(kernel);
    const auto options = generated(kernel, ranks);
    const auto trace = generate_trace(options);
    std::size_t last = 0;
    for (const double share : {0.1, 0.3, 0.6, 1.0}) {
      SCOPED_TRACE(share);
      const auto slice = first_share(trace, share);
      expect_prefixes(slice, trace);
      EXPECT_EQ(broken_rules(slice), "");
      EXPECT_GE(slice.event_count(), last);
      last = slice.event_count();
      EXPECT_LE(slice.event_count(), static_cast<std::size_t>(share * trace.event_count()) + ranks);
      const auto streamed = first_share(
          [&options]() -> std::unique_ptr<EventStreams> {
            return std::make_unique<WorkloadStreams>(options);
          },
          share);
      EXPECT_EQ(streamed.ranks, slice.ranks);
    }
    EXPECT_GT(first_share(trace, 0.3).event_count(), 0U);
    EXPECT_EQ(first_share(trace, 1.0).ranks, trace.ranks);
  }
}

// Real Score-P traces: the same rules hold, and the archive cut from streams is the same.
TEST(TraceSlice, RealTracesCutConsistently) {
  for (const auto* name : {"cg.S.8", "lu.S.8", "mg.S.8", "bt.S.9", "ft.S.12", "is.S.2"}) {
    SCOPED_TRACE(name);
    const fs::path path = kData / "npb" / name / "traces.otf2";
    ASSERT_TRUE(fs::exists(path)) << path;
    const auto trace = read_trace(path);
    for (const double share : {0.2, 0.5}) {
      SCOPED_TRACE(share);
      const auto slice = first_share(trace, share);
      expect_prefixes(slice, trace);
      EXPECT_EQ(broken_rules(slice), "");
      EXPECT_GT(slice.event_count(), 0U);
      const auto streamed = first_share(
          [&path]() -> std::unique_ptr<EventStreams> {
            return std::make_unique<Otf2Streams>(path);
          },
          share);
      EXPECT_EQ(streamed.ranks, slice.ranks);
    }
  }
}

}  // namespace
}  // namespace mapsim::traces
