// Collective schedules: every algorithm completes (each message sent is received, nobody waits
// forever) for every communicator size and root, and moves exactly the messages and bytes its
// algorithm prescribes.

#include "traces/CollectiveSchedule.hpp"

#include <bit>
#include <deque>
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

struct Totals {
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
  std::map<std::pair<int, int>, std::int64_t> messages_per_pair;
};

/// Runs every member's steps with buffered (eager) sends: a step's send is delivered at once into
/// the (sender, receiver) FIFO; its receive waits for a message there. Fails the test if members
/// are left waiting or messages are left undelivered.
Totals execute(const CollectiveSchedule& schedule) {
  const int p = schedule.size();
  std::vector<int> at(static_cast<std::size_t>(p), 0);
  std::vector<bool> sent(static_cast<std::size_t>(p), false);
  std::map<std::pair<int, int>, std::deque<std::int64_t>> channels;
  Totals totals;
  for (bool progress = true; progress;) {
    progress = false;
    for (int m = 0; m < p; ++m) {
      auto& k = at[static_cast<std::size_t>(m)];
      if (k == schedule.step_count(m)) continue;
      const auto step = schedule.step(m, k);
      if (step.send_to >= 0 && !sent[static_cast<std::size_t>(m)]) {
        EXPECT_LT(step.send_to, p);
        EXPECT_NE(step.send_to, m) << "a step never sends to its own member";
        channels[{m, step.send_to}].push_back(step.send_bytes);
        ++totals.messages;
        totals.bytes += step.send_bytes;
        ++totals.messages_per_pair[{m, step.send_to}];
        sent[static_cast<std::size_t>(m)] = true;
        progress = true;
      }
      if (step.recv_from >= 0) {
        auto& channel = channels[{step.recv_from, m}];
        if (channel.empty()) continue;
        channel.pop_front();
      }
      sent[static_cast<std::size_t>(m)] = false;
      ++k;
      progress = true;
    }
  }
  for (int m = 0; m < p; ++m) {
    EXPECT_EQ(at[static_cast<std::size_t>(m)], schedule.step_count(m))
        << "member " << m << " is stuck";
  }
  for (const auto& [pair, channel] : channels) {
    EXPECT_TRUE(channel.empty()) << pair.first << " -> " << pair.second << " undelivered";
  }
  return totals;
}

std::vector<CollectiveRecord> same(int p, std::int64_t sent, std::int64_t received) {
  return std::vector<CollectiveRecord>(static_cast<std::size_t>(p),
                                       CollectiveRecord{sent, received});
}

TEST(CollectiveSchedule, EveryAlgorithmCompletesForEverySizeAndRoot) {
  const CollectiveOp ops[] = {CollectiveOp::Barrier,       CollectiveOp::Bcast,
                              CollectiveOp::Reduce,        CollectiveOp::Gather,
                              CollectiveOp::Gatherv,       CollectiveOp::Scatter,
                              CollectiveOp::Scatterv,      CollectiveOp::Allgather,
                              CollectiveOp::Allgatherv,    CollectiveOp::Alltoall,
                              CollectiveOp::Alltoallv,     CollectiveOp::Allreduce,
                              CollectiveOp::ReduceScatter, CollectiveOp::ReduceScatterBlock,
                              CollectiveOp::Scan,          CollectiveOp::Exscan,
                              CollectiveOp::CreateHandle,  CollectiveOp::DestroyHandle};
  for (const auto op : ops) {
    for (int p = 1; p <= 17; ++p) {
      for (int root = 0; root < p; root += 3) {
        for (const std::int64_t b :
             {std::int64_t{8}, std::int64_t{1} << 20}) {  // both allreduce algorithms
          SCOPED_TRACE(testing::Message()
                       << name(op) << " P=" << p << " root=" << root << " b=" << b);
          (void)execute(CollectiveSchedule(op, root, same(p, b * p, b * p)));
        }
      }
    }
  }
}

TEST(CollectiveSchedule, DisseminationBarrier) {
  // P = 5: ceil(log2 5) = 3 rounds, every member sends one empty message per round.
  const CollectiveSchedule s(CollectiveOp::Barrier, -1, same(5, 0, 0));
  EXPECT_EQ(s.algorithm(), "dissemination");
  EXPECT_EQ(s.step_count(0), 3);
  EXPECT_EQ(s.step(1, 2), (CollectiveStep{0, 2, 0}));  // 1 + 4 = 5 = 0 mod 5; 1 - 4 = 2 mod 5
  const auto t = execute(s);
  EXPECT_EQ(t.messages, 15);
  EXPECT_EQ(t.bytes, 0);
}

TEST(CollectiveSchedule, BinomialBcastFromRootThree) {
  // P = 8, root 3, b = 100 (Score-P: the root records sent 800, received 100). A tree of 8
  // members has 7 edges; the root sends to relative ranks 4, 2, 1 = members 7, 5, 4.
  auto records = same(8, 0, 100);
  records[3] = {800, 100};
  const CollectiveSchedule s(CollectiveOp::Bcast, 3, records);
  ASSERT_EQ(s.step_count(3), 3);
  EXPECT_EQ(s.step(3, 0), (CollectiveStep{7, -1, 100}));
  EXPECT_EQ(s.step(3, 1), (CollectiveStep{5, -1, 100}));
  EXPECT_EQ(s.step(3, 2), (CollectiveStep{4, -1, 100}));
  // Member 2 is relative rank 7: receives from relative 6 (member 1), a leaf.
  ASSERT_EQ(s.step_count(2), 1);
  EXPECT_EQ(s.step(2, 0), (CollectiveStep{-1, 1, 0}));
  const auto t = execute(s);
  EXPECT_EQ(t.messages, 7);
  EXPECT_EQ(t.bytes, 700);
}

TEST(CollectiveSchedule, BinomialReduceSendsEachContributionOnce) {
  // Reduce over 6 members: 5 messages (a tree), each of the sender's own b = 48 bytes.
  const auto t = execute(CollectiveSchedule(CollectiveOp::Reduce, 0, same(6, 48, 0)));
  EXPECT_EQ(t.messages, 5);
  EXPECT_EQ(t.bytes, 5 * 48);
}

/// Bytes a binomial gather or scatter moves: every member's block travels popcount(r) edges
/// between its relative rank r and the root.
std::int64_t tree_bytes(const std::vector<std::int64_t>& blocks, int root) {
  const int p = static_cast<int>(blocks.size());
  std::int64_t total = 0;
  for (int m = 0; m < p; ++m) {
    total += blocks[static_cast<std::size_t>(m)] *
             std::popcount(static_cast<unsigned>((m - root + p) % p));
  }
  return total;
}

TEST(CollectiveSchedule, BinomialGatherCarriesSubtrees) {
  // Gatherv over 7 members, member i contributes i + 1 bytes (its recorded sent), root 2.
  std::vector<CollectiveRecord> records;
  std::vector<std::int64_t> blocks;
  for (int i = 0; i < 7; ++i) {
    records.push_back({i + 1, 0});
    blocks.push_back(i + 1);
  }
  const auto t = execute(CollectiveSchedule(CollectiveOp::Gatherv, 2, records));
  EXPECT_EQ(t.messages, 6);
  EXPECT_EQ(t.bytes, tree_bytes(blocks, 2));
}

TEST(CollectiveSchedule, BinomialScatterCarriesSubtrees) {
  // Scatter: member i receives (its recorded received) 10 (i + 1) bytes, root 5 of 9.
  std::vector<CollectiveRecord> records;
  std::vector<std::int64_t> blocks;
  for (int i = 0; i < 9; ++i) {
    records.push_back({0, 10 * (i + 1)});
    blocks.push_back(10 * (i + 1));
  }
  const auto t = execute(CollectiveSchedule(CollectiveOp::Scatter, 5, records));
  EXPECT_EQ(t.messages, 8);
  EXPECT_EQ(t.bytes, tree_bytes(blocks, 5));
}

TEST(CollectiveSchedule, RecursiveDoublingAllreduce) {
  // P = 8, b = 64 (Score-P records sent = P b = 512): log2 8 = 3 exchanges per member, 24
  // messages of 64 bytes.
  const CollectiveSchedule eight(CollectiveOp::Allreduce, -1, same(8, 512, 512));
  EXPECT_EQ(eight.algorithm(), "recursive doubling");
  EXPECT_EQ(eight.step(5, 1), (CollectiveStep{7, 7, 64}));
  const auto t8 = execute(eight);
  EXPECT_EQ(t8.messages, 24);
  EXPECT_EQ(t8.bytes, 24 * 64);
  // P = 6: 2 = 6 - 4 pairs fold (2 messages in, 2 results out), 4 members exchange twice (8).
  const auto t6 = execute(CollectiveSchedule(CollectiveOp::Allreduce, -1, same(6, 6 * 64, 6 * 64)));
  EXPECT_EQ(t6.messages, 12);
}

TEST(CollectiveSchedule, RingAllreduceForLargePayloads) {
  // P = 4, b = 1 MiB >= the ring threshold: 2 (P - 1) = 6 steps per member, each a block of b / 4;
  // in total 2 (P - 1) b bytes.
  const std::int64_t b = 1 << 20;
  const CollectiveSchedule s(CollectiveOp::Allreduce, -1, same(4, 4 * b, 4 * b));
  EXPECT_EQ(s.algorithm(), "ring");
  EXPECT_EQ(s.step_count(0), 6);
  const auto t = execute(s);
  EXPECT_EQ(t.messages, 24);
  EXPECT_EQ(t.bytes, 6 * b);
  EXPECT_EQ(t.messages_per_pair.count({0, 2}), 0u);  // only to the next member on the ring
}

TEST(CollectiveSchedule, AllgatherRecursiveDoublingAndRing) {
  // Every member ends with every other member's block: P (P - 1) c bytes either way.
  const auto rd = execute(CollectiveSchedule(CollectiveOp::Allgather, -1, same(8, 8 * 10, 8 * 10)));
  EXPECT_EQ(rd.messages, 8 * 3);
  EXPECT_EQ(rd.bytes, 8 * 7 * 10);
  const CollectiveSchedule ring(CollectiveOp::Allgather, -1, same(6, 6 * 10, 6 * 10));
  EXPECT_EQ(ring.algorithm(), "ring");
  const auto t = execute(ring);
  EXPECT_EQ(t.messages, 6 * 5);
  EXPECT_EQ(t.bytes, 6 * 5 * 10);
}

TEST(CollectiveSchedule, PairwiseExchangeAlltoall) {
  // P = 5, 3 bytes per peer (recorded sent 15): every ordered pair once.
  const auto t = execute(CollectiveSchedule(CollectiveOp::Alltoall, -1, same(5, 15, 15)));
  EXPECT_EQ(t.messages, 20);
  EXPECT_EQ(t.bytes, 60);
  EXPECT_EQ(t.messages_per_pair.size(), 20u);
}

TEST(CollectiveSchedule, AlltoallvSpreadsTotalsEvenly) {
  // Member 0 recorded 400 bytes over 4 peers (itself included): 100 to each of the 3 others.
  std::vector<CollectiveRecord> records = same(4, 40, 40);
  records[0] = {400, 40};
  const auto t = execute(CollectiveSchedule(CollectiveOp::Alltoallv, -1, records));
  EXPECT_EQ(t.bytes, 3 * 100 + 3 * 3 * 10);
}

TEST(CollectiveSchedule, ScanExchangesWithExistingPartners) {
  // P = 5: masks 1, 2, 4; member 4 has partners 5 (none), 6 (none), 0 -> one step.
  const CollectiveSchedule s(CollectiveOp::Scan, -1, {{5, 1}, {4, 2}, {3, 3}, {2, 4}, {1, 5}});
  EXPECT_EQ(s.step_count(4), 1);
  EXPECT_EQ(s.step(4, 0), (CollectiveStep{0, 0, 1}));  // received (me + 1) b = 5 -> b = 1
  EXPECT_EQ(s.step_count(0), 3);                       // partners 1, 2, 4
  EXPECT_EQ(s.step_count(1), 2);                       // partners 0, 3 (5 does not exist)
}

TEST(CollectiveSchedule, LocalOperationsMoveNothing) {
  const CollectiveSchedule s(CollectiveOp::DestroyHandle, -1, same(4, 0, 0));
  EXPECT_EQ(s.step_count(0), 0);
  EXPECT_EQ(execute(s).messages, 0);
}

TEST(CollectiveSchedule, RejectsRootOutsideTheCommunicator) {
  EXPECT_THROW(CollectiveSchedule(CollectiveOp::Bcast, 4, same(4, 0, 8)), InputError);
  EXPECT_THROW(CollectiveSchedule(CollectiveOp::Reduce, -1, same(4, 8, 0)), InputError);
  EXPECT_NO_THROW(CollectiveSchedule(CollectiveOp::Allreduce, -1, same(4, 32, 32)));
}

}  // namespace
}  // namespace mapsim::traces
