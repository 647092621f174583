#include "experiments/MatrixHeatMap.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "experiments/ChartText.hpp"
#include "experiments/ReportCharts.hpp"
#include "support/Error.hpp"
#include "traces/MatrixStatistics.hpp"
#include "traces/RecordedMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/WorkloadMatrix.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::exp {

std::optional<traces::CommMatrix> recompute_matrix(const StoredWorkload& workload,
                                                   std::string& why) {
  traces::MatrixOptions options;
  options.collectives = workload.collectives;
  options.algorithms = workload.algorithms;
  if (workload.kind == "generated") {
    return traces::workload_matrix(traces::parse_generator_spec(workload.spec), options);
  }
  std::error_code error;
  if (!std::filesystem::exists(workload.spec, error)) {
    why = fmt::format(
        "'{}' is not found from the working directory (the database keeps the path "
        "as the config gave it)",
        workload.spec);
    return std::nullopt;
  }
  if (workload.kind == "trace") return traces::read_matrix(workload.spec, options);
  // As the sweep read it (Workloads.cpp): a recorded file's collectives as its runs counted them.
  return traces::read_matrix_file(workload.spec, workload.collectives, workload.algorithms);
}

Chart matrix_chart(std::string_view label, const traces::CommMatrix& matrix) {
  const Rank ranks = std::max<Rank>(matrix.rank_count(), 1);
  // Cells of `bin` ranks per side: one rank per cell up to kMatrixCells ranks.
  const Rank bin = (ranks + kMatrixCells - 1) / kMatrixCells;
  const auto cells = static_cast<std::size_t>((ranks + bin - 1) / bin);
  std::vector<traces::Traffic> grid(cells * cells);
  for (Rank src = 0; src < matrix.rank_count(); ++src) {
    const auto destinations = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    for (std::size_t i = 0; i < destinations.size(); ++i) {
      auto& cell = grid[static_cast<std::size_t>(src / bin) * cells +
                        static_cast<std::size_t>(destinations[i] / bin)];
      cell.messages += traffic[i].messages;
      cell.bytes += traffic[i].bytes;
    }
  }

  Chart chart;
  chart.name = "matrix-" + sanitize_name(label);
  chart.kind = "matrix";
  chart.title = fmt::format("communication matrix: {}", label);
  const auto total = matrix.total();
  const auto collectives = matrix.collective_total();
  chart.about = fmt::format(
      "Bytes each rank sends (row) to each rank (column){}, on a log colour scale; white: "
      "nothing. The mappers place this matrix: {}.",
      bin > 1 ? fmt::format(", summed over cells of {} x {} ranks", bin, bin) : std::string(),
      collectives.bytes > 0
          ? fmt::format("point-to-point messages and the collectives' messages as the replay "
                        "sends them ({:.1f} % of the bytes)",
                        100.0 * static_cast<double>(collectives.bytes) /
                            static_cast<double>(std::max<std::uint64_t>(total.bytes, 1)))
          : std::string("its point-to-point messages"));

  // Data: a full grid for gnuplot's image style (NaN: no traffic, drawn transparent); CSV: the
  // cells with traffic.
  std::string data;
  chart.csv = "src_first,src_last,dst_first,dst_last,messages,bytes\n";
  std::uint64_t heaviest = 0;
  for (std::size_t row = 0; row < cells; ++row) {
    for (std::size_t column = 0; column < cells; ++column) {
      const auto& cell = grid[row * cells + column];
      heaviest = std::max(heaviest, cell.bytes);
      const auto first = [&](std::size_t c) { return static_cast<Rank>(c) * bin; };
      const auto last = [&](std::size_t c) { return std::min(first(c) + bin, ranks) - 1; };
      data += fmt::format("{} {} {}\n", column, row,
                          cell.bytes > 0 ? fmt::format("{}", cell.bytes) : std::string("NaN"));
      if (cell.messages == 0) continue;
      chart.csv += fmt::format("{},{},{},{},{},{}\n", first(row), last(row), first(column),
                               last(column), cell.messages, cell.bytes);
    }
    data += '\n';
  }
  const std::string file = chart.name + ".dat";
  chart.data_files = {{file, std::move(data)}};
  chart.width = 760;
  chart.height = 680;
  const std::string unit = bin > 1 ? fmt::format(" (cells of {} ranks)", bin) : std::string();
  std::string plot = fmt::format(
      "set title {} noenhanced\nset size ratio -1\nset xrange [-0.5:{}]\nset yrange [{}:-0.5]\n"
      "set xlabel 'receiver rank{}'\nset ylabel 'sender rank{}'\n"
      "set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')\n"
      "set logscale cb\nset cbrange [1:{}]\nset cblabel 'bytes'\nset format cb '%.0s %cB'\n",
      chart::gp_string(chart.title), static_cast<double>(cells) - 0.5,
      static_cast<double>(cells) - 0.5, unit, unit, std::max<std::uint64_t>(heaviest, 2));
  plot += fmt::format("plot '{}' using 1:2:3 with image notitle\n", file);
  chart.plot = std::move(plot);

  const auto stats = traces::matrix_statistics(matrix, 5);
  chart.table_header = {"ranks",    "cell",  "pairs with traffic",
                        "messages", "bytes", "collectives' bytes"};
  chart.table_rows = {{fmt::format("{}", matrix.rank_count()), fmt::format("{} x {}", bin, bin),
                       fmt::format("{}", stats.nonzero_pairs), fmt::format("{}", total.messages),
                       fmt::format("{}", total.bytes), fmt::format("{}", collectives.bytes)}};
  ChartTable heaviest_pairs;
  heaviest_pairs.suffix = "heaviest";
  heaviest_pairs.caption = "The heaviest rank pairs, by bytes.";
  heaviest_pairs.header = {"sender", "receiver", "messages", "bytes"};
  for (const auto& pair : stats.heaviest) {
    heaviest_pairs.rows.push_back({fmt::format("{}", pair.src), fmt::format("{}", pair.dst),
                                   fmt::format("{}", pair.traffic.messages),
                                   fmt::format("{}", pair.traffic.bytes)});
  }
  chart.more_tables.push_back(std::move(heaviest_pairs));
  return chart;
}

std::vector<Chart> matrix_charts(std::span<const StoredWorkload> workloads,
                                 std::vector<std::string>& skipped) {
  std::vector<std::optional<Chart>> charts(workloads.size());
  std::vector<std::string> why(workloads.size());
  tbb::parallel_for(std::size_t{0}, workloads.size(), [&](std::size_t i) {
    if (const auto matrix = recompute_matrix(workloads[i], why[i])) {
      charts[i] = matrix_chart(workloads[i].label, *matrix);
    }
  });
  std::vector<Chart> drawn;
  for (std::size_t i = 0; i < workloads.size(); ++i) {
    if (charts[i]) {
      drawn.push_back(std::move(*charts[i]));
    } else {
      skipped.push_back(fmt::format("{}: {}", workloads[i].label, why[i]));
    }
  }
  return drawn;
}

}  // namespace mapsim::exp
