#pragma once
// The charts of `mapsim report`, laid out from ReportData (ReportData.hpp) as gnuplot scripts
// and data files (Chart.hpp); ReportWriter.hpp renders them. Every ratio is to in-order's value
// in the same context:
//
//   bars       one chart per machine and model (pages of at most kBarsPerPage workloads): per
//              workload a cluster of bars, one per mapper, of hop-bytes / in-order and, beside
//              it, simulated time / in-order (the OHTMA paper's Figs. 2 and 3); a model
//              without simulated times (`static`) has only the hop-bytes panel;
//   scaling    one chart per workload family, machine kind and model with at least two rank
//              counts: metric / in-order and time / in-order against the ranks (log2 axis), a
//              line per mapper; contexts of the same ranks (several machines of one kind) are
//              averaged;
//   agreement  one chart per machine and model: per mapper and workload a point at
//              (static metric / in-order, time / in-order), coloured by mapper and shaped by
//              workload, with the mean Spearman rho (mostly tied workloads apart) and each
//              workload's rho, tied pairs and discordant mapper pairs in the table;
//   summary    mean rho per static metric, per machine and model;
//   energy     one chart per machine and model with replays: per mapper and workload a point at
//              (time / in-order, network energy / in-order), each workload's time-energy Pareto
//              front marked and joined, and per workload the fastest and the most frugal mapper
//              in the table (EnergyCharts.cpp);
//   critical-path  one chart per machine and model with critical paths (pages of at most six
//              workloads): per mapper and workload a bar of makespan / in-order's, stacked by the
//              parts of its critical path, and per workload the fastest mapper and what changed
//              most from in-order in the table (CriticalPathCharts.cpp).
//
// A chart of two panels has one legend, beside the panel that shows every mapper; long titles
// wrap (ChartText.hpp's gp_title).
//
// Chart names are sanitised to [a-z0-9._-] and unique among the charts of one call; the kinds'
// prefixes ("bars-", "scaling-", "agreement-", "summary-", "energy-", "critical-path-") keep the
// calls apart.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/Chart.hpp"
#include "experiments/ReportData.hpp"

namespace mapsim::exp {

/// At most this many workloads in one bars chart; more go on further pages.
inline constexpr std::size_t kBarsPerPage = 12;

std::vector<Chart> bar_charts(const ReportData& data);

/// `metric`: the scaling metric (one of data.metrics), the first panel.
std::vector<Chart> scaling_charts(const ReportData& data, std::string_view metric = "hop_bytes");

/// `agreements`: of one static metric (as agreement(data, "hop_bytes") returns them).
std::vector<Chart> agreement_charts(const ReportData& data,
                                    const std::vector<ContextAgreement>& agreements);

/// Bars of the mean rho per static metric, per machine and model, with the summary as table;
/// nullopt if no summary has a rho (nothing was replayed, or too few mappers).
std::optional<Chart> agreement_summary_chart(const std::vector<AgreementSummary>& summaries);

/// Time against the network's energy per machine and model (none without energies).
std::vector<Chart> energy_charts(const ReportData& data);

/// Per machine and model, a bar per mapper and workload of its makespan / in-order's, stacked by
/// the parts of its critical path (none for runs without one: static, or stored before schema 4).
std::vector<Chart> critical_path_charts(const ReportData& data);

/// The mappers of `context` on its time-energy Pareto front: with both ratios to in-order, and
/// no other mapper as fast and as frugal and better in one; by time, then energy, then label.
std::vector<std::string> pareto_front(const ReportData& data, const ReportContext& context);

/// `text` lowercased, with every character outside [a-z0-9._-] replaced by '_' (runs of them by
/// one) and no leading '.' or '_' or trailing '_', e.g. "torus:4x4x4" -> "torus_4x4x4",
/// "flow (eager 0 B)" -> "flow_eager_0_b"; "chart" if nothing is left.
std::string sanitize_name(std::string_view text);

}  // namespace mapsim::exp
