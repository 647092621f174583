// Progress draws on a terminal only: run it once with stderr on a pseudo-terminal and once on a
// file.

#include "support/Progress.hpp"

#include <string>

#include <gtest/gtest.h>

#include "tests/support/Terminal.hpp"

namespace mapsim {
namespace {

using testing::stderr_in_file;
using testing::stderr_on_terminal;

TEST(Progress, DrawsTheFinalCountOnATerminal) {
  const auto text = stderr_on_terminal([] {
    Progress progress("reading", 200, "events");
    progress.advance(150);
    progress.advance(50);
  });
  EXPECT_NE(text.find("mapsim: reading 100% (200/200 events)"), std::string::npos) << text;
}

TEST(Progress, IsSilentWhenStderrIsNotATerminal) {
  const auto text = stderr_in_file([] {
    Progress progress("reading", 10);
    progress.advance(10);
  });
  EXPECT_EQ(text, "");
}

TEST(Progress, OnlyTheOutermostDraws) {
  const auto text = stderr_on_terminal([] {
    Progress sweep("sweep", 2, "runs");
    {
      Progress replay("replaying", 10, "events");  // inside the sweep: silent
      replay.advance(10);
      EXPECT_FALSE(replay.active());
    }
    sweep.advance(2);
  });
  EXPECT_NE(text.find("mapsim: sweep 100% (2/2 runs)"), std::string::npos) << text;
  EXPECT_EQ(text.find("replaying"), std::string::npos) << text;
  // The line is free again once the outer one is done.
  const auto after = stderr_on_terminal([] {
    Progress replay("replaying", 10, "events");
    replay.advance(10);
  });
  EXPECT_NE(after.find("mapsim: replaying 100% (10/10 events)"), std::string::npos) << after;
}

TEST(ProgressStep, AnnouncesTheStepAndItsTime) {
  const auto text = stderr_on_terminal([] { ProgressStep step("mapping with best"); });
  EXPECT_NE(text.find("mapsim: mapping with best ..."), std::string::npos) << text;
  // Completed in place with the elapsed time (a fraction of a second here).
  EXPECT_NE(text.find("\rmapsim: mapping with best 0."), std::string::npos) << text;
}

TEST(ProgressStep, IsSilentWhenStderrIsNotATerminal) {
  const auto text = stderr_in_file([] {
    ProgressStep step("mapping with best");
    EXPECT_FALSE(step.active());
  });
  EXPECT_EQ(text, "");
}

}  // namespace
}  // namespace mapsim
