// Byte counts near 2^63: hop-weighted sums must fit or be refused with the limit, and Scotch's
// 32-bit weights must be scaled without wrapping.

#include <cstdint>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mappers/CommGraph.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/ScotchSupport.hpp"
#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr std::uint64_t kTwo58 = std::uint64_t{1} << 58;
constexpr std::uint64_t kTwo61 = std::uint64_t{1} << 61;
constexpr std::uint64_t kTwo62 = std::uint64_t{1} << 62;

// Ranks 0 -> 7 send 2^62 bytes: on mesh:8 in order they are 7 hops apart, and hop-bytes
// (7 * 2^62) would wrap round 2^64.
traces::CommMatrix far_apart() {
  traces::CommMatrixBuilder builder(8);
  builder.add(0, 7, 1, kTwo62);
  return builder.build();
}

// A ring of 4 ranks, 2^58 bytes each way between neighbours: 2^61 bytes in all, hop-bytes at
// least 2^61 (every pair on distinct nodes) and 2^61 exactly on a ring of 4 nodes.
traces::CommMatrix heavy_ring() {
  traces::CommMatrixBuilder builder(4);
  for (Rank r = 0; r < 4; ++r) {
    builder.add(r, (r + 1) % 4, 1, kTwo58);
    builder.add((r + 1) % 4, r, 1, kTwo58);
  }
  return builder.build();
}

TEST(NumericLimits, EvaluateRefusesHopBytesThatWouldWrap) {
  const auto mesh = topo::make_topology("mesh:8");
  try {
    (void)metrics::evaluate(far_apart(), *mesh, topo::in_order_mapping(8, *mesh));
    FAIL() << "no error";
  } catch (const InputError& e) {
    // 2^63 - 1 over the 7 links of mesh:8's longest route.
    EXPECT_THAT(e.what(), AllOf(HasSubstr("4611686018427387904 bytes are too large for mesh:8"),
                                HasSubstr("(limit 1317624576693539401)"), HasSubstr("7 links")));
  }
}

TEST(NumericLimits, MappersRefuseHopBytesThatWouldWrap) {
  const auto mesh = topo::make_topology("mesh:8");
  for (const std::string name : {"in-order", "scotch", "bisection", "greedy", "best"}) {
    EXPECT_THROW((void)make_mapper(name)->map(far_apart(), *mesh), InputError) << name;
  }
}

TEST(NumericLimits, MappersSumHeavyTrafficExactly) {
  // torus:4's longest route is 2 links: 2^61 bytes are within the limit (2^63 - 1) / 2, and
  // every sum over pairs or links (up to 2^62) is exact.
  const auto ring = topo::make_topology("torus:4");
  const auto matrix = heavy_ring();
  for (const std::string name : {"in-order", "scotch", "bisection", "greedy", "best"}) {
    const auto m = metrics::evaluate(matrix, *ring, make_mapper(name)->map(matrix, *ring));
    EXPECT_EQ(m.bytes, kTwo61) << name;
    EXPECT_GE(m.hop_bytes, kTwo61) << name;
    EXPECT_LE(m.hop_bytes, 2 * kTwo61) << name;
    // On a direct network the link loads add up to hop-bytes.
    EXPECT_EQ(m.directed_bytes.total, m.hop_bytes) << name;
  }
  // In order, every pair is one hop apart.
  EXPECT_EQ(metrics::evaluate(matrix, *ring, topo::in_order_mapping(4, *ring)).hop_bytes, kTwo61);
}

TEST(NumericLimits, ScotchWeightsOfTrafficNearTwoTo63AreScaledWithoutWrapping) {
  // The largest matrix: edge {0, 1} carries 2^63 - 2 bytes (both ways), edge {2, 3} one byte.
  // Counted on both arcs the total is 2^64 - 2, a hair below wrapping; every weight must still
  // come out positive and their sum near Scotch's budget of 2^24.
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 1, 1, kTwo62);
  builder.add(1, 0, 1, kTwo62 - 2);
  builder.add(2, 3, 1, 1);
  const CommGraph graph(builder.build());
  const auto data = scotch::process_graph(graph);
  ASSERT_EQ(data.weights.size(), 4u);  // arcs 0-1, 1-0, 2-3, 3-2
  std::int64_t total = 0;
  for (const auto w : data.weights) {
    EXPECT_GE(w, 1);
    total += w;
  }
  // Scaled to about 2^24 in all: each heavy arc about 2^23, the light ones rounded up to 1.
  EXPECT_LE(total, (std::int64_t{1} << 24) + 2);
  EXPECT_GT(data.weights[0], 1 << 22);
  EXPECT_EQ(data.weights[0], data.weights[1]);
  EXPECT_EQ(data.weights[2], 1);
}

}  // namespace
}  // namespace mapsim::map
