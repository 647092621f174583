#pragma once
// Spearman's rank correlation: how far one measure orders a set of mappings as another does —
// e.g. hop-bytes against simulated time, the question the simulator exists to answer. The
// results database's rank_correlation view computes the same in SQL (tested to agree).
//
//   rho = Pearson correlation of the ranks (ties get their average rank); 1 = same order.

#include <span>

namespace mapsim::exp {

/// Spearman's rank correlation of two equally long samples; 0 if fewer than two values or if
/// either sample is constant.
double spearman(std::span<const double> a, std::span<const double> b);

}  // namespace mapsim::exp
