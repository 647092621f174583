#include "mappers/ReplaySearch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "mappers/LocalSearch.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/ReplayMoves.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::map {
namespace {

using Clock = std::chrono::steady_clock;

constexpr ParamSpec kParams[] = {
    {"objective", ParamType::Choice, "time",
     "what the search minimises of each replay: its makespan, its network's energy, or both "
     "weighted (relative to the portfolio's first mapping)",
     0, 0, "time|energy|time+energy"},
    {"energy-weight", ParamType::Real, "0.5",
     "objective=time+energy: the energy's weight w, the time's 1 - w", 0, 1},
    {"model", ParamType::Choice, "flow",
     "the network model whose replay the search minimises; unless given, simulate's --model in "
     "simulate (advise ranks under flow)",
     0, 0, "analytic|flow|packet"},
    {"screen", ParamType::Choice, "analytic",
     "the model that screens each round's candidates before the best are replayed under `model`", 0,
     0, "analytic|flow|packet"},
    {"compute-scale", ParamType::Real, "0",
     "factor on the recorded computation in the search's replays (0: communication only); "
     "unless given, simulate's --compute-scale in simulate (advise ranks with 0)",
     0, 1e6},
    {"portfolio", ParamType::Text,
     "in-order,round-robin,random,hilbert,scan,greedy,rcm,bisection,scotch,treematch,mxovlp,mht,"
     "random-router,group-striped,best,best:objective=congestion,best:objective=congestion-smooth,"
     "best:objective=energy,best:objective=latency,best:objective=hybrid,"
     "mxovlp:layers=tile:pattern=dominant,mxovlp:layers=tile-fold:pattern=dominant",
     "the mappers whose mappings the search starts from, comma-separated, each NAME or "
     "NAME:key=value:key=value (a list: give it with --param, as --mapper's commas separate "
     "mappers)"},
    {"evaluations", ParamType::Integer, "200",
     "replays the improvement may make after the portfolio's (screened and confirmed alike; "
     "with train-start=whole a replay of the slice counts as its share of the whole's events)",
     0, 1000000},
    {"batch", ParamType::Integer, "16", "candidate moves per round", 1, 4096},
    {"confirm", ParamType::Integer, "4", "screened candidates per round replayed under `model`", 1,
     4096},
    {"stall", ParamType::Integer, "8", "rounds without a gain before the search stops", 1, 1000000},
    {"plateau", ParamType::Integer, "8",
     "with screening: once this many candidates whose screen tied the incumbent's exactly were "
     "confirmed without beating it, its further screen-tied candidates are not confirmed (0: "
     "confirm them all)",
     0, 1000000},
    {"train", ParamType::Integer, "0",
     "search on the first N iterations of a generated workload (0: the whole workload); the "
     "portfolio's mappings and the search's choice are then judged on the whole workload",
     0, 1000000000},
    {"train-share",
     ParamType::Real,
     "1",
     "search on the first share of each rank's events of any trace, cut so that every message "
     "and collective is kept whole or left out (1: the whole workload); judged as with train=",
     0,
     1,
     {},
     /*above_min=*/true},
    {"train-start", ParamType::Choice, "whole",
     "with train= or train-share=: start the search from the portfolio mapping fastest on the "
     "whole workload (whole), or on the slice (slice: the portfolio judged on the whole at the "
     "end)",
     0, 0, "whole|slice"},
    {"time-limit", ParamType::Real, "0",
     "wall-clock seconds from the start of the mapping (the portfolio's mapping and replays "
     "included) after which no further round starts, 0 for none (when it strikes the result "
     "depends on the machine's speed)",
     0, 1e9},
};

/// "1 round", "3 rounds".
std::string count(std::int64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::vector<MapperItem> parse_portfolio(const std::string& text) {
  std::vector<MapperItem> members;
  for (const auto item : split_fields(text, ',')) {
    if (trim(item).empty()) {
      throw InputError(
          fmt::format("mapper 'replay-search': portfolio '{}' has an empty item", text));
    }
    // Unknown mappers and bad parameters fail now, naming the item.
    auto member = parse_mapper_item(item, "mapper 'replay-search': portfolio");
    if (member.name == "replay-search") {
      throw InputError("mapper 'replay-search': the portfolio cannot contain replay-search itself");
    }
    members.push_back(std::move(member));
  }
  if (members.empty()) throw InputError("mapper 'replay-search': the portfolio is empty");
  return members;
}

/// What the search minimises of a judgement (`objective=`; ReplaySearch.hpp):
///   time         T, the makespan (compared exactly, in picoseconds)
///   energy       E, the network's energy over the replay
///   time+energy  (1 - w) T/T0 + w E/E0, w = energy-weight, with T0 and E0 the reference
///                mapping's (the portfolio's first) under the same fidelity
class Goal {
 public:
  enum class Kind : std::uint8_t { Time, Energy, TimeEnergy };

  Goal(const std::string& word, double energy_weight)
      : kind_(word == "energy"        ? Kind::Energy
              : word == "time+energy" ? Kind::TimeEnergy
                                      : Kind::Time),
        w_(energy_weight) {}

  [[nodiscard]] Kind kind() const { return kind_; }
  /// Whether the cost depends on a reference judgement (set by reference()).
  [[nodiscard]] bool relative() const { return kind_ == Kind::TimeEnergy; }
  /// A goal measured against `reference` (time+energy's T0, E0; others ignore it).
  [[nodiscard]] Goal reference(const Judgement& reference) const {
    auto goal = *this;
    goal.t0_ = std::max(1.0, static_cast<double>(reference.makespan));
    goal.e0_ = reference.energy_joules > 0 ? reference.energy_joules : 1.0;
    return goal;
  }

  [[nodiscard]] double cost(const Judgement& j) const {
    switch (kind_) {
      case Kind::Energy:
        return j.energy_joules;
      case Kind::TimeEnergy:
        return (1 - w_) * static_cast<double>(j.makespan) / t0_ + w_ * j.energy_joules / e0_;
      case Kind::Time:
        break;
    }
    return static_cast<double>(j.makespan);
  }
  [[nodiscard]] bool less(const Judgement& a, const Judgement& b) const {
    return kind_ == Kind::Time ? a.makespan < b.makespan : cost(a) < cost(b);
  }
  /// A judgement as the report shows it: the makespan, and the energy and cost if they count.
  [[nodiscard]] std::string text(const Judgement& j) const {
    const auto time = fmt::format("{:.6f} ms", static_cast<double>(j.makespan) * 1e-9);
    switch (kind_) {
      case Kind::Energy:
        return fmt::format("{:.6g} J ({})", j.energy_joules, time);
      case Kind::TimeEnergy:
        return fmt::format("cost {:.6f} ({}, {:.6g} J)", cost(j), time, j.energy_joules);
      case Kind::Time:
        break;
    }
    return time;
  }
  /// The cost's relative change from `from` to `to`, in %.
  [[nodiscard]] double gain(const Judgement& from, const Judgement& to) const {
    const double c = cost(from);
    return c > 0 ? 100.0 * (cost(to) - c) / c : 0.0;
  }
  /// The gain as the report shows it: "no change" if the costs are the same, else with digits
  /// enough to show it ("-1.25 %", "-0.0031 %": never "-0.00 %").
  [[nodiscard]] std::string gain_text(const Judgement& from, const Judgement& to) const {
    if (!less(from, to) && !less(to, from)) return "no change";
    const double g = gain(from, to);
    return std::abs(g) >= 0.01 ? fmt::format("{:+.2f} %", g) : fmt::format("{:+.2g} %", g);
  }

 private:
  Kind kind_;
  double w_;
  double t0_ = 1;
  double e0_ = 1;
};

/// The judgements a search has made at one fidelity, by mapping: a candidate drawn again (the
/// rounds after a stall draw from the same incumbent, and moves can undo one another) is looked
/// up, not replayed again. The same judgement either way: a replay depends on its mapping and
/// fidelity alone (TimeOracle.hpp).
class Remembered {
 public:
  /// `costs_only`: keeps what a cost reads (makespan, events, energy, cut), not the per-rank and
  /// per-link measures, so that screens held for a whole search take memory independent of the
  /// machine's size.
  explicit Remembered(bool costs_only = false) : costs_only_(costs_only) {}

  /// The judgements of `mappings` at `fidelity`, in order: the known looked up, the others (each
  /// distinct one once) judged by `oracle` in one batch and remembered.
  std::vector<Judgement> judge(const TimeOracle& oracle, std::span<const topo::Mapping> mappings,
                               const Fidelity& fidelity) {
    std::vector<std::size_t> at(mappings.size());
    std::vector<topo::Mapping> fresh;
    const std::size_t known = known_.size();
    for (std::size_t k = 0; k < mappings.size(); ++k) {
      const auto same = std::find_if(known_.begin(), known_.end(),
                                     [&](const auto& j) { return j.first == mappings[k]; });
      at[k] = static_cast<std::size_t>(same - known_.begin());
      if (same == known_.end()) {
        known_.emplace_back(mappings[k], Judgement{});
        fresh.push_back(mappings[k]);
      }
    }
    if (!fresh.empty()) {
      auto judged = oracle.judge(fresh, fidelity);
      MAPSIM_EXPECTS(judged.size() == fresh.size(), "the time oracle lost judgements");
      for (std::size_t k = 0; k < judged.size(); ++k) {
        if (costs_only_) {
          judged[k].rank_finish = {};
          judged[k].link_busy = {};
          judged[k].critical_messages = {};
        }
        known_[known + k].second = std::move(judged[k]);
      }
    }
    std::vector<Judgement> judgements;
    judgements.reserve(mappings.size());
    for (const auto k : at) judgements.push_back(known_[k].second);
    return judgements;
  }
  /// Forgets every judgement (their fidelity changes).
  void forget() { known_.clear(); }

 private:
  bool costs_only_;
  std::vector<std::pair<topo::Mapping, Judgement>> known_;
};

struct Options {
  std::string objective;
  double energy_weight = 0;
  Fidelity model;
  Fidelity screen;
  std::vector<MapperItem> portfolio;
  std::int64_t evaluations = 0;
  std::size_t batch = 0;
  std::size_t confirm = 0;
  std::int64_t stall = 0;
  std::int64_t plateau = 0;
  double time_limit = 0;
  map::Slice train;         // what the search replays (train=, train-share=)
  bool start_whole = true;  // train-start=whole
};

class ReplaySearch final : public Mapper {
 public:
  explicit ReplaySearch(const ParamValues& params) {
    options_.objective = params.text("objective");
    options_.energy_weight = params.real("energy-weight");
    options_.model = {params.text("model"), params.real("compute-scale")};
    options_.screen = {params.text("screen"), params.real("compute-scale")};
    options_.portfolio = parse_portfolio(params.text("portfolio"));
    options_.evaluations = params.integer("evaluations");
    options_.batch = static_cast<std::size_t>(params.integer("batch"));
    options_.confirm = static_cast<std::size_t>(params.integer("confirm"));
    options_.stall = params.integer("stall");
    options_.plateau = params.integer("plateau");
    options_.time_limit = params.real("time-limit");
    options_.train = {params.integer("train"), params.real("train-share")};
    options_.start_whole = params.text("train-start") == "whole";
    // (train-share's range, above 0, is checked with its value: ParamSpec::above_min.)
    MAPSIM_EXPECTS(options_.train.share > 0, "train-share passed its range check at 0");
    if (options_.train.iterations > 0 && options_.train.share < 1) {
      throw InputError(
          "mapper 'replay-search': train= and train-share= both cut the workload; give one");
    }
    options_.model.slice = options_.train;
    options_.screen.slice = options_.train;
  }

  [[nodiscard]] bool needs_oracle() const override { return true; }
  /// Its portfolio's members under an energy objective (the default portfolio's
  /// best:objective=energy) map by the link table's energy per bit.
  [[nodiscard]] bool weighs_link_energy() const override {
    return std::any_of(options_.portfolio.begin(), options_.portfolio.end(), [](const auto& m) {
      return make_mapper(m.name, m.params)->weighs_link_energy();
    });
  }

 protected:
  topo::Mapping compute(const Problem&) const override {
    MAPSIM_EXPECTS(false, "replay-search maps through search(), with a time oracle");
    return {};
  }

  topo::Mapping search(const Problem& p, const TimeOracle& oracle) const override;

 private:
  Options options_;
};

topo::Mapping ReplaySearch::search(const Problem& p, const TimeOracle& oracle) const {
  const auto start = Clock::now();
  const Goal objective(options_.objective, options_.energy_weight);
  // A slice the workload cannot be cut to fails now, before the portfolio is mapped.
  if (!options_.train.whole()) {
    try {
      oracle.check_slice(options_.train);
    } catch (const InputError& e) {
      throw InputError(fmt::format("replay-search: {} cannot apply: {}",
                                   options_.train.iterations > 0
                                       ? fmt::format("train={}", options_.train.iterations)
                                       : fmt::format("train-share={:g}", options_.train.share),
                                   e.what()));
    }
  }
  const auto note = oracle.settings_note();
  std::string report =
      fmt::format("replay-search: minimising the {} {}{}{}\n", options_.model.model,
                  objective.kind() == Goal::Kind::Time     ? "makespan"
                  : objective.kind() == Goal::Kind::Energy ? "network energy"
                                                           : "time+energy cost",
                  options_.model.compute_scale == 0
                      ? " of communication only"
                      : fmt::format(" (compute x {})", options_.model.compute_scale),
                  note.empty() ? std::string() : fmt::format(" ({})", note));

  // 1. The portfolio, merged, replayed under the model.
  std::vector<topo::Mapping> starts;
  std::vector<std::string> origins;
  bool refused_machine = false;
  for (const auto& member : options_.portfolio) {
    topo::Mapping mapping;
    try {
      // (best:objective=critical-latency replays through the same oracle.)
      mapping = make_mapper(member.name, member.params)
                    ->map(p.matrix, p.topology, p.seed, &oracle, p.links);
    } catch (const NotForMachine& e) {  // the first says why in full, the others in short
      report += fmt::format("  portfolio: {} skipped: {}\n", member.label,
                            refused_machine ? "the machine has " + e.lacks() : e.what());
      refused_machine = true;
      continue;
    } catch (const InputError& e) {
      report += fmt::format("  portfolio: {} skipped: {}\n", member.label, e.what());
      continue;
    }
    const auto same = std::find(starts.begin(), starts.end(), mapping);
    if (same != starts.end()) {
      // " / ": "=" would read as one item's key=value.
      origins[static_cast<std::size_t>(same - starts.begin())] += " / " + member.label;
    } else {
      starts.push_back(std::move(mapping));
      origins.push_back(member.label);
    }
  }
  if (starts.empty()) {
    throw InputError(fmt::format("mapper 'replay-search': no portfolio mapper could map onto {}",
                                 p.topology.spec()));
  }
  // The model's replays list the critical path's transfers: an incumbent's moves draw from them.
  auto with_path = options_.model;
  with_path.critical_messages = true;
  const bool train = !options_.train.whole();
  auto whole = options_.model;
  whole.slice = {};
  // With train-start=whole the portfolio is judged on the whole workload (as step 4 judges it
  // anyway) and the search starts from the fastest there, which is judged on the slice with the
  // reference; otherwise every member is judged at the search's fidelity.
  const bool start_whole = train && options_.start_whole;
  std::vector<Judgement> judged_whole;
  if (start_whole) judged_whole = oracle.judge(starts, whole);
  auto judged = start_whole ? judged_whole : oracle.judge(starts, with_path);
  MAPSIM_EXPECTS(judged.size() == starts.size(), "the time oracle lost judgements");
  // time+energy weighs each replay against the portfolio's first mapping's, at that fidelity.
  const auto portfolio_goal = objective.reference(judged.front());
  if (portfolio_goal.relative()) report += fmt::format("  reference: {}\n", origins.front());
  std::size_t best = 0;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    report += fmt::format("  portfolio: {:<40} {}{}\n", origins[k], portfolio_goal.text(judged[k]),
                          start_whole ? " (whole workload)" : "");
    if (portfolio_goal.less(judged[k], judged[best])) best = k;
  }
  if (start_whole) {  // the reference and the start on the slice
    std::vector<topo::Mapping> on_slice{starts.front()};
    if (best != 0) on_slice.push_back(starts[best]);
    auto sliced = oracle.judge(on_slice, with_path);
    if (best != 0) judged[best] = std::move(sliced.back());
    judged[0] = std::move(sliced.front());
  }
  const auto goal = start_whole ? objective.reference(judged.front()) : portfolio_goal;
  // train-start=whole: the incumbent's replay on the whole workload (judged by portfolio_goal).
  Judgement incumbent_whole = start_whole ? judged_whole[best] : Judgement{};
  std::int64_t rejected_on_whole = 0;
  topo::Mapping incumbent = starts[best];
  Judgement measured = std::move(judged[best]);
  const Judgement portfolio_best = measured;
  report += fmt::format("  start: {} ({}); {} replayed\n", origins[best], goal.text(portfolio_best),
                        count(static_cast<std::int64_t>(starts.size()), "distinct mapping"));
  oracle.progress(fmt::format("replay-search: portfolio of {} replayed, best {} ({})",
                              count(static_cast<std::int64_t>(starts.size()), "mapping"),
                              origins[best], goal.text(portfolio_best)));

  // 2. Rounds of moves. The budget counts replays of the whole workload: with train-start=whole
  // a replay of the slice counts as its share of the whole's trace events, so that the slice's
  // cheaper replays buy more rounds.
  const double slice_cost = start_whole && judged_whole.front().events > 0
                                ? static_cast<double>(judged.front().events) /
                                      static_cast<double>(judged_whole.front().events)
                                : 1.0;
  const replay::Traffic traffic(p.graph);
  const bool screening = options_.screen != options_.model;
  double evaluations = 0;
  std::int64_t stalled = 0;
  std::int64_t accepted = 0;
  std::int64_t confirmations = 0;
  std::int64_t ties = 0;     // confirmed candidates that cost exactly what the incumbent did
  std::int64_t stopped = 0;  // confirmations stopped once slower than the incumbent
  std::uint64_t round = 0;
  // Screens depend on the candidate alone; confirmations also on the incumbent's makespan, at
  // which they stop (confirming()): forgotten when it changes.
  Remembered screens(/*costs_only=*/true);
  // time+energy screens against the reference's own screen replay: one replay of the budget.
  auto screen_goal = goal;
  if (screening && goal.relative() && options_.evaluations > 0) {
    screen_goal = objective.reference(
        screens.judge(oracle, std::span(&starts.front(), 1), options_.screen).front());
    evaluations += slice_cost;
  }
  // The plateau rule (plateau=): the incumbent's own screen, how many candidates whose screen tied
  // it were confirmed without beating it, and how many were then left unconfirmed.
  std::optional<Judgement> incumbent_screen;
  std::int64_t tied_screens_failed = 0;
  std::int64_t plateau_skipped = 0;
  Remembered confirmations_of_incumbent;
  Remembered judged_on_whole;  // train-start=whole: the slice's winners replayed whole
  std::optional<replay::WeightedPairs> busy;
  std::vector<Rank> late;
  const auto refresh = [&] {
    busy = replay::pairs_on_busiest_links(p.graph, p.topology, incumbent, measured, 4);
    late.resize(static_cast<std::size_t>(p.ranks()));
    std::iota(late.begin(), late.end(), Rank{0});
    std::stable_sort(late.begin(), late.end(), [&](Rank a, Rank b) {
      return measured.rank_finish[static_cast<std::size_t>(a)] >
             measured.rank_finish[static_cast<std::size_t>(b)];
    });
    late.resize(std::min<std::size_t>(late.size(), 8));
  };
  refresh();
  const auto out_of_time = [&] {
    return options_.time_limit > 0 &&
           std::chrono::duration<double>(Clock::now() - start).count() >= options_.time_limit;
  };
  const double per_round =
      static_cast<double>(screening ? options_.batch + std::min(options_.confirm, options_.batch)
                                    : options_.batch) *
          slice_cost +
      (start_whole ? 1.0 : 0.0);
  const auto budget = static_cast<double>(options_.evaluations);
  // Under the time objective a confirmation only has to tell whether it beats the incumbent: its
  // replay stops once its clock passes the incumbent's makespan with a rank still running (it is
  // then slower, and judged so by its makespan so far), which changes no choice.
  const auto confirming = [&] {
    auto fidelity = with_path;
    if (goal.kind() == Goal::Kind::Time) fidelity.stop_past = measured.makespan;
    return fidelity;
  };
  // Whole replays as integers, slices' shares to a tenth.
  const auto replays_text = [](double n) {
    return n == std::floor(n) ? fmt::format("{:.0f}", n) : fmt::format("{:.1f}", n);
  };
  bool no_moves = false;                   // the incumbent had no move to draw
  std::int64_t skipped_while_stalled = 0;  // plateau_skipped in the rounds since the last gain
  while (stalled < options_.stall && evaluations + per_round <= budget && !out_of_time()) {
    auto random = Random::stream(p.seed, round + 1);
    const replay::Placement placement(p.topology, incumbent);
    std::vector<topo::Mapping> candidates;
    if (round == 0) candidates = replay::symmetric_variants(p.topology, incumbent);
    for (std::size_t k = 0; candidates.size() < options_.batch && k < 4 * options_.batch; ++k) {
      Rank mover = -1;
      Rank anchor = -1;
      if (k % 4 == 3) {  // block
        if (auto reflected = replay::reflected_block(p.topology, incumbent, random))
          candidates.push_back(std::move(*reflected));
        continue;
      }
      switch (k % 4) {
        case 0:  // critical
          if (const auto& path = measured.critical_messages; !path.empty()) {
            std::tie(mover, anchor) = path[random.below(path.size())];
            if (mover == anchor) mover = -1;
          } else {
            mover = late[random.below(late.size())];
            anchor = traffic.heaviest[static_cast<std::size_t>(mover)];
          }
          break;
        case 1:  // link
          if (const auto pair = busy->draw(random)) std::tie(mover, anchor) = *pair;
          break;
        default:  // pair
          if (const auto pair = traffic.pairs.draw(random)) std::tie(mover, anchor) = *pair;
          break;
      }
      if (mover < 0 || anchor < 0) continue;
      if (random.below(2) == 1) std::swap(mover, anchor);
      if (auto moved = placement.moved_near(mover, placement.node(anchor), random))
        candidates.push_back(std::move(*moved));
    }
    if (candidates.empty()) {
      no_moves = true;
      break;
    }
    if (candidates.size() > options_.batch) candidates.resize(options_.batch);

    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::vector<Judgement> confirmed;
    std::vector<bool> screen_tied;  // by candidate: its screen ties the incumbent's (plateau=)
    std::vector<Judgement> screened;
    if (screening) {
      // The plateau rule compares the screens with the incumbent's: the start's is screened with
      // the first round's candidates (a later incumbent's is its screen as a candidate), one
      // replay counted with the portfolio's, not in the budget, so that the rule never shortens
      // the search.
      const bool screen_start = options_.plateau > 0 && !incumbent_screen;
      if (screen_start) candidates.push_back(incumbent);
      screened = screens.judge(oracle, candidates, options_.screen);
      if (screen_start) {
        incumbent_screen = std::move(screened.back());
        screened.pop_back();
        candidates.pop_back();
      }
      evaluations += static_cast<double>(candidates.size()) * slice_cost;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return screen_goal.less(screened[a], screened[b]);
      });
      order.resize(std::min(order.size(), options_.confirm));
      if (options_.plateau > 0) {
        screen_tied.assign(candidates.size(), false);
        for (const auto k : order) {
          screen_tied[k] = !screen_goal.less(screened[k], *incumbent_screen) &&
                           !screen_goal.less(*incumbent_screen, screened[k]);
        }
        if (tied_screens_failed >= options_.plateau) {
          const auto before = order.size();
          std::erase_if(order, [&](std::size_t k) { return screen_tied[k]; });
          plateau_skipped += static_cast<std::int64_t>(before - order.size());
          skipped_while_stalled += static_cast<std::int64_t>(before - order.size());
        }
      }
      std::vector<topo::Mapping> chosen;
      for (const auto k : order) chosen.push_back(candidates[k]);
      confirmed = confirmations_of_incumbent.judge(oracle, chosen, confirming());
    } else {
      confirmed = confirmations_of_incumbent.judge(oracle, candidates, confirming());
    }
    stopped +=
        std::count_if(confirmed.begin(), confirmed.end(), [](const Judgement& j) { return j.cut; });
    evaluations += static_cast<double>(order.size()) * slice_cost;
    // The confirmed candidates faster than the incumbent, fastest first (ties: earlier first).
    std::vector<std::size_t> faster;
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (goal.less(confirmed[k], measured)) {
        faster.push_back(k);
      } else if (!screen_tied.empty() && screen_tied[order[k]]) {
        ++tied_screens_failed;
      }
      ties += !goal.less(confirmed[k], measured) && !goal.less(measured, confirmed[k]);
    }
    confirmations += static_cast<std::int64_t>(order.size());
    std::stable_sort(faster.begin(), faster.end(), [&](std::size_t a, std::size_t b) {
      return goal.less(confirmed[a], confirmed[b]);
    });
    std::size_t winner = faster.empty() ? order.size() : faster.front();
    // train-start=whole: a move that wins on the slice is taken only if it also wins on the
    // whole workload (one replay more), so that the slice steers the search and the whole keeps it
    // from drifting where the slice misleads. When the slice's fastest loses there, the next
    // fastest on the slice is tried, while the budget lasts (the first replay is the round's).
    if (start_whole) {
      winner = order.size();
      for (std::size_t i = 0; i < faster.size(); ++i) {
        if (i > 0 && evaluations >= budget) break;
        auto on_whole =
            judged_on_whole.judge(oracle, std::span(&candidates[order[faster[i]]], 1), whole)
                .front();
        evaluations += 1;
        if (portfolio_goal.less(on_whole, incumbent_whole)) {
          incumbent_whole = std::move(on_whole);
          winner = faster[i];
          break;
        }
        ++rejected_on_whole;
      }
    }
    if (winner < order.size()) {
      incumbent = std::move(candidates[order[winner]]);
      measured = std::move(confirmed[winner]);
      confirmations_of_incumbent.forget();
      if (incumbent_screen) incumbent_screen = std::move(screened[order[winner]]);
      tied_screens_failed = 0;
      stalled = 0;
      skipped_while_stalled = 0;
      ++accepted;
      refresh();
    } else {
      ++stalled;
    }
    ++round;
    oracle.progress(fmt::format("replay-search: round {}, {} of {} replays, best {} ({})", round,
                                replays_text(evaluations), options_.evaluations,
                                goal.text(measured), goal.gain_text(portfolio_best, measured)));
  }
  // Why the rounds stopped, as the loop's tests go (a round under way always finishes).
  std::string stop;
  if (no_moves) {
    stop = "the incumbent had no move to draw";
  } else if (stalled >= options_.stall) {
    stop = fmt::format("the stall rule ({} without a gain, stall={})", count(stalled, "round"),
                       options_.stall);
    if (skipped_while_stalled > 0) {
      stop += fmt::format(
          "; in them the plateau rule (plateau={}) left {} tied with the incumbent's screen "
          "unconfirmed",
          options_.plateau, count(skipped_while_stalled, "candidate"));
    }
  } else if (evaluations + per_round > budget) {
    // A round's replays: its screens and confirmations (a slice's counted at its share of the
    // whole's events), and with train-start=whole one replay of the whole workload.
    std::string need = screening ? fmt::format("batch {} + confirm {}", options_.batch,
                                               std::min(options_.confirm, options_.batch))
                                 : fmt::format("batch {}", options_.batch);
    if (slice_cost != 1.0) need = fmt::format("({}) x {:.2f} of a whole replay", need, slice_cost);
    if (start_whole) need += " + 1 on the whole workload";
    stop =
        round == 0 && evaluations == 0
            ? fmt::format(
                  "evaluations={} is too small for one round, which needs {} = {} "
                  "replays",
                  options_.evaluations, need, replays_text(per_round))
        : round == 0
            ? fmt::format(
                  "evaluations={} is too small for one round, which needs {} = {} "
                  "replays after the {} already counted",
                  options_.evaluations, need, replays_text(per_round), replays_text(evaluations))
            : fmt::format("the evaluations budget (evaluations={}: {} made, a round needs {})",
                          options_.evaluations, replays_text(evaluations), replays_text(per_round));
  } else {
    stop = fmt::format(
        "the time limit (time-limit={:g} s, counted from the start of the mapping, the "
        "portfolio's included)",
        options_.time_limit);
  }
  report += fmt::format("  improvement: {}, {} {}, {} taken: {} -> {} ({}); stopped: {}\n",
                        count(static_cast<std::int64_t>(round), "round"), replays_text(evaluations),
                        evaluations == 1 ? "replay" : "replays", count(accepted, "move"),
                        goal.text(portfolio_best), goal.text(measured),
                        goal.gain_text(portfolio_best, measured), stop);
  if (ties > 0) {
    // Moves the model cannot tell from the incumbent: where most tie, the placement sits on a
    // plateau of the model's time (a sign that further moves of this kind will not gain).
    report += fmt::format("  {} of {} tied the incumbent exactly\n", ties,
                          count(confirmations, "confirmed candidate"));
  }
  if (plateau_skipped > 0) {
    report += fmt::format(
        "  {} tied their incumbent's screen after {} such had been confirmed without a gain (a "
        "plateau), and {} not confirmed\n",
        count(plateau_skipped, "screened candidate"), options_.plateau,
        plateau_skipped == 1 ? "was" : "were");
  }
  if (stopped > 0) {
    report +=
        fmt::format("  {} of {} stopped early, once their replay passed the incumbent's makespan\n",
                    stopped, count(confirmations, "confirmation"));
  }
  if (rejected_on_whole > 0) {
    report +=
        fmt::format("  {} faster on the slice {} slower on the whole workload\n",
                    count(rejected_on_whole, "move"), rejected_on_whole == 1 ? "was" : "were");
  }
  if (train) {
    // Chosen on the first iterations: the choice and every portfolio mapping on the whole
    // workload, the best kept (the choice on ties).
    std::vector<topo::Mapping> finalists{incumbent};
    for (const auto& member : starts) {
      if (member != incumbent) finalists.push_back(member);
    }
    if (start_whole) {  // the portfolio's are known: the choice alone is replayed, if new
      std::vector<Judgement> known;
      const auto member = std::find(starts.begin(), starts.end(), incumbent);
      known.push_back(member != starts.end()
                          ? judged_whole[static_cast<std::size_t>(member - starts.begin())]
                          : incumbent_whole);
      for (std::size_t k = 0; k < starts.size(); ++k) {
        if (starts[k] != incumbent) known.push_back(std::move(judged_whole[k]));
      }
      judged_whole = std::move(known);
    } else {
      judged_whole = oracle.judge(finalists, whole);
    }
    const auto reference =
        std::find(finalists.begin(), finalists.end(), starts.front()) - finalists.begin();
    const auto whole_goal = objective.reference(judged_whole[static_cast<std::size_t>(reference)]);
    std::size_t fastest = 0;
    for (std::size_t k = 1; k < finalists.size(); ++k) {
      if (whole_goal.less(judged_whole[k], judged_whole[fastest])) fastest = k;
    }
    report +=
        fmt::format("  whole workload: the choice on {} {}; {}\n",
                    options_.train.iterations > 0
                        ? count(options_.train.iterations, "iteration")
                        : fmt::format("{:g} % of each rank's events", options_.train.share * 100),
                    whole_goal.text(judged_whole[0]),
                    fastest == 0 ? std::string("kept (no portfolio mapping is better)")
                                 : fmt::format("a portfolio mapping is better ({}): taken instead",
                                               whole_goal.text(judged_whole[fastest])));
    incumbent = std::move(finalists[fastest]);
  }
  oracle.report(report);
  return incumbent;
}

}  // namespace

std::span<const ParamSpec> replay_search_params() {
  return kParams;
}
std::unique_ptr<Mapper> make_replay_search(const ParamValues& params) {
  return std::make_unique<ReplaySearch>(params);
}

}  // namespace mapsim::map
