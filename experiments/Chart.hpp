#pragma once
// A chart of `mapsim report`: its data (CSV for the user, data files for gnuplot), the gnuplot
// commands that draw it, and the table the index shows beside it. The charts are made by
// ReportCharts.hpp and HeatMap.hpp and written and rendered by ReportWriter.hpp; nothing here
// draws — gnuplot does.

#include <string>
#include <utility>
#include <vector>

namespace mapsim::exp {

/// A further table of a chart, shown in the index below the chart's own table under its caption
/// and written as NAME.SUFFIX.csv (e.g. a heat map's link loads per class: NAME.classes.csv).
struct ChartTable {
  std::string suffix;   ///< [a-z0-9-]+, unique among the chart's tables, e.g. "classes"
  std::string caption;  ///< a sentence above the table: what it lists
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct Chart {
  std::string name;   ///< file stem: [a-z0-9._-]+, unique in a report, e.g. "bars-torus_4x4x4-flow"
  std::string kind;   ///< "bars", "scaling", "agreement" or "heatmap"
  std::string title;  ///< e.g. "hop-bytes and simulated time / in-order: torus:4x4x4, flow"
  std::string about;  ///< one or two sentences the index prints under the title: how to read it
  /// The chart's data as CSV (header line, then rows), written as NAME.csv.
  std::string csv;
  /// Files gnuplot reads (name, content), e.g. {"NAME.dat", "..."}; names relative to the
  /// report directory.
  std::vector<std::pair<std::string, std::string>> data_files;
  /// gnuplot commands that draw the chart once the terminal and output are set (no `set
  /// terminal`, `set output` or `reset`); run with the report directory as working directory.
  std::string plot;
  /// gnuplot terminal size in pixels (width, height).
  int width = 960, height = 540;
  /// The table the index shows (markdown and HTML): header and rows of cells.
  std::vector<std::string> table_header;
  std::vector<std::vector<std::string>> table_rows;
  /// Tables shown after it, in order.
  std::vector<ChartTable> more_tables;
};

}  // namespace mapsim::exp
