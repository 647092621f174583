// A tour of the bad inputs a user can give, run through the binary: every one must end with a
// clear error (exit 1 for bad input, 2 for a bad command line) whose message names the value
// and where it came from, never a crash or a silent success, and must leave the directory it
// ran in exactly as it was (no partial or temporary file, an existing output untouched).

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/RunMapsim.hpp"
#include "../support/TempDir.hpp"
#include "experiments/Sqlite.hpp"

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

const std::string kConfigHead =
    "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [in-order, greedy]\n";

/// A results database of a tiny sweep, made once for the tour and copied into each case's
/// directory.
const fs::path& tour_database() {
  struct Made {
    fs::path dir = fs::temp_directory_path() / ("mapsim-tour-db-" + std::to_string(::getpid()));
    Made() {
      fs::remove_all(dir);
      fs::create_directories(dir);
      std::ofstream(dir / "sweep.yaml") << kConfigHead;
      const auto r = run_mapsim("-q run sweep.yaml --db results.db", dir);
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    ~Made() { fs::remove_all(dir); }
  };
  static const Made made;
  static const fs::path path = made.dir / "results.db";
  return path;
}

// The directory every case runs in: small valid and invalid inputs, and one output file that
// an interrupted or failing command must not touch.
void populate(const TempDir& dir) {
  // Configs, each wrong in one way.
  dir.write("ok.yaml", kConfigHead);
  dir.write("exclude-typo.yaml", kConfigHead + "exclude: [{mapper: grredy}]\n");
  dir.write("latin1.yaml", kConfigHead + "name: \"{workload}/\xe9t\xe9/{mapper}\"\n");
  dir.write("two-docs.yaml", kConfigHead + "---\nbogus: 1\n");
  dir.write("matrix-dir.yaml",
            "workloads: [{matrix: empty-dir}]\nmachines: [torus:2]\nmappers: [in-order]\n");
  dir.write("trace-no-anchor.yaml",
            "workloads: [{trace: empty-dir}]\nmachines: [torus:2]\nmappers: [in-order]\n");
  dir.write("trace-csv.yaml",
            "workloads: [{trace: ok.csv}]\nmachines: [torus:2]\nmappers: [in-order]\n");
  dir.write("th3-on-torus.yaml",
            "workloads: [npb:lu:S:4]\n"
            "machines: [{topology: torus:4x4, links: {th3-switch: {bandwidth: 1}}}]\n"
            "mappers: [in-order]\n");
  dir.write("newline-label.yaml",
            "workloads: [{generate: npb:lu:S:4, label: \"a\\nb\"}]\nmachines: [torus:4x4]\n"
            "mappers: [in-order]\n");
  std::string seeds;
  for (int s = 0; s < 2000; ++s) seeds += (s == 0 ? "" : ", ") + std::to_string(s);
  dir.write("huge.yaml", kConfigHead + "seeds: [" + seeds + "]\nrepeats: 1000\n");
  dir.write("spliced-where.yaml", kConfigHead + "where: \"1) GROUP BY mapper --\"\n");
  dir.write("exclude-seed.yaml", kConfigHead + "exclude: [{seed: 3}]\n");
  // Databases: ours, and files that are not.
  fs::copy_file(tour_database(), dir.path() / "results.db");
  dir.write("not-a-db.db", std::string(8192, 'x'));
  dir.write("empty.db", "");
  {
    std::string damaged = read_file(tour_database());
    for (std::size_t at = 2 * 4096; at < damaged.size(); ++at) damaged[at] = '\x5a';
    dir.write("damaged.db", damaged);
  }
  {
    exp::sql::Connection foreign(dir.path() / "foreign.db", exp::sql::Connection::Mode::Create);
    foreign.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
  }
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
       kMapCsv + "--mapper greedy --out /dev/null/x.map",
       {"/dev/null/x.map"}},
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
      {"UnwritableLinks", kSimLu + "--links /dev/null/links.csv", {"/dev/null/links.csv"}},
      // Experiment configs.
      {"UnknownConfigKey", "run unknown-key.yaml --db tour.db", {"unknown-key.yaml:4", "bogus"}},
      {"BrokenYaml", "run broken.yaml --db tour.db", {"broken.yaml:2"}},
      {"BadSpecInConfig", "run bad-spec.yaml --db tour.db", {"bad-spec.yaml", "torus:2y2"}},
      // Experiment configs (issue 25): every one at its file:line:column.
      {"ExcludeValueMatchesNothing",
       "run exclude-typo.yaml --db tour.db",
       {"exclude-typo.yaml:4:20", "'grredy' matches no mapper", "did you mean 'greedy'?"}},
      {"ExcludeSeedMatchesNothing",
       "run exclude-seed.yaml --db tour.db",
       {"exclude-seed.yaml:4:18", "'3' matches no seed", "seeds: 0"}},
      {"ConfigNotUtf8", "run latin1.yaml --db tour.db", {"latin1.yaml:4:19", "0xe9", "UTF-8"}},
      {"SecondYamlDocument",
       "run two-docs.yaml --db tour.db",
       {"two-docs.yaml:4:1", "a second YAML document"}},
      {"ConfigIsADirectory", "run empty-dir --db tour.db", {"empty-dir", "is a directory"}},
      {"MatrixIsADirectory",
       "run matrix-dir.yaml --db tour.db",
       {"matrix-dir.yaml:1:22", "empty-dir", "is a directory"}},
      {"TraceWithoutAnchorFile",
       "run trace-no-anchor.yaml --db tour.db",
       {"trace-no-anchor.yaml:1:13: workloads[0]", "empty-dir", "not an OTF2 archive"}},
      {"TraceIsACsvFile",
       "run trace-csv.yaml --db tour.db",
       {"trace-csv.yaml:1:21", "ok.csv", "{matrix: FILE}"}},
      {"LinkClassTheMachineLacks",
       "run th3-on-torus.yaml --db tour.db",
       {"th3-on-torus.yaml:2:42", "torus:4x4 has no th3-switch links"}},
      {"LabelWithANewline",
       "run newline-label.yaml --db tour.db",
       {"newline-label.yaml:1:43", "control character"}},
      {"TooManyCombinations",
       "run huge.yaml --db tour.db --dry-run",
       {"huge.yaml", "4000000 combinations", "seed 2000 x repeat 1000"}},
      {"MaxCombinationsZero",
       "run ok.yaml --db tour.db --max-combinations 0",
       {"--max-combinations", "0"}},
      {"SplicedWhereInConfig",
       "run spliced-where.yaml --db tour.db",
       {"spliced-where.yaml:4:8", "closes a parenthesis it did not open"}},
      // Results databases (issue 25): named, with what is wrong, never modified.
      {"DbIsADirectory", "run ok.yaml --db empty-dir", {"'empty-dir' is a directory"}},
      {"DbInAMissingFolder",
       "run ok.yaml --db missing/x.db",
       {"cannot create database 'missing/x.db'", "no such file or directory"}},
      {"DbThatIsText", "results not-a-db.db", {"not-a-db.db", "not an SQLite database"}},
      {"DbThatIsEmpty", "results empty.db", {"empty.db", "an empty database"}},
      {"DbThatIsDamaged", "results damaged.db", {"damaged.db", "damaged"}},
      {"MergeADamagedInput", "merge out.db damaged.db", {"damaged.db", "damaged"}},
      {"MergeIntoForeign", "merge foreign.db results.db", {"foreign.db", "another application"}},
      {"RunIntoForeign", "run ok.yaml --db foreign.db", {"foreign.db", "another application"}},
      {"UpgradeForeign", "upgrade foreign.db", {"foreign.db", "another application"}},
      {"UpgradeEmpty", "upgrade empty.db", {"empty.db", "nothing to upgrade"}},
      {"SplicedWhereInResults",
       "results results.db --where \"1) GROUP BY mapper --\"",
       {"--where '1) GROUP BY mapper --'", "closes a parenthesis"}},
      {"SplicedWhereInReport",
       "report results.db --out report --where \"1) GROUP BY (mapper\"",
       {"--where '1) GROUP BY (mapper'", "closes a parenthesis"}},
      {"ReportOutIsAFile",
       "report results.db --out existing.csv",
       {"existing.csv", "not a directory"}},
      {"GnuplotTimeoutZero",
       "report results.db --out report --gnuplot-timeout 0",
       {"--gnuplot-timeout", "0"}},
      {"ReportTieToleranceOne",
       "report results.db --out report --tie-tolerance 1",
       {"--tie-tolerance", "1 is out of range [0, 1)"}},
      {"ReportTieTolerancePercent",
       "report results.db --out report --tie-tolerance 0.1%",
       {"--tie-tolerance", "'0.1%'"}},
      {"ResultsTieToleranceNegative",
       "results results.db --tie-tolerance -0.01",
       {"--tie-tolerance", "-0.01 is out of range [0, 1)"}},
      {"ResultsTieToleranceWithMapping",
       "results results.db --mapping x --tie-tolerance 0.01",
       {"--tie-tolerance", "does not apply to --mapping"}},
      {"SimulateTimeLimitNegative", kSimLu + "--time-limit -1", {"--time-limit", "-1"}},
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
