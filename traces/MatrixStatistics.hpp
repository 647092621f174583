#pragma once
// Summary statistics of a communication matrix: totals, self traffic, per-rank degrees and
// volumes with their spread, and the heaviest pairs.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

/// Below this share of a matrix's bytes, its point-to-point messages are "a small share": the
/// collectives then decide the placement (and the replayed time), which the user should know.
inline constexpr double kSmallPointToPointShare = 0.10;

/// Something about the matrix the mappers get that could mislead, in one sentence.
struct MatrixCaveat {
  bool warning = false;  ///< the mapping is arbitrary (else a note)
  std::string text;
};

/// What the mappers' matrix of an input holds when it could mislead: an empty matrix (every
/// placement then has hop-bytes 0), point-to-point messages under kSmallPointToPointShare of its
/// bytes, collectives left out. `collectives` says whether the matrix counts the collectives'
/// messages, `collective_calls` how many collective calls the input has if known (counted once
/// per rank taking part), `p2p_option` how the user leaves collectives out (e.g. "--p2p-only").
std::vector<MatrixCaveat> matrix_caveats(const CommMatrix& matrix, bool collectives,
                                         std::optional<std::uint64_t> collective_calls,
                                         std::string_view p2p_option);

}  // namespace mapsim::traces
