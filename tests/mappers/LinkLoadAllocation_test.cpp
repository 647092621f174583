// Link loads reuse one route buffer per thread: the number of allocations does not grow with the
// number of routes. This binary replaces the global operator new with a counting one.

// GCC pairs the replaced operator new with free() below and warns of a mismatch that is not one.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/Metrics.hpp"
#include "tests/mappers/TestMatrices.hpp"
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

namespace mapsim::map {
namespace {

long allocations_for(const traces::CommMatrix& matrix, const topo::Topology& machine) {
  std::vector<topo::NodeId> nodes;
  for (Rank r = 0; r < matrix.rank_count(); ++r) nodes.push_back(r % machine.node_count());
  const topo::Mapping mapping(nodes);
  const long before = allocations.load();
  const auto loads = metrics::link_loads(matrix, machine, mapping);
  const long count = allocations.load() - before;
  EXPECT_FALSE(loads.messages.empty());
  return count;
}

TEST(LinkLoadAllocation, DoesNotGrowWithTheNumberOfRoutes) {
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  for (const char* spec : {"torus:4x4x4", "tianhe3:2x2:nodes=16", "haec:4x4x4"}) {
    const auto machine = topo::make_topology(spec);
    (void)allocations_for(testing::stencil_2d(8, 8, false), *machine);  // TBB's one-time setup
    // 64 ranks: 128 routes against 64 x 30 routes.
    const auto few = allocations_for(testing::stencil_2d(64, 1, false), *machine);
    const auto many = allocations_for(testing::random_matrix(64, 30, 1), *machine);
    EXPECT_EQ(few, many) << spec;
    EXPECT_LT(many, 20) << spec;  // per-thread tables and the result, not per route
  }
}

}  // namespace
}  // namespace mapsim::map
