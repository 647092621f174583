#include "mappers/MappingFile.hpp"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

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

/// The message of reading `in` as a mapping on `machine` ("" if it reads).
std::string read_error_of(std::istream& in, const topo::Topology& machine) {
  try {
    (void)read_mapping(in, "<in>", machine);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MappingFile, HostNamesArePaddedToTheLargestNode) {
  const auto small = topo::make_topology("torus:4x4x4");
  EXPECT_EQ(small->host_name(7), "node07");
  EXPECT_EQ(small->host_name(63), "node63");
  const auto big = topo::make_topology("torus:16x16x16");
  EXPECT_EQ(big->host_name(5), "node0005");
  const auto one = topo::make_topology("mesh:1");
  EXPECT_EQ(one->host_name(0), "node0");
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
              HasSubstr(":2: expected 'rank node' or 'rank node core', got 1 field(s)"));
  EXPECT_THAT(read_error("0 one\n", "mesh:4"),
              HasSubstr(":1: rank 0: 'one' is neither a host of mesh:4 (node0 to node3) nor a "
                        "node id (0 to 3)"));
}

TEST(MappingFile, RejectsEmptyAndMissingFile) {
  EXPECT_THAT(read_error("# nothing\n", "mesh:4"), HasSubstr(": the mapping is empty"));
  const auto machine = topo::make_topology("mesh:4");
  EXPECT_THROW((void)read_mapping("/nonexistent/mapping.txt", *machine), InputError);
}

TEST(MappingFile, FormatNames) {
  EXPECT_EQ(mapping_format_from_name("rankfile"), MappingFormat::Rankfile);
  EXPECT_EQ(mapping_format_from_name("slurm"), MappingFormat::Slurm);
  EXPECT_EQ(mapping_format_from_name("mpich"), MappingFormat::Mpich);
  EXPECT_EQ(name(MappingFormat::Hostlist), "hostlist");
  try {
    (void)mapping_format_from_name("rankfle");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("valid: plain, rankfile, hostlist, slurm, mpich"));
    EXPECT_THAT(e.what(), HasSubstr("did you mean 'rankfile'"));
  }
}

// A machine with real host names: a hosts file naming the 8 nodes of mesh:8:cores=2.
class NamedMachine : public ::testing::Test {
 protected:
  void SetUp() override {
    hosts_ = dir_.write("hosts", "# rack a\ncn[101-104]\ncn201\ncn202\ncn203 # last rack\ncn204\n");
    machine_ = topo::make_topology("mesh:8:cores=2:hosts=" + hosts_.string());
  }
  testing::TempDir dir_;
  std::filesystem::path hosts_;
  std::unique_ptr<topo::Topology> machine_;
};

TEST_F(NamedMachine, EveryFormatWritesRealHostNames) {
  // Ranks 0 and 2 share node 4 (cn201); rank 1 on node 0 (cn101), rank 3 on node 7 (cn204).
  const topo::Mapping mapping({4, 0, 4, 7});
  EXPECT_EQ(written(mapping, *machine_, MappingFormat::Rankfile),
            "rank 0=cn201 slot=0\nrank 1=cn101 slot=0\nrank 2=cn201 slot=1\nrank 3=cn204 "
            "slot=0\n");
  EXPECT_EQ(written(mapping, *machine_, MappingFormat::Hostlist), "cn201\ncn101\ncn201\ncn204\n");
  EXPECT_EQ(written(mapping, *machine_, MappingFormat::Slurm), "cn201\ncn101\ncn201\ncn204\n");
  // Plain names hosts on a machine with real names.
  EXPECT_THAT(written(mapping, *machine_, MappingFormat::Plain),
              HasSubstr("# rank host\n0 cn201\n1 cn101\n2 cn201\n3 cn204\n"));
}

TEST_F(NamedMachine, EveryFormatReadsBackTheMapping) {
  // Two ranks on every node the mapping uses, so that the MPICH order can say it too.
  const topo::Mapping mapping({5, 2, 2, 0, 7, 5, 0, 7});
  for (const auto format : {MappingFormat::Plain, MappingFormat::Rankfile, MappingFormat::Hostlist,
                            MappingFormat::Slurm, MappingFormat::Mpich}) {
    SCOPED_TRACE(std::string(name(format)));
    const auto file = dir_.path() / "m";
    write_mapping(file, mapping, *machine_, format);
    EXPECT_EQ(read_mapping(file, *machine_, 8, format), mapping);
    EXPECT_EQ(read_mapping(file, *machine_, 8), mapping) << "detected from the content";
    EXPECT_EQ(read_mapping(file, *machine_), mapping) << "rank count from the file";
  }
}

TEST(MappingFile, MpichRankOrderListsRanksNodeByNode) {
  const auto machine = topo::make_topology("mesh:4:cores=2");
  // Node 0 holds ranks 1 and 3, node 2 ranks 0 and 2, node 3 rank 4: dealt two per node in node
  // order, the order is 1,3 (node 0), 0,2 (node 2), 4 (node 3, the last, may hold fewer).
  const topo::Mapping mapping({2, 0, 2, 0, 3});
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Mpich),
            "# MPICH_RANK_ORDER written by mapsim for 5 ranks on mesh:4:cores=2: set "
            "MPICH_RANK_REORDER_METHOD=3 and launch on these 3 nodes, 2 ranks per node\n"
            "# mapsim: nodes=node[0,2-3] ranks-per-node=2\n"
            "1,3,0,2,4\n");
  // Consecutive ranks are written as ranges: in-order on 4 nodes of two cores.
  const topo::Mapping in_order({0, 0, 1, 1, 2, 2, 3, 3});
  EXPECT_THAT(written(in_order, *machine, MappingFormat::Mpich), HasSubstr("\n0-7\n"));
}

TEST(MappingFile, MpichRankOrderRefusesUnevenNodes) {
  const auto machine = topo::make_topology("mesh:4:cores=2");
  // Node 0 holds one rank, node 1 two: a launcher dealing the same count per node cannot.
  std::ostringstream out;
  EXPECT_THAT(
      [&] {
        try {
          write_mapping(out, topo::Mapping({0, 1, 1}), *machine, MappingFormat::Mpich);
        } catch (const InputError& e) {
          return std::string(e.what());
        }
        return std::string();
      }(),
      HasSubstr("puts 1 on node0 and 2 on another; write it as a rankfile"));
}

TEST(MappingFile, MpichRankOrderWithItsNoteIsReadAsOneWhateverItHolds) {
  // A bad item on one line: read as a rank order (the note says so), the error names the item,
  // not the whole line as an unknown host.
  const auto error = read_error("# mapsim: nodes=node[0-3] ranks-per-node=1\n0,1,x,3\n", "mesh:4");
  EXPECT_THAT(error, AllOf(HasSubstr(":2: "), HasSubstr("'x' is not an integer")));
  EXPECT_THAT(error, Not(HasSubstr("neither a host")));
}

TEST(MappingFile, MpichRankOrderWithoutItsNoteFillsTheMachineInOrder) {
  // Cray's own files carry no note: the ranks fill the nodes in natural order, cores per node.
  const auto machine = topo::make_topology("mesh:4:cores=2");
  std::istringstream in("# grid_order output\n3,2\n1-0\n");
  EXPECT_THAT(read_error_of(in, *machine), HasSubstr("ends below its start"));
  std::istringstream good("3,2,\n0\n1\n");
  EXPECT_EQ(read_mapping(good, "<order>", *machine), topo::Mapping({1, 1, 0, 0}));
}

TEST(MappingFile, DetectsEachFormat) {
  const auto machine = topo::make_topology("mesh:4:cores=2");
  std::istringstream rankfile("rank 1=node2 slot=0\nrank 0=node3 slot=0\n");
  EXPECT_EQ(read_mapping(rankfile, "<r>", *machine), topo::Mapping({3, 2}));
  std::istringstream hostlist("node1\n# comment\n\nnode1\nnode0\n");
  EXPECT_EQ(read_mapping(hostlist, "<h>", *machine), topo::Mapping({1, 1, 0}));
  std::istringstream single("0\n");  // one rank: an MPICH order
  EXPECT_EQ(read_mapping(single, "<m>", *machine), topo::Mapping({0}));
}

TEST(MappingFile, RejectsBadRankfileAndHostListLines) {
  EXPECT_THAT(read_error("rank 0=node1 slot=0\nrank 1 node2\n", "mesh:4"),
              HasSubstr(":2: expected an Open MPI rankfile line 'rank R=HOST slot=S'"));
  EXPECT_THAT(read_error("rank 0=+n1 slot=0\n", "mesh:4"), HasSubstr("relative host '+n1'"));
  EXPECT_THAT(read_error("rank 0=cn7 slot=0\n", "mesh:4"),
              HasSubstr(":1: rank 0: 'cn7' is neither a host of mesh:4"));
  EXPECT_THAT(read_error("node1\nnode1 node2\n", "mesh:4:cores=2"),
              HasSubstr(":2: expected one host name per line"));
  EXPECT_THAT(read_error("node1\nnode2\nnode3\n", "mesh:4", 2),
              HasSubstr(":3: names a host for rank 2, past the last rank 1"));
}

TEST(MappingFile, RejectsNodesOutsideTheAllocation) {
  EXPECT_THAT(read_error("0 1\n1 3\n", "mesh:4:allocation=0-1"),
              HasSubstr(":2: rank 1 is on node 3 (node3), outside the allocation of "
                        "mesh:4:allocation=node[0-1]"));
  // An MPICH order without its note fills the allocated nodes in order.
  const auto machine = topo::make_topology("mesh:6:allocation=1,4-5");
  std::istringstream order("2,0,1\n");
  EXPECT_EQ(read_mapping(order, "<m>", *machine), topo::Mapping({4, 5, 1}));
}

}  // namespace
}  // namespace mapsim::map
