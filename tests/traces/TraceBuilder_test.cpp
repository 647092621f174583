// The in-memory sink: what each call becomes in the trace model (Trace.hpp's rules, as the
// reader derives them from an archive), and the misuse that is a generator bug.

#include "traces/TraceBuilder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/traces/GeneratorChecks.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kPs = 1000;  // ps per ns

Event event(EventKind kind, std::int64_t gap_ns = 0) {
  Event e;
  e.kind = kind;
  e.gap = gap_ns * kPs;
  return e;
}

Event p2p(EventKind kind, Rank peer, std::int32_t tag, std::int64_t bytes, CommId comm,
          std::uint32_t request = 0, std::int64_t gap_ns = 0) {
  Event e = event(kind, gap_ns);
  e.peer = peer;
  e.tag = tag;
  e.bytes = bytes;
  e.comm = comm;
  e.request = request;
  return e;
}

Event wait(std::uint32_t request, std::int64_t gap_ns = 0) {
  Event e = event(EventKind::Wait, gap_ns);
  e.request = request;
  return e;
}

Event collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent, std::int64_t received,
                 std::int64_t gap_ns = 0) {
  Event e = event(EventKind::Collective, gap_ns);
  e.op = op;
  e.comm = comm;
  e.peer = root;
  e.bytes = sent;
  e.received = received;
  return e;
}

Trace small_trace() {
  TraceBuilder builder("small");
  testing::small_program(builder);
  return builder.take();
}

TEST(TraceBuilder, RecordsEachCallAsTheReaderWould) {
  const Trace trace = small_trace();
  EXPECT_EQ(trace.source, "small");
  ASSERT_EQ(trace.rank_count(), 3);
  EXPECT_EQ(trace.world, 0);
  EXPECT_EQ(trace.communicators,
            (std::vector<Communicator>{{"MPI_COMM_WORLD", {0, 1, 2}}, {"reversed", {2, 1, 0}}}));
  // Rank 0: 5 ns before MPI_Init; the Waitall over (Irecv, Isend) becomes two Waits in that
  // order, the first carrying the 3 ns computed after posting; the split is a CREATE_HANDLE on
  // its parent (WORLD); the Reduce's root is world rank 2; 2 ns after MPI_Finalize.
  EXPECT_EQ(trace.ranks[0].events,
            (std::vector<Event>{
                collective(CollectiveOp::CreateHandle, 0, -1, 0, 0, 5),
                p2p(EventKind::Irecv, 1, 7, 100, 0, 0, 10), p2p(EventKind::Isend, 1, 8, 200, 0, 1),
                wait(0, 3), wait(1), collective(CollectiveOp::Bcast, 0, 0, 24, 8),
                collective(CollectiveOp::CreateHandle, 0, -1, 0, 0),
                p2p(EventKind::Send, 2, 9, 50, 1), collective(CollectiveOp::Reduce, 1, 2, 8, 0),
                collective(CollectiveOp::DestroyHandle, 0, -1, 0, 0)}));
  EXPECT_EQ(trace.ranks[0].final_gap, 2 * kPs);
  // Rank 1: two MPI_Wait calls, the second after 1 ns; requests numbered 0, 1 afresh per rank.
  EXPECT_EQ(trace.ranks[1].events,
            (std::vector<Event>{collective(CollectiveOp::CreateHandle, 0, -1, 0, 0),
                                p2p(EventKind::Isend, 0, 7, 100, 0, 0),
                                p2p(EventKind::Irecv, 0, 8, 200, 0, 1), wait(0), wait(1, 1),
                                collective(CollectiveOp::Bcast, 0, 0, 0, 8),
                                collective(CollectiveOp::CreateHandle, 0, -1, 0, 0),
                                collective(CollectiveOp::Reduce, 1, 2, 8, 0),
                                collective(CollectiveOp::DestroyHandle, 0, -1, 0, 0)}));
  EXPECT_EQ(trace.ranks[1].final_gap, 0);
  // Rank 2: a blocking Recv from world rank 0 on the reversed communicator.
  EXPECT_EQ(trace.ranks[2].events[3], p2p(EventKind::Recv, 0, 9, 50, 1, 0, 7));
  EXPECT_EQ(trace.ranks[2].events[4], collective(CollectiveOp::Reduce, 1, 2, 8, 24));
}

TEST(TraceBuilder, RejectsRanksOutOfOrder) {
  TraceBuilder builder("x");
  builder.begin_trace(2, {{"MPI_COMM_WORLD", {0, 1}, -1}});
  EXPECT_THROW(builder.begin_rank(1), InternalError);
}

TEST(TraceBuilder, RejectsAPeerOutsideTheCommunicator) {
  TraceBuilder builder("x");
  builder.begin_trace(3, {{"MPI_COMM_WORLD", {0, 1, 2}, -1}, {"pair", {0, 1}, 0}});
  builder.begin_rank(0);
  EXPECT_THROW(builder.send(2, 0, 8, 1), InternalError);
  EXPECT_THROW(builder.send(3, 0, 8, 0), InternalError);
}

TEST(TraceBuilder, RejectsWaitingOnAnUnknownRequest) {
  TraceBuilder builder("x");
  builder.begin_trace(2, {{"MPI_COMM_WORLD", {0, 1}, -1}});
  builder.begin_rank(0);
  const auto request = builder.isend(1, 0, 8, 0);
  builder.wait(request);
  EXPECT_THROW(builder.wait(request), InternalError);  // already completed
}

TEST(TraceBuilder, RejectsARankEndingWithPendingRequests) {
  TraceBuilder builder("x");
  builder.begin_trace(2, {{"MPI_COMM_WORLD", {0, 1}, -1}});
  builder.begin_rank(0);
  (void)builder.irecv(1, 0, 8, 0);
  EXPECT_THROW(builder.end_rank(), InternalError);
}

TEST(TraceBuilder, RejectsADupWithOtherMembers) {
  TraceBuilder builder("x");
  builder.begin_trace(2, {{"MPI_COMM_WORLD", {0, 1}, -1}, {"not a dup", {0}, 0}});
  builder.begin_rank(0);
  EXPECT_THROW(builder.comm_dup(0, 1), InternalError);
}

}  // namespace
}  // namespace mapsim::traces
