// Comparing mappers statically and by simulation, and Spearman's rank correlation.

#include "experiments/Comparison.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::exp {
namespace {

constexpr double kTolerance = 1e-12;

TEST(Spearman, HandSolvedValues) {
  // Same order: 1. Reversed: -1.
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{10, 20, 30, 40}), 1,
              kTolerance);
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{4, 3, 2, 1}), -1,
              kTolerance);
  // Ranks (1, 2, 3, 4) against (2, 1, 4, 3): d = (1, 1, 1, 1), rho = 1 - 6 * 4 / (4 * 15) = 0.6.
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{5, 1, 9, 7}), 0.6,
              kTolerance);
  // Ties share their average rank: (1, 2.5, 2.5) against (1, 2, 3): Pearson of the ranks is
  // 1.5 / sqrt(1.5 * 2) = 0.8660...
  EXPECT_NEAR(spearman(std::vector<double>{1, 7, 7}, std::vector<double>{1, 2, 3}),
              1.5 / std::sqrt(3.0), kTolerance);
}

TEST(Spearman, UndefinedIsZero) {
  EXPECT_EQ(spearman(std::vector<double>{1}, std::vector<double>{2}), 0);
  EXPECT_EQ(spearman(std::vector<double>{3, 3, 3}, std::vector<double>{1, 2, 3}), 0);
  EXPECT_EQ(spearman(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3}), 0);
}

class SmallComparison : public ::testing::Test {
 protected:
  traces::Trace trace_ = traces::generate_trace({.kernel = "stencil2d",
                                                 .problem_class = 'S',
                                                 .ranks = 16,
                                                 .iterations = 2,
                                                 .message_bytes = 4096});
  std::unique_ptr<topo::Topology> machine_ = topo::make_topology("torus:4x4");
  std::vector<std::string> mappers_{"in-order", "random", "greedy"};
  sim::SimConfig config_ = [] {
    sim::SimConfig c;
    c.compute_scale = 0;
    return c;
  }();
};

TEST_F(SmallComparison, EveryRunIsValidAndReplaysEveryMessage) {
  const auto c = compare_mappers(trace_, *machine_, mappers_, 7, config_);
  ASSERT_EQ(c.runs.size(), 3u);
  for (std::size_t k = 0; k < c.runs.size(); ++k) {
    const auto& run = c.runs[k];
    EXPECT_EQ(run.mapper, mappers_[k]);
    EXPECT_NO_THROW(topo::validate(run.mapping, *machine_));
    EXPECT_EQ(run.simulation.unmatched_messages, 0u);
    EXPECT_GT(run.simulation.makespan, 0);
    EXPECT_EQ(run.metrics.messages, run.simulation.messages);  // no self-messages in a 4x4 stencil
  }
  // A 4x4 stencil in order on a 4x4 torus has every neighbour one hop away: hop-bytes = bytes.
  EXPECT_EQ(c.runs[0].metrics.hop_bytes, c.runs[0].metrics.bytes);
  EXPECT_GE(c.runs[1].metrics.hop_bytes, c.runs[0].metrics.hop_bytes);
}

TEST_F(SmallComparison, DoesNotDependOnTheThreadCount) {
  const auto many = compare_mappers(trace_, *machine_, mappers_, 7, config_);
  const tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const auto single = compare_mappers(trace_, *machine_, mappers_, 7, config_);
  for (std::size_t k = 0; k < many.runs.size(); ++k) {
    EXPECT_EQ(many.runs[k].mapping, single.runs[k].mapping);
    EXPECT_EQ(many.runs[k].simulation.makespan, single.runs[k].simulation.makespan);
  }
  EXPECT_EQ(many.rank_correlation, single.rank_correlation);
}

TEST_F(SmallComparison, RejectsUnknownMapperAndTooSmallMachine) {
  const std::vector<std::string> unknown{"in-order", "nosuch"};
  EXPECT_THROW((void)compare_mappers(trace_, *machine_, unknown, 0, config_), InputError);
  const auto small = topo::make_topology("torus:2x2");
  EXPECT_THROW((void)compare_mappers(trace_, *small, mappers_, 0, config_), InputError);
}

}  // namespace
}  // namespace mapsim::exp
