// Generator checks too long for the default run (ctest label `slow`): full class C runs and the
// large archive the reader and simulator benchmarks use.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/TempDir.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "tests/traces/NpbFormulas.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {
namespace {

using testing::Call;
using testing::count_calls;
using testing::generator;
using testing::lu_formula;

Traffic traffic(std::uint64_t messages, std::uint64_t bytes) {
  return Traffic{messages, bytes};
}

TEST(LuGenerator, ClassC64FullRun) {
  // NPB fact sheet §4.5: 9,052,876 messages, 22,128,532,608 bytes; sample pairs; per-rank call
  // counts.
  const auto counted = count_calls(generator("lu", 'C', 64));
  const auto m = counted.matrix();
  EXPECT_EQ(m.total(), traffic(9'052'876, 22'128'532'608));
  EXPECT_EQ(m.at(0, 1), traffic(40'414, 101'256'640));
  EXPECT_EQ(m.at(1, 0), traffic(40'416, 101'258'304));
  EXPECT_EQ(m.at(9, 10), traffic(40'414, 102'863'040));
  EXPECT_EQ(m.at(10, 9), traffic(40'415, 102'863'408));
  EXPECT_EQ(m, lu_formula(162, 250, 64));
  EXPECT_EQ(counted.count(0, Call::Recv), 80'320);
  EXPECT_EQ(counted.count(0, Call::Send), 80'828);
  EXPECT_EQ(counted.count(0, Call::Irecv), 512);
  EXPECT_EQ(counted.count(0, Call::Wait), 512);
  EXPECT_EQ(counted.count(9, Call::Recv), 160'640);
  EXPECT_EQ(counted.count(9, Call::Send), 161'658);
  EXPECT_EQ(counted.count(9, Call::Irecv), 1'018);
  EXPECT_EQ(counted.count(9, Call::Wait), 1'018);
}

TEST(LuGenerator, ClassB64ArchiveStreamsToTheClosedFormMatrix) {
  // The benchmark archive (tens of millions of records): written, then streamed by the reader
  // into the matrix of the NPB fact sheet §4.4 (nx0 = 102, itmax = 250).
  const testing::TempDir dir;
  const auto records = write_generated_trace(generator("lu", 'B', 64), dir.path());
  EXPECT_GT(records, 30'000'000u);
  EXPECT_EQ(read_matrix(dir.path()), lu_formula(102, 250, 64));
}

}  // namespace
}  // namespace mapsim::traces
