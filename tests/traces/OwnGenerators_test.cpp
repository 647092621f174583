// The generators that are mapsim's own models (Sweep3D-style sweep, 2-D and 3-D stencils)
// against the formulas their headers document, computed here by hand.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/traces/GeneratorChecks.hpp"

namespace mapsim::traces {
namespace {

using testing::Call;
using testing::count_calls;
using testing::generator;

TEST(Sweep3dGenerator, SixRanksClassS) {
  // N = 6: npe_j = 2 (largest divisor <= sqrt 6), npe_i = 3; n = 32 → it = 11, 11, 10 and
  // jt = 16, 16; k blocks of 10, 10, 10, 2 planes (4 blocks); 2 angle blocks of 3 angles.
  // A link carries one message per angle block and k block in the 4 octants whose sweep crosses
  // it downstream (2 corners × 2 k directions): 4 · 2 · 4 = 32 per iteration. Bytes per
  // iteration: 4 octants · 2 angle blocks · Σ planes (= 32) · 3 angles · 8 B · the face (jt for
  // i-going, it for j-going) = 6,144 · face.
  const std::int64_t iterations = 3;
  const auto counted = count_calls(generator("sweep3d", 'S', 6, iterations));
  const std::int64_t it[] = {11, 11, 10};
  CommMatrixBuilder expected(6);
  for (Rank r = 0; r < 6; ++r) {
    const Rank i = r % 3;
    const Rank j = r / 3;
    const auto add = [&](Rank to, std::int64_t face) {
      expected.add(r, to, static_cast<std::uint64_t>(32 * iterations),
                   static_cast<std::uint64_t>(6'144 * face * iterations));
    };
    if (i + 1 < 3) add(r + 1, 16);     // east (i-going): face jt = 16
    if (i > 0) add(r - 1, 16);         // west
    if (j + 1 < 2) add(r + 3, it[i]);  // south (j-going): face it
    if (j > 0) add(r - 3, it[i]);      // north
  }
  EXPECT_EQ(counted.matrix(), expected.build());
  // Corner rank 0 is upstream in 1 of 4 corners' sweeps on both axes: it receives from 2
  // neighbours in 3 of them... simply: every message has a blocking Recv at the other end.
  std::int64_t sends = 0, recvs = 0;
  for (Rank r = 0; r < 6; ++r) {
    sends += counted.count(r, Call::Send);
    recvs += counted.count(r, Call::Recv);
    EXPECT_EQ(counted.count(r, Call::Isend), 0);
    // Bcast, one Allreduce per iteration, Reduce, between Init and Finalize.
    EXPECT_EQ(counted.collectives[static_cast<std::size_t>(r)].size(), 2u + 1u + 3u + 1u);
  }
  EXPECT_EQ(sends, recvs);
}

TEST(StencilGenerator, TwoDimensionsTwelveRanks) {
  // N = 12 → grid 4 × 3 (x fastest); n = 1024: x blocks 256, y blocks 342, 341, 341. A ±x message
  // is a column of the rank's block (ny points · 8 B), a ±y message a row (nx · 8 B); one per
  // neighbour and sweep.
  const std::int64_t sweeps = 5;
  const auto counted = count_calls(generator("stencil2d", 'S', 12, sweeps));
  const std::int64_t ny[] = {342, 341, 341};
  CommMatrixBuilder expected(12);
  for (Rank r = 0; r < 12; ++r) {
    const Rank x = r % 4;
    const Rank y = r / 4;
    const auto add = [&](Rank to, std::int64_t points) {
      expected.add(r, to, static_cast<std::uint64_t>(sweeps),
                   static_cast<std::uint64_t>(8 * points * sweeps));
    };
    if (x > 0) add(r - 1, ny[y]);
    if (x < 3) add(r + 1, ny[y]);
    if (y > 0) add(r - 4, 256);
    if (y < 2) add(r + 4, 256);
  }
  EXPECT_EQ(counted.matrix(), expected.build());
  // Interior rank 5 (x 1, y 1): 4 Irecv + 4 Isend per sweep, one Waitall per sweep.
  EXPECT_EQ(counted.count(5, Call::Isend), 4 * sweeps);
  EXPECT_EQ(counted.count(5, Call::Irecv), 4 * sweeps);
  EXPECT_EQ(counted.count(5, Call::Waitall), sweeps);
}

TEST(StencilGenerator, ThreeDimensionsWithAFixedMessageSize) {
  // N = 8 → 2 × 2 × 2, every rank has 3 neighbours; --message-bytes 1000 sets every message.
  // 25 sweeps: residual Allreduce after sweeps 10, 20 and the last (25).
  auto options = generator("stencil3d", 'A', 8, 25);
  options.message_bytes = 1000;
  const auto counted = count_calls(options);
  CommMatrixBuilder expected(8);
  for (Rank r = 0; r < 8; ++r) {
    for (const Rank bit : {1, 2, 4}) expected.add(r, r ^ bit, 25, 25'000);
  }
  EXPECT_EQ(counted.matrix(), expected.build());
  std::int64_t allreduces = 0;
  for (const auto& record : counted.collectives[0]) {
    if (std::get<0>(record) == CollectiveOp::Allreduce) ++allreduces;
  }
  EXPECT_EQ(allreduces, 3);
}

TEST(StencilGenerator, ThreeDimensionalFacesFromTheClassGrid) {
  // N = 12 → 3 × 2 × 2 (prime factors 3, 2, 2 to the smallest dimension, sorted); n = 64:
  // x blocks 22, 21, 21; y and z blocks 32. Rank 0 → rank 1 (+x): a y·z face, 32 · 32 · 8 B;
  // rank 0 → rank 3 (+y): x·z = 22 · 32 · 8 B; rank 0 → rank 6 (+z): 22 · 32 · 8 B.
  const auto m = count_calls(generator("stencil3d", 'S', 12, 1)).matrix();
  EXPECT_EQ(m.at(0, 1), (Traffic{1, 32 * 32 * 8}));
  EXPECT_EQ(m.at(0, 3), (Traffic{1, 22 * 32 * 8}));
  EXPECT_EQ(m.at(0, 6), (Traffic{1, 22 * 32 * 8}));
  EXPECT_EQ(m.at(2, 5), (Traffic{1, 21 * 32 * 8}));
  EXPECT_EQ(m.destinations(0).size(), 3u);
}

}  // namespace
}  // namespace mapsim::traces
