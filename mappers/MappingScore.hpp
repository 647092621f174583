#pragma once
// The cost of a whole mapping under every objective word of the mappers that score whole
// mappings (genetic, sampling), as a pair compared lexicographically:
//   cardinality, hop-bytes, energy, latency   (objective_cost, SearchObjective.hpp; second = 0)
//   congestion          (max_l T_l, sum_l T_l^2)    LocalSearch.hpp's search_cost, as `best`
//   congestion-smooth   (0, sum_l T_l L_l)            scores it
//   hybrid              (H, 0)                       H relative to the in-order mapping's sums
// The first four are computed as before this scorer existed (the same integers); the link
// objectives from the mapping's link loads (LinkLoadTracker.hpp), O(messages x route length) per
// mapping. `fitness` is what a fitness-proportionate selection reads: -|M| for cardinality, else
// 1 / (c + 1) with c the first component, or the second where the first is 0 (smooth).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/LocalSearch.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/SearchObjective.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

struct MappingCost {
  std::int64_t first = 0;
  Uint128 second = 0;

  friend bool operator==(const MappingCost&, const MappingCost&) = default;
  friend bool operator<(const MappingCost& a, const MappingCost& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  }
};

/// The objective words of genetic and sampling, as their `objective` parameters list them.
inline constexpr std::string_view kScoredObjectives =
    "cardinality|hop-bytes|energy|latency|congestion|congestion-smooth|hybrid";

class MappingScorer {
 public:
  /// Whether `word` is a link objective, whose sums need a reference mapping (hybrid's).
  [[nodiscard]] static bool links(std::string_view word) {
    return word == "congestion" || word == "congestion-smooth" || word == "hybrid";
  }
  /// `word`: one of kScoredObjectives; `reference`: for the link objectives, the in-order
  /// mapping (hybrid's sums are relative to its; reference() below), else unused; `link_table`:
  /// the link table whose energy per bit `energy` weighs (Problem::links). Throws InputError if the
  /// sums could pass 64 bits.
  MappingScorer(std::string_view word, const CommGraph& graph, const topo::Topology& topology,
                std::span<const topo::NodeId> reference, const topo::LinkTable& link_table = {});

  /// The cost of `node_of_rank`; safe to call from several threads at once.
  [[nodiscard]] MappingCost operator()(std::span<const topo::NodeId> node_of_rank) const;
  /// Bigger is fitter (above).
  [[nodiscard]] double fitness(const MappingCost& cost) const;
  [[nodiscard]] bool cardinality() const { return !goal_ && objective_ == Objective::Cardinality; }

 private:
  const topo::Topology& topology_;
  Objective objective_ = Objective::HopBytes;
  std::optional<ObjectiveInputs> inputs_;  // the objective_cost words
  std::optional<SearchGoal> goal_;         // the link words
  std::unique_ptr<const SearchSpace> space_;
};

/// The reference mapping a scorer of `word` needs for problem `p`: in-order for the link
/// objectives, none for the others.
std::vector<topo::NodeId> reference(std::string_view word, const Problem& p);

}  // namespace mapsim::map
