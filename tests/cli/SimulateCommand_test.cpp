// `mapsim simulate` and `mapsim list models` end to end.

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <sstream>
#include <string>
#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/CsvText.hpp"
#include "tests/support/JsonText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_mapsim;

const std::string kLu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";

// Ctrl-C during the replay (once the command says, with -v, that it stops on it): exit status
// 130, a line saying so, no result on standard output. With several mappings, one line, not one
// warning per mapping.
TEST(SimulateCommand, ACtrlCStopsTheReplayAndSaysSo) {
  for (const std::string mappers : {"in-order", "in-order,greedy"}) {
    SCOPED_TRACE(mappers);
    const testing::TempDir dir;
    const auto out = dir.path() / "stdout";
    const auto err = dir.path() / "stderr";
    // Long enough (seconds) that the signal comes while it replays.
    const pid_t pid = testing::spawn_mapsim(
        {"-v", "simulate", "--trace", "npb:lu:C:256:iterations=300", "--topology", "torus:8x8x4",
         "--compute-scale", "0", "--mapper", mappers},
        out, err);
    ASSERT_GT(pid, 0);
    bool replaying = false;
    for (int i = 0; i < 120'000 && !replaying; ++i) {
      replaying = testing::read_file(err).find("replaying; Ctrl-C stops") != std::string::npos;
      if (!replaying) ::usleep(1000);
    }
    ::kill(pid, SIGINT);
    EXPECT_EQ(testing::wait_for(pid), 130) << testing::read_file(err);
    ASSERT_TRUE(replaying);
    const auto text = testing::read_file(err);
    EXPECT_THAT(text, HasSubstr("mapsim simulate: interrupted: no result\n"));
    EXPECT_THAT(text, Not(HasSubstr("warning")));
    EXPECT_EQ(testing::read_file(out), "");
  }
}

TEST(SimulateCommand, ListsModels) {
  const auto r = run_mapsim("list models");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* model : {"analytic", "flow", "packet"}) EXPECT_THAT(r.out, HasSubstr(model));
}

TEST(SimulateCommand, ReplaysARealTraceAndWritesLinkLoads) {
  testing::TempDir dir;
  const auto mapping = dir.write("lu.map", "# reversed\n0 7\n1 6\n2 5\n3 4\n4 3\n5 2\n6 1\n7 0\n");
  const auto links = dir.path() / "links.csv";
  const auto r = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapping " +
                            mapping.string() + " --model packet --links " + links.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("model            packet"));
  EXPECT_THAT(r.out, HasSubstr("11298 point-to-point (6610368 bytes), 0 unmatched"));
  const auto csv = testing::read_file(links);
  EXPECT_THAT(csv, HasSubstr("link,from,to,class,bytes,busy_s,utilisation\n"));
  // torus:4x2 has 4 x 2 x 2 = 16 directed links (the 2-long y ring: one each way per node pair).
  EXPECT_GE(std::count(csv.begin(), csv.end(), '\n'), 17);
}

// The network's energy: in the text report and the CSV columns; --link-energy sets a class's
// parameters; with every class at idle 0 W, busy 1 W and no per-bit term the energy is the links'
// busy time, which the --links CSV sums.
TEST(SimulateCommand, ReportsTheNetworksEnergy) {
  testing::TempDir dir;
  const auto base = "simulate --trace " + kLu + " --topology torus:4x2:cores=2 --model flow";
  const auto text = run_mapsim(base);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("energy           "));
  EXPECT_THAT(text.out, HasSubstr(" J: traffic "));
  const auto links = dir.path() / "links.csv";
  const auto unit = run_mapsim(base +
                               " --link-energy grid:0:0:1 --link-energy intra-node:0:0:1 --format "
                               "json --links " +
                               links.string());
  ASSERT_EQ(unit.exit_code, 0) << unit.err;
  const auto energy = testing::json_values(unit.out, "energy_j");
  const auto dynamic = testing::json_values(unit.out, "energy_dynamic_j");
  ASSERT_EQ(energy.size(), 1U);
  EXPECT_EQ(dynamic, std::vector<std::string>{"0"});
  double busy = 0;  // the busy_s column of every resource
  std::istringstream csv(testing::read_file(links));
  std::string line;
  std::getline(csv, line);
  while (std::getline(csv, line)) {
    const auto comma = [&](int n) {
      std::size_t at = 0;
      for (int k = 0; k < n; ++k) at = line.find(',', at) + 1;
      return at;
    };
    busy += std::stod(line.substr(comma(5), comma(6) - comma(5) - 1));
  }
  EXPECT_NEAR(std::stod(energy[0]), busy, busy * 1e-6);
}

// The energy in effect is in the settings of json and csv, as the --link overrides are: the
// --link-energy texts and every class's energy per bit, idle and busy power (the defaults where
// not given), only the classes the machine has.
TEST(SimulateCommand, SettingsRecordTheLinkEnergy) {
  const auto base = "simulate --trace " + kLu + " --topology haec:2x2x2 --compute-scale 0";
  const auto json = run_mapsim(base + " --link-energy haec-wireless:10:0:1 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto value = [&](const std::string& key) {
    const auto values = testing::json_values(json.out, key);
    return values.size() == 1 ? values[0] : fmt::format("<{} values>", values.size());
  };
  EXPECT_EQ(value("link_energy_overrides"), "haec-wireless:10:0:1");
  EXPECT_EQ(value("link_haec-wireless_pj_per_bit"), "10");
  EXPECT_EQ(value("link_haec-wireless_idle_w"), "0");
  EXPECT_EQ(value("link_haec-wireless_busy_w"), "1");
  EXPECT_EQ(value("link_haec-optical_pj_per_bit"), "2");  // the default
  EXPECT_EQ(value("link_intra-node_pj_per_bit"), "20");
  EXPECT_THAT(json.out, Not(HasSubstr("link_grid_pj_per_bit")));
  const auto csv = run_mapsim(base +
                              " --mapper in-order,greedy --link-energy "
                              "haec-optical:3:0.25:0.5 --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  for (std::size_t row : {0U, 1U}) {
    EXPECT_EQ(testing::csv_cell(csv.out, row, "link_energy_overrides"), "haec-optical:3:0.25:0.5");
    EXPECT_EQ(testing::csv_cell(csv.out, row, "link_haec-optical_pj_per_bit"), "3");
    EXPECT_EQ(testing::csv_cell(csv.out, row, "link_haec-optical_idle_w"), "0.25");
    EXPECT_EQ(testing::csv_cell(csv.out, row, "link_haec-optical_busy_w"), "0.5");
    EXPECT_EQ(testing::csv_cell(csv.out, row, "link_haec-wireless_pj_per_bit"), "20");
  }
}

// The model's corrections (size factors, reverse traffic, weight-S) in the text report, one
// replay or a table; none printed without them.
TEST(SimulateCommand, TextReportNamesTheCorrections) {
  const auto base = "simulate --trace " + kLu + " --topology torus:4x2";
  const auto plain = run_mapsim(base);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("corrections")));
  const auto one = run_mapsim(base + " --bw-factor '0:0.5;65536:0.9' --reverse-traffic");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.out, HasSubstr("corrections      bw-factor 0:0.5;65536:0.9; reverse traffic\n"));
  const auto table = run_mapsim(base + " --mapper in-order,greedy --lat-factor 0:2");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("corrections      lat-factor 0:2\n"));
}

// --bound: the placement bound below the report (one replay or a table) and in the settings of
// csv and json; never above a makespan, and equal to a mapping's on the real trace where it
// sits every pair on the cheapest channel (two ranks on neighbours, analytic); refused under
// packet.
TEST(SimulateCommand, BoundsWhatAnyPlacementCanReach) {
  const auto base = "simulate --trace " + kLu + " --topology torus:4x2 --compute-scale 0";
  const auto one = run_mapsim(base + " --bound");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.out, HasSubstr("bound            "));
  EXPECT_THAT(one.out, HasSubstr("this mapping is "));
  const auto table = run_mapsim(base + " --mapper in-order,random --bound");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("(the fastest) is "));
  EXPECT_THAT(table.out, HasSubstr("vs in-order vs bound "));  // each row's ratio to it
  EXPECT_THAT(run_mapsim(base + " --mapper in-order,random").out,
              ::testing::Not(HasSubstr("vs bound")));
  const auto json = run_mapsim(base + " --mapper in-order,random,greedy --bound --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto bound = testing::json_values(json.out, "placement_bound_ps");
  ASSERT_EQ(bound.size(), 1U);
  for (const auto& makespan : testing::json_values(json.out, "makespan_ps"))
    EXPECT_LE(std::stoll(bound[0]), std::stoll(makespan));
  const auto plain = run_mapsim(base + " --format json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(testing::json_values(plain.out, "placement_bound_ps"),
            std::vector<std::string>{"null"});
  // CG on two ranks, on neighbours and replayed without contention (analytic): the bound itself.
  testing::TempDir dir;
  const auto pair = dir.write("pair.map", "0 0\n1 1\n");
  const auto two = run_mapsim(
      "simulate --trace npb:cg:S:2 --topology torus:4 --compute-scale 0 --model analytic "
      "--mapping " +
      pair.string() + " --bound --format json");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(testing::json_values(two.out, "placement_bound_ps"),
            testing::json_values(two.out, "makespan_ps"));
  const auto packet = run_mapsim(base + " --model packet --bound");
  EXPECT_NE(packet.exit_code, 0);
  EXPECT_THAT(packet.err, HasSubstr("analytic and flow models, not 'packet'"));
}

TEST(ListCommand, LinkClassesShowTheirEnergy) {
  const auto r = run_mapsim("list link-classes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("--link-energy CLASS:PJ:IDLE_W:BUSY_W"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("haec-wireless +12.5 GB/s +50 ns +20 pJ/bit +0-2 W"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("inter-socket +12 GB/s +400 ns +30 pJ/bit +0-0 W"));
}

// --critical-messages: the critical path's transfers per pair of ranks, as a CSV matrix that
// `map --matrix` reads; as many messages as the report's transfers on the path; one mapping only.
TEST(SimulateCommand, WritesTheCriticalPathsMessagesAsAMatrix) {
  testing::TempDir dir;
  const auto path = dir.path() / "critical.csv";
  const auto base = "simulate --trace " + kLu + " --topology torus:4x2 --model flow";
  const auto r = run_mapsim(base + " --mapper in-order --critical-messages " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto at = r.out.find(" transfers\n", r.out.find("critical path"));
  ASSERT_NE(at, std::string::npos) << r.out;
  const auto from = r.out.rfind(' ', at - 1) + 1;
  const auto reported = std::stoull(r.out.substr(from, at - from));
  const auto csv = testing::read_file(path);
  ASSERT_THAT(csv, HasSubstr("# ranks=8\nsrc,dst,messages,bytes\n"));
  std::istringstream lines(csv);
  std::string line;
  std::uint64_t messages = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("src", 0) == 0) continue;
    const auto fields = testing::csv_fields(line);
    ASSERT_EQ(fields.size(), 4U) << line;
    messages += std::stoull(fields[2]);
  }
  EXPECT_GT(messages, 0U);
  EXPECT_EQ(messages, reported);
  const auto mapped = run_mapsim("map --matrix " + path.string() +
                                 " --topology torus:4x2 --mapper best --param objective=latency");
  EXPECT_EQ(mapped.exit_code, 0) << mapped.err;
  // Several mappers: refused, saying why, with nothing written.
  const auto other = dir.path() / "other.csv";
  const auto several =
      run_mapsim(base + " --mapper in-order,random --critical-messages " + other.string());
  EXPECT_NE(several.exit_code, 0);
  EXPECT_THAT(several.err, HasSubstr("--critical-messages takes one mapping"));
  EXPECT_FALSE(std::filesystem::exists(other));
}

TEST(SimulateCommand, BadLinkEnergyIsNamed) {
  const auto base = "simulate --trace " + kLu + " --topology torus:4x2";
  const auto fields = run_mapsim(base + " --link-energy grid:5:3");
  EXPECT_NE(fields.exit_code, 0);
  EXPECT_THAT(fields.err, HasSubstr("--link-energy 'grid:5:3': expected "
                                    "CLASS:PJ_PER_BIT:IDLE_W:BUSY_W"));
  const auto below = run_mapsim(base + " --link-energy grid:5:4:3");
  EXPECT_NE(below.exit_code, 0);
  EXPECT_THAT(below.err, HasSubstr("busy power of link class 'grid' is 3 W, below its idle"));
  const auto absent = run_mapsim(base + " --link-energy haec-wireless:5:3:4");
  EXPECT_NE(absent.exit_code, 0);
  EXPECT_THAT(absent.err, HasSubstr("no haec-wireless links"));
  const auto twice = run_mapsim(base + " --link-energy grid:5:3:4 --link-energy grid:1:1:1");
  EXPECT_NE(twice.exit_code, 0);
  EXPECT_THAT(twice.err, HasSubstr("set twice"));
  // An unknown class names the option, as a class the machine lacks does.
  const auto unknown = run_mapsim(base + " --link-energy gird:2:0.5:1");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_THAT(unknown.err, HasSubstr("--link-energy 'gird:2:0.5:1': unknown link class 'gird'"));
  EXPECT_THAT(unknown.err, HasSubstr("did you mean 'grid'?"));
  const auto link = run_mapsim(base + " --link gird:10:100");
  EXPECT_THAT(link.err, HasSubstr("--link 'gird:10:100': unknown link class 'gird'"));
  // A value past a double's range is past the parameter's: its real range, [0, 1e+06].
  const auto huge = run_mapsim(base + " --link-energy grid:1e400:0:1");
  EXPECT_NE(huge.exit_code, 0);
  EXPECT_THAT(huge.err, HasSubstr("--link-energy 'grid:1e400:0:1': energy per bit (pJ): 1e400 is "
                                  "out of range [0, 1e+06]"));
  EXPECT_THAT(huge.err, Not(HasSubstr("1.79769e+308")));
  const auto large = run_mapsim(base + " --link-energy grid:5:0:2e6");
  EXPECT_THAT(large.err, HasSubstr("busy power (W): 2e6 is out of range [0, 1e+06]"));
  // The option's text, a colon, then the field.
  const auto garbage = run_mapsim(base + " --link-energy grid:abc:0:1");
  EXPECT_THAT(garbage.err, HasSubstr("--link-energy 'grid:abc:0:1': energy per bit (pJ): 'abc' "
                                     "is not a finite number"));
}

// FT on 12 ranks: Open MPI's rules replace the pairwise all-to-all by the linear one for its
// large blocks and pick other allreduce algorithms: other collective messages than MPICH's.
TEST(SimulateCommand, CollectivesChooseTheAlgorithms) {
  const std::string ft = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/ft.S.12";
  const auto mpich = run_mapsim("simulate --trace " + ft + " --topology torus:4x4");
  const auto by_default = run_mapsim("simulate --trace " + ft +
                                     " --topology torus:4x4 "
                                     "--collectives mpich");
  const auto ompi = run_mapsim("simulate --trace " + ft +
                               " --topology torus:4x4 "
                               "--collectives ompi");
  const auto forced = run_mapsim("simulate --trace " + ft +
                                 " --topology torus:4x4 "
                                 "--collectives ompi,alltoall=bruck");
  ASSERT_EQ(mpich.exit_code, 0) << mpich.err;
  ASSERT_EQ(ompi.exit_code, 0) << ompi.err;
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  // All but the last line, which says how fast the replay ran.
  const auto simulated = [](const std::string& out) {
    return out.substr(0, out.find("\nevents "));
  };
  EXPECT_EQ(simulated(by_default.out), simulated(mpich.out));
  EXPECT_THAT(mpich.out, HasSubstr("collectives      276 calls, 857 messages"));
  EXPECT_THAT(ompi.out, HasSubstr("collectives      276 calls, 793 messages"));
  EXPECT_NE(simulated(forced.out), simulated(ompi.out));
}

TEST(SimulateCommand, UnknownCollectivesAreNamed) {
  const auto r = run_mapsim("simulate --trace " + kLu +
                            " --topology torus:4x2 --collectives ompi,bcast=bintree");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--collectives: unknown bcast algorithm 'bintree'"));
  EXPECT_THAT(r.err, HasSubstr("'linear', 'chain', 'binary', 'binomial', 'knomial'"));
}

// LU on 8 ranks, two per node: without overheads a node's channel (200 ns) is slower than one
// torus hop (100 ns), so packing neighbours on nodes looks no better; with MPI's per-message
// costs the intra-node channel is the cheaper one and every replay is longer than without them.
TEST(SimulateCommand, OverheadsChargeEveryMessageAndAreReported) {
  const auto run = [](const std::string& extra) {
    auto r = run_mapsim(fmt::format(
        "simulate --trace {} --topology torus:2x2:cores=2 --format json {}", kLu, extra));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  };
  const auto none = run("");
  const auto explicit_none = run("--overheads none");
  const auto typical = run("--overheads typical");
  const auto more = run("--overheads typical,network.o_s=2000,intra-node.o_s=1000");
  const auto makespan = [](const testing::RunResult& r) {
    const auto values = testing::json_values(r.out, "makespan_ps");
    EXPECT_EQ(values.size(), 1U) << r.out;
    return values.empty() ? 0.0 : std::stod(values[0]);
  };
  EXPECT_EQ(testing::json_values(none.out, "overheads"), std::vector<std::string>{"none"});
  EXPECT_EQ(testing::json_values(typical.out, "overheads"), std::vector<std::string>{"typical"});
  EXPECT_EQ(testing::json_values(more.out, "overheads"),
            std::vector<std::string>{"intra-node.o_s=1000,intra-node.o_r=100,intra-node.g=50,"
                                     "network.o_s=2000,network.o_r=400,network.g=100"});
  EXPECT_EQ(makespan(explicit_none), makespan(none));
  EXPECT_GT(makespan(typical), makespan(none));
  EXPECT_GT(makespan(more), makespan(typical));
  // The text report says which overheads it replayed with (and nothing when none).
  const auto text = run_mapsim(
      fmt::format("simulate --trace {} --topology torus:2x2:cores=2 --overheads typical", kLu));
  EXPECT_THAT(text.out, HasSubstr("overheads        typical\n"));
  const auto plain = run_mapsim("simulate --trace " + kLu + " --topology torus:2x2:cores=2");
  EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("overheads")));
}

TEST(SimulateCommand, BadOverheadsAreNamed) {
  for (const auto& [spec, expected] : std::vector<std::pair<std::string, std::string>>{
           {"fast", "'fast' is neither a preset"},
           {"network.o_s=x", "o_s in --overheads ('network.o_s=x')"},
           {"socket.g=1", "unknown channel 'socket'"},
           {"network.latency=1", "unknown cost 'latency'"},
           {"typical,network.g=2e9", "2e9 is out of range [0, 1e+09]"}}) {
    const auto r = run_mapsim(
        fmt::format("simulate --trace {} --topology torus:4x2 --overheads '{}'", kLu, spec));
    EXPECT_EQ(r.exit_code, 1) << spec;
    EXPECT_THAT(r.err, HasSubstr(expected)) << spec;
    EXPECT_THAT(r.err, HasSubstr("--overheads")) << spec;
  }
}

// SimGrid's size factors and reverse traffic: reported as given, longer replays with SMPI's
// calibrated factors (latency x 2-12), errors for the models that do not take them.
TEST(SimulateCommand, SizeFactorsAndReverseTraffic) {
  const std::string bw =
      "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
      "1426:0.608902;732:0.341987;257:0.338112;0:0.812084";
  const std::string lat =
      "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;"
      "1426:1.61075;732:1.9503;257:1.95341;0:2.01467";
  const auto run = [&](const std::string& extra) {
    auto r = run_mapsim(
        fmt::format("simulate --trace {} --topology torus:4x2 --format json {}", kLu, extra));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  };
  const auto makespan = [](const testing::RunResult& r) {
    const auto values = testing::json_values(r.out, "makespan_ps");
    return values.empty() ? 0.0 : std::stod(values[0]);
  };
  const auto plain = run("");
  const auto ones = run("--bw-factor 1 --lat-factor '0:1;100:1'");
  const auto smpi = run(fmt::format("--bw-factor '{}' --lat-factor '{}'", bw, lat));
  const auto reverse =
      run(fmt::format("--bw-factor '{}' --lat-factor '{}' --reverse-traffic", bw, lat));
  EXPECT_EQ(testing::json_values(plain.out, "bw_factor"), std::vector<std::string>{"1"});
  EXPECT_EQ(testing::json_values(plain.out, "reverse_traffic"), std::vector<std::string>{"false"});
  EXPECT_EQ(makespan(ones), makespan(plain));
  EXPECT_GT(makespan(smpi), makespan(plain));
  EXPECT_GE(makespan(reverse), makespan(smpi));
  // Canonical: ascending boundaries.
  EXPECT_EQ(testing::json_values(smpi.out, "lat_factor"),
            std::vector<std::string>{"0:2.01467;257:1.95341;732:1.9503;1426:1.61075;3484:1.88101;"
                                     "5776:2.18796;9376:2.59299;15424:3.48845;65472:11.6436"});
  EXPECT_EQ(testing::json_values(reverse.out, "reverse_traffic"), std::vector<std::string>{"true"});
  for (const auto& [extra, expected] : std::vector<std::pair<std::string, std::string>>{
           {"--model packet --bw-factor 0.9", "--bw-factor applies to the flow and analytic"},
           {"--model analytic --reverse-traffic", "--reverse-traffic applies to the flow model"},
           {"--lat-factor 0:-1", "must be positive"},
           {"--bw-factor '10:1;10:2'", "size 10 is given twice"},
           {"--bw-factor 10", ""}}) {
    const auto r =
        run_mapsim(fmt::format("simulate --trace {} --topology torus:4x2 {}", kLu, extra));
    if (expected.empty()) {
      EXPECT_EQ(r.exit_code, 0) << extra << r.err;  // a single factor for every size is valid
    } else {
      EXPECT_NE(r.exit_code, 0) << extra;
      EXPECT_THAT(r.err, HasSubstr(expected)) << extra;
    }
  }
}

// --calibration: a preset or a file; the other options change its parts; errors name the file.
TEST(SimulateCommand, CalibrationPresetsAndFiles) {
  testing::TempDir dir;
  const auto file = dir.write("m.cal", "# measured\noverheads: typical\nlat-factor: 2\n");
  const auto run = [&](const std::string& extra) {
    auto r = run_mapsim(
        fmt::format("simulate --trace {} --topology torus:4x2 --format json {}", kLu, extra));
    EXPECT_EQ(r.exit_code, 0) << extra << r.err;
    return r;
  };
  const auto value = [](const testing::RunResult& r, const char* key) {
    const auto values = testing::json_values(r.out, key);
    return values.empty() ? std::string("(none)") : values.front();
  };
  const auto smpi = run("--calibration smpi");
  EXPECT_EQ(value(smpi, "weight_s_bytes"), "8775");
  EXPECT_EQ(value(smpi, "reverse_traffic"), "true");
  EXPECT_EQ(value(smpi, "overheads"), "none");
  EXPECT_THAT(value(smpi, "bw_factor"), ::testing::StartsWith("0:0.812084;257:0.338112;"));
  const auto from_file = run("--calibration " + file.string());
  EXPECT_EQ(value(from_file, "overheads"), "typical");
  EXPECT_EQ(value(from_file, "lat_factor"), "2");
  const auto changed = run("--calibration " + file.string() + " --overheads none --lat-factor 3");
  EXPECT_EQ(value(changed, "overheads"), "none");
  EXPECT_EQ(value(changed, "lat_factor"), "3");
  EXPECT_EQ(value(run("--calibration none"), "makespan_ps"), value(run(""), "makespan_ps"));
  // Under packet only the overheads apply, and it says so.
  const auto packet = run_mapsim(fmt::format(
      "simulate --trace {} --topology torus:4x2 --model packet --calibration smpi", kLu));
  EXPECT_EQ(packet.exit_code, 0) << packet.err;
  EXPECT_THAT(packet.err, HasSubstr("only its overheads and envelope apply"));
  const auto bad = dir.write("bad.cal", "lat-factor: 2\nlat-factor: 3\n");
  for (const auto& [extra, expected] : std::vector<std::pair<std::string, std::string>>{
           {"--calibration tuned", "cannot read calibration file 'tuned'"},
           {"--calibration " + bad.string(), bad.string() + ":2: 'lat-factor' is given twice"}}) {
    const auto r =
        run_mapsim(fmt::format("simulate --trace {} --topology torus:4x2 {}", kLu, extra));
    EXPECT_EQ(r.exit_code, 1) << extra;
    EXPECT_THAT(r.err, HasSubstr(expected)) << extra;
  }
}

// --envelope: MPI's envelope on every message, in the text report's corrections and the JSON
// settings (0 without it); more bytes on the wire make lu.S.8 take longer under every model, while
// the messages counted keep their payload; a calibration's envelope is the option's; bad values are
// named.
TEST(SimulateCommand, EnvelopeOption) {
  testing::TempDir dir;
  const auto base = "simulate --trace " + kLu + " --topology torus:2x2x2";
  const auto text = run_mapsim(base + " --envelope 16");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("corrections      envelope 16 B\n"));
  EXPECT_THAT(text.out, HasSubstr("11298 point-to-point (6610368 bytes), 0 unmatched"));
  const auto json = [&](const std::string& extra) {
    auto r = run_mapsim(base + " --format json " + extra);
    EXPECT_EQ(r.exit_code, 0) << extra << r.err;
    return r;
  };
  const auto value = [](const testing::RunResult& r, const char* key) {
    const auto values = testing::json_values(r.out, key);
    EXPECT_EQ(values.size(), 1U) << key << r.out;
    return values.empty() ? std::string("(none)") : values.front();
  };
  const auto makespan = [&](const testing::RunResult& r) {
    return std::stod(value(r, "makespan_ps"));
  };
  for (const std::string model : {"flow", "analytic", "packet"}) {
    SCOPED_TRACE(model);
    const auto plain = json("--model " + model);
    const auto sixteen = json("--model " + model + " --envelope 16");
    EXPECT_EQ(value(plain, "envelope_bytes"), "0");
    EXPECT_EQ(value(sixteen, "envelope_bytes"), "16");
    EXPECT_GT(makespan(sixteen), makespan(plain));
    EXPECT_EQ(value(json("--model " + model + " --envelope 0"), "makespan_ps"),
              value(plain, "makespan_ps"));
  }
  // A calibration file's envelope is the option's; the option overrides smpi's 16 B.
  const auto file = dir.write("e.cal", "envelope: 16\n");
  const auto option = json("--envelope 16");
  const auto from_file = json("--calibration " + file.string());
  EXPECT_EQ(value(from_file, "envelope_bytes"), "16");
  EXPECT_EQ(value(from_file, "makespan_ps"), value(option, "makespan_ps"));
  EXPECT_EQ(value(json("--calibration smpi"), "envelope_bytes"), "16");
  EXPECT_EQ(value(json("--calibration smpi --envelope 0"), "envelope_bytes"), "0");
  for (const auto& [extra, expected] : std::vector<std::pair<std::string, std::string>>{
           {"--envelope -3", "--envelope -3: bytes from 0 to 1048576"},
           {"--envelope 2000000", "--envelope 2000000: bytes from 0 to 1048576"},
           {"--envelope x", "'--envelope' is invalid"}}) {
    const auto r = run_mapsim(base + " " + extra);
    EXPECT_NE(r.exit_code, 0) << extra;
    EXPECT_THAT(r.err, HasSubstr(expected)) << extra;
    EXPECT_TRUE(r.out.empty()) << extra << r.out;
  }
  const auto bad = dir.write("bad.cal", "envelope: 2000000\n");
  const auto r = run_mapsim(base + " --calibration " + bad.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(bad.string() + ":1 (envelope): 2000000 is too large"));
}

TEST(SimulateCommand, UnknownModelFails) {
  const auto r = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --model fluid");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("unknown network model 'fluid'"));
}

TEST(SimulateCommand, MappingFileErrorsNameTheLine) {
  testing::TempDir dir;
  const auto mapping = dir.write("bad.map", "0 0\n1 x\n");
  const auto r =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapping " + mapping.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("bad.map:2: rank 1: 'x' is neither a host of torus:4x2"));
}

TEST(SimulateCommand, MissingRankInMappingFile) {
  testing::TempDir dir;
  const auto mapping = dir.write("short.map", "0 0\n1 1\n");
  const auto r =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapping " + mapping.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              HasSubstr("short.map: rank 2 is missing (the mapping must place ranks 0 to 7)"));
}

TEST(SimulateCommand, BadLinkOverride) {
  const auto r = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --link grid:0:100");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--link 'grid:0:100'"));
}

TEST(SimulateCommand, BadComputeScale) {
  const auto r = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --compute-scale -2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("compute scale"));
}

TEST(SimulateCommand, MapsWithAMapperFromTheTrace) {
  // lu.S.8 is a 4x2 grid of ranks; greedy places it on a 4x2 torus. The report names the mapper.
  const auto r =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapper greedy --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mapping          greedy (seed 3)"));
  EXPECT_THAT(r.out, HasSubstr("11298 point-to-point (6610368 bytes), 0 unmatched"));
}

TEST(SimulateCommand, MapperItemsNameTheirMappingsAndKeepTheMapperApart) {
  // Two items of mxovlp side by side; each row's mapping is the item, its mapper mxovlp, and
  // the tiles' replay is that of the mapping `map` writes for mxovlp with those parameters.
  const testing::TempDir dir;
  const std::string tiles = "mxovlp:layers=tile-fold:pattern=dominant";
  const auto r = run_mapsim("simulate --trace " + kLu +
                            " --topology torus:2x2x2 --compute-scale 0 --mapper in-order," + tiles +
                            ",mxovlp --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::csv_cell(r.out, 1, "mapping"), tiles);
  EXPECT_EQ(testing::csv_cell(r.out, 1, "mapper"), "mxovlp");
  EXPECT_THAT(testing::csv_cell(r.out, 1, "params"), HasSubstr("layers=tile-fold"));
  EXPECT_EQ(testing::csv_cell(r.out, 2, "mapping"), "mxovlp");
  const auto file = dir.path() / "tiles.map";
  const auto map = run_mapsim("map --trace " + kLu +
                              " --topology torus:2x2x2 --mapper mxovlp --param layers=tile-fold"
                              " --param pattern=dominant --out " +
                              file.string());
  ASSERT_EQ(map.exit_code, 0) << map.err;
  const auto alone = run_mapsim(
      "simulate --trace " + kLu +
      " --topology torus:2x2x2 --compute-scale 0 --format csv --mapping " + file.string());
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(testing::csv_cell(r.out, 1, "makespan_ps"),
            testing::csv_cell(alone.out, 0, "makespan_ps"));
  EXPECT_NE(testing::csv_cell(r.out, 1, "makespan_ps"), testing::csv_cell(r.out, 2, "makespan_ps"));
  // The text table fits the longest name.
  const auto text =
      run_mapsim("simulate --trace " + kLu +
                 " --topology torus:2x2x2 --compute-scale 0 --mapper in-order," + tiles);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("\nin-order" + std::string(tiles.size() - 8, ' ') + " "));
  EXPECT_THAT(text.out, HasSubstr("\n" + tiles + " "));
}

// replay-search maps by replaying the trace (with this command's replay settings, under its own
// model), then the chosen mapping is replayed as any other.
TEST(SimulateCommand, MapsWithReplaySearch) {
  const auto r = run_mapsim("simulate --trace " + kLu +
                            " --topology torus:4x2 --mapper replay-search --param evaluations=16 "
                            "--seed 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mapping          replay-search (seed 2)"));
  EXPECT_THAT(r.out, HasSubstr("11298 point-to-point (6610368 bytes), 0 unmatched"));
  EXPECT_THAT(r.err, HasSubstr("replay-search: minimising the flow makespan"));
  EXPECT_THAT(r.err, HasSubstr("  improvement: "));
  // Beside other mappers.
  const auto many = run_mapsim(
      "simulate --trace npb:lu:S:4 --topology torus:2x2 --mapper "
      "in-order,replay-search --param replay-search.evaluations=8");
  ASSERT_EQ(many.exit_code, 0) << many.err;
  EXPECT_THAT(many.out, HasSubstr("replay-search"));
  EXPECT_THAT(many.err, HasSubstr("replay-search: minimising"));
}

// replay-search without model= and compute-scale= searches under the table's --model and
// --compute-scale (here analytic, communication only), says so on its first report line and in
// its params, so that its row is no slower than its portfolio's members the table also shows;
// given ones are its own.
TEST(SimulateCommand, ReplaySearchSearchesUnderTheCommandsModelUnlessGivenOne) {
  const std::string base =
      "simulate --trace npb:cg:S:16:iterations=1 --topology torus:2x2x2:cores=2 --model analytic "
      "--compute-scale 0 --format csv --mapper ";
  const auto r = run_mapsim(base +
                            "in-order,best,best:objective=energy,replay-search --param "
                            "replay-search.evaluations=20");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("replay-search: minimising the analytic makespan of communication "
                               "only (model=analytic from --model, compute-scale=0 from "
                               "--compute-scale, not given as parameters)"));
  EXPECT_THAT(testing::csv_cell(r.out, 3, "params"), HasSubstr("model=analytic"));
  const auto search = std::stoll(testing::csv_cell(r.out, 3, "makespan_ps"));
  for (std::size_t row = 0; row < 3; ++row)
    EXPECT_LE(search, std::stoll(testing::csv_cell(r.out, row, "makespan_ps"))) << row;
  // Given: its own, and no note.
  const auto own = run_mapsim(base + "replay-search --param model=flow --param evaluations=8");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_THAT(own.err, HasSubstr("replay-search: minimising the flow makespan of communication "
                                 "only (compute-scale=0 from --compute-scale, not given as "
                                 "parameters)\n"));
}

// On an OTF2 trace, replay-search searches on a share of its events (train-share=), the choice
// then judged on the whole trace; train= (iterations) is refused there, naming train-share=, and
// so is giving both.
TEST(SimulateCommand, ReplaySearchTrainsOnAShareOfATrace) {
  const auto r = run_mapsim("simulate --trace " + kLu +
                            " --topology torus:4x2 --mapper replay-search --param evaluations=8 "
                            "--param train-share=0.3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("11298 point-to-point (6610368 bytes), 0 unmatched"));
  EXPECT_THAT(r.err, HasSubstr("whole workload: the choice on 30 % of each rank's events"));
  const auto iterations = run_mapsim("simulate --trace " + kLu +
                                     " --topology torus:4x2 --mapper replay-search --param "
                                     "evaluations=8 --param train=2");
  EXPECT_EQ(iterations.exit_code, 1);
  // Refused before the portfolio is mapped, saying why (not as a candidate's failed replay).
  EXPECT_THAT(
      iterations.err,
      HasSubstr(
          "replay-search: train=2 cannot apply: " + kLu +
          "/traces.otf2 is an OTF2 trace, whose iterations are not marked; cut it by a share of "
          "each rank's events with train-share="));
  EXPECT_THAT(iterations.err, Not(HasSubstr("replaying candidate mapping")));
  const auto both = run_mapsim("simulate --trace " + kLu +
                               " --topology torus:4x2 --mapper replay-search --param train=2 "
                               "--param train-share=0.5");
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_THAT(both.err, HasSubstr("give one"));
}

TEST(SimulateCommand, RejectsUnknownMapperBeforeReadingTheTrace) {
  const auto r = run_mapsim("simulate --trace /nonexistent --topology torus:4x2 --mapper nosuch");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("'nosuch'"));
  const auto bad_param =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapper greedy --param x=1");
  EXPECT_EQ(bad_param.exit_code, 1);
  EXPECT_THAT(bad_param.err, HasSubstr("'x'"));
  const auto orphan = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --param x=1");
  EXPECT_EQ(orphan.exit_code, 2);
  EXPECT_THAT(orphan.err, HasSubstr("--param needs --mapper"));
}

TEST(SimulateCommand, TimeLimitStopsAReplay) {
  // simulate had no time limit, unlike `run --time-limit`: a replay of a large workload could
  // only be killed. A limit of a nanosecond stops any replay at its first check.
  const auto one =
      run_mapsim("simulate --trace npb:lu:S:16 --topology torus:4x4 --time-limit 1e-9");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_THAT(one.err, HasSubstr("time limit of 1e-09 s reached"));
  const auto two = run_mapsim(
      "simulate --trace npb:lu:S:16 --topology torus:4x4 --mapper in-order,greedy --time-limit "
      "1e-9");
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_THAT(two.out, HasSubstr("greedy       error: time limit of 1e-09 s reached"));
  // No replay finished: no critical path section without a line in it.
  EXPECT_THAT(two.out, Not(HasSubstr("critical path")));
  const auto ample =
      run_mapsim("simulate --trace npb:lu:S:16 --topology torus:4x4 --time-limit 600");
  EXPECT_EQ(ample.exit_code, 0) << ample.err;
  EXPECT_EQ(
      run_mapsim("simulate --trace npb:lu:S:16 --topology torus:4x4 --time-limit -1").exit_code, 1);
}

/// The line of `text` that starts with `prefix` ("" if none).
std::string line_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

// The critical path (sim/Result.hpp, CriticalPath): a CSV or JSON record's critical_*_ps fields
// add up to its makespan_ps exactly; the text report's "critical path" line gives their shares,
// the overheads' only when the replay charges them (--overheads).
TEST(SimulateCommand, ReportsTheCriticalPath) {
  const auto base = "simulate --trace " + kLu + " --topology torus:4x2";
  const std::vector<std::string> parts{"critical_compute_ps",    "critical_overhead_ps",
                                       "critical_latency_ps",    "critical_bandwidth_ps",
                                       "critical_contention_ps", "critical_waiting_ps"};
  for (const std::string overheads : {"", " --overheads typical"}) {
    SCOPED_TRACE(overheads.empty() ? "no overheads" : "typical overheads");
    const auto csv = run_mapsim(base + overheads + " --format csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    long long sum = 0;
    for (const auto& part : parts) {
      const auto cell = testing::csv_cell(csv.out, 0, part);
      ASSERT_FALSE(cell.empty()) << part;
      ASSERT_NE(cell.rfind("<no", 0), 0U) << part << ": " << cell;
      EXPECT_GE(std::stoll(cell), 0) << part;
      sum += std::stoll(cell);
    }
    EXPECT_EQ(sum, std::stoll(testing::csv_cell(csv.out, 0, "makespan_ps")));
    EXPECT_GT(std::stoll(testing::csv_cell(csv.out, 0, "critical_transfers")), 0);
    EXPECT_EQ(std::stoll(testing::csv_cell(csv.out, 0, "critical_overhead_ps")) > 0,
              !overheads.empty());

    const auto json = run_mapsim(base + overheads + " --format json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    long long json_sum = 0;
    for (const auto& part : parts) {
      const auto values = testing::json_values(json.out, part);
      ASSERT_EQ(values.size(), 1U) << part;
      json_sum += std::stoll(values[0]);
    }
    EXPECT_EQ(json_sum, sum);

    const auto text = run_mapsim(base + overheads);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    const auto line = line_starting(text.out, "critical path ");
    EXPECT_THAT(line, ::testing::StartsWith("critical path    compute "));
    EXPECT_THAT(line, HasSubstr("latency "));
    EXPECT_THAT(line, HasSubstr("contention "));
    EXPECT_THAT(line, HasSubstr(" transfers"));
    if (overheads.empty()) {
      EXPECT_THAT(line, ::testing::Not(HasSubstr("overheads")));
    } else {
      EXPECT_THAT(line, HasSubstr(", overheads "));
    }
  }
  // A table of mappings: one line of shares per mapping.
  const auto table = run_mapsim(base + " --mapper in-order,greedy");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("\ncritical path (shares of each makespan"));
  EXPECT_THAT(table.out, HasSubstr("\ngreedy       compute "));
  EXPECT_THAT(table.out, HasSubstr("\nin-order     compute "));
}

TEST(SimulateCommand, MissingTraceIsACommandLineError) {
  const auto r = run_mapsim("simulate --topology torus:4x2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--trace"));
}

}  // namespace
}  // namespace mapsim
