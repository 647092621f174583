// The NPB generators against the developers' NPB 3.4 fact sheet (summarised in
// docs/workloads.md; the § numbers below are the sheet's): expected matrices are computed here
// from its closed-form formulas (LU §4.4, BT §5.4, SP §6, CG §7.3) and compared pair by pair;
// reference totals, pairs and per-rank call counts are the sheet's own numbers (§4.5, §4.6,
// §5.5, §6, §7.4, §8.4, §9, §10, §11, §12, §12.1). Nothing expected comes from the generator.

#include <algorithm>
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/traces/GeneratorChecks.hpp"
#include "tests/traces/NpbFormulas.hpp"
#include "traces/TraceMatrix.hpp"

namespace mapsim::traces {
namespace {

using testing::Call;
using testing::cg_formula;
using testing::count_calls;
using testing::generator;
using testing::isqrt;
using testing::lu_formula;
using testing::Multipartition;

constexpr std::int64_t kDouble = 8;

Traffic traffic(std::uint64_t messages, std::uint64_t bytes) {
  return Traffic{messages, bytes};
}

std::map<CollectiveOp, int> ops_of(const std::vector<testing::CollectiveRecord>& records) {
  std::map<CollectiveOp, int> ops;
  for (const auto& record : records) ++ops[std::get<0>(record)];
  return ops;
}

// ---- LU (§4) -------------------------------------------------------------------------------

struct LuCase {
  char problem_class;
  Rank ranks;
  std::int64_t n0;
  std::int64_t itmax;
  std::optional<std::int64_t> iterations;
};

void PrintTo(const LuCase& c, std::ostream* out) {
  *out << "lu class " << c.problem_class << " on " << c.ranks << " ranks, itmax " << c.itmax;
}

class LuFormula : public ::testing::TestWithParam<LuCase> {};

TEST_P(LuFormula, MatrixEqualsTheClosedFormPerLink) {
  const auto& c = GetParam();
  const auto counted = count_calls(generator("lu", c.problem_class, c.ranks, c.iterations));
  EXPECT_EQ(counted.matrix(), lu_formula(c.n0, c.itmax, c.ranks));
}

INSTANTIATE_TEST_SUITE_P(Classes, LuFormula,
                         ::testing::Values(LuCase{'S', 1, 12, 50, {}}, LuCase{'S', 2, 12, 50, {}},
                                           LuCase{'S', 4, 12, 50, {}}, LuCase{'S', 6, 12, 50, {}},
                                           LuCase{'S', 8, 12, 50, {}}, LuCase{'S', 9, 12, 50, {}},
                                           LuCase{'S', 12, 12, 50, {}}, LuCase{'S', 16, 12, 50, {}},
                                           LuCase{'W', 16, 33, 300, {}}, LuCase{'W', 18, 33, 3, 3},
                                           LuCase{'A', 16, 64, 250, {}}, LuCase{'B', 20, 102, 2, 2},
                                           LuCase{'C', 64, 162, 2, 2},
                                           LuCase{'D', 128, 408, 1, 1}));

TEST(LuGenerator, ReproducesTheSheetsTotals) {
  // §12 verification log and §12.1.
  const struct {
    char c;
    Rank n;
    std::optional<std::int64_t> it;
    Traffic total;
  } cases[] = {{'S', 16, {}, traffic(27'108, 9'915'648)},
               {'W', 16, {}, traffic(462'516, 456'665'760)},
               {'W', 64, {}, traffic(2'158'380, 1'065'554'336)},
               {'C', 64, 2, traffic(109'004, 438'809'728)},
               {'S', 2, {}, traffic(1'131, 1'652'576)},
               {'S', 8, {}, traffic(11'298, 6'610'368)},
               {'S', 12, {}, traffic(19'203, 8'263'008)},
               {'W', 32, {}, traffic(1'002'112, 761'109'856)},
               {'A', 16, {}, traffic(759'204, 1'461'906'432)}};
  for (const auto& c : cases) {
    EXPECT_EQ(count_calls(generator("lu", c.c, c.n, c.it)).matrix().total(), c.total)
        << "lu class " << c.c << " on " << c.n << " ranks";
  }
}

TEST(LuGenerator, ClassCWithTwoIterationsMatchesTheItmax2Trace) {
  // §4.5: lu.C.64.itmax2 (inorm = 250 > itmax): 0→1 486, 1→0 488, 10→9 487 messages; 21
  // collectives, only 3 of them 40-byte l2norm Allreduces (+ the error norm).
  const auto counted = count_calls(generator("lu", 'C', 64, 2));
  const auto m = counted.matrix();
  EXPECT_EQ(m.at(0, 1).messages, 486u);
  EXPECT_EQ(m.at(1, 0).messages, 488u);
  EXPECT_EQ(m.at(10, 9).messages, 487u);
  const auto& collectives = counted.collectives[0];
  EXPECT_EQ(collectives.size(), 21u + 2u);  // + MPI_Init and MPI_Finalize
  EXPECT_EQ(std::count(collectives.begin(), collectives.end(),
                       testing::CollectiveRecord{CollectiveOp::Allreduce, -1, 40 * 64, 40 * 64}),
            3 + 1);
}

TEST(LuGenerator, CallCountsPerRankOfClassS16) {
  // §4.4: corner rank 0 → 1,020 Recv, 1,128 Send, 112 Irecv/Wait; interior rank 5 → 2,040 Recv,
  // 2,258 Send, 218 Irecv/Wait. No Isend, no Waitall.
  const auto counted = count_calls(generator("lu", 'S', 16));
  EXPECT_EQ(counted.count(0, Call::Recv), 1'020);
  EXPECT_EQ(counted.count(0, Call::Send), 1'128);
  EXPECT_EQ(counted.count(0, Call::Irecv), 112);
  EXPECT_EQ(counted.count(0, Call::Wait), 112);
  EXPECT_EQ(counted.count(5, Call::Recv), 2'040);
  EXPECT_EQ(counted.count(5, Call::Send), 2'258);
  EXPECT_EQ(counted.count(5, Call::Irecv), 218);
  EXPECT_EQ(counted.count(5, Call::Wait), 218);
  for (Rank r = 0; r < 16; ++r) {
    EXPECT_EQ(counted.count(r, Call::Isend), 0);
    EXPECT_EQ(counted.count(r, Call::Waitall), 0);
  }
}

TEST(LuGenerator, CollectivesAsScorePRecordsThem) {
  // §4.3: 10 Bcast (4,4,4,8,8,40,4,4,4,4 B; root 0 records b·P sent), 2 Barrier, 10 Allreduce
  // (4 × 40 B l2norm, 2 × 8 B timers, 40 B error, 3 × 8 B pintgr; b·P both ways), between
  // MPI_Init's and MPI_Finalize's handle collectives.
  const Rank n = 8;
  const auto counted = count_calls(generator("lu", 'S', n));
  for (Rank r = 0; r < n; ++r) {
    const auto& c = counted.collectives[static_cast<std::size_t>(r)];
    ASSERT_EQ(c.size(), 24u);
    EXPECT_EQ(c.front(), (testing::CollectiveRecord{CollectiveOp::CreateHandle, -1, 0, 0}));
    EXPECT_EQ(c.back(), (testing::CollectiveRecord{CollectiveOp::DestroyHandle, -1, 0, 0}));
    const std::int64_t bcast[] = {4, 4, 4, 8, 8, 40, 4, 4, 4, 4};
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(
          c[static_cast<std::size_t>(1 + i)],
          (testing::CollectiveRecord{CollectiveOp::Bcast, 0, r == 0 ? bcast[i] * n : 0, bcast[i]}));
    }
    const auto ops = ops_of(c);
    EXPECT_EQ(ops.at(CollectiveOp::Barrier), 2);
    EXPECT_EQ(ops.at(CollectiveOp::Allreduce), 10);
    std::map<std::int64_t, int> allreduce_sizes;
    for (const auto& [op, root, sent, received] : c) {
      if (op == CollectiveOp::Allreduce) {
        EXPECT_EQ(sent, received);
        ++allreduce_sizes[sent / n];
      }
    }
    EXPECT_EQ(allreduce_sizes, (std::map<std::int64_t, int>{{8, 5}, {40, 5}}));
  }
}

TEST(LuGenerator, IterationsOverrideItmaxAndKeepTheClassInorm) {
  // §4.4: l2norm Allreduces = 2 + [inorm = 1] + [inorm = 1 or itmax = 1] + 2·⌊itmax/inorm⌋ +
  // [itmax mod inorm ≠ 0], with inorm = 50 for class S: itmax 1 → 4, 2 → 3, 50 → 4, 100 → 6;
  // plus one 40-byte Allreduce for the error norm.
  const std::pair<std::int64_t, int> cases[] = {{1, 4}, {2, 3}, {50, 4}, {100, 6}};
  for (const auto& [itmax, l2norms] : cases) {
    const auto counted = count_calls(generator("lu", 'S', 4, itmax));
    const auto& c = counted.collectives[0];
    EXPECT_EQ(std::count(c.begin(), c.end(),
                         testing::CollectiveRecord{CollectiveOp::Allreduce, -1, 160, 160}),
              l2norms + 1)
        << "itmax " << itmax;
    EXPECT_EQ(counted.matrix(), lu_formula(12, itmax, 4)) << "itmax " << itmax;
  }
}

// ---- BT and SP (§5, §6) ----------------------------------------------------------------------

struct AdiCase {
  const char* kernel;
  char problem_class;
  Rank ranks;
  std::int64_t g;
  std::int64_t niter;
};

void PrintTo(const AdiCase& c, std::ostream* out) {
  *out << c.kernel << " class " << c.problem_class << " on " << c.ranks << " ranks";
}

class AdiFormula : public ::testing::TestWithParam<AdiCase> {};

TEST_P(AdiFormula, MatrixEqualsTheClosedFormPerLink) {
  const auto& c = GetParam();
  const Multipartition model{isqrt(c.ranks), c.g, c.niter, std::string_view(c.kernel) == "bt"};
  const auto counted = count_calls(generator(c.kernel, c.problem_class, c.ranks));
  EXPECT_EQ(counted.matrix(), model.matrix(c.ranks));
}

INSTANTIATE_TEST_SUITE_P(
    Classes, AdiFormula,
    ::testing::Values(AdiCase{"bt", 'S', 1, 12, 60}, AdiCase{"bt", 'S', 4, 12, 60},
                      AdiCase{"bt", 'S', 9, 12, 60}, AdiCase{"bt", 'S', 16, 12, 60},
                      AdiCase{"bt", 'S', 18, 12, 60}, AdiCase{"bt", 'W', 16, 24, 200},
                      AdiCase{"bt", 'A', 25, 64, 200}, AdiCase{"sp", 'S', 4, 12, 100},
                      AdiCase{"sp", 'S', 9, 12, 100}, AdiCase{"sp", 'S', 16, 12, 100},
                      AdiCase{"sp", 'W', 16, 36, 400}, AdiCase{"sp", 'W', 50, 36, 400},
                      AdiCase{"sp", 'B', 64, 102, 400}));

TEST(BtGenerator, ReproducesTheSheetsNumbers) {
  // §5.5, BT S.16: every directed partner link 245 messages; r → succ 836,640 B, r → pred
  // 251,040 B; rank 0's partners 1, 3, 4, 12, 7, 13; totals 23,520 / 52,208,640.
  const auto counted = count_calls(generator("bt", 'S', 16));
  const auto m = counted.matrix();
  EXPECT_EQ(m.total(), traffic(23'520, 52'208'640));
  EXPECT_EQ(m.nonzero_count(), 96u);
  for (const Rank succ : {1, 4, 7}) EXPECT_EQ(m.at(0, succ), traffic(245, 836'640));
  for (const Rank pred : {3, 12, 13}) EXPECT_EQ(m.at(0, pred), traffic(245, 251'040));
  // Per rank: 1,470 Isend, 1,470 Irecv, 2,196 Wait, 62 Waitall.
  for (Rank r = 0; r < 16; ++r) {
    EXPECT_EQ(counted.count(r, Call::Isend), 1'470);
    EXPECT_EQ(counted.count(r, Call::Irecv), 1'470);
    EXPECT_EQ(counted.count(r, Call::Wait), 2'196);
    EXPECT_EQ(counted.count(r, Call::Waitall), 62);
  }
  // §12: bt.S.9, bt.S.18 (2 idle ranks), bt.W.16, bt.W.64; §12.1: BT C.64.
  EXPECT_EQ(count_calls(generator("bt", 'S', 9)).matrix().total(), traffic(9'936, 31'628'880));
  EXPECT_EQ(count_calls(generator("bt", 'S', 18)).matrix().total(), traffic(23'520, 52'208'640));
  EXPECT_EQ(count_calls(generator("bt", 'W', 16)).matrix().total(), traffic(77'280, 564'658'560));
  EXPECT_EQ(count_calls(generator("bt", 'W', 64)).matrix().total(),
            traffic(617'856, 1'601'187'840));
  const auto c64 = count_calls(generator("bt", 'C', 64)).matrix();
  EXPECT_EQ(c64.total(), traffic(617'856, 51'169'708'800));
  EXPECT_EQ(c64.nonzero_count(), 384u);
  EXPECT_EQ(c64.total().messages / 64, 9'654u);
}

TEST(BtGenerator, IdleRanksOnlySplitAndWaitAtTheFinalBarrier) {
  // §5.1: with N = 18, p = 4: ranks 16 and 17 do Init, Comm_split, Barrier(WORLD), Finalize.
  const auto counted = count_calls(generator("bt", 'S', 18));
  for (const Rank idle : {16, 17}) {
    const auto& c = counted.collectives[static_cast<std::size_t>(idle)];
    EXPECT_EQ(c, (std::vector<testing::CollectiveRecord>{{CollectiveOp::CreateHandle, -1, 0, 0},
                                                         {CollectiveOp::CreateHandle, -1, 0, 0},
                                                         {CollectiveOp::Barrier, -1, 0, 0},
                                                         {CollectiveOp::DestroyHandle, -1, 0, 0}}));
    EXPECT_EQ(counted.collective_sizes[static_cast<std::size_t>(idle)],
              (std::vector<std::size_t>{18, 18, 18, 18}));
    EXPECT_TRUE(counted.matrix().destinations(idle).empty());
  }
  // Active ranks: Init, split, 2 dups, 6 Bcast, Barrier, 2 Allreduce, Reduce on comm_setup (16
  // ranks), Barrier on WORLD (18), Finalize.
  const auto& sizes = counted.collective_sizes[0];
  EXPECT_EQ(sizes, (std::vector<std::size_t>{18, 18, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
                                             18, 18}));
}

TEST(SpGenerator, ReproducesTheSheetsNumbers) {
  // §6, SP S.16: 405 messages per directed link; rank 0 → 1 558,064 B, → 3 390,000, → 4
  // 522,512, → 12 398,080, → 7 558,064, → 13 390,000; totals 38,880 / 44,421,120.
  const auto counted = count_calls(generator("sp", 'S', 16));
  const auto m = counted.matrix();
  EXPECT_EQ(m.total(), traffic(38'880, 44'421'120));
  EXPECT_EQ(m.at(0, 1), traffic(405, 558'064));
  EXPECT_EQ(m.at(0, 3), traffic(405, 390'000));
  EXPECT_EQ(m.at(0, 4), traffic(405, 522'512));
  EXPECT_EQ(m.at(0, 12), traffic(405, 398'080));
  EXPECT_EQ(m.at(0, 7), traffic(405, 558'064));
  EXPECT_EQ(m.at(0, 13), traffic(405, 390'000));
  // Per rank: 2,430 Isend, 2,430 Irecv, 1,920 Waitall, no MPI_Wait.
  for (Rank r = 0; r < 16; ++r) {
    EXPECT_EQ(counted.count(r, Call::Isend), 2'430);
    EXPECT_EQ(counted.count(r, Call::Irecv), 2'430);
    EXPECT_EQ(counted.count(r, Call::Waitall), 1'920);
    EXPECT_EQ(counted.count(r, Call::Wait), 0);
  }
  // §12: sp.S.4, sp.S.9, sp.W.16; §12.1: SP C.64.
  EXPECT_EQ(count_calls(generator("sp", 'S', 4)).matrix().total(), traffic(4'872, 14'807'040));
  EXPECT_EQ(count_calls(generator("sp", 'S', 9)).matrix().total(), traffic(16'416, 29'614'080));
  EXPECT_EQ(count_calls(generator("sp", 'W', 16)).matrix().total(),
            traffic(154'080, 1'818'261'504));
  const auto c64 = count_calls(generator("sp", 'C', 64)).matrix();
  EXPECT_EQ(c64.total(), traffic(1'232'256, 90'636'161'280));
  EXPECT_EQ(c64.nonzero_count(), 384u);
}

// ---- CG (§7) ---------------------------------------------------------------------------------

TEST(CgGenerator, MatrixEqualsTheClosedForm) {
  const struct {
    char c;
    Rank n;
    std::int64_t na, niter;
  } cases[] = {{'S', 1, 1400, 15},  {'S', 2, 1400, 15},    {'S', 4, 1400, 15},
               {'S', 8, 1400, 15},  {'S', 16, 1400, 15},   {'S', 32, 1400, 15},
               {'W', 64, 7000, 15}, {'A', 128, 14000, 15}, {'B', 32, 75000, 75},
               {'S', 256, 1400, 15}};
  for (const auto& c : cases) {
    EXPECT_EQ(count_calls(generator("cg", c.c, c.n)).matrix(), cg_formula(c.na, c.niter, c.n))
        << "cg class " << c.c << " on " << c.n << " ranks";
  }
}

TEST(CgGenerator, ReproducesTheSheetsNumbers) {
  // §7.4, CG S.16: each rank → partner_1 and partner_2 1,264 msgs / 1,171,712 B; → exch_proc
  // 416 msgs / 1,164,800 B, ranks 0, 5, 10, 15 to themselves; 48 directed pairs; per rank 2,944
  // Irecv/Send/Wait; totals 47,104 / 56,131,584.
  const auto counted = count_calls(generator("cg", 'S', 16));
  const auto m = counted.matrix();
  EXPECT_EQ(m.total(), traffic(47'104, 56'131'584));
  EXPECT_EQ(m.nonzero_count(), 48u);
  EXPECT_EQ(m.at(0, 1), traffic(1'264, 1'171'712));  // XOR 1, tag 2
  EXPECT_EQ(m.at(0, 2), traffic(1'264, 1'171'712));  // XOR 2, tag 1
  for (const Rank diagonal : {0, 5, 10, 15}) {
    EXPECT_EQ(m.at(diagonal, diagonal), traffic(416, 1'164'800));
  }
  EXPECT_EQ(m.at(1, 4), traffic(416, 1'164'800));  // transpose partner of rank 1
  for (Rank r = 0; r < 16; ++r) {
    EXPECT_EQ(counted.count(r, Call::Send), 2'944);
    EXPECT_EQ(counted.count(r, Call::Irecv), 2'944);
    EXPECT_EQ(counted.count(r, Call::Wait), 2'944);
    EXPECT_EQ(ops_of(counted.collectives[static_cast<std::size_t>(r)]),
              (std::map<CollectiveOp, int>{{CollectiveOp::Barrier, 1},
                                           {CollectiveOp::Bcast, 1},
                                           {CollectiveOp::Reduce, 1},
                                           {CollectiveOp::CreateHandle, 1},
                                           {CollectiveOp::DestroyHandle, 1}}));
  }
  // §12 and §12.1.
  const struct {
    char c;
    Rank n;
    Traffic total;
  } totals[] = {
      {'S', 64, traffic(269'312, 150'421'504)},     {'W', 16, traffic(47'104, 279'773'184)},
      {'W', 64, traffic(269'312, 746'799'104)},     {'S', 2, traffic(3'360, 9'332'224)},
      {'S', 8, traffic(23'552, 28'065'792)},        {'S', 32, traffic(134'656, 75'210'752)},
      {'C', 64, traffic(1'279'232, 75'884'703'744)}};
  for (const auto& t : totals) {
    EXPECT_EQ(count_calls(generator("cg", t.c, t.n)).matrix().total(), t.total)
        << "cg class " << t.c << " on " << t.n << " ranks";
  }
  EXPECT_EQ(count_calls(generator("cg", 'C', 64)).matrix().nonzero_count(), 256u);
}

// ---- MG (§8) ---------------------------------------------------------------------------------

TEST(MgGenerator, ReproducesTheSheetsClassS16) {
  // §8.4: 2×2×4; 0 → 1: 128 msgs, 48,992 B (x); → 2: 128, 57,216 B (y); → 4 and → 12: 64 msgs,
  // 67,488 B (z); 5 → 13: 20 msgs, 1,440 B (level-1 z neighbour at distance 2); 384 sends per
  // rank with iz even, 454 with iz odd; totals 6,704 / 3,890,944 over 72 directed pairs.
  const auto counted = count_calls(generator("mg", 'S', 16));
  const auto m = counted.matrix();
  EXPECT_EQ(m.total(), traffic(6'704, 3'890'944));
  EXPECT_EQ(m.nonzero_count(), 72u);
  EXPECT_EQ(m.at(0, 1), traffic(128, 48'992));
  EXPECT_EQ(m.at(0, 2), traffic(128, 57'216));
  EXPECT_EQ(m.at(0, 4), traffic(64, 67'488));
  EXPECT_EQ(m.at(0, 12), traffic(64, 67'488));
  EXPECT_EQ(m.at(5, 13), traffic(20, 1'440));
  for (Rank r = 0; r < 16; ++r) {
    const std::int64_t iz = r / 4;
    EXPECT_EQ(counted.count(r, Call::Send), iz % 2 == 0 ? 384 : 454) << "rank " << r;
  }
}

TEST(MgGenerator, IdleRanksOnlySplit) {
  // §8.1, §13: 24 ranks → 16 work (same matrix as S.16); ranks 16 … 23 do Init, Comm_split,
  // Finalize. Active ranks: Init, split, 6 Barrier, 7 Bcast, 88 Allreduce, 1 Reduce, Finalize.
  const auto counted = count_calls(generator("mg", 'S', 24));
  EXPECT_EQ(counted.matrix().total(), traffic(6'704, 3'890'944));
  for (Rank idle = 16; idle < 24; ++idle) {
    EXPECT_EQ(ops_of(counted.collectives[static_cast<std::size_t>(idle)]),
              (std::map<CollectiveOp, int>{{CollectiveOp::CreateHandle, 2},
                                           {CollectiveOp::DestroyHandle, 1}}));
    EXPECT_TRUE(counted.matrix().destinations(idle).empty());
  }
  EXPECT_EQ(ops_of(counted.collectives[3]),
            (std::map<CollectiveOp, int>{{CollectiveOp::CreateHandle, 2},
                                         {CollectiveOp::Barrier, 6},
                                         {CollectiveOp::Bcast, 7},
                                         {CollectiveOp::Allreduce, 88},
                                         {CollectiveOp::Reduce, 1},
                                         {CollectiveOp::DestroyHandle, 1}}));
}

TEST(MgGenerator, ReproducesTheSheetsTotals) {
  // §12: mg.S.64, mg.W.16, the README's mg.S.8; §12.1: MG C.64 (408 pairs, 3,048 … 3,426
  // messages per rank).
  EXPECT_EQ(count_calls(generator("mg", 'S', 64)).matrix().total(), traffic(26'016, 6'664'704));
  EXPECT_EQ(count_calls(generator("mg", 'W', 16)).matrix().total(), traffic(9'584, 53'196'544));
  EXPECT_EQ(count_calls(generator("mg", 'S', 8)).matrix().total(), traffic(3'552, 2'795'776));
  const auto c64 = count_calls(generator("mg", 'C', 64));
  const auto m = c64.matrix();
  EXPECT_EQ(m.total(), traffic(201'120, 4'533'555'712));
  EXPECT_EQ(m.nonzero_count(), 408u);
  std::int64_t fewest = INT64_MAX, most = 0;
  for (Rank r = 0; r < 64; ++r) {
    fewest = std::min(fewest, c64.count(r, Call::Send));
    most = std::max(most, c64.count(r, Call::Send));
  }
  EXPECT_EQ(fewest, 3'048);
  EXPECT_EQ(most, 3'426);
}

TEST(MgGenerator, SmallGridsSendToThemselves) {
  // §13: with a grid dimension of 1 (N = 2: 1×1×2; N = 4: 1×2×2) the x neighbour is the rank
  // itself, so every working rank sends to itself.
  for (const Rank n : {2, 4}) {
    const auto m = count_calls(generator("mg", 'S', n)).matrix();
    for (Rank r = 0; r < n; ++r) EXPECT_GT(m.at(r, r).messages, 0u) << n << " ranks, rank " << r;
  }
}

// ---- FT, IS, EP (§9 – §11) -----------------------------------------------------------------

TEST(FtGenerator, OneDimensionalLayoutS16) {
  // §9: FT S.16, 1-D: 8 Alltoall on all 16 ranks, 16,384 B per peer (262,144 B per rank); 6
  // Reduce 16 B; 22 collectives (with the 2 splits); no point-to-point.
  const auto counted = count_calls(generator("ft", 'S', 16));
  EXPECT_EQ(counted.matrix().total(), traffic(0, 0));
  for (Rank r = 0; r < 16; ++r) {
    const auto& c = counted.collectives[static_cast<std::size_t>(r)];
    EXPECT_EQ(c.size(), 22u + 2u);  // + Init, Finalize
    const auto ops = ops_of(c);
    EXPECT_EQ(ops.at(CollectiveOp::Alltoall), 8);
    EXPECT_EQ(ops.at(CollectiveOp::Reduce), 6);
    EXPECT_EQ(ops.at(CollectiveOp::Bcast), 5);
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (std::get<0>(c[i]) == CollectiveOp::Alltoall) {
        EXPECT_EQ(std::get<2>(c[i]), 262'144);
        EXPECT_EQ(std::get<3>(c[i]), 262'144);
        EXPECT_EQ(counted.collective_sizes[static_cast<std::size_t>(r)][i], 16u);
      }
      if (std::get<0>(c[i]) == CollectiveOp::Reduce) {
        EXPECT_EQ(c[i],
                  (testing::CollectiveRecord{CollectiveOp::Reduce, 0, 16, r == 0 ? 16 * 16 : 0}));
      }
    }
  }
}

TEST(FtGenerator, TwoDimensionalLayoutW64) {
  // §9: FT W.64, 2-D (np1 = 32, np2 = 2): 16 Alltoall; forward FFT = commslice2 (32 ranks,
  // 4,096 B per peer) then commslice1 (2 ranks, 65,536 B per peer), inverse the reverse; every
  // call moves 131,072 B per rank.
  const auto counted = count_calls(generator("ft", 'W', 64));
  std::vector<std::size_t> sizes;
  const auto& c = counted.collectives[5];
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (std::get<0>(c[i]) != CollectiveOp::Alltoall) continue;
    EXPECT_EQ(std::get<2>(c[i]), 131'072);
    sizes.push_back(counted.collective_sizes[5][i]);
  }
  // Two forward FFTs (warm-up, timed), then 6 inverse ones.
  std::vector<std::size_t> expected{32, 2, 32, 2};
  for (int i = 0; i < 6; ++i) expected.insert(expected.end(), {2, 32});
  EXPECT_EQ(sizes, expected);
}

TEST(IsGenerator, ClassS16) {
  // §10: one 4-byte message r → r+1; Bcast 4 B, 11 × (Allreduce (512+5)·4 B → Score-P 33,088,
  // Alltoall 4 B per peer → 64, Alltoallv 16,384 B sent), Reduce 8 B, Reduce 4 B: 36
  // collectives. Rank 0 receives 16,656 … 16,688 B per Alltoallv; what all ranks receive per call
  // is what they send (16 × 16,384 B).
  const auto counted = count_calls(generator("is", 'S', 16));
  CommMatrixBuilder chain(16);
  for (Rank r = 0; r + 1 < 16; ++r) chain.add(r, r + 1, 1, 4);
  EXPECT_EQ(counted.matrix(), chain.build());
  std::vector<std::int64_t> received_per_call(11, 0);
  for (Rank r = 0; r < 16; ++r) {
    const auto& c = counted.collectives[static_cast<std::size_t>(r)];
    ASSERT_EQ(c.size(), 36u + 2u);
    EXPECT_EQ(c[1], (testing::CollectiveRecord{CollectiveOp::Bcast, 0, r == 0 ? 64 : 0, 4}));
    for (int call = 0; call < 11; ++call) {
      const auto at = static_cast<std::size_t>(2 + 3 * call);
      EXPECT_EQ(c[at], (testing::CollectiveRecord{CollectiveOp::Allreduce, -1, 33'088, 33'088}));
      EXPECT_EQ(c[at + 1], (testing::CollectiveRecord{CollectiveOp::Alltoall, -1, 64, 64}));
      const auto& [op, root, sent, received] = c[at + 2];
      EXPECT_EQ(op, CollectiveOp::Alltoallv);
      EXPECT_EQ(sent, 16'384);
      received_per_call[static_cast<std::size_t>(call)] += received;
      if (r == 0) {
        EXPECT_GE(received, 16'656);
        EXPECT_LE(received, 16'688);
      }
    }
    EXPECT_EQ(c[35], (testing::CollectiveRecord{CollectiveOp::Reduce, 0, 8, r == 0 ? 128 : 0}));
    EXPECT_EQ(c[36], (testing::CollectiveRecord{CollectiveOp::Reduce, 0, 4, r == 0 ? 64 : 0}));
  }
  for (const auto total : received_per_call) EXPECT_EQ(total, 16 * 16'384);
}

TEST(EpGenerator, OnlyAFewCollectives) {
  // §11: Bcast 4 B, Barrier, Allreduce sx 8 B, sy 8 B, q 80 B, time 8 B (Score-P: × P).
  const auto counted = count_calls(generator("ep", 'S', 16));
  EXPECT_EQ(counted.matrix().total(), traffic(0, 0));
  for (Rank r = 0; r < 16; ++r) {
    EXPECT_EQ(counted.collectives[static_cast<std::size_t>(r)],
              (std::vector<testing::CollectiveRecord>{{CollectiveOp::CreateHandle, -1, 0, 0},
                                                      {CollectiveOp::Bcast, 0, r == 0 ? 64 : 0, 4},
                                                      {CollectiveOp::Barrier, -1, 0, 0},
                                                      {CollectiveOp::Allreduce, -1, 128, 128},
                                                      {CollectiveOp::Allreduce, -1, 128, 128},
                                                      {CollectiveOp::Allreduce, -1, 1'280, 1'280},
                                                      {CollectiveOp::Allreduce, -1, 128, 128},
                                                      {CollectiveOp::DestroyHandle, -1, 0, 0}}));
  }
}

// ---- Compute gaps --------------------------------------------------------------------------

TEST(GeneratedComputeGaps, EpComputesItsBatchesAtOneFlopPerNanosecond) {
  // EP S on 1 rank: 2^(24−16) = 256 batches of 2^16 pairs at 60 flops per pair, 1 flop/ns:
  // 60 · 2^16 · 256 = 1,006,632,960 ns before the first Allreduce (event 3).
  const Trace trace = generate_trace(generator("ep", 'S', 1));
  const auto& events = trace.ranks[0].events;
  ASSERT_EQ(events.size(), 8u);
  EXPECT_EQ(events[3].op, CollectiveOp::Allreduce);
  EXPECT_EQ(events[3].gap, std::int64_t{1'006'632'960} * 1000);
}

TEST(GeneratedComputeGaps, LuWavefrontPlaneCostsItsPoints) {
  // LU S on 4 ranks (2×2, 6×6 points per k-plane): rank 0 (no north, no west) computes a plane,
  // 750 flops per point, before its first wavefront Send: 27,000 ns after the Barrier.
  const Trace trace = generate_trace(generator("lu", 'S', 4, 1));
  const auto& events = trace.ranks[0].events;
  const auto barrier = std::find_if(events.begin(), events.end(), [](const Event& e) {
    return e.kind == EventKind::Collective && e.op == CollectiveOp::Barrier;
  });
  ASSERT_NE(barrier, events.end());
  const auto first_send =
      std::find_if(barrier, events.end(), [](const Event& e) { return e.kind == EventKind::Send; });
  ASSERT_NE(first_send, events.end());
  EXPECT_EQ(first_send->gap, 27'000 * 1000);
  EXPECT_EQ(first_send->bytes, 5 * 5 * kDouble);  // 5·Lj doubles, Lj = 6 − 1
}

std::int64_t total_compute(const Trace& trace) {
  std::int64_t total = 0;
  for (const auto& stream : trace.ranks) {
    total += stream.final_gap;
    for (const auto& e : stream.events) total += e.gap;
  }
  return total;
}

TEST(GeneratedComputeGaps, GrowWithTheClass) {
  // Same ranks and iterations, a larger class: more points per rank, more computation.
  for (const char* kernel : {"lu", "bt", "sp", "cg", "mg", "ft", "is", "sweep3d", "stencil2d"}) {
    const auto small = total_compute(generate_trace(generator(kernel, 'S', 4, 1)));
    const auto larger = total_compute(generate_trace(generator(kernel, 'W', 4, 1)));
    EXPECT_GT(small, 0) << kernel;
    EXPECT_GT(larger, small) << kernel;
  }
}

TEST(Generators, AreDeterministic) {
  for (const char* kernel : {"lu", "mg", "is", "stencil3d"}) {
    EXPECT_EQ(generate_trace(generator(kernel, 'S', 8, 2)),
              generate_trace(generator(kernel, 'S', 8, 2)))
        << kernel;
  }
}

}  // namespace
}  // namespace mapsim::traces
