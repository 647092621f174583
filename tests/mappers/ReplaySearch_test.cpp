// replay-search with a fake time oracle whose "replayed makespan" is the mapping's hop-bytes:
// the search keeps the portfolio's best and improves on it, stays within its budget of replays,
// is the same at any thread count, asks for the fidelities of its parameters, checks its
// portfolio, skips the members that refuse the machine and only ever asks about valid mappings.
// Its objectives, with oracles whose makespan and energy the test chooses: time, energy and
// time+energy (relative to the portfolio's first mapping) each take their own portfolio member;
// under energy the search never ends above the portfolio's least energy, and with train= keeps
// the finalist of least energy on the whole workload; time+energy screens against one more
// replay of the reference (within the budget), reports it, and is the same at any thread count;
// an unknown objective is rejected.
// The real oracle over the simulator: tests/tuning/ReplayOracle_test.cpp.

#include "mappers/ReplaySearch.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "mappers/LocalSearch.hpp"
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
/// flat, or every analytic replay the same when flat_screen), counting what it is asked and
/// checking that every mapping is a valid one of every rank.
class FakeOracle final : public TimeOracle {
 public:
  FakeOracle(const topo::Topology& topology, const traces::CommMatrix& matrix, bool flat = false,
             bool flat_screen = false)
      : topology_(topology), matrix_(matrix), flat_(flat), flat_screen_(flat_screen) {}

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }

  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity& fidelity) const override {
    calls_.fetch_add(1);
    judged_.fetch_add(static_cast<std::int64_t>(mappings.size()));
    {
      const std::lock_guard lock(mutex_);
      fidelities_.push_back(fidelity);
      for (const auto& m : mappings) asked_.emplace_back(m, fidelity);
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
      if (flat_ || (flat_screen_ && fidelity.model == "analytic")) judgements[k].makespan = 1000;
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
  /// Every mapping judged, with its fidelity, in the order asked.
  [[nodiscard]] std::vector<std::pair<topo::Mapping, Fidelity>> asked() const {
    const std::lock_guard lock(mutex_);
    return asked_;
  }
  [[nodiscard]] std::string reported() const {
    const std::lock_guard lock(mutex_);
    return reported_;
  }

 private:
  const topo::Topology& topology_;
  const traces::CommMatrix& matrix_;
  bool flat_ = false;
  bool flat_screen_ = false;
  mutable std::atomic<std::int64_t> calls_{0};
  mutable std::atomic<std::int64_t> judged_{0};
  mutable std::atomic<std::int64_t> invalid_{0};
  mutable std::mutex mutex_;
  mutable std::vector<Fidelity> fidelities_;
  mutable std::vector<std::pair<topo::Mapping, Fidelity>> asked_;
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

// The default portfolio holds a halo grid's tiles even when the matrix counts the collectives:
// an 8x8 stencil whose rank 0 also sends every rank 8 bytes, on torus:4x4x4, has members that
// lay it in 4x4 tiles, tile (tx, ty) on plane tx + 2 ty, the same way and mirrored.
TEST(ReplaySearch, ThePortfolioHoldsTheHaloGridsTiles) {
  const auto matrix = testing::stencil_2d_with_broadcast(8, 8, 8);
  const auto machine = topo::make_topology("torus:4x4x4");
  std::vector<topo::NodeId> same(64);
  std::vector<topo::NodeId> mirrored(64);
  for (Rank r = 0; r < 64; ++r) {
    const int x = r % 8;
    const int y = r / 8;
    const int plane = x / 4 + 2 * (y / 4);
    same[static_cast<std::size_t>(r)] = x % 4 + 4 * (y % 4 + 4 * plane);
    const int ix = x / 4 == 1 ? 3 - x % 4 : x % 4;
    const int iy = y / 4 == 1 ? 3 - y % 4 : y % 4;
    mirrored[static_cast<std::size_t>(r)] = ix + 4 * (iy + 4 * plane);
  }
  const auto members = parse_members(default_portfolio());
  const auto own = member_mappings(members, matrix, *machine, 0);
  auto held = [&](const std::vector<topo::NodeId>& nodes) {
    return std::any_of(own.begin(), own.end(), [&](const auto& mapping) {
      return mapping &&
             std::vector<topo::NodeId>(mapping->nodes().begin(), mapping->nodes().end()) == nodes;
    });
  };
  EXPECT_TRUE(held(same));
  EXPECT_TRUE(held(mirrored));
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
    (void)search(matrix, *machine, oracle,
                 {{"stall", "3"}, {"evaluations", "100000"}, {"plateau", "0"}});
    EXPECT_EQ(oracle.calls(), 1 + 2 * 3);
    // A progress line after the portfolio and after each of the three rounds, in order.
    const auto lines = oracle.progress_lines();
    ASSERT_EQ(lines.size(), 4U);
    EXPECT_THAT(lines[0], HasSubstr("portfolio of"));
    for (std::size_t k = 1; k < lines.size(); ++k)
      EXPECT_THAT(lines[k], HasSubstr(fmt::format("round {}, ", k)));
    EXPECT_THAT(lines[3], HasSubstr("(no change)"));  // flat: no move gains
    // Every confirmation (four a round) costs what the incumbent does.
    EXPECT_THAT(oracle.reported(),
                HasSubstr("  12 of 12 confirmed candidates tied the incumbent exactly\n"));
  }
  {
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle,
                 {{"stall", "3"}, {"evaluations", "100000"}, {"screen", "flow"}});
    EXPECT_EQ(oracle.calls(), 1 + 3);
  }
}

/// The number before `what` in `report` (the "4" of "4 of 9 confirmed" for " of 9 confirmed"),
/// or -1 if `what` is not there.
long count_before(const std::string& report, const std::string& what) {
  const auto at = report.find(what);
  if (at == std::string::npos) return -1;
  auto start = report.rfind(' ', at - 1);
  start = start == std::string::npos ? 0 : start + 1;
  return std::stol(report.substr(start, at - start));
}

// The improvement line ends with what stopped the rounds: a budget too small for one round (with
// the replays a round needs), the budget spent, the stall rule (and the plateau rule's part in
// it), or the time limit, which counts from the start of the mapping.
TEST(ReplaySearch, ReportsWhyTheRoundsStopped) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 9);
  const auto stopped_by = [&](const ParamList& params, bool flat) {
    const FakeOracle oracle(*machine, matrix, flat);
    (void)search(matrix, *machine, oracle, params);
    const auto report = oracle.reported();
    const auto at = report.find("; stopped: ");
    if (at == std::string::npos) return "(no stop reason) " + report;
    return report.substr(at + 11, report.find('\n', at) - at - 11);
  };
  // A round screens batch (16) and confirms confirm (4): 20 replays.
  EXPECT_EQ(stopped_by({{"evaluations", "10"}}, false),
            "evaluations=10 is too small for one round, which needs batch 16 + confirm 4 = 20 "
            "replays");
  EXPECT_EQ(stopped_by({{"evaluations", "10"}, {"screen", "flow"}}, false),
            "evaluations=10 is too small for one round, which needs batch 16 = 16 replays");
  // Flat: nothing gains. 45 replays: two rounds of 20, then 5 left.
  EXPECT_EQ(stopped_by({{"evaluations", "45"}, {"stall", "100"}, {"plateau", "0"}}, true),
            "the evaluations budget (evaluations=45: 40 made, a round needs 20)");
  EXPECT_EQ(stopped_by({{"evaluations", "100000"}, {"stall", "3"}, {"plateau", "0"}}, true),
            "the stall rule (3 rounds without a gain, stall=3)");
  // plateau=2: the first round's four confirmations fail; the next four rounds' 16 screen-tied
  // candidates are left unconfirmed.
  EXPECT_EQ(stopped_by({{"evaluations", "100000"}, {"stall", "5"}, {"plateau", "2"}}, true),
            "the stall rule (5 rounds without a gain, stall=5); in them the plateau rule "
            "(plateau=2) left 16 candidates tied with the incumbent's screen unconfirmed");
  // The portfolio alone takes longer than a nanosecond: no round starts.
  EXPECT_THAT(stopped_by({{"evaluations", "100000"}, {"time-limit", "1e-9"}}, false),
              ::testing::StartsWith("the time limit (time-limit=1e-09 s, counted from the start "
                                    "of the mapping, the portfolio's included)"));
}

// Nothing improves, so every round draws from the same incumbent and draws some candidates again:
// those are looked up, not replayed again (the budget still counts them, as the report does).
TEST(ReplaySearch, ReplaysNoMappingTwiceAtOneFidelity) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 9);
  for (const auto* screen : {"analytic", "flow"}) {
    SCOPED_TRACE(screen);
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle,
                 {{"stall", "20"}, {"evaluations", "100000"}, {"screen", screen}});
    const auto asked = oracle.asked();
    for (std::size_t a = 0; a < asked.size(); ++a) {
      for (std::size_t b = a + 1; b < asked.size(); ++b) {
        EXPECT_FALSE(asked[a] == asked[b]) << "judged " << a << " and " << b;
      }
    }
    // The report counts the rounds' candidates (the budget's replays); fewer were replayed: all
    // but the portfolio's (its fidelity is the first asked, which no round asks again).
    const auto report = oracle.reported();
    EXPECT_EQ(count_before(report, " rounds, "), 20) << report;
    const auto counted = count_before(report, " replays, ");
    const auto portfolio = std::count_if(asked.begin(), asked.end(), [&](const auto& m) {
      return m.second == asked.front().second;
    });
    EXPECT_LT(static_cast<long>(asked.size()) - portfolio, counted);
  }
}

// Every screen ties (flat): after `plateau` screen-tied confirmations without a gain, no more are
// confirmed for that incumbent; plateau=0 confirms them all.
TEST(ReplaySearch, LeavesAPlateauUnconfirmed) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 9);
  const ParamList base{{"stall", "5"}, {"evaluations", "100000"}, {"confirm", "4"}};
  // As the report counts them (candidates drawn again are looked up, not replayed again).
  const auto confirmations = [](const FakeOracle& oracle) {
    return count_before(oracle.reported(), " confirmed candidates tied the incumbent exactly");
  };
  {
    auto params = base;
    params.emplace_back("plateau", "2");
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle, params);
    // Round 1 confirms its 4 (all tie: 4 >= 2 failures); rounds 2 to 5 confirm none.
    EXPECT_EQ(confirmations(oracle), 4);
    const auto report = oracle.reported();
    EXPECT_EQ(count_before(report, " of 4 confirmed candidates tied the incumbent exactly"), 4)
        << report;
    EXPECT_EQ(count_before(report, " screened candidates tied their incumbent's screen"), 16)
        << report;
    EXPECT_THAT(report, HasSubstr("after 2 such had been confirmed without a gain"));
  }
  {
    auto params = base;
    params.emplace_back("plateau", "0");
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle, params);
    EXPECT_EQ(confirmations(oracle), 5 * 4);
    EXPECT_THAT(oracle.reported(), Not(HasSubstr("screened candidates tied")));
  }
}

// The screen cannot tell candidates apart but the model can: each round that takes a move forgets
// the old incumbent's failures, so that the search keeps confirming while moves gain.
TEST(ReplaySearch, ANewIncumbentStartsThePlateauCountAgain) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::stencil_2d(4, 4, true);
  const FakeOracle oracle(*machine, matrix, /*flat=*/false, /*flat_screen=*/true);
  (void)search(matrix, *machine, oracle,
               {{"portfolio", "random"}, {"plateau", "5"}, {"evaluations", "100000"}});
  const auto report = oracle.reported();
  const auto taken = count_before(report, " moves taken: ");
  // The first round's four reflections and rotations tie (the same hop-bytes); a round that
  // takes a move fails at most three more. Without the fresh count, two rounds would reach five
  // and leave every later round without confirmations: one move at most.
  EXPECT_GE(taken, 2) << report;
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
    // critical path's transfers (the moves draw from the incumbent's), and only the
    // confirmations may stop once past the incumbent's makespan.
    const auto asked = oracle.fidelities();
    ASSERT_GE(asked.size(), 3U);
    EXPECT_EQ(asked.size() % 2, 1U);
    for (std::size_t k = 0; k < asked.size(); ++k) {
      auto expected = Fidelity{k % 2 == 1 ? "analytic" : "flow", 0, {}, k % 2 == 0};
      if (k > 0 && k % 2 == 0) {
        EXPECT_GT(asked[k].stop_past, 0) << k;
        expected.stop_past = asked[k].stop_past;
      }
      EXPECT_EQ(asked[k], expected) << k;
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
    for (std::size_t k = 0; k < asked.size(); ++k) {
      auto expected = Fidelity{"packet", 0.5, {}, true};
      expected.stop_past = k == 0 ? 0 : asked[k].stop_past;
      EXPECT_EQ(asked[k], expected) << k;
      if (k > 0) {
        EXPECT_GT(asked[k].stop_past, 0) << k;
      }
    }
  }
  for (const auto* objective : {"energy", "time+energy"}) {
    // A replay stopped early says nothing about its energy: every replay runs to its end.
    const FakeOracle oracle(*machine, matrix);
    (void)search(matrix, *machine, oracle, {{"evaluations", "40"}, {"objective", objective}});
    ASSERT_GE(oracle.fidelities().size(), 3U) << objective;
    for (const auto& f : oracle.fidelities()) EXPECT_EQ(f.stop_past, 0) << objective;
  }
}

/// A TimeOracle whose slice (Fidelity::slice not whole) costs hop-bytes but whose whole workload
/// costs 1 for in-order's mapping and 1000 + hop-bytes for any other: what is fastest on a slice
/// need not be on the whole. Records the slice of every call.
class SliceOracle final : public TimeOracle {
 public:
  SliceOracle(const topo::Topology& topology, const traces::CommMatrix& matrix)
      : topology_(topology),
        matrix_(matrix),
        in_order_(make_mapper("in-order")->map(matrix, topology)) {}

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }
  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity& fidelity) const override {
    slices_.push_back(fidelity.slice);
    sizes_.push_back(mappings.size());
    std::vector<Judgement> out;
    for (const auto& m : mappings) {
      auto j = hop_bytes_judgement(matrix_, topology_, m);
      if (fidelity.slice.whole()) j.makespan = m == in_order_ ? 1 : 1000 + j.makespan;
      out.push_back(std::move(j));
    }
    return out;
  }
  void report(std::string_view text) const override { reported_ += text; }

  std::vector<Slice> slices() const { return slices_; }
  std::vector<std::size_t> sizes() const { return sizes_; }
  std::string reported() const { return reported_; }

 private:
  const topo::Topology& topology_;
  const traces::CommMatrix& matrix_;
  topo::Mapping in_order_;
  mutable std::vector<Slice> slices_;  // judge() is called from one thread
  mutable std::vector<std::size_t> sizes_;
  mutable std::string reported_;
};

// train=2, train-start=slice: the portfolio and the rounds replay 2 iterations; then the choice
// and every distinct portfolio mapping are replayed whole, and the fastest is kept. Here the
// slice prefers the hop-bytes optimum, the whole workload in-order's mapping (cost 1): the result
// is in-order's.
TEST(ReplaySearch, ChoosesOnTheSliceAndKeepsWhatIsFastestOnTheWhole) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const SliceOracle oracle(*machine, matrix);
  const auto mapping = search(matrix, *machine, oracle,
                              {{"train", "2"},
                               {"train-start", "slice"},
                               {"evaluations", "40"},
                               {"portfolio", "random,in-order,best"}});
  EXPECT_EQ(mapping, make_mapper("in-order")->map(matrix, *machine));
  const auto asked = oracle.slices();
  ASSERT_GE(asked.size(), 2U);
  for (std::size_t k = 0; k + 1 < asked.size(); ++k) EXPECT_EQ(asked[k], (Slice{2, 1})) << k;
  EXPECT_EQ(asked.back(), Slice{});
  EXPECT_THAT(oracle.reported(), HasSubstr("whole workload: the choice on 2 iterations"));
  EXPECT_THAT(oracle.reported(), HasSubstr("taken instead"));
  // Without train=, every replay is of the whole workload and nothing is replayed again.
  const SliceOracle whole(*machine, matrix);
  (void)search(matrix, *machine, whole, {{"evaluations", "40"}, {"portfolio", "random,in-order"}});
  for (const auto& slice : whole.slices()) EXPECT_EQ(slice, Slice{});
  EXPECT_THAT(whole.reported(), Not(HasSubstr("whole workload")));
}

// train-share=0.25: the same, on the consistent cut within a quarter of each rank's events; giving
// it with train=, or a share of 0, is refused.
TEST(ReplaySearch, ChoosesOnAShareOfTheEventsAndKeepsWhatIsFastestOnTheWhole) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const SliceOracle oracle(*machine, matrix);
  const auto mapping = search(matrix, *machine, oracle,
                              {{"train-share", "0.25"},
                               {"train-start", "slice"},
                               {"evaluations", "40"},
                               {"portfolio", "random,in-order,best"}});
  EXPECT_EQ(mapping, make_mapper("in-order")->map(matrix, *machine));
  const auto asked = oracle.slices();
  ASSERT_GE(asked.size(), 2U);
  for (std::size_t k = 0; k + 1 < asked.size(); ++k) EXPECT_EQ(asked[k], (Slice{0, 0.25})) << k;
  EXPECT_EQ(asked.back(), Slice{});
  EXPECT_THAT(oracle.reported(),
              HasSubstr("whole workload: the choice on 25 % of each rank's events"));
  EXPECT_THROW((void)make_mapper("replay-search", {{"train", "2"}, {"train-share", "0.5"}}),
               InputError);
  // 0 is refused with its value and the range (above 0, at most 1), as the help gives it.
  EXPECT_THAT(construction_error({{"train-share", "0"}}),
              HasSubstr("parameter 'train-share': 0 is out of range (above 0, at most 1)"));
  // Above the top: the same wording (it said "out of range [0, 1]", as if 0 were in it).
  EXPECT_THAT(construction_error({{"train-share", "1.5"}}),
              HasSubstr("parameter 'train-share': 1.5 is out of range (above 0, at most 1)"));
  EXPECT_THAT(describe_params(replay_search_params()),
              HasSubstr("train-share (number, above 0, at most 1, default 1)"));
  EXPECT_THROW((void)make_mapper("replay-search", {{"train-share", "1.5"}}), InputError);
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
  EXPECT_THAT(construction_error({{"objective", "bogus"}}),
              AllOf(HasSubstr("objective"), HasSubstr("'bogus'")));
  EXPECT_THAT(construction_error({{"objective", "Time"}}), HasSubstr("'Time'"));
  EXPECT_THAT(construction_error({{"energy-weight", "1.5"}}), HasSubstr("energy-weight"));
  EXPECT_THAT(construction_error({{"energy-weight", "-0.1"}}), HasSubstr("energy-weight"));
  for (const auto* objective : {"time", "energy", "time+energy"})
    EXPECT_EQ(construction_error({{"objective", objective}}), "(no error)") << objective;
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
  const auto mapping = search(matrix, *machine, oracle,
                              {{"portfolio", "mxovlp,mxov-al,greedy"}, {"evaluations", "0"}});
  EXPECT_EQ(mapping, make_mapper("greedy")->map(matrix, *machine));
  // The first refusal in full, the next in short.
  EXPECT_THAT(oracle.reported(), HasSubstr("portfolio: mxovlp skipped: mapper 'mxovlp'"));
  EXPECT_THAT(oracle.reported(),
              HasSubstr("portfolio: mxov-al skipped: the machine has no grid\n"));
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

/// What a ScoredOracle charges one mapping: its makespan (ps) and its network's energy (J).
struct Score {
  std::int64_t makespan = 0;
  double joules = 0;
  std::int64_t events = 0;  ///< trace events of the replay (0: not reported)
};

/// A test's costs of a mapping under a fidelity, given the mapping's hop-bytes judgement; nothing
/// for a mapping the test did not expect to be asked about.
using Scorer = std::function<std::optional<Score>(const topo::Mapping&, const Fidelity&,
                                                  const Judgement& hop_bytes)>;

/// A TimeOracle whose judgement of a mapping is hop_bytes_judgement's (the ranks' and links'
/// times the moves draw on) with the makespan and energy a Scorer gives it. Records every call
/// (its fidelity and mappings) and counts the mappings that are invalid or that the scorer did
/// not expect.
class ScoredOracle final : public TimeOracle {
 public:
  struct Call {
    Fidelity fidelity;
    std::vector<topo::Mapping> mappings;
  };

  ScoredOracle(const topo::Topology& topology, const traces::CommMatrix& matrix, Scorer score)
      : topology_(topology), matrix_(matrix), score_(std::move(score)) {}

  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }

  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity& fidelity) const override {
    {
      const std::lock_guard lock(mutex_);
      calls_.push_back({fidelity, {mappings.begin(), mappings.end()}});
    }
    std::vector<Judgement> judgements(mappings.size());
    tbb::parallel_for(std::size_t{0}, mappings.size(), [&](std::size_t k) {
      const auto& m = mappings[k];
      try {
        if (m.rank_count() != matrix_.rank_count()) throw InputError("rank count");
        topo::validate(m, topology_);
      } catch (const InputError&) {
        invalid_.fetch_add(1);
        return;
      }
      auto j = hop_bytes_judgement(matrix_, topology_, m);
      const auto score = score_(m, fidelity, j);
      if (!score) {
        invalid_.fetch_add(1);
        return;
      }
      j.makespan = score->makespan;
      j.energy_joules = score->joules;
      j.events = score->events;
      judgements[k] = std::move(j);
    });
    return judgements;
  }

  void report(std::string_view text) const override {
    const std::lock_guard lock(mutex_);
    reported_ += text;
  }

  [[nodiscard]] std::vector<Call> calls() const {
    const std::lock_guard lock(mutex_);
    return calls_;
  }
  [[nodiscard]] std::int64_t judged() const {
    std::int64_t n = 0;
    for (const auto& call : calls()) n += static_cast<std::int64_t>(call.mappings.size());
    return n;
  }
  [[nodiscard]] std::int64_t invalid() const { return invalid_.load(); }
  [[nodiscard]] std::string reported() const {
    const std::lock_guard lock(mutex_);
    return reported_;
  }

 private:
  const topo::Topology& topology_;
  const traces::CommMatrix& matrix_;
  Scorer score_;
  mutable std::atomic<std::int64_t> invalid_{0};
  mutable std::mutex mutex_;
  mutable std::vector<Call> calls_;
  mutable std::string reported_;
};

/// A stand-in for the network's energy that is not the fake's makespan (hop-bytes): the sum of
/// the squares of the links' busy times (traffic spread over many links costs less), x 1e-15.
double spread_energy(const Judgement& hop_bytes) {
  double sum = 0;
  for (const auto busy : hop_bytes.link_busy) sum += static_cast<double>(busy) * busy;
  return sum * 1e-15;
}

/// Makespan hop-bytes, energy spread_energy: for every mapping, under every fidelity.
std::optional<Score> hop_bytes_and_spread(const topo::Mapping&, const Fidelity&,
                                          const Judgement& hop_bytes) {
  return Score{hop_bytes.makespan, spread_energy(hop_bytes)};
}

/// The (makespan, energy) each of five portfolio members gets, in units of 1 us and 1 uJ (far
/// apart: only costs relative to a reference weigh them alike):
///   first  (10, 10)   X (6, 16)   Y (9, 8)   Z (12, 7)   W (40, 10)
/// time takes X, energy Z. time+energy against the first: 0.5 T/10 + 0.5 E/10 is 1.0, 1.1,
/// 0.85, 0.95 and 2.5: Y. With W first, against W: 0.5 T/40 + 0.5 E/10 is 0.625 (the old first),
/// 0.875, 0.5125, 0.5 and 1.0: Z. (The sum T + E would take X; costs against the least T and
/// least E would take Y with W first as well.)
struct ScriptedPortfolio {
  std::vector<Member> members;  // first, X, Y, Z, W
  std::vector<topo::Mapping> mappings;
  std::vector<Score> scores;

  /// The scripted score of a portfolio mapping; nothing for any other.
  [[nodiscard]] Scorer scorer() const {
    return
        [this](const topo::Mapping& m, const Fidelity&, const Judgement&) -> std::optional<Score> {
          for (std::size_t k = 0; k < mappings.size(); ++k) {
            if (mappings[k] == m) return scores[k];
          }
          return std::nullopt;
        };
  }
  /// The portfolio parameter listing the members in `order` (indices into members).
  [[nodiscard]] std::string portfolio(const std::vector<std::size_t>& order) const {
    std::string text;
    for (const auto k : order) text += (text.empty() ? "" : ",") + members[k].label;
    return text;
  }
};

constexpr std::int64_t kUsPs = 1'000'000;
constexpr double kUj = 1e-6;

ScriptedPortfolio scripted_portfolio(const traces::CommMatrix& matrix,
                                     const topo::Topology& topology, Seed seed) {
  ScriptedPortfolio p;
  p.members = parse_members("in-order,random,hilbert,greedy,scan");
  const auto own = member_mappings(p.members, matrix, topology, seed);
  for (std::size_t k = 0; k < own.size(); ++k) {
    if (!own[k]) {
      ADD_FAILURE() << p.members[k].label << " refused " << topology.spec();
      return p;
    }
    for (const auto& other : p.mappings)
      EXPECT_NE(*own[k], other) << p.members[k].label << " maps as an earlier member";
    p.mappings.push_back(*own[k]);
  }
  p.scores = {{10 * kUsPs, 10 * kUj},
              {6 * kUsPs, 16 * kUj},
              {9 * kUsPs, 8 * kUj},
              {12 * kUsPs, 7 * kUj},
              {40 * kUsPs, 10 * kUj}};
  return p;
}

// Without improvement each objective takes the portfolio member of least cost, and each a
// different one (ScriptedPortfolio); time+energy weighs against the portfolio's first mapping,
// whichever it is, and names it in the report.
TEST(ReplaySearch, EachObjectiveTakesItsOwnPortfolioMember) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::stencil_2d(4, 4, true);
  const auto p = scripted_portfolio(matrix, *machine, 5);
  ASSERT_EQ(p.mappings.size(), 5U);
  const auto run = [&](const char* objective, const std::vector<std::size_t>& order,
                       std::string* report = nullptr) {
    const ScoredOracle oracle(*machine, matrix, p.scorer());
    auto mapping = search(
        matrix, *machine, oracle,
        {{"objective", objective}, {"portfolio", p.portfolio(order)}, {"evaluations", "0"}}, 5);
    EXPECT_EQ(oracle.invalid(), 0) << objective;
    EXPECT_EQ(oracle.calls().size(), 1U) << objective;  // the portfolio only
    if (report) *report = oracle.reported();
    return mapping;
  };
  const std::vector<std::size_t> in_order_first{0, 1, 2, 3, 4};
  std::string time_report;
  std::string energy_report;
  std::string both_report;
  EXPECT_EQ(run("time", in_order_first, &time_report), p.mappings[1]);         // X
  EXPECT_EQ(run("energy", in_order_first, &energy_report), p.mappings[3]);     // Z
  EXPECT_EQ(run("time+energy", in_order_first, &both_report), p.mappings[2]);  // Y
  // Against W, the first: Z. Time and energy do not depend on the order.
  const std::vector<std::size_t> w_first{4, 0, 1, 2, 3};
  std::string w_report;
  EXPECT_EQ(run("time+energy", w_first, &w_report), p.mappings[3]);
  EXPECT_EQ(run("time", w_first), p.mappings[1]);
  EXPECT_EQ(run("energy", w_first), p.mappings[3]);

  EXPECT_THAT(time_report, ::testing::StartsWith("replay-search: minimising the flow makespan"));
  EXPECT_THAT(time_report, AllOf(Not(HasSubstr("reference:")), Not(HasSubstr(" J"))));
  EXPECT_THAT(time_report, HasSubstr("start: " + p.members[1].label + " (0.006000 ms)"));
  EXPECT_THAT(energy_report,
              ::testing::StartsWith("replay-search: minimising the flow network energy"));
  EXPECT_THAT(energy_report, Not(HasSubstr("reference:")));
  EXPECT_THAT(energy_report, HasSubstr(" J ("));
  EXPECT_THAT(energy_report,
              HasSubstr("start: " + p.members[3].label + " (7e-06 J (0.012000 ms))"));
  EXPECT_THAT(both_report,
              ::testing::StartsWith("replay-search: minimising the flow time+energy cost"));
  EXPECT_THAT(both_report, HasSubstr("  reference: in-order\n"));
  EXPECT_THAT(both_report, HasSubstr("start: " + p.members[2].label +
                                     " (cost 0.850000 (0.009000 ms, 8e-06 J))"));
  EXPECT_THAT(both_report, HasSubstr("cost 1.000000 (0.010000 ms, 1e-05 J)"));  // the first
  EXPECT_THAT(w_report, HasSubstr("  reference: " + p.members[4].label + "\n"));
  EXPECT_THAT(w_report, HasSubstr("start: " + p.members[3].label + " (cost 0.500000"));
}

// energy-weight w moves time+energy's choice: against the first (10, 10), the cost
// (1 - w) T/10 + w E/10 takes X (6, 16) at w = 0 and 0.25, Y (9, 8) at 0.6 (0.84 against Z's
// 0.90 and X's 1.20), Z (12, 7) at 0.8 (0.80 against Y's 0.82) and 1.
TEST(ReplaySearch, TheEnergyWeightMovesTimeAndEnergysChoice) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::stencil_2d(4, 4, true);
  const auto p = scripted_portfolio(matrix, *machine, 5);
  ASSERT_EQ(p.mappings.size(), 5U);
  for (const auto& [weight, chosen] : std::vector<std::pair<std::string, std::size_t>>{
           {"0", 1}, {"0.25", 1}, {"0.6", 2}, {"0.8", 3}, {"1", 3}}) {
    SCOPED_TRACE(weight);
    const ScoredOracle oracle(*machine, matrix, p.scorer());
    const auto mapping = search(matrix, *machine, oracle,
                                {{"objective", "time+energy"},
                                 {"energy-weight", weight},
                                 {"portfolio", p.portfolio({0, 1, 2, 3, 4})},
                                 {"evaluations", "0"}},
                                5);
    EXPECT_EQ(mapping, p.mappings[chosen]);
    EXPECT_EQ(oracle.invalid(), 0);
  }
  // The default: kTimeEnergyWeight, as best's.
  const auto params = replay_search_params();
  const auto spec = std::find_if(params.begin(), params.end(),
                                 [](const ParamSpec& s) { return s.key == "energy-weight"; });
  ASSERT_NE(spec, params.end());
  EXPECT_EQ(std::stod(std::string(spec->default_value)), kTimeEnergyWeight);
}

// objective=energy accepts only moves that lower the energy: on every machine the result's energy
// (spread_energy, not the makespan's hop-bytes) is no more than any portfolio member's, and on
// some it is less.
TEST(ReplaySearch, UnderEnergyNeverAboveThePortfoliosLeastEnergy) {
  const auto members = parse_members(default_portfolio());
  int improved = 0;
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const ScoredOracle oracle(*machine, instance.matrix, hop_bytes_and_spread);
    const auto mapping = search(instance.matrix, *machine, oracle,
                                {{"objective", "energy"}, {"evaluations", "60"}}, 3);
    EXPECT_EQ(oracle.invalid(), 0);
    EXPECT_GT(oracle.judged(), 20);  // it did search
    const auto energy = [&](const topo::Mapping& m) {
      return spread_energy(hop_bytes_judgement(instance.matrix, *machine, m));
    };
    const auto found = energy(mapping);
    const auto own = member_mappings(members, instance.matrix, *machine, 3);
    std::optional<double> least;
    for (std::size_t k = 0; k < members.size(); ++k) {
      if (!own[k]) continue;
      const auto e = energy(*own[k]);
      EXPECT_LE(found, e) << members[k].label;
      least = least ? std::min(*least, e) : e;
    }
    ASSERT_TRUE(least.has_value());
    if (found < *least) ++improved;
  }
  EXPECT_GT(improved, 0);
}

// time+energy with screening replays the reference (the portfolio's first mapping) once more,
// under the screen, counted in the budget: 18 replays leave 17 for rounds of 16 + 2, so none is
// made; 19 allow one. Other objectives, or no screening, or no budget, make no such replay.
TEST(ReplaySearch, TimeAndEnergyScreensAgainstTheReferencesScreenReplay) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 8);
  const ParamList round{{"portfolio", "random,in-order,greedy"}, {"batch", "16"}, {"confirm", "2"}};
  const auto with = [&](ParamList extra) {
    auto params = round;
    params.insert(params.end(), extra.begin(), extra.end());
    return params;
  };
  const Fidelity portfolio{"flow", 0, {}, true};
  const Fidelity screen{"analytic", 0, {}, false};
  {
    const ScoredOracle oracle(*machine, matrix, hop_bytes_and_spread);
    (void)search(matrix, *machine, oracle,
                 with({{"objective", "time+energy"}, {"evaluations", "18"}}));
    const auto calls = oracle.calls();
    ASSERT_EQ(calls.size(), 2U);
    EXPECT_EQ(calls[0].fidelity, portfolio);
    EXPECT_EQ(calls[0].mappings.size(), 3U);
    EXPECT_EQ(calls[1].fidelity, screen);
    ASSERT_EQ(calls[1].mappings.size(), 1U);
    EXPECT_EQ(calls[1].mappings[0], make_mapper("random")->map(matrix, *machine, 0));
    EXPECT_THAT(oracle.reported(), HasSubstr("improvement: 0 rounds, 1 replay, "));
  }
  {
    const ScoredOracle oracle(*machine, matrix, hop_bytes_and_spread);
    (void)search(matrix, *machine, oracle,
                 with({{"objective", "time+energy"}, {"evaluations", "19"}}));
    const auto calls = oracle.calls();
    ASSERT_EQ(calls.size(), 4U);  // portfolio, reference, screen, confirmation
    EXPECT_EQ(calls[1].fidelity, screen);
    EXPECT_EQ(calls[1].mappings.size(), 1U);
    EXPECT_EQ(calls[2].fidelity, screen);
    EXPECT_EQ(calls[3].fidelity, portfolio);
    // The portfolio, the start's screen (the plateau rule's, with the portfolio's), the budget.
    EXPECT_LE(oracle.judged(), 3 + 1 + 19);
    EXPECT_EQ(oracle.invalid(), 0);
  }
  {
    // energy: one round of 16 + 2 within 18.
    const ScoredOracle oracle(*machine, matrix, hop_bytes_and_spread);
    (void)search(matrix, *machine, oracle, with({{"objective", "energy"}, {"evaluations", "18"}}));
    const auto calls = oracle.calls();
    ASSERT_EQ(calls.size(), 3U);
    EXPECT_EQ(calls[1].fidelity, screen);
    EXPECT_GT(calls[1].mappings.size(), 1U);
  }
  {
    // No screening: rounds of 16 confirmations, no extra replay.
    const ScoredOracle oracle(*machine, matrix, hop_bytes_and_spread);
    (void)search(matrix, *machine, oracle,
                 with({{"objective", "time+energy"}, {"evaluations", "16"}, {"screen", "flow"}}));
    const auto calls = oracle.calls();
    ASSERT_EQ(calls.size(), 2U);
    EXPECT_EQ(calls[1].fidelity, portfolio);
  }
  {
    const ScoredOracle oracle(*machine, matrix, hop_bytes_and_spread);
    (void)search(matrix, *machine, oracle,
                 with({{"objective", "time+energy"}, {"evaluations", "0"}}));
    EXPECT_EQ(oracle.calls().size(), 1U);
  }
}

TEST(ReplaySearch, TimeAndEnergyTheSameAtAnyThreadCount) {
  for (const auto& instance : instances()) {
    SCOPED_TRACE(instance.machine);
    const auto machine = topo::make_topology(instance.machine);
    const ParamList params{{"objective", "time+energy"}, {"evaluations", "80"}};
    topo::Mapping one;
    std::string one_report;
    {
      const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      const ScoredOracle oracle(*machine, instance.matrix, hop_bytes_and_spread);
      one = search(instance.matrix, *machine, oracle, params, 11);
      one_report = oracle.reported();
    }
    topo::Mapping two;
    {
      const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      const ScoredOracle oracle(*machine, instance.matrix, hop_bytes_and_spread);
      two = search(instance.matrix, *machine, oracle, params, 11);
      EXPECT_EQ(oracle.invalid(), 0);
    }
    EXPECT_EQ(one, two);
    EXPECT_NO_THROW(topo::validate(one, *machine));
    EXPECT_THAT(one_report, HasSubstr("reference: in-order"));
  }
}

// train=1 under energy: the slice's energy is spread_energy, the whole workload's is least for
// in-order's mapping and its makespan least for random's. The finalists are replayed whole and
// the one of least energy kept: in-order's (under time: random's).
TEST(ReplaySearch, UnderEnergyKeepsTheFinalistOfLeastEnergyOnTheWhole) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const auto in_order = make_mapper("in-order")->map(matrix, *machine, 0);
  const auto random = make_mapper("random")->map(matrix, *machine, 0);
  ASSERT_NE(in_order, random);
  const Scorer score = [&](const topo::Mapping& m, const Fidelity& fidelity,
                           const Judgement& hop_bytes) -> std::optional<Score> {
    const auto e = spread_energy(hop_bytes);
    if (!fidelity.slice.whole()) return Score{hop_bytes.makespan, e};
    return Score{m == random ? 1 : 1000 + hop_bytes.makespan, m == in_order ? 1e-9 : 1 + e};
  };
  const ParamList params{{"train", "1"},
                         {"train-start", "slice"},
                         {"evaluations", "40"},
                         {"portfolio", "random,in-order,best:objective=energy"}};
  const auto with = [&](const char* objective) {
    auto p = params;
    p.emplace_back("objective", objective);
    return p;
  };
  const ScoredOracle oracle(*machine, matrix, score);
  EXPECT_EQ(search(matrix, *machine, oracle, with("energy")), in_order);
  EXPECT_EQ(oracle.invalid(), 0);
  const auto calls = oracle.calls();
  ASSERT_GE(calls.size(), 2U);
  for (std::size_t k = 0; k + 1 < calls.size(); ++k)
    EXPECT_EQ(calls[k].fidelity.slice, (Slice{1, 1}));
  EXPECT_TRUE(calls.back().fidelity.slice.whole());
  const auto& finalists = calls.back().mappings;
  EXPECT_NE(std::find(finalists.begin(), finalists.end(), in_order), finalists.end());
  EXPECT_NE(std::find(finalists.begin(), finalists.end(), random), finalists.end());
  // The slice's choice was not in-order's: the whole workload overruled it.
  EXPECT_NE(finalists.front(), in_order);
  EXPECT_THAT(oracle.reported(), AllOf(HasSubstr("a portfolio mapping is better (1e-09 J ("),
                                       HasSubstr("): taken instead")));
  // The same search under time keeps random's.
  const ScoredOracle timed(*machine, matrix, score);
  EXPECT_EQ(search(matrix, *machine, timed, with("time")), random);
}

// train=2, train-start=whole (the default): the portfolio is replayed whole first and the search
// starts from its fastest there (in-order's, cost 1), judged once more on the slice with the
// portfolio's first mapping; a move that wins on the slice is replayed whole (one mapping) and
// taken only if it wins there too. Here every slice winner loses on the whole workload (1000 +
// hop-bytes against 1): none is taken, and in-order's mapping is kept without a final replay of
// the portfolio.
TEST(ReplaySearch, StartsFromTheFastestOnTheWholeAndTakesOnlyMovesThatWinThere) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const SliceOracle oracle(*machine, matrix);
  const auto mapping =
      search(matrix, *machine, oracle,
             {{"train", "2"}, {"evaluations", "40"}, {"portfolio", "random,in-order,best"}});
  EXPECT_EQ(mapping, make_mapper("in-order")->map(matrix, *machine));
  const auto asked = oracle.slices();
  const auto sizes = oracle.sizes();
  ASSERT_GE(asked.size(), 3U);
  EXPECT_EQ(asked[0], Slice{});        // the portfolio, whole
  EXPECT_EQ(sizes[0], 3U);             // random, in-order, best: three distinct mappings
  EXPECT_EQ(asked[1], (Slice{2, 1}));  // the reference (random) and the start (in-order)
  EXPECT_EQ(sizes[1], 2U);
  std::size_t on_whole = 0;
  for (std::size_t k = 2; k < asked.size(); ++k) {
    if (asked[k] == Slice{}) {
      EXPECT_EQ(sizes[k], 1U) << k;  // a slice winner, alone
      ++on_whole;
    } else {
      EXPECT_EQ(asked[k], (Slice{2, 1})) << k;
    }
  }
  EXPECT_GT(on_whole, 0U);
  EXPECT_THAT(oracle.reported(), HasSubstr("(whole workload)"));
  EXPECT_THAT(oracle.reported(),
              HasSubstr(fmt::format("{} moves faster on the slice were slower on the whole "
                                    "workload",
                                    on_whole)));
  EXPECT_THAT(oracle.reported(), HasSubstr("0 moves taken"));
  EXPECT_THAT(oracle.reported(), HasSubstr("kept (no portfolio mapping is better)"));
}

// train-start=whole where the slice and the whole workload agree (hop-bytes at every fidelity):
// the moves the slice finds are taken, and the result is no worse than the portfolio's best and
// the same at one and two threads.
TEST(ReplaySearch, TakesTheSlicesMovesThatTheWholeConfirms) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const ParamList params{
      {"train", "2"}, {"evaluations", "60"}, {"portfolio", "random,in-order,round-robin"}};
  topo::Mapping one;
  std::string reported;
  {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    const FakeOracle oracle(*machine, matrix);
    one = search(matrix, *machine, oracle, params);
    reported = oracle.reported();
  }
  const FakeOracle oracle(*machine, matrix);
  EXPECT_EQ(search(matrix, *machine, oracle, params), one);
  EXPECT_THAT(reported, Not(HasSubstr(" 0 moves taken")));
  EXPECT_THAT(reported, Not(HasSubstr("slower on the whole workload")));
  std::int64_t least = std::numeric_limits<std::int64_t>::max();
  for (const char* name : {"random", "in-order", "round-robin"}) {
    least = std::min(
        least,
        hop_bytes_judgement(matrix, *machine, make_mapper(name)->map(matrix, *machine)).makespan);
  }
  EXPECT_LT(hop_bytes_judgement(matrix, *machine, one).makespan, least);
}

// train-start=whole: the budget counts replays of the whole workload, a replay of the slice as
// its share of the whole's trace events (here 250 of 1000: a quarter), so the rounds replay more
// slices than `evaluations` and stay within it counted so. With train-start=slice, or an oracle
// that reports no events, every replay counts one.
TEST(ReplaySearch, CountsASlicesReplayAsItsShareOfTheBudget) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  for (const std::int64_t whole_events : {1000, 0}) {
    for (const auto* start : {"whole", "slice"}) {
      SCOPED_TRACE(fmt::format("{} events, train-start={}", whole_events, start));
      const Scorer score = [&](const topo::Mapping&, const Fidelity& fidelity,
                               const Judgement& hop_bytes) -> std::optional<Score> {
        return Score{hop_bytes.makespan, 0,
                     fidelity.slice.whole() ? whole_events : whole_events / 4};
      };
      const ScoredOracle oracle(*machine, matrix, score);
      const std::int64_t evaluations = 40;
      (void)search(matrix, *machine, oracle,
                   {{"train", "2"},
                    {"train-start", start},
                    {"evaluations", std::to_string(evaluations)},
                    {"stall", "1000"},
                    {"batch", "16"},
                    {"confirm", "2"},
                    {"portfolio", "random,in-order"}});
      // After the portfolio (and, from the whole, the start on the slice): the rounds' replays.
      const auto calls = oracle.calls();
      const std::size_t first = std::string(start) == "whole" ? 2 : 1;
      std::int64_t slices = 0;
      std::int64_t wholes = 0;
      for (std::size_t k = first; k < calls.size(); ++k) {
        (calls[k].fidelity.slice.whole() ? wholes : slices) +=
            static_cast<std::int64_t>(calls[k].mappings.size());
      }
      if (std::string(start) == "whole" && whole_events > 0) {
        EXPECT_LE(static_cast<double>(slices) / 4 + static_cast<double>(wholes),
                  static_cast<double>(evaluations));
        EXPECT_GT(slices, evaluations);  // more than one replay each would allow
        // Each round: 16 screens and 2 confirmations on the slice, one replay of the whole.
        EXPECT_GT(slices + wholes, 2 * evaluations);
      } else {
        EXPECT_LE(slices + wholes, evaluations);
        EXPECT_GT(slices + wholes, evaluations / 2);
      }
    }
  }
}

// train-start=whole where the whole workload forbids one kind of move: there every mapping that
// moves one of ranks 0-7 off in-order's node costs 10^12 more than its hop-bytes, while the
// slice sees hop-bytes only. When a round's fastest on the slice moved one of them, the next
// fastest on the slice is replayed whole (in the same round, while the budget lasts) and taken
// if it wins there: moves are taken, none moves ranks 0-7.
TEST(ReplaySearch, TriesTheSlicesNextFastestWhenItsFastestLosesOnTheWhole) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 10);
  const auto in_order = make_mapper("in-order")->map(matrix, *machine);
  const Scorer score = [&](const topo::Mapping& m, const Fidelity& fidelity,
                           const Judgement& hop_bytes) -> std::optional<Score> {
    bool moved = false;
    for (Rank r = 0; r < 8; ++r) moved = moved || m.node(r) != in_order.node(r);
    const auto extra = fidelity.slice.whole() && moved ? std::int64_t{1'000'000'000'000} : 0;
    return Score{hop_bytes.makespan + extra, 0};
  };
  const ScoredOracle oracle(*machine, matrix, score);
  const auto evaluations = 300;
  const auto mapping = search(
      matrix, *machine, oracle,
      {{"train", "2"}, {"evaluations", std::to_string(evaluations)}, {"portfolio", "in-order"}});
  EXPECT_EQ(oracle.invalid(), 0);
  for (Rank r = 0; r < 8; ++r) EXPECT_EQ(mapping.node(r), in_order.node(r)) << r;
  EXPECT_LT(hop_bytes_judgement(matrix, *machine, mapping).makespan,
            hop_bytes_judgement(matrix, *machine, in_order).makespan);
  const auto reported = oracle.reported();
  EXPECT_THAT(reported, Not(HasSubstr(" 0 moves taken")));
  EXPECT_THAT(reported, HasSubstr("moves faster on the slice were slower on the whole workload"));
  // A round that replayed two of its candidates whole, one after the other; and the rounds'
  // replays (after the portfolio, whole, and the start on the slice) within the budget.
  const auto calls = oracle.calls();
  ASSERT_GE(calls.size(), 3U);
  bool second_try = false;
  std::int64_t replays = 0;
  for (std::size_t k = 2; k < calls.size(); ++k) {
    replays += static_cast<std::int64_t>(calls[k].mappings.size());
    if (k + 1 < calls.size() && calls[k].fidelity.slice.whole() &&
        calls[k + 1].fidelity.slice.whole() && calls[k].mappings.size() == 1 &&
        calls[k + 1].mappings.size() == 1)
      second_try = true;
  }
  EXPECT_TRUE(second_try);
  EXPECT_LE(replays, evaluations);
}

// Counts of one are singular ("1 round", "1 iteration"), and a gain too small for two decimals
// shows its digits, no change says so: never "-0.00 %".
TEST(ReplaySearch, ReportsSingularsAndSmallGains) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 9);
  {
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle, {{"stall", "1"}, {"plateau", "0"}});
    const auto report = oracle.reported();
    EXPECT_THAT(report, HasSubstr("improvement: 1 round, 20 replays, 0 moves taken: "));
    EXPECT_THAT(report, HasSubstr("(no change); stopped: "));
    EXPECT_THAT(report, Not(HasSubstr("0.00 %")));
  }
  {
    const FakeOracle oracle(*machine, matrix, /*flat=*/true);
    (void)search(matrix, *machine, oracle, {{"portfolio", "in-order"}, {"evaluations", "8"}});
    const auto lines = oracle.progress_lines();
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return line.find("portfolio of 1 mapping replayed") != std::string::npos;
    })) << ::testing::PrintToString(lines);
  }
  {
    // Makespans of 1 s plus the hop-bytes in picoseconds: every gain is below 0.01 %.
    const ScoredOracle oracle(
        *machine, matrix,
        [](const topo::Mapping&, const Fidelity&, const Judgement& j) -> std::optional<Score> {
          return Score{1'000'000'000'000 + j.makespan, 0};
        });
    (void)search(matrix, *machine, oracle, {{"portfolio", "random"}, {"evaluations", "60"}});
    const auto report = oracle.reported();
    EXPECT_THAT(report, Not(HasSubstr("0.00 %"))) << report;
    EXPECT_THAT(report, ::testing::ContainsRegex(R"(\(-0\.000[1-9][0-9]* %\); stopped: )"))
        << report;
  }
  {
    const SliceOracle oracle(*machine, matrix);
    (void)search(matrix, *machine, oracle,
                 {{"train", "1"}, {"evaluations", "20"}, {"portfolio", "random,in-order"}});
    EXPECT_THAT(oracle.reported(), HasSubstr("whole workload: the choice on 1 iteration "));
  }
}

/// An oracle whose workload cannot be cut as asked: check_slice() refuses every slice.
class UncuttableOracle final : public TimeOracle {
 public:
  explicit UncuttableOracle(const topo::Topology& topology) : topology_(topology) {}
  [[nodiscard]] const topo::Topology& topology() const override { return topology_; }
  [[nodiscard]] std::vector<Judgement> judge(std::span<const topo::Mapping> mappings,
                                             const Fidelity&) const override {
    judged_ += static_cast<std::int64_t>(mappings.size());
    std::vector<Judgement> judgements(mappings.size());
    for (std::size_t k = 0; k < mappings.size(); ++k) {
      judgements[k].rank_finish.assign(static_cast<std::size_t>(mappings[k].rank_count()), 0);
      judgements[k].link_busy.assign(static_cast<std::size_t>(topology_.link_count()), 0);
    }
    return judgements;
  }
  void check_slice(const Slice&) const override {
    throw InputError("the workload runs 3 iterations");
  }
  void report(std::string_view text) const override { reported_ += text; }
  [[nodiscard]] std::int64_t judged() const { return judged_; }
  [[nodiscard]] const std::string& reported() const { return reported_; }

 private:
  const topo::Topology& topology_;
  mutable std::int64_t judged_ = 0;  // judge() is called from one thread
  mutable std::string reported_;
};

// A slice the workload cannot have (train=, train-share=) fails before anything is mapped or
// replayed, naming the parameter and the oracle's reason; the whole workload asks nothing.
TEST(ReplaySearch, RefusesASliceTheWorkloadCannotHaveBeforeThePortfolio) {
  const auto machine = topo::make_topology("torus:4x4");
  const auto matrix = testing::random_matrix(16, 3, 9);
  for (const auto& [key, value, named] :
       {std::tuple{"train", "5", "train=5"}, std::tuple{"train-share", "0.5", "train-share=0.5"}}) {
    const UncuttableOracle oracle(*machine);
    try {
      (void)search(matrix, *machine, oracle, {{key, value}});
      ADD_FAILURE() << named << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(
          std::string(e.what()),
          fmt::format("replay-search: {} cannot apply: the workload runs 3 iterations", named));
    }
    EXPECT_EQ(oracle.judged(), 0) << named;
    EXPECT_EQ(oracle.reported(), "") << named;
  }
  const UncuttableOracle whole(*machine);
  (void)search(matrix, *machine, whole, {{"portfolio", "in-order"}, {"evaluations", "0"}});
  EXPECT_EQ(whole.judged(), 1);
}

}  // namespace
}  // namespace mapsim::map
