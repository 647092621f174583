// The Topology Manager queries of the Charm++ seed, over a machine with several cores per node.

#include "topologies/TopologyManager.hpp"

#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

class TorusWithTwoCores : public ::testing::Test {
 protected:
  std::unique_ptr<Topology> machine_ = make_topology("torus:4x4:cores=2");
  TopologyManager manager_{*machine_};
};

TEST_F(TorusWithTwoCores, PartitionProperties) {
  EXPECT_EQ(manager_.dimension_count(), 2);
  EXPECT_EQ(manager_.dimension(0), 4);
  EXPECT_TRUE(manager_.is_torus(1));
  EXPECT_EQ(manager_.cores_per_node(), 2);
  EXPECT_EQ(manager_.rank_count(), 32);
}

TEST_F(TorusWithTwoCores, RankCoordinatesRoundTrip) {
  // Rank 11 is core 1 of node 5 = (1, 1).
  const auto c = manager_.rank_to_coordinates(11);
  EXPECT_EQ(c.node, (std::vector<int>{1, 1}));
  EXPECT_EQ(c.core, 1);
  for (int rank = 0; rank < manager_.rank_count(); ++rank) {
    const auto rc = manager_.rank_to_coordinates(rank);
    EXPECT_EQ(manager_.coordinates_to_rank(rc.node, rc.core), rank);
  }
}

TEST_F(TorusWithTwoCores, HopsBetweenRanks) {
  EXPECT_EQ(manager_.hops_between_ranks(0, 1), 0);  // both on node 0
  // Rank 0 on (0,0), rank 31 on node 15 = (3,3): one step back in each dimension.
  EXPECT_EQ(manager_.hops_between_ranks(0, 31), 2);
}

TEST_F(TorusWithTwoCores, PicksTheClosestRankFirstOnTies) {
  // From rank 0 at (0,0): rank 20 is node 10 = (2,2), 4 hops; rank 2 is node 1 = (1,0), 1 hop;
  // rank 6 is node 3 = (3,0), 1 hop too but later in the list.
  const std::vector<int> candidates{20, 2, 6};
  EXPECT_EQ(manager_.pick_closest_rank(0, candidates), 2);
  const std::vector<int> reversed{20, 6, 2};
  EXPECT_EQ(manager_.pick_closest_rank(0, reversed), 6);
}

TEST_F(TorusWithTwoCores, SortsRanksByHopsStably) {
  const std::vector<int> candidates{20, 6, 1, 2};
  EXPECT_EQ(manager_.sort_ranks_by_hops(0, candidates), (std::vector<int>{1, 6, 2, 20}));
}

TEST_F(TorusWithTwoCores, RejectsRanksOutsideTheMachine) {
  EXPECT_THROW((void)manager_.rank_to_coordinates(32), InputError);
  EXPECT_THROW((void)manager_.rank_to_coordinates(-1), InputError);
  EXPECT_THROW((void)manager_.coordinates_to_rank(std::vector<int>{0, 0}, 2), InputError);
  EXPECT_THROW((void)manager_.coordinates_to_rank(std::vector<int>{4, 0}, 0), InputError);
  EXPECT_THROW((void)manager_.pick_closest_rank(0, {}), InputError);
}

}  // namespace
}  // namespace mapsim::topo
