// Allocations (spec option allocation=, resolved by make_topology): the nodes a job may use, given
// as node ids, id ranges, host names and hostlists, inline or in a file, on every kind; the
// canonical spec writes them as a compressed hostlist of host names and reads back the same.

#include <functional>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

using ::testing::HasSubstr;

#define SLURM_DATA MAPSIM_TEST_DATA_DIR "/slurm/"

std::vector<NodeId> allocation_of(const std::string& spec) {
  const auto machine = make_topology(spec);
  return {machine->allocation().begin(), machine->allocation().end()};
}

std::string error_of(const std::string& spec) {
  try {
    (void)make_topology(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

/// The machine's spec reads back as the same machine and allocation.
void expect_round_trip(const Topology& machine) {
  const auto again = make_topology(machine.spec());
  EXPECT_EQ(again->spec(), machine.spec());
  EXPECT_TRUE(std::equal(again->allocation().begin(), again->allocation().end(),
                         machine.allocation().begin(), machine.allocation().end()))
      << machine.spec();
}

// ---- Every kind --------------------------------------------------------------------------------

struct KindCase {
  std::string machine;  // spec without allocation
  std::string allocation;
  std::vector<NodeId> nodes;  // expected, sorted
  std::string canonical;      // the allocation in spec()
};

void PrintTo(const KindCase& c, std::ostream* out) {
  *out << c.machine << ":allocation=" << c.allocation;
}

class EveryKind : public ::testing::TestWithParam<KindCase> {};

TEST_P(EveryKind, AllocationIsResolvedWrittenCanonicallyAndReadBack) {
  const auto& c = GetParam();
  const auto machine = make_topology(c.machine + ":allocation=" + c.allocation);
  EXPECT_EQ(std::vector<NodeId>(machine->allocation().begin(), machine->allocation().end()),
            c.nodes);
  EXPECT_EQ(machine->usable_nodes(), static_cast<NodeId>(c.nodes.size()));
  for (NodeId n = 0; n < machine->node_count(); ++n) {
    EXPECT_EQ(machine->allocated(n), std::binary_search(c.nodes.begin(), c.nodes.end(), n)) << n;
  }
  EXPECT_EQ(machine->spec(), c.machine + ":allocation=" + c.canonical);
  expect_round_trip(*machine);
  // Without allocation= every node is usable.
  const auto whole = make_topology(c.machine);
  EXPECT_TRUE(whole->allocation().empty());
  EXPECT_EQ(whole->usable_nodes(), whole->node_count());
  EXPECT_TRUE(whole->allocated(whole->node_count() - 1));
}

// Default names are "node" + the id padded to the largest id's digits: node00..node63 on 64 nodes.
INSTANTIATE_TEST_SUITE_P(
    Kinds, EveryKind,
    ::testing::Values(
        // Ids and ranges: 0-3 and 9 on a 64-node torus.
        KindCase{"torus:4x4x4", "0-3,9", {0, 1, 2, 3, 9}, "node[00-03,09]"},
        // Host names, in any order.
        KindCase{"mesh:8x8", "node10,node02,node03", {2, 3, 10}, "node[02-03,10]"},
        // A hostlist and an id together.
        KindCase{"haec:4x4x4", "node[60-63],0", {0, 60, 61, 62, 63}, "node[00,60-63]"},
        // 4 chips x 16 nodes: the first chip.
        KindCase{"tianhe3:2x2:nodes=16",
                 "node[00-15]",
                 {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                 "node[00-15]"},
        // The file's host names: nid0002..nid0004 are nodes 1..3, nid0011 node 6.
        KindCase{"slurm:" SLURM_DATA "two-level.conf",
                 "nid[0002-0004],nid0011",
                 {1, 2, 3, 6},
                 "nid[0002-0004,0011]"},
        // Ids on a Slurm machine too, written back as its host names.
        KindCase{"slurm:" SLURM_DATA "two-level.conf", "0,5-6", {0, 5, 6}, "nid[0001,0010-0011]"},
        // fattree:2;4,4;1,2;1,2 has 16 nodes (node00..node15).
        KindCase{"fattree:2;4,4;1,2;1,2", "4-7,node15", {4, 5, 6, 7, 15}, "node[04-07,15]"},
        // dragonfly:9,4,2,2 has 9 x 4 x 2 = 72 nodes.
        KindCase{"dragonfly:9,4,2,2", "node[08-09],70", {8, 9, 70}, "node[08-09,70]"},
        // cascade:2,1;3,1;6,1;4 has 2 x 3 x 6 x 4 = 144 nodes: three digits.
        KindCase{"cascade:2,1;3,1;6,1;4", "node143,0", {0, 143}, "node[000,143]"}),
    [](const auto& param_info) {
      std::string name = param_info.param.machine.substr(0, param_info.param.machine.find(':'));
      return name + std::to_string(param_info.index);
    });

// ---- Files and hosts files ---------------------------------------------------------------------

class AllocationFiles : public ::testing::Test {
 protected:
  testing::TempDir dir_;
};

TEST_F(AllocationFiles, AtFileReadsOneExpressionPerLineWithComments) {
  const auto file = dir_.write("alloc.txt",
                               "# the job's nodes\n"
                               "node[00-03]   # first board\n"
                               "\n"
                               "  16-17\t\r\n"
                               "node40,41\n");
  const auto machine = make_topology("torus:4x4x4:allocation=@" + file.string());
  EXPECT_EQ(std::vector<NodeId>(machine->allocation().begin(), machine->allocation().end()),
            (std::vector<NodeId>{0, 1, 2, 3, 16, 17, 40, 41}));
  // The spec holds the nodes, not the file: it stays true if the file changes.
  EXPECT_EQ(machine->spec(), "torus:4x4x4:allocation=node[00-03,16-17,40-41]");
  expect_round_trip(*machine);
  // The parsed spec keeps what was written.
  EXPECT_EQ(to_string(parse_topology_spec("torus:4x4x4:allocation=@" + file.string())),
            "torus:4x4x4:allocation=@" + file.string());
}

TEST_F(AllocationFiles, HostsFileNamesTheNodesTheAllocationUses) {
  const auto hosts = dir_.write("hosts.txt", "cn[001-008]\n");
  const auto spec = "mesh:2x4:allocation=cn[002-003],7:hosts=" + hosts.string();
  const auto machine = make_topology(spec);
  EXPECT_EQ(std::vector<NodeId>(machine->allocation().begin(), machine->allocation().end()),
            (std::vector<NodeId>{1, 2, 7}));
  // Written as the hosts file's names, before hosts=.
  EXPECT_EQ(machine->spec(), "mesh:2x4:allocation=cn[002-003,008]:hosts=" + hosts.string());
  expect_round_trip(*machine);
  // The default names are gone with a hosts file.
  EXPECT_THAT(error_of("mesh:2x4:allocation=node0:hosts=" + hosts.string()),
              HasSubstr("'node0' is not a host"));
}

TEST_F(AllocationFiles, AHostNamedLikeARangeIsTheHost) {
  // "0-1" is a valid host name (not all digits); when a host has it, it names that host.
  const auto hosts = dir_.write("hosts.txt", "a\nb\n0-1\nc\n");
  EXPECT_EQ(allocation_of("mesh:4:allocation=0-1:hosts=" + hosts.string()), std::vector<NodeId>{2});
  EXPECT_EQ(allocation_of("mesh:4:allocation=0-1"), (std::vector<NodeId>{0, 1}));
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(AllocationErrors, UnknownHost) {
  const auto message = error_of("torus:4x4x4:allocation=node00,node64");
  EXPECT_THAT(message, HasSubstr("topology spec 'torus:4x4x4:allocation=node00,node64'"));
  EXPECT_THAT(message, HasSubstr("'node64' is not a host of torus:4x4x4"));
  EXPECT_THAT(message, HasSubstr("hosts node00 to node63"));
  EXPECT_THAT(error_of("slurm:" SLURM_DATA "two-level.conf:allocation=nid0005"),
              HasSubstr("'nid0005' is not a host"));
}

TEST(AllocationErrors, NodeListedTwice) {
  // Node 5 is node05: given once as an id and once as a name.
  EXPECT_THAT(error_of("torus:4x4x4:allocation=0-5,node05"),
              HasSubstr("node 5 (node05) is listed twice"));
  EXPECT_THAT(error_of("mesh:4:allocation=1,1"), HasSubstr("node 1 (node1) is listed twice"));
}

TEST(AllocationErrors, RangeBackwardsOrOutOfRange) {
  EXPECT_THAT(error_of("mesh:8:allocation=5-3"),
              HasSubstr("the node range '5-3' ends below its start"));
  EXPECT_THAT(error_of("mesh:8:allocation=8"), HasSubstr("node 8 does not exist; mesh:8 has "
                                                         "nodes 0 to 7"));
  EXPECT_THAT(error_of("mesh:8:allocation=6-9"), HasSubstr("node 9 does not exist"));
  EXPECT_THAT(error_of("mesh:8:allocation=node[3-1]"), HasSubstr("ends below its start"));
}

TEST(AllocationErrors, Empty) {
  EXPECT_THAT(error_of("mesh:8:allocation="), HasSubstr("option 'allocation' has an empty value"));
  EXPECT_THAT(error_of("mesh:8:allocation=0,,1"), HasSubstr("'0,,1' has an empty item"));
  EXPECT_THAT(error_of("mesh:8:allocation=0,"), HasSubstr("has an empty item"));
}

TEST_F(AllocationFiles, FileErrors) {
  EXPECT_THAT(error_of("mesh:8:allocation=@" + (dir_.path() / "none.txt").string()),
              HasSubstr("cannot open the file"));
  EXPECT_THAT(error_of("mesh:8:allocation=@" + dir_.path().string()), HasSubstr("is a directory"));
  const auto empty = dir_.write("empty.txt", "# nobody\n\n");
  EXPECT_THAT(error_of("mesh:8:allocation=@" + empty.string()), HasSubstr("names no node"));
  // A bad line names the file and the line.
  const auto bad = dir_.write("bad.txt", "0-2\nnode9\n");
  const auto message = error_of("mesh:8:allocation=@" + bad.string());
  EXPECT_THAT(message, HasSubstr(fmt::format("allocation file {}:2", bad.string())));
  EXPECT_THAT(message, HasSubstr("'node9' is not a host"));
  // Twice across lines.
  const auto twice = dir_.write("twice.txt", "0-2\nnode2\n");
  EXPECT_THAT(error_of("mesh:8:allocation=@" + twice.string()), HasSubstr("listed twice"));
}

}  // namespace
}  // namespace mapsim::topo
