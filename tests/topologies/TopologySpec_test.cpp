// Spec parsing: valid specs round-trip; every malformed spec fails with a message that quotes it
// and says what is wrong.

#include "topologies/TopologySpec.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim::topo {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

/// The message of the InputError that parsing `spec` throws ("" if it does not throw).
std::string error_of(const std::string& spec) {
  try {
    (void)parse_topology_spec(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TopologySpec, ParsesEveryKind) {
  const auto torus = parse_topology_spec("torus:4x4x4");
  EXPECT_EQ(torus.kind, "torus");
  EXPECT_EQ(torus.sizes, (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(torus.cores, 1);
  EXPECT_EQ(parse_topology_spec("mesh:9x8").sizes, (std::vector<int>{9, 8}));
  EXPECT_EQ(parse_topology_spec("haec:4x4x4").kind, "haec");
  const auto th3 = parse_topology_spec("tianhe3:4x4:nodes=8:cores=2");
  EXPECT_EQ(th3.nodes_per_chip, 8);
  EXPECT_EQ(th3.cores, 2);
  EXPECT_EQ(parse_topology_spec("tianhe3:4x4").nodes_per_chip, 96);
}

TEST(TopologySpec, CanonicalTextRoundTrips) {
  for (const char* spec : {"torus:4x4x4", "mesh:9x8:cores=4", "haec:4x4x4", "tianhe3:4x4",
                           "tianhe3:2x3:nodes=8:cores=2", "mesh:7"}) {
    EXPECT_EQ(to_string(parse_topology_spec(spec)), spec);
    EXPECT_EQ(make_topology(spec)->spec(), spec);
  }
  // Options in any order; defaults are dropped.
  EXPECT_EQ(to_string(parse_topology_spec("tianhe3:4x4:cores=2:nodes=96")), "tianhe3:4x4:cores=2");
}

TEST(TopologySpec, CoresSetCapacity) {
  const auto machine = make_topology("torus:4x4:cores=8");
  EXPECT_EQ(machine->cores_per_node(), 8);
  EXPECT_EQ(machine->node_count(), 16);
}

TEST(TopologySpec, RejectsEmptySpec) {
  EXPECT_THAT(error_of(""), AllOf(HasSubstr("topology spec ''"), HasSubstr("empty")));
}

TEST(TopologySpec, RejectsUnknownKind) {
  EXPECT_THAT(error_of("tours:4x4"),
              AllOf(HasSubstr("'tours:4x4'"), HasSubstr("unknown kind 'tours'"),
                    HasSubstr("mesh, torus, haec, tianhe3")));
}

TEST(TopologySpec, RejectsMissingSizes) {
  EXPECT_THAT(error_of("torus"), AllOf(HasSubstr("'torus'"), HasSubstr("sizes are missing")));
  EXPECT_THAT(error_of("mesh:"), AllOf(HasSubstr("'mesh:'"), HasSubstr("sizes are missing")));
}

TEST(TopologySpec, RejectsZeroSize) {
  EXPECT_THAT(error_of("torus:4x0x4"),
              AllOf(HasSubstr("'torus:4x0x4'"), HasSubstr("size 2 of 3 is 0"),
                    HasSubstr("positive integer")));
}

TEST(TopologySpec, RejectsNegativeSize) {
  EXPECT_THAT(error_of("mesh:-4x4"),
              AllOf(HasSubstr("'mesh:-4x4'"), HasSubstr("size 1 of 2 is '-4'"),
                    HasSubstr("positive integer")));
}

TEST(TopologySpec, RejectsTrailingGarbageInSize) {
  EXPECT_THAT(error_of("torus:4x4x4junk"),
              AllOf(HasSubstr("'torus:4x4x4junk'"), HasSubstr("'4junk'"),
                    HasSubstr("not a positive integer")));
}

TEST(TopologySpec, RejectsEmptySize) {
  EXPECT_THAT(error_of("torus:4xx4"),
              AllOf(HasSubstr("'torus:4xx4'"), HasSubstr("size 2 of 3 is empty")));
}

TEST(TopologySpec, RejectsTrailingColon) {
  EXPECT_THAT(error_of("torus:4x4:"), AllOf(HasSubstr("'torus:4x4:'"), HasSubstr("empty option")));
}

TEST(TopologySpec, RejectsOptionWithoutValue) {
  EXPECT_THAT(error_of("torus:4x4:cores"),
              AllOf(HasSubstr("option 'cores' has no value"), HasSubstr("KEY=VALUE")));
}

TEST(TopologySpec, RejectsUnknownOption) {
  EXPECT_THAT(error_of("mesh:4x4:speed=3"),
              AllOf(HasSubstr("unknown option 'speed'"), HasSubstr("valid options: cores")));
  // nodes= is a Tianhe-3 option only.
  EXPECT_THAT(error_of("torus:4x4:nodes=8"), HasSubstr("unknown option 'nodes'"));
}

TEST(TopologySpec, RejectsZeroCores) {
  EXPECT_THAT(error_of("torus:4x4:cores=0"), AllOf(HasSubstr("cores is 0"), HasSubstr("positive")));
}

TEST(TopologySpec, RejectsBadCoresValue) {
  EXPECT_THAT(error_of("torus:4x4:cores=two"), HasSubstr("cores is 'two'"));
}

TEST(TopologySpec, RejectsRepeatedOption) {
  EXPECT_THAT(error_of("torus:4x4:cores=2:cores=4"), HasSubstr("'cores' is given twice"));
}

TEST(TopologySpec, RejectsHaecWithoutThreeSizes) {
  EXPECT_THAT(error_of("haec:4x4"),
              AllOf(HasSubstr("'haec:4x4'"), HasSubstr("three sizes XxYxZ, got 2")));
}

TEST(TopologySpec, RejectsTianhe3WithoutTwoSizes) {
  EXPECT_THAT(error_of("tianhe3:4x4x4"), HasSubstr("two sizes (chip rows x columns), got 3"));
}

TEST(TopologySpec, RejectsOddNodesPerChip) {
  EXPECT_THAT(error_of("tianhe3:4x4:nodes=95"), AllOf(HasSubstr("nodes=95"), HasSubstr("even")));
}

TEST(TopologySpec, RejectsTooManyNodes) {
  EXPECT_THAT(error_of("torus:4096x4096"), HasSubstr("more than 2097152 nodes"));
  EXPECT_THAT(error_of("mesh:99999999999"),
              HasSubstr("size 1 of 1 is 99999999999, which is too large (limit 2097152)"));
  // Past 64 bits: still a number too large, not "not a positive integer".
  EXPECT_THAT(error_of("mesh:4x99999999999999999999"),
              HasSubstr("size 2 of 2 is 99999999999999999999, which is too large (limit 2097152)"));
}

TEST(TopologySpec, RejectsTooManyDimensions) {
  EXPECT_THAT(error_of("mesh:1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1"), HasSubstr("17 dimensions"));
}

TEST(TopologySpec, RejectsTooManyHaecWirelessLinks) {
  EXPECT_THAT(error_of("haec:128x128x128"), HasSubstr("wireless links"));
}

TEST(TopologySpec, MakeTopologyValidatesProgrammaticSpecs) {
  TopologySpec spec;
  spec.kind = "torus";
  spec.sizes = {4, 0};
  EXPECT_THROW((void)make_topology(spec), InputError);
  spec.sizes = {4, 4};
  spec.kind = "ring";
  EXPECT_THROW((void)make_topology(spec), InputError);
}

}  // namespace
}  // namespace mapsim::topo
