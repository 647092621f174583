// `mapsim export`: writes the SimGrid time-independent files of a generated trace and reports
// them; a bad format, a missing trace or a non-positive host speed ends in a message and exit 1.
// With --topology also the SimGrid platform and the host file of the placement, and the smpirun
// command line (the platform's content is tested in tests/topologies/SimgridPlatform_test.cpp).

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using ::testing::StartsWith;
using testing::TempDir;

/// Writes cg class S on 4 ranks into DIR/cg and returns that directory.
fs::path generate_cg(const TempDir& dir) {
  const auto trace = dir.path() / "cg";
  const auto r = run_mapsim("generate cg --class S --ranks 4 --out " + trace.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return trace;
}

TEST(ExportCommand, WritesOneFilePerRankAndTheIndex) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                            out.string() + " --flops-per-second 2e9");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith(out.string() + "/index.txt: 4 ranks, "));
  std::string index;
  for (int rank = 0; rank < 4; ++rank) {
    const auto file = out / ("rank-" + std::to_string(rank) + ".txt");
    ASSERT_TRUE(fs::exists(file)) << file;
    const auto text = read_file(file);
    EXPECT_THAT(text, AllOf(StartsWith(std::to_string(rank) + " init\n"), HasSubstr(" compute "),
                            HasSubstr(" isend ")));
    EXPECT_TRUE(text.ends_with(std::to_string(rank) + " finalize\n")) << file;
    index += fs::absolute(file).string() + "\n";
  }
  EXPECT_EQ(read_file(out / "index.txt"), index);
}

TEST(ExportCommand, NoComputeWritesCommunicationOnly) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() +
                            " --format simgrid-ti --no-compute --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(read_file(out / "rank-0.txt"),
              AllOf(Not(HasSubstr(" compute ")), HasSubstr(" wait ")));
}

// The exported schedules are the replay's: Open MPI's algorithms write other messages than
// MPICH's (CG's allreduce of 8 bytes on 4 ranks: ring rather than recursive doubling).
TEST(ExportCommand, CollectivesChooseTheExportedSchedules) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  std::string texts[2];
  int k = 0;
  for (const std::string selector : {"mpich", "ompi"}) {
    const auto out = dir.path() / selector;
    const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                              out.string() + " --collectives " + selector);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    texts[k++] = read_file(out / "rank-0.txt");
  }
  EXPECT_NE(texts[0], texts[1]);
}

// --native-collectives: each collective one `coll` line (CG's broadcast of 4 bytes from rank 0,
// MPI_Init's barrier), the communicators in communicators.txt (world first: "0 4 0 1 2 3"); the
// point-to-point lines stay.
TEST(ExportCommand, NativeCollectivesWriteOneLineEachAndTheCommunicators) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto expanded = dir.path() / "expanded";
  const auto native = dir.path() / "native";
  for (const auto& [out, flag] : {std::pair{expanded, std::string()},
                                  std::pair{native, std::string(" --native-collectives")}}) {
    const auto r = run_mapsim("export " + trace.string() +
                              " --format simgrid-ti --no-compute --out " + out.string() + flag);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto text = read_file(native / "rank-0.txt");
  EXPECT_THAT(text, AllOf(HasSubstr("0 coll bcast 0 0 4 4 4 4\n"),
                          HasSubstr("0 coll barrier 0 -1 0 0 0 0\n"), HasSubstr("0 send 1 0 8\n")));
  EXPECT_THAT(read_file(expanded / "rank-0.txt"), Not(HasSubstr(" coll ")));
  EXPECT_THAT(read_file(native / "communicators.txt"), StartsWith("0 4 0 1 2 3\n"));
  EXPECT_FALSE(fs::exists(expanded / "communicators.txt"));
}

TEST(ExportCommand, UnknownFormatIsNamed) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() + " --format otf2 --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("mapsim export: error:"), HasSubstr("'otf2'"),
                           HasSubstr("simgrid-ti")));
  EXPECT_FALSE(fs::exists(out / "index.txt"));
}

TEST(ExportCommand, MissingTraceIsNamed) {
  const TempDir dir;
  const auto missing = dir.path() / "no-such-trace";
  const auto r = run_mapsim("export " + missing.string() + " --format simgrid-ti --out " +
                            (dir.path() / "ti").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(missing.string()));
  // A generator spec, as simulate takes: export says to write it as an archive first.
  const auto spec =
      run_mapsim("export npb:cg:S:4 --format simgrid-ti --out " + (dir.path() / "ti").string());
  EXPECT_EQ(spec.exit_code, 1);
  EXPECT_THAT(spec.err, HasSubstr("--trace 'npb:cg:S:4' is a generator spec; export reads OTF2 "
                                  "archives: write it as one first (mapsim generate"));
}

TEST(ExportCommand, HostSpeedMustBePositive) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto zero = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                               out.string() + " --flops-per-second 0");
  EXPECT_EQ(zero.exit_code, 1);
  EXPECT_THAT(zero.err, HasSubstr("--flops-per-second"));
  const auto word = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                               out.string() + " --flops-per-second fast");
  EXPECT_EQ(word.exit_code, 1);
  EXPECT_THAT(word.err, HasSubstr("--flops-per-second"));
  EXPECT_FALSE(fs::exists(out / "index.txt"));
}

TEST(ExportCommand, UnwritableOutputIsNamed) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.write("plain", "x") / "ti";
  const auto r =
      run_mapsim("export " + trace.string() + " --format simgrid-ti --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(out.string()));
}

/// The lines of a file.
std::vector<std::string> lines_of(const fs::path& file) {
  std::istringstream in(read_file(file));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ExportCommand, WithoutTopologyWritesNoPlatform) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r =
      run_mapsim("export " + trace.string() + " --format simgrid-ti --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(out / "platform.xml"));
  EXPECT_FALSE(fs::exists(out / "hostfile"));
  EXPECT_THAT(r.out, Not(HasSubstr("smpirun")));
}

TEST(ExportCommand, TopologyWritesPlatformHostfileAndCommandLine) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  // torus:2x2 at one link setting routes as SimGrid's TORUS: the native cluster, hosts node0 ...
  const auto r =
      run_mapsim("export " + trace.string() + " --format simgrid-ti --no-compute --out " +
                 out.string() + " --topology torus:2x2 --link grid:25:100");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto platform = read_file(out / "platform.xml");
  EXPECT_THAT(platform, AllOf(HasSubstr("<platform version=\"4.1\">"),
                              HasSubstr("topology=\"TORUS\" topo_parameters=\"2,2\""),
                              HasSubstr("bw=\"25000000000Bps\" lat=\"1e-07s\"")));
  EXPECT_EQ(lines_of(out / "hostfile"),
            (std::vector<std::string>{"node0", "node1", "node2", "node3"}));
  EXPECT_THAT(r.out, AllOf(HasSubstr("platform.xml: SimGrid TORUS cluster 2,2"),
                           HasSubstr("hostfile: 4 ranks on 4 hosts"),
                           HasSubstr("smpirun -np 4 -platform " + (out / "platform.xml").string() +
                                     " -hostfile " + (out / "hostfile").string()),
                           HasSubstr("--cfg=smpi/async-small-thresh:65537"),
                           HasSubstr("-replay " + (out / "index.txt").string())));
}

TEST(ExportCommand, HostfileFollowsTheMapping) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto map = dir.write("reversed.map", "0 7\n1 5\n2 3\n3 1\n");
  // The default link classes differ (ft-host, ft-1): explicit routes, the machine's host names.
  const auto r =
      run_mapsim("export " + trace.string() + " --format simgrid-ti --out " + out.string() +
                 " --topology 'fattree:2;4,2;1,2;1,1' --mapping " + map.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(out / "hostfile"),
            (std::vector<std::string>{"node7", "node5", "node3", "node1"}));
  // The classes' parameters in a few digits (the fat-tree's uplinks: 150 ns, not
  // 150.00000000000003).
  EXPECT_THAT(r.out,
              AllOf(HasSubstr("explicit routes between 4 hosts"),
                    HasSubstr("note: its link classes differ (ft-host 25 GB/s, 130 ns, ft-1 25 "
                              "GB/s, 150 ns)")));
  EXPECT_THAT(read_file(out / "platform.xml"),
              AllOf(HasSubstr("<zone id=\"fattree:2;4,2;1,2;1,1\" routing=\"Full\">"),
                    HasSubstr("<route src=\"node7\" dst=\"node5\" symmetrical=\"NO\">")));
}

TEST(ExportCommand, HostsFileNamesTheHostfile) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto hosts = dir.write("hosts", "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n");
  const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                            out.string() + " --topology mesh:3x2 --hosts " + hosts.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(out / "hostfile"),
            (std::vector<std::string>{"alpha", "beta", "gamma", "delta"}));
  EXPECT_THAT(read_file(out / "platform.xml"), HasSubstr("<host id=\"zeta\""));
}

TEST(ExportCommand, MapperPlacesTheRanks) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                            out.string() + " --topology torus:3x3 --mapper greedy --seed 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(out / "hostfile");
  ASSERT_EQ(lines.size(), 4u);
  for (const auto& host : lines) EXPECT_THAT(host, ::testing::MatchesRegex("node[0-8]"));
}

// FT class S has collectives only: a mapper given its point-to-point matrix placed the ranks from
// nothing. export's mapper sees the matrix map and simulate give theirs, --p2p-only as there.
TEST(ExportCommand, MapperSeesTheCollectivesAsMapDoes) {
  const TempDir dir;
  const auto ft = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/ft.S.12";
  const std::string machine = " --topology torus:2x2x3 --mapper greedy";
  // Node ids of a host file or host list, whatever the names' zero padding.
  const auto nodes_of = [](const std::vector<std::string>& hosts) {
    std::vector<int> nodes;
    for (const auto& host : hosts) nodes.push_back(std::stoi(host.substr(4)));
    return nodes;
  };
  std::vector<std::vector<int>> exported;
  for (const std::string counts : {"", " --p2p-only"}) {
    const auto out = dir.path() / ("ti" + std::to_string(exported.size()));
    const auto r = run_mapsim("export " + ft + " --format simgrid-ti --out " + out.string() +
                              machine + counts);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    exported.push_back(nodes_of(lines_of(out / "hostfile")));
    const auto map = run_mapsim("map --trace " + ft + machine + counts +
                                " --mapping-format hostlist --out " + (out / "map").string());
    ASSERT_EQ(map.exit_code, 0) << map.err;
    std::vector<std::string> hosts;
    for (const auto& line : lines_of(out / "map")) {
      if (!line.empty() && line[0] != '#') hosts.push_back(line);
    }
    EXPECT_EQ(exported.back(), nodes_of(hosts)) << counts;
    // Without them the matrix is empty, and export says so as map does.
    if (!counts.empty()) {
      EXPECT_THAT(r.err, HasSubstr("the matrix is empty")) << r.err;
    }
  }
  EXPECT_NE(exported[0], exported[1]) << "FT's collectives moved no rank";
}

TEST(ExportCommand, MachineOptionsNeedTopology) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  for (const std::string option :
       {"--mapping m", "--mapper greedy", "--link grid:25:100", "--platform native"}) {
    const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                              out.string() + " " + option);
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_THAT(r.err, HasSubstr("needs --topology")) << option;
  }
  EXPECT_FALSE(fs::exists(out / "index.txt"));
}

TEST(ExportCommand, ImpossiblePlatformWritesNothing) {
  const TempDir dir;
  const auto trace = generate_cg(dir);
  const auto out = dir.path() / "ti";
  const auto r = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                            out.string() + " --topology dragonfly:3,2,1,1 --platform native");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("no native SimGrid cluster"), HasSubstr("dragonfly")));
  EXPECT_FALSE(fs::exists(out / "index.txt"));
  const auto unknown = run_mapsim("export " + trace.string() + " --format simgrid-ti --out " +
                                  out.string() + " --topology torus:2x2 --platform cluster");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, AllOf(HasSubstr("--platform"), HasSubstr("auto, native, explicit")));
}

}  // namespace
}  // namespace mapsim
