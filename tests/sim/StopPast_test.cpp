// StopCondition::past: a replay stops at its first event later than the limit while a rank is
// still running (Result::cut, its makespan then past the limit and no later than the whole
// replay's), and a replay whose ranks all finish by the limit is the whole replay, field for
// field, whatever events follow its last rank's finish.

#include <numeric>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "support/Error.hpp"

namespace mapsim::testing {
namespace {

using ::testing::HasSubstr;

sim::Result replay(const traces::Trace& trace, const std::string& model, sim::Time past) {
  auto config = round_config(model);
  config.stop.past = past;
  std::vector<topo::NodeId> nodes(trace.ranks.size());
  std::iota(nodes.begin(), nodes.end(), 0);
  return run(trace, "torus:4x4", nodes, config);
}

// Rank 0 computes 10 us, then sends 1000 B to rank 1 (eager): 100 ns of latency and 1000 ns at
// 1 GB/s, so rank 1 finishes at 11.1 us; rank 0 then computes 5 us more (final gap): 15 us.
traces::Trace two_ranks() {
  TraceBuilder b(2);
  b.send(0, 1, 1000, 0, 10 * kUs).final_gap(0, 5 * kUs);
  b.recv(1, 0, 1000);
  return b.trace();
}

TEST(StopPast, AReplayPastTheLimitWithARankRunningStopsThere) {
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto whole = replay(two_ranks(), model, 0);
    ASSERT_FALSE(whole.cut);
    ASSERT_EQ(whole.makespan, 15 * kUs);
    ASSERT_EQ(whole.rank_finish[1], 11100 * kNs);
    // At 5 us both ranks run: the first event after it (rank 0's resume at 10 us) stops it.
    const auto early = replay(two_ranks(), model, 5 * kUs);
    EXPECT_TRUE(early.cut);
    EXPECT_EQ(early.makespan, 10 * kUs);
    EXPECT_EQ(early.rank_finish, (std::vector<sim::Time>{10 * kUs, 10 * kUs}));
    // At 12 us rank 1 has finished; rank 0's last event, its end at 15 us, stops it.
    const auto late = replay(two_ranks(), model, 12 * kUs);
    EXPECT_TRUE(late.cut);
    EXPECT_GT(late.makespan, 12 * kUs);
    EXPECT_LE(late.makespan, whole.makespan);
    EXPECT_EQ(late.rank_finish[1], whole.rank_finish[1]);
    // By the makespan every rank has finished: nothing to cut.
    for (const sim::Time past : {whole.makespan, whole.makespan + 1, 100 * kMs}) {
      const auto full = replay(two_ranks(), model, past);
      EXPECT_FALSE(full.cut) << past;
      expect_same_result(full, whole);
    }
  }
}

// Rank 0 sends 10 B eagerly to rank 1, which never receives it: both ranks finish at 0, and the
// message is delivered 110 ns later with every rank finished. No limit cuts that replay.
TEST(StopPast, EventsAfterEveryRankFinishedAreNotCut) {
  TraceBuilder b(2);
  b.send(0, 1, 10);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const auto whole = replay(b.trace(), model, 0);
    ASSERT_EQ(whole.makespan, 0);
    ASSERT_EQ(whole.unmatched_messages, 1U);
    const auto limited = replay(b.trace(), model, 1);
    EXPECT_FALSE(limited.cut);
    expect_same_result(limited, whole);
  }
}

TEST(StopPast, ANegativeLimitIsRejected) {
  try {
    (void)replay(two_ranks(), "flow", -1);
    FAIL() << "a negative stop time was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("stop time must be zero (none) or positive, got -1 ps"));
  }
}

}  // namespace
}  // namespace mapsim::testing
