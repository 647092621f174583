// Collectives replayed through CollectiveSchedule, counted and timed by hand. Every member sits on
// one node (torus:4x4x4:cores=8) with the analytic model, so every message costs the intra-node
// channel's 200 ns + size / 1 GB/s and never waits for another: the makespan is the number of
// rounds on the critical path times that cost.

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"

namespace mapsim::testing {
namespace {

using traces::CollectiveOp;

sim::Result run_on_one_node(const TraceBuilder& b) {
  const std::vector<topo::NodeId> nodes(b.trace().ranks.size(), 0);
  return run(b.trace(), "torus:4x4x4:cores=8", nodes, round_config("analytic"));
}

TEST(CollectiveReplay, DisseminationBarrier) {
  TraceBuilder b(8);
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  const auto r = run_on_one_node(b);
  // log2 8 = 3 rounds of 0-byte messages, one per member per round: 24 messages, 3 x 200 ns.
  EXPECT_EQ(r.collective_messages, 24U);
  EXPECT_EQ(r.makespan, 600 * kNs);
  EXPECT_EQ(r.collectives, 8U);
}

TEST(CollectiveReplay, DisseminationBarrierOfFive) {
  TraceBuilder b(5);
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  const auto r = run_on_one_node(b);
  // ceil(log2 5) = 3 rounds, 5 messages each.
  EXPECT_EQ(r.collective_messages, 15U);
  EXPECT_EQ(r.makespan, 600 * kNs);
}

TEST(CollectiveReplay, BinomialBroadcast) {
  TraceBuilder b(8);
  // Score-P: the root records sent 8 b, everyone received b; b = 1000.
  for (Rank r = 0; r < 8; ++r) b.collective(r, CollectiveOp::Bcast, 2, r == 2 ? 8000 : 0, 1000);
  const auto res = run_on_one_node(b);
  // A binomial tree: 7 messages of 1000 B; eager sends return at once, so the root's three go
  // out together and the longest chain is log2 8 = 3 messages: 3 x (200 + 1000) ns.
  EXPECT_EQ(res.collective_messages, 7U);
  EXPECT_EQ(res.collective_bytes, 7000U);
  EXPECT_EQ(res.makespan, 3600 * kNs);
}

TEST(CollectiveReplay, BinomialReduce) {
  TraceBuilder b(8);
  for (Rank r = 0; r < 8; ++r) b.collective(r, CollectiveOp::Reduce, 0, 100, r == 0 ? 800 : 0);
  const auto res = run_on_one_node(b);
  // 7 messages of 100 B up a binomial tree of depth 3: the root gets its last one after
  // 3 x (200 + 100) ns.
  EXPECT_EQ(res.collective_messages, 7U);
  EXPECT_EQ(res.makespan, 900 * kNs);
}

TEST(CollectiveReplay, RecursiveDoublingAllreduce) {
  TraceBuilder b(8);
  b.all(CollectiveOp::Allreduce, -1, 8 * 100, 8 * 100);  // b = sent / P = 100 B < 8 KiB
  const auto r = run_on_one_node(b);
  // 3 rounds of pairwise exchanges of the whole 100 B vector: 24 messages, 3 x 300 ns.
  EXPECT_EQ(r.collective_messages, 24U);
  EXPECT_EQ(r.collective_bytes, 2400U);
  EXPECT_EQ(r.makespan, 900 * kNs);
}

TEST(CollectiveReplay, RingAllreduce) {
  TraceBuilder b(8);
  b.all(CollectiveOp::Allreduce, -1, 8 * 16000, 8 * 16000);  // b = 16000 B >= 8 KiB: ring
  const auto r = run_on_one_node(b);
  // Reduce-scatter then allgather: 2 (P - 1) = 14 steps of b / P = 2000 B per member:
  // 112 messages, 14 x (200 + 2000) ns.
  EXPECT_EQ(r.collective_messages, 112U);
  EXPECT_EQ(r.makespan, 14 * 2200 * kNs);
}

TEST(CollectiveReplay, PairwiseExchangeAlltoall) {
  TraceBuilder b(4);
  b.all(CollectiveOp::Alltoall, -1, 4 * 500, 4 * 500);  // 500 B per peer
  const auto r = run_on_one_node(b);
  // P - 1 = 3 steps, each member sends 500 B to i + s and receives from i - s: 12 messages.
  EXPECT_EQ(r.collective_messages, 12U);
  EXPECT_EQ(r.makespan, 3 * 700 * kNs);
}

TEST(CollectiveReplay, LinearAlltoallPostsEveryMessageAtOnce) {
  TraceBuilder b(4);
  b.all(CollectiveOp::Alltoall, -1, 4 * 500, 4 * 500);  // 500 B per peer
  const std::vector<topo::NodeId> nodes(4, 0);
  auto config = round_config("analytic");
  config.collectives.overrides[static_cast<std::size_t>(traces::CollectiveFamily::Alltoall)] =
      traces::CollectiveAlgorithm::Linear;
  const auto r = run(b.trace(), "torus:4x4x4:cores=8", nodes, config);
  // Open MPI's linear all-to-all posts its 3 receives and 3 sends, then waits for all: without
  // contention every message takes 700 ns from the start, the pairwise exchange's 3 x 700 ns
  // in one.
  EXPECT_EQ(r.collective_messages, 12U);
  EXPECT_EQ(r.makespan, 700 * kNs);
}

TEST(CollectiveReplay, RecursiveDoublingAllgather) {
  TraceBuilder b(4);
  b.all(CollectiveOp::Allgather, -1, 4 * 100, 4 * 100);  // one block of 100 B per member
  const auto r = run_on_one_node(b);
  // log2 4 = 2 rounds: 1 block (100 B), then the 2 gathered (200 B): 8 messages,
  // (200 + 100) + (200 + 200) = 700 ns.
  EXPECT_EQ(r.collective_messages, 8U);
  EXPECT_EQ(r.collective_bytes, 4U * 300U);
  EXPECT_EQ(r.makespan, 700 * kNs);
}

TEST(CollectiveReplay, SubCommunicatorAndRootTranslation) {
  TraceBuilder b(6);
  const auto odd = b.communicator({1, 3, 5});
  // Bcast on {1, 3, 5} rooted at world rank 5 (communicator rank 2); ranks 0, 2, 4 do nothing.
  for (const Rank r : {1, 3, 5})
    b.collective(r, CollectiveOp::Bcast, 5, r == 5 ? 300 : 0, 100, odd);
  const auto res = run_on_one_node(b);
  // Binomial tree of 3: the root itself sends to relative ranks 2 and 1 (its children), both
  // eager, so at once: 2 messages of 100 B, one round: 300 ns.
  EXPECT_EQ(res.collective_messages, 2U);
  EXPECT_EQ(res.makespan, 300 * kNs);
  EXPECT_EQ(res.rank_finish[0], 0);
}

TEST(CollectiveReplay, NonBlockingCollectiveOverlapsComputation) {
  TraceBuilder b(8);
  for (Rank r = 0; r < 8; ++r) {
    b.icollective(r, CollectiveOp::Barrier, -1, 0, 0, 7);
    b.wait(r, 7, 1000 * kNs);  // 1 us of computation before the wait
  }
  const auto r = run_on_one_node(b);
  // The barrier's 600 ns run under the 1 us of computation: the wait returns at once.
  EXPECT_EQ(r.makespan, 1000 * kNs);
  EXPECT_EQ(r.collective_messages, 24U);
}

TEST(CollectiveReplay, CommunicatorDestructionTakesNoTime) {
  TraceBuilder b(4);
  b.all(CollectiveOp::DestroyHandle, -1, 0, 0);
  const auto r = run_on_one_node(b);
  EXPECT_EQ(r.collective_messages, 0U);
  EXPECT_EQ(r.makespan, 0);
}

TEST(CollectiveReplay, MemberThatNeverArrivesIsAnError) {
  TraceBuilder b(3);
  b.collective(0, CollectiveOp::Barrier, -1, 0, 0).collective(1, CollectiveOp::Barrier, -1, 0, 0);
  try {
    run_on_one_node(b);
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("never reached by member rank 2"), std::string::npos)
        << e.what();
  }
}

TEST(CollectiveReplay, MismatchedOperationsAreAnError) {
  TraceBuilder b(2);
  b.collective(0, CollectiveOp::Barrier, -1, 0, 0)
      .collective(1, CollectiveOp::Allreduce, -1, 16, 16);
  EXPECT_THROW(run_on_one_node(b), InputError);
}

}  // namespace
}  // namespace mapsim::testing
