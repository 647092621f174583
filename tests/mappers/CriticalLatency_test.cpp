// best:objective=critical-latency with an oracle whose critical path the test chooses: the
// weights are m_ij + k c_ij with k = round(M / C) (at least 1), bytes kept, path messages the
// matrix lacks added; the oracle is asked once, for in-order, contention-free and communication
// only, with the path listed; the mapper is `best` under latency summed over those weights, its
// starts mapping the matrix; without a trace it refuses; the same on one and two threads.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/BestMapper.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/TimeOracle.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

/// Answers every judgement with the critical path it was given, and records what it was asked.
class PathOracle final : public TimeOracle {
 public:
  PathOracle(const topo::Topology& topology, std::vector<std::pair<Rank, Rank>> path)
      : topology_(topology), path_(std::move(path)) {}

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }
  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity& fidelity) const override {
    std::vector<Judgement> out;
    for (const auto& m : mappings) {
      asked_.push_back(m);
      fidelities_.push_back(fidelity);
      Judgement j;
      j.makespan = 1;
      if (fidelity.critical_messages) j.critical_messages = path_;
      out.push_back(std::move(j));
    }
    return out;
  }
  void report(std::string_view text) const override { reported_ += std::string(text); }

  mutable std::vector<topo::Mapping> asked_;
  mutable std::vector<Fidelity> fidelities_;
  mutable std::string reported_;

 private:
  const topo::Topology& topology_;
  std::vector<std::pair<Rank, Rank>> path_;
};

/// (messages, bytes) from src to dst in `m`, or (0, 0).
std::pair<std::uint64_t, std::uint64_t> entry(const traces::CommMatrix& m, Rank src, Rank dst) {
  const auto destinations = m.destinations(src);
  const auto traffic = m.traffic(src);
  for (std::size_t k = 0; k < destinations.size(); ++k) {
    if (destinations[k] == dst) return {traffic[k].messages, traffic[k].bytes};
  }
  return {0, 0};
}

traces::CommMatrix ring(Rank n, std::uint64_t messages, std::uint64_t bytes) {
  traces::CommMatrixBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.add(r, (r + 1) % n, messages, bytes);
  return b.build();
}

TEST(CriticalLatency, WeightsArePathMessagesScaledToTheMatrixsTotal) {
  // A ring of 8 ranks, 10 messages of 100 bytes per edge: M = 80. The path: 0->1 three times,
  // 1->2 once, and 5->2, which the matrix lacks (a collective's): C = 5, k = round(80 / 5) = 16.
  const auto machine = topo::make_topology("torus:8");
  const auto matrix = ring(8, 10, 100);
  const PathOracle oracle(*machine, {{0, 1}, {1, 2}, {0, 1}, {5, 2}, {0, 1}});
  const auto weights = critical_path_weights(matrix, *machine, oracle, 3);
  EXPECT_EQ(entry(weights, 0, 1), std::make_pair(std::uint64_t{10 + 16 * 3}, std::uint64_t{100}));
  EXPECT_EQ(entry(weights, 1, 2), std::make_pair(std::uint64_t{10 + 16}, std::uint64_t{100}));
  EXPECT_EQ(entry(weights, 5, 2), std::make_pair(std::uint64_t{16}, std::uint64_t{16}));
  for (Rank r = 2; r < 8; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(entry(weights, r, (r + 1) % 8),
              std::make_pair(std::uint64_t{10}, std::uint64_t{100}));
  }
  EXPECT_EQ(weights.total().messages, 80U + 16 * 5);
  EXPECT_EQ(weights.total().bytes, 800U + 16);
  // Asked once: in-order, contention-free, communication only, the whole run, the path listed.
  ASSERT_EQ(oracle.asked_.size(), 1U);
  EXPECT_EQ(oracle.asked_[0], make_mapper("in-order")->map(matrix, *machine, 3));
  EXPECT_EQ(oracle.fidelities_[0].model, "analytic");
  EXPECT_EQ(oracle.fidelities_[0].compute_scale, 0.0);
  EXPECT_TRUE(oracle.fidelities_[0].slice.whole());
  EXPECT_TRUE(oracle.fidelities_[0].critical_messages);
  EXPECT_NE(oracle.reported_.find("5 of 80 messages"), std::string::npos) << oracle.reported_;
}

TEST(CriticalLatency, ALongPathWeighsEachMessageAtLeastOnceMoreAndNoPathNone) {
  // C > 2M: k = round(M / C) would be 0; it is at least 1.
  const auto machine = topo::make_topology("torus:4");
  const auto matrix = ring(4, 1, 8);  // M = 4
  std::vector<std::pair<Rank, Rank>> path(9, {2, 3});
  const PathOracle oracle(*machine, path);
  const auto weights = critical_path_weights(matrix, *machine, oracle, 0);
  EXPECT_EQ(entry(weights, 2, 3), std::make_pair(std::uint64_t{1 + 9}, std::uint64_t{8}));
  EXPECT_EQ(entry(weights, 0, 1), std::make_pair(std::uint64_t{1}, std::uint64_t{8}));
  // No message on the path: the matrix as it is.
  const PathOracle empty(*machine, {});
  const auto same = critical_path_weights(matrix, *machine, empty, 0);
  for (Rank r = 0; r < 4; ++r)
    EXPECT_EQ(entry(same, r, (r + 1) % 4), entry(matrix, r, (r + 1) % 4));
  EXPECT_EQ(same.total().messages, matrix.total().messages);
}

TEST(CriticalLatency, IsBestUnderLatencyOnTheWeightsAndNeedsATrace) {
  const auto machine = topo::make_topology("mesh:4x4");
  const auto matrix = testing::random_matrix(16, 3, 12);
  // A path along a few heavy-looking pairs of the random matrix, and one it lacks.
  std::vector<std::pair<Rank, Rank>> path;
  for (Rank r = 0; r < 16; ++r) {
    const auto destinations = matrix.destinations(r);
    if (!destinations.empty() && r % 3 == 0) path.emplace_back(r, destinations.front());
  }
  path.emplace_back(15, 0);
  const PathOracle oracle(*machine, path);
  const auto mapper = make_mapper("best", {{"objective", "critical-latency"}, {"work", "3000"}});
  EXPECT_TRUE(mapper->needs_oracle());
  EXPECT_FALSE(make_mapper("best", {{"objective", "latency"}})->needs_oracle());
  const auto chosen = mapper->map(matrix, *machine, 7, &oracle);
  // best under latency with the weights as the objective's matrix, the starts mapping the
  // matrix itself (mesh:4x4 holds the 16 ranks: no block, no sockets).
  const PathOracle again(*machine, path);
  const auto weights = critical_path_weights(matrix, *machine, again, 7);
  BestOptions options;
  options.goal = SearchGoal::Latency;
  options.work_per_rank = 3000;
  EXPECT_EQ(chosen, topo::Mapping(run_best(matrix, *machine, options, 7, &weights).nodes));
  // Here that is neither latency on the matrix alone nor the weights mapped as a matrix.
  EXPECT_NE(
      chosen,
      make_mapper("best", {{"objective", "latency"}, {"work", "3000"}})->map(matrix, *machine, 7));
  EXPECT_NE(
      chosen,
      make_mapper("best", {{"objective", "latency"}, {"work", "3000"}})->map(weights, *machine, 7));
  EXPECT_THROW((void)mapper->map(matrix, *machine, 7), InputError);
  // The same on one and two threads.
  topo::Mapping one;
  {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = mapper->map(matrix, *machine, 7, &oracle);
  }
  EXPECT_EQ(one, chosen);
}

}  // namespace
}  // namespace mapsim::map
