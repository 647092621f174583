#include "topologies/Mapping.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

using ::testing::HasSubstr;

std::string error_of(const Mapping& mapping, const Topology& topology) {
  try {
    validate(mapping, topology);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Mapping, InOrderFillsNodesCoreByCore) {
  const auto machine = make_topology("mesh:2x2:cores=2");
  const auto mapping = in_order_mapping(6, *machine);
  EXPECT_EQ(std::vector<NodeId>(mapping.nodes().begin(), mapping.nodes().end()),
            (std::vector<NodeId>{0, 0, 1, 1, 2, 2}));
  EXPECT_THROW((void)in_order_mapping(9, *machine), InputError);  // 8 cores
}

TEST(Mapping, ValidAcceptsFewerRanksThanNodes) {
  const auto machine = make_topology("torus:4");
  EXPECT_EQ(error_of(Mapping({3, 1}), *machine), "");
}

TEST(Mapping, RejectsNodeOutsideTheMachine) {
  const auto machine = make_topology("torus:4");
  EXPECT_THAT(error_of(Mapping({0, 4}), *machine),
              HasSubstr("rank 1 is mapped to node 4, which torus:4 does not have"));
  EXPECT_THAT(error_of(Mapping({-1}), *machine), HasSubstr("node -1"));
}

TEST(Mapping, RejectsOverfullNode) {
  const auto machine = make_topology("torus:4:cores=2");
  EXPECT_EQ(error_of(Mapping({1, 1, 0}), *machine), "");
  EXPECT_THAT(error_of(Mapping({1, 1, 0, 1}), *machine),
              HasSubstr("node 1 holds more than 2 rank(s) (rank 3 is one too many)"));
}

TEST(Mapping, RejectsMoreRanksThanCores) {
  const auto machine = make_topology("torus:2");
  EXPECT_THAT(error_of(Mapping({0, 1, 0}), *machine), HasSubstr("3 ranks do not fit on torus:2"));
}

}  // namespace
}  // namespace mapsim::topo
