// The generators that are mapsim's own models (Sweep3D's class cubes, 2-D and 3-D stencils)
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
  // mapsim's own class S cube (n = 32) with Sweep3D 2.2b's communication (Sweep3d_test.cpp checks
  // the decks). N = 6: the most square mesh with npe_i <= npe_j is 2 × 3 (rank = i + 2·j);
  // it = 16, 16 and jt = 11, 11, 10; mk = 10 gives kb = 4 k-blocks (10, 10, 10, 2 planes, but
  // every message carries mk = 10); 2 angle blocks of mmi = 3. A link carries one message per
  // angle block and k-block in the 4 octants that cross it downstream: 4 · 2 · 4 = 32 per
  // iteration, each face · 10 · 3 · 8 B = 240 · face (jt for i-going, it for j-going).
  const std::int64_t iterations = 3;
  const auto counted = count_calls(generator("sweep3d", 'S', 6, iterations));
  const std::int64_t jt[] = {11, 11, 10};
  CommMatrixBuilder expected(6);
  for (Rank r = 0; r < 6; ++r) {
    const Rank i = r % 2;
    const Rank j = r / 2;
    const auto add = [&](Rank to, std::int64_t face) {
      expected.add(r, to, static_cast<std::uint64_t>(32 * iterations),
                   static_cast<std::uint64_t>(32 * 240 * face * iterations));
    };
    if (i + 1 < 2) add(r + 1, jt[j]);  // east (i-going): face jt
    if (i > 0) add(r - 1, jt[j]);      // west
    if (j + 1 < 3) add(r + 2, 16);     // north (j-going): face it = 16
    if (j > 0) add(r - 2, 16);         // south
  }
  EXPECT_EQ(counted.matrix(), expected.build());
  // Every message has a blocking Recv at the other end.
  std::int64_t sends = 0, recvs = 0;
  for (Rank r = 0; r < 6; ++r) {
    sends += counted.count(r, Call::Send);
    recvs += counted.count(r, Call::Recv);
    EXPECT_EQ(counted.count(r, Call::Isend), 0);
    // Init; Bcast 4 B, Bcast 4·N B, Barrier, Bcast 64 B, Bcast 32 B, Barrier; two Allreduces per
    // iteration; Barrier and 8 Allreduces; Finalize.
    EXPECT_EQ(counted.collectives[static_cast<std::size_t>(r)].size(), 1u + 6u + 2u * 3u + 9u + 1u);
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
