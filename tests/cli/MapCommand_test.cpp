// `mapsim map`: one mapper, all of them, evaluating a mapping file, writing mappings, and every
// bad input.

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/CsvText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_mapsim;

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

// A ring of 4 ranks: each sends 2 messages of 50 bytes to the next.
std::string ring_csv(const testing::TempDir& dir) {
  return dir
      .write("ring.csv", "src,dst,messages,bytes\n0,1,2,100\n1,2,2,100\n2,3,2,100\n3,0,2,100\n")
      .string();
}

TEST(MapCommand, PrintsEveryMetricAndTheMappingTime) {
  const testing::TempDir dir;
  const auto r =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology torus:4 --mapper in-order");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // In order on a ring of 4 nodes every pair is one hop apart: 400 bytes x 1 hop.
  EXPECT_THAT(r.out, HasSubstr("matrix         4 ranks, 8 messages, 400 bytes"));
  EXPECT_THAT(r.out, HasSubstr("mapper         in-order, seed 0"));
  EXPECT_THAT(r.out, ContainsRegex("mapping time   [0-9.]+ ms"));
  EXPECT_THAT(r.out, HasSubstr("hop-bytes      400\n"));
  EXPECT_THAT(r.out, HasSubstr("hop-messages   8 (total IeNPC)"));
  EXPECT_THAT(r.out, HasSubstr("dilation       max 1 hops, average 1.0000 hops per byte"));
  EXPECT_THAT(r.out, HasSubstr("IePLC 8: IaNLC 0 intra-node, IeNLC 8 inter-node; 0 to self"));
  EXPECT_THAT(r.out, HasSubstr("per direction  4 links: messages 8/2/2.00/2"));
  EXPECT_THAT(r.out, HasSubstr("congestion"));
}

// --link-energy: an energy objective weighs it (haec:2x1x2, boards {0, 1} and {2, 3}; ranks 0-1
// and 2-3 exchange 1000 bytes each: by default a pair on one board costs 2 pJ/bit (optical)
// against 20 across (wireless); with the wireless links at 0.5 pJ/bit best:objective=energy
// splits both pairs over the boards: 2000 bytes x 8 x 0.5 pJ = 8e-09 J, where keeping them on a
// board would print 3.2e-08 J). The settings of csv and json and the mapping file's header
// record the energy in effect.
TEST(MapCommand, EnergyObjectiveWeighsTheLinkEnergyGivenAndRecordsIt) {
  const testing::TempDir dir;
  const auto pairs = dir.write("pairs.csv", "src,dst,messages,bytes\n0,1,1,1000\n2,3,1,1000\n");
  const std::string base =
      "map --matrix " + pairs.string() + " --topology haec:2x1x2 --mapper best:objective=energy";
  const auto plain = run_mapsim(base + " --format csv");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(testing::csv_cell(plain.out, 0, "traffic_energy_j"), "3.2e-08");
  EXPECT_EQ(testing::csv_cell(plain.out, 0, "link_energy_overrides"), "");
  EXPECT_EQ(testing::csv_cell(plain.out, 0, "link_haec-wireless_pj_per_bit"), "20");
  const auto cheap = run_mapsim(base + " --link-energy haec-wireless:0.5:0:1 --format csv");
  ASSERT_EQ(cheap.exit_code, 0) << cheap.err;
  EXPECT_EQ(testing::csv_cell(cheap.out, 0, "traffic_energy_j"), "8e-09");
  EXPECT_EQ(testing::csv_cell(cheap.out, 0, "link_energy_overrides"), "haec-wireless:0.5:0:1");
  EXPECT_EQ(testing::csv_cell(cheap.out, 0, "link_haec-wireless_pj_per_bit"), "0.5");
  EXPECT_EQ(testing::csv_cell(cheap.out, 0, "link_haec-wireless_idle_w"), "0");
  EXPECT_EQ(testing::csv_cell(cheap.out, 0, "link_haec-wireless_busy_w"), "1");
  EXPECT_EQ(testing::csv_cell(cheap.out, 0, "link_haec-optical_pj_per_bit"), "2");
  const auto json = run_mapsim(base + " --link-energy haec-wireless:0.5:0:1 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"link_energy_overrides\": \"haec-wireless:0.5:0:1\""));
  EXPECT_THAT(json.out, HasSubstr("\"link_haec-wireless_pj_per_bit\": 0.5"));
  // The mapping file's header says it (only when given), and the file reads back.
  const auto file = dir.path() / "cheap.map";
  ASSERT_EQ(
      run_mapsim(base + " --link-energy haec-wireless:0.5:0:1 --out " + file.string()).exit_code,
      0);
  EXPECT_THAT(testing::read_file(file), HasSubstr("\n# link-energy: haec-wireless:0.5:0:1\n"));
  const auto back = run_mapsim("map --matrix " + pairs.string() +
                               " --topology haec:2x1x2 --link-energy haec-wireless:0.5:0:1 "
                               "--mapping " +
                               file.string() + " --format csv");
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(testing::csv_cell(back.out, 0, "traffic_energy_j"), "8e-09");
  const auto plain_file = dir.path() / "plain.map";
  ASSERT_EQ(run_mapsim(base + " --out " + plain_file.string()).exit_code, 0);
  EXPECT_THAT(testing::read_file(plain_file), Not(HasSubstr("link-energy")));
}

TEST(MapCommand, TakesParametersAndSeed) {
  const testing::TempDir dir;
  const auto r = run_mapsim("map --matrix " + ring_csv(dir) +
                            " --topology mesh:2x2 --mapper minmd --param weight=messages --seed 7");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mapper         minmd (weight=messages), seed 7"));
}

TEST(MapCommand, AllMappersInOneTable) {
  const testing::TempDir dir;
  const auto r = run_mapsim("map --matrix " + ring_csv(dir) +
                            " --topology mesh:2x2 --mapper all --param scotch.runs=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* mapper : {"in-order", "round-robin", "hilbert", "greedy", "rcm", "scotch",
                             "bisection", "minmd", "mxovlp", "step", "coce-mht"}) {
    EXPECT_THAT(r.out, ContainsRegex(std::string("\n") + mapper + " +[0-9.]+ +[0-9]+ ")) << mapper;
  }
  // In order on 2x2: 0-1 and 2-3 one hop, 1-2 and 3-0 diagonal (two hops): 600 hop-bytes.
  EXPECT_THAT(r.out, ContainsRegex("\nin-order +[0-9.]+ +600 +1.000 "));
}

// On an allocation, --mapper all still maps with every other mapper; the rows of the grid
// heuristics say why they have no mapping, and one warning names them all (not one each).
TEST(MapCommand, AllOnAMachineWithoutAGridWarnsOnceForTheMappersItIsNotFor) {
  const testing::TempDir dir;
  const auto r = run_mapsim("map --matrix " + ring_csv(dir) +
                            " --topology 'fattree:2;4,4;1,2;1,2:allocation=0,1,5,6' --mapper all "
                            "--param scotch.runs=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: mxovlp, mxov-al, exco, coce, affine, step are not for "
                               "this machine: the 4 allocated nodes of fattree:2;4,4;1,2;1,2:"
                               "allocation=node[00-01,05-06] have no grid; mappers for any set of "
                               "nodes: in-order,"));
  EXPECT_THAT(r.err, Not(HasSubstr("mapper 'mxovlp'")));
  EXPECT_THAT(r.out, ContainsRegex("\nmxovlp +error: mapper 'mxovlp' lays the process grid"));
  EXPECT_THAT(r.out, ContainsRegex("\ngreedy +[0-9.]+ +[0-9]+ "));
}

TEST(MapCommand, WritesAndEvaluatesMappingFiles) {
  const testing::TempDir dir;
  const auto csv = ring_csv(dir);
  const auto file = (dir.path() / "m.txt").string();
  const auto mapped =
      run_mapsim("map --matrix " + csv + " --topology mesh:2x2 --mapper greedy --out " + file);
  ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_THAT(mapped.out, HasSubstr("wrote          " + file + " (plain format)"));
  const auto evaluated =
      run_mapsim("map --matrix " + csv + " --topology mesh:2x2 --mapping " + file);
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  // The same mapping, the same metrics.
  const auto metrics_of = [](const std::string& out) { return out.substr(out.find("hop-bytes")); };
  const auto a = metrics_of(mapped.out);
  EXPECT_EQ(a.substr(0, a.find("wrote")), metrics_of(evaluated.out));
}

TEST(MapCommand, WritesRankfileAndHostlistToStandardOutput) {
  const testing::TempDir dir;
  const auto rankfile = run_mapsim("map --matrix " + ring_csv(dir) +
                                   " --topology mesh:2:cores=2 --mapper in-order --mapping-format "
                                   "rankfile --out -");
  ASSERT_EQ(rankfile.exit_code, 0) << rankfile.err;
  EXPECT_EQ(rankfile.out,
            "rank 0=node0 slot=0\nrank 1=node0 slot=1\nrank 2=node1 slot=0\nrank 3=node1 slot=1\n");
  EXPECT_THAT(rankfile.err, HasSubstr("hop-bytes"));  // the report goes to standard error
  const auto hostlist = run_mapsim("map --matrix " + ring_csv(dir) +
                                   " --topology mesh:2:cores=2 --mapper in-order --mapping-format "
                                   "hostlist --out -");
  EXPECT_EQ(hostlist.out, "node0\nnode0\nnode1\nnode1\n");
}

// Four ranks on one node of two sockets of two cores: 1000 bytes each way between 0 and 2 and
// between 1 and 3, 10 bytes each way between 0 and 1.
std::string socket_pairs_csv(const testing::TempDir& dir) {
  return dir
      .write("pairs.csv",
             "src,dst,messages,bytes\n0,2,1,1000\n2,0,1,1000\n1,3,1,1000\n3,1,1,1000\n"
             "0,1,1,10\n1,0,1,10\n")
      .string();
}

TEST(MapCommand, SocketsSplitIntraNodeMessagesAndMappingsNameCores) {
  const testing::TempDir dir;
  const auto csv = socket_pairs_csv(dir);
  const std::string machine = " --topology mesh:2:cores=4:sockets=2";
  // In order the ranks take cores 0..3: 0, 1 on socket 0 and 2, 3 on socket 1, so both heavy
  // pairs cross.
  const auto in_order = run_mapsim("map --matrix " + csv + machine + " --mapper in-order");
  ASSERT_EQ(in_order.exit_code, 0) << in_order.err;
  EXPECT_THAT(in_order.out, HasSubstr("(2 nodes x 4 cores on 2 sockets)"));
  EXPECT_THAT(in_order.out,
              HasSubstr("  sockets      IaNLC 2 within a socket, 4 between sockets (4000 bytes)"));
  // greedy places the nodes, then the ranks' sockets are chosen: {0, 2} and {1, 3}; only the
  // light pair crosses. From the rank order, swapping 0 with 3 and swapping 1 with 2 gain the
  // same (3980 bytes); ties go to the lowest rank, so 0 and 3 swap: 1 and 3 on socket 0 (cores 0,
  // 1), 0 and 2 on socket 1 (cores 2, 3).
  const auto file = (dir.path() / "m.map").string();
  const auto greedy =
      run_mapsim("map --matrix " + csv + machine + " --mapper greedy --out " + file);
  ASSERT_EQ(greedy.exit_code, 0) << greedy.err;
  EXPECT_THAT(greedy.out,
              HasSubstr("  sockets      IaNLC 4 within a socket, 2 between sockets (20 bytes)"));
  const auto text = testing::read_file(file);
  EXPECT_THAT(text, HasSubstr("# rank node core\n0 0 2\n1 0 0\n2 0 3\n3 0 1\n"));
  // Read back, the mapping keeps its cores: the same split.
  const auto evaluated = run_mapsim("map --matrix " + csv + machine + " --mapping " + file);
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  EXPECT_THAT(evaluated.out,
              HasSubstr("  sockets      IaNLC 4 within a socket, 2 between sockets (20 bytes)"));
  // A rankfile binds each rank to its core.
  const auto rankfile = run_mapsim("map --matrix " + csv + machine +
                                   " --mapper greedy --mapping-format rankfile --out -");
  ASSERT_EQ(rankfile.exit_code, 0) << rankfile.err;
  EXPECT_EQ(rankfile.out,
            "rank 0=node0 slot=2\nrank 1=node0 slot=0\nrank 2=node0 slot=3\nrank 3=node0 slot=1\n");
  // Tables and CSV carry the split only on machines with sockets.
  const auto csv_out =
      run_mapsim("map --matrix " + csv + machine + " --mapper greedy --format csv");
  EXPECT_THAT(csv_out.out, HasSubstr("inter_socket_messages"));
  const auto plain =
      run_mapsim("map --matrix " + csv + " --topology mesh:2:cores=4 --mapper greedy");
  EXPECT_THAT(plain.out, Not(HasSubstr("sockets")));
}

TEST(MapCommand, BadSocketsAreSpecErrors) {
  const testing::TempDir dir;
  const auto r = run_mapsim("map --matrix " + socket_pairs_csv(dir) +
                            " --topology mesh:2:cores=4:sockets=3 --mapper greedy");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, AllOf(HasSubstr("mesh:2:cores=4:sockets=3"), HasSubstr("sockets=3 does not "
                                                                            "divide cores=4")));
}

TEST(MapCommand, MapsATrace) {
  const auto r = run_mapsim("map --trace " + kTraces +
                            "npb/lu.S.8 --topology mesh:4x2 --mapper in-order --p2p-only");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // LU's 4x2 process grid on a 4x2 mesh in order: every point-to-point message crosses exactly
  // one link.
  EXPECT_THAT(r.out, HasSubstr("matrix         8 ranks, 11298 messages, 6610368 bytes"));
  EXPECT_THAT(r.out, HasSubstr("hop-bytes      6610368\n"));
  // By default the collectives' messages count too (matrix_command_test checks the split).
  const auto all =
      run_mapsim("map --trace " + kTraces + "npb/lu.S.8 --topology mesh:4x2 --mapper in-order");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("matrix         8 ranks, 11680 messages, 6616716 bytes ("));
  EXPECT_THAT(all.out, HasSubstr("; of which collectives 382 messages, 6348 bytes)"));
}

TEST(MapCommand, MapsAGeneratorSpecAsItsTrace) {
  // The generated lu.S.8 sends what the real one does (GeneratedVsReal_test.cpp): the same
  // matrix and hop-bytes as MapsATrace, without an archive.
  const auto r = run_mapsim(
      "map --trace npb:lu:S:8 --topology mesh:4x2 --mapper in-order --format json --p2p-only");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("\"input_kind\": \"generator\""),
                           HasSubstr("\"input\": \"npb:lu:S:8\""), HasSubstr("\"messages\": 11298"),
                           HasSubstr("\"message_bytes\": 6610368"),
                           HasSubstr("\"matrix_counts\": \"point-to-point only\"")));
  const auto all =
      run_mapsim("map --trace npb:lu:S:8 --topology mesh:4x2 --mapper in-order --format json");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_THAT(all.out,
              AllOf(HasSubstr("\"messages\": 11680"), HasSubstr("\"collective_bytes\": 6348"),
                    HasSubstr("\"matrix_counts\": \"point-to-point and collectives\"")));
  const auto text =
      run_mapsim("map --trace npb:lu:S:8 --topology mesh:4x2 --mapper in-order --p2p-only");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("hop-bytes      6610368\n"));
}

TEST(MapCommand, RejectsBadAndTooLargeGeneratorSpecs) {
  const auto bad = run_mapsim("map --trace npb:lu:S:10 --topology mesh:4x2 --mapper in-order");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("generator spec 'npb:lu:S:10'"));
  const auto large = run_mapsim("map --trace npb:lu:S:16 --topology mesh:4x2 --mapper in-order");
  EXPECT_EQ(large.exit_code, 1);
  EXPECT_THAT(large.err, HasSubstr("16 ranks do not fit on mesh:4x2"));
  EXPECT_THAT(large.err, HasSubstr("npb:lu:S:16 has 16 ranks"));
}

TEST(MapCommand, RejectsBothOrNoInputs) {
  const testing::TempDir dir;
  const auto both =
      run_mapsim("map --matrix " + ring_csv(dir) + " --trace x --topology mesh:4 --mapper scan");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("give exactly one of --matrix CSV and --trace T"));
  const auto none = run_mapsim("map --topology mesh:4 --mapper scan");
  EXPECT_EQ(none.exit_code, 2);
}

TEST(MapCommand, RejectsMapperAndMappingTogetherOrNeither) {
  const testing::TempDir dir;
  const auto neither = run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:4");
  EXPECT_EQ(neither.exit_code, 2);
  EXPECT_THAT(neither.err, HasSubstr("give exactly one of --mapper NAME|all and --mapping FILE"));
}

TEST(MapCommand, RejectsUnknownMapperAndParameter) {
  const testing::TempDir dir;
  const auto mapper =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:4 --mapper hilbrt");
  EXPECT_EQ(mapper.exit_code, 1);
  EXPECT_THAT(mapper.err, HasSubstr("unknown mapper 'hilbrt'; valid: in-order"));
  const auto param = run_mapsim("map --matrix " + ring_csv(dir) +
                                " --topology mesh:4 --mapper greedy --param wieght=bytes");
  EXPECT_EQ(param.exit_code, 1);
  EXPECT_THAT(param.err, HasSubstr("mapper 'greedy': unknown parameter 'wieght'; valid: weight"));
  const auto malformed = run_mapsim("map --matrix " + ring_csv(dir) +
                                    " --topology mesh:4 --mapper greedy --param weight");
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_THAT(malformed.err, HasSubstr("--param: 'weight' is not of the form key=value"));
}

TEST(MapCommand, AllNeedsQualifiedParameters) {
  const testing::TempDir dir;
  const auto bare = run_mapsim("map --matrix " + ring_csv(dir) +
                               " --topology mesh:4 --mapper all --param runs=2");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_THAT(bare.err, HasSubstr("with --mapper all, name the mapper: MAPPER.runs=2"));
  // --mapper all --out DIR writes one file per mapper now (MapFormats_test).
  const auto other = run_mapsim("map --matrix " + ring_csv(dir) +
                                " --topology mesh:4 --mapper greedy --param scotch.runs=2");
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.err, HasSubstr("is for mapper 'scotch', not 'greedy'"));
}

TEST(MapCommand, RejectsBadMappingFile) {
  const testing::TempDir dir;
  const auto file = dir.write("bad.txt", "0 0\n1 1\n1 2\n3 3\n");
  const auto r =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:4 --mapping " + file.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("bad.txt:3: rank 1 is mapped twice (first on line 2)"));
  const auto missing = dir.write("short.txt", "0 0\n1 1\n2 2\n");
  const auto m = run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:4 --mapping " +
                            missing.string());
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_THAT(m.err, HasSubstr("rank 3 is missing"));
}

TEST(MapCommand, RejectsTooSmallMachineAndBadFormat) {
  const testing::TempDir dir;
  const auto small =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:3 --mapper scan");
  EXPECT_EQ(small.exit_code, 1);
  EXPECT_THAT(small.err, HasSubstr("4 ranks do not fit on mesh:3"));
  const auto format = run_mapsim("map --matrix " + ring_csv(dir) +
                                 " --topology mesh:4 --mapper scan --mapping-format slurmm");
  EXPECT_EQ(format.exit_code, 1);
  EXPECT_THAT(format.err, HasSubstr("unknown mapping format 'slurmm'"));
  const auto seed =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:4 --mapper random --seed -1");
  EXPECT_EQ(seed.exit_code, 1);
  EXPECT_THAT(seed.err, HasSubstr("--seed"));
}

TEST(MapCommand, RejectsBrokenAndMissingTraces) {
  // Published without its event files.
  const auto broken =
      run_mapsim("map --trace " + kTraces +
                 "public/tauonk_btmz_B_8x4_DEFS_ONLY --topology mesh:64 --mapper scan");
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_THAT(broken.err, HasSubstr("mapsim map: error:"));
  const auto missing = run_mapsim("map --trace /nonexistent/trace --topology mesh:4 --mapper scan");
  EXPECT_EQ(missing.exit_code, 1);
}

// replay-search replays the trace to judge mappings: map builds the replays from --trace and
// logs the search's report (its portfolio, then the improvement) to standard error.
TEST(MapCommand, ReplaySearchReplaysTheTrace) {
  const auto r = run_mapsim(
      "map --trace npb:cg:S:8 --topology torus:4x2 --mapper replay-search --param evaluations=16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mapper         replay-search (batch=16 "));
  EXPECT_THAT(r.out, HasSubstr("hop-bytes      "));
  EXPECT_THAT(r.err, HasSubstr("replay-search: minimising the flow makespan"));
  EXPECT_THAT(r.err, HasSubstr("  portfolio: in-order"));
  EXPECT_THAT(r.err, HasSubstr("  improvement: "));
  // Its own model and portfolio.
  const auto own = run_mapsim(
      "map --trace npb:lu:S:4 --topology torus:2x2 --mapper replay-search --param model=analytic "
      "--param portfolio=in-order,random --param evaluations=8");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_THAT(own.err, HasSubstr("replay-search: minimising the analytic makespan"));
  EXPECT_THAT(own.err, HasSubstr("  portfolio: random"));
  EXPECT_THAT(own.err, Not(HasSubstr("  portfolio: scotch")));
}

// train=N must cut the workload: N at or above the workload's iterations, or a workload without
// iterations, is an error naming train=N and why, raised before the portfolio is mapped (not as
// a failed replay of a candidate).
TEST(MapCommand, ReplaySearchRefusesATrainingSliceTheWorkloadCannotHave) {
  const auto over = run_mapsim(
      "map --trace npb:bt:S:4:iterations=3 --topology torus:2x2 --mapper replay-search --param "
      "train=5");
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_THAT(over.err, HasSubstr("replay-search: train=5 cannot apply: npb:bt:S:4:iterations=3 "
                                  "runs 3 iterations, so its first 5 are no slice of it; give "
                                  "train= below 3"));
  const auto equal = run_mapsim(
      "map --trace npb:bt:S:4:iterations=3 --topology torus:2x2 --mapper replay-search --param "
      "train=3");
  EXPECT_EQ(equal.exit_code, 1);
  EXPECT_THAT(equal.err, HasSubstr("replay-search: train=3 cannot apply"));
  const auto none = run_mapsim(
      "map --trace npb:ep:S:4 --topology torus:2x2 --mapper replay-search --param train=1");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("replay-search: train=1 cannot apply: npb:ep:S:4 has no "
                                  "iterations to cut (ep has no iteration count); train-share="));
  for (const auto& r : {over, equal, none})
    EXPECT_THAT(r.err, Not(HasSubstr("replaying candidate mapping")));
}

TEST(MapCommand, ReplaySearchNeedsATrace) {
  const testing::TempDir dir;
  const auto r = run_mapsim("map --matrix " + ring_csv(dir) +
                            " --topology torus:4 --mapper replay-search --param evaluations=16");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("needs a trace"));
  EXPECT_THAT(r.out, Not(HasSubstr("hop-bytes")));
}

// `--mapper all` runs every mapper that maps from the matrix alone; replay-search runs several
// of them itself and replays, so it is left out, with a matrix and with a trace alike.
TEST(MapCommand, AllLeavesReplaySearchOut) {
  const testing::TempDir dir;
  const auto matrix = run_mapsim("map --matrix " + ring_csv(dir) +
                                 " --topology mesh:2x2 --mapper all --param scotch.runs=1");
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_THAT(matrix.out, ContainsRegex("\nin-order +[0-9.]+ +600 "));
  EXPECT_THAT(matrix.out, Not(HasSubstr("replay-search")));
  EXPECT_THAT(matrix.err, Not(HasSubstr("replay-search")));
  const auto trace =
      run_mapsim("map --trace npb:lu:S:4 --topology mesh:2x2 --mapper all --param scotch.runs=1");
  ASSERT_EQ(trace.exit_code, 0) << trace.err;
  EXPECT_THAT(trace.out, ContainsRegex("\ngreedy +[0-9.]+ +[0-9]+ "));
  EXPECT_THAT(trace.out, Not(HasSubstr("replay-search")));
  EXPECT_THAT(trace.err, Not(HasSubstr("replay-search")));
}

TEST(ListCommand, ListsMappersWithParameters) {
  const auto r = run_mapsim("list mappers");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("\n  scotch +Scotch static mapping"));
  EXPECT_THAT(r.out, HasSubstr("runs (integer, 1 to 64, default 4)"));
  EXPECT_THAT(r.out, ContainsRegex("\n  coce-mht +Bhatele"));
  EXPECT_THAT(run_mapsim("list").out, HasSubstr("Mappers"));
  EXPECT_THAT(r.out, Not(HasSubstr("Link classes")));
}

}  // namespace
}  // namespace mapsim
