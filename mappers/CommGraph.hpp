#pragma once
// The communication matrix seen as an undirected graph, for mappers and swap deltas: for every
// rank, its neighbours (ranks it sends to or receives from, itself excluded) in increasing
// order, with the traffic of each direction kept apart so that no metric assumes symmetric hops.
// Self-messages (a rank sending to itself) never cross a link and are left out.

#include <cstdint>
#include <span>
#include <vector>

#include "support/Ids.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::map {

struct Neighbor {
  Rank rank = 0;
  std::uint64_t bytes_out = 0;     ///< bytes this rank sends to `rank`
  std::uint64_t bytes_in = 0;      ///< bytes `rank` sends to this rank
  std::uint64_t messages_out = 0;  ///< messages this rank sends to `rank`
  std::uint64_t messages_in = 0;   ///< messages `rank` sends to this rank

  /// Bytes both ways: the edge weight of the undirected graph.
  [[nodiscard]] std::uint64_t bytes() const { return bytes_out + bytes_in; }
  [[nodiscard]] std::uint64_t messages() const { return messages_out + messages_in; }
};

class CommGraph {
 public:
  CommGraph() : row_start_(1, 0) {}
  explicit CommGraph(const traces::CommMatrix& matrix);

  /// The same graph weighted by messages: every neighbour's bytes become its message counts (the
  /// weights of objective=latency, which a message costs whatever its size).
  [[nodiscard]] CommGraph by_messages() const;

  /// The same graph without its light pairs: those whose bytes (both ways) are under `share` of
  /// the heaviest pair's. A stencil's halos stand out from the small messages its collectives
  /// send (regular-pattern detection, RegularPattern.hpp).
  [[nodiscard]] CommGraph heavy(double share) const;

  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(row_start_.size() - 1); }
  /// Number of undirected edges (pairs of distinct ranks with traffic either way).
  [[nodiscard]] std::size_t edge_count() const { return neighbors_.size() / 2; }

  /// Neighbours of `rank`, in increasing rank order.
  [[nodiscard]] std::span<const Neighbor> neighbors(Rank rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return {neighbors_.data() + row_start_[r], row_start_[r + 1] - row_start_[r]};
  }
  [[nodiscard]] int degree(Rank rank) const { return static_cast<int>(neighbors(rank).size()); }
  /// Bytes `rank` sends to and receives from other ranks.
  [[nodiscard]] std::uint64_t bytes(Rank rank) const {
    return volume_[static_cast<std::size_t>(rank)];
  }
  /// Largest number of neighbours of any rank.
  [[nodiscard]] int max_degree() const { return max_degree_; }

 private:
  std::vector<std::size_t> row_start_;
  std::vector<Neighbor> neighbors_;
  std::vector<std::uint64_t> volume_;
  int max_degree_ = 0;
};

}  // namespace mapsim::map
