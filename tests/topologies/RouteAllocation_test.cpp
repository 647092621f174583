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

}  // namespace
}  // namespace mapsim::topo
