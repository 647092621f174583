#pragma once
// What a report opens with, before its charts: per context (workload, machine and model) the
// mapper to use and what the static metric would have chosen, and per workload and machine
// replayed under several models whether the models agree. Plain values from ReportData, and the
// tables the index shows (ReportWriter.hpp).
//
//   recommended   the mapper with the lowest simulated time (mean over its runs); a context
//                 without simulated times (the static model): the lowest hop-bytes. Equal
//                 values go to the first mapper in the context's order (in-order, then by
//                 label); mappers within the tie tolerance of it are named as tied;
//   gain          its time (static: hop-bytes) / in-order's, as a ratio and in %;
//   hop-bytes     the mapper with the lowest hop-bytes among those with a time: the same as
//                 the recommended one; or one whose hop-bytes ties with the recommended one's
//                 (hop-bytes cannot tell them apart); or one whose time ties with it (as good);
//                 or another, with how much longer it runs;
//   models        contexts of one workload and machine under two or more models (model label
//                 or MPI and sim settings): whether every model recommends the same mapper,
//                 and the spread (largest - smallest) of the recommended mappers' ratios.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/Chart.hpp"
#include "experiments/ReportData.hpp"

namespace mapsim::exp {

/// What the static metric (hop-bytes) would have chosen, against the recommended mapper.
enum class StaticChoice : std::uint8_t {
  StaticOnly,  ///< no simulated times: the recommendation is hop-bytes' own
  Same,        ///< the same mapper
  TiedMetric,  ///< another, whose hop-bytes ties with the recommended one's
  TiedTime,    ///< another, whose time ties with the recommended one's
  Other,       ///< another, slower beyond the tolerance
};

struct ContextFinding {
  std::size_t context = 0;  ///< index into ReportData::contexts
  bool simulated = false;   ///< chosen by simulated time (else by hop-bytes)
  std::string best;         ///< the recommended mapper
  /// Its time (static: hop-bytes) / in-order's; nullopt without in-order.
  std::optional<double> best_ratio;
  std::vector<std::string> tied_with_best;  ///< other mappers within the tolerance of it
  StaticChoice static_choice = StaticChoice::StaticOnly;
  std::string static_pick;  ///< the lowest hop-bytes among the mappers with a time
  /// static_pick's time / best's time (>= 1); nullopt when static only.
  std::optional<double> static_pick_slowdown;
};

/// One finding per context that has a mapper with a value; `tie_tolerance` as agreement().
std::vector<ContextFinding> findings(const ReportData& data,
                                     double tie_tolerance = kDefaultTieTolerance);

struct ModelComparison {
  std::string workload;
  std::string machine;
  std::vector<std::size_t> findings;  ///< indices into the findings, one per model
  /// One mapper is every model's recommendation or tied with it (ContextFinding::tied_with_best).
  bool same_winner = false;
  /// Every model recommends the same mapper itself.
  bool same_best = false;
  /// Largest - smallest recommended ratio over the models; nullopt if one lacks a ratio.
  std::optional<double> ratio_spread;
};

/// The workloads and machines with simulated findings under two or more models.
std::vector<ModelComparison> compare_models(const ReportData& data,
                                            const std::vector<ContextFinding>& found);

/// The index's opening tables: "mappers" (a row per finding) and, if any workload and machine
/// ran under several models, "models". `agreements`: of hop-bytes (for each context's rho).
std::vector<ChartTable> findings_tables(const ReportData& data,
                                        const std::vector<ContextFinding>& found,
                                        const std::vector<ModelComparison>& models,
                                        const std::vector<ContextAgreement>& agreements,
                                        double tie_tolerance);

}  // namespace mapsim::exp
