// The `mapsim` driver: help, version, unknown commands and options, exit codes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"

namespace mapsim {
namespace {

using ::testing::HasSubstr;
using testing::run_mapsim;

TEST(Cli, HelpListsEveryCommand) {
  const auto r = run_mapsim("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* command :
       {"run", "results", "report", "merge", "upgrade", "topo", "list", "generate", "matrix", "map",
        "simulate", "advise", "export", "calibrate", "help"})
    EXPECT_THAT(r.out, HasSubstr(std::string("  ") + command + "  "));  // a gap after each
}

TEST(Cli, EveryCommandHasHelp) {
  for (const char* command :
       {"run", "results", "report", "merge", "upgrade", "topo", "list", "generate", "matrix", "map",
        "simulate", "advise", "export", "calibrate"}) {
    const auto r = run_mapsim(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_THAT(r.out, HasSubstr(std::string("Usage: mapsim ") + command));
    EXPECT_THAT(r.out, HasSubstr("--help"));
  }
}

TEST(Cli, NoCommandPrintsUsageAndFails) {
  const auto r = run_mapsim("");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("Usage: mapsim"));
}

TEST(Cli, UnknownCommandFailsNamingIt) {
  const auto r = run_mapsim("frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("mapsim: error: unknown command 'frobnicate'"));
}

TEST(Cli, UnknownOptionFailsNamingCommandAndOption) {
  const auto r = run_mapsim("topo torus:4 --bogus");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("mapsim topo: error:"));
  EXPECT_THAT(r.err, HasSubstr("bogus"));
}

TEST(Cli, UnknownGlobalOptionFails) {
  const auto r = run_mapsim("--bogus topo torus:4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown option '--bogus'"));
}

TEST(Cli, PrintsVersion) {
  const auto r = run_mapsim("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("mapsim "));
}

TEST(Cli, ListShowsTopologyKindsAndLinkClasses) {
  const auto r = run_mapsim("list");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* kind :
       {"mesh", "torus", "haec", "tianhe3", "grid", "haec-wireless", "th3-switch", "intra-node"}) {
    EXPECT_THAT(r.out, HasSubstr(kind));
  }
  const auto collectives = run_mapsim("list collectives");
  EXPECT_EQ(collectives.exit_code, 0);
  EXPECT_THAT(collectives.out, HasSubstr("alltoall        linear, pairwise, bruck\n"));
  EXPECT_THAT(collectives.out, HasSubstr("mpich (MPICH's classic algorithms, the default)"));
  const auto bad = run_mapsim("list gizmos");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("cannot list 'gizmos'"));
}

}  // namespace
}  // namespace mapsim
