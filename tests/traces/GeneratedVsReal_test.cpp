// Generators against the real Score-P 8.4 traces of tests/data/npb: the generator run
// with the same kernel, class and rank count gives the same communication matrix, the same
// collectives per rank (operation, root, bytes sent and received, communicator size, in order)
// and — stronger — the same MPI events per rank in the same order (everything but the computation
// gaps; communicators compared by their members). And every generated archive reads back as the
// in-memory trace.

#include <algorithm>
#include <string>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/TempDir.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "tests/traces/TraceChecks.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {
namespace {

using testing::generator;

const std::string kNpb = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/";

struct RealCase {
  const char* trace;
  const char* kernel;
  Rank ranks;
};

void PrintTo(const RealCase& c, std::ostream* out) {
  *out << c.trace;
}

class GeneratedVsReal : public ::testing::TestWithParam<RealCase> {
 protected:
  [[nodiscard]] Trace real() const { return read_trace(kNpb + GetParam().trace); }
  [[nodiscard]] Trace generated() const {
    return generate_trace(generator(GetParam().kernel, 'S', GetParam().ranks));
  }
};

TEST_P(GeneratedVsReal, SameCommunicationMatrix) {
  EXPECT_EQ(point_to_point_matrix(generated()), point_to_point_matrix(real()));
}

/// Per rank: (operation, root, sent, received, members of the communicator), in order.
std::vector<
    std::vector<std::tuple<CollectiveOp, Rank, std::int64_t, std::int64_t, std::vector<Rank>>>>
collectives_with_members(const Trace& trace) {
  std::vector<
      std::vector<std::tuple<CollectiveOp, Rank, std::int64_t, std::int64_t, std::vector<Rank>>>>
      all(trace.ranks.size());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    for (const auto& e : trace.ranks[r].events) {
      if (e.kind != EventKind::Collective) continue;
      all[r].emplace_back(e.op, e.peer, e.bytes, e.received, trace.communicators[e.comm].members);
    }
  }
  return all;
}

TEST_P(GeneratedVsReal, SameCollectivesPerRank) {
  const auto expected = collectives_with_members(real());
  const auto actual = collectives_with_members(generated());
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t r = 0; r < expected.size(); ++r) {
    EXPECT_EQ(actual[r], expected[r]) << "rank " << r;
  }
}

TEST_P(GeneratedVsReal, SameEventsPerRankInProgramOrder) {
  const Trace expected = real();
  const Trace actual = generated();
  ASSERT_EQ(actual.rank_count(), expected.rank_count());
  for (std::size_t r = 0; r < expected.ranks.size(); ++r) {
    const auto& want = expected.ranks[r].events;
    const auto& got = actual.ranks[r].events;
    ASSERT_EQ(got.size(), want.size()) << "rank " << r;
    for (std::size_t i = 0; i < want.size(); ++i) {
      Event a = got[i];
      Event b = want[i];
      a.gap = b.gap = 0;  // computation: modelled, not measured
      const auto& members_a = actual.communicators[a.comm].members;
      const auto& members_b = expected.communicators[b.comm].members;
      a.comm = b.comm = 0;
      ASSERT_EQ(a, b) << "rank " << r << " event " << i << " (" << name(b.kind) << ")";
      ASSERT_EQ(members_a, members_b) << "rank " << r << " event " << i;
    }
  }
}

TEST_P(GeneratedVsReal, WrittenArchiveReadsBackAsTheInMemoryTrace) {
  const testing::TempDir dir;
  const auto options = generator(GetParam().kernel, 'S', GetParam().ranks);
  const auto records = write_generated_trace(options, dir.path());
  TraceReader reader(dir.path());
  Trace read = reader.read_trace();
  read.source = generated().source;
  EXPECT_EQ(read, generated());
  EXPECT_EQ(reader.summary().records, records);
  EXPECT_THAT(testing::unmatched_messages(read), ::testing::IsEmpty());
  EXPECT_THAT(testing::model_violations(read), ::testing::IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(
    NpbTraces, GeneratedVsReal,
    ::testing::Values(RealCase{"lu.S.8", "lu", 8}, RealCase{"lu.S.12", "lu", 12},
                      RealCase{"bt.S.9", "bt", 9}, RealCase{"sp.S.4", "sp", 4},
                      RealCase{"sp.S.9", "sp", 9}, RealCase{"cg.S.8", "cg", 8},
                      RealCase{"mg.S.8", "mg", 8}, RealCase{"mg.S.24", "mg", 24},
                      RealCase{"ft.S.12", "ft", 12}, RealCase{"is.S.2", "is", 2},
                      RealCase{"ep.S.5", "ep", 5}),
    [](const ::testing::TestParamInfo<RealCase>& param) {
      std::string name = param.param.trace;
      std::replace(name.begin(), name.end(), '.', '_');
      return name;
    });

/// Generators and shapes the real traces do not cover: own kernels, idle ranks, self-like and
/// duplicate partners, 2-D FFT layout, overridden iterations and halo sizes.
class RoundTrip : public ::testing::TestWithParam<GeneratorOptions> {};

TEST_P(RoundTrip, WrittenArchiveReadsBackAsTheInMemoryTrace) {
  const testing::TempDir dir;
  const auto records = write_generated_trace(GetParam(), dir.path());
  TraceReader reader(dir.path());
  Trace read = reader.read_trace();
  const Trace built = generate_trace(GetParam());
  read.source = built.source;
  EXPECT_EQ(read, built);
  EXPECT_EQ(reader.summary().records, records);
  EXPECT_THAT(testing::unmatched_messages(read), ::testing::IsEmpty());
  EXPECT_THAT(testing::model_violations(read), ::testing::IsEmpty());
}

GeneratorOptions with_bytes(GeneratorOptions options, std::int64_t bytes) {
  options.message_bytes = bytes;
  return options;
}

GeneratorOptions with_deck(GeneratorOptions options, std::string deck) {
  options.deck = std::move(deck);
  return options;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RoundTrip,
    ::testing::Values(
        generator("sweep3d", 'S', 6, 2), generator("sweep3d", 'W', 7, 1),
        with_deck(generator("sweep3d", 'S', 4), "example"), generator("stencil2d", 'S', 12, 3),
        generator("stencil3d", 'S', 12, 3), with_bytes(generator("stencil3d", 'S', 8, 2), 0),
        generator("bt", 'S', 4, 2), generator("sp", 'S', 18, 2), generator("bt", 'S', 1, 1),
        generator("cg", 'S', 16, 1), generator("cg", 'S', 1, 1), generator("mg", 'S', 2, 1),
        generator("mg", 'S', 6, 1), generator("ft", 'S', 128, 1), generator("ft", 'S', 1, 1),
        generator("is", 'S', 1, 2), generator("ep", 'S', 3), generator("lu", 'S', 1, 2)),
    [](const ::testing::TestParamInfo<GeneratorOptions>& param) {
      return param.param.kernel + "_" + param.param.problem_class + "_" +
             std::to_string(param.param.ranks) + "_" + std::to_string(param.index);
    });

}  // namespace
}  // namespace mapsim::traces
