// `mapsim map` for scripts: CSV and JSON reports with the effective settings, mapper lists,
// one mapping file per mapper, settings in mapping file headers, every parameter checked before
// any mapping, and cheap checks before the trace is read.

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/CsvText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/LinkClass.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using testing::csv_cell;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using testing::split;

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

// A ring of 4 ranks: each sends 2 messages of 50 bytes to the next.
std::string ring_csv(const testing::TempDir& dir) {
  return dir
      .write("ring.csv", "src,dst,messages,bytes\n0,1,2,100\n1,2,2,100\n2,3,2,100\n3,0,2,100\n")
      .string();
}

TEST(MapFormats, CsvHasSettingsAndMetricsWithUnits) {
  const testing::TempDir dir;
  const auto csv = ring_csv(dir);
  const auto r =
      run_mapsim("map --matrix " + csv +
                 " --topology torus:4 --mapper in-order,minmd --param minmd.weight=messages "
                 "--seed 5 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(split(r.out, '\n').size(), 3U) << r.out;  // header, in-order, minmd: in that order
  EXPECT_EQ(csv_cell(r.out, 0, "mapper"), "in-order");
  EXPECT_EQ(csv_cell(r.out, 1, "mapper"), "minmd");
  EXPECT_EQ(csv_cell(r.out, 1, "params"), "weight=messages");
  // Every setting on every line.
  EXPECT_EQ(csv_cell(r.out, 1, "topology"), "torus:4");
  EXPECT_EQ(csv_cell(r.out, 1, "input"), csv);
  EXPECT_EQ(csv_cell(r.out, 1, "input_kind"), "matrix");
  EXPECT_EQ(csv_cell(r.out, 1, "seed"), "5");
  EXPECT_EQ(csv_cell(r.out, 1, "ranks"), "4");
  EXPECT_NE(csv_cell(r.out, 1, "mapsim_version"), "");
  // In order on a ring of 4 nodes every pair is one hop apart: 400 bytes x 1 hop.
  EXPECT_EQ(csv_cell(r.out, 0, "hop_bytes"), "400");
  EXPECT_EQ(csv_cell(r.out, 0, "hop_bytes_vs_in_order"), "1");
  EXPECT_EQ(csv_cell(r.out, 0, "dilation_max_hops"), "1");
  EXPECT_EQ(csv_cell(r.out, 0, "bytes"), "400");
  EXPECT_EQ(csv_cell(r.out, 0, "error"), "");
  EXPECT_THAT(r.out, HasSubstr("map_seconds"));
  // Every link of the ring carries 100 bytes one way: the busiest link's time is 100 B over a
  // grid link's bandwidth, the smooth sum four times 100 B times that, and the 8 messages cross
  // one grid link each.
  const auto grid = topo::LinkTable{}[topo::LinkClass::Grid];
  EXPECT_NEAR(std::stod(csv_cell(r.out, 0, "busiest_link_s")), 100 / grid.bandwidth, 1e-15);
  EXPECT_NEAR(std::stod(csv_cell(r.out, 0, "link_load_squares")), 4 * 100 * 100 / grid.bandwidth,
              1e-12);
  EXPECT_NEAR(std::stod(csv_cell(r.out, 0, "latency_s")), 8 * grid.latency, 1e-15);
}

TEST(MapFormats, JsonHasSettingsAndOneResultPerMapper) {
  const testing::TempDir dir;
  const auto r = run_mapsim("map --matrix " + ring_csv(dir) +
                            " --topology torus:4 --mapper in-order --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 16), "{\n  \"settings\": ") << r.out;
  EXPECT_THAT(r.out, HasSubstr("\"topology\": \"torus:4\""));
  EXPECT_THAT(r.out, HasSubstr("\"seed\": 0"));
  EXPECT_THAT(r.out, HasSubstr("\"results\": [\n    {\n      \"mapper\": \"in-order\""));
  EXPECT_THAT(r.out, HasSubstr("\"hop_bytes\": 400,"));
  EXPECT_THAT(r.out, HasSubstr("\"params\": \"\""));
  EXPECT_EQ(r.out.substr(r.out.size() - 6), "  ]\n}\n");
}

TEST(MapFormats, UnknownReportFormatAndTheOldMappingFormatOption) {
  const testing::TempDir dir;
  const auto bad = run_mapsim("map --matrix " + ring_csv(dir) +
                              " --topology torus:4 --mapper in-order --format xml");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("--format 'xml': unknown report format; valid: text, csv, json"));
  const auto old = run_mapsim("map --matrix " + ring_csv(dir) +
                              " --topology torus:4 --mapper in-order --format rankfile --out -");
  EXPECT_EQ(old.exit_code, 2);
  EXPECT_THAT(old.err, HasSubstr("--mapping-format rankfile"));
}

TEST(MapFormats, InvalidParameterOfAnyChosenMapperFailsBeforeMapping) {
  const testing::TempDir dir;
  // scotch's runs are 1 to 64: before, this printed a table with the error in scotch's row and
  // exited 0.
  const auto all = run_mapsim("map --matrix " + ring_csv(dir) +
                              " --topology mesh:2x2 --mapper all --param scotch.runs=0");
  EXPECT_EQ(all.exit_code, 1);
  EXPECT_THAT(all.err, HasSubstr("mapper 'scotch': parameter 'runs'"));
  EXPECT_THAT(all.out, Not(HasSubstr("in-order")));
  const auto unknown =
      run_mapsim("map --matrix " + ring_csv(dir) +
                 " --topology mesh:2x2 --mapper greedy,minmd --param minmd.wieght=1");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("mapper 'minmd': unknown parameter 'wieght'"));
  const auto not_chosen = run_mapsim("map --matrix " + ring_csv(dir) +
                                     " --topology mesh:2x2 --mapper greedy,minmd --param "
                                     "scotch.runs=2");
  EXPECT_EQ(not_chosen.exit_code, 1);
  EXPECT_THAT(not_chosen.err, HasSubstr("not among those chosen: greedy, minmd"));
  const auto bare = run_mapsim("map --matrix " + ring_csv(dir) +
                               " --topology mesh:2x2 --mapper greedy,minmd --param weight=bytes");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_THAT(bare.err, HasSubstr("name the mapper: MAPPER.weight=bytes"));
}

TEST(MapFormats, MapperListsAreCheckedWhole) {
  const testing::TempDir dir;
  const auto unknown =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:2x2 --mapper greedy,hilbrt");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("unknown mapper 'hilbrt'"));
  const auto twice =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:2x2 --mapper greedy,greedy");
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.err, HasSubstr("mapper 'greedy' is named twice"));
  const auto empty =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:2x2 --mapper greedy,");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_THAT(empty.err, HasSubstr("an empty mapper name"));
}

TEST(MapFormats, MapperItemsCarryTheirOwnParameters) {
  // LU's 4x2 process grid on the 2x2x2 torus, laid in folded tiles and by plain mxovlp (which
  // falls back to mht): two items of one mapper side by side, --param MAPPER.key for both.
  const testing::TempDir dir;
  const auto lu = kTraces + "npb/lu.S.8";
  const auto out = dir.path() / "maps";
  const auto r = run_mapsim("map --trace " + lu +
                            " --topology torus:2x2x2 --mapper mxovlp:layers=tile-fold,mxovlp"
                            " --param mxovlp.pattern=dominant --format csv --out " +
                            out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(csv_cell(r.out, 0, "mapper"), "mxovlp:layers=tile-fold");
  EXPECT_THAT(csv_cell(r.out, 0, "params"),
              AllOf(HasSubstr("layers=tile-fold"), HasSubstr("pattern=dominant")));
  EXPECT_EQ(csv_cell(r.out, 1, "mapper"), "mxovlp");
  EXPECT_THAT(csv_cell(r.out, 1, "params"),
              AllOf(HasSubstr("layers=best"), HasSubstr("pattern=dominant")));
  EXPECT_TRUE(fs::exists(out / "mxovlp:layers=tile-fold.map"));
  EXPECT_TRUE(fs::exists(out / "mxovlp.map"));
  // The item's row is what the mapper with those parameters alone gives.
  const auto alone = run_mapsim("map --trace " + lu +
                                " --topology torus:2x2x2 --mapper mxovlp --param layers=tile-fold"
                                " --param pattern=dominant --format csv");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(csv_cell(r.out, 0, "hop_bytes"), csv_cell(alone.out, 0, "hop_bytes"));
  EXPECT_NE(csv_cell(r.out, 0, "hop_bytes"), csv_cell(r.out, 1, "hop_bytes"));

  const auto map = [&](const std::string& args) {
    return run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:2x2 " + args);
  };
  const auto twice = map("--mapper greedy:weight=messages --param weight=bytes");
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.err, AllOf(HasSubstr("mapper 'greedy:weight=messages'"), HasSubstr("weight")));
  const auto bad = map("--mapper greedy:weight=nonsense");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err,
              AllOf(HasSubstr("--mapper item 'greedy:weight=nonsense'"), HasSubstr("nonsense")));
  const auto form = map("--mapper greedy:weight");
  EXPECT_EQ(form.exit_code, 1);
  EXPECT_THAT(form.err, HasSubstr("not of the form key=value"));
  const auto same = map("--mapper greedy:weight=bytes,greedy:weight=bytes");
  EXPECT_EQ(same.exit_code, 1);
  EXPECT_THAT(same.err, HasSubstr("mapper 'greedy:weight=bytes' is named twice"));
  // Items of two mappers: a bare --param is still ambiguous.
  const auto bare = map("--mapper greedy:weight=bytes,minmd --param weight=bytes");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_THAT(bare.err, HasSubstr("name the mapper"));
}

TEST(MapFormats, SeveralMappersWriteOneFileEachIntoADirectory) {
  const testing::TempDir dir;
  const auto out = dir.path() / "maps";
  const auto r = run_mapsim("map --matrix " + ring_csv(dir) +
                            " --topology mesh:2x2 --mapper hilbert,greedy --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* mapper : {"hilbert", "greedy"}) {
    const auto file = out / (std::string(mapper) + ".map");
    ASSERT_TRUE(fs::exists(file)) << file;
    const auto text = read_file(file);
    EXPECT_EQ(text.substr(0, 40), "# mapsim mapping: 4 ranks on mesh:2x2\n# ") << text;
    EXPECT_THAT(text, HasSubstr("# mapper: " + std::string(mapper) + "\n"));
    EXPECT_THAT(text, HasSubstr("# seed: 0\n"));
    EXPECT_THAT(text, HasSubstr("# source: matrix "));
    EXPECT_THAT(text, HasSubstr("# mapsim-version: "));
    EXPECT_THAT(r.out, HasSubstr("wrote          " + file.string()));
    // Each file evaluates back to the metrics of its row.
    const auto evaluated = run_mapsim("map --matrix " + ring_csv(dir) +
                                      " --topology mesh:2x2 --mapping " + file.string());
    EXPECT_EQ(evaluated.exit_code, 0) << evaluated.err;
  }
  const auto rankfiles = run_mapsim("map --matrix " + ring_csv(dir) +
                                    " --topology mesh:2x2 --mapper in-order,scotch " +
                                    "--mapping-format rankfile --out " + out.string());
  ASSERT_EQ(rankfiles.exit_code, 0) << rankfiles.err;
  EXPECT_TRUE(fs::exists(out / "scotch.rankfile"));
  const auto to_stdout =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:2x2 --mapper all --out -");
  EXPECT_EQ(to_stdout.exit_code, 2);
  EXPECT_THAT(to_stdout.err, HasSubstr("give a directory"));
}

TEST(MapFormats, MappingMadeForAnotherMachineIsRefused) {
  const testing::TempDir dir;
  const auto file = (dir.path() / "m.map").string();
  const auto made = run_mapsim("map --matrix " + ring_csv(dir) +
                               " --topology torus:4 --mapper in-order --out " + file);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto other =
      run_mapsim("map --matrix " + ring_csv(dir) + " --topology mesh:4 --mapping " + file);
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.err, HasSubstr("m.map:1: the mapping was made for the machine torus:4, not "
                                   "for mesh:4"));
}

TEST(MapFormats, TooSmallMachineIsReportedBeforeTheEventsAreRead) {
  // The archive has definitions (32 ranks) but no event files: reading events would fail. The
  // machine is checked first, from the definitions.
  const auto r = run_mapsim("map --trace " + kTraces +
                            "public/tauonk_btmz_B_8x4_DEFS_ONLY --topology mesh:4 --mapper scan");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("ranks do not fit on mesh:4 (4 nodes x 1 cores)"));
}

TEST(MapFormats, UnwritableOutIsReportedBeforeTheTraceIsRead) {
  const auto r = run_mapsim("map --trace " + kTraces +
                            "public/tauonk_btmz_B_8x4_DEFS_ONLY --topology mesh:64 --mapper scan "
                            "--out /dev/null/m.map");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--out"));
  EXPECT_THAT(r.err, HasSubstr("/dev/null/m.map"));
}

}  // namespace
}  // namespace mapsim
