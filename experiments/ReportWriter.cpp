#include "experiments/ReportWriter.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "experiments/ChartText.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Markup.hpp"
#include "support/OutputFile.hpp"
#include "support/Version.hpp"

extern char** environ;  // NOLINT: POSIX declares it nowhere else

namespace mapsim::exp {
namespace {

namespace fs = std::filesystem;

/// The name of the script that draws every chart with one gnuplot process.
constexpr std::string_view kMasterScript = "report.gp";
/// The most gnuplot processes drawing at once (one per hardware thread up to this).
constexpr std::size_t kMaxGnuplots = 4;
/// What report.gp prints before each chart, so that an error can be put down to it.
constexpr std::string_view kDrawing = "drawing ";

/// How a program run by run_program() ended.
struct ProgramEnd {
  std::optional<int> status;  ///< its exit status; nullopt if it could not be started (`error`),
                              ///< was killed by a signal, or timed out
  int error = 0;              ///< errno if it could not be started
  bool timed_out = false;     ///< it made no progress for the timeout, and was killed
  bool interrupted = false;   ///< `*interrupt` was set (Ctrl-C), and it was killed
};

/// Runs `program args...` in `cwd` (empty: here) with stdin from /dev/null (a program that reads
/// its input gets none, never waits for it), stdout to /dev/null and stderr to `stderr_file`
/// (empty: /dev/null). A program that makes no progress for `timeout_seconds` — nothing more on
/// its stderr, where gnuplot reports each chart as it starts — is killed, and so is one running
/// when `*interrupt` is set (nullptr: never).
ProgramEnd run_program(const fs::path& program, const std::vector<std::string>& args,
                       const fs::path& cwd, const fs::path& stderr_file, double timeout_seconds,
                       const std::atomic<bool>* interrupt = nullptr) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2,
                                   stderr_file.empty() ? "/dev/null" : stderr_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> words{program.string()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error =
      posix_spawnp(&pid, words.front().c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ProgramEnd end;
  if (error != 0) {
    end.error = error;
    return end;
  }
  using Clock = std::chrono::steady_clock;
  const auto patience =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
  auto deadline = Clock::now() + patience;
  std::uintmax_t progress = 0;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return end;
    std::error_code ignored;
    if (!stderr_file.empty()) {
      if (const auto size = fs::file_size(stderr_file, ignored); !ignored && size > progress) {
        progress = size;
        deadline = Clock::now() + patience;
      }
    }
    end.interrupted = interrupt != nullptr && interrupt->load();
    end.timed_out = Clock::now() >= deadline;
    if (end.timed_out || end.interrupted) {
      ::kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return end;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) end.status = WEXITSTATUS(status);
  return end;
}

std::string gnuplot_missing(const fs::path& gnuplot, std::string_view reason) {
  return fmt::format(
      "gnuplot not found (looked for '{}'{}): install the Debian package gnuplot-nox "
      "(apt-get install gnuplot-nox), or give the program with --gnuplot",
      gnuplot.string(), reason.empty() ? "" : fmt::format(": {}", reason));
}

/// A standalone script: the chart as SVG, then as PNG.
std::string chart_script(const Chart& chart) {
  std::string title = chart.title;
  std::replace(title.begin(), title.end(), '\n', ' ');
  std::string text = fmt::format(
      "# mapsim report: {}\n# Redraws {}.svg and {}.png: gnuplot {}.gp (in this directory).\n",
      title, chart.name, chart.name, chart.name);
  text += fmt::format(
      "reset\nset terminal svg size {},{} dynamic enhanced font 'Helvetica,12'\n"
      "set output '{}.svg'\n{}unset output\n",
      chart.width, chart.height, chart.name, chart.plot);
  text +=
      fmt::format("reset\nset terminal pngcairo size {},{}\nset output '{}.png'\n{}unset output\n",
                  chart.width, chart.height, chart.name, chart.plot);
  return text;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string html(std::string_view text) {
  return escape_markup(text);
}

/// The file a chart's further table is written to: NAME.SUFFIX.csv.
std::string table_file(const Chart& chart, const ChartTable& table) {
  return fmt::format("{}.{}.csv", chart.name, table.suffix);
}

std::string table_csv(const ChartTable& table) {
  const auto line = [](const std::vector<std::string>& cells) {
    std::vector<std::string> fields;
    for (const auto& c : cells) fields.push_back(chart::csv_field(c));
    return fmt::format("{}\n", fmt::join(fields, ","));
  };
  std::string text = line(table.header);
  for (const auto& row : table.rows) text += line(row);
  return text;
}

/// A markdown table after a blank line; nothing without a header.
std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows) {
  if (header.empty()) return {};
  std::vector<std::string> cells, rule;
  for (const auto& h : header) {
    cells.push_back(markdown_cell(h));
    rule.emplace_back("---");
  }
  std::string text = fmt::format("\n| {} |\n|{}|\n", fmt::join(cells, " | "), fmt::join(rule, "|"));
  for (const auto& row : rows) {
    cells.clear();
    for (const auto& c : row) cells.push_back(markdown_cell(c));
    text += fmt::format("| {} |\n", fmt::join(cells, " | "));
  }
  return text;
}

/// The file a finding's table is written to: findings-SUFFIX.csv.
std::string findings_file(const ChartTable& table) {
  return fmt::format("findings-{}.csv", table.suffix);
}

std::string markdown_index(const std::vector<Chart>& charts, const ReportOptions& options,
                           const std::vector<ChartTable>& findings) {
  std::string text = fmt::format(
      "# mapsim report\n\nMade by mapsim {} with:\n\n```sh\n{}\n```\n\n"
      "Every chart below is drawn by gnuplot from its script and data in this directory; `gnuplot "
      "NAME.gp` redraws one, `gnuplot {}` all of them.\n\n",
      version(), options.command, kMasterScript);
  if (!findings.empty()) text += "## Findings\n";
  for (const auto& table : findings) {
    text += fmt::format("\n{0} Data: [{1}]({1}).\n", markdown_cell(table.caption),
                        findings_file(table));
    text += markdown_table(table.header, table.rows);
  }
  text += fmt::format("{}## Charts\n\n", findings.empty() ? "" : "\n");
  for (const auto& chart : charts)
    text += fmt::format("- [{}](#{})\n", markdown_cell(chart.title), chart.name);
  for (const auto& chart : charts) {
    text += fmt::format("\n<a id=\"{}\"></a>\n\n## {}\n\n{}\n\n![{}]({}.svg)\n\n", chart.name,
                        markdown_cell(chart.title), chart.about, markdown_cell(chart.title),
                        chart.name);
    text += fmt::format(
        "Data: [{0}.csv]({0}.csv) · image: [{0}.png]({0}.png) · script: [{0}.gp]({0}.gp) — "
        "regenerate with `gnuplot {0}.gp` in this directory.\n",
        chart.name);
    text += markdown_table(chart.table_header, chart.table_rows);
    for (const auto& table : chart.more_tables) {
      text += fmt::format("\n{0} Data: [{1}]({1}).\n", markdown_cell(table.caption),
                          table_file(chart, table));
      text += markdown_table(table.header, table.rows);
    }
  }
  return text;
}

/// An HTML table; nothing without a header.
std::string html_table(const std::vector<std::string>& header,
                       const std::vector<std::vector<std::string>>& rows) {
  if (header.empty()) return {};
  std::string text = "<table>\n<tr>";
  for (const auto& h : header) text += fmt::format("<th>{}</th>", html(h));
  text += "</tr>\n";
  for (const auto& row : rows) {
    text += "<tr>";
    for (const auto& c : row) text += fmt::format("<td>{}</td>", html(c));
    text += "</tr>\n";
  }
  return text + "</table>\n";
}

/// Charts wider than this many pixels scroll in their box instead of shrinking to the page.
constexpr int kPageWidth = 1360;

std::string html_index(const std::vector<Chart>& charts, const ReportOptions& options,
                       const std::vector<ChartTable>& findings) {
  std::string text = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>mapsim report</title>\n<style>\n"
      "body {{ font-family: sans-serif; max-width: 1400px; margin: 2em auto; padding: 0 1em; }}\n"
      "img {{ max-width: 100%; border: 1px solid #ddd; }}\n"
      "table {{ border-collapse: collapse; margin: 1em 0; }}\n"
      "th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }}\n"
      "pre {{ background: #f4f4f4; padding: 0.5em; overflow-x: auto; }}\n"
      ".wide {{ overflow-x: auto; border: 1px solid #ddd; }}\n"
      ".wide img {{ max-width: none; border: none; }}\n"
      "</style>\n</head>\n<body>\n<h1>mapsim report</h1>\n"
      "<p>Made by mapsim {} with:</p>\n<pre><code>{}</code></pre>\n"
      "<p>Every chart below is drawn by gnuplot from its script and data in this directory; "
      "<code>gnuplot NAME.gp</code> redraws one, <code>gnuplot {}</code> all of them.</p>\n",
      html(version()), html(options.command), kMasterScript);
  if (!findings.empty()) text += "<h2>Findings</h2>\n";
  for (const auto& table : findings) {
    text += fmt::format("<p>{0} Data: <a href=\"{1}\">{1}</a>.</p>\n", html(table.caption),
                        findings_file(table));
    text += html_table(table.header, table.rows);
  }
  text += "<h2>Charts</h2>\n<ul>\n";
  for (const auto& chart : charts)
    text += fmt::format("<li><a href=\"#{}\">{}</a></li>\n", chart.name, html(chart.title));
  text += "</ul>\n";
  for (const auto& chart : charts) {
    // A wide chart keeps its size and scrolls in its box, so that its labels stay readable.
    const bool wide = chart.width > kPageWidth;
    text += fmt::format(
        "<section id=\"{0}\">\n<h2>{1}</h2>\n<p>{2}</p>\n{3}<img src=\"{0}.svg\" alt=\"{1}\"{4}>"
        "{5}\n"
        "<p>Data: <a href=\"{0}.csv\">{0}.csv</a> · image: <a href=\"{0}.png\">{0}.png</a> · "
        "script: <a href=\"{0}.gp\">{0}.gp</a> — regenerate with <code>gnuplot {0}.gp</code> in "
        "this directory.</p>\n",
        chart.name, html(chart.title), html(chart.about), wide ? "<div class=\"wide\">" : "<p>",
        wide ? fmt::format(" width=\"{}\" height=\"{}\"", chart.width, chart.height) : "",
        wide ? fmt::format("</div>\n<p>{} pixels wide: scroll it, or open <a href=\"{}.svg\">the "
                           "full-size image</a>.</p>",
                           chart.width, chart.name)
             : "</p>");
    text += html_table(chart.table_header, chart.table_rows);
    for (const auto& table : chart.more_tables) {
      text += fmt::format("<p>{0} Data: <a href=\"{1}\">{1}</a>.</p>\n", html(table.caption),
                          table_file(chart, table));
      text += html_table(table.header, table.rows);
    }
    text += "</section>\n";
  }
  return text + "</body>\n</html>\n";
}

/// The file in which a report lists every file it wrote, so that the next report in the
/// directory removes what it no longer draws and nothing else.
constexpr std::string_view kManifest = ".mapsim-report-files";

/// The files the report in `dir` wrote, by its manifest (none if it has none: a directory that
/// holds no report, or one written before reports kept a manifest). Only plain file names count.
std::set<std::string> previous_report_files(const fs::path& dir) {
  std::set<std::string> files;
  std::ifstream manifest(dir / kManifest);
  for (std::string line; std::getline(manifest, line);) {
    if (!line.empty() && line != "." && line != ".." && line.find('/') == std::string::npos &&
        !line.starts_with('#'))
      files.insert(line);
  }
  return files;
}

/// Removes the files an earlier report in `dir` wrote that the new one did not (a chart it no
/// longer draws): the directory holds one report, and every other file (the user's own figures
/// and data) stays.
void remove_stale_charts(const fs::path& dir, const std::set<std::string>& previous,
                         const std::set<std::string>& written) {
  std::error_code error;
  for (const auto& name : previous) {
    if (written.contains(name)) continue;
    if (fs::is_regular_file(fs::symlink_status(dir / name, error)))
      fs::remove(dir / name, error);  // best effort: a file that stays is only clutter
  }
}

/// A file of the report's temporary directory: that directory is the all-or-nothing unit
/// (OutputDirectory), so its files need no temporary and fsync each (write_output), which costs
/// seconds over the thousands of files of a large report.
void write_text(const fs::path& path, const std::string& text) {
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    throw InputError(fmt::format("--out: cannot write '{}': {}", path.string(),
                                 errno != 0 ? std::strerror(errno) : "write failed"));
  }
}

/// gnuplot's stderr without report.gp's progress lines; the chart it was drawing last.
std::pair<std::string, std::string> gnuplot_messages(const std::string& log) {
  std::string chart, messages;
  std::size_t at = 0;
  while (at < log.size()) {
    auto end = log.find('\n', at);
    if (end == std::string::npos) end = log.size();
    const std::string_view line(log.data() + at, end - at);
    if (line.starts_with(kDrawing)) {
      chart = line.substr(kDrawing.size());
    } else if (!line.empty()) {
      messages += fmt::format("{}{}", messages.empty() ? "" : "\n", line);
    }
    at = end + 1;
  }
  return {chart, messages};
}

std::string read_text(const fs::path& path) {
  std::string text;
  if (FILE* file = std::fopen(path.c_str(), "rb")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    std::fclose(file);
  }
  return text;
}

/// Whether an image file is whole: an SVG document ends with its closing tag, a PNG file with its
/// IEND chunk.
bool image_complete(const fs::path& image, bool svg) {
  const auto text = read_text(image);
  if (svg) {
    const auto end = text.find_last_not_of(" \t\r\n");
    return end != std::string::npos &&
           std::string_view(text).substr(0, end + 1).ends_with("</svg>");
  }
  constexpr std::string_view kIend{"\0\0\0\0IEND\xae\x42\x60\x82", 12};
  return std::string_view(text).ends_with(kIend);
}

/// "; probably: CAUSE" when writes into `dir` may be failing (a full disk, a file size limit).
std::string cause_suffix(const fs::path& dir) {
  const auto cause = write_failure_cause(dir);
  return cause.empty() ? std::string() : "; probably: " + cause;
}

void render(const fs::path& dir, const std::vector<Chart>& charts, const ReportOptions& options) {
  const auto& gnuplot = options.gnuplot;
  const auto timeout_seconds = options.gnuplot_timeout;
  std::string master = fmt::format(
      "# mapsim report: draws every chart (SVG and PNG) with one gnuplot; each NAME.gp also runs "
      "alone.\n");
  for (const auto& chart : charts)
    master += fmt::format("print '{}{}.gp'\nload '{}.gp'\n", kDrawing, chart.name, chart.name);
  write_text(dir / kMasterScript, master);

  // Drawn by several gnuplot processes at once, each a share of the charts (interleaved, so that
  // each gets some of every kind) from a part script of its own, removed afterwards.
  const std::size_t parts =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, kMaxGnuplots);
  std::vector<std::string> scripts(std::min(parts, std::max<std::size_t>(charts.size(), 1)));
  for (std::size_t i = 0; i < charts.size(); ++i) {
    scripts[i % scripts.size()] +=
        fmt::format("print '{}{}.gp'\nload '{}.gp'\n", kDrawing, charts[i].name, charts[i].name);
  }
  // The program's own path, as the working directory changes: a relative one with a slash is
  // taken from here, a bare name from PATH.
  const fs::path program = gnuplot.has_parent_path() ? fs::absolute(gnuplot) : gnuplot;
  std::vector<ProgramEnd> ends(scripts.size());
  std::vector<std::string> logs(scripts.size());
  const auto part = [](std::size_t p) { return fmt::format(".report-part-{}.gp", p + 1); };
  for (std::size_t p = 0; p < scripts.size(); ++p) write_text(dir / part(p), scripts[p]);
  {
    std::vector<std::thread> drawers;
    for (std::size_t p = 0; p < scripts.size(); ++p) {
      drawers.emplace_back([&, p, script = part(p)] {
        const auto log = fs::absolute(dir / fmt::format(".gnuplot-stderr-{}", p + 1));
        ends[p] = run_program(program, {script}, dir, log, timeout_seconds, options.interrupt);
        logs[p] = read_text(log);
        std::error_code ignored;
        fs::remove(log, ignored);
        fs::remove(dir / script, ignored);
      });
    }
    for (auto& drawer : drawers) drawer.join();
  }
  if (std::ranges::any_of(ends, [](const ProgramEnd& e) { return e.interrupted; })) {
    throw Cancelled("interrupted while gnuplot drew the charts");
  }
  std::string messages;
  for (std::size_t p = 0; p < ends.size(); ++p) {
    const auto& end = ends[p];
    const auto [chart, said] = gnuplot_messages(logs[p]);
    if (!said.empty()) messages += fmt::format("{}{}", messages.empty() ? "" : "\n", said);
    const auto at = chart.empty() ? std::string(kMasterScript) : chart;
    if (end.timed_out) {
      throw InputError(
          fmt::format("gnuplot drew nothing for {} s on {}: stopped it (--gnuplot-timeout sets "
                      "the time a chart may take)",
                      timeout_seconds, at));
    }
    if (end.error != 0) throw InputError(gnuplot_missing(gnuplot, std::strerror(end.error)));
    if (!end.status) throw InputError(fmt::format("gnuplot did not exit normally on {}", at));
    if (*end.status != 0) {
      throw InputError(fmt::format("gnuplot failed on {}: {}{}", at,
                                   said.empty() ? fmt::format("exit status {}", *end.status) : said,
                                   cause_suffix(dir)));
    }
  }
  // Its warnings ("difficulty making room for xtic labels") are about looks, not the data.
  if (!messages.empty()) log::debug("gnuplot: {}", messages);
  for (const auto& c : charts) {
    for (const auto* extension : {".svg", ".png"}) {
      const auto image = dir / (c.name + extension);
      std::error_code error;
      const auto size = fs::file_size(image, error);
      if (error || size == 0) {
        throw InputError(fmt::format("gnuplot drew no {}{} from {}.gp{}", c.name, extension, c.name,
                                     cause_suffix(dir)));
      }
      // gnuplot exits 0 when a write fails half-way (a full disk): a cut image ends early.
      if (!image_complete(image, extension == std::string_view(".svg"))) {
        throw InputError(fmt::format("gnuplot drew an incomplete {}{} ({} bytes) from {}.gp{}",
                                     c.name, extension, size, c.name, cause_suffix(dir)));
      }
    }
  }
}

}  // namespace

void check_gnuplot(const fs::path& gnuplot, double timeout_seconds) {
  const auto end = run_program(gnuplot, {"--version"}, {}, {}, timeout_seconds);
  if (end.timed_out) {
    throw InputError(fmt::format(
        "gnuplot '{}' did not answer `--version` within {} s: stopped it (is it gnuplot? "
        "--gnuplot-timeout sets the time it may take)",
        gnuplot.string(), timeout_seconds));
  }
  if (end.error != 0) throw InputError(gnuplot_missing(gnuplot, std::strerror(end.error)));
  if (!end.status) throw InputError(gnuplot_missing(gnuplot, "'--version' did not exit normally"));
  if (*end.status != 0)
    throw InputError(gnuplot_missing(gnuplot, fmt::format("'--version' exited {}", *end.status)));
}

ReportSummary write_report(const std::vector<Chart>& charts, const ReportOptions& options,
                           const std::vector<ChartTable>& findings) {
  check_gnuplot(options.gnuplot, options.gnuplot_timeout);
  std::set<std::string> names{"index", "report"};
  for (const auto& chart : charts) {
    MAPSIM_EXPECTS(!chart.name.empty() &&
                       chart.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-") ==
                           std::string::npos,
                   "a chart's name is [a-z0-9._-]+");
    MAPSIM_EXPECTS(names.insert(chart.name).second, "chart names are unique in a report");
  }

  OutputDirectory dir(options.out, "--out");
  ReportSummary summary;
  summary.out = options.out;
  summary.charts = charts.size();
  std::set<std::string> written;  // a file name twice would overwrite another chart's file
  for (const auto& chart : charts) {
    std::vector<std::string> files{chart.name + ".svg", chart.name + ".png", chart.name + ".csv",
                                   chart.name + ".gp"};
    write_text(dir.path() / (chart.name + ".csv"), chart.csv);
    for (const auto& [name, content] : chart.data_files) {
      MAPSIM_EXPECTS(fs::path(name).filename() == name, "a data file is in the report directory");
      write_text(dir.path() / name, content);
      files.push_back(name);
    }
    for (const auto& table : chart.more_tables) {
      MAPSIM_EXPECTS(!table.suffix.empty() &&
                         table.suffix.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
                             std::string::npos,
                     "a table's suffix is [a-z0-9-]+");
      files.push_back(table_file(chart, table));
      write_text(dir.path() / files.back(), table_csv(table));
    }
    write_text(dir.path() / (chart.name + ".gp"), chart_script(chart));
    for (const auto& file : files)
      MAPSIM_EXPECTS(written.insert(file).second, "the charts of a report write distinct files");
    summary.files.push_back(std::move(files));
  }
  for (const auto& table : findings) {
    MAPSIM_EXPECTS(!table.suffix.empty() &&
                       table.suffix.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
                           std::string::npos,
                   "a finding's suffix is [a-z0-9-]+");
    const auto file = findings_file(table);
    MAPSIM_EXPECTS(written.insert(file).second, "the findings' files are distinct");
    write_text(dir.path() / file, table_csv(table));
  }
  log::info("drawing {} charts with gnuplot", charts.size());
  if (options.interrupt != nullptr && options.interrupt->load())
    throw Cancelled("interrupted while writing the charts' data");
  render(dir.path(), charts, options);
  write_text(dir.path() / "index.md", markdown_index(charts, options, findings));
  write_text(dir.path() / "index.html", html_index(charts, options, findings));
  written.insert({"index.md", "index.html", std::string(kMasterScript), std::string(kManifest)});
  std::string manifest = "# mapsim report: the files it wrote (a new report removes them)\n";
  for (const auto& name : written) manifest += name + "\n";
  write_text(dir.path() / kManifest, manifest);
  const auto previous = previous_report_files(options.out);
  dir.commit();
  remove_stale_charts(options.out, previous, written);
  return summary;
}

}  // namespace mapsim::exp
