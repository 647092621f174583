// replay-search with a fake time oracle whose "replayed makespan" is the mapping's hop-bytes:
// the search keeps the portfolio's best and improves on it, stays within its budget of replays,
// is the same at any thread count, asks for the fidelities of its parameters, checks its
// portfolio, skips the members that refuse the machine and only ever asks about valid mappings.
// The real oracle over the simulator: tests/tuning/ReplayOracle_test.cpp.

#include "mappers/ReplaySearch.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

/// What the fake charges for one mapping: every byte of the matrix times the hops it travels
/// (hop-bytes). Each rank finishes at the hop-bytes of what it sends and receives; each link is
/// busy for the bytes routed over it.
Judgement hop_bytes_judgement(const traces::CommMatrix& matrix, const topo::Topology& topology,
                              const topo::Mapping& mapping) {
  Judgement j;
  j.rank_finish.assign(static_cast<std::size_t>(matrix.rank_count()), 0);
  j.link_busy.assign(static_cast<std::size_t>(topology.link_count()), 0);
  std::vector<topo::LinkId> route;
  for (Rank src = 0; src < matrix.rank_count(); ++src) {
    const auto destinations = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    for (std::size_t k = 0; k < destinations.size(); ++k) {
      const auto a = mapping.node(src);
      const auto b = mapping.node(destinations[k]);
      const auto cost = static_cast<std::int64_t>(traffic[k].bytes) * topology.hops(a, b);
      j.makespan += cost;
      j.rank_finish[static_cast<std::size_t>(src)] += cost;
      j.rank_finish[static_cast<std::size_t>(destinations[k])] += cost;
      if (a == b) continue;
      route.clear();
      topology.route_into(a, b, route);
      for (const auto l : route)
        j.link_busy[static_cast<std::size_t>(l)] += static_cast<std::int64_t>(traffic[k].bytes);
    }
  }
  return j;
}

/// A TimeOracle that "replays" by hop_bytes_judgement (or charges every mapping the same when
/// flat), counting what it is asked and checking that every mapping is a valid one of every rank.
class FakeOracle final : public TimeOracle {
 public:
  FakeOracle(const topo::Topology& topology, const traces::CommMatrix& matrix, bool flat = false)
      : topology_(topology), matrix_(matrix), flat_(flat) {}

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }

  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity& fidelity) const override {
    calls_.fetch_add(1);
    judged_.fetch_add(static_cast<std::int64_t>(mappings.size()));
    {
      const std::lock_guard lock(mutex_);
      fidelities_.push_back(fidelity);
    }
    std::vector<Judgement> judgements(mappings.size());
    tbb::parallel_for(std::size_t{0}, mappings.size(), [&](std::size_t k) {
      const auto& m = mappings[k];
      bool valid = m.rank_count() == matrix_.rank_count();
      try {
        topo::validate(m, topology_);
      } catch (const InputError&) {
        valid = false;
      }
      if (!valid) {
        invalid_.fetch_add(1);
        return;
      }
      judgements[k] = hop_bytes_judgement(matrix_, topology_, m);
      if (flat_) judgements[k].makespan = 1000;
    });
    return judgements;
  }

  void report(std::string_view text) const override {
    const std::lock_guard lock(mutex_);
    reported_ += text;
  }
  void progress(std::string_view line) const override {
    const std::lock_guard lock(mutex_);
    progress_.emplace_back(line);
  }

  [[nodiscard]] std::int64_t calls() const { return calls_.load(); }
  [[nodiscard]] std::vector<std::string> progress_lines() const {
    const std::lock_guard lock(mutex_);
    return progress_;
  }
  [[nodiscard]] std::int64_t judged() const { return judged_.load(); }
  [[nodiscard]] std::int64_t invalid() const { return invalid_.load(); }
  [[nodiscard]] std::vector<Fidelity> fidelities() const {
    const std::lock_guard lock(mutex_);
    return fidelities_;
  }
  [[nodiscard]] std::string reported() const {
    const std::lock_guard lock(mutex_);
    return reported_;
  }

 private:
  const topo::Topology& topology_;
  const traces::CommMatrix& matrix_;
  bool flat_ = false;
  mutable std::atomic<std::int64_t> calls_{0};
  mutable std::atomic<std::int64_t> judged_{0};
  mutable std::atomic<std::int64_t> invalid_{0};
  mutable std::mutex mutex_;
  mutable std::vector<Fidelity> fidelities_;
  mutable std::string reported_;
  mutable std::vector<std::string> progress_;
};

std::int64_t makespan(const traces::CommMatrix& matrix, const topo::Topology& topology,
                      const topo::Mapping& mapping) {
  return hop_bytes_judgement(matrix, topology, mapping).makespan;
}

/// One member of a portfolio as replay-search's `portfolio` spells it: NAME or NAME:k=v:k=v.
struct Member {
  std::string label;
  std::string name;
  ParamList params;
};

std::vector<Member> parse_members(const std::string& text) {
  std::vector<Member> members;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    Member member;
    member.label = text.substr(start, comma - start);
    auto colon = std::min(member.label.find(':'), member.label.size());
    member.name = member.label.substr(0, colon);
    while (colon < member.label.size()) {
      const auto at = colon + 1;
      colon = std::min(member.label.find(':', at), member.label.size());
      const auto item = member.label.substr(at, colon - at);
      const auto eq = item.find('=');
      member.params.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    members.push_back(std::move(member));
    start = comma + 1;
  }
  return members;
}

std::string default_portfolio() {
  for (const auto& spec : replay_search_params()) {
    if (spec.key == "portfolio") return std::string(spec.default_value);
  }
  ADD_FAILURE() << "replay-search has no portfolio parameter";
  return {};
}

/// Each member's own mapping (nothing for a member that refuses), in portfolio order.
std::vector<std::optional<topo::Mapping>> member_mappings(const std::vector<Member>& members,
                                                          const traces::CommMatrix& matrix,
                                                          const topo::Topology& topology,
                                                          Seed seed) {
  std::vector<std::optional<topo::Mapping>> mappings;
  for (const auto& member : members) {
    try {
      mappings.emplace_back(make_mapper(member.name, member.params)->map(matrix, topology, seed));
    } catch (const InputError&) {
      mappings.emplace_back();
    }
  }
  return mappings;
}

struct Instance {
  const char* machine;
  traces::CommMatrix matrix;
};

// Small machines of several kinds: a torus, a mesh with two cores per node, more nodes than
// ranks, nodes of two sockets, an allocation, a hierarchy (random-router and group-striped are
// not in the default portfolio; treematch is).
std::vector<Instance> instances() {
  return {
      {"torus:4x4", testing::stencil_2d(4, 4, true)},
      {"mesh:4x2:cores=2", testing::lu_wavefront(4, 4)},
      {"torus:6x6", testing::random_matrix(20, 3, 2)},
      {"torus:2x2:cores=4:sockets=2", testing::random_matrix(12, 3, 5)},
      {"torus:4x4:allocation=0-5,10-15", testing::random_matrix(10, 3, 6)},
      {"fattree:2;4,4;1,2;1,2", testing::all_to_all_groups(16, 4)},
  };
}

topo::Mapping search(const traces::CommMatrix& matrix, const topo::Topology& topology,
                     const TimeOracle& oracle, const ParamList& params = {}, Seed seed = 0) {
  return make_mapper("replay-search", params)->map(matrix, topology, seed, &oracle);
}

/// The message of the InputError building replay-search with `params` throws, or "(no error)".
std::string construction_error(const ParamList& params) {
  try {
    (void)make_mapper("replay-search", params);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReplaySearch, NeedsATraceWithoutAnOracle) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::stencil_2d(4, 4, true);
  try {
    (void)make_mapper("replay-search")->map(matrix, *machine, 0);
    ADD_FAILURE() << "replay-search mapped without an oracle";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("needs a trace"));
  }
  EXPECT_TRUE(make_mapper("replay-search")->needs_oracle());
  EXPECT_TRUE(find_mapper("replay-search").replays);
  EXPECT_FALSE(make_mapper("in-order")->needs_oracle());
}

// 4 ranks on a ring of 8 nodes of one core; only ranks 0 and 3 talk, 1000 bytes. In order they
// sit on nodes 0 and 3: 3 hops, makespan 3000 under the fake. They cannot share a node (one core
// each), so the best is adjacent nodes: 1 hop, 1000. Every move the search draws takes one end
// of the only pair (0, 3) next to the other: onto the other's node (a swap, still 3 hops) or a
// node one hop from it (1 hop, strictly faster, so taken); the first round's reflections and
// rotations of the ring keep 3 hops. It ends at 1000, never below: that would need 0 hops.
TEST(ReplaySearch, BringsTheHeavyPairNextToEachOtherOnARing) {
  const auto machine = topo::make_topology("torus:8");
  traces::CommMatrixBuilder builder(4);
  builder.add(0, 3, 1, 1000);
  const auto matrix = builder.build();
  const FakeOracle oracle(*machine, matrix);
  const auto start = make_mapper("in-order")->map(matrix, *machine);
  ASSERT_EQ(machine->hops(start.node(0), start.node(3)), 3);
  const auto mapping = search(matrix, *machine, oracle, {{"portfolio", "in-order"}});
  EXPECT_EQ(machine->hops(mapping.node(0), mapping.node(3)), 1);
  EXPECT_EQ(makespan(matrix, *machine, mapping), 1000);
  EXPECT_EQ(oracle.invalid(), 0);
  EXPECT_THAT(oracle.reported(), HasSubstr("start: in-order"));
}

// Every portfolio member's mapping was replayed and only faster ones replace the incumbent, so
// the result is no slower than any member's (under the fake: hop-bytes).
TEST(ReplaySearch, NeverWorseThanAnyPortfolioMember) {
  const auto members = parse_members(default_portfolio());
  ASSERT_GE(members.size(), 5U);
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const FakeOracle oracle(*machine, instance.matrix);
    const auto mapping = search(instance.matrix, *machine, oracle, {{"evaluations", "60"}}, 3);
    EXPECT_EQ(oracle.invalid(), 0);
    const auto found = makespan(instance.matrix, *machine, mapping);
    const auto own = member_mappings(members, instance.matrix, *machine, 3);
    int mapped = 0;
    for (std::size_t k = 0; k < members.size(); ++k) {
      if (!own[k]) continue;
      ++mapped;
      EXPECT_LE(found, makespan(instance.matrix, *machine, *own[k])) << members[k].label;
    }
    EXPECT_GE(mapped, 5);
  }
}

// With no replays for the improvement, the result is the portfolio's fastest mapping as that
// member computed it, the earliest member among equals.
TEST(ReplaySearch, WithoutEvaluationsTakesTheBestPortfolioMember) {
  const auto members = parse_members(default_portfolio());
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const FakeOracle oracle(*machine, instance.matrix);
    const auto mapping = search(instance.matrix, *machine, oracle, {{"evaluations", "0"}}, 5);
    const auto own = member_mappings(members, instance.matrix, *machine, 5);
    std::optional<std::size_t> best;
    for (std::size_t k = 0; k < members.size(); ++k) {
      if (!own[k]) continue;
      if (!best || makespan(instance.matrix, *machine, *own[k]) <
                       makespan(instance.matrix, *machine, *own[*best]))
        best = k;
    }
    ASSERT_TRUE(best.has_value());
    EXPECT_EQ(mapping, *own[*best]) << members[*best].label;
    EXPECT_EQ(oracle.calls(), 1);  // the portfolio only
  }
}

// No traffic: every mapping costs 0, so the first member wins, whichever it is.
TEST(ReplaySearch, TiesGoToTheEarlierPortfolioMember) {
  const auto machine = topo::make_topology("torus:8");
  const traces::CommMatrix silent(4);
  const FakeOracle oracle(*machine, silent);
  const auto in_order = make_mapper("in-order")->map(silent, *machine, 7);
  const auto random = make_mapper("random")->map(silent, *machine, 7);
  ASSERT_NE(in_order, random);
  EXPECT_EQ(
      search(silent, *machine, oracle, {{"portfolio", "random,in-order"}, {"evaluations", "0"}}, 7),
      random);
  EXPECT_EQ(
      search(silent, *machine, oracle, {{"portfolio", "in-order,random"}, {"evaluations", "0"}}, 7),
      in_order);
}

// The replays after the portfolio's, screened and confirmed alike, stay within `evaluations`;
// the portfolio's are one per distinct mapping.
TEST(ReplaySearch, StaysWithinItsBudgetOfReplays) {
  const auto members = parse_members(default_portfolio());
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 8);
  const auto own = member_mappings(members, matrix, *machine, 0);
  std::vector<topo::Mapping> distinct;
  for (const auto& m : own) {
    if (m && std::find(distinct.begin(), distinct.end(), *m) == distinct.end())
      distinct.push_back(*m);
  }
  const auto portfolio = static_cast<std::int64_t>(distinct.size());
  for (const std::int64_t evaluations : {0, 17, 18, 37, 100}) {
    for (const auto* screen : {"analytic", "flow"}) {
      SCOPED_TRACE(std::to_string(evaluations) + " evaluations, screen " + screen);
      const FakeOracle oracle(*machine, matrix);
      (void)search(matrix, *machine, oracle,
                   {{"evaluations", std::to_string(evaluations)},
                    {"screen", screen},
                    {"batch", "16"},
                    {"confirm", "2"}});
      EXPECT_LE(oracle.judged(), portfolio + evaluations);
      EXPECT_GE(oracle.judged(), portfolio);
      // A round with screening replays batch + confirm = 16 + 2 = 18 at most, so 17 allows none.
      if (evaluations < 18 && std::string(screen) == "analytic") {
        EXPECT_EQ(oracle.judged(), portfolio);
      }
    }
  }
}

// Nothing ever improves (every mapping costs the same), so every round stalls: with screening a
// round asks twice (screen, then confirm), without it once, after the portfolio's one call.
TEST(ReplaySearch, StopsAfterStallRoundsWithoutGain) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 9);
  {
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle, {{"stall", "3"}, {"evaluations", "100000"}});
    EXPECT_EQ(oracle.calls(), 1 + 2 * 3);
    // A progress line after the portfolio and after each of the three rounds, in order.
    const auto lines = oracle.progress_lines();
    ASSERT_EQ(lines.size(), 4U);
    EXPECT_THAT(lines[0], HasSubstr("portfolio of"));
    for (std::size_t k = 1; k < lines.size(); ++k)
      EXPECT_THAT(lines[k], HasSubstr(fmt::format("round {}, ", k)));
    EXPECT_THAT(lines[3], HasSubstr("(+0.00 %)"));  // flat: no move gains
  }
  {
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle,
                 {{"stall", "3"}, {"evaluations", "100000"}, {"screen", "flow"}});
    EXPECT_EQ(oracle.calls(), 1 + 3);
  }
}

// The portfolio and the confirmations under `model` with `compute-scale`, the screening under
// `screen` with the same scale; no screening when screen is the model.
TEST(ReplaySearch, AsksForTheFidelitiesOfItsParameters) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  {
    const FakeOracle oracle(*machine, matrix);
    (void)search(matrix, *machine, oracle,
                 {{"evaluations", "40"}, {"batch", "16"}, {"confirm", "2"}});
    // The portfolio under flow, then rounds of a screening under analytic and a confirmation
    // under flow; 40 replays allow two rounds of at most 16 + 2. Only the flow replays list the
    // critical path's transfers (the moves draw from the incumbent's).
    const auto asked = oracle.fidelities();
    ASSERT_GE(asked.size(), 3U);
    EXPECT_EQ(asked.size() % 2, 1U);
    for (std::size_t k = 0; k < asked.size(); ++k) {
      EXPECT_EQ(asked[k], (Fidelity{k % 2 == 1 ? "analytic" : "flow", 0, 0, k % 2 == 0})) << k;
    }
  }
  {
    const FakeOracle oracle(*machine, matrix);
    (void)search(matrix, *machine, oracle,
                 {{"evaluations", "40"},
                  {"model", "packet"},
                  {"screen", "packet"},
                  {"compute-scale", "0.5"}});
    const auto asked = oracle.fidelities();
    ASSERT_GE(asked.size(), 2U);  // the portfolio, then rounds of one replay each
    for (const auto& f : asked) EXPECT_EQ(f, (Fidelity{"packet", 0.5, 0, true}));
  }
}

/// A TimeOracle whose slice (Fidelity::iterations > 0) costs hop-bytes but whose whole workload
/// costs 1 for in-order's mapping and 1000 + hop-bytes for any other: what is fastest on a slice
/// need not be on the whole. Records the iterations of every call.
class SliceOracle final : public TimeOracle {
 public:
  SliceOracle(const topo::Topology& topology, const traces::CommMatrix& matrix)
      : topology_(topology),
        matrix_(matrix),
        in_order_(make_mapper("in-order")->map(matrix, topology)) {}

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }
  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity& fidelity) const override {
    iterations_.push_back(fidelity.iterations);
    std::vector<Judgement> out;
    for (const auto& m : mappings) {
      auto j = hop_bytes_judgement(matrix_, topology_, m);
      if (fidelity.iterations == 0) j.makespan = m == in_order_ ? 1 : 1000 + j.makespan;
      out.push_back(std::move(j));
    }
    return out;
  }
  void report(std::string_view text) const override { reported_ += text; }

  std::vector<std::int64_t> iterations() const { return iterations_; }
  std::string reported() const { return reported_; }

 private:
  const topo::Topology& topology_;
  const traces::CommMatrix& matrix_;
  topo::Mapping in_order_;
  mutable std::vector<std::int64_t> iterations_;  // judge() is called from one thread
  mutable std::string reported_;
};

// train=2: the portfolio and the rounds replay 2 iterations; then the choice and every distinct
// portfolio mapping are replayed whole, and the fastest is kept. Here the slice prefers the
// hop-bytes optimum, the whole workload in-order's mapping (cost 1): the result is in-order's.
TEST(ReplaySearch, ChoosesOnTheSliceAndKeepsWhatIsFastestOnTheWhole) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const SliceOracle oracle(*machine, matrix);
  const auto mapping =
      search(matrix, *machine, oracle,
             {{"train", "2"}, {"evaluations", "40"}, {"portfolio", "random,in-order,best"}});
  EXPECT_EQ(mapping, make_mapper("in-order")->map(matrix, *machine));
  const auto asked = oracle.iterations();
  ASSERT_GE(asked.size(), 2U);
  for (std::size_t k = 0; k + 1 < asked.size(); ++k) EXPECT_EQ(asked[k], 2) << k;
  EXPECT_EQ(asked.back(), 0);
  EXPECT_THAT(oracle.reported(), HasSubstr("whole workload: the choice on 2 iterations"));
  EXPECT_THAT(oracle.reported(), HasSubstr("taken instead"));
  // Without train=, every replay is of the whole workload and nothing is replayed again.
  const SliceOracle whole(*machine, matrix);
  (void)search(matrix, *machine, whole, {{"evaluations", "40"}, {"portfolio", "random,in-order"}});
  for (const auto n : whole.iterations()) EXPECT_EQ(n, 0);
  EXPECT_THAT(whole.reported(), Not(HasSubstr("whole workload")));
}

TEST(ReplaySearch, TheSameAtAnyThreadCountAndOnEveryRun) {
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const ParamList params{{"evaluations", "80"}};
    topo::Mapping one;
    {
      const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      const FakeOracle oracle(*machine, instance.matrix);
      one = search(instance.matrix, *machine, oracle, params, 11);
    }
    topo::Mapping two;
    {
      const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      const FakeOracle oracle(*machine, instance.matrix);
      two = search(instance.matrix, *machine, oracle, params, 11);
    }
    EXPECT_EQ(one, two);
    const FakeOracle oracle(*machine, instance.matrix);
    EXPECT_EQ(search(instance.matrix, *machine, oracle, params, 11), one);
    // Another seed may find another mapping (not asserted either way), but a valid one.
    const FakeOracle other(*machine, instance.matrix);
    EXPECT_NO_THROW(topo::validate(search(instance.matrix, *machine, other, params, 12), *machine));
  }
}

TEST(ReplaySearch, RejectsBadPortfolios) {
  EXPECT_THAT(construction_error({{"portfolio", "in-order,nosuch"}}),
              AllOf(HasSubstr("portfolio item 'nosuch'"), HasSubstr("unknown mapper 'nosuch'")));
  EXPECT_THAT(construction_error({{"portfolio", "in-order,replay-search"}}),
              HasSubstr("cannot contain replay-search itself"));
  EXPECT_THAT(construction_error({{"portfolio", "in-order,replay-search:evaluations=3"}}),
              HasSubstr("cannot contain replay-search itself"));
  for (const auto* empty : {"in-order,,random", "in-order,", " ", ""}) {
    EXPECT_THAT(construction_error({{"portfolio", empty}}), HasSubstr("has an empty item"))
        << "'" << empty << "'";
  }
  EXPECT_THAT(
      construction_error({{"portfolio", "in-order,best:objective=nonsense"}}),
      AllOf(HasSubstr("portfolio item 'best:objective=nonsense'"), HasSubstr("'nonsense'")));
  EXPECT_THAT(construction_error({{"portfolio", "scotch:runz=2"}}),
              AllOf(HasSubstr("portfolio item 'scotch:runz=2'"), HasSubstr("'runz'")));
  EXPECT_THAT(construction_error({{"portfolio", "greedy:weight"}}),
              AllOf(HasSubstr("portfolio item 'greedy:weight'"), HasSubstr("key=value")));
  // A member with good parameters is fine.
  EXPECT_EQ(construction_error({{"portfolio", " in-order , best:objective=congestion:work=10"}}),
            "(no error)");
}

TEST(ReplaySearch, RejectsUnknownKeysAndBadValues) {
  EXPECT_EQ(construction_error({}), "(no error)");
  EXPECT_THAT(construction_error({{"evaluations", "-1"}}), HasSubstr("evaluations"));
  EXPECT_THAT(construction_error({{"evaluations", "many"}}), HasSubstr("evaluations"));
  EXPECT_THAT(construction_error({{"model", "wrong"}}),
              AllOf(HasSubstr("model"), HasSubstr("wrong")));
  EXPECT_THAT(construction_error({{"screen", "static"}}), HasSubstr("screen"));
  EXPECT_THAT(construction_error({{"batch", "0"}}), HasSubstr("batch"));
  EXPECT_THAT(construction_error({{"confirm", "0"}}), HasSubstr("confirm"));
  EXPECT_THAT(construction_error({{"stall", "0"}}), HasSubstr("stall"));
  EXPECT_THAT(construction_error({{"compute-scale", "-1"}}), HasSubstr("compute-scale"));
  EXPECT_THAT(construction_error({{"time-limit", "-2"}}), HasSubstr("time-limit"));
  EXPECT_THAT(construction_error({{"evaluation", "3"}}),
              AllOf(HasSubstr("mapper 'replay-search'"), HasSubstr("unknown parameter")));
}

// random-router needs routers and groups, which a 1-D torus lacks: it is skipped and named; the
// others still map. When no member can map, there is nothing to search from.
TEST(ReplaySearch, SkipsPortfolioMembersThatRefuseTheMachine) {
  const auto machine = topo::make_topology("torus:8");
  const auto matrix = testing::random_matrix(6, 2, 12);
  const FakeOracle oracle(*machine, matrix);
  const auto mapping = search(matrix, *machine, oracle,
                              {{"portfolio", "random-router,in-order"}, {"evaluations", "0"}});
  EXPECT_EQ(mapping, make_mapper("in-order")->map(matrix, *machine));
  EXPECT_THAT(oracle.reported(), HasSubstr("portfolio: random-router skipped"));
  EXPECT_THAT(oracle.reported(), Not(HasSubstr("in-order skipped")));
  EXPECT_EQ(oracle.judged(), 1);

  const FakeOracle none(*machine, matrix);
  try {
    (void)search(matrix, *machine, none, {{"portfolio", "random-router,group-striped"}});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no portfolio mapper could map onto torus:8"));
  }
  EXPECT_EQ(none.calls(), 0);
}

// Bhatele's mxovlp lays slabs on the planes of a whole grid and refuses an allocation: it is
// skipped the same way.
TEST(ReplaySearch, SkipsGridHeuristicsOnAnAllocation) {
  const auto machine = topo::make_topology("torus:4x4:allocation=0-5,10-15");
  const auto matrix = testing::stencil_2d(4, 3, false);
  const FakeOracle oracle(*machine, matrix);
  const auto mapping =
      search(matrix, *machine, oracle, {{"portfolio", "mxovlp,greedy"}, {"evaluations", "0"}});
  EXPECT_EQ(mapping, make_mapper("greedy")->map(matrix, *machine));
  EXPECT_THAT(oracle.reported(), HasSubstr("portfolio: mxovlp skipped: mapper 'mxovlp'"));
  EXPECT_THAT(oracle.reported(), HasSubstr("start: greedy"));
}

TEST(ReplaySearch, ReportsThePortfolioAndTheImprovement) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 13);
  const FakeOracle oracle(*machine, matrix);
  (void)search(matrix, *machine, oracle,
               {{"portfolio", "in-order,round-robin"}, {"evaluations", "40"}});
  const auto report = oracle.reported();
  EXPECT_THAT(report, ::testing::StartsWith("replay-search: minimising the flow makespan"));
  EXPECT_THAT(report, HasSubstr("portfolio: in-order"));
  EXPECT_THAT(report, HasSubstr("portfolio: round-robin"));
  EXPECT_THAT(report, HasSubstr("improvement: "));
  EXPECT_THAT(report, HasSubstr("replays"));
}

// Nodes of four cores in two sockets, full and not: every candidate the search asks about, and
// its result, name a core of their own for each rank on its node.
TEST(ReplaySearch, KeepsCoresValidOnNodesWithSockets) {
  const auto machine = topo::make_topology("torus:2x2:cores=4:sockets=2");
  for (const int ranks : {16, 12, 7}) {
    SCOPED_TRACE(ranks);
    const auto matrix = testing::random_matrix(ranks, 3, 14);
    const FakeOracle oracle(*machine, matrix);
    const auto mapping = search(matrix, *machine, oracle, {{"evaluations", "120"}});
    EXPECT_NO_THROW(topo::validate(mapping, *machine));
    EXPECT_EQ(oracle.invalid(), 0);
    EXPECT_GT(oracle.judged(), 20);  // it did search
  }
}

// On an allocation every candidate stays on the allocated nodes.
TEST(ReplaySearch, StaysInTheAllocation) {
  const auto machine = topo::make_topology("mesh:8x8:allocation=0-7,16-23,40,42,44,46,60-63");
  const auto matrix = testing::stencil_2d(4, 5, false);
  const FakeOracle oracle(*machine, matrix);
  const auto mapping = search(matrix, *machine, oracle, {{"evaluations", "120"}});
  EXPECT_NO_THROW(topo::validate(mapping, *machine));
  EXPECT_EQ(oracle.invalid(), 0);
}

}  // namespace
}  // namespace mapsim::map
