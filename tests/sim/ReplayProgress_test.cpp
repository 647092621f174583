// A replay shows its progress on a terminal, counted in trace events, and nothing otherwise.

#include <string>

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "tests/support/Terminal.hpp"

namespace mapsim::testing {
namespace {

traces::Trace ping_pong() {
  TraceBuilder b(2);
  b.send(0, 1, 100, 1).recv(0, 1, 100, 2);
  b.recv(1, 0, 100, 1).send(1, 0, 100, 2);
  return b.trace();  // 4 events
}

TEST(ReplayProgress, CountsTraceEventsOnATerminal) {
  const auto trace = ping_pong();
  const auto text = stderr_on_terminal([&] {
    (void)run(trace, "torus:4x4", {0, 1}, round_config("flow"));
  });
  EXPECT_NE(text.find("mapsim: replaying 100% (4/4 events)"), std::string::npos) << text;
}

TEST(ReplayProgress, IsSilentWhenStderrIsNotATerminal) {
  const auto trace = ping_pong();
  const auto text = stderr_in_file([&] {
    (void)run(trace, "torus:4x4", {0, 1}, round_config("flow"));
  });
  EXPECT_EQ(text, "");
}

}  // namespace
}  // namespace mapsim::testing
