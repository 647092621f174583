#pragma once
// What `mapsim report` draws, read from a results database and reduced to plain values that the
// charts (ReportCharts.hpp) only lay out:
//
//   bars       per machine and model: for each workload a group of bars, one per mapper, of
//              static hop-bytes and of simulated time, both divided by in-order's value in the
//              same context (the OHTMA paper's Figs. 2 and 3);
//   scaling    per workload family (the workload without its rank count), machine kind and
//              model: a metric / in-order against the rank count, one line per mapper;
//   agreement  per context: Spearman's rho of a static metric and the simulated time over the
//              mappers, and the discordant pairs: mappers a, b with
//                  (static(a) - static(b)) * (time(a) - time(b)) < 0,
//              i.e. the static metric orders them one way and the simulation the other; values
//              within a relative tie tolerance (RankCorrelation.hpp, default 0.1 %) are ties,
//              on either side, and a tied pair is neither discordant nor alike. A context whose
//              pairs are mostly tied (more than half) has no finding: its rho is shown but left
//              out of the means. Summarised per machine and model.
//
// A mapper's value in a context is the mean over its done runs (repeats and seeds) of one
// mapper label; failed runs are left out (a mapper with only failed runs has no row, a context
// without done runs no entry). Contexts are as in `mapsim results`: the run's configuration
// without mapper, parameters, seed and repeat.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/RankCorrelation.hpp"
#include "experiments/Store.hpp"
#include "traces/CollectiveAlgorithm.hpp"

namespace mapsim::exp {

/// The static metrics the report compares with the simulation: hop-bytes, the busiest link in
/// bytes, the dilation, and the sums the search objectives minimise (congestion: the busiest
/// link in seconds; congestion-smooth; latency).
inline constexpr std::string_view kReportStaticMetrics[] = {"hop_bytes",         "link_bytes_max",
                                                            "dilation_max",      "busiest_link_s",
                                                            "link_load_squares", "latency_s"};

/// The makespan and the parts of its critical path (sim/Result.hpp, CriticalPath), in seconds, as
/// the results view names them: the critical-path charts (CriticalPathCharts.cpp).
inline constexpr std::string_view kCriticalPathMetrics[] = {
    "makespan_s",           "critical_compute_s",    "critical_overhead_s", "critical_latency_s",
    "critical_bandwidth_s", "critical_contention_s", "critical_waiting_s"};

struct ReportQuery {
  std::string where;  ///< SQL condition over the results view ("" = all runs)
  /// Simulated time: a metric of schema::metrics() (makespan_s: with compute-scale 0, the
  /// communication time).
  std::string time_metric = "makespan_s";
  /// The metric of the scaling charts.
  std::string scaling_metric = "hop_bytes";
};

struct ReportRow {
  std::string mapper;     ///< mapper label
  std::int64_t runs = 0;  ///< done runs averaged
  /// Per ReportData::metrics; nullopt: no value (e.g. no replay).
  std::vector<std::optional<double>> values;
  /// values / in-order's value in the context; nullopt without in-order or if it is 0.
  std::vector<std::optional<double>> ratios;
};

struct ReportContext {
  std::string context_key;
  std::string workload;
  std::string family;  ///< workload_spec without its rank count, e.g. "npb:lu:D:iterations=2"
  std::int64_t ranks = 0;
  std::string machine;
  std::string topology;  ///< canonical spec
  std::string topology_kind;
  std::string model;  ///< model label
  std::optional<std::int64_t> eager_threshold;
  std::optional<double> compute_scale;
  std::string mpi;              ///< mpi_settings_title of its runs' configuration
  std::vector<ReportRow> rows;  ///< in-order first, then by mapper label

  /// "model (eager E B, compute xC; MPI settings)" — what tells contexts of one workload and
  /// machine apart.
  [[nodiscard]] std::string model_title() const;
};

struct ReportData {
  /// Columns of ReportRow::values: kReportStaticMetrics, then the time metric, then the scaling
  /// metric if it is none of them, then energy_j (the network's energy) if it is none of them.
  std::vector<std::string> metrics;
  std::vector<ReportContext> contexts;  ///< by machine, model, workload family, ranks, workload

  /// Position of `metric` in `metrics`; throws InputError naming it if it is not there.
  [[nodiscard]] std::size_t metric_index(std::string_view metric) const;
  [[nodiscard]] std::size_t time_index() const { return kTime; }
  static constexpr std::size_t kTime = std::size(kReportStaticMetrics);
};

/// Throws InputError for an unknown metric (listing the valid ones) or a bad where condition
/// ("--where 'EXPR': REASON").
ReportData read_report(Store& store, const ReportQuery& query);

/// A mapper pair ordered one way by the static metric and the other by the simulation.
struct DiscordantPair {
  std::string first;  ///< the one the static metric ranks lower (better)
  std::string second;
  double static_first = 0, static_second = 0;
  double time_first = 0, time_second = 0;
};

struct ContextAgreement {
  std::size_t context = 0;                 ///< index into ReportData::contexts
  std::string metric;                      ///< the static metric
  std::size_t mappers = 0;                 ///< mappers with both values
  std::size_t pairs = 0;                   ///< mappers * (mappers - 1) / 2
  std::optional<double> rho;               ///< nullopt with fewer than 3 mappers
  std::vector<DiscordantPair> discordant;  ///< by first, then second mapper label
  /// Pairs the static metric or the simulation cannot tell apart (values within the tie
  /// tolerance); the others (pairs - ties - discordant) are ordered alike.
  std::size_t ties = 0;
  double tie_tolerance = 0;  ///< the relative tolerance the ties were counted with

  /// More than half of the pairs tied: the order of the mappers is mostly noise, and rho is no
  /// finding.
  [[nodiscard]] bool mostly_tied() const { return 2 * ties > pairs; }
};

/// Every context with simulated times and at least two mappers, for `metric`; values within
/// `tie_tolerance` (relative, in [0, 1)) are ties for rho and the pairs.
std::vector<ContextAgreement> agreement(const ReportData& data, std::string_view metric,
                                        double tie_tolerance = kDefaultTieTolerance);

/// Per machine, model label and static metric, over contexts: how often the metric orders
/// mapper pairs as the simulation does.
struct AgreementSummary {
  std::string machine;
  std::string model;
  std::string metric;
  std::size_t contexts = 0;
  std::optional<double> mean_rho;  ///< over contexts with a rho that are not mostly tied
  std::size_t pairs = 0;
  std::size_t discordant = 0;
  std::size_t ties = 0;
  std::size_t mostly_tied = 0;  ///< contexts whose pairs are mostly tied
  double tie_tolerance = 0;
};
std::vector<AgreementSummary> summarise(const ReportData& data,
                                        const std::vector<ContextAgreement>& agreements);

/// Runs whose per-link loads are stored.
struct LinkLoadRun {
  std::string key;
  std::string name;
  std::string workload;
  std::string machine;
  std::string topology;  ///< canonical spec
  std::string mapper;    ///< label
  std::string model;     ///< label
  std::vector<LinkLoad> links;
  bool replayed = false;  ///< links carry replayed bytes (else static bytes only)
};

/// The run given by key, unique key prefix of 6+ hex digits, or name (as `results --mapping`).
/// Throws InputError if there is no such run, or its links were not stored (naming
/// `--store-links`).
LinkLoadRun read_link_loads(Store& store, std::string_view run);

/// Default heat maps: in the context (matching `where`) with the most ranks that has stored
/// links, in-order's run and the run of the mapper with the lowest simulated time (else
/// hop-bytes). Empty if no run has stored links.
std::vector<std::string> default_heatmap_runs(Store& store, std::string_view where);

/// A workload of a results database, as its runs name it.
struct StoredWorkload {
  std::string label;  ///< workload
  std::string kind;   ///< workload_kind: "generated", "trace" or "matrix"
  std::string spec;   ///< workload_spec: a generator spec or a path as the config gave it
  bool collectives = true;
  /// The collectives' algorithms (mpi.collectives), from the runs' canonical configuration.
  traces::CollectiveOptions algorithms;
};

/// The algorithms a run's canonical configuration (runs.config) names; MPICH's if none.
traces::CollectiveOptions stored_algorithms(std::string_view config);

/// The workloads of the done runs for which `where` holds, by label.
std::vector<StoredWorkload> stored_workloads(Store& store, std::string_view where);

}  // namespace mapsim::exp
