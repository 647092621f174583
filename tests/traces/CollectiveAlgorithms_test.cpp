// Collective algorithm selection: each named algorithm's schedule (hand-derived small cases, and
// on 2, 3, 5 and 8 members, with every root, that it completes and that every member hears from
// every member whose data it must get), Open MPI's decision rules at their thresholds, and the
// --collectives spelling.

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "traces/CollectiveAlgorithm.hpp"
#include "traces/CollectiveSchedule.hpp"
#include "traces/OmpiRules.hpp"

namespace mapsim::traces {
namespace {

using A = CollectiveAlgorithm;
using F = CollectiveFamily;
using testing::AllOf;
using testing::HasSubstr;

/// Runs the schedule with buffered sends (as CollectiveSchedule_test.cpp) and tracks whose data
/// each member has heard of, directly or through others: a message carries everything its sender
/// has heard of when it sends. Returns each member's set (bit j: member j), or fails the test if a
/// member is stuck or a message undelivered.
std::vector<std::uint64_t> heard(const CollectiveSchedule& schedule) {
  const int p = schedule.size();
  std::vector<std::uint64_t> known(static_cast<std::size_t>(p));
  for (int m = 0; m < p; ++m) known[static_cast<std::size_t>(m)] = std::uint64_t{1} << m;
  std::vector<int> at(static_cast<std::size_t>(p), 0);
  std::vector<bool> sent(static_cast<std::size_t>(p), false);
  std::map<std::pair<int, int>, std::deque<std::uint64_t>> channels;
  for (bool progress = true; progress;) {
    progress = false;
    for (int m = 0; m < p; ++m) {
      auto& k = at[static_cast<std::size_t>(m)];
      if (k == schedule.step_count(m)) continue;
      const auto step = schedule.step(m, k);
      if (step.send_to >= 0 && !sent[static_cast<std::size_t>(m)]) {
        EXPECT_NE(step.send_to, m);
        EXPECT_GE(step.send_bytes, 0);
        channels[{m, step.send_to}].push_back(known[static_cast<std::size_t>(m)]);
        sent[static_cast<std::size_t>(m)] = true;
        progress = true;
      }
      if (step.recv_from >= 0) {
        auto& channel = channels[{step.recv_from, m}];
        if (channel.empty()) continue;
        known[static_cast<std::size_t>(m)] |= channel.front();
        channel.pop_front();
      }
      sent[static_cast<std::size_t>(m)] = false;
      ++k;
      progress = true;
    }
  }
  for (int m = 0; m < p; ++m) {
    EXPECT_EQ(at[static_cast<std::size_t>(m)], schedule.step_count(m)) << "member " << m;
  }
  for (const auto& [pair, channel] : channels) {
    EXPECT_TRUE(channel.empty()) << pair.first << " -> " << pair.second << " undelivered";
  }
  return known;
}

std::vector<CollectiveRecord> same(int p, std::int64_t sent, std::int64_t received) {
  return std::vector<CollectiveRecord>(static_cast<std::size_t>(p),
                                       CollectiveRecord{sent, received});
}

CollectiveOptions forcing(F family, A algorithm) {
  CollectiveOptions options;
  options.overrides[static_cast<std::size_t>(family)] = algorithm;
  return options;
}

/// The steps of `member`.
std::vector<CollectiveStep> steps(const CollectiveSchedule& schedule, int member) {
  std::vector<CollectiveStep> out;
  for (int k = 0; k < schedule.step_count(member); ++k) out.push_back(schedule.step(member, k));
  return out;
}

using Steps = std::vector<CollectiveStep>;

struct FamilyCase {
  F family;
  CollectiveOp op;
};

// What each member must have heard of when the collective ends: everyone's data (all), the
// root's (root), or, for the root, everyone's (to root).
enum class Need { All, FromRoot, ToRoot };

Need need_of(F family) {
  switch (family) {
    case F::Bcast:
    case F::Scatter:
      return Need::FromRoot;
    case F::Reduce:
    case F::Gather:
      return Need::ToRoot;
    default:
      return Need::All;
  }
}

TEST(CollectiveAlgorithms, EveryAlgorithmCompletesAndDeliversOnTwoThreeFiveAndEightMembers) {
  const FamilyCase cases[] = {
      {F::Barrier, CollectiveOp::Barrier},
      {F::Bcast, CollectiveOp::Bcast},
      {F::Reduce, CollectiveOp::Reduce},
      {F::Allreduce, CollectiveOp::Allreduce},
      {F::Allgather, CollectiveOp::Allgather},
      {F::Allgatherv, CollectiveOp::Allgatherv},
      {F::Alltoall, CollectiveOp::Alltoall},
      {F::Alltoallv, CollectiveOp::Alltoallv},
      {F::Gather, CollectiveOp::Gather},
      {F::Scatter, CollectiveOp::Scatter},
      {F::ReduceScatter, CollectiveOp::ReduceScatter},
  };
  // Under both selectors: Open MPI's forms some algorithms as Open MPI (or SMPI) runs them.
  for (const auto selector : {CollectiveSelector::Mpich, CollectiveSelector::Ompi})
    for (const auto& c : cases) {
      for (const auto algorithm : algorithms_of(c.family)) {
        for (const int p : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16}) {
          for (int root = 0; root < p; ++root) {
            SCOPED_TRACE(testing::Message()
                         << name(c.family) << '=' << name(algorithm) << " P=" << p
                         << " root=" << root << " selector " << static_cast<int>(selector));
            auto options = forcing(c.family, algorithm);
            options.selector = selector;
            const CollectiveSchedule schedule(c.op, root, same(p, 64 * p, 64 * p), options);
            EXPECT_EQ(schedule.chosen(), algorithm);
            const auto known = heard(schedule);
            const std::uint64_t everyone = (std::uint64_t{1} << p) - 1;
            const bool rooted = need_of(c.family) != Need::All;
            for (int m = 0; m < p; ++m) {
              const auto mine = known[static_cast<std::size_t>(m)];
              switch (need_of(c.family)) {
                case Need::All:
                  EXPECT_EQ(mine, everyone) << "member " << m;
                  break;
                case Need::FromRoot:
                  EXPECT_TRUE(mine >> root & 1U) << "member " << m << " never hears the root";
                  break;
                case Need::ToRoot:
                  if (m == root) {
                    EXPECT_EQ(mine, everyone);
                  }
                  break;
              }
            }
            if (!rooted) break;  // rootless: one root is enough
          }
        }
      }
    }
}

TEST(CollectiveAlgorithms, BruckAlltoallOnFiveMembers) {
  // Rounds k = 0, 1, 2 send to i + 2^k the blocks whose index has bit k set: {1, 3}, {2, 3} and
  // {4}, i.e. 2, 2 and 1 blocks of b = 50 / 5 = 10 bytes.
  const CollectiveSchedule s(CollectiveOp::Alltoall, -1, same(5, 50, 50),
                             forcing(F::Alltoall, A::Bruck));
  EXPECT_EQ(s.algorithm(), "Bruck");
  EXPECT_EQ(steps(s, 0), (Steps{{1, 4, 20}, {2, 3, 20}, {4, 1, 10}}));
  EXPECT_EQ(steps(s, 3), (Steps{{4, 2, 20}, {0, 1, 20}, {2, 4, 10}}));
}

TEST(CollectiveAlgorithms, LinearAlltoallSendsDownwardsAndReceivesUpwards) {
  // Open MPI's basic linear order: step s sends to i - s and receives from i + s, every step
  // overlapping (all posted, then all waited for).
  const CollectiveSchedule s(CollectiveOp::Alltoall, -1, same(3, 30, 30),
                             forcing(F::Alltoall, A::Linear));
  EXPECT_EQ(steps(s, 0), (Steps{{2, 1, 10, true}, {1, 2, 10, true}}));
  EXPECT_EQ(steps(s, 1), (Steps{{0, 2, 10, true}, {2, 0, 10, true}}));
}

TEST(CollectiveAlgorithms, NeighbourExchangeAllgatherOnFourAndSixMembers) {
  // Blocks of 10, 20, 30, 40 bytes (sent = P b_i). Step 0 swaps pairs (0,1), (2,3); step 1 sends
  // the pair's two blocks the other way round the ring.
  std::vector<CollectiveRecord> four;
  for (int i = 0; i < 4; ++i) four.push_back({4 * 10 * (i + 1), 0});
  const CollectiveSchedule s(CollectiveOp::Allgather, -1, four,
                             forcing(F::Allgather, A::NeighborExchange));
  EXPECT_EQ(steps(s, 0), (Steps{{1, 1, 10}, {3, 3, 30}}));
  EXPECT_EQ(steps(s, 3), (Steps{{2, 2, 40}, {0, 0, 70}}));
  // P = 6, member 0: pairs with 1, then 5 (sends blocks 0, 1), then 1 again, forwarding the
  // blocks 4, 5 it got from 5; member 1 forwards blocks 2, 3 it got from 2.
  const CollectiveSchedule six(CollectiveOp::Allgather, -1, same(6, 60, 0),
                               forcing(F::Allgather, A::NeighborExchange));
  EXPECT_EQ(steps(six, 0), (Steps{{1, 1, 10}, {5, 5, 20}, {1, 1, 20}}));
  EXPECT_EQ(steps(six, 1), (Steps{{0, 0, 10}, {2, 2, 20}, {0, 0, 20}}));
  // An odd P falls back to the ring, as in Open MPI.
  const CollectiveSchedule five(CollectiveOp::Allgather, -1, same(5, 50, 0),
                                forcing(F::Allgather, A::NeighborExchange));
  EXPECT_EQ(five.algorithm(), "ring");
}

TEST(CollectiveAlgorithms, BruckAllgatherOnThreeMembers) {
  // Blocks 1, 2, 4 bytes. Round 0 sends one's own block to i - 1; round 1 sends
  // min(2, 3 - 2) = 1 block, one's own again, to i - 2.
  const std::vector<CollectiveRecord> records{{3, 0}, {6, 0}, {12, 0}};
  const CollectiveSchedule s(CollectiveOp::Allgather, -1, records, forcing(F::Allgather, A::Bruck));
  EXPECT_EQ(steps(s, 0), (Steps{{2, 1, 1}, {1, 2, 1}}));
  EXPECT_EQ(steps(s, 2), (Steps{{1, 0, 4}, {0, 1, 4}}));
  // Recursive doubling on a P that is not a power of two is Bruck's, as in Open MPI.
  EXPECT_EQ(CollectiveSchedule(CollectiveOp::Allgather, -1, records,
                               forcing(F::Allgather, A::RecursiveDoubling))
                .algorithm(),
            "Bruck");
}

TEST(CollectiveAlgorithms, RabenseifnerAllreduce) {
  // P = 4, b = 8: reduce-scatter by halving (4 bytes with i xor 1, 2 with i xor 2), then
  // allgather by doubling back (2 with xor 2, 4 with xor 1).
  const CollectiveSchedule four(CollectiveOp::Allreduce, -1, same(4, 32, 32),
                                forcing(F::Allreduce, A::Rabenseifner));
  EXPECT_EQ(steps(four, 0), (Steps{{1, 1, 4}, {2, 2, 2}, {2, 2, 2}, {1, 1, 4}}));
  // P = 3: member 0 folds into member 1 (whole vector) and gets the result back; 1 and 2 run the
  // two-member core (newranks 0 and 1): 4 bytes each way, twice.
  const CollectiveSchedule three(CollectiveOp::Allreduce, -1, same(3, 24, 24),
                                 forcing(F::Allreduce, A::Rabenseifner));
  EXPECT_EQ(steps(three, 0), (Steps{{1, -1, 8}, {-1, 1, 0}}));
  EXPECT_EQ(steps(three, 1), (Steps{{-1, 0, 0}, {2, 2, 4}, {2, 2, 4}, {0, -1, 8}}));
  EXPECT_EQ(steps(three, 2), (Steps{{1, 1, 4}, {1, 1, 4}}));
}

TEST(CollectiveAlgorithms, RecursiveHalvingReduceScatterOnEightMembers) {
  // The whole vector is 64 bytes: halves of 32, 16, 8 bytes to i xor 4, 2, 1.
  const CollectiveSchedule s(CollectiveOp::ReduceScatter, -1, same(8, 64, 8),
                             forcing(F::ReduceScatter, A::RecursiveHalving));
  EXPECT_EQ(steps(s, 0), (Steps{{4, 4, 32}, {2, 2, 16}, {1, 1, 8}}));
}

TEST(CollectiveAlgorithms, LinearAndTreeBarriers) {
  // Linear: everyone reports to 0, then 0 releases everyone.
  const CollectiveSchedule linear(CollectiveOp::Barrier, -1, same(3, 0, 0),
                                  forcing(F::Barrier, A::Linear));
  EXPECT_EQ(steps(linear, 0), (Steps{{-1, 1, 0}, {-1, 2, 0}, {1, -1, 0}, {2, -1, 0}}));
  EXPECT_EQ(steps(linear, 1), (Steps{{0, -1, 0}, {-1, 0, 0}}));
  // Tree: a binomial fan-in to 0 then fan-out.
  const CollectiveSchedule tree(CollectiveOp::Barrier, -1, same(2, 0, 0),
                                forcing(F::Barrier, A::Tree));
  EXPECT_EQ(steps(tree, 0), (Steps{{-1, 1, 0}, {1, -1, 0}}));
  EXPECT_EQ(steps(tree, 1), (Steps{{0, -1, 0}, {-1, 0, 0}}));
  // Recursive doubling: the allreduce's pattern with nothing in it.
  const CollectiveSchedule doubling(CollectiveOp::Barrier, -1, same(2, 0, 0),
                                    forcing(F::Barrier, A::RecursiveDoubling));
  EXPECT_EQ(steps(doubling, 0), (Steps{{1, 1, 0}}));
}

TEST(CollectiveAlgorithms, BcastTrees) {
  // 4-nomial, P = 5, root 0: children 4 (digit 1 of base 4), then 1, 2, 3; 4's parent is 0.
  const CollectiveSchedule knomial(CollectiveOp::Bcast, 0, same(5, 35, 7),
                                   forcing(F::Bcast, A::Knomial));
  EXPECT_EQ(steps(knomial, 0), (Steps{{4, -1, 7}, {1, -1, 7}, {2, -1, 7}, {3, -1, 7}}));
  EXPECT_EQ(steps(knomial, 4), (Steps{{-1, 0, 0}}));
  // Chain, P = 3, root 1: 1 -> 2 -> 0.
  const CollectiveSchedule chain(CollectiveOp::Bcast, 1, same(3, 21, 7),
                                 forcing(F::Bcast, A::Chain));
  EXPECT_EQ(steps(chain, 1), (Steps{{2, -1, 7}}));
  EXPECT_EQ(steps(chain, 2), (Steps{{-1, 1, 0}, {0, -1, 7}}));
  EXPECT_EQ(steps(chain, 0), (Steps{{-1, 2, 0}}));
  // Linear, P = 3, root 2: to 0, then 1.
  const CollectiveSchedule linear(CollectiveOp::Bcast, 2, same(3, 21, 7),
                                  forcing(F::Bcast, A::Linear));
  EXPECT_EQ(steps(linear, 2), (Steps{{0, -1, 7}, {1, -1, 7}}));
  // Scatter-allgather, P = 2, b = 8: the root scatters 4 bytes, then the two swap 4.
  const CollectiveSchedule split(CollectiveOp::Bcast, 0, same(2, 16, 8),
                                 forcing(F::Bcast, A::ScatterAllgather));
  EXPECT_EQ(steps(split, 0), (Steps{{1, -1, 4}, {1, 1, 4}}));
  EXPECT_EQ(steps(split, 1), (Steps{{-1, 0, 0}, {0, 0, 4}}));
}

TEST(CollectiveAlgorithms, BinaryReduceOnFiveMembers) {
  // Heap-shaped: 0 has children 1, 2; 1 has 3, 4. Each receives from its children, then sends
  // its vector up.
  std::vector<CollectiveRecord> records;
  for (int i = 0; i < 5; ++i) records.push_back({10 + i, 0});
  const CollectiveSchedule s(CollectiveOp::Reduce, 0, records, forcing(F::Reduce, A::Binary));
  EXPECT_EQ(steps(s, 0), (Steps{{-1, 1, 0}, {-1, 2, 0}}));
  EXPECT_EQ(steps(s, 1), (Steps{{-1, 3, 0}, {-1, 4, 0}, {0, -1, 11}}));
  EXPECT_EQ(steps(s, 3), (Steps{{1, -1, 13}}));
}

struct TwoMembers {
  F family;
  CollectiveOp op;
  A algorithm;
  Steps first;   // member 0 (the root)
  Steps second;  // member 1
};

TEST(CollectiveAlgorithms, EveryAlgorithmOnTwoMembers) {
  // Hand-derived. Payloads: 8 bytes (bcast b, reduce and gather vectors, scatter blocks, the
  // allreduce vector, allgather and alltoall blocks: sent = P b = 16), the reduce_scatter vector
  // of 16 bytes (blocks of 8).
  const Steps send_recv{{1, 1, 8}};
  const Steps recv_send{{0, 0, 8}};
  const TwoMembers cases[] = {
      {F::Barrier,
       CollectiveOp::Barrier,
       A::Linear,
       {{-1, 1, 0}, {1, -1, 0}},
       {{0, -1, 0}, {-1, 0, 0}}},
      {F::Barrier, CollectiveOp::Barrier, A::RecursiveDoubling, {{1, 1, 0}}, {{0, 0, 0}}},
      {F::Barrier, CollectiveOp::Barrier, A::Bruck, {{1, 1, 0}}, {{0, 0, 0}}},
      {F::Barrier,
       CollectiveOp::Barrier,
       A::Tree,
       {{-1, 1, 0}, {1, -1, 0}},
       {{0, -1, 0}, {-1, 0, 0}}},
      {F::Bcast, CollectiveOp::Bcast, A::Linear, {{1, -1, 8}}, {{-1, 0, 0}}},
      {F::Bcast, CollectiveOp::Bcast, A::Chain, {{1, -1, 8}}, {{-1, 0, 0}}},
      {F::Bcast, CollectiveOp::Bcast, A::Binary, {{1, -1, 8}}, {{-1, 0, 0}}},
      {F::Bcast, CollectiveOp::Bcast, A::Binomial, {{1, -1, 8}}, {{-1, 0, 0}}},
      {F::Bcast, CollectiveOp::Bcast, A::Knomial, {{1, -1, 8}}, {{-1, 0, 0}}},
      {F::Bcast,
       CollectiveOp::Bcast,
       A::ScatterAllgather,
       {{1, -1, 4}, {1, 1, 4}},
       {{-1, 0, 0}, {0, 0, 4}}},
      {F::Reduce, CollectiveOp::Reduce, A::Linear, {{-1, 1, 0}}, {{0, -1, 8}}},
      {F::Reduce, CollectiveOp::Reduce, A::Chain, {{-1, 1, 0}}, {{0, -1, 8}}},
      {F::Reduce, CollectiveOp::Reduce, A::Binary, {{-1, 1, 0}}, {{0, -1, 8}}},
      {F::Reduce, CollectiveOp::Reduce, A::Binomial, {{-1, 1, 0}}, {{0, -1, 8}}},
      {F::Allreduce,
       CollectiveOp::Allreduce,
       A::Linear,
       {{-1, 1, 0}, {1, -1, 8}},
       {{0, -1, 8}, {-1, 0, 0}}},
      {F::Allreduce,
       CollectiveOp::Allreduce,
       A::Nonoverlapping,
       {{-1, 1, 0}, {1, -1, 8}},
       {{0, -1, 8}, {-1, 0, 0}}},
      {F::Allreduce, CollectiveOp::Allreduce, A::RecursiveDoubling, send_recv, recv_send},
      // The ring: reduce-scatter then allgather of b / P = 4 bytes.
      {F::Allreduce,
       CollectiveOp::Allreduce,
       A::Ring,
       {{1, 1, 4}, {1, 1, 4}},
       {{0, 0, 4}, {0, 0, 4}}},
      // Rabenseifner: halve (4 bytes) then double back (4 bytes).
      {F::Allreduce,
       CollectiveOp::Allreduce,
       A::Rabenseifner,
       {{1, 1, 4}, {1, 1, 4}},
       {{0, 0, 4}, {0, 0, 4}}},
      // Linear allgather: gather to 0, then bcast the whole 16 bytes.
      {F::Allgather,
       CollectiveOp::Allgather,
       A::Linear,
       {{-1, 1, 0}, {1, -1, 16}},
       {{0, -1, 8}, {-1, 0, 0}}},
      {F::Allgather, CollectiveOp::Allgather, A::Bruck, send_recv, recv_send},
      {F::Allgather, CollectiveOp::Allgather, A::RecursiveDoubling, send_recv, recv_send},
      {F::Allgather, CollectiveOp::Allgather, A::Ring, send_recv, recv_send},
      {F::Allgather, CollectiveOp::Allgather, A::NeighborExchange, send_recv, recv_send},
      {F::Alltoall, CollectiveOp::Alltoall, A::Linear, {{1, 1, 8, true}}, {{0, 0, 8, true}}},
      {F::Alltoall, CollectiveOp::Alltoall, A::Pairwise, send_recv, recv_send},
      {F::Alltoall, CollectiveOp::Alltoall, A::Bruck, send_recv, recv_send},
      {F::Gather, CollectiveOp::Gather, A::Linear, {{-1, 1, 0}}, {{0, -1, 8}}},
      {F::Gather, CollectiveOp::Gather, A::Binomial, {{-1, 1, 0}}, {{0, -1, 8}}},
      {F::Scatter, CollectiveOp::Scatter, A::Linear, {{1, -1, 8}}, {{-1, 0, 0}}},
      {F::Scatter, CollectiveOp::Scatter, A::Binomial, {{1, -1, 8}}, {{-1, 0, 0}}},
      // Reduce the 16-byte vector to 0, then send member 1 its 8-byte block.
      {F::ReduceScatter,
       CollectiveOp::ReduceScatter,
       A::Nonoverlapping,
       {{-1, 1, 0}, {1, -1, 8}},
       {{0, -1, 16}, {-1, 0, 0}}},
      {F::ReduceScatter, CollectiveOp::ReduceScatter, A::RecursiveHalving, send_recv, recv_send},
      {F::ReduceScatter, CollectiveOp::ReduceScatter, A::Ring, send_recv, recv_send},
  };
  std::size_t covered = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << name(c.family) << '=' << name(c.algorithm));
    std::vector<CollectiveRecord> records;
    switch (c.op) {
      case CollectiveOp::Bcast:
        records = same(2, 16, 8);
        break;
      case CollectiveOp::Reduce:
      case CollectiveOp::Gather:
        records = same(2, 8, 0);
        break;
      case CollectiveOp::Scatter:
        records = same(2, 0, 8);
        break;
      case CollectiveOp::Barrier:
        records = same(2, 0, 0);
        break;
      default:
        records = same(2, 16, 16);
    }
    const CollectiveSchedule s(c.op, 0, records, forcing(c.family, c.algorithm));
    EXPECT_EQ(steps(s, 0), c.first);
    EXPECT_EQ(steps(s, 1), c.second);
    ++covered;
  }
  // Every algorithm of every family but the v-variants (which share their base's) is above.
  std::size_t expected = 0;
  for (const auto f : {F::Barrier, F::Bcast, F::Reduce, F::Allreduce, F::Allgather, F::Alltoall,
                       F::Gather, F::Scatter, F::ReduceScatter}) {
    expected += algorithms_of(f).size();
  }
  EXPECT_EQ(covered, expected);
}

TEST(CollectiveAlgorithms, KnomialBcastOnEightMembers) {
  // Radix 4: the root's children are 4 (4^1), then 1, 2, 3; 4's are 5, 6, 7.
  const CollectiveSchedule s(CollectiveOp::Bcast, 0, same(8, 64, 8), forcing(F::Bcast, A::Knomial));
  EXPECT_EQ(steps(s, 0), (Steps{{4, -1, 8}, {1, -1, 8}, {2, -1, 8}, {3, -1, 8}}));
  EXPECT_EQ(steps(s, 4), (Steps{{-1, 0, 0}, {5, -1, 8}, {6, -1, 8}, {7, -1, 8}}));
  EXPECT_EQ(steps(s, 6), (Steps{{-1, 4, 0}}));
}

struct RuleCase {
  F family;
  std::int32_t p;
  std::int64_t bytes;
  A expected;
};

TEST(OmpiRules, PickOpenMpisAlgorithmsAtTheirThresholds) {
  // Each rule just below, at and above a communicator-size or message-size threshold of
  // coll_tuned_decision_fixed.c (v4.1.x).
  const RuleCase cases[] = {
      // allreduce: P < 4 switches at 8, 4096, 8192, 16384, 262144 bytes
      {F::Allreduce, 3, 7, A::Ring},
      {F::Allreduce, 3, 8, A::RecursiveDoubling},
      {F::Allreduce, 3, 4095, A::RecursiveDoubling},
      {F::Allreduce, 3, 4096, A::Ring},
      {F::Allreduce, 3, 262143, A::Ring},
      {F::Allreduce, 3, 262144, A::Rabenseifner},
      {F::Allreduce, 4, 8, A::Ring},  // P = 4 is the next band: ring below 16 bytes
      {F::Allreduce, 4, 16, A::RecursiveDoubling},
      {F::Allreduce, 127, 100000, A::RecursiveDoubling},
      {F::Allreduce, 128, 100000, A::Nonoverlapping},
      {F::Allreduce, 129, 100000, A::Nonoverlapping},
      {F::Allreduce, 255, 100000, A::Nonoverlapping},
      {F::Allreduce, 256, 100000, A::Rabenseifner},
      {F::Allreduce, 4096, 16383, A::Ring},
      {F::Allreduce, 4096, 16384, A::RecursiveDoubling},
      // alltoall: P = 2, 3; Bruck for small blocks from 16 members on
      {F::Alltoall, 2, 32767, A::Pairwise},
      {F::Alltoall, 2, 32768, A::Linear},
      {F::Alltoall, 2, 262144, A::Pairwise},
      {F::Alltoall, 3, 32768, A::Linear},
      {F::Alltoall, 7, 524288, A::Pairwise},
      {F::Alltoall, 15, 100, A::Linear},
      {F::Alltoall, 16, 100, A::Bruck},
      {F::Alltoall, 16, 3, A::Linear},
      {F::Alltoall, 16, 511, A::Bruck},
      {F::Alltoall, 16, 512, A::Linear},
      {F::Alltoall, 127, 262144, A::Pairwise},
      {F::Alltoall, 1024, 262144, A::Linear},
      // alltoallv: by size only
      {F::Alltoallv, 3, 0, A::Pairwise},
      {F::Alltoallv, 4, 1 << 30, A::Linear},
      {F::Alltoallv, 64, 0, A::Pairwise},
      // barrier
      {F::Barrier, 2, 0, A::RecursiveDoubling},
      {F::Barrier, 3, 0, A::RecursiveDoubling},
      {F::Barrier, 4, 0, A::Linear},
      {F::Barrier, 7, 0, A::Linear},
      {F::Barrier, 8, 0, A::RecursiveDoubling},
      {F::Barrier, 64, 0, A::Bruck},
      {F::Barrier, 256, 0, A::Tree},
      {F::Barrier, 512, 0, A::Bruck},
      {F::Barrier, 4096, 0, A::Bruck},
      // bcast
      {F::Bcast, 3, 31, A::Chain},
      {F::Bcast, 3, 32, A::Binary},
      {F::Bcast, 3, 1023, A::Knomial},
      {F::Bcast, 3, 1024, A::Linear},
      {F::Bcast, 3, 524288, A::Binomial},
      {F::Bcast, 4, 63, A::Binary},
      {F::Bcast, 4, 64, A::Binomial},
      {F::Bcast, 7, 1048576, A::Chain},
      {F::Bcast, 16, 4095, A::Knomial},
      {F::Bcast, 16, 4096, A::Binomial},
      {F::Bcast, 31, 1048576, A::ScatterAllgather},
      {F::Bcast, 32, 2047, A::Binomial},
      {F::Bcast, 32, 2048, A::Knomial},
      {F::Bcast, 512, 16384, A::Binary},
      // reduce
      {F::Reduce, 3, 7, A::Linear},
      {F::Reduce, 3, 8, A::Binary},
      {F::Reduce, 3, 16, A::Chain},
      {F::Reduce, 3, 32, A::Linear},
      {F::Reduce, 3, 262144, A::Chain},
      {F::Reduce, 4, 4095, A::Binary},
      {F::Reduce, 4, 4096, A::Chain},
      {F::Reduce, 8, 8191, A::Binary},
      {F::Reduce, 8, 8192, A::Binomial},
      {F::Reduce, 32, 0, A::Binomial},
      // reduce_scatter (the whole vector)
      {F::ReduceScatter, 3, 65535, A::Ring},
      {F::ReduceScatter, 3, 65536, A::RecursiveHalving},
      {F::ReduceScatter, 4, 7, A::Nonoverlapping},
      {F::ReduceScatter, 4, 8, A::RecursiveHalving},
      {F::ReduceScatter, 31, 262144, A::Ring},
      {F::ReduceScatter, 64, 255, A::Nonoverlapping},
      {F::ReduceScatter, 64, 256, A::RecursiveHalving},
      // allgather (one member's block)
      {F::Allgather, 2, 1 << 20, A::RecursiveDoubling},
      {F::Allgather, 31, 1 << 20, A::RecursiveDoubling},
      {F::Allgather, 32, 1023, A::RecursiveDoubling},
      {F::Allgather, 32, 1024, A::NeighborExchange},
      {F::Allgather, 32, 65536, A::Ring},
      {F::Allgather, 256, 32, A::Bruck},
      // allgatherv (total / P)
      {F::Allgatherv, 2, 2047, A::Ring},
      {F::Allgatherv, 2, 2048, A::RecursiveDoubling},
      {F::Allgatherv, 3, 255, A::Linear},
      {F::Allgatherv, 3, 256, A::NeighborExchange},
      {F::Allgatherv, 8, 1024, A::Bruck},
      // gather, scatter (one member's block)
      {F::Gather, 3, 3, A::Linear},
      {F::Gather, 3, 4, A::Binomial},
      {F::Gather, 3, 32768, A::Linear},
      {F::Gather, 8, 1 << 20, A::Binomial},
      {F::Scatter, 3, 100, A::Linear},
      {F::Scatter, 4, 2047, A::Binomial},
      {F::Scatter, 4, 2048, A::Linear},
      {F::Scatter, 64, 511, A::Binomial},
      {F::Scatter, 64, 512, A::Linear},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(name(ompi_algorithm(c.family, c.p, c.bytes)), name(c.expected))
        << name(c.family) << " P=" << c.p << " bytes=" << c.bytes;
  }
}

TEST(OmpiRules, TheScheduleUsesTheRuleForTheRecordedSizes) {
  // Allreduce of 4,096 bytes per member on 3 members (sent = P b): ring under ompi (4096 <=
  // b < 8192), recursive doubling under mpich (b < 8 KiB).
  CollectiveOptions ompi;
  ompi.selector = CollectiveSelector::Ompi;
  const auto records = same(3, 3 * 4096, 3 * 4096);
  EXPECT_EQ(CollectiveSchedule(CollectiveOp::Allreduce, -1, records, ompi).algorithm(), "ring");
  EXPECT_EQ(CollectiveSchedule(CollectiveOp::Allreduce, -1, records).algorithm(),
            "recursive doubling");
  // An override wins over the selector.
  auto forced = ompi;
  forced.overrides[static_cast<std::size_t>(F::Allreduce)] = A::Rabenseifner;
  EXPECT_EQ(CollectiveSchedule(CollectiveOp::Allreduce, -1, records, forced).algorithm(),
            "Rabenseifner");
  // Scan has no choice.
  EXPECT_EQ(CollectiveSchedule(CollectiveOp::Scan, -1, same(4, 8, 8), ompi).algorithm(),
            "recursive doubling");
}

TEST(OmpiRules, RecursiveDoublingBarrierFoldsTheMembersAboveThePowerOfTwo) {
  // P = 6, 2^m = 4: members 4 and 5 exchange with 0 and 1 (send, then wait for the release);
  // 0 and 1 first receive from them, then run the core (xor 1, xor 2), then release them; 2 and
  // 3 run the core only. All 0 bytes.
  auto options = forcing(F::Barrier, A::RecursiveDoubling);
  options.selector = CollectiveSelector::Ompi;
  const CollectiveSchedule s(CollectiveOp::Barrier, -1, same(6, 0, 0), options);
  EXPECT_EQ(steps(s, 0), (Steps{{-1, 4, 0}, {1, 1, 0}, {2, 2, 0}, {4, -1, 0}}));
  EXPECT_EQ(steps(s, 1), (Steps{{-1, 5, 0}, {0, 0, 0}, {3, 3, 0}, {5, -1, 0}}));
  EXPECT_EQ(steps(s, 2), (Steps{{3, 3, 0}, {0, 0, 0}}));
  EXPECT_EQ(steps(s, 3), (Steps{{2, 2, 0}, {1, 1, 0}}));
  EXPECT_EQ(steps(s, 4), (Steps{{0, 0, 0}}));
  EXPECT_EQ(steps(s, 5), (Steps{{1, 1, 0}}));
  // MPICH's selector keeps the allreduce's fold for the same override: 0 sends to 1 first.
  const CollectiveSchedule mpich(CollectiveOp::Barrier, -1, same(6, 0, 0),
                                 forcing(F::Barrier, A::RecursiveDoubling));
  EXPECT_EQ(mpich.step(0, 0), (CollectiveStep{1, -1, 0}));
}

TEST(OmpiRules, BinaryReduceRunsUpOpenMpisTree) {
  // Open MPI's fan-out-2 tree on 9 members (relative ranks): 0 -> {1, 2}, 1 -> {3, 5},
  // 2 -> {4, 6}, 3 -> {7}, 4 -> {8}; 5 to 8 are leaves. Each member receives from its
  // children in that order, then sends its 8-byte vector to its parent. MPICH's heap-shaped
  // tree would give 1 the children 3 and 4.
  auto options = forcing(F::Reduce, A::Binary);
  options.selector = CollectiveSelector::Ompi;
  const CollectiveSchedule s(CollectiveOp::Reduce, 0, same(9, 8, 0), options);
  EXPECT_EQ(steps(s, 0), (Steps{{-1, 1, 0}, {-1, 2, 0}}));
  EXPECT_EQ(steps(s, 1), (Steps{{-1, 3, 0}, {-1, 5, 0}, {0, -1, 8}}));
  EXPECT_EQ(steps(s, 2), (Steps{{-1, 4, 0}, {-1, 6, 0}, {0, -1, 8}}));
  EXPECT_EQ(steps(s, 3), (Steps{{-1, 7, 0}, {1, -1, 8}}));
  EXPECT_EQ(steps(s, 4), (Steps{{-1, 8, 0}, {2, -1, 8}}));
  EXPECT_EQ(steps(s, 5), (Steps{{1, -1, 8}}));
  EXPECT_EQ(steps(s, 6), (Steps{{2, -1, 8}}));
  EXPECT_EQ(steps(s, 7), (Steps{{3, -1, 8}}));
  EXPECT_EQ(steps(s, 8), (Steps{{4, -1, 8}}));
  // Root 7: the same tree over ranks relative to it (relative r is member (r + 7) mod 9).
  const CollectiveSchedule rooted(CollectiveOp::Reduce, 7, same(9, 8, 0), options);
  EXPECT_EQ(steps(rooted, 7), (Steps{{-1, 8, 0}, {-1, 0, 0}}));
  EXPECT_EQ(steps(rooted, 8), (Steps{{-1, 1, 0}, {-1, 3, 0}, {7, -1, 8}}));
  const CollectiveSchedule mpich(CollectiveOp::Reduce, 0, same(9, 8, 0),
                                 forcing(F::Reduce, A::Binary));
  EXPECT_EQ(steps(mpich, 1), (Steps{{-1, 3, 0}, {-1, 4, 0}, {0, -1, 8}}));
}

TEST(OmpiRules, AllreduceNonoverlappingIsAReduceThenABcastByTheRules) {
  // 4 bytes on 5 members: reduce by the rules (P < 8, under 4 KiB: binary, Open MPI's tree),
  // then bcast (P < 8, under 64 B: binary tree), both rooted at member 0.
  auto options = forcing(F::Allreduce, A::Nonoverlapping);
  options.selector = CollectiveSelector::Ompi;
  const CollectiveSchedule s(CollectiveOp::Allreduce, -1, same(5, 5 * 4, 5 * 4), options);
  EXPECT_EQ(s.algorithm(), "reduce + bcast");
  // Member 1: the tree 0 -> {1, 2}, 1 -> {3}, 2 -> {4} upwards, then the heap 0 -> {1, 2},
  // 1 -> {3, 4} downwards.
  EXPECT_EQ(steps(s, 1), (Steps{{-1, 3, 0}, {0, -1, 4}, {-1, 0, 0}, {3, -1, 4}, {4, -1, 4}}));
}

TEST(OmpiRules, RingAllreduceRunsAsSmpiRunsIt) {
  auto ring = forcing(F::Allreduce, A::Ring);
  ring.selector = CollectiveSelector::Ompi;
  // b = 8 bytes on 3 members: the ring on blocks of floor(8 / 3) = 2 bytes (2 (P - 1) = 4 steps
  // to i + 1 from i - 1), then the remaining 2 bytes allreduced by Open MPI's rules (P < 4,
  // 2 B: the ring again, under a byte per member: a reduce to 0 then a bcast from 0, by the
  // rules: linear reduce (P < 4, under 8 B), pipeline bcast (under 32 B; a chain here)).
  const CollectiveSchedule s(CollectiveOp::Allreduce, -1, same(3, 3 * 8, 3 * 8), ring);
  EXPECT_EQ(s.algorithm(), "ring");
  EXPECT_EQ(steps(s, 0), (Steps{{1, 2, 2},
                                {1, 2, 2},
                                {1, 2, 2},
                                {1, 2, 2},  // the ring
                                {-1, 1, 0},
                                {-1, 2, 0},     // linear reduce
                                {1, -1, 2}}));  // chain bcast
  EXPECT_EQ(
      steps(s, 1),
      (Steps{{2, 0, 2}, {2, 0, 2}, {2, 0, 2}, {2, 0, 2}, {0, -1, 2}, {-1, 0, 0}, {2, -1, 2}}));
  EXPECT_EQ(steps(s, 2),
            (Steps{{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, -1, 2}, {-1, 1, 0}}));
  // b = 9 on 3 members divides: the ring alone, blocks of 3.
  const CollectiveSchedule even(CollectiveOp::Allreduce, -1, same(3, 3 * 9, 3 * 9), ring);
  EXPECT_EQ(steps(even, 0), (Steps(4, CollectiveStep{1, 2, 3})));
  // MPICH's ring splits the vector into uneven blocks instead (3, 3, 2 for b = 8).
  const CollectiveSchedule mpich(CollectiveOp::Allreduce, -1, same(3, 3 * 8, 3 * 8),
                                 forcing(F::Allreduce, A::Ring));
  EXPECT_EQ(mpich.step_count(0), 4);
}

TEST(CollectiveOptions, ParsesSelectorsAndOverrides) {
  EXPECT_TRUE(parse_collective_options("mpich", "--collectives").is_default());
  const auto o = parse_collective_options("ompi,alltoall=bruck,allreduce=ring", "--collectives");
  EXPECT_EQ(o.selector, CollectiveSelector::Ompi);
  EXPECT_EQ(o.overrides[static_cast<std::size_t>(F::Alltoall)], A::Bruck);
  EXPECT_EQ(o.overrides[static_cast<std::size_t>(F::Allreduce)], A::Ring);
  EXPECT_EQ(to_string(o), "ompi,allreduce=ring,alltoall=bruck");
  EXPECT_EQ(parse_collective_options(to_string(o), "x"), o);
  EXPECT_FALSE(parse_collective_options("mpich,bcast=binomial", "x").is_default());
}

TEST(CollectiveOptions, BadNamesAreNamedWithTheValidOnes) {
  auto message = [](std::string_view spec) {
    try {
      (void)parse_collective_options(spec, "--collectives");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message("opmi"), AllOf(HasSubstr("--collectives"), HasSubstr("'opmi'"),
                                     HasSubstr("'mpich', 'ompi'"), HasSubstr("did you mean")));
  EXPECT_THAT(message("ompi,allreduse=ring"),
              AllOf(HasSubstr("operation 'allreduse'"), HasSubstr("'allreduce'"),
                    HasSubstr("did you mean 'allreduce'")));
  EXPECT_THAT(message("ompi,alltoall=brook"),
              AllOf(HasSubstr("alltoall algorithm 'brook'"),
                    HasSubstr("'linear', 'pairwise', 'bruck'"), HasSubstr("did you mean 'bruck'")));
  EXPECT_THAT(message("ompi,alltoall"), HasSubstr("not OP=ALGORITHM"));
  EXPECT_THAT(message("ompi,bcast=ring"), HasSubstr("bcast algorithm 'ring'"));
  EXPECT_THAT(message(""), HasSubstr("unknown collective selector ''"));
  // An operation twice: the second would silently win.
  EXPECT_THAT(message("mpich,alltoall=bruck,alltoall=pairwise"),
              HasSubstr("--collectives: the operation 'alltoall' is given twice in "
                        "'mpich,alltoall=bruck,alltoall=pairwise'"));
  EXPECT_THAT(message("ompi,bcast=binomial,allreduce=ring,bcast=binomial"),
              HasSubstr("'bcast' is given twice"));
}

}  // namespace
}  // namespace mapsim::traces
