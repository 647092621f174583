#pragma once
// Link loads of a mapping along its minimal routes, kept up to date while ranks move, for local
// search under the congestion objectives: L_l = bytes crossing directed link l (as
// metrics::link_loads), weighted by the time a byte takes on the link,
//   T_l = w_l L_l        w_l = 1 when every network link of the machine has one bandwidth,
//                        else round(1000 b_max / b_l), b_l the bandwidth of l's class and b_max
//                        the fastest class's (the default link table, topologies/LinkClass.hpp)
// so that T_l is the link's busy time in units of 1/1000 of a byte at b_max (Hoefler & Snir's
// congestion in seconds, up to a constant). The tracker keeps the largest T_l (a max segment tree
// over the links), the sum of squares sum_l T_l^2, and the smooth sum sum_l L_l^2 / b_l, as
// sum_l T_l L_l (up to the same constant). On a machine of one bandwidth all three are today's
// byte loads: L_l, sum L_l^2 and sum L_l^2.
//
// A change is described by the ranks that move and their new nodes; every message of theirs
// leaves its old route and takes its new one. evaluate() answers (max, sum of squares) after the
// change without making it; apply() makes it. Both cost O(route links touched x log links).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "mappers/Random.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

/// w per link class (above): 1 for every class when the machine's network links have one
/// bandwidth.
std::array<std::uint64_t, topo::kLinkClassCount> link_time_weights(const topo::Topology& topology);

class LinkLoadTracker {
 public:
  /// Throws InputError if the weighted loads could pass 64 bits: the matrix's bytes times the
  /// longest route times the largest weight above 2^63 - 1.
  LinkLoadTracker(const CommGraph& graph, const topo::Topology& topology,
                  std::span<const topo::NodeId> node_of_rank);

  /// max_l T_l.
  [[nodiscard]] std::uint64_t max_load() const { return tree_[1]; }
  /// sum_l T_l^2.
  [[nodiscard]] Uint128 sum_of_squares() const { return sum_of_squares_; }
  /// sum_l T_l L_l = sum_l w_l L_l^2.
  [[nodiscard]] Uint128 smooth() const { return smooth_; }
  /// T_l.
  [[nodiscard]] std::uint64_t load(topo::LinkId link) const {
    return tree_[leaves_ + static_cast<std::size_t>(link)];
  }
  /// w_l.
  [[nodiscard]] std::uint64_t weight(topo::LinkId link) const {
    return weight_[static_cast<std::size_t>(link)];
  }

  /// Ranks a and b (b may be -1) go to nodes to_a and to_b; `node_of_rank` is the mapping
  /// before the change. Returns (max, sum of squares, smooth) after it; `work` grows by the route
  /// links visited.
  struct After {
    std::uint64_t max = 0;
    Uint128 sum_of_squares = 0;
    Uint128 smooth = 0;
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
  Uint128 smooth_ = 0;
  std::vector<std::uint64_t> weight_;  // w_l per link
  std::vector<std::int64_t> delta_;    // per link, during collect()
  std::vector<topo::LinkId> touched_;
  std::vector<topo::LinkId> route_;
};

}  // namespace mapsim::map
