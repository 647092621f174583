// Generated workloads replayed as streams (traces/WorkloadStreams.hpp): the events are those the
// stored trace holds, event for event, however they are read; the replay of the streams equals
// the replay of the stored trace and of the archive written and read back; streams abandoned
// half-way release their ranks; a collective whose members are far apart in their streams is
// found by reading ahead.

#include <filesystem>
#include <numeric>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "traces/TraceReader.hpp"
#include "traces/WorkloadStreams.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::testing {
namespace {

namespace fs = std::filesystem;

traces::GeneratorOptions workload(const char* kernel, char problem_class, Rank ranks,
                                  std::optional<std::int64_t> iterations) {
  traces::GeneratorOptions options;
  options.kernel = kernel;
  options.problem_class = problem_class;
  options.ranks = ranks;
  options.iterations = iterations;
  return options;
}

// Small runs of every generator, with their point-to-point and collective styles.
std::vector<traces::GeneratorOptions> workloads() {
  return {workload("lu", 'S', 4, 3),       workload("bt", 'S', 9, 2),
          workload("sp", 'S', 4, 2),       workload("cg", 'S', 8, 2),
          workload("mg", 'S', 8, 1),       workload("ft", 'S', 4, 1),
          workload("is", 'S', 4, 2),       workload("ep", 'S', 4, std::nullopt),
          workload("sweep3d", 'S', 6, 1),  workload("stencil2d", 'S', 9, 2),
          workload("stencil3d", 'S', 8, 2)};
}

std::vector<topo::NodeId> permuted(Rank ranks) {
  std::vector<topo::NodeId> nodes(static_cast<std::size_t>(ranks));
  std::iota(nodes.begin(), nodes.end(), 0);
  std::shuffle(nodes.begin(), nodes.end(), std::mt19937(5));
  return nodes;
}

TEST(WorkloadStreams, GiveTheStoredTraceEventForEventWhateverTheWindow) {
  for (const auto& options : workloads()) {
    SCOPED_TRACE(traces::describe(options));
    const auto stored = traces::generate_trace(options);
    for (const std::size_t window : {std::size_t{1}, std::size_t{7}, std::size_t{100'000}}) {
      traces::WorkloadStreams streams(options);
      EXPECT_EQ(traces::collect(streams, window), stored) << "window " << window;
    }
  }
}

TEST(WorkloadStreams, GiveTheStoredTraceWhenRanksAreReadInterleaved) {
  for (const auto& options : workloads()) {
    SCOPED_TRACE(traces::describe(options));
    const auto stored = traces::generate_trace(options);
    traces::WorkloadStreams streams(options);
    ASSERT_EQ(streams.rank_count(), stored.rank_count());
    std::vector<std::vector<traces::Event>> read(static_cast<std::size_t>(stored.rank_count()));
    std::vector<bool> ended(read.size(), false);
    for (std::size_t open = read.size(); open > 0;) {
      // Backwards and in odd windows, as a replay's ranks would ask.
      for (Rank r = stored.rank_count() - 1; r >= 0; --r) {
        const auto i = static_cast<std::size_t>(r);
        if (ended[i]) continue;
        if (streams.read(r, read[i], 3 + i) == 0) {
          ended[i] = true;
          --open;
        }
      }
    }
    for (Rank r = 0; r < stored.rank_count(); ++r) {
      const auto i = static_cast<std::size_t>(r);
      EXPECT_EQ(read[i], stored.ranks[i].events) << "rank " << r;
      EXPECT_EQ(streams.final_gap(r), stored.ranks[i].final_gap) << "rank " << r;
    }
    EXPECT_EQ(streams.communicators(), stored.communicators);
    EXPECT_EQ(streams.source(), stored.source);
  }
}

TEST(WorkloadStreams, ReplayAsTheStoredTraceUnderEveryModelAndPlacement) {
  for (const auto& options : workloads()) {
    SCOPED_TRACE(traces::describe(options));
    const auto stored = traces::generate_trace(options);
    const auto topology = topo::make_topology("torus:4x4");
    std::vector<topo::NodeId> in_order(static_cast<std::size_t>(options.ranks));
    std::iota(in_order.begin(), in_order.end(), 0);
    for (const bool shuffled : {false, true}) {
      const topo::Mapping mapping(shuffled ? permuted(options.ranks) : in_order);
      for (const auto& model : kModels) {
        SCOPED_TRACE(model);
        sim::SimConfig config;
        config.model = model;
        config.eager_threshold = 1024;  // rendezvous for the larger messages too
        const auto expected = sim::simulate(stored, *topology, mapping, config);
        traces::WorkloadStreams streams(options);
        expect_same_result(sim::simulate(streams, *topology, mapping, config), expected);
      }
    }
  }
}

TEST(WorkloadStreams, ReplayAsTheArchiveWrittenAndReadBack) {
  const fs::path dir = fs::temp_directory_path() / "mapsim-streamed-workloads-test";
  for (const auto& options :
       {workload("lu", 'S', 8, 2), workload("cg", 'S', 4, 1), workload("bt", 'S', 4, 1)}) {
    SCOPED_TRACE(traces::describe(options));
    fs::remove_all(dir);
    traces::write_generated_trace(options, dir);
    const auto archive = traces::read_trace(dir);
    const auto topology = topo::make_topology("mesh:2x2x2");
    const auto mapping = topo::Mapping(permuted(options.ranks));
    traces::WorkloadStreams streams(options);
    expect_same_result(sim::simulate(streams, *topology, mapping),
                       sim::simulate(archive, *topology, mapping));
  }
  fs::remove_all(dir);
}

TEST(WorkloadStreams, ReleaseRanksAbandonedHalfWay) {
  // Ranks paused inside their programs are unwound when the streams go; nothing leaks (the
  // sanitizer build checks) and a second run is unaffected.
  const auto options = workload("lu", 'S', 4, 50);
  const auto stored = traces::generate_trace(options);
  {
    traces::WorkloadStreams streams(options);
    std::vector<traces::Event> some;
    EXPECT_GT(streams.read(0, some, 10), 0u);
    EXPECT_GT(streams.read(2, some, 2000), 0u);
  }
  traces::WorkloadStreams again(options);
  EXPECT_EQ(traces::collect(again), stored);
}

TEST(WorkloadStreams, RejectBadOptionsAsTheGeneratorDoes) {
  EXPECT_THROW(traces::WorkloadStreams(workload("lu", 'S', 7, 1)), InputError);
  EXPECT_THROW(traces::WorkloadStreams(workload("nope", 'S', 4, 1)), InputError);
}

TEST(WorkloadStreams, AnInterruptedReplayLeavesTheStreamsUsable) {
  const auto options = workload("lu", 'S', 4, 20);
  const auto topology = topo::make_topology("torus:2x2");
  std::atomic<bool> cancel{true};
  sim::SimConfig config;
  config.stop.cancel = &cancel;
  {
    traces::WorkloadStreams streams(options);
    EXPECT_THROW(sim::simulate(streams, *topology, topo::Mapping({0, 1, 2, 3}), config), Cancelled);
  }
  cancel = false;
  traces::WorkloadStreams streams(options);
  expect_same_result(sim::simulate(streams, *topology, topo::Mapping({0, 1, 2, 3}), config),
                     sim::simulate(traces::generate_trace(options), *topology,
                                   topo::Mapping({0, 1, 2, 3}), config));
}

// Rank 1 exchanges 3000 messages with itself before a barrier that rank 0 reaches at once: the
// barrier's instance needs rank 1's record, three windows ahead of its replay.
TEST(StreamedReplay, FindsACollectiveFarAheadInAMembersStream) {
  traces::Trace trace;
  trace.communicators = {{"MPI_COMM_WORLD", {0, 1}}};
  trace.ranks.resize(2);
  auto barrier = [] {
    traces::Event e;
    e.kind = traces::EventKind::Collective;
    e.op = traces::CollectiveOp::Barrier;
    return e;
  };
  trace.ranks[0].events.push_back(barrier());
  auto& one = trace.ranks[1].events;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    traces::Event send;
    send.kind = traces::EventKind::Isend;
    send.peer = 1;
    send.bytes = 8;
    send.request = 2 * i;
    one.push_back(send);
    traces::Event recv;
    recv.kind = traces::EventKind::Recv;
    recv.peer = 1;
    recv.bytes = 8;
    one.push_back(recv);
    traces::Event wait;
    wait.kind = traces::EventKind::Wait;
    wait.request = 2 * i;
    one.push_back(wait);
  }
  one.push_back(barrier());
  const auto topology = topo::make_topology("torus:2");
  const auto result = sim::simulate(trace, *topology, topo::Mapping({0, 1}), round_config("flow"));
  EXPECT_EQ(result.trace_events, 3002u);
  EXPECT_EQ(result.messages, 1000u);
  EXPECT_EQ(result.collectives, 2u);
  // Rank 0 waits in the barrier for rank 1's exchanges, each at least the intra-node channel's
  // 200 ns latency.
  EXPECT_GE(result.rank_finish[0], 1000 * 200 * kNs);
  EXPECT_GE(result.rank_finish[1], 1000 * 200 * kNs);
}

}  // namespace
}  // namespace mapsim::testing
