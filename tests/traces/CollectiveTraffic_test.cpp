// Matrices with collectives: the collectives' messages as CollectiveSchedule sends them, matched
// across ranks, the same whether the trace is stored or streamed.

#include "traces/CollectiveTraffic.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/Otf2TestArchive.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::Otf2TestArchive;
using testing::TempDir;

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

MatrixOptions with_collectives() {
  MatrixOptions options;
  options.collectives = true;
  return options;
}

TEST(CollectiveTraffic, EpClassSHandCounted) {
  // ep.S.5 (5 ranks) calls, on MPI_COMM_WORLD: CREATE_HANDLE (MPI_Init), Bcast (root 0, 4 B
  // received by all), Barrier, 4 Allreduce (sent 40, 40, 400, 40 = 5 b: b = 8, 8, 80, 8 B),
  // DESTROY_HANDLE. With P = 5: a dissemination barrier (and CREATE_HANDLE) is ceil(log2 5) = 3
  // steps of one 0-byte message per member = 15 messages each; the binomial Bcast is P - 1 = 4
  // messages of 4 B; a recursive-doubling Allreduce on 5 = 4 + 1 members is 1 fold-in message,
  // 2 rounds of 4 and 1 result message back = 10 messages of b. DESTROY_HANDLE sends nothing.
  // Total: 15 + 15 + 4 + 4 × 10 = 74 messages; 4 × 4 + 10 × (8 + 8 + 80 + 8) = 1,056 bytes.
  const auto path = kTraces + "npb/ep.S.5";
  const Trace trace = read_trace(path);
  EXPECT_EQ(collective_matrix(trace).total(), (Traffic{74, 1'056}));
  EXPECT_EQ(point_to_point_matrix(trace).total(), (Traffic{0, 0}));
  EXPECT_EQ(read_matrix(path, with_collectives()).total(), (Traffic{74, 1'056}));
}

class RealTraceCollectives : public ::testing::TestWithParam<const char*> {};

TEST_P(RealTraceCollectives, StreamedEqualsStoredAndAddsToPointToPoint) {
  const auto path = kTraces + GetParam();
  const Trace trace = read_trace(path);
  const auto full = matrix_with_collectives(trace);
  EXPECT_EQ(read_matrix(path, with_collectives()), full);
  const auto p2p = point_to_point_matrix(trace).total();
  const auto collectives = collective_matrix(trace).total();
  EXPECT_EQ(full.total(),
            (Traffic{p2p.messages + collectives.messages, p2p.bytes + collectives.bytes}));
}

INSTANTIATE_TEST_SUITE_P(Readme, RealTraceCollectives,
                         ::testing::Values("npb/bt.S.9", "npb/cg.S.8", "npb/ft.S.12", "npb/is.S.2",
                                           "npb/lu.S.8", "npb/mg.S.24", "npb/sp.S.4",
                                           "public/sstmacro_otf2_test_traces",
                                           "public/casita_2_jacobi_blame_cpu_015",
                                           "public/tracer_stencil4d_32",
                                           "public/casita_1_xeonphi_jacobi_01"));

TEST(CollectiveTraffic, SubCommunicatorMessagesGoBetweenWorldRanks) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 4);
    const auto pair = a.comm("", {1, 3});
    for (const int r : {1, 3}) {  // Alltoall of 16 B per peer on {1, 3}: sent = 2 × 16
      a.collective(r, 0, 10, "MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, 32, 32,
                   OTF2_UNDEFINED_UINT32, pair);
    }
  }
  // Pairwise exchange on 2 members: one step, each sends its 16 B block to the other.
  const auto m = read_matrix(dir.path(), with_collectives());
  EXPECT_EQ(m.total(), (Traffic{2, 32}));
  EXPECT_EQ(m.at(1, 3), (Traffic{1, 16}));
  EXPECT_EQ(m.at(3, 1), (Traffic{1, 16}));
}

TEST(CollectiveTraffic, NonBlockingCollectivesKeepTheirCallOrder) {
  // Both ranks start an Iallreduce and then call a Barrier; rank 0 completes the Iallreduce after
  // the Barrier, rank 1 before it. Streamed, rank 0's ICollective arrives after its Barrier: the
  // calls must still be matched in call order (Iallreduce with Iallreduce).
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    for (const int r : {0, 1}) {
      a.enter(r, 0, "MPI_Iallreduce");
      OTF2_EvtWriter_NonBlockingCollectiveRequest(a.writer(r), nullptr, a.at(1), 9);
      a.leave(r, 2, "MPI_Iallreduce");
      const auto complete = [&](std::uint64_t t) {
        a.enter(r, t, "MPI_Wait");
        OTF2_EvtWriter_NonBlockingCollectiveComplete(a.writer(r), nullptr, a.at(t + 1),
                                                     OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                                     OTF2_UNDEFINED_UINT32, 16, 16, 9);
        a.leave(r, t + 2, "MPI_Wait");
      };
      if (r == 1) complete(10);
      a.collective(r, 20, 30, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
      if (r == 0) complete(40);
    }
  }
  const Trace trace = read_trace(dir.path());
  // Allreduce of b = 16 / 2 = 8 B on 2 members: one exchange (1 message each way, 8 B);
  // Barrier on 2: one dissemination step, one 0-byte message each way.
  const auto m = read_matrix(dir.path(), with_collectives());
  EXPECT_EQ(m, matrix_with_collectives(trace));
  EXPECT_EQ(m.at(0, 1), (Traffic{2, 8}));
  EXPECT_EQ(m.at(1, 0), (Traffic{2, 8}));
}

TEST(CollectiveTraffic, MissingCallIsAnErrorNamingTheCommunicator) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    a.collective(0, 0, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    a.collective(0, 20, 30, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    a.collective(1, 0, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  }
  try {
    (void)read_matrix(dir.path(), with_collectives());
    FAIL() << "matched collectives that do not match";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("MPI_COMM_WORLD"), HasSubstr("rank 0 made 2"),
                                HasSubstr("rank 1 made 1")));
  }
  EXPECT_EQ(read_matrix(dir.path()).total(), (Traffic{}));  // point-to-point alone is fine
}

TEST(CollectiveTraffic, DifferentOperationsInOneCallAreAnError) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    a.collective(0, 0, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    a.collective(1, 0, 10, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 16, 16);
  }
  const Trace trace = read_trace(dir.path());
  EXPECT_THROW((void)collective_matrix(trace), InputError);
}

}  // namespace
}  // namespace mapsim::traces
