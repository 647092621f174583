// hops() and route_into() must not allocate: the simulator and the metrics call them per message.
// This binary replaces the global operator new with a counting one.

// GCC pairs the replaced operator new with free() below and warns of a mismatch that is not one.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "topologies/TopologySpec.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace mapsim::topo {
namespace {

class NoAllocation : public ::testing::TestWithParam<const char*> {};

TEST_P(NoAllocation, HopsAndRouteIntoAReservedBufferDoNotAllocate) {
  const auto machine = make_topology(GetParam());
  std::vector<LinkId> path;
  path.reserve(static_cast<std::size_t>(machine->max_route_links()));
  long total_hops = 0;
  const long before = allocations.load();
  for (NodeId a = 0; a < machine->node_count(); a += 3) {
    for (NodeId b = 0; b < machine->node_count(); ++b) {
      total_hops += machine->hops(a, b);
      machine->route_into(a, b, path);
      total_hops -= machine->route_hops(path);
    }
  }
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_EQ(total_hops, 0);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, NoAllocation,
                         ::testing::Values("mesh:5x4x3", "torus:4x4x4", "haec:4x4x4",
                                           "tianhe3:2x2:nodes=8"));

}  // namespace
}  // namespace mapsim::topo
