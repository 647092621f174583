#pragma once
// Reading results back: tables of metrics per context (workload, machine, model and its MPI and
// sim settings) with one row per mapper, as `mapsim results` prints them, optionally normalised
// to in-order; the summary a sweep prints; a stored mapping.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "experiments/RankCorrelation.hpp"
#include "experiments/Store.hpp"
#include "topologies/Mapping.hpp"

namespace mapsim::exp {

struct ResultsQuery {
  std::string where;                  ///< SQL condition over the results view ("" = all)
  std::vector<std::string> metrics;   ///< schema::metrics() names ("hop-bytes" also accepted)
  bool normalize = false;             ///< divide by in-order's value in the same context
  std::vector<std::string> contexts;  ///< only these context keys (empty = all)
  /// Relative tolerance within which hop-bytes or makespans are ties for the rank correlation
  /// (RankCorrelation.hpp), in [0, 1); 0: exact, as the rank_correlation view.
  double tie_tolerance = kDefaultTieTolerance;
};

/// The MPI settings of a run's stored configuration that are not the defaults, as a title shows
/// them, e.g. "collectives ompi, overheads typical"; "" with none. A factor string of more than
/// two steps shows as its step count and a digest (a calibration's nine steps would not fit).
std::string mpi_settings_title(std::string_view config);

/// The default metrics of `mapsim results`.
std::vector<std::string> default_metrics();

struct ResultRow {
  std::string mapper;  ///< label
  std::string params;
  std::int64_t seed = 0;
  std::int64_t done = 0;  ///< runs averaged (repeats)
  std::int64_t failed = 0;
  std::string message;                        ///< a failure's message
  std::vector<std::optional<double>> values;  ///< per metric; nullopt = none
};

struct ResultTable {
  std::string context_key;
  std::string workload;
  std::string machine;
  std::string model;
  std::optional<std::int64_t> eager_threshold;
  std::optional<double> compute_scale;
  std::string mpi;  ///< mpi_settings_title of its runs' configuration
  std::vector<std::string> metrics;
  std::vector<ResultRow> rows;  ///< in-order first, then by mapper label and seed
  /// Spearman's rho of hop-bytes and makespan over this context's mappings (replays only; the
  /// runs of repeat 0, as the rank_correlation view), values within the query's tie tolerance
  /// tied; nullopt if either has a single tie group.
  std::optional<double> rank_correlation;
  std::size_t pairs = 0;       ///< pairs of those runs
  std::size_t tied_pairs = 0;  ///< of them tied in hop-bytes or makespan
  double tie_tolerance = 0;    ///< the query's
  /// More than half of the pairs tied: the rank correlation is no finding.
  [[nodiscard]] bool mostly_tied() const { return 2 * tied_pairs > pairs; }
  bool normalized = false;
  bool baseline_missing = false;  ///< normalised, but no done in-order run in the context

  /// "lu:W:64 on torus:4x4x4, flow (eager 65536 B, compute x0)".
  [[nodiscard]] std::string title() const;
};

/// Throws InputError for an unknown metric (listing the valid ones) or a bad where condition.
std::vector<ResultTable> query_results(Store& store, const ResultsQuery& query);

enum class TableFormat : std::uint8_t { Table, Csv, Json, Markdown };
/// "table", "csv", "json" or "markdown"; throws InputError listing them.
TableFormat table_format_from_name(std::string_view name);

void write_results(std::ostream& out, const std::vector<ResultTable>& tables, TableFormat format);

/// One line per context: runs, the best mapper by hop-bytes and by makespan with their ratios
/// to in-order, and the rank correlation — what a sweep prints at its end.
void write_summary(std::ostream& out, const std::vector<ResultTable>& tables);

/// The key of the run given by its key, a unique prefix of at least 6 hex digits, or its exact
/// name. Throws InputError if there is none, or several (listing them).
std::string find_run_key(Store& store, std::string_view run);

/// The stored mapping of a run, given its key (or a unique prefix of at least 6 digits) or its
/// exact name, with the run's topology spec. Throws InputError if there is none, or several.
struct RunMapping {
  std::string key;
  std::string name;
  std::string topology;
  topo::Mapping mapping;
};
RunMapping find_run_mapping(Store& store, std::string_view run);

}  // namespace mapsim::exp
