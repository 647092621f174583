// `mapsim results`: tables of a results database, one per (workload, machine, model) with the
// mappers as rows; or a stored mapping exported for a launcher.

#include <ostream>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "experiments/Query.hpp"
#include "experiments/RankCorrelation.hpp"
#include "experiments/Store.hpp"
#include "mappers/MappingFile.hpp"
#include "support/Error.hpp"
#include "support/OutputFile.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::cli {

int run_results(const std::vector<std::string>& args) {
  CommandLine line(
      "results", "DB [--where EXPR] [--metric M ...] [--normalize in-order] [--format F]",
      "Prints the results of a sweep: a table per workload, machine and model, with a row per\n"
      "mapper (averaged over repeats) and the rank correlation of hop-bytes and simulated\n"
      "makespan (values within --tie-tolerance are ties; mostly tied contexts say so).\n"
      "--mapping RUN exports the mapping of one run instead (RUN: its name, or its key or a\n"
      "prefix of 6 or more hex digits). Works while a sweep writes the database.");
  line.options.add_options()("db", po::value<std::string>()->required(), "results database")(
      "where", po::value<std::string>(),
      "SQL condition over the columns of the results view, e.g. \"workload LIKE 'npb:lu%'\"")(
      "metric,m", po::value<std::vector<std::string>>()->composing(),
      "a metric to show (repeatable; default hop_bytes, link_bytes_max, makespan_s, "
      "mpi_time_max_s, map_seconds); 'mapsim list metrics' lists them")(
      "normalize", po::value<std::string>(),
      "in-order: divide every value by in-order's in the same workload, machine and model")(
      "format", po::value<std::string>(),
      fmt::format("table, csv, json or markdown (default table); with --mapping: one of {} "
                  "(default plain; as `mapsim map --mapping-format`)",
                  map::mapping_format_names())
          .c_str())("mapping", po::value<std::string>(), "export the mapping of this run")(
      "tie-tolerance", po::value<std::string>(),
      "relative difference within which hop-bytes or makespans count as equal for the rank "
      "correlation, in [0, 1) (default 0.001, i.e. 0.1 %; 0: exact)");
  line.positional.add("db", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;
  exp::Store store(options["db"].as<std::string>(), exp::Store::Access::Read);

  if (options.count("mapping") != 0) {
    for (const char* other : {"where", "metric", "normalize", "tie-tolerance"}) {
      if (options.count(other) != 0)
        throw po::error(fmt::format("--{} does not apply to --mapping", other));
    }
    const auto format = map::mapping_format_from_name(
        options.count("format") != 0 ? options["format"].as<std::string>() : "plain");
    const auto found = exp::find_run_mapping(store, options["mapping"].as<std::string>());
    const auto topology = topo::make_topology(found.topology);
    write_output("-", "the mapping", [&](std::ostream& out) {
      map::write_mapping(out, found.mapping, *topology, format);
    });
    return 0;
  }

  exp::ResultsQuery query;
  if (options.count("where") != 0) query.where = options["where"].as<std::string>();
  if (options.count("metric") != 0)
    query.metrics = options["metric"].as<std::vector<std::string>>();
  if (options.count("normalize") != 0) {
    const auto baseline = options["normalize"].as<std::string>();
    if (baseline != "in-order")
      throw InputError(fmt::format("--normalize '{}': the baseline is in-order", baseline));
    query.normalize = true;
  }
  if (options.count("tie-tolerance") != 0) {
    query.tie_tolerance =
        exp::parse_tie_tolerance(options["tie-tolerance"].as<std::string>(), "--tie-tolerance");
  }
  const auto format = exp::table_format_from_name(
      options.count("format") != 0 ? options["format"].as<std::string>() : "table");
  const auto tables = exp::query_results(store, query);
  write_output("-", "the results",
               [&](std::ostream& out) { exp::write_results(out, tables, format); });
  return 0;
}

}  // namespace mapsim::cli
