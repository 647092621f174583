#include "mappers/MappingFile.hpp"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using ::testing::HasSubstr;

std::string written(const topo::Mapping& mapping, const topo::Topology& machine,
                    MappingFormat format) {
  std::ostringstream out;
  write_mapping(out, mapping, machine, format);
  return out.str();
}

std::string read_error(const std::string& text, const char* spec, std::optional<Rank> ranks = {}) {
  const testing::TempDir dir;
  const auto file = dir.write("m.txt", text);
  const auto machine = topo::make_topology(spec);
  try {
    (void)read_mapping(file, *machine, ranks);
  } catch (const InputError& e) {
    return std::string(e.what()).substr(file.string().size());  // drop the directory
  }
  return "";
}

TEST(MappingFile, HostNamesArePaddedToTheLargestNode) {
  const auto small = topo::make_topology("torus:4x4x4");
  EXPECT_EQ(host_name(*small, 7), "node07");
  EXPECT_EQ(host_name(*small, 63), "node63");
  const auto big = topo::make_topology("torus:16x16x16");
  EXPECT_EQ(host_name(*big, 5), "node0005");
  const auto one = topo::make_topology("mesh:1");
  EXPECT_EQ(host_name(*one, 0), "node0");
}

TEST(MappingFile, WritesPlainRankfileAndHostlist) {
  const auto machine = topo::make_topology("mesh:4:cores=2");
  const topo::Mapping mapping({3, 0, 3, 1});
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Plain),
            "# mapsim mapping: 4 ranks on mesh:4:cores=2\n# rank node\n0 3\n1 0\n2 3\n3 1\n");
  // Ranks 0 and 2 share node 3: slots 0 and 1 in rank order.
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Rankfile),
            "rank 0=node3 slot=0\nrank 1=node0 slot=0\nrank 2=node3 slot=1\nrank 3=node1 slot=0\n");
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Hostlist), "node3\nnode0\nnode3\nnode1\n");
}

TEST(MappingFile, PlainRoundTrips) {
  const testing::TempDir dir;
  const auto machine = topo::make_topology("tianhe3:2x2:nodes=8:cores=2");
  const topo::Mapping mapping({31, 0, 5, 5, 17, 30, 2});
  write_mapping(dir.path() / "m.txt", mapping, *machine, MappingFormat::Plain);
  EXPECT_EQ(read_mapping(dir.path() / "m.txt", *machine), mapping);
  EXPECT_EQ(read_mapping(dir.path() / "m.txt", *machine, 7), mapping);
}

TEST(MappingFile, ReadsCommentsBlankLinesAndAnyOrder) {
  const testing::TempDir dir;
  const auto file = dir.write("m.txt", "# header\n\n2 1   # trailing\n0\t3\n  1 0\n");
  const auto machine = topo::make_topology("mesh:4");
  EXPECT_EQ(read_mapping(file, *machine), topo::Mapping({3, 0, 1}));
}

TEST(MappingFile, RejectsDuplicateRank) {
  EXPECT_THAT(read_error("0 1\n1 2\n0 3\n", "mesh:4"),
              HasSubstr(":3: rank 0 is mapped twice (first on line 1)"));
}

TEST(MappingFile, RejectsMissingRank) {
  EXPECT_THAT(read_error("0 1\n2 2\n", "mesh:4"),
              HasSubstr(": rank 1 is missing (the mapping must place ranks 0 to 2)"));
  EXPECT_THAT(read_error("0 1\n1 2\n", "mesh:4", 3), HasSubstr(": rank 2 is missing"));
}

TEST(MappingFile, RejectsRankOutOfRange) {
  EXPECT_THAT(read_error("0 1\n3 2\n", "mesh:4", 3),
              HasSubstr(":2: rank: 3 is too large (limit 2)"));
  EXPECT_THAT(read_error("-1 2\n", "mesh:4"), HasSubstr(":1: rank: -1 is out of range"));
  // Without an expected count a rank beyond the machine's cores is an error, not a table of two
  // billion entries to allocate.
  EXPECT_THAT(read_error("2000000000 0\n", "mesh:4:cores=2"),
              HasSubstr(":1: rank: 2000000000 is too large (limit 7)"));
}

TEST(MappingFile, ReadsFromAStreamNamingIt) {
  const auto machine = topo::make_topology("mesh:4");
  std::istringstream in("1 3\n0 2\n");
  EXPECT_EQ(read_mapping(in, "<input>", *machine), topo::Mapping({2, 3}));
  std::istringstream bad("0 x\n");
  EXPECT_THROW((void)read_mapping(bad, "<input>", *machine), InputError);
}

TEST(MappingFile, RejectsNodeOutOfRange) {
  EXPECT_THAT(read_error("0 1\n1 4\n", "mesh:4"),
              HasSubstr(":2: rank 1: node 4 does not exist; mesh:4 has nodes 0 to 3"));
}

TEST(MappingFile, RejectsOverfullNode) {
  EXPECT_THAT(read_error("0 1\n1 1\n", "mesh:4"),
              HasSubstr(":2: node 1 would hold more than 1 rank(s)"));
}

TEST(MappingFile, RejectsMalformedLine) {
  EXPECT_THAT(read_error("0 1\n1\n", "mesh:4"),
              HasSubstr(":2: expected 'rank node', got 1 field(s)"));
  EXPECT_THAT(read_error("0 one\n", "mesh:4"), HasSubstr(":1: node: 'one' is not an integer"));
}

TEST(MappingFile, RejectsEmptyAndMissingFile) {
  EXPECT_THAT(read_error("# nothing\n", "mesh:4"), HasSubstr(": the mapping is empty"));
  const auto machine = topo::make_topology("mesh:4");
  EXPECT_THROW((void)read_mapping("/nonexistent/mapping.txt", *machine), InputError);
}

TEST(MappingFile, FormatNames) {
  EXPECT_EQ(mapping_format_from_name("rankfile"), MappingFormat::Rankfile);
  EXPECT_EQ(name(MappingFormat::Hostlist), "hostlist");
  EXPECT_THROW((void)mapping_format_from_name("slurm"), InputError);
}

}  // namespace
}  // namespace mapsim::map
