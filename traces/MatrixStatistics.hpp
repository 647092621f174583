#pragma once
// Summary statistics of a communication matrix: totals, self traffic, per-rank degrees and
// volumes with their spread, and the heaviest pairs.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "support/Ids.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::traces {

/// What one rank sends and receives. Degrees count partners other than the rank itself; traffic
/// includes messages to itself.
struct RankTraffic {
  Rank rank = 0;
  std::uint32_t out_degree = 0;
  std::uint32_t in_degree = 0;
  Traffic sent;
  Traffic received;

  friend bool operator==(const RankTraffic&, const RankTraffic&) = default;
};

/// Minimum, mean and maximum of a per-rank quantity over all ranks (idle ones included).
struct Spread {
  double min = 0;
  double mean = 0;
  double max = 0;
};

struct PairTraffic {
  Rank src = 0;
  Rank dst = 0;
  Traffic traffic;

  friend bool operator==(const PairTraffic&, const PairTraffic&) = default;
};

struct MatrixStatistics {
  Rank ranks = 0;
  std::size_t nonzero_pairs = 0;  ///< ordered pairs with traffic, self pairs included
  std::size_t self_pairs = 0;     ///< ranks that send to themselves
  Traffic total;
  Traffic self;           ///< messages from a rank to itself
  Rank active_ranks = 0;  ///< ranks that send or receive anything
  std::vector<RankTraffic> per_rank;
  Spread out_degree;
  Spread in_degree;
  Spread sent_bytes;
  Spread received_bytes;
  /// The heaviest ordered pairs: most bytes first, then most messages, then (src, dst).
  std::vector<PairTraffic> heaviest;
};

/// Statistics of `matrix` with its `top` heaviest pairs. O(nonzeros · log top).
MatrixStatistics matrix_statistics(const CommMatrix& matrix, std::size_t top = 10);

}  // namespace mapsim::traces
