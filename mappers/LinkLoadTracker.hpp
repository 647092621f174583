#pragma once
// Dimension-order link loads of a mapping, kept up to date while ranks move, for local search
// under the congestion objective: L_l = bytes crossing directed link l (as metrics::link_loads),
// the largest load (a max segment tree over the links) and the sum of squared loads.
//
// A change is described by the ranks that move and their new nodes; every message of theirs
// leaves its old route and takes its new one. evaluate() answers (max, sum of squares) after the
// change without making it; apply() makes it. Both cost O(route links touched x log links).

#include <cstdint>
#include <span>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/Random.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

class LinkLoadTracker {
 public:
  LinkLoadTracker(const CommGraph& graph, const topo::Topology& topology,
                  std::span<const topo::NodeId> node_of_rank);

  [[nodiscard]] std::uint64_t max_load() const { return tree_[1]; }
  [[nodiscard]] Uint128 sum_of_squares() const { return sum_of_squares_; }
  [[nodiscard]] std::uint64_t load(topo::LinkId link) const {
    return tree_[leaves_ + static_cast<std::size_t>(link)];
  }

  /// Ranks a and b (b may be -1) go to nodes to_a and to_b; `node_of_rank` is the mapping
  /// before the change. Returns (max, sum of squares) after it; `work` grows by the route links
  /// visited.
  struct After {
    std::uint64_t max = 0;
    Uint128 sum_of_squares = 0;
  };
  [[nodiscard]] After evaluate(std::span<const topo::NodeId> node_of_rank, Rank a,
                               topo::NodeId to_a, Rank b, topo::NodeId to_b, std::uint64_t& work);
  void apply(std::span<const topo::NodeId> node_of_rank, Rank a, topo::NodeId to_a, Rank b,
             topo::NodeId to_b, std::uint64_t& work);

 private:
  // Accumulates the load changes of the move in delta_ / touched_.
  void collect(std::span<const topo::NodeId> node_of_rank, Rank a, topo::NodeId to_a, Rank b,
               topo::NodeId to_b, std::uint64_t& work);
  void add_route(topo::NodeId from, topo::NodeId to, std::int64_t bytes, std::uint64_t& work);
  void set(std::size_t link, std::uint64_t value);

  const CommGraph& graph_;
  const topo::Topology& topology_;
  std::size_t leaves_ = 1;
  std::vector<std::uint64_t> tree_;  // tree_[leaves_ + l] = L_l; tree_[k] = max of children
  Uint128 sum_of_squares_ = 0;
  std::vector<std::int64_t> delta_;  // per link, during collect()
  std::vector<topo::LinkId> touched_;
  std::vector<topo::LinkId> route_;
};

}  // namespace mapsim::map
