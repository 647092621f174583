#pragma once
// What the report's charts share (ReportCharts.cpp, AgreementCharts.cpp): quoting for gnuplot,
// CSV and data files, chart names, finding rows and ratios, the common gnuplot settings and the
// mappers' colours. Internal to the experiments library.

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "experiments/ReportCharts.hpp"
#include "support/Error.hpp"

namespace mapsim::exp::chart {

inline constexpr std::size_t kMaxNameLength = 120;
inline constexpr int kMaxWidth = 2400;

/// A gnuplot string literal in single quotes (no escapes in them; a quote is doubled).
inline std::string gp_string(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\n') {
      out += ' ';
    } else {
      out += c == '\'' ? std::string("''") : std::string(1, c);
    }
  }
  return out + "'";
}

/// A chart title for gnuplot: `text` wrapped at spaces into lines of at most `columns`
/// characters (a title wider than its chart is cut at both edges), as a double-quoted string in
/// which "\n" breaks the line.
inline std::string gp_title(std::string_view text, std::size_t columns) {
  std::string out = "\"";
  std::size_t line = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const auto word = text.substr(at, end - at);
    if (line > 0 && line + 1 + word.size() > columns) {
      out += "\\n";
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    for (const char c : word) {
      if (c == '"' || c == '\\') out += '\\';
      out += c == '\n' ? ' ' : c;
    }
    line += word.size();
    at = end + 1;
  }
  return out + "\"";
}

/// The characters of a title that fit `pixels` of a chart's width (12-point Helvetica is about
/// 7 pixels a character; 8 leaves a margin).
inline std::size_t title_columns(int pixels) {
  return static_cast<std::size_t>(std::max(40, pixels / 8));
}

/// Whether every element of `part` is in `whole` (both small: the mappers of a panel).
template <typename T>
inline bool includes_all(const std::vector<T>& whole, const std::vector<T>& part) {
  return std::all_of(part.begin(), part.end(), [&](const T& x) {
    return std::find(whole.begin(), whole.end(), x) != whole.end();
  });
}

/// Which of two panels (left, right) draw a legend, given their mappers: one legend, beside the
/// right panel if it has every mapper of the left one, else beside the left one if that has
/// every mapper of the right one; both only if each has a mapper the other lacks. A right panel
/// without mappers is not drawn: the left one has the legend.
struct LegendPanels {
  bool left = true;
  bool right = false;
};
template <typename T>
inline LegendPanels legend_panels(const std::vector<T>& left, const std::vector<T>& right) {
  if (right.empty()) return {true, false};
  if (includes_all(right, left)) return {false, true};
  if (includes_all(left, right)) return {true, false};
  return {true, true};
}

/// A string column of a gnuplot data file: in double quotes, which it cannot escape, so a double
/// quote inside becomes a single one.
inline std::string data_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) out += c == '"' || c == '\n' ? '\'' : c;
  return out + "\"";
}

inline std::string data_number(std::optional<double> value) {
  return value ? fmt::format("{:.9g}", *value) : std::string("NaN");
}

inline std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

inline std::string csv_number(std::optional<double> value) {
  return value ? fmt::format("{}", *value) : std::string();
}

inline std::string ratio_cell(std::optional<double> value) {
  return value ? fmt::format("{:.3f}", *value) : std::string("-");
}

/// A relative tie tolerance as a percentage: 0.001 -> "0.1 %", 0 -> "0 % (exact)".
inline std::string tolerance_text(double tolerance) {
  return tolerance == 0 ? std::string("0 % (exact)") : fmt::format("{:g} %", 100 * tolerance);
}

/// A context's rho as the tables show it: "+0.80", "mostly tied" when more than half of its
/// pairs are tied (its rho is no finding), "-" without a rho.
inline std::string rho_cell(const ContextAgreement& a) {
  if (a.mostly_tied()) return "mostly tied";
  return a.rho ? fmt::format("{:+.2f}", *a.rho) : std::string("-");
}

/// "hop_bytes" -> "hop-bytes", as the charts name metrics.
inline std::string metric_label(std::string_view metric) {
  std::string text(metric);
  std::replace(text.begin(), text.end(), '_', '-');
  return text;
}

/// Unique chart names: a name given twice gets "-2", "-3", ... appended.
class Names {
 public:
  std::string take(std::string_view text) {
    std::string base = sanitize_name(text);
    if (base.size() > kMaxNameLength) base.resize(kMaxNameLength);
    std::string name = base;
    for (int n = 2; !used_.insert(name).second; ++n) name = fmt::format("{}-{}", base, n);
    return name;
  }

 private:
  std::set<std::string> used_;
};

inline std::size_t find_metric(const ReportData& data, std::string_view metric) {
  const auto it = std::find(data.metrics.begin(), data.metrics.end(), metric);
  MAPSIM_EXPECTS(it != data.metrics.end(), "a chart's metric is one of the report's columns");
  return static_cast<std::size_t>(it - data.metrics.begin());
}

/// Contexts grouped by `key`, in the order of each group's first context.
template <typename Key>
inline std::vector<std::vector<std::size_t>> group_contexts(
    const std::vector<std::size_t>& contexts, const Key& key) {
  std::vector<std::vector<std::size_t>> groups;
  std::map<std::string, std::size_t> index;
  for (const auto c : contexts) {
    const auto [it, added] = index.emplace(key(c), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(c);
  }
  return groups;
}

inline std::vector<std::size_t> all_contexts(const ReportData& data) {
  std::vector<std::size_t> all(data.contexts.size());
  for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
  return all;
}

/// The mapper labels of the contexts: in-order first, then alphabetically.
inline std::vector<std::string> mappers_of(const ReportData& data,
                                           const std::vector<std::size_t>& contexts) {
  std::set<std::string> labels;
  for (const auto c : contexts) {
    for (const auto& row : data.contexts[c].rows) labels.insert(row.mapper);
  }
  std::vector<std::string> out(labels.begin(), labels.end());
  std::stable_partition(out.begin(), out.end(), [](const auto& m) { return m == "in-order"; });
  return out;
}

inline const ReportRow* find_row(const ReportContext& context, std::string_view mapper) {
  for (const auto& row : context.rows) {
    if (row.mapper == mapper) return &row;
  }
  return nullptr;
}

inline std::optional<double> ratio(const ReportRow* row, std::size_t metric) {
  if (row == nullptr || metric >= row->ratios.size()) return std::nullopt;
  return row->ratios[metric];
}

inline std::optional<double> value(const ReportRow* row, std::size_t metric) {
  if (row == nullptr || metric >= row->values.size()) return std::nullopt;
  return row->values[metric];
}

/// Whether any row of the contexts has a ratio of `metric` (else a panel of it would be empty).
inline bool has_ratios(const ReportData& data, const std::vector<std::size_t>& contexts,
                       std::size_t metric) {
  for (const auto c : contexts) {
    for (const auto& row : data.contexts[c].rows) {
      if (ratio(&row, metric)) return true;
    }
  }
  return false;
}

/// A gnuplot point type per workload of some contexts, in order of first appearance, filled
/// shapes first, cycling after 15: the charts that colour points by mapper and shape them by
/// workload (agreement, energy).
class WorkloadShapes {
 public:
  WorkloadShapes(const ReportData& data, const std::vector<std::size_t>& contexts) {
    for (const auto c : contexts) {
      const auto& w = data.contexts[c].workload;
      if (std::find(workloads_.begin(), workloads_.end(), w) == workloads_.end())
        workloads_.push_back(w);
    }
  }
  [[nodiscard]] std::size_t size() const { return workloads_.size(); }
  [[nodiscard]] int operator()(const std::string& workload) const {
    static constexpr int kShapes[] = {7, 5, 9, 11, 13, 15, 4, 6, 8, 10, 12, 14, 1, 2, 3};
    const auto at = std::find(workloads_.begin(), workloads_.end(), workload) - workloads_.begin();
    return kShapes[static_cast<std::size_t>(at) % std::size(kShapes)];
  }
  /// The legend's entries (each after ", \\\n  "): a filled point per mapper of `series` (its
  /// index in `mappers` first) in its colour, then a black point per workload in its shape.
  [[nodiscard]] std::string legend(const std::vector<std::pair<std::size_t, std::size_t>>& series,
                                   const std::vector<std::string>& mappers,
                                   const std::vector<std::string>& palette) const;

 private:
  std::vector<std::string> workloads_;
};

/// The settings every chart shares: plain text (labels such as "a_b" are not subscripts), the key
/// below the plot (the bars: right of each panel, as a panel's key is wider than the panel).
/// Twenty distinct colours (Tableau's 20) for the mappers, so that a sweep of up to twenty mappers
/// never repeats a colour (gnuplot's default cycle has eight).
inline constexpr std::string_view kCommon =
    "set termoption noenhanced\nset key below horizontal\n"
    "set linetype 1 lc rgb '#1f77b4'\nset linetype 2 lc rgb '#ff7f0e'\n"
    "set linetype 3 lc rgb '#2ca02c'\nset linetype 4 lc rgb '#d62728'\n"
    "set linetype 5 lc rgb '#9467bd'\nset linetype 6 lc rgb '#8c564b'\n"
    "set linetype 7 lc rgb '#e377c2'\nset linetype 8 lc rgb '#7f7f7f'\n"
    "set linetype 9 lc rgb '#bcbd22'\nset linetype 10 lc rgb '#17becf'\n"
    "set linetype 11 lc rgb '#aec7e8'\nset linetype 12 lc rgb '#ffbb78'\n"
    "set linetype 13 lc rgb '#98df8a'\nset linetype 14 lc rgb '#ff9896'\n"
    "set linetype 15 lc rgb '#c5b0d5'\nset linetype 16 lc rgb '#c49c94'\n"
    "set linetype 17 lc rgb '#f7b6d2'\nset linetype 18 lc rgb '#c7c7c7'\n"
    "set linetype 19 lc rgb '#dbdb8d'\nset linetype 20 lc rgb '#9edae5'\n"
    "set linetype cycle 20\n";
inline constexpr std::string_view kHistogram =
    "set style data histogram\nset style histogram clustered gap 1\n"
    "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
    "set xtics rotate by 30 right scale 0 nomirror\nset grid ytics\n";

/// A mapper's gnuplot line type (its colour, 1-based) in every chart of a report: its place
/// among `palette`, the report's mappers (mappers_of the whole data).
inline std::size_t colour(const std::vector<std::string>& palette, std::string_view mapper) {
  const auto it = std::find(palette.begin(), palette.end(), mapper);
  MAPSIM_EXPECTS(it != palette.end(), "a chart's mapper is one of the report's");
  return static_cast<std::size_t>(it - palette.begin()) + 1;
}

inline std::string WorkloadShapes::legend(
    const std::vector<std::pair<std::size_t, std::size_t>>& series,
    const std::vector<std::string>& mappers, const std::vector<std::string>& palette) const {
  std::string text;
  for (const auto& entry : series) {
    text += fmt::format(", \\\n  keyentry with points pt 7 ps 1.3 lc {} title {}",
                        colour(palette, mappers[entry.first]), gp_string(mappers[entry.first]));
  }
  for (const auto& w : workloads_) {
    text += fmt::format(", \\\n  keyentry with points pt {} ps 1.3 lc rgb 'black' title {}",
                        (*this)(w), gp_string(w));
  }
  return text;
}

}  // namespace mapsim::exp::chart
