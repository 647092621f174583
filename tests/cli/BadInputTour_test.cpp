// A tour of the bad inputs a user can give, run through the binary: every one must end with a
// clear error (exit 1 for bad input, 2 for a bad command line) whose message names the value
// and where it came from, never a crash or a silent success, and must leave the directory it
// ran in exactly as it was (no partial or temporary file, an existing output untouched).

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/RunMapsim.hpp"
#include "../support/TempDir.hpp"

namespace mapsim::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kData = MAPSIM_TEST_DATA_DIR;
const std::string kLu = kData + "/npb/lu.S.8";
const std::string kHeader = "src,dst,messages,bytes\n";

struct Case {
  std::string name;                // the test's name
  std::string args;                // shell syntax, run in the tour's directory
  std::vector<std::string> named;  // what the message must name (the value, its source)
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << "mapsim " << c.args;
}

// The directory every case runs in: small valid and invalid inputs, and one output file that
// an interrupted or failing command must not touch.
void populate(const TempDir& dir) {
  dir.write("ok.csv", "# ranks=2\n" + kHeader + "0,1,1,100\n1,0,1,100\n");
  dir.write("negative.csv", "# ranks=2\n" + kHeader + "0,1,1,-5\n");
  dir.write("word.csv", "# ranks=2\n" + kHeader + "0,1,1,abc\n");
  dir.write("outside.csv", "# ranks=2\n" + kHeader + "0,5,1,100\n");
  dir.write("huge.csv", "# ranks=2\n" + kHeader + "0,1,1,99999999999999999999999\n");
  dir.write("wrapping.csv", "# ranks=2\n" + kHeader + "0,1,1,9223372036854775000\n" +
                                "1,0,1,9223372036854775000\n");
  dir.write("many-ranks.csv", "# ranks=16777216\n" + kHeader + "0,1,1,5\n");
  dir.write("no-header.csv", "0,1,1,100\n");
  dir.write("ranks-twice.csv", "# ranks=2\n# ranks=4\n" + kHeader + "0,1,1,100\n");
  dir.write("twice.map", "0 0\n0 1\n");
  dir.write("garbage.map", "garbage\n");
  dir.write("gap.map", "0 0\n1 7\n");
  dir.write("node-outside.map", "0 0\n1 1\n2 2\n3 3\n4 4\n5 5\n6 6\n7 99\n");
  dir.write("unknown-key.yaml",
            "workloads: [npb:lu:S:4]\nmachines: [torus:2x2]\nmappers: [in-order]\nbogus: 1\n");
  dir.write("broken.yaml", "workloads: [npb:lu:S:4\n");
  dir.write("bad-spec.yaml",
            "workloads: [npb:lu:S:4]\nmachines: [torus:2y2]\n"
            "mappers: [in-order]\n");
  dir.write("existing.csv", "an earlier result that must survive\n");
  fs::create_directories(dir.path() / "empty-dir");
  // Damaged copies of a real archive.
  const auto copy = [&](const std::string& name) {
    const auto to = dir.path() / name;
    fs::copy(kLu, to, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(to))
      fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    return to;
  };
  fs::resize_file(copy("lu-truncated") / "traces" / "3.evt", 1000);
  fs::resize_file(copy("lu-empty-def") / "traces.def", 0);
  fs::resize_file(copy("lu-half-def") / "traces.def",
                  fs::file_size(fs::path(kLu) / "traces.def") / 2);
  fs::remove(copy("lu-missing-evt") / "traces" / "5.evt");
  fs::copy_file(kData + "/npb/lu.S.12/traces/0.evt", copy("lu-foreign-evt") / "traces" / "0.evt",
                fs::copy_options::overwrite_existing);
}

// Every file under `dir` with its size and content.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const auto name = fs::relative(entry.path(), dir).string();
    files[name] = entry.is_regular_file() ? read_file(entry.path()) : std::string("<dir>");
  }
  return files;
}

const std::string kMapCsv = "map --matrix ok.csv --topology torus:2 ";
const std::string kSimLu = "simulate --trace " + kLu + " --topology torus:4x2 ";

std::vector<Case> cases() {
  return {
      // Command lines.
      {"UnknownCommand", "simulte", {"simulte", "simulate"}},
      {"UnknownOption", "map --mappr greedy", {"--mappr", "--mapper"}},
      {"AbbreviatedOption", kMapCsv + "--mapp greedy", {"--mapp"}},
      {"MissingTopology", "map --matrix ok.csv --mapper greedy", {"--topology"}},
      // Traces.
      {"MissingTrace", "matrix nope", {"nope"}},
      {"EmptyDirectory", "matrix empty-dir", {"empty-dir"}},
      {"DefinitionsOnly",
       "matrix " + kData + "/public/tauonk_btmz_B_8x4_DEFS_ONLY",
       {"tauonk_btmz_B_8x4_DEFS_ONLY", "traces"}},
      {"TruncatedEventFile", "matrix lu-truncated", {"lu-truncated", "3.evt"}},
      {"TruncatedEventFileReplay",
       "simulate --trace lu-truncated --topology torus:4x2",
       {"lu-truncated", "3.evt"}},
      {"EmptyDefinitions", "matrix lu-empty-def", {"lu-empty-def", "traces.def"}},
      {"HalfDefinitions", "matrix lu-half-def", {"lu-half-def", "traces.def"}},
      {"MissingEventFile", "matrix lu-missing-evt", {"lu-missing-evt", "5.evt"}},
      {"ForeignEventFile", "matrix lu-foreign-evt", {"lu-foreign-evt", "0.evt"}},
      // CSV matrices.
      {"NegativeBytes", "matrix negative.csv", {"negative.csv:3", "bytes", "-5"}},
      {"WordForBytes", "matrix word.csv", {"word.csv:3", "abc"}},
      {"RankOutside", "matrix outside.csv", {"outside.csv:3", "5"}},
      {"BytesTooLarge", "matrix huge.csv", {"huge.csv:3", "too large"}},
      {"VolumeOverflows", "matrix wrapping.csv", {"wrapping.csv"}},
      {"VolumeOverflowsScotch",
       "map --matrix wrapping.csv --topology torus:2 --mapper scotch",
       {"wrapping.csv"}},
      {"VolumeOverflowsAll",
       "map --matrix wrapping.csv --topology torus:2 --mapper all",
       {"wrapping.csv"}},
      {"TooManyRanks", "matrix many-ranks.csv", {"many-ranks.csv", "16777216"}},
      {"NoHeader", "matrix no-header.csv", {"no-header.csv:1", "src,dst,messages,bytes"}},
      {"RanksGivenTwice", "matrix ranks-twice.csv", {"ranks-twice.csv:2", "twice", "line 1"}},
      // Machines.
      {"ZeroSize", "topo torus:0", {"torus:0"}},
      {"EmptySize", "topo torus:4x", {"torus:4x"}},
      {"UnknownKind", "topo tor:4x4", {"tor", "torus"}},
      {"ZeroCores", "topo mesh:4x4:cores=0", {"cores"}},
      {"MachineTooSmall", "map --matrix ok.csv --topology torus:1 --mapper greedy", {"torus:1"}},
      // Mappers and their parameters.
      {"UnknownMapper", kMapCsv + "--mapper grdy", {"grdy", "greedy"}},
      {"UnknownParameter", kMapCsv + "--mapper greedy --param nope=1", {"nope", "greedy"}},
      {"UnknownParameterWithAll",
       kMapCsv + "--mapper all --param greedy.nope=1",
       {"nope", "greedy"}},
      {"UnwritableMappingFile",
       kMapCsv + "--mapper greedy --out /nonexistent/x.map",
       {"/nonexistent/x.map"}},
      // Mapping files.
      {"RankTwice", kSimLu + "--mapping twice.map", {"twice.map:2", "0"}},
      {"GarbageMapping", kSimLu + "--mapping garbage.map", {"garbage.map:1", "garbage"}},
      {"RankMissing", kSimLu + "--mapping gap.map", {"gap.map", "2"}},
      {"NodeOutside", kSimLu + "--mapping node-outside.map", {"node-outside.map", "99"}},
      // Simulation settings.
      {"UnknownModel", kSimLu + "--model nope", {"nope", "flow"}},
      {"UnknownLinkClass", kSimLu + "--link nope:1:1", {"nope"}},
      {"LinkClassTwice",
       kSimLu + "--link grid:25:100 --link grid:10:100",
       {"--link 'grid:10:100'", "set twice", "grid:25:100"}},
      {"TinyBandwidth", kSimLu + "--link grid:1e-12:100", {"--link", "1e-12"}},
      {"HugeLatency", kSimLu + "--link grid:25:1e16", {"--link", "1e16"}},
      {"HugeComputeScale", kSimLu + "--compute-scale 1e12", {"--compute-scale"}},
      {"NegativeComputeScale", kSimLu + "--compute-scale -1", {"--compute-scale"}},
      {"NegativeEagerThreshold", kSimLu + "--eager-threshold -5", {"--eager-threshold", "-5"}},
      {"ZeroPacketSize", kSimLu + "--model packet --packet-size 0", {"--packet-size", "0"}},
      {"UnwritableLinks", kSimLu + "--links /nonexistent/links.csv", {"/nonexistent/links.csv"}},
      // Experiment configs.
      {"UnknownConfigKey", "run unknown-key.yaml --db tour.db", {"unknown-key.yaml:4", "bogus"}},
      {"BrokenYaml", "run broken.yaml --db tour.db", {"broken.yaml:2"}},
      {"BadSpecInConfig", "run bad-spec.yaml --db tour.db", {"bad-spec.yaml", "torus:2y2"}},
      // Generators and exporters.
      {"UnknownClass", "generate lu --class Q --ranks 4 --out g", {"Q"}},
      {"RankCountDoesNotFit", "generate lu --class S --ranks 7 --out g", {"7"}},
      {"UnknownFormat", "export " + kLu + " --format nope --out e", {"nope"}},
  };
}

class BadInputTour : public ::testing::TestWithParam<Case> {};

TEST_P(BadInputTour, FailsClearlyAndLeavesNothingBehind) {
  const Case& c = GetParam();
  const TempDir dir;
  populate(dir);
  const auto before = snapshot(dir.path());
  const auto result = run_mapsim("-q " + c.args + " </dev/null", dir.path());
  EXPECT_TRUE(result.exit_code == 1 || result.exit_code == 2)
      << "exit " << result.exit_code << " for: mapsim " << c.args << "\nstderr: " << result.err;
  EXPECT_THAT(result.err, HasSubstr("error"));
  for (const auto& what : c.named) EXPECT_THAT(result.err, HasSubstr(what)) << c.args;
  EXPECT_EQ(snapshot(dir.path()), before) << "mapsim " << c.args << " changed its directory";
}

INSTANTIATE_TEST_SUITE_P(Inputs, BadInputTour, ::testing::ValuesIn(cases()),
                         [](const auto& test) { return test.param.name; });

}  // namespace
}  // namespace mapsim::testing
