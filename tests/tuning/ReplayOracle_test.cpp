// tuning::ReplayOracle: its judgements are the simulator's replays under the caller's
// configuration with the fidelity's model and compute scale (the critical path's transfers
// included), their energy sim::replay_energy's with the caller's link parameters (with idle 0 W,
// busy 1 W and no per-bit term: the links' busy time), the same at any thread count and in
// input order; replays stop past the makespan a fidelity gives them (cut, slower); a replay's
// error names the candidate; replay-search with it finds a mapping no slower under flow than any
// of its portfolio's, and the same one as with whole replays.

#include "tuning/ReplayOracle.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/Mapper.hpp"
#include "mappers/ReplaySearch.hpp"
#include "sim/Energy.hpp"
#include "support/Error.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/EventStreams.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/WorkloadStreams.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::tuning {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

/// NPB CG class S on 8 ranks, two iterations: a few thousand events, replayed in milliseconds.
const traces::Trace& cg_trace() {
  static const traces::Trace trace = [] {
    traces::GeneratorOptions options;
    options.kernel = "cg";
    options.ranks = 8;
    options.iterations = 2;
    return traces::generate_trace(options);
  }();
  return trace;
}

/// Links unlike the defaults (slow grid links), so that a judgement that ignored the caller's
/// configuration would differ from the replay it is compared with.
sim::SimConfig base_config() {
  sim::SimConfig config;
  config.links = topo::LinkTable{}.with(topo::LinkClass::Grid, {1e9, 500e-9});
  config.eager_threshold = 4096;
  config.compute_scale = 1;  // the fidelities replace it
  return config;
}

ReplayOracle make_oracle(const topo::Topology& topology, sim::SimConfig config = base_config()) {
  return ReplayOracle(topology, std::move(config), stream_replayer(topology, [](const map::Slice&) {
                        return std::make_unique<traces::TraceStreams>(cg_trace());
                      }));
}

/// `config` with the model and compute scale of `fidelity`: what the oracle must replay.
sim::SimConfig with(sim::SimConfig config, const map::Fidelity& fidelity) {
  config.model = fidelity.model;
  config.compute_scale = fidelity.compute_scale;
  return config;
}

void expect_same(const map::Judgement& a, const map::Judgement& b, const std::string& what) {
  EXPECT_EQ(a.makespan, b.makespan) << what;
  EXPECT_EQ(a.rank_finish, b.rank_finish) << what;
  EXPECT_EQ(a.link_busy, b.link_busy) << what;
}

std::vector<topo::Mapping> some_mappings(const topo::Topology& topology) {
  const auto matrix = traces::matrix_with_collectives(cg_trace());
  std::vector<topo::Mapping> mappings{topo::in_order_mapping(8, topology)};
  for (map::Seed seed = 1; seed <= 5; ++seed)
    mappings.push_back(map::make_mapper("random")->map(matrix, topology, seed));
  mappings.push_back(map::make_mapper("round-robin")->map(matrix, topology));
  return mappings;
}

TEST(ReplayOracle, JudgementsAreTheSimulatorsReplays) {
  const auto topology = topo::make_topology("torus:2x2:cores=2");
  const auto oracle = make_oracle(*topology);
  EXPECT_EQ(&oracle.topology(), topology.get());
  const auto mappings = some_mappings(*topology);
  for (const auto& fidelity :
       {map::Fidelity{"flow", 0, {}, true}, map::Fidelity{"analytic", 0, {}, true},
        map::Fidelity{"packet", 0, {}, true}, map::Fidelity{"flow", 0.5, {}, true}}) {
    const auto what = fidelity.model + " x " + std::to_string(fidelity.compute_scale);
    const auto judged = oracle.judge(mappings, fidelity);
    ASSERT_EQ(judged.size(), mappings.size()) << what;
    for (std::size_t k = 0; k < mappings.size(); ++k) {
      const auto result =
          sim::simulate(cg_trace(), *topology, mappings[k], with(base_config(), fidelity));
      ASSERT_EQ(result.link_count, topology->link_count());
      map::Judgement expected;
      expected.makespan = result.makespan;
      expected.rank_finish = result.rank_finish;
      expected.link_busy.assign(result.resource_busy.begin(),
                                result.resource_busy.begin() + result.link_count);
      expect_same(judged[k], expected, what + ", mapping " + std::to_string(k));
      // The transfers on the critical path, as the simulator lists them when asked.
      auto listing = with(base_config(), fidelity);
      listing.critical_messages = true;
      const auto listed = sim::simulate(cg_trace(), *topology, mappings[k], listing);
      ASSERT_EQ(judged[k].critical_messages.size(), listed.critical_messages.size()) << what;
      EXPECT_EQ(judged[k].critical_messages.size(), result.critical_path.messages) << what;
      for (std::size_t t = 0; t < listed.critical_messages.size(); ++t) {
        EXPECT_EQ(judged[k].critical_messages[t].first, listed.critical_messages[t].src);
        EXPECT_EQ(judged[k].critical_messages[t].second, listed.critical_messages[t].dst);
      }
      EXPECT_EQ(judged[k].rank_finish.size(), 8U);
      EXPECT_EQ(judged[k].link_busy.size(), static_cast<std::size_t>(topology->link_count()));
    }
    // The caller's configuration matters: under the default links the replay differs.
    const auto plain = sim::simulate(cg_trace(), *topology, mappings[0], with({}, fidelity));
    EXPECT_NE(plain.makespan, judged[0].makespan) << what;
  }
  EXPECT_EQ(oracle.replays(), static_cast<std::int64_t>(4 * mappings.size()));
  // Without asking for the critical path's transfers: none listed, the same times.
  const auto listed = oracle.judge(mappings, map::Fidelity{"flow", 0, {}, true});
  const auto unlisted = oracle.judge(mappings, map::Fidelity{"flow", 0, {}, false});
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    EXPECT_FALSE(listed[k].critical_messages.empty());
    EXPECT_TRUE(unlisted[k].critical_messages.empty());
    EXPECT_EQ(unlisted[k].makespan, listed[k].makespan);
    EXPECT_EQ(unlisted[k].rank_finish, listed[k].rank_finish);
  }
}

TEST(ReplayOracle, TheSameAtAnyThreadCountInInputOrder) {
  const auto topology = topo::make_topology("torus:4x2");
  const auto oracle = make_oracle(*topology);
  const auto mappings = some_mappings(*topology);
  const map::Fidelity flow{"flow", 0, {}, false};
  std::vector<map::Judgement> one;
  {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = oracle.judge(mappings, flow);
  }
  std::vector<map::Judgement> two;
  {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = oracle.judge(mappings, flow);
  }
  ASSERT_EQ(one.size(), mappings.size());
  ASSERT_EQ(two.size(), mappings.size());
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    expect_same(one[k], two[k], "mapping " + std::to_string(k));
    // In input order: each is the judgement of its mapping alone.
    const auto alone = oracle.judge(std::span(mappings).subspan(k, 1), flow);
    ASSERT_EQ(alone.size(), 1U);
    expect_same(two[k], alone[0], "mapping " + std::to_string(k) + " alone");
  }
  // The mappings differ in makespan, so that the order above is tested.
  EXPECT_NE(one.front().makespan, one[1].makespan);
}

// Fidelity::stop_past: a mapping slower than the limit stops past it (cut, its makespan between
// the limit and its whole replay's); one that finishes by the limit is its whole replay.
TEST(ReplayOracle, ReplaysStopPastTheMakespanTheyAreGiven) {
  const auto topology = topo::make_topology("torus:4x2");
  const auto oracle = make_oracle(*topology);
  const auto mappings = some_mappings(*topology);
  const map::Fidelity flow{"flow", 0, {}, true};
  const auto whole = oracle.judge(mappings, flow);
  auto limited = flow;
  limited.stop_past =
      std::min_element(whole.begin(), whole.end(), [](const auto& a, const auto& b) {
        return a.makespan < b.makespan;
      })->makespan;
  const auto stopped = oracle.judge(mappings, limited);
  std::size_t cut = 0;
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    const auto what = "mapping " + std::to_string(k);
    EXPECT_FALSE(whole[k].cut) << what;
    if (whole[k].makespan <= limited.stop_past) {
      EXPECT_FALSE(stopped[k].cut) << what;
      expect_same(stopped[k], whole[k], what);
      EXPECT_EQ(stopped[k].critical_messages, whole[k].critical_messages) << what;
    } else {
      EXPECT_TRUE(stopped[k].cut) << what;
      EXPECT_GT(stopped[k].makespan, limited.stop_past) << what;
      EXPECT_LE(stopped[k].makespan, whole[k].makespan) << what;
      ++cut;
    }
  }
  EXPECT_GT(cut, 0U);  // the mappings differ in makespan
}

/// An oracle that replays every candidate to its end (stop_past ignored).
class WholeReplays final : public map::TimeOracle {
 public:
  explicit WholeReplays(const ReplayOracle& oracle) : oracle_(oracle) {}
  [[nodiscard]] const topo::Topology& topology() const override { return oracle_.topology(); }
  [[nodiscard]] std::vector<map::Judgement> judge(std::span<const topo::Mapping> mappings,
                                                  const map::Fidelity& fidelity) const override {
    auto whole = fidelity;
    whole.stop_past = 0;
    return oracle_.judge(mappings, whole);
  }
  void report(std::string_view text) const override { oracle_.report(text); }

 private:
  const ReplayOracle& oracle_;
};

// The confirmations stop once slower than the incumbent, which changes no choice: the same
// mapping and the same account as with whole replays, but for the line that counts them. From a
// poor start (one portfolio member), so that moves are taken and the limit follows them.
TEST(ReplayOracle, ReplaySearchChoosesAsWithWholeReplays) {
  const auto matrix = traces::matrix_with_collectives(cg_trace());
  const std::string line = "confirmations stopped early, once their replay passed";
  int moved = 0;
  for (const auto* spec : {"torus:2x2:cores=2", "torus:4x2", "mesh:4x2"}) {
    const auto topology = topo::make_topology(spec);
    for (const auto* start : {"in-order", "random"}) {
      const auto what = std::string(spec) + " from " + start;
      const auto stopping = make_oracle(*topology);
      const auto whole_oracle = make_oracle(*topology);
      const WholeReplays whole(whole_oracle);
      const auto search =
          map::make_mapper("replay-search", {{"evaluations", "60"}, {"portfolio", start}});
      EXPECT_TRUE(search->map(matrix, *topology, 1, &stopping) ==
                  search->map(matrix, *topology, 1, &whole))
          << what;
      auto report = stopping.reported();
      const auto at = report.find(line);
      ASSERT_NE(at, std::string::npos) << what << ":\n" << report;
      const auto begin = report.rfind('\n', at) + 1;
      report.erase(begin, report.find('\n', at) + 1 - begin);
      EXPECT_EQ(report, whole_oracle.reported()) << what;
      EXPECT_EQ(whole_oracle.reported().find(line), std::string::npos) << what;
      moved += report.find(" 0 moves taken") == std::string::npos ? 1 : 0;
    }
  }
  EXPECT_GT(moved, 0);
}

// Candidates 2 and 3 cannot be replayed (too few ranks; a node over its cores): the first by
// index is rethrown, naming it, at any thread count.
TEST(ReplayOracle, AReplaysErrorNamesTheCandidate) {
  const auto topology = topo::make_topology("torus:4x2");
  const auto oracle = make_oracle(*topology);
  auto mappings = some_mappings(*topology);
  mappings.insert(mappings.begin() + 2, topo::Mapping(std::vector<topo::NodeId>{0, 1, 2, 3}));
  mappings.insert(mappings.begin() + 3,
                  topo::Mapping(std::vector<topo::NodeId>{0, 0, 1, 2, 3, 4, 5, 6}));
  for (const int threads : {1, 2}) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    try {
      (void)oracle.judge(mappings, {"analytic", 0});
      ADD_FAILURE() << "no error at " << threads << " threads";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), AllOf(HasSubstr("candidate mapping 2 under analytic"),
                                  HasSubstr("the mapping places 4 ranks but the trace has 8")))
          << threads << " threads";
    }
  }
  // Alone, the other one is named at its own index.
  try {
    (void)oracle.judge(std::span(mappings).subspan(3, 1), {"flow", 0});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("candidate mapping 0 under flow"));
  }
}

TEST(ReplayOracle, RejectsBadConfigurations) {
  const auto topology = topo::make_topology("torus:4x2");
  auto bad = base_config();
  bad.compute_scale = -1;
  EXPECT_THROW((void)make_oracle(*topology, bad), InputError);
  const auto oracle = make_oracle(*topology);
  const std::vector<topo::Mapping> mappings{topo::in_order_mapping(8, *topology)};
  try {
    (void)oracle.judge(mappings, {"flow", -2});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("compute scale"));
  }
}

TEST(ReplayOracle, KeepsWhatSearchesReport) {
  const auto topology = topo::make_topology("torus:4x2");
  const auto oracle = make_oracle(*topology);
  EXPECT_EQ(oracle.reported(), "");
  oracle.report("first\n");
  oracle.report("second\n");
  EXPECT_EQ(oracle.reported(), "first\nsecond\n");
}

/// The mappers of replay-search's default portfolio, each NAME or NAME:key=value:...
std::vector<std::pair<std::string, map::ParamList>> default_portfolio() {
  std::string text;
  for (const auto& spec : map::replay_search_params()) {
    if (spec.key == "portfolio") text = spec.default_value;
  }
  std::vector<std::pair<std::string, map::ParamList>> members;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const auto item = text.substr(start, comma - start);
    auto colon = std::min(item.find(':'), item.size());
    members.emplace_back(item.substr(0, colon), map::ParamList{});
    while (colon < item.size()) {
      const auto from = colon + 1;
      colon = std::min(item.find(':', from), item.size());
      const auto pair = item.substr(from, colon - from);
      const auto eq = pair.find('=');
      members.back().second.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
    start = comma + 1;
  }
  return members;
}

// The search replays every portfolio member's mapping under flow, communication only, and keeps
// the fastest unless it finds a faster one: replayed the same way, its mapping is no slower than
// any member's.
TEST(ReplayOracle, ReplaySearchIsNoSlowerThanItsPortfolio) {
  const auto topology = topo::make_topology("torus:2x2:cores=2");
  const auto matrix = traces::matrix_with_collectives(cg_trace());
  const auto oracle = make_oracle(*topology);
  const auto mapping = map::make_mapper("replay-search", {{"evaluations", "32"}})
                           ->map(matrix, *topology, 4, &oracle);
  const auto flow = with(base_config(), {"flow", 0});
  const auto found = sim::simulate(cg_trace(), *topology, mapping, flow).makespan;
  const auto members = default_portfolio();
  ASSERT_GE(members.size(), 5U);
  for (const auto& [name, params] : members) {
    const auto own = map::make_mapper(name, params)->map(matrix, *topology, 4);
    EXPECT_LE(found, sim::simulate(cg_trace(), *topology, own, flow).makespan) << name;
  }
  EXPECT_THAT(oracle.reported(), AllOf(HasSubstr("replay-search: minimising the flow makespan"),
                                       HasSubstr("improvement: ")));
  // The portfolio's distinct mappings and at most 32 more.
  EXPECT_LE(oracle.replays(), static_cast<std::int64_t>(members.size()) + 32);
}

// A slice of iterations (Slice::iterations) is the generated workload run with that many
// iterations: its judgement equals the replay of the workload generated with them. The
// whole-workload replayer of the tests above ignores the count; this one cuts.
TEST(ReplayOracle, ReplaysTheFirstIterationsOfAGeneratedWorkload) {
  const auto machine = topo::make_topology("torus:2x2x2");
  const auto generated = [](std::int64_t iterations) {
    traces::GeneratorOptions options;
    options.kernel = "cg";
    options.ranks = 8;
    options.iterations = iterations == 0 ? 2 : iterations;
    return options;
  };
  const ReplayOracle oracle(
      *machine, base_config(), stream_replayer(*machine, [&](const map::Slice& slice) {
        return std::make_unique<traces::WorkloadStreams>(generated(slice.iterations));
      }));
  const auto mapping = topo::in_order_mapping(8, *machine);
  const map::Fidelity one{"flow", 0, {1, 1}, false};
  const auto sliced = oracle.judge(std::span(&mapping, 1), one);
  const auto whole = oracle.judge(std::span(&mapping, 1), map::Fidelity{"flow", 0, {}, false});
  const auto expected = sim::simulate(traces::generate_trace(generated(1)), *machine, mapping,
                                      with(base_config(), one));
  EXPECT_EQ(sliced[0].makespan, expected.makespan);
  EXPECT_LT(sliced[0].makespan, whole[0].makespan);  // one iteration of two
}

// Each judgement's energy is sim::replay_energy of the same replay, under the caller's link
// parameters (the default energy table here), for mappings of different energies.
TEST(ReplayOracle, JudgementsCarryTheReplaysEnergy) {
  const auto topology = topo::make_topology("torus:2x2:cores=2");
  const auto oracle = make_oracle(*topology);
  const auto mappings = some_mappings(*topology);
  const std::vector<topo::Mapping> two{mappings[0], mappings[1]};
  ASSERT_NE(two[0], two[1]);
  for (const auto& fidelity :
       {map::Fidelity{"flow", 0, {}, true}, map::Fidelity{"analytic", 0.5, {}, false}}) {
    const auto what = fidelity.model + " x " + std::to_string(fidelity.compute_scale);
    const auto judged = oracle.judge(two, fidelity);
    ASSERT_EQ(judged.size(), 2U) << what;
    const auto config = with(base_config(), fidelity);
    for (std::size_t k = 0; k < two.size(); ++k) {
      const auto result = sim::simulate(cg_trace(), *topology, two[k], config);
      const auto expected = sim::replay_energy(result, *topology, config.links).joules();
      EXPECT_GT(judged[k].energy_joules, 0) << what << ", mapping " << k;
      EXPECT_DOUBLE_EQ(judged[k].energy_joules, expected) << what << ", mapping " << k;
    }
    EXPECT_NE(judged[0].energy_joules, judged[1].energy_joules) << what;
  }
}

// With idle 0 W, busy 1 W and no energy per bit on every class, a replay's energy is the busy
// time of its resources: the judgement's link busy times plus the nodes' channels' (CG's
// transpose exchange sends some ranks' data to themselves, through their node's channel). At
// 1 GB/s on the grid links and the channels alike, each is exact in picoseconds: 1 byte, 1 ns.
TEST(ReplayOracle, UnitBusyPowerMakesTheEnergyTheBusyTime) {
  const auto topology = topo::make_topology("torus:2x2x2");
  for (topo::LinkId l = 0; l < topology->link_count(); ++l)
    ASSERT_EQ(topology->link(l).link_class, topo::LinkClass::Grid) << l;
  auto config = base_config();
  config.links = config.links.with(topo::LinkClass::IntraNode,
                                   {1e9, config.links[topo::LinkClass::IntraNode].latency});
  for (const auto& info : topo::link_classes())
    config.links = config.links.with_energy(info.id, {0, 0, 1});
  const auto oracle = make_oracle(*topology, config);
  const auto mappings = some_mappings(*topology);
  const auto judged = oracle.judge(mappings, map::Fidelity{"flow", 0, {}, false});
  ASSERT_EQ(judged.size(), mappings.size());
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    SCOPED_TRACE("mapping " + std::to_string(k));
    const auto result =
        sim::simulate(cg_trace(), *topology, mappings[k], with(config, {"flow", 0}));
    std::int64_t links = 0;
    for (const auto busy : judged[k].link_busy) links += busy;
    std::int64_t channels = 0;
    for (auto r = static_cast<std::size_t>(result.link_count); r < result.resource_busy.size(); ++r)
      channels += result.resource_busy[r];
    std::int64_t bytes = 0;
    for (const auto b : result.resource_bytes) bytes += b;
    ASSERT_GT(links, 0);
    EXPECT_GT(channels, 0);                     // the self-sends
    EXPECT_EQ(links + channels, 1000 * bytes);  // 1000 ps a byte everywhere
    const auto busy = static_cast<double>(links + channels) * 1e-12;
    EXPECT_GT(judged[k].energy_joules, 0);
    EXPECT_NEAR(judged[k].energy_joules, busy, busy * 1e-12);
  }
}

}  // namespace
}  // namespace mapsim::tuning
