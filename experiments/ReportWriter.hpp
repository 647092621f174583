#pragma once
// Writes and renders the charts of `mapsim report` into a directory:
//
//   NAME.csv, NAME's data files   the chart's data
//   NAME.gp                       a standalone gnuplot script: SVG, then PNG (`gnuplot NAME.gp`
//                                 in the directory redraws both)
//   NAME.svg, NAME.png            drawn by ONE gnuplot process for the whole report, which
//                                 `load`s every NAME.gp from report.gp
//   findings-SUFFIX.csv           the findings the index opens with (ReportFindings.hpp)
//   index.md, index.html          the findings' tables, then every chart with its title, how
//                                 to read it, the image (in HTML, a chart wider than the page
//                                 scrolls in its box, with a link to the full-size image), its
//                                 table, its files and the command that made the report
//
// The directory is filled as a temporary beside it and moved into place only when gnuplot has
// drawn every chart (support/OutputFile.hpp), the index last: a failed report leaves no
// half-written directory behind, and an earlier report there as it was. A report replaces an
// earlier one: the files the earlier report wrote (listed in its .mapsim-report-files) that the
// new report does not are removed; every other file stays, whatever its kind.

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "experiments/Chart.hpp"

namespace mapsim::exp {

/// The default of ReportOptions::gnuplot_timeout: a chart takes gnuplot well under a second.
inline constexpr double kGnuplotTimeout = 120;

struct ReportOptions {
  std::filesystem::path out;                  ///< the report directory (created)
  std::string command;                        ///< the command line shown in the index
  std::filesystem::path gnuplot = "gnuplot";  ///< program, looked up on PATH
  /// Seconds gnuplot may take to answer --version, or on one chart, before it is stopped.
  double gnuplot_timeout = kGnuplotTimeout;
  /// Set (Ctrl-C) to stop: gnuplot is killed and write_report throws Cancelled, leaving nothing.
  const std::atomic<bool>* interrupt = nullptr;
};

struct ReportSummary {
  std::filesystem::path out;
  std::size_t charts = 0;
  /// Per chart, its files (relative to `out`): NAME.svg, NAME.png, NAME.csv, NAME.gp, data files.
  std::vector<std::vector<std::string>> files;
};

/// Throws InputError "gnuplot not found (looked for 'PROGRAM'): install the Debian package
/// gnuplot-nox ..." unless `PROGRAM --version` runs and exits 0 within `timeout_seconds`.
void check_gnuplot(const std::filesystem::path& gnuplot, double timeout_seconds = kGnuplotTimeout);

/// Writes and renders `charts` (names unique, [a-z0-9._-]+); the index opens with `findings`
/// (suffixes unique, [a-z0-9-]+), each written as findings-SUFFIX.csv. Throws InputError if gnuplot
/// cannot be run (check_gnuplot, before anything is written), if it fails on a chart (naming the
/// chart's script and quoting gnuplot), draws nothing for the timeout, leaves an image empty
/// (naming a full disk or a file size limit when there is one), or if the directory cannot be
/// written; Cancelled when `options.interrupt` is set (the temporary directory is removed).
ReportSummary write_report(const std::vector<Chart>& charts, const ReportOptions& options,
                           const std::vector<ChartTable>& findings = {});

}  // namespace mapsim::exp
