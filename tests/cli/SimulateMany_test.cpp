// `mapsim simulate` for scripts: several mappers replayed from one reading of the trace, CSV and
// JSON reports with every effective setting, options the model would ignore, link classes the
// machine lacks, mappings made for another machine, and `mapsim run --mapper`.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/CsvText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using testing::csv_cell;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using testing::split;

const std::string kData = std::string(MAPSIM_TEST_DATA_DIR) + "/";
const std::string kLu = kData + "npb/lu.S.8";

TEST(SimulateMany, OneRowPerMapperInTheOrderGiven) {
  const auto r = run_mapsim("simulate --trace " + kLu +
                            " --topology torus:4x2 --mapper random,in-order,greedy --seed 2 "
                            "--compute-scale 0 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(split(r.out, '\n').size(), 4U) << r.out;
  EXPECT_EQ(csv_cell(r.out, 0, "mapping"), "random");
  EXPECT_EQ(csv_cell(r.out, 1, "mapping"), "in-order");
  EXPECT_EQ(csv_cell(r.out, 2, "mapping"), "greedy");
  for (std::size_t row = 0; row < 3; ++row) {
    EXPECT_EQ(csv_cell(r.out, row, "messages"), "11298");
    EXPECT_EQ(csv_cell(r.out, row, "message_bytes"), "6610368");
    EXPECT_EQ(csv_cell(r.out, row, "error"), "");
    // The effective settings on every row.
    EXPECT_EQ(csv_cell(r.out, row, "model"), "flow");
    EXPECT_EQ(csv_cell(r.out, row, "compute_scale"), "0");
    EXPECT_EQ(csv_cell(r.out, row, "eager_threshold_bytes"), "65536");
    EXPECT_EQ(csv_cell(r.out, row, "packet_size_bytes"), "");  // not the packet model
    EXPECT_EQ(csv_cell(r.out, row, "seed"), "2");
    EXPECT_EQ(csv_cell(r.out, row, "topology"), "torus:4x2");
    EXPECT_NE(csv_cell(r.out, row, "link_grid_bandwidth_bytes_per_s"), "");
    EXPECT_NE(csv_cell(r.out, row, "makespan_ps"), "");
  }
  // The same replay alone gives the same makespan (the parallel replays do not interfere).
  const auto alone = run_mapsim("simulate --trace " + kLu +
                                " --topology torus:4x2 --mapper greedy --seed 2 "
                                "--compute-scale 0 --format csv");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(csv_cell(alone.out, 0, "makespan_ps"), csv_cell(r.out, 2, "makespan_ps"));
}

TEST(SimulateMany, TextTableAndJson) {
  const auto table = run_mapsim("simulate --trace " + kLu +
                                " --topology torus:4x2 --mapper in-order,greedy --compute-scale 0");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("\nin-order "));
  EXPECT_THAT(table.out, HasSubstr("\ngreedy "));
  EXPECT_THAT(table.out, HasSubstr("vs in-order"));
  const auto json = run_mapsim("simulate --trace " + kLu +
                               " --topology torus:4x2 --model packet --packet-size 1024 "
                               "--store-and-forward --link grid:10:50 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"model\": \"packet\""));
  EXPECT_THAT(json.out, HasSubstr("\"packet_size_bytes\": 1024"));
  EXPECT_THAT(json.out, HasSubstr("\"cut_through\": false"));
  EXPECT_THAT(json.out, HasSubstr("\"link_overrides\": \"grid:10:50\""));
  EXPECT_THAT(json.out, HasSubstr("\"link_grid_bandwidth_bytes_per_s\": 10000000000"));
  EXPECT_THAT(json.out, HasSubstr("\"mapping\": \"in-order\""));
  EXPECT_THAT(json.out, HasSubstr("\"messages\": 11298"));
  EXPECT_THAT(json.out, HasSubstr("\"mapsim_version\": "));
}

TEST(SimulateMany, InvalidParameterOfAnyMapperFailsBeforeTheTraceIsRead) {
  const auto r = run_mapsim(
      "simulate --trace /nonexistent --topology torus:4x2 --mapper greedy,scotch "
      "--param scotch.runs=0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("mapper 'scotch': parameter 'runs'"));
}

TEST(SimulateMany, OptionsTheModelIgnoresAreErrors) {
  const auto saf = run_mapsim("simulate --trace " + kLu +
                              " --topology torus:4x2 --model flow --store-and-forward");
  EXPECT_EQ(saf.exit_code, 2);
  EXPECT_THAT(saf.err, HasSubstr("--store-and-forward applies to the packet model only"));
  const auto packet = run_mapsim("simulate --trace " + kLu +
                                 " --topology torus:4x2 --model analytic --packet-size 1024");
  EXPECT_EQ(packet.exit_code, 2);
  EXPECT_THAT(packet.err, HasSubstr("--packet-size applies to the packet model only"));
  const auto link =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --link haec-wireless:25:50");
  EXPECT_EQ(link.exit_code, 1);
  EXPECT_THAT(link.err, HasSubstr("torus:4x2 has no haec-wireless links; its link classes: grid, "
                                  "intra-node"));
}

TEST(SimulateMany, CheapChecksComeBeforeTheEvents) {
  // The archive has definitions but no event files: each error below would otherwise be about
  // the missing events.
  const auto trace = kData + "public/tauonk_btmz_B_8x4_DEFS_ONLY";
  const auto small = run_mapsim("simulate --trace " + trace + " --topology mesh:2");
  EXPECT_EQ(small.exit_code, 1);
  EXPECT_THAT(small.err, HasSubstr("ranks do not fit on mesh:2"));
  const auto model = run_mapsim("simulate --trace /nonexistent --topology mesh:64 --model fluid");
  EXPECT_EQ(model.exit_code, 1);
  EXPECT_THAT(model.err, HasSubstr("unknown network model 'fluid'"));
  const auto links =
      run_mapsim("simulate --trace " + trace + " --topology mesh:64 --links /dev/null/links.csv");
  EXPECT_EQ(links.exit_code, 1);
  EXPECT_THAT(links.err, HasSubstr("--links: cannot write '/dev/null/links.csv'"));
}

TEST(SimulateMany, RefusesAMappingMadeForAnotherMachine) {
  const testing::TempDir dir;
  const auto file = (dir.path() / "lu.map").string();
  const auto made =
      run_mapsim("map --trace " + kLu + " --topology torus:4x2 --mapper greedy --out " + file);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto other =
      run_mapsim("simulate --trace " + kLu + " --topology mesh:4x2 --mapping " + file);
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.err, HasSubstr("made for the machine torus:4x2, not for mesh:4x2"));
  const auto ranks =
      dir.write("four.map", "# mapsim mapping: 4 ranks on torus:4x2\n0 0\n1 1\n2 2\n3 3\n");
  const auto fewer =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapping " + ranks.string());
  EXPECT_EQ(fewer.exit_code, 1);
  EXPECT_THAT(fewer.err, HasSubstr("made for 4 ranks on torus:4x2, but 8 ranks are to be placed"));
  // The mapping made for this machine replays.
  const auto same =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --mapping " + file);
  EXPECT_EQ(same.exit_code, 0) << same.err;
}

TEST(SimulateMany, LinkLoadsOnStandardOutputAndOneColumnPerMapping) {
  const auto one = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --links -");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out.substr(0, 44), "link,from,to,class,bytes,busy_s,utilisation\n");
  EXPECT_THAT(one.err, HasSubstr("makespan"));  // the report goes to standard error
  const testing::TempDir dir;
  const auto file = dir.path() / "links.csv";
  const auto many =
      run_mapsim("simulate --trace " + kLu +
                 " --topology torus:4x2 --mapper in-order,greedy --links " + file.string());
  ASSERT_EQ(many.exit_code, 0) << many.err;
  const auto csv = read_file(file);
  EXPECT_EQ(csv.substr(0, 52), "mapping,link,from,to,class,bytes,busy_s,utilisation\n");
  EXPECT_THAT(csv, HasSubstr("\nin-order,0,"));
  EXPECT_THAT(csv, HasSubstr("\ngreedy,0,"));
}

TEST(RunMapperOption, RestrictsTheDemoSweepsMappers) {
  const testing::TempDir dir;
  const auto db = (dir.path() / "results.db").string();
  const auto listed = run_mapsim("run --dry-run --mapper greedy,scotch --db " + db);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  // 6 workloads x 4 machines x 2 mappers.
  EXPECT_THAT(listed.out, HasSubstr("48 runs: 48 new"));
  EXPECT_THAT(listed.out, Not(HasSubstr("/hilbert/")));
  const auto absent = run_mapsim("run --dry-run --mapper sampling --db " + db);
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_THAT(absent.err, HasSubstr("the sweep has no mapper 'sampling'; its mappers: in-order"));
  // Runs are picked by mapper name: an item with parameters is refused, naming it.
  const auto item = run_mapsim("run --dry-run --mapper greedy:weight=messages --db " + db);
  EXPECT_EQ(item.exit_code, 1);
  EXPECT_THAT(item.err,
              HasSubstr("'greedy:weight=messages': name mappers only here, without parameters"));
}

TEST(RunMapperOption, PicksASweepsEntryByItsLabel) {
  // Two entries of best (one labelled) and scotch with parameters (its label names them, with a
  // comma inside the brackets): a label picks its entry's runs, a name every entry of the mapper.
  const testing::TempDir dir;
  const auto config = dir.path() / "labels.yaml";
  std::ofstream(config) << "workloads: [npb:cg:S:8]\n"
                           "machines: [torus:2x2x2]\n"
                           "mappers:\n"
                           "  - in-order\n"
                           "  - best\n"
                           "  - {name: best, params: {objective: latency}, label: best-latency}\n"
                           "  - {name: scotch, params: {runs: 2, strategy: quality}}\n"
                           "models: [analytic]\n";
  const auto db = (dir.path() / "results.db").string();
  const auto dry = [&](const std::string& mappers) {
    return run_mapsim("run " + config.string() + " --dry-run --db " + db + " --mapper '" + mappers +
                      "'");
  };
  const auto latency = dry("best-latency");
  ASSERT_EQ(latency.exit_code, 0) << latency.err;
  EXPECT_THAT(latency.out, HasSubstr("1 runs: 1 new"));
  EXPECT_THAT(latency.out, HasSubstr("/best-latency/"));
  const auto both = dry("best");
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_THAT(both.out, HasSubstr("2 runs: 2 new"));
  const auto mixed = dry("in-order,scotch[runs=2,strategy=quality]");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_THAT(mixed.out, HasSubstr("2 runs: 2 new"));
  EXPECT_THAT(mixed.out, HasSubstr("/scotch[runs=2,strategy=quality]/"));
  EXPECT_THAT(mixed.out, Not(HasSubstr("/best")));
  // A word that is neither a mapper of the sweep nor a label: the labels are named.
  const auto typo = dry("best-latencyy");
  EXPECT_EQ(typo.exit_code, 1);
  EXPECT_THAT(typo.err, HasSubstr("unknown mapper 'best-latencyy'"));
  EXPECT_THAT(typo.err,
              HasSubstr("the sweep's labels: best-latency, scotch[runs=2,strategy=quality]"));
  const auto absent = dry("greedy");
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_THAT(absent.err,
              HasSubstr("the sweep has no mapper 'greedy'; its mappers: in-order, best, "
                        "scotch; its labels: best-latency"));
  const auto empty = dry("best-latency,,best");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_THAT(empty.err, HasSubstr("'best-latency,,best': an empty mapper name"));
}

}  // namespace
}  // namespace mapsim
