#pragma once
// Internal: the moves replay-search draws from its incumbent and what it measured
// (ReplaySearch.hpp states the moves and when each is drawn).

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/Random.hpp"
#include "mappers/TimeOracle.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map::replay {

/// Rank pairs drawn with probability proportional to their bytes.
class WeightedPairs {
 public:
  void add(Rank a, Rank b, std::uint64_t bytes);
  [[nodiscard]] bool empty() const { return pairs_.empty(); }
  /// A pair drawn by bytes; none if there is none.
  [[nodiscard]] std::optional<std::pair<Rank, Rank>> draw(Random& random) const;

 private:
  std::vector<std::pair<Rank, Rank>> pairs_;
  std::vector<std::uint64_t> cumulative_;  ///< running sum of the pairs' bytes
};

/// Every rank's heaviest partner (bytes both ways; -1 without any) and the communicating pairs
/// (i < j) drawn by bytes.
struct Traffic {
  std::vector<Rank> heaviest;
  WeightedPairs pairs;

  explicit Traffic(const CommGraph& graph);
};

/// The pairs (i < j) whose routes in either direction cross one of the `top` busiest links of
/// `judgement` under `mapping`, drawn by bytes.
WeightedPairs pairs_on_busiest_links(const CommGraph& graph, const topo::Topology& topology,
                                     const topo::Mapping& mapping, const Judgement& judgement,
                                     std::size_t top);

/// The incumbent's placement: which ranks sit on each node and which cores are free.
class Placement {
 public:
  Placement(const topo::Topology& topology, const topo::Mapping& mapping);

  [[nodiscard]] topo::NodeId node(Rank r) const { return nodes_[static_cast<std::size_t>(r)]; }

  /// The incumbent with rank `a` moved next to node `target` — on it or on a node one hop away,
  /// by a swap with a rank there or onto a free core there, drawn uniformly — or nothing if no
  /// such place differs from where `a` is.
  [[nodiscard]] std::optional<topo::Mapping> moved_near(Rank a, topo::NodeId target,
                                                        Random& random) const;

 private:
  [[nodiscard]] std::int32_t free_core(topo::NodeId n) const;

  const topo::Topology& topology_;
  std::vector<topo::NodeId> nodes_;
  std::vector<std::int32_t> cores_;
  bool named_cores_ = false;
  std::vector<std::vector<Rank>> ranks_on_;
  std::vector<topo::NodeId> usable_;
};

/// `mapping` reflected along each grid dimension and rotated by one along each torus dimension:
/// transforms that keep every distance on a torus but change dimension-order routes. Only those
/// that are valid mappings (inside the allocation); none without a grid.
std::vector<topo::Mapping> symmetric_variants(const topo::Topology& topology,
                                              const topo::Mapping& mapping);

/// `mapping` with a random box of the grid reflected along one of its dimensions: every rank on a
/// node of the box moves, with its core, to the mirrored node (a bijection of the box's nodes, so
/// capacities hold). None if the machine has no grid, nothing moves or the result leaves the
/// allocation.
std::optional<topo::Mapping> reflected_block(const topo::Topology& topology,
                                             const topo::Mapping& mapping, Random& random);

}  // namespace mapsim::map::replay
