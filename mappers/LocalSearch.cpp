#include "mappers/LocalSearch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <optional>

#include <tbb/parallel_for.h>

#include "mappers/GoalCosts.hpp"
#include "mappers/LinkLoadTracker.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/Placement.hpp"
#include "mappers/SearchObjective.hpp"
#include "support/Error.hpp"

namespace mapsim::map {

using topo::NodeId;

SearchSpace::SearchSpace(const CommGraph& graph, const topo::Topology& topology,
                         std::size_t partners, std::size_t near, const RouteDistance* distance,
                         HybridReference hybrid)
    : graph_(graph),
      topology_(topology),
      neighbors_(topology, near),
      router_hops_(RouterHops::of(topology)),
      distance_(distance),
      hybrid_(hybrid) {
  partner_start_.assign(static_cast<std::size_t>(graph.rank_count()) + 1, 0);
  std::vector<Neighbor> sorted;
  for (Rank r = 0; r < graph.rank_count(); ++r) {
    const auto all = graph.neighbors(r);
    sorted.assign(all.begin(), all.end());
    const std::size_t keep = std::min(partners, sorted.size());
    std::partial_sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(keep),
                      sorted.end(), [r](const Neighbor& a, const Neighbor& b) {
                        if (a.bytes() != b.bytes()) return a.bytes() > b.bytes();
                        const auto da = std::abs(a.rank - r);
                        const auto db = std::abs(b.rank - r);
                        return da < db || (da == db && a.rank < b.rank);
                      });
    for (std::size_t k = 0; k < keep; ++k) partners_.push_back(sorted[k].rank);
    partner_start_[static_cast<std::size_t>(r) + 1] = partners_.size();
  }
  dense_ = 2 * graph.edge_count() > kDenseDegree * static_cast<std::size_t>(graph.rank_count());
  if (topology.kind() == "mesh" || topology.kind() == "torus") {
    const auto extents = topology.dimensions();
    sides_.assign(extents.begin(), extents.end());
    for (std::size_t d = 0; d < sides_.size(); ++d)
      periodic_.push_back(topology.is_torus(static_cast<int>(d)) ? 1 : 0);
    coordinates_.reserve(static_cast<std::size_t>(topology.node_count()) * sides_.size());
    for (NodeId n = 0; n < topology.node_count(); ++n) {
      const auto c = topology.coordinates(n);
      coordinates_.insert(coordinates_.end(), c.begin(), c.end());
    }
  }
}

SearchGoal parse_search_goal(std::string_view word) {
  if (word == "congestion") return SearchGoal::Congestion;
  if (word == "congestion-smooth") return SearchGoal::CongestionSmooth;
  if (word == "energy") return SearchGoal::Energy;
  if (word == "latency") return SearchGoal::Latency;
  if (word == "hybrid") return SearchGoal::Hybrid;
  if (word == "time+energy") return SearchGoal::TimeEnergy;
  MAPSIM_EXPECTS(word == "hop-bytes", "a search goal with an unknown word");
  return SearchGoal::HopBytes;
}

HybridReference hybrid_reference(const CommGraph& graph, const topo::Topology& topology,
                                 std::span<const NodeId> node_of_rank,
                                 const RouteDistance* energy) {
  const LinkLoadTracker loads(graph, topology, node_of_rank);
  return {static_cast<double>(loads.max_load()), static_cast<double>(loads.smooth()),
          static_cast<double>(metrics::hop_bytes(graph, topology, node_of_rank)),
          energy != nullptr ? static_cast<double>(objective_cost(Objective::Energy, graph, topology,
                                                                 node_of_rank, energy))
                            : 0.0};
}

std::uint64_t hybrid_cost(const HybridReference& reference, std::uint64_t max_time, Uint128 smooth,
                          std::uint64_t hop_bytes, std::optional<std::int64_t> energy) {
  const auto ratio = [](double value, double of) { return of > 0 ? value / of : value; };
  double h = kHybridCongestion * ratio(static_cast<double>(max_time), reference.max_time) +
             kHybridSmooth * ratio(static_cast<double>(smooth), reference.smooth) +
             kHybridHopBytes * ratio(static_cast<double>(hop_bytes), reference.hop_bytes);
  if (energy) {
    h = (1 - reference.energy_weight) * h +
        reference.energy_weight * ratio(static_cast<double>(*energy), reference.energy);
  }
  // 1e12 units for a mapping as good as the reference; capped below 2^63.
  return static_cast<std::uint64_t>(std::llround(std::min(h * 1e12, 9e18)));
}

SearchCost search_cost(const SearchSpace& space, SearchGoal goal,
                       std::span<const NodeId> node_of_rank) {
  if (goal == SearchGoal::HopBytes)
    return {metrics::hop_bytes(space.graph(), space.topology(), node_of_rank), 0};
  if (goal == SearchGoal::Energy || goal == SearchGoal::Latency) {
    MAPSIM_EXPECTS(
        space.distance() != nullptr &&
            (space.distance()->weight() == RouteWeight::Energy) == (goal == SearchGoal::Energy),
        "a distance goal on a space with its distance");
    const Objective objective = goal == SearchGoal::Energy ? Objective::Energy : Objective::Latency;
    return {static_cast<std::uint64_t>(objective_cost(objective, space.graph(), space.topology(),
                                                      node_of_rank, space.distance())),
            0};
  }
  const LinkLoadTracker loads(space.graph(), space.topology(), node_of_rank);
  if (goal == SearchGoal::CongestionSmooth) return {0, loads.smooth()};
  if (goal == SearchGoal::Hybrid || goal == SearchGoal::TimeEnergy) {
    std::optional<std::int64_t> energy;
    if (goal == SearchGoal::TimeEnergy) {
      MAPSIM_EXPECTS(
          space.distance() != nullptr && space.distance()->weight() == RouteWeight::Energy,
          "time+energy on a space with the energy distance");
      energy = objective_cost(Objective::Energy, space.graph(), space.topology(), node_of_rank,
                              space.distance());
    }
    return {hybrid_cost(space.hybrid_reference(), loads.max_load(), loads.smooth(),
                        metrics::hop_bytes(space.graph(), space.topology(), node_of_rank), energy),
            0};
  }
  return {loads.max_load(), loads.sum_of_squares()};
}

namespace {

// Hop-bytes of a dense matrix on a separable machine, from per-axis tables (LocalSearch.hpp).
class AxisTableCost {
 public:
  static constexpr bool kEveryNode = true;  // evaluations are O(axes): every node is a target

  AxisTableCost(const SearchSpace& space, const Placement& placement)
      : space_(space),
        axes_(space.sides().size()),
        cost_(metrics::hop_bytes(space.graph(), space.topology(), placement.nodes())),
        weight_(static_cast<std::size_t>(space.graph().rank_count()), 0) {
    for (std::size_t d = 0; d < axes_; ++d) {
      const int side = space.sides()[d];
      offset_.push_back(width_);
      distance_offset_.push_back(distance_.size());
      width_ += static_cast<std::size_t>(side);
      for (int x = 0; x < side; ++x) {
        for (int y = 0; y < side; ++y) {
          const int straight = x < y ? y - x : x - y;
          distance_.push_back(space.periodic(d) ? std::min(straight, side - straight) : straight);
        }
      }
    }
    shift_.resize(width_);
    const Rank ranks = space.graph().rank_count();
    table_.assign(static_cast<std::size_t>(ranks) * width_, 0);
    tbb::parallel_for(Rank{0}, ranks, [&](Rank r) {
      std::int64_t* row = table_.data() + static_cast<std::size_t>(r) * width_;
      for (const auto& nb : space_.graph().neighbors(r)) {
        const auto at = space_.coordinates(placement.node(nb.rank));
        const auto bytes = static_cast<std::int64_t>(nb.bytes());
        for (std::size_t d = 0; d < axes_; ++d) {
          const int side = space_.sides()[d];
          for (int c = 0; c < side; ++c) row[offset_[d] + c] += bytes * distance(d, c, at[d]);
        }
      }
    });
  }

  [[nodiscard]] SearchCost cost() const { return {cost_, 0}; }

  /// Rank i is about to be examined against many slots: its row of A, dense.
  void focus(Rank i) {
    if (focus_ != -1) {
      for (const auto& nb : space_.graph().neighbors(focus_))
        weight_[static_cast<std::size_t>(nb.rank)] = 0;
    }
    focus_ = i;
    for (const auto& nb : space_.graph().neighbors(i))
      weight_[static_cast<std::size_t>(nb.rank)] = nb.bytes();
  }

  SearchCost after(const Placement& p, Slot a, Slot b, std::uint64_t& work) {
    const Rank i = p.occupant(a);
    const Rank j = p.occupant(b);
    const NodeId x = p.node_of_slot(a);
    const NodeId y = p.node_of_slot(b);
    work += 1 + (j == -1 ? 1 : 2) * axes_;
    if (x == y) return {cost_, 0};
    std::int64_t delta = sum(i, y) - sum(i, x);
    if (j != -1) {
      delta += sum(j, x) - sum(j, y) +
               2 * static_cast<std::int64_t>(bytes_between(i, j)) * space_.topology().hops(x, y);
    }
    return {static_cast<std::uint64_t>(static_cast<std::int64_t>(cost_) + delta), 0};
  }

  void commit(Placement& p, Slot a, Slot b, const SearchCost& after, std::uint64_t& work) {
    const Rank i = p.occupant(a);
    const Rank j = p.occupant(b);
    const auto from = space_.coordinates(p.node_of_slot(a));
    const auto to = space_.coordinates(p.node_of_slot(b));
    p.exchange(a, b);
    cost_ = after.primary;
    // shift_[offset_d + c] = dist_d(c, to_d) - dist_d(c, from_d) on the axes that change.
    changed_.clear();
    std::size_t span = 0;  // their coordinates
    for (std::size_t d = 0; d < axes_; ++d) {
      if (from[d] == to[d]) continue;
      changed_.push_back(d);
      span += static_cast<std::size_t>(space_.sides()[d]);
      for (int c = 0; c < space_.sides()[d]; ++c)
        shift_[offset_[d] + c] = distance(d, c, to[d]) - distance(d, c, from[d]);
    }
    auto apply = [&](Rank mover, std::int64_t sign) {
      const auto partners = space_.graph().neighbors(mover);
      work += partners.size() * span;
      for (const auto& nb : partners) {
        std::int64_t* row = table_.data() + static_cast<std::size_t>(nb.rank) * width_;
        const std::int64_t bytes = sign * static_cast<std::int64_t>(nb.bytes());
        for (const std::size_t d : changed_) {
          const std::size_t begin = offset_[d];
          const std::size_t end = begin + static_cast<std::size_t>(space_.sides()[d]);
          for (std::size_t c = begin; c < end; ++c) row[c] += bytes * shift_[c];
        }
      }
    };
    apply(i, +1);
    if (j != -1) apply(j, -1);
  }

 private:
  [[nodiscard]] int distance(std::size_t d, int x, int y) const {
    const auto side = static_cast<std::size_t>(space_.sides()[d]);
    return distance_[distance_offset_[d] + static_cast<std::size_t>(x) * side +
                     static_cast<std::size_t>(y)];
  }
  // D_r(n) = sum_j A_rj hops(n, f(j)).
  [[nodiscard]] std::int64_t sum(Rank r, NodeId n) const {
    const std::int64_t* row = table_.data() + static_cast<std::size_t>(r) * width_;
    const auto c = space_.coordinates(n);
    std::int64_t total = 0;
    for (std::size_t d = 0; d < axes_; ++d)
      total += row[offset_[d] + static_cast<std::size_t>(c[d])];
    return total;
  }
  [[nodiscard]] std::uint64_t bytes_between(Rank i, Rank j) const {
    if (i == focus_) return weight_[static_cast<std::size_t>(j)];
    const auto partners = space_.graph().neighbors(i);
    const auto it = std::lower_bound(partners.begin(), partners.end(), j,
                                     [](const Neighbor& nb, Rank r) { return nb.rank < r; });
    return it != partners.end() && it->rank == j ? it->bytes() : 0;
  }

  const SearchSpace& space_;
  std::size_t axes_;
  std::uint64_t cost_;
  std::vector<std::size_t> offset_;           // axis d's coordinates start at offset_[d]
  std::size_t width_ = 0;                     // sum of the sides
  std::vector<std::size_t> distance_offset_;  // axis d's side x side distances
  std::vector<int> distance_;
  std::vector<std::int64_t> table_;    // E_r,d(c) at r * width_ + offset_[d] + c
  std::vector<std::uint64_t> weight_;  // A_ij of the focused rank i, by j
  Rank focus_ = -1;
  std::vector<std::size_t> changed_;
  std::vector<std::int64_t> shift_;
};

// Perturbation regions hold 3 to kRegion ranks or nodes.
constexpr std::uint64_t kRegion = 10;
// Partners drawn at random per examination, for ranks with more partners than the heaviest few.
constexpr int kRandomPartners = 2;
// Rounds in a row without work after which a search stops (Chain::run): far more than a search
// that can still move traffic ever strings together (idle ranks alone in every region drawn).
constexpr std::uint64_t kIdleRounds = 1 << 14;

template <typename Cost>
class Chain {
 public:
  Chain(const SearchSpace& space, std::span<const NodeId> start, const LocalSearchOptions& options,
        Random random)
      : space_(space),
        options_(options),
        random_(random),
        placement_(space.topology(), start),
        cost_(space, placement_),
        queued_(static_cast<std::size_t>(space.graph().rank_count()), 0),
        stamp_(static_cast<std::size_t>(space.topology().node_count()), 0) {
    if (options_.time_limit > 0) {
      deadline_ = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(options_.time_limit));
    }
  }

  LocalSearchResult run() {
    LocalSearchResult result;
    result.start_cost = cost_.cost();
    const Rank n = space_.graph().rank_count();
    std::vector<Rank> order(static_cast<std::size_t>(n));
    for (Rank r = 0; r < n; ++r) order[static_cast<std::size_t>(r)] = r;
    random_.shuffle(std::span<Rank>(order));
    for (const Rank r : order) push(r);
    descend();
    SearchCost best = cost_.cost();
    auto nodes = placement_.nodes();
    result.nodes.assign(nodes.begin(), nodes.end());
    // Under the link objectives work counts the links of routes: a round that puts no traffic on
    // a link counts none (every rank on one node, or no bytes at all). So many in a row mean no
    // move changes the cost, and the budget would never be spent: the search stops.
    std::uint64_t idle_rounds = 0;
    while (!exhausted() && n >= 2 && idle_rounds < kIdleRounds) {
      const std::uint64_t work_before = work_;
      ++result.rounds;
      journal_.clear();
      journaling_ = true;
      perturb();
      descend();
      journaling_ = false;
      const SearchCost now = cost_.cost();
      if (now < best) {
        best = now;
        nodes = placement_.nodes();
        result.nodes.assign(nodes.begin(), nodes.end());
      } else if (best < now) {
        undo();
      }
      idle_rounds = work_ == work_before ? idle_rounds + 1 : 0;
    }
    result.cost = best;
    result.work = work_;
    return result;
  }

 private:
  [[nodiscard]] bool exhausted() {
    if (options_.time_limit > 0) {
      if (++clock_calls_ % 64 != 0) return timed_out_;
      timed_out_ = std::chrono::steady_clock::now() >= *deadline_;
      return timed_out_;
    }
    return work_ >= options_.work;
  }

  void push(Rank r) {
    auto& flag = queued_[static_cast<std::size_t>(r)];
    if (flag) return;
    flag = 1;
    queue_.push_back(r);
  }

  void exchange(Slot a, Slot b, const SearchCost& after) {
    cost_.commit(placement_, a, b, after, work_);
    if (journaling_) journal_.push_back({a, b});
  }

  void undo() {
    for (auto it = journal_.rbegin(); it != journal_.rend(); ++it) {
      auto [a, b] = *it;
      if (placement_.occupant(a) == -1) std::swap(a, b);
      cost_.commit(placement_, a, b, cost_.after(placement_, a, b, work_), work_);
    }
    journal_.clear();
    for (const Rank r : queue_) queued_[static_cast<std::size_t>(r)] = 0;
    queue_.clear();
  }

  void descend() {
    while (!queue_.empty()) {
      if (exhausted()) return;
      const Rank r = queue_.front();
      queue_.pop_front();
      queued_[static_cast<std::size_t>(r)] = 0;
      improve(r);
    }
  }

  // The best improving move of rank i, made if there is one.
  void improve(Rank i) {
    constexpr bool kEveryNode = requires {
      Cost::kEveryNode;
    };
    if constexpr (kEveryNode) cost_.focus(i);
    ++current_;
    const Slot own = placement_.slot(i);
    const NodeId home = placement_.node(i);
    stamp_[static_cast<std::size_t>(home)] = current_;
    const SearchCost now = cost_.cost();
    SearchCost best = now;
    Slot best_slot = -1;
    auto try_node = [&](NodeId y) {
      auto& stamp = stamp_[static_cast<std::size_t>(y)];
      if (stamp == current_) return;
      stamp = current_;
      bool idle_tried = false;  // the idle cores of a node are all alike
      for (Slot s = placement_.first_slot(y); s < placement_.first_slot(y) + placement_.cores();
           ++s) {
        if (placement_.occupant(s) == -1) {
          if (idle_tried) continue;
          idle_tried = true;
        }
        const SearchCost after = cost_.after(placement_, own, s, work_);
        if (after < best) {
          best = after;
          best_slot = s;
        }
      }
    };
    auto near_partner = [&](Rank l) {
      const NodeId y = placement_.node(l);
      try_node(y);
      for (const NodeId z : space_.near(y)) try_node(z);
    };
    if constexpr (kEveryNode) {
      for (NodeId y = 0; y < space_.topology().node_count(); ++y) try_node(y);
    } else {
      for (const Rank l : space_.partners(i)) near_partner(l);
      // Ranks with more partners than the heaviest few (all-to-alls): also near a few others,
      // drawn at random, so that moves towards the bulk of the light traffic are tried too.
      const auto all = space_.graph().neighbors(i);
      if (all.size() > space_.partners(i).size()) {
        for (int k = 0; k < kRandomPartners; ++k)
          near_partner(all[static_cast<std::size_t>(random_.below(all.size()))].rank);
      }
      for (const NodeId z : space_.near(home)) try_node(z);
    }
    if (best_slot == -1) return;
    const Rank other = placement_.occupant(best_slot);
    exchange(own, best_slot, best);
    push(i);
    for (const Rank l : space_.partners(i)) push(l);
    if (other != -1) {
      push(other);
      for (const Rank l : space_.partners(other)) push(l);
    }
  }

  // Shuffles a random region at random and queues its ranks.
  void perturb() {
    const Rank n = space_.graph().rank_count();
    const auto size = static_cast<std::size_t>(3 + random_.below(kRegion - 2));
    const auto seed_rank = static_cast<Rank>(random_.below(static_cast<std::uint64_t>(n)));
    region_.clear();
    if (random_.below(2) == 0) {
      // A rank and its partners, breadth first.
      std::vector<Rank> ranks{seed_rank};
      for (std::size_t k = 0; k < ranks.size() && ranks.size() < size; ++k) {
        for (const Rank l : space_.partners(ranks[k])) {
          if (ranks.size() == size) break;
          if (std::find(ranks.begin(), ranks.end(), l) == ranks.end()) ranks.push_back(l);
        }
      }
      for (const Rank r : ranks) region_.push_back(placement_.slot(r));
    } else {
      // The cores of a node and of its nearest nodes.
      const NodeId home = placement_.node(seed_rank);
      std::vector<NodeId> nodes{home};
      for (const NodeId z : space_.near(home)) {
        if (nodes.size() == size) break;
        nodes.push_back(z);
      }
      for (const NodeId y : nodes) {
        for (Slot s = placement_.first_slot(y); s < placement_.first_slot(y) + placement_.cores();
             ++s)
          region_.push_back(s);
      }
    }
    // Fisher-Yates over the region's slots, as exchanges.
    for (std::size_t k = region_.size(); k > 1; --k) {
      const auto j = static_cast<std::size_t>(random_.below(k));
      Slot a = region_[k - 1];
      Slot b = region_[j];
      if (a == b) continue;
      if (placement_.occupant(a) == -1) std::swap(a, b);
      if (placement_.occupant(a) == -1) continue;
      exchange(a, b, cost_.after(placement_, a, b, work_));
    }
    for (const Slot s : region_) {
      const Rank r = placement_.occupant(s);
      if (r == -1) continue;
      push(r);
      for (const Rank l : space_.partners(r)) push(l);
    }
  }

  const SearchSpace& space_;
  LocalSearchOptions options_;
  Random random_;
  Placement placement_;
  Cost cost_;
  std::deque<Rank> queue_;
  std::vector<char> queued_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t current_ = 0;
  std::vector<Slot> region_;
  std::vector<std::pair<Slot, Slot>> journal_;
  bool journaling_ = false;
  std::uint64_t work_ = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::uint64_t clock_calls_ = 0;
  bool timed_out_ = false;
};

}  // namespace

LocalSearchResult local_search(const SearchSpace& space, std::span<const NodeId> start,
                               const LocalSearchOptions& options, Random random) {
  MAPSIM_EXPECTS(static_cast<Rank>(start.size()) == space.graph().rank_count(),
                 "local search from a mapping of another size");
  const bool energy = options.goal == SearchGoal::Energy || options.goal == SearchGoal::TimeEnergy;
  MAPSIM_EXPECTS((!energy && options.goal != SearchGoal::Latency) ||
                     (space.distance() != nullptr &&
                      (space.distance()->weight() == RouteWeight::Energy) == energy),
                 "a local search under a distance objective on a space with its distance");
  if (options.goal == SearchGoal::HopBytes && space.dense() && space.separable())
    return Chain<AxisTableCost>(space, start, options, random).run();
  if (options.goal == SearchGoal::HopBytes)
    return Chain<HopBytesCost>(space, start, options, random).run();
  if (options.goal == SearchGoal::Energy || options.goal == SearchGoal::Latency)
    return Chain<RouteCost>(space, start, options, random).run();
  if (options.goal == SearchGoal::CongestionSmooth)
    return Chain<CongestionCost<true>>(space, start, options, random).run();
  if (options.goal == SearchGoal::Hybrid)
    return Chain<HybridCost<false>>(space, start, options, random).run();
  if (options.goal == SearchGoal::TimeEnergy)
    return Chain<HybridCost<true>>(space, start, options, random).run();
  return Chain<CongestionCost<false>>(space, start, options, random).run();
}

}  // namespace mapsim::map
