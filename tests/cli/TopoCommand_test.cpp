// `mapsim topo`: the description, single queries and every bad input.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"

namespace mapsim {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using testing::run_mapsim;

TEST(TopoCommand, DescribesTheMachine) {
  const auto r = run_mapsim("topo torus:4x4x4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("nodes          64\n"));
  EXPECT_THAT(r.out, HasSubstr("links          384 directed"));
  EXPECT_THAT(r.out, HasSubstr("diameter       6 hops"));
  EXPECT_THAT(r.out, HasSubstr("avg distance   3.0476 hops over 4032"));  // 3 * 64 / 63
}

TEST(TopoCommand, CountsLinksPerClass) {
  const auto r = run_mapsim("topo haec:4x4x4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("haec-optical +256 "));
  EXPECT_THAT(r.out, ContainsRegex("haec-wireless +1536 "));
  EXPECT_THAT(r.out, HasSubstr("avg distance   1.7778"));  // 7168 / 4032
}

TEST(TopoCommand, AnswersHopsByIdOrCoordinates) {
  const auto by_id = run_mapsim("topo torus:4x4x4 --hops 0 63");
  EXPECT_EQ(by_id.exit_code, 0) << by_id.err;
  EXPECT_EQ(by_id.out, "3\n");  // (0,0,0) -> (3,3,3): one step back per dimension
  const auto by_coords = run_mapsim("topo mesh:4x4x4 --hops 0,0,0 3,3,3");
  EXPECT_EQ(by_coords.out, "9\n");
  const auto th3 = run_mapsim("topo tianhe3:4x4 --hops 0 1535");
  EXPECT_EQ(th3.out, "6\n");
}

TEST(TopoCommand, PrintsRouteAndCoordinates) {
  const auto route = run_mapsim("topo mesh:3x3 --route 0 4");
  ASSERT_EQ(route.exit_code, 0) << route.err;
  EXPECT_THAT(route.out, HasSubstr("2 links, 2 hops"));
  EXPECT_THAT(route.out, HasSubstr("node 0 (0,0) -> node 1 (1,0)  [grid]"));
  EXPECT_THAT(route.out, HasSubstr("node 1 (1,0) -> node 4 (1,1)  [grid]"));
  const auto coords = run_mapsim("topo haec:4x4x4 --coords 21");
  EXPECT_EQ(coords.out, "node 21 (1,1,1)\n");
}

TEST(TopoCommand, RejectsMalformedSpec) {
  const auto r = run_mapsim("topo torus:4x0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("mapsim topo: error: topology spec 'torus:4x0': size 2 of 2 is 0"));
}

TEST(TopoCommand, RejectsNodeOutsideTheMachine) {
  const auto r = run_mapsim("topo torus:4x4 --hops 0 99");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--hops B: node 99 does not exist; torus:4x4 has nodes 0 to 15"));
  const auto coords = run_mapsim("topo torus:4x4 --coords 1,7");
  EXPECT_EQ(coords.exit_code, 1);
  EXPECT_THAT(coords.err, HasSubstr("coordinate y = 7 is outside torus:4x4"));
  const auto garbage = run_mapsim("topo torus:4x4 --coords one");
  EXPECT_EQ(garbage.exit_code, 1);
  EXPECT_THAT(garbage.err,
              HasSubstr("--coords: 'one' is neither a host of torus:4x4 (node00 to node15) nor a "
                        "node id (0 to 15)"));
}

TEST(TopoCommand, RejectsWrongNumberOfQueryNodes) {
  const auto r = run_mapsim("topo torus:4x4 --hops 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--hops takes two nodes A B, got 1"));
}

TEST(TopoCommand, RequiresASpec) {
  const auto r = run_mapsim("topo");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("spec"));
}

}  // namespace
}  // namespace mapsim
