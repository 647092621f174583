// hops() and route_into() must not allocate: the simulator and the metrics call them per message.
// This binary replaces the global operator new with a counting one.

#include <gtest/gtest.h>

#include "tests/support/CountingNew.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

class NoAllocation : public ::testing::TestWithParam<const char*> {};

TEST_P(NoAllocation, HopsAndRouteIntoAReservedBufferDoNotAllocate) {
  const auto machine = make_topology(GetParam());
  std::vector<LinkId> path;
  path.reserve(static_cast<std::size_t>(machine->max_route_links()));
  long total_hops = 0;
  const long before = mapsim::testing::allocations.load();
  for (NodeId a = 0; a < machine->node_count(); a += 3) {
    for (NodeId b = 0; b < machine->node_count(); ++b) {
      total_hops += machine->hops(a, b);
      machine->route_into(a, b, path);
      total_hops -= machine->route_hops(path);
    }
  }
  EXPECT_EQ(testing::allocations.load() - before, 0);
  EXPECT_EQ(total_hops, 0);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, NoAllocation,
                         ::testing::Values("mesh:5x4x3", "torus:4x4x4", "haec:4x4x4",
                                           "tianhe3:2x2:nodes=8"));

INSTANTIATE_TEST_SUITE_P(Dragonflies, NoAllocation,
                         ::testing::Values("dragonfly:9,4,2,2",
                                           "dragonfly:5,3,1,4:global=circulant",
                                           "dragonfly:4,2,2,3:global=palmtree",
                                           "cascade:2,2;2,2;2,1;2", "cascade:3,4;4,3;5,1;2"));

INSTANTIATE_TEST_SUITE_P(FatTrees, NoAllocation,
                         ::testing::Values("fattree:3;2,3,2;2,2,3;2,1,2",
                                           "fattree:k-ary-n-tree:4,3"));

// The Valiant routes of dragonflies and the ECMP routes of fat-trees, asked per message by the
// network models.
TEST(NoValiantAllocation, ValiantRoutesIntoAReservedBufferDoNotAllocate) {
  for (const char* spec : {"dragonfly:9,4,2,2:routing=valiant", "cascade:3,4;4,3;5,1;2",
                           "fattree:3;2,3,2;2,2,3;2,1,2:routing=ecmp"}) {
    const auto machine = make_topology(spec);
    std::vector<LinkId> path;
    path.reserve(static_cast<std::size_t>(machine->max_route_links()));
    const long before = mapsim::testing::allocations.load();
    for (NodeId a = 0; a < machine->node_count(); a += 3) {
      for (NodeId b = 0; b < machine->node_count(); ++b) {
        machine->alternative_route_into(a, b, static_cast<std::uint64_t>(a) * 7919 + b, path);
      }
    }
    EXPECT_EQ(testing::allocations.load() - before, 0) << spec;
  }
}

}  // namespace
}  // namespace mapsim::topo
