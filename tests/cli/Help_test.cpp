// The CLI for people: `mapsim help`, "did you mean" for misspelt names, no abbreviated options,
// and no progress text when stderr is not a terminal.

#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_mapsim;

const std::string kLu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";

TEST(Help, PrintsTheCommandsHelp) {
  for (const char* command : {"map", "simulate", "topo", "help"}) {
    const auto help = run_mapsim(std::string("help ") + command);
    const auto option = run_mapsim(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_THAT(help.out, HasSubstr(std::string("Usage: mapsim ") + command));
    EXPECT_EQ(help.out, option.out) << command;
  }
}

/// `text` with every run of white space (the help's line breaks) as one space.
std::string one_line(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

// `results --help` names every mapping format --mapping exports (as `map` writes them).
TEST(Help, ResultsNamesEveryMappingFormat) {
  const auto help = run_mapsim("results --help");
  ASSERT_EQ(help.exit_code, 0);
  EXPECT_THAT(one_line(help.out),
              HasSubstr("with --mapping: one of plain, rankfile, hostlist, slurm, mpich"));
  // Its description is wrapped as the others (one line of 155 characters was not).
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("Usage:", 0) == 0) continue;
    EXPECT_LE(line.size(), 100u) << line;
  }
}

// `list mappers` says what replay-search's model and compute scale follow when not given, and
// what its time limit's clock covers.
TEST(Help, ListMappersSaysWhatReplaySearchsDefaultsFollow) {
  const auto list = run_mapsim("list mappers");
  ASSERT_EQ(list.exit_code, 0);
  const auto text = one_line(list.out);
  EXPECT_THAT(text, HasSubstr("unless given, simulate's --model in simulate"));
  EXPECT_THAT(text, HasSubstr("unless given, simulate's --compute-scale in simulate"));
  EXPECT_THAT(text, HasSubstr("wall-clock seconds from the start of the mapping (the portfolio's "
                              "mapping and replays included)"));
}

TEST(Help, WithoutACommandPrintsTheOverview) {
  const auto help = run_mapsim("help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, run_mapsim("--help").out);
  EXPECT_THAT(help.out, HasSubstr("  help "));
  EXPECT_THAT(help.out, HasSubstr("mapsim help COMMAND"));
}

TEST(Help, UnknownCommandSuggestsTheClosest) {
  const auto r = run_mapsim("help simulte");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'simulte'; did you mean 'simulate'?"));
}

TEST(DidYouMean, UnknownCommand) {
  const auto r = run_mapsim("simulte");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'simulte'; did you mean 'simulate'?"));
  const auto far = run_mapsim("frobnicate");
  EXPECT_THAT(far.err, Not(HasSubstr("did you mean")));
}

TEST(DidYouMean, UnknownOption) {
  const auto r = run_mapsim("map --mappr greedy");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown option '--mappr'; did you mean '--mapper'?"));
  const auto joined = run_mapsim("map --mappr=greedy");
  EXPECT_THAT(joined.err, HasSubstr("unknown option '--mappr'; did you mean '--mapper'?"));
  const auto global = run_mapsim("--verbos list");
  EXPECT_EQ(global.exit_code, 2);
  EXPECT_THAT(global.err, HasSubstr("unknown option '--verbos'; did you mean '--verbose'?"));
}

TEST(DidYouMean, AbbreviatedOptionsAreRejected) {
  // '--map' begins '--mapper' and '--mapping': an error, not a guess.
  const auto ambiguous = run_mapsim("map --trace " + kLu + " --topology torus:4x2 --map in-order");
  EXPECT_EQ(ambiguous.exit_code, 2);
  EXPECT_THAT(ambiguous.err, HasSubstr("unknown option '--map'; did you mean one of '--mapper', "
                                       "'--mapping'"));
  // '--hop' begins only '--hops': boost would take it, mapsim does not.
  const auto unique = run_mapsim("topo torus:4x4 --hop 0 1");
  EXPECT_EQ(unique.exit_code, 2);
  EXPECT_THAT(unique.err, HasSubstr("unknown option '--hop'; did you mean '--hops'?"));
  EXPECT_EQ(unique.out, "");
}

TEST(DidYouMean, UnknownNames) {
  const auto kind = run_mapsim("topo tours:4x4");
  EXPECT_EQ(kind.exit_code, 1);
  EXPECT_THAT(kind.err, HasSubstr("unknown kind 'tours'; valid kinds: mesh, torus, haec, tianhe3, "
                                  "fattree, dragonfly, cascade, slurm; did you mean 'torus'?"));
  const auto mapper = run_mapsim("map --trace " + kLu + " --topology torus:4x2 --mapper hilbrt");
  EXPECT_EQ(mapper.exit_code, 1);
  EXPECT_THAT(mapper.err, HasSubstr("did you mean 'hilbert'?"));
  testing::TempDir dir;
  const auto config = dir.write("sweep.yaml",
                                "workloads: [npb:cg:S:8]\nmachines: [torus:2x2x2]\n"
                                "mappers: [in-order]\nmodels: [flw]\n");
  const auto model = run_mapsim("run " + config.string() + " --dry-run");
  EXPECT_EQ(model.exit_code, 1);
  EXPECT_THAT(model.err, HasSubstr("unknown model 'flw'"));
  EXPECT_THAT(model.err, HasSubstr("did you mean 'flow'?"));
  const auto link =
      run_mapsim("simulate --trace " + kLu + " --topology torus:4x2 --link gird:10:100");
  EXPECT_EQ(link.exit_code, 1);
  EXPECT_THAT(link.err, HasSubstr("unknown link class 'gird'"));
  EXPECT_THAT(link.err, HasSubstr("did you mean 'grid'?"));
}

TEST(DidYouMean, UnknownListTopic) {
  const auto r = run_mapsim("list mapper");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              HasSubstr("cannot list 'mapper'; valid: topologies, link-classes, mappers, "
                        "models, collectives, columns, metrics, all; did you mean 'mappers'?"));
}

TEST(CliProgress, NoProgressTextWhenStderrIsNotATerminal) {
  const auto r = run_mapsim("simulate --trace " + kLu + " --topology torus:4x2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("replaying")));
  EXPECT_THAT(r.err, Not(HasSubstr("reading trace")));
  EXPECT_THAT(r.err, Not(HasSubstr("\r")));
}

}  // namespace
}  // namespace mapsim
