// Invariants over every ordered node pair of small instances of the seed papers' machines (the
// invariants themselves: EveryPair.hpp).

#include "tests/topologies/EveryPair.hpp"

namespace mapsim::topo {
namespace {

const auto kSmallInstances = ::testing::Values(
    "mesh:1", "mesh:5", "mesh:3x4", "mesh:2x3x2", "mesh:2x2x2x2:cores=2", "torus:2", "torus:4",
    "torus:5", "torus:3x4", "torus:2x3x4", "torus:1x4", "torus:4x4x4", "haec:3x3x3", "haec:2x3x4",
    "haec:4x4x1", "haec:4x4x4:cores=2", "haec:1x1x3", "tianhe3:1x1:nodes=2", "tianhe3:2x3:nodes=4",
    "tianhe3:3x3:nodes=6:cores=2", "tianhe3:2x2");

INSTANTIATE_TEST_SUITE_P(SmallInstances, EveryPair, kSmallInstances, SpecName);
INSTANTIATE_TEST_SUITE_P(SmallInstances, DistinctLinks, kSmallInstances, SpecName);

}  // namespace
}  // namespace mapsim::topo
