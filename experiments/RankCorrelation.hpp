#pragma once
// Spearman's rank correlation and pair counts: how far one measure orders a set of mappings as
// another does — e.g. hop-bytes against simulated time, the question the simulator exists to
// answer. Values closer than a relative tolerance are ties, so that noise (FT's mappings differ
// in hop-bytes by 0.0005 %) is not counted as a finding:
//
//   tied(a, b)  |a - b| <= tolerance * max(|a|, |b|)        (tolerance 0: a == b)
//   tie groups  the values sorted ascending (equal values by position); a group starts at the
//               first value not yet in one and takes every following value tied with that
//               first value, then the next group starts. Deterministic, and with tolerance 0
//               the groups are the runs of equal values.
//   ranks       1..n in sorted order; every value of a group gets the group's average rank
//   rho         Pearson correlation of the ranks of a and of b; 1 = same order
//   pairs       i < j: tied if tied on either side (pairwise rule above), else concordant if
//               (a_i - a_j) * (b_i - b_j) > 0, else discordant
//
// With non-negative values (every metric) two values of one group are also tied pairwise; the
// converse can fail at a group's edge (x tied with y, y with z, z not with x), where pairs and
// ranks may differ. The results database's rank_correlation view computes rho in SQL with
// exact ties (tolerance 0; tested to agree).

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace mapsim::exp {

/// The default relative tie tolerance of `mapsim report` and `mapsim results`: 0.1 %.
inline constexpr double kDefaultTieTolerance = 1e-3;

/// Whether `a` and `b` are tied within the relative `tolerance` (see above).
bool tied(double a, double b, double tolerance);

/// Ranks 1..n of `values`, each tie group (see above) at its average rank.
std::vector<double> tied_ranks(std::span<const double> values, double tolerance);

/// Spearman's rank correlation of two equally long samples, ties within `tolerance` on either
/// side; 0 if fewer than two values or if either sample has a single tie group.
double spearman(std::span<const double> a, std::span<const double> b, double tolerance = 0);

struct PairCounts {
  std::size_t concordant = 0;
  std::size_t discordant = 0;
  std::size_t tied = 0;  ///< tied in a or in b (or both)
};

/// Every pair i < j of two equally long samples (empty counts if their lengths differ).
PairCounts count_pairs(std::span<const double> a, std::span<const double> b, double tolerance);

/// A tie tolerance given as `text` by `option` (e.g. "--tie-tolerance"): a number in [0, 1);
/// throws InputError naming the option and the text otherwise.
double parse_tie_tolerance(std::string_view text, std::string_view option);

}  // namespace mapsim::exp
