#pragma once
// Regular-pattern detection, after Bhatele's pattern matching (docs/references.md,
// "Pattern Matching"): find the largest number of neighbours of any rank; if it is small, take
// an arbitrary rank (rank 0) and the differences between its rank and its neighbours' as
// candidate row lengths, and accept a candidate if every communicating pair is at distance 1
// or `dist`. Generalised here to:
//   2-D  at most 4 neighbours per rank (the slides' "<= 5" counts the rank itself); grid
//        dx x n/dx, rank = x + dx * y, every pair one step apart in x or y
//   3-D  at most 6 neighbours; grid dx x dy x dz, rank = x + dx * (y + dy * z), dx and dx * dy
//        taken from rank 0's neighbour differences
//   1-D  every pair one rank apart: a chain or ring, grid n x 1
// A step across the grid's edge (x from 0 to dx - 1, ...) counts as one step: periodic
// stencils are regular. A rank without partners is allowed (it sits at its grid place). The
// first grid that explains every pair wins: 1-D, then 2-D with the smallest row, then 3-D.
// That is the exact match of the slides. The `dominant` match, where the exact one finds no
// grid, looks again without the light pairs (under kLightPairShare of the heaviest pair's
// bytes): the collectives of an NPB kernel (broadcasts from rank 0, allreduces) add partners
// that hide its halo grid, and carry a tiny share of its bytes.

#include <cstdint>
#include <string_view>
#include <vector>

#include "mappers/CommGraph.hpp"

namespace mapsim::map {

enum class PatternMatch : std::uint8_t { Exact, Dominant };

/// Pairs lighter than this share of the heaviest pair's bytes do not count under
/// PatternMatch::Dominant.
inline constexpr double kLightPairShare = 0.01;

/// The process grid of a regular pattern (x fastest), or empty if the pattern is irregular.
std::vector<int> detect_pattern(const CommGraph& graph, PatternMatch match = PatternMatch::Exact);

/// True if every communicating pair of `graph` is one grid step apart on `dims` (with wrap).
bool fits_grid(const CommGraph& graph, const std::vector<int>& dims);

/// Parses a grid shape "AxB" or "AxBxC"; throws InputError naming `what` unless its product is
/// `ranks`.
std::vector<int> parse_grid(std::string_view text, Rank ranks, std::string_view what);

}  // namespace mapsim::map
