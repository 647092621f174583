#pragma once
// A mapper's mapping is valid and the same on one and on two threads: each run in an arena of
// that many threads under a global_control limit of as many (GoalReplicas keeps one copy of the
// link loads per thread the search may run on).

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "mappers/Mapper.hpp"
#include "topologies/Mapping.hpp"

namespace mapsim::testing {

/// The mapping of `matrix` (seed 3) on one thread is valid and equals the one on two.
inline void expect_same_on_one_and_two_threads(const map::Mapper& mapper,
                                               const traces::CommMatrix& matrix,
                                               const topo::Topology& machine) {
  const auto on = [&](int threads) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    tbb::task_arena arena(threads);
    return arena.execute([&] { return mapper.map(matrix, machine, 3); });
  };
  const auto serial = on(1);
  EXPECT_NO_THROW(topo::validate(serial, machine));
  EXPECT_EQ(serial, on(2));
}

}  // namespace mapsim::testing
