// Every generated trace (NPB kernels and the pattern generators, class S) replays to completion
// under every network model with all its messages delivered.

#include <numeric>
#include <string>

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::testing {
namespace {

/// The first of a few usual rank counts that the generator accepts.
traces::Trace generate(std::string_view kernel) {
  for (const Rank ranks : {8, 9, 16, 4}) {
    traces::GeneratorOptions options;
    options.kernel = std::string(kernel);
    options.ranks = ranks;
    try {
      return traces::generate_trace(options);
    } catch (const InputError&) {
    }
  }
  ADD_FAILURE() << "no rank count fits " << kernel;
  return {};
}

TEST(GeneratedTraces, EveryGeneratorReplaysToCompletion) {
  for (const auto& info : traces::generators()) {
    const auto trace = generate(info.name);
    if (trace.ranks.empty()) continue;
    std::uint64_t sends = 0;
    for (const auto& rank : trace.ranks)
      for (const auto& e : rank.events)
        sends += e.kind == traces::EventKind::Send || e.kind == traces::EventKind::Isend;
    std::vector<topo::NodeId> nodes(trace.ranks.size());
    std::iota(nodes.begin(), nodes.end(), 0);
    for (const auto& model : kModels) {
      sim::SimConfig config;
      config.model = model;
      const auto r = run(trace, "torus:4x4x4", nodes, config);
      const auto what = std::string(info.name) + " " + model;
      EXPECT_EQ(r.messages, sends) << what;
      EXPECT_EQ(r.unmatched_messages, 0U) << what;
      EXPECT_EQ(r.trace_events, trace.event_count()) << what;
      EXPECT_EQ(r.latency.count(), r.messages + r.collective_messages) << what;
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
