// SimGrid time-independent export: the exact action lines SimgridTi.hpp's rules give for small
// hand-built traces (point-to-point, tags, requests, computation, collectives, cancellation,
// errors), and the matching invariant over a generated NPB trace.

#include "traces/SimgridTi.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/sim/TraceBuilder.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/CollectiveSchedule.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::traces {
namespace {

namespace fs = std::filesystem;
using mapsim::testing::TempDir;
using mapsim::testing::TraceBuilder;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

/// Compute amounts are gap * 1e-12 * flops_per_second in doubles: equal up to rounding.
constexpr double kFlopsTolerance = 1e-9;
constexpr std::int64_t kUs = 1'000'000;  // ps

SimgridTiOptions at_speed(double flops_per_second) {
  SimgridTiOptions options;
  options.flops_per_second = flops_per_second;
  return options;
}

SimgridTiOptions communication_only() {
  SimgridTiOptions options;
  options.compute = false;
  return options;
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> rank_file(const fs::path& dir, Rank r) {
  return lines_of(dir / fmt::format("rank-{}.txt", r));
}

/// Compares action lines; a "compute F" line matches the expected one if F agrees within
/// kFlopsTolerance (relative), every other line must be equal.
void expect_actions(const std::vector<std::string>& actual,
                    const std::vector<std::string>& expected) {
  std::vector<std::string> normalised = actual;
  for (std::size_t i = 0; i < normalised.size() && i < expected.size(); ++i) {
    const auto at = expected[i].find(" compute ");
    if (at == std::string::npos || normalised[i].compare(0, at + 9, expected[i], 0, at + 9) != 0)
      continue;
    const double want = std::strtod(expected[i].c_str() + at + 9, nullptr);
    const double got = std::strtod(normalised[i].c_str() + at + 9, nullptr);
    if (std::abs(got - want) <= kFlopsTolerance * std::abs(want)) normalised[i] = expected[i];
  }
  EXPECT_THAT(normalised, ElementsAreArray(expected));
}

TEST(SimgridTi, BlockingSendRecvPairAndIndex) {
  TraceBuilder b(2);
  b.send(0, 1, 100).recv(1, 0, 100);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path());
  // The first message 0 -> 1 gets tag 0 (no earlier message on that pair); the receive carries
  // the sender's 100 bytes. Every file opens with init and closes with finalize.
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 send 1 0 100", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 recv 0 0 100", "1 finalize"));
  EXPECT_THAT(lines_of(dir.path() / "index.txt"),
              ElementsAre(fs::absolute(dir.path() / "rank-0.txt").string(),
                          fs::absolute(dir.path() / "rank-1.txt").string()));
  EXPECT_EQ(stats.messages, 1U);
  EXPECT_EQ(stats.actions, 2U);  // init and finalize are not actions of the trace
  EXPECT_EQ(stats.dropped_cancelled, 0U);
}

TEST(SimgridTi, TagsCountMessagesPerPairWhateverTheMpiTagAndCommunicator) {
  TraceBuilder b(2);
  const auto sub = b.communicator({0, 1});
  // Rank 0 sends A (tag 5, WORLD, 10 B), B (tag 7, WORLD, 20 B), C (tag 5, sub, 30 B),
  // D (tag 5, WORLD, 40 B): the 1st..4th messages 0 -> 1, so TI tags 0, 1, 2, 3.
  b.isend(0, 1, 10, 0, 5).isend(0, 1, 20, 1, 7).isend(0, 1, 30, 2, 5).isend(0, 1, 40, 3, 5);
  b.wait(0, 0).wait(0, 1).wait(0, 2).wait(0, 3);
  // Rank 1 posts (tag 5, sub) -> C, (tag 7, WORLD) -> B, then twice (tag 5, WORLD): the first
  // takes A and the second D (same key: in sending order).
  b.irecv(1, 0, 30, 0, 5).irecv(1, 0, 20, 1, 7).irecv(1, 0, 10, 2, 5).irecv(1, 0, 40, 3, 5);
  b.wait(1, 3).wait(1, 2).wait(1, 1).wait(1, 0);
  auto trace = b.trace();
  trace.ranks[0].events[2].comm = sub;
  trace.ranks[1].events[0].comm = sub;
  const TempDir dir;
  const auto stats = write_simgrid_ti(trace, dir.path());
  EXPECT_THAT(
      rank_file(dir.path(), 0),
      ElementsAre("0 init", "0 isend 1 0 10", "0 isend 1 1 20", "0 isend 1 2 30", "0 isend 1 3 40",
                  "0 wait 0 1 0", "0 wait 0 1 1", "0 wait 0 1 2", "0 wait 0 1 3", "0 finalize"));
  // Rank 1's waits name its requests 3, 2, 1, 0: messages D, A, B, C.
  EXPECT_THAT(
      rank_file(dir.path(), 1),
      ElementsAre("1 init", "1 irecv 0 2 30", "1 irecv 0 1 20", "1 irecv 0 0 10", "1 irecv 0 3 40",
                  "1 wait 0 1 3", "1 wait 0 1 0", "1 wait 0 1 1", "1 wait 0 1 2", "1 finalize"));
  EXPECT_EQ(stats.messages, 4U);
}

TEST(SimgridTi, TagsCountPerOrderedPair) {
  TraceBuilder b(3);
  // Pairs count separately: 0 -> 1 tags 0, 1; 0 -> 2 tag 0; 1 -> 0 tag 0.
  b.send(0, 1, 1).send(0, 2, 2).send(0, 1, 3).recv(0, 1, 4);
  b.recv(1, 0, 1).recv(1, 0, 3).send(1, 0, 4);
  b.recv(2, 0, 2);
  const TempDir dir;
  write_simgrid_ti(b.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 send 1 0 1", "0 send 2 0 2",
                                                    "0 send 1 1 3", "0 recv 1 0 4", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1),
              ElementsAre("1 init", "1 recv 0 0 1", "1 recv 0 1 3", "1 send 0 0 4", "1 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 2), ElementsAre("2 init", "2 recv 0 0 2", "2 finalize"));
}

TEST(SimgridTi, IsendIrecvWaitAtTheWaitsPosition) {
  TraceBuilder b(2);
  // Rank 0: Isend 64 B (request 0), Recv 8 B from 1, Wait(0).
  // Rank 1: Irecv 64 B (request 4), Send 8 B to 0, Wait(4).
  b.isend(0, 1, 64, 0, 11).recv(0, 1, 8, 12).wait(0, 0);
  b.irecv(1, 0, 64, 4, 11).send(1, 0, 8, 12).wait(1, 4);
  const TempDir dir;
  write_simgrid_ti(b.trace(), dir.path());
  // Each pair's first message: tag 0. `wait src dst tag` names the message, not the request.
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 isend 1 0 64", "0 recv 1 0 8",
                                                    "0 wait 0 1 0", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 irecv 0 0 64", "1 send 0 0 8",
                                                    "1 wait 0 1 0", "1 finalize"));
}

TEST(SimgridTi, ReceivesCarryTheSendersSize) {
  TraceBuilder b(2);
  // The receive recorded 4096 B (its buffer); the message is the sender's 100 B.
  b.send(0, 1, 100).recv(1, 0, 4096);
  const TempDir dir;
  write_simgrid_ti(b.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 recv 0 0 100", "1 finalize"));
}

TEST(SimgridTi, ComputeFromInitToFinalize) {
  TraceBuilder b(2);
  using enum CollectiveOp;
  // Rank 0: 5 us before MPI_Init, Init, 2 us, Send 8 B to 1, 3 us, Finalize, 7 us after.
  // Rank 1: 4 us before MPI_Init, Init, 1 us, Recv, Finalize (no gap), 6 us after.
  b.collective(0, CreateHandle, -1, 0, 0, 0, 5 * kUs).send(0, 1, 8, 0, 2 * kUs);
  b.collective(0, DestroyHandle, -1, 0, 0, 0, 3 * kUs).final_gap(0, 7 * kUs);
  b.collective(1, CreateHandle, -1, 0, 0, 0, 4 * kUs).recv(1, 0, 8, 0, 1 * kUs);
  b.collective(1, DestroyHandle, -1, 0, 0).final_gap(1, 6 * kUs);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path(), at_speed(1e9));
  // F = gap * 1e-12 * 1e9: 2 us -> 2000 flops, 3 us -> 3000, 1 us -> 1000. The gaps before Init
  // and after Finalize are outside the window: not written. Init on a 2-rank WORLD is written as
  // the dissemination barrier (1 step: send to i + 1, receive from i - 1, 0 B), tag 0 on both
  // pairs as the first messages; Rank 0's Send comes after it, the 2nd message 0 -> 1: tag 1.
  // Finalize (DestroyHandle) communicates nothing.
  expect_actions(rank_file(dir.path(), 0),
                 {"0 init", "0 irecv 1 0 0", "0 isend 1 0 0", "0 wait 0 1 0", "0 wait 1 0 0",
                  "0 compute 2000", "0 send 1 1 8", "0 compute 3000", "0 finalize"});
  expect_actions(rank_file(dir.path(), 1),
                 {"1 init", "1 irecv 0 0 0", "1 isend 0 0 0", "1 wait 1 0 0", "1 wait 0 1 0",
                  "1 compute 1000", "1 recv 0 1 8", "1 finalize"});
  EXPECT_EQ(stats.messages, 3U);  // 2 barrier messages + the Send
}

TEST(SimgridTi, TagsCountMessagesInProgramOrderAcrossCollectives) {
  TraceBuilder b(2);
  // A Barrier (dissemination on 2 ranks: 0 -> 1 and 1 -> 0), then Send 0 -> 1. "The count of
  // messages from src to dst so far": the barrier's message 0 -> 1 is the first (tag 0), the
  // Send the second (tag 1).
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  b.send(0, 1, 8).recv(1, 0, 8);
  const TempDir dir;
  write_simgrid_ti(b.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 0),
              ElementsAre("0 init", "0 irecv 1 0 0", "0 isend 1 0 0", "0 wait 0 1 0",
                          "0 wait 1 0 0", "0 send 1 1 8", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1),
              ElementsAre("1 init", "1 irecv 0 0 0", "1 isend 0 0 0", "1 wait 1 0 0",
                          "1 wait 0 1 0", "1 recv 0 1 8", "1 finalize"));
}

TEST(SimgridTi, ComputeWithoutInitAndFinalizeCoversTheWholeStream) {
  TraceBuilder b(2);
  // No Init / Finalize events: the gap before the first event and the final gap are computation.
  b.send(0, 1, 8, 0, 3 * kUs / 2).final_gap(0, 5 * kUs / 2);
  b.recv(1, 0, 8);
  const TempDir dir;
  write_simgrid_ti(b.trace(), dir.path(), at_speed(2e9));
  // 1.5 us * 2e9 flop/s = 3000 flops; 2.5 us -> 5000. Rank 1 has no gap: no compute.
  expect_actions(rank_file(dir.path(), 0),
                 {"0 init", "0 compute 3000", "0 send 1 0 8", "0 compute 5000", "0 finalize"});
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 recv 0 0 8", "1 finalize"));
}

TEST(SimgridTi, NoComputeActionsWhenComputeIsOff) {
  TraceBuilder b(2);
  b.send(0, 1, 8, 0, 3 * kUs).final_gap(0, 5 * kUs);
  b.recv(1, 0, 8, 0, 2 * kUs).final_gap(1, kUs);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path(), communication_only());
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 send 1 0 8", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 recv 0 0 8", "1 finalize"));
  EXPECT_EQ(stats.actions, 2U);
}

TEST(SimgridTi, BarrierThenAllreduceOnFourRanks) {
  TraceBuilder b(4);
  // Allreduce of b = 8 B: Score-P records sent = received = P b = 32; the schedule's payload is
  // sent / P = 8 B, under 8 KiB: recursive doubling (round k: exchange with i xor 2^k).
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  b.all(CollectiveOp::Allreduce, -1, 32, 32);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path());
  // Rank 0, each step an irecv / isend / wait group:
  // Barrier (dissemination, 0 B): step 0 sends to 1, receives from 3; step 1 sends to 2,
  //   receives from 2; all first messages on their pairs: tag 0.
  // Allreduce step 0 with 1: 1 -> 0 is that pair's first message (the barrier's 1 sent to 2, 3):
  //   tag 0; 0 -> 1 its second: tag 1. Step 1 with 2: 2 -> 0 and 0 -> 2 second messages: tag 1.
  const std::vector<std::string> rank0 = {
      "0 init",        "0 irecv 3 0 0", "0 isend 1 0 0", "0 wait 0 1 0",  "0 wait 3 0 0",
      "0 irecv 2 0 0", "0 isend 2 0 0", "0 wait 0 2 0",  "0 wait 2 0 0",  "0 irecv 1 0 8",
      "0 isend 1 1 8", "0 wait 0 1 1",  "0 wait 1 0 0",  "0 irecv 2 1 8", "0 isend 2 1 8",
      "0 wait 0 2 1",  "0 wait 2 0 1",  "0 finalize"};
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAreArray(rank0));

  // Every rank: per step of each schedule, "irecv from", "isend to" (the step's bytes), and one
  // wait for each of the two messages; every isend meets an irecv on its peer with its tag and
  // size.
  const CollectiveSchedule barrier(CollectiveOp::Barrier, -1, std::vector<CollectiveRecord>(4));
  const CollectiveSchedule allreduce(CollectiveOp::Allreduce, -1,
                                     std::vector<CollectiveRecord>(4, {32, 32}));
  std::map<std::tuple<int, int, int>, std::int64_t> isends;  // (src, dst, tag) -> bytes
  std::map<std::tuple<int, int, int>, std::int64_t> irecvs;
  std::uint64_t schedule_messages = 0;
  for (Rank r = 0; r < 4; ++r) {
    const auto lines = rank_file(dir.path(), r);
    std::size_t at = 1;
    for (const auto* plan : {&barrier, &allreduce}) {
      for (std::int32_t s = 0; s < plan->step_count(r); ++s) {
        const auto step = plan->step(r, s);
        ASSERT_GE(step.send_to, 0);
        ASSERT_GE(step.recv_from, 0);
        ++schedule_messages;
        ASSERT_LE(at + 4, lines.size());
        int peer = -1;
        int tag = -1;
        long long bytes = -1;
        char name[16] = {};
        int me = -1;
        ASSERT_EQ(
            std::sscanf(lines[at].c_str(), "%d %15s %d %d %lld", &me, name, &peer, &tag, &bytes), 5)
            << lines[at];
        EXPECT_EQ(me, r);
        EXPECT_STREQ(name, "irecv") << lines[at];
        EXPECT_EQ(peer, step.recv_from) << lines[at];
        irecvs[{peer, r, tag}] = bytes;
        const auto recv_wait = fmt::format("{} wait {} {} {}", r, peer, r, tag);
        ASSERT_EQ(std::sscanf(lines[at + 1].c_str(), "%d %15s %d %d %lld", &me, name, &peer, &tag,
                              &bytes),
                  5)
            << lines[at + 1];
        EXPECT_STREQ(name, "isend") << lines[at + 1];
        EXPECT_EQ(peer, step.send_to) << lines[at + 1];
        EXPECT_EQ(bytes, step.send_bytes) << lines[at + 1];
        isends[{r, peer, tag}] = bytes;
        const auto send_wait = fmt::format("{} wait {} {} {}", r, r, peer, tag);
        EXPECT_THAT((std::vector<std::string>{lines[at + 2], lines[at + 3]}),
                    ::testing::UnorderedElementsAre(recv_wait, send_wait));
        at += 4;
      }
    }
    EXPECT_EQ(at + 1, lines.size()) << "rank " << r << ": only init, the steps and finalize";
  }
  EXPECT_EQ(isends, irecvs);
  EXPECT_EQ(isends.size(), schedule_messages);  // (src, dst, tag) all distinct
  EXPECT_EQ(schedule_messages, 16U);            // 4 ranks x (2 barrier + 2 allreduce steps)
  EXPECT_EQ(stats.messages, schedule_messages);
}

TEST(SimgridTi, NonBlockingCollectiveRunsWhereItStarts) {
  TraceBuilder b(2);
  // Ibarrier (request 0), Send 0 -> 1, Wait(0): the barrier's steps at the Ibarrier, nothing at
  // the Wait.
  b.icollective(0, CollectiveOp::Barrier, -1, 0, 0, 0).send(0, 1, 8).wait(0, 0);
  b.icollective(1, CollectiveOp::Barrier, -1, 0, 0, 0).recv(1, 0, 8).wait(1, 0);
  const TempDir dir;
  write_simgrid_ti(b.trace(), dir.path());
  // Barrier messages: the first on both pairs (tag 0); the Send the second 0 -> 1 (tag 1).
  EXPECT_THAT(rank_file(dir.path(), 0),
              ElementsAre("0 init", "0 irecv 1 0 0", "0 isend 1 0 0", "0 wait 0 1 0",
                          "0 wait 1 0 0", "0 send 1 1 8", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1),
              ElementsAre("1 init", "1 irecv 0 0 0", "1 isend 0 0 0", "1 wait 1 0 0",
                          "1 wait 0 1 0", "1 recv 0 1 8", "1 finalize"));
}

TEST(SimgridTi, SubCommunicatorCollectiveUsesWorldRanks) {
  TraceBuilder b(3);
  // Bcast of 100 B on the communicator {2, 0} (world 2 is its rank 0, world 0 its rank 1), root
  // world 0. Binomial tree on 2 members: the root (comm rank 1) sends b = the root's received
  // bytes to comm rank 0 = world 2. World rank 1 is not a member and writes nothing.
  const auto sub = b.communicator({2, 0});
  b.collective(0, CollectiveOp::Bcast, 0, 200, 100, sub);
  b.collective(2, CollectiveOp::Bcast, 0, 0, 100, sub);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 0),
              ElementsAre("0 init", "0 isend 2 0 100", "0 wait 0 2 0", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 2),
              ElementsAre("2 init", "2 irecv 0 0 100", "2 wait 0 2 0", "2 finalize"));
  EXPECT_EQ(stats.messages, 1U);
}

SimgridTiOptions native() {
  SimgridTiOptions options = communication_only();
  options.native_collectives = true;
  return options;
}

TEST(SimgridTi, NativeCollectivesAreOneLineWithEveryMembersPayload) {
  TraceBuilder b(3);
  // On the communicator {2, 0} (world 2 its rank 0, world 0 its rank 1): Bcast of 100 B from
  // world 0 (comm rank 1; the root's received bytes are the payload), then an Allreduce whose
  // members sent P b = 2 x 24 and 2 x 40 bytes (payloads 24 and 40). World 1 is not a member.
  // Between them a point-to-point message 0 -> 2, the pair's first: tag 0.
  const auto sub = b.communicator({2, 0});
  b.collective(0, CollectiveOp::Bcast, 0, 200, 100, sub);
  b.collective(2, CollectiveOp::Bcast, 0, 0, 100, sub);
  b.send(0, 2, 8).recv(2, 0, 8);
  b.collective(0, CollectiveOp::Allreduce, -1, 80, 80, sub);
  b.collective(2, CollectiveOp::Allreduce, -1, 48, 48, sub);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path(), native());
  EXPECT_THAT(rank_file(dir.path(), 0),
              ElementsAre("0 init", fmt::format("0 coll bcast {} 1 100 100", sub), "0 send 2 0 8",
                          fmt::format("0 coll allreduce {} -1 24 40", sub), "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 2),
              ElementsAre("2 init", fmt::format("2 coll bcast {} 1 100 100", sub), "2 recv 0 0 8",
                          fmt::format("2 coll allreduce {} -1 24 40", sub), "2 finalize"));
  EXPECT_EQ(stats.messages, 1U);  // the point-to-point one; collectives are not expanded
  // communicators.txt: every communicator in index order, its world ranks in rank order.
  const auto comms = lines_of(dir.path() / "communicators.txt");
  ASSERT_EQ(comms.size(), b.trace().communicators.size());
  for (std::size_t c = 0; c < comms.size(); ++c) {
    const auto& members = b.trace().communicators[c].members;
    EXPECT_EQ(comms[c], fmt::format("{} {} {}", c, members.size(), fmt::join(members, " ")));
  }
  EXPECT_EQ(comms[sub], fmt::format("{} 2 2 0", sub));
}

TEST(SimgridTi, NativeCollectivesNameEachOperation) {
  // Each communicating operation on the world of 2 ranks, its payload as collective_payload
  // derives it; a communicator's creation is a barrier.
  const std::vector<std::pair<CollectiveOp, std::string>> ops = {
      {CollectiveOp::Barrier, "barrier"},
      {CollectiveOp::CreateHandle, "barrier"},
      {CollectiveOp::Reduce, "reduce"},
      {CollectiveOp::Gatherv, "gatherv"},
      {CollectiveOp::Scatter, "scatter"},
      {CollectiveOp::Allgather, "allgather"},
      {CollectiveOp::Alltoallv, "alltoallv"},
      {CollectiveOp::Alltoallw, "alltoallv"},
      {CollectiveOp::ReduceScatter, "reduce_scatter"},
      {CollectiveOp::Scan, "scan"}};
  for (const auto& [op, word] : ops) {
    TraceBuilder b(2);
    const bool rooted =
        op == CollectiveOp::Reduce || op == CollectiveOp::Gatherv || op == CollectiveOp::Scatter;
    b.all(op, rooted ? 0 : -1, 64, 32);
    const TempDir dir;
    write_simgrid_ti(b.trace(), dir.path(), native());
    const std::vector<CollectiveRecord> records(2, {64, 32});
    const auto payload = collective_payload(op, rooted ? 0 : -1, records);
    const auto line = fmt::format("0 coll {} {} {} {}", word, b.trace().world, rooted ? 0 : -1,
                                  fmt::join(payload, " "));
    EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", line, "0 finalize")) << word;
  }
}

TEST(SimgridTi, NativeCollectiveNeverReachedNamesTheMember) {
  TraceBuilder b(2);
  b.collective(0, CollectiveOp::Barrier, -1, 0, 0);
  const TempDir dir;
  EXPECT_THAT([&] { write_simgrid_ti(b.trace(), dir.path() / "out", native()); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("never reached by member rank 1")));
}

TEST(SimgridTi, LocalCollectivesWriteNothing) {
  TraceBuilder b(2);
  // A Barrier on a one-member communicator, MPI_Comm_free (DestroyHandle) and a window
  // allocation (Other) communicate nothing.
  const auto self = b.communicator({1});
  b.collective(1, CollectiveOp::Barrier, -1, 0, 0, self);
  b.all(CollectiveOp::Other, -1, 0, 0);
  b.all(CollectiveOp::DestroyHandle, -1, 0, 0);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 finalize"));
  EXPECT_EQ(stats.messages, 0U);
}

TEST(SimgridTi, CollectiveNeverReachedNamesTheMember) {
  TraceBuilder b(3);
  // Ranks 0 and 1 call two Barriers on WORLD, rank 2 only one.
  b.all(CollectiveOp::Barrier, -1, 0, 0);
  b.collective(0, CollectiveOp::Barrier, -1, 0, 0).collective(1, CollectiveOp::Barrier, -1, 0, 0);
  const TempDir dir;
  try {
    write_simgrid_ti(b.trace(), dir.path());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rank 2"));
  }
}

TEST(SimgridTi, ExistingFilesAreReplaced) {
  TraceBuilder big(2);
  big.send(0, 1, 8).send(0, 1, 8).recv(1, 0, 8).recv(1, 0, 8);
  TraceBuilder small(2);
  small.send(1, 0, 4).recv(0, 1, 4);
  const TempDir dir;
  write_simgrid_ti(big.trace(), dir.path());
  write_simgrid_ti(small.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 recv 1 0 4", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 send 0 0 4", "1 finalize"));
  EXPECT_EQ(lines_of(dir.path() / "index.txt").size(), 2U);
}

TEST(SimgridTi, CancelledRequestsAreLeftOut) {
  TraceBuilder b(2);
  // Rank 1 posts an Irecv (request 0, tag 9), cancels it, waits for it, then receives the one
  // message with a blocking Recv. Rank 0 posts an Isend (request 3) it cancels, then Sends.
  b.irecv(1, 0, 8, 0, 9).cancel(1, 0).wait(1, 0).recv(1, 0, 8, 1);
  b.isend(0, 1, 16, 3, 9).cancel(0, 3).wait(0, 3).send(0, 1, 8, 1);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path());
  // The cancelled Isend is no message: the Send is the first 0 -> 1 (tag 0).
  EXPECT_THAT(rank_file(dir.path(), 0), ElementsAre("0 init", "0 send 1 0 8", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 recv 0 0 8", "1 finalize"));
  EXPECT_EQ(stats.messages, 1U);
  EXPECT_EQ(stats.dropped_cancelled, 1U);
}

TEST(SimgridTi, UnreceivedSendsBecomeIsendsNeverWaitedFor) {
  TraceBuilder b(2);
  // Nothing on rank 1 receives: the blocking Send and the Isend (with its Wait) are unmatched.
  b.send(0, 1, 16, 2).isend(0, 1, 32, 0, 3).wait(0, 0);
  const TempDir dir;
  const auto stats = write_simgrid_ti(b.trace(), dir.path());
  EXPECT_THAT(rank_file(dir.path(), 0),
              ElementsAre("0 init", "0 isend 1 0 16", "0 isend 1 1 32", "0 finalize"));
  EXPECT_THAT(rank_file(dir.path(), 1), ElementsAre("1 init", "1 finalize"));
  EXPECT_EQ(stats.messages, 2U);
}

TEST(SimgridTi, ReceiveWithoutSendNamesTheRank) {
  TraceBuilder b(3);
  b.send(0, 1, 8).recv(1, 0, 8);
  b.recv(2, 1, 8, 4);  // nothing is ever sent 1 -> 2
  const TempDir dir;
  try {
    write_simgrid_ti(b.trace(), dir.path() / "out");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rank 2"));
  }
}

TEST(SimgridTi, UnwritableDirectoryNamesThePath) {
  TraceBuilder b(2);
  b.send(0, 1, 8).recv(1, 0, 8);
  const TempDir dir;
  const auto out = dir.write("plain", "x") / "ti";  // under a regular file
  try {
    write_simgrid_ti(b.trace(), out);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(out.string()));
  }
}

// Every message of a generated trace, collectives included, is sent once and received once with
// the same (src, dst, tag) and size; every wait names a request its rank posted and has not yet
// waited for.
TEST(SimgridTi, GeneratedCgMatchesEverySendWithOneReceive) {
  GeneratorOptions cg;
  cg.kernel = "cg";
  cg.problem_class = 'S';
  cg.ranks = 4;
  const auto trace = generate_trace(cg);
  const TempDir dir;
  const auto stats = write_simgrid_ti(trace, dir.path());
  using Key = std::tuple<long long, long long, long long>;  // (src, dst, tag)
  std::map<Key, std::vector<long long>> sends;
  std::map<Key, std::vector<long long>> receives;
  std::uint64_t actions = 0;
  std::uint64_t waits = 0;
  const auto index = lines_of(dir.path() / "index.txt");
  ASSERT_EQ(index.size(), 4U);
  for (Rank r = 0; r < 4; ++r) {
    EXPECT_EQ(index[static_cast<std::size_t>(r)],
              fs::absolute(dir.path() / fmt::format("rank-{}.txt", r)).string());
    const auto lines = lines_of(index[static_cast<std::size_t>(r)]);
    ASSERT_GE(lines.size(), 2U);
    EXPECT_EQ(lines.front(), fmt::format("{} init", r));
    EXPECT_EQ(lines.back(), fmt::format("{} finalize", r));
    std::set<Key> posted;  // requests not yet waited for
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
      ++actions;
      std::istringstream in(lines[i]);
      long long me = -1;
      std::string name;
      in >> me >> name;
      ASSERT_EQ(me, r) << lines[i];
      if (name == "compute") {
        double flops = -1;
        EXPECT_TRUE(in >> flops && flops > 0) << lines[i];
        continue;
      }
      std::vector<long long> args;
      for (long long a = 0; in >> a;) args.push_back(a);
      EXPECT_TRUE(in.eof()) << lines[i];
      if (name == "send" || name == "isend") {
        ASSERT_EQ(args.size(), 3U) << lines[i];
        sends[{r, args[0], args[1]}].push_back(args[2]);
        if (name == "isend") posted.insert({r, args[0], args[1]});
      } else if (name == "recv" || name == "irecv") {
        ASSERT_EQ(args.size(), 3U) << lines[i];
        receives[{args[0], r, args[1]}].push_back(args[2]);
        if (name == "irecv") posted.insert({args[0], r, args[1]});
      } else if (name == "wait") {
        ASSERT_EQ(args.size(), 3U) << lines[i];
        ++waits;
        EXPECT_EQ(posted.erase({args[0], args[1], args[2]}), 1U)
            << "rank " << r << ", line " << i + 1 << ": " << lines[i] << " waits for nothing";
      } else {
        ADD_FAILURE() << "unexpected action: " << lines[i];
      }
    }
  }
  ASSERT_FALSE(sends.empty());
  EXPECT_GT(waits, 0U);
  for (const auto& [key, sizes] : sends) {
    EXPECT_EQ(sizes.size(), 1U) << "message sent " << sizes.size() << " times";
    EXPECT_EQ(receives[key], sizes)
        << "src " << std::get<0>(key) << " dst " << std::get<1>(key) << " tag " << std::get<2>(key);
  }
  for (const auto& [key, sizes] : receives) EXPECT_TRUE(sends.contains(key));
  EXPECT_EQ(stats.messages, sends.size());
  EXPECT_EQ(stats.actions, actions);
}

}  // namespace
}  // namespace mapsim::traces
