// `mapsim matrix INPUT`: the communication matrix of an OTF2 trace, a CSV matrix or a generated
// workload (a generator spec, computed without its trace), summarised.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/Cli.hpp"
#include "cli/MatrixChoice.hpp"
#include "support/Error.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "support/Progress.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/MatrixStatistics.hpp"
#include "traces/RecordedMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/WorkloadMatrix.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::cli {
namespace {

namespace fs = std::filesystem;
using traces::CollectiveOp;
using traces::EventKind;

bool is_otf2(const fs::path& input) {
  return fs::is_directory(input) || input.extension() == ".otf2";
}

std::string join_counts(const std::vector<std::pair<std::string_view, std::uint64_t>>& counts) {
  std::vector<std::string> parts;
  for (const auto& [what, count] : counts) parts.push_back(fmt::format("{} {}", what, count));
  return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, ", "));
}

void print_trace_summary(std::FILE* out, const traces::TraceSummary& summary) {
  fmt::print(out, "input          {} (OTF2 {}{}; timer {} ticks/s)\n", summary.anchor.string(),
             summary.otf2_version, summary.creator.empty() ? "" : ", " + summary.creator,
             summary.timer_resolution);
  fmt::print(out, "ranks          {} ({} locations, {} communicators)\n", summary.ranks,
             summary.locations, summary.communicators);
  std::vector<std::pair<std::string_view, std::uint64_t>> skipped;
  for (const auto& kind : summary.records_by_kind) {
    if (kind.skipped > 0) skipped.emplace_back(kind.kind, kind.skipped);
  }
  fmt::print(out, "events         {} OTF2 records, {} MPI events; skipped {} ({})\n",
             summary.records, summary.mpi_events(), summary.skipped, join_counts(skipped));
  std::vector<std::pair<std::string_view, std::uint64_t>> kinds;
  for (std::size_t k = 0; k < traces::kEventKindCount; ++k) {
    if (summary.events[k] > 0)
      kinds.emplace_back(traces::name(static_cast<EventKind>(k)), summary.events[k]);
  }
  fmt::print(out, "  by kind      {}\n", join_counts(kinds));
  fmt::print(out, "point-to-point {} messages, {} bytes\n", summary.point_to_point.messages,
             summary.point_to_point.bytes);
  std::vector<std::pair<std::string_view, std::uint64_t>> ops;
  std::uint64_t collectives = 0;
  for (std::size_t k = 0; k < traces::kCollectiveOpCount; ++k) {
    if (summary.collectives[k] == 0) continue;
    ops.emplace_back(traces::name(static_cast<CollectiveOp>(k)), summary.collectives[k]);
    collectives += summary.collectives[k];
  }
  fmt::print(out, "collectives    {} ({}; counted once per rank taking part)\n", collectives,
             join_counts(ops));
  if (summary.unknown_requests + summary.open_requests > 0) {
    fmt::print(out, "requests       {} completions of unknown requests, {} never completed\n",
               summary.unknown_requests, summary.open_requests);
  }
}

void print_matrix_statistics(std::FILE* out, const traces::CommMatrix& matrix, std::size_t top,
                             std::string_view counts) {
  const auto stats = traces::matrix_statistics(matrix, top);
  fmt::print(out, "matrix         {} ranks ({} active), {} messages, {} bytes{}\n", stats.ranks,
             stats.active_ranks, stats.total.messages, stats.total.bytes, counts);
  const auto pairs =
      static_cast<std::uint64_t>(stats.ranks) * static_cast<std::uint64_t>(stats.ranks);
  fmt::print(out, "non-zero pairs {} of {} ordered pairs ({} self pairs: {} messages, {} bytes)\n",
             stats.nonzero_pairs, pairs, stats.self_pairs, stats.self.messages, stats.self.bytes);
  fmt::print(out,
             "degree         out min/avg/max {:g}/{:.2f}/{:g}, in {:g}/{:.2f}/{:g} (partners "
             "other than the rank itself)\n",
             stats.out_degree.min, stats.out_degree.mean, stats.out_degree.max, stats.in_degree.min,
             stats.in_degree.mean, stats.in_degree.max);
  fmt::print(
      out, "bytes per rank sent min/avg/max {:.0f}/{:.1f}/{:.0f}, received {:.0f}/{:.1f}/{:.0f}\n",
      stats.sent_bytes.min, stats.sent_bytes.mean, stats.sent_bytes.max, stats.received_bytes.min,
      stats.received_bytes.mean, stats.received_bytes.max);
  fmt::print(out, "\n{:>6} {:>5} {:>5} {:>12} {:>16} {:>12} {:>16}\n", "rank", "out", "in",
             "sent msgs", "sent bytes", "recv msgs", "recv bytes");
  for (const auto& r : stats.per_rank) {
    fmt::print(out, "{:>6} {:>5} {:>5} {:>12} {:>16} {:>12} {:>16}\n", r.rank, r.out_degree,
               r.in_degree, r.sent.messages, r.sent.bytes, r.received.messages, r.received.bytes);
  }
  if (stats.heaviest.empty()) return;
  fmt::print(out, "\nheaviest pairs (by bytes)\n{:>6} {:>6} {:>12} {:>16}\n", "src", "dst",
             "messages", "bytes");
  for (const auto& pair : stats.heaviest) {
    fmt::print(out, "{:>6} {:>6} {:>12} {:>16}\n", pair.src, pair.dst, pair.traffic.messages,
               pair.traffic.bytes);
  }
}

}  // namespace

int run_matrix(const std::vector<std::string>& args) {
  CommandLine line(
      "matrix", "INPUT [--csv OUT] [--p2p-only | --collectives SEL[,OP=ALG...]] [--top K]",
      "Builds the communication matrix (messages and bytes per ordered rank pair) of "
      "an MPI trace\nand summarises it: ranks, events, point-to-point traffic, "
      "collectives, non-zero pairs,\nper-rank degree and volume, the heaviest pairs. "
      "INPUT is an OTF2 archive (its anchor file\n*.otf2 or its directory) or a CSV "
      "matrix with the header src,dst,messages,bytes,\nor a generator spec (e.g. npb:lu:C:64, "
      "stencil3d:S:27:iterations=10; see 'mapsim generate\n--help'), whose matrix "
      "is computed without building the trace. The matrix counts\npoint-to-point "
      "messages (MPI_Send, MPI_Isend, ...) and the messages the simulator sends for\n"
      "collectives, as the mappers see them everywhere (--p2p-only: point-to-point only;\n"
      "--collectives: which algorithms expand them, MPICH's by default).");
  line.options.add_options()("input", po::value<std::string>()->required(),
                             "OTF2 anchor file or directory, CSV matrix, or generator spec")(
      "csv", po::value<std::string>(), "write the matrix to OUT as CSV src,dst,messages,bytes")(
      "top", po::value<std::string>()->default_value("10"),
      "how many of the heaviest pairs to list");
  add_matrix_options(line.options);
  line.positional.add("input", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;

  const std::string input_text = (*vm)["input"].as<std::string>();
  const bool generated = traces::is_generator_spec(input_text);
  const fs::path input = input_text;
  std::error_code error;
  if (!generated && !fs::exists(input, error)) {
    throw InputError(
        fmt::format("INPUT '{}' does not exist (expected an OTF2 anchor file or "
                    "archive directory, a CSV matrix, or a generator spec such as npb:lu:S:4)",
                    input.string()));
  }
  const auto top = static_cast<std::size_t>(
      parse_integer((*vm)["top"].as<std::string>(), "--top", 0, 1'000'000));
  if (vm->count("collectives") != 0 && vm->count("p2p-only") != 0)
    throw po::error(
        "--collectives chooses the collectives' algorithms; --p2p-only leaves them out");
  const auto options = matrix_options(*vm);
  if (vm->count("csv") != 0) prepare_output((*vm)["csv"].as<std::string>(), "--csv");
  // With the matrix on standard output (--csv -), the summary goes to standard error.
  std::FILE* out = vm->count("csv") != 0 && (*vm)["csv"].as<std::string>() == "-" ? stderr : stdout;

  traces::CommMatrix matrix;
  std::optional<std::uint64_t> calls;
  bool csv_input = false;
  if (generated) {
    const auto generator = traces::parse_generator_spec(input_text);
    {
      const ProgressStep step(fmt::format("computing the matrix of {}", input_text));
      matrix = traces::workload_matrix(generator, options);
    }
    fmt::print(out, "input          {} (generated: {}; matrix computed without the trace)\n",
               input_text, traces::describe(generator));
  } else if (is_otf2(input)) {
    traces::TraceReader reader(input);
    matrix = traces::read_matrix(reader, options);
    const auto& summary = reader.summary();
    if (summary.mpi_events() == 0) {
      throw InputError(fmt::format(
          "{}: the trace has no MPI events ({} locations, {} OTF2 records of other kinds, e.g. "
          "OpenMP or user regions); there is no communication matrix to build",
          summary.anchor.string(), summary.locations, summary.records));
    }
    print_trace_summary(out, summary);
    calls = collective_calls(summary);
  } else {
    // A matrix recorded by libmapsim-record has its collectives' calls, as a trace does.
    const bool recorded = traces::is_recorded_matrix(input);
    csv_input = !recorded;
    if (!recorded && (vm->count("collectives") != 0 || vm->count("p2p-only") != 0)) {
      throw InputError(
          fmt::format("--{} needs a trace; the CSV matrix '{}' already says what it counts",
                      vm->count("p2p-only") != 0 ? "p2p-only" : "collectives", input.string()));
    }
    matrix = traces::read_matrix_file(input, options.collectives, options.algorithms);
    fmt::print(out, "input          {} ({})\n", input.string(),
               recorded ? "CSV matrix recorded by libmapsim-record" : "CSV matrix");
  }
  const auto part = matrix.collective_total();
  print_matrix_statistics(
      out, matrix, top,
      !csv_input
          ? fmt::format(" ({}{})", counted(options),
                        options.collectives
                            ? fmt::format(" as the simulator sends them{}; collectives: {} "
                                          "messages, {} bytes",
                                          options.algorithms.is_default()
                                              ? std::string()
                                              : " under " + traces::to_string(options.algorithms),
                                          part.messages, part.bytes)
                            : std::string())
          : std::string());
  if (!csv_input) report_caveats(matrix, options, input_text, calls);
  if (vm->count("csv") != 0) {
    const fs::path csv = (*vm)["csv"].as<std::string>();
    write_output(csv, "--csv",
                 [&](std::ostream& stream) { traces::write_matrix_csv(matrix, stream); });
    if (csv != "-")
      fmt::print(out, "\nwrote {} ({} non-zero pairs)\n", csv.string(), matrix.nonzero_count());
  }
  return 0;
}

}  // namespace mapsim::cli
