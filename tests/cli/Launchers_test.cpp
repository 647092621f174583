// The user's own machine through the binary: host names (--hosts), allocations (--allocation),
// launcher files in every format written by `map` and read back by `map --mapping` and
// `simulate --mapping`, and host names wherever a node is named.

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/CsvText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using testing::csv_cell;
using ::testing::HasSubstr;
using testing::read_file;
using testing::run_mapsim;

// A ring of 4 ranks: each sends 2 messages of 50 bytes to the next.
std::string ring_csv(const testing::TempDir& dir) {
  return dir
      .write("ring.csv", "src,dst,messages,bytes\n0,1,2,100\n1,2,2,100\n2,3,2,100\n3,0,2,100\n")
      .string();
}

// The 16 nodes of torus:4x4 named cn01 .. cn16.
std::string hosts_file(const testing::TempDir& dir) {
  return dir.write("hosts", "cn[01-08] # first row pair\ncn[09-16]\n").string();
}

TEST(Launchers, TopoNamesAndQueriesNodesByHost) {
  const testing::TempDir dir;
  const auto hosts = hosts_file(dir);
  const auto describe = run_mapsim("topo torus:4x4 --hosts " + hosts);
  ASSERT_EQ(describe.exit_code, 0) << describe.err;
  EXPECT_THAT(describe.out, HasSubstr("topology       torus:4x4:hosts=" + hosts));
  EXPECT_THAT(describe.out, HasSubstr("hosts          cn01 .. cn16 (hosts file " + hosts + ")"));
  // cn01 is node 0 = (0,0), cn11 node 10 = (2,2): 2 + 2 hops.
  const auto hops = run_mapsim("topo torus:4x4 --hosts " + hosts + " --hops cn01 cn11");
  ASSERT_EQ(hops.exit_code, 0) << hops.err;
  EXPECT_EQ(hops.out, "4\n");
  const auto unknown = run_mapsim("topo torus:4x4 --hosts " + hosts + " --hops cn01 cn17");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("--hops B: 'cn17' is neither a host of torus:4x4:hosts=" +
                                     hosts + " (cn01 to cn16) nor a node id (0 to 15)"));
}

TEST(Launchers, HostsAndAllocationGivenTwiceAreRefused) {
  const testing::TempDir dir;
  const auto hosts = hosts_file(dir);
  const auto twice = run_mapsim("topo torus:4x4:hosts=" + hosts + " --hosts " + hosts);
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_THAT(twice.err, HasSubstr("--hosts and the option hosts= of SPEC"));
  const auto both = run_mapsim("topo torus:4x4:allocation=0-3 --allocation 4-7");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("--allocation and the option allocation= of SPEC"));
}

TEST(Launchers, BadHostsFileAndAllocationNameTheirSource) {
  const testing::TempDir dir;
  const auto short_file = dir.write("short", "cn[01-15]\n").string();
  const auto few = run_mapsim("topo torus:4x4 --hosts " + short_file);
  EXPECT_EQ(few.exit_code, 1);
  EXPECT_THAT(few.err, HasSubstr("hosts file " + short_file +
                                 ": names 15 hosts; the machine has "
                                 "16 nodes"));
  const auto twice = run_mapsim("topo torus:4x4 --allocation 0-3,node02");
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.err, HasSubstr("allocation: node 2 (node02) is listed twice"));
  const auto missing = run_mapsim("topo torus:4x4 --allocation @" + dir.path().string() + "/none");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("cannot open the file " + dir.path().string() + "/none"));
}

TEST(Launchers, MapKeepsToTheAllocationAndWritesEveryLauncherFormat) {
  const testing::TempDir dir;
  const auto csv = ring_csv(dir);
  const auto hosts = hosts_file(dir);
  const auto alloc = dir.write("alloc", "# the job's nodes\ncn[03-04]\ncn[11-12]\n").string();
  for (const std::string format : {"plain", "rankfile", "hostlist", "slurm", "mpich"}) {
    SCOPED_TRACE(format);
    const auto file = (dir.path() / ("ring." + format)).string();
    const auto r = run_mapsim("map --matrix " + csv + " --topology torus:4x4 --hosts " + hosts +
                              " --allocation @" + alloc + " --mapper in-order --format csv --out " +
                              file + " --mapping-format " + format);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // In order on the allocation: ranks 0..3 on cn03, cn04, cn11, cn12 (nodes 2, 3, 10, 11).
    const auto text = read_file(file);
    if (format == "rankfile") {
      EXPECT_EQ(text,
                "rank 0=cn03 slot=0\nrank 1=cn04 slot=0\nrank 2=cn11 slot=0\nrank 3=cn12 "
                "slot=0\n");
    }
    if (format == "hostlist" || format == "slurm") {
      EXPECT_EQ(text, "cn03\ncn04\ncn11\ncn12\n");
    }
    if (format == "mpich") {
      EXPECT_THAT(text, HasSubstr("# mapsim: nodes=cn[03-04,11-12] ranks-per-node=1\n0-3\n"));
    }
    // Read back, the mapping evaluates to the same hop-bytes.
    const auto back =
        run_mapsim("map --matrix " + csv + " --topology torus:4x4 --hosts " + hosts +
                   " --allocation @" + alloc + " --mapping " + file + " --format csv");
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(csv_cell(back.out, 0, "hop_bytes"), csv_cell(r.out, 0, "hop_bytes"));
  }
}

TEST(Launchers, EveryMapperKeepsToTheAllocationOrRefusesIt) {
  const testing::TempDir dir;
  const auto csv = ring_csv(dir);
  const auto r = run_mapsim("map --matrix " + csv +
                            " --topology torus:4x4 --allocation 1,6,11,12 --mapper all "
                            "--format csv --out " +
                            (dir.path() / "maps").string() + " --mapping-format hostlist");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "maps")) {
    SCOPED_TRACE(entry.path().string());
    const auto text = read_file(entry.path().string());
    for (const auto& host : testing::split(text, '\n')) {
      if (host.empty()) continue;
      EXPECT_TRUE(host == "node01" || host == "node06" || host == "node11" || host == "node12")
          << host;
    }
  }
}

TEST(Launchers, SimulateReadsARankfile) {
  const testing::TempDir dir;
  const auto rankfile =
      dir.write("lu.rankfile",
                "rank 0=node7 slot=0\nrank 1=node6 slot=0\nrank 2=node5 slot=0\nrank 3=node4 "
                "slot=0\nrank 4=node3 slot=0\nrank 5=node2 slot=0\nrank 6=node1 slot=0\nrank "
                "7=node0 slot=0\n");
  const auto plain = dir.write("lu.map", "0 7\n1 6\n2 5\n3 4\n4 3\n5 2\n6 1\n7 0\n");
  const std::string lu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";
  const auto a = run_mapsim("simulate --trace " + lu + " --topology torus:4x2 --mapping " +
                            rankfile.string() + " --format csv");
  const auto b = run_mapsim("simulate --trace " + lu + " --topology torus:4x2 --mapping " +
                            plain.string() + " --format csv");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(csv_cell(a.out, 0, "makespan_ps"), csv_cell(b.out, 0, "makespan_ps"));
}

}  // namespace
}  // namespace mapsim
