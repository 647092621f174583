#include "experiments/Query.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "experiments/Digest.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Where.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"

namespace mapsim::exp {
namespace {

std::string canonical_metric(const std::string& given) {
  std::string name = given;
  std::replace(name.begin(), name.end(), '-', '_');
  const auto valid = schema::metrics();
  if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
    throw InputError(fmt::format("unknown metric '{}' (valid: {}){}", given, fmt::join(valid, ", "),
                                 suggest_suffix(name, valid)));
  }
  return name;
}

std::string format_value(std::optional<double> value, bool normalized) {
  if (!value) return "-";
  if (normalized) return fmt::format("{:.3f}", *value);
  const double v = *value;
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (static_cast<unsigned char>(c) >= 0x80) {
      // JSON is UTF-8: a byte that is not (a database written before configs were checked, or
      // altered) becomes U+FFFD, so that the output stays valid.
      const auto length = utf8_length(text, at);
      out += length == 0 ? std::string_view("\\ufffd") : text.substr(at, length);
      if (length > 1) at += length - 1;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return "null";
  return fmt::format("{}", *value);
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// `text` padded to `width`, on the right (numbers) or the left.
std::string pad(const std::string& text, std::size_t width, bool right) {
  return right ? fmt::format("{:>{}}", text, width) : fmt::format("{:<{}}", text, width);
}

std::string status_of(const ResultRow& row) {
  if (row.failed > 0 && row.done == 0) return "failed";
  if (row.failed > 0) return "partly failed";
  return "done";
}

void write_table(std::ostream& out, const ResultTable& table, bool markdown) {
  std::vector<std::string> header{"mapper", "seed"};
  for (const auto& m : table.metrics) header.push_back(m);
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : table.rows) {
    std::vector<std::string> line{row.mapper, std::to_string(row.seed)};
    for (const auto& v : row.values) line.push_back(format_value(v, table.normalized));
    if (row.done == 0) line.push_back("failed: " + row.message);
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(header.size(), 0);
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < header.size() && c < line.size(); ++c)
      width[c] = std::max(width[c], line[c].size());
  }
  const auto note = [&] {
    std::string text;
    if (table.normalized) {
      text = table.baseline_missing ? "no in-order run here to normalise by"
                                    : "values relative to in-order";
    }
    // "within 0.1 %", or "equal" at tolerance 0.
    const auto within = table.tie_tolerance == 0
                            ? std::string("equal")
                            : fmt::format("within {:g} %", 100 * table.tie_tolerance);
    if (table.pairs > 0 && table.mostly_tied()) {
      text += fmt::format(
          "{}hop-bytes and makespan mostly tied ({} of {} pairs {}): no rank correlation to read",
          text.empty() ? "" : "; ", table.tied_pairs, table.pairs, within);
    } else if (table.rank_correlation) {
      text += fmt::format("{}rank correlation of hop-bytes and makespan: {:+.2f}",
                          text.empty() ? "" : "; ", *table.rank_correlation);
      if (table.tied_pairs > 0) {
        text += fmt::format(" ({} of {} pairs tied: {})", table.tied_pairs, table.pairs, within);
      }
    }
    return text;
  }();
  if (markdown) {
    fmt::print(out, "### {}\n\n| {} |\n|", table.title(), fmt::join(header, " | "));
    for (std::size_t c = 0; c < header.size(); ++c) fmt::print(out, "{}", c < 2 ? "---|" : "---:|");
    fmt::print(out, "\n");
    for (const auto& line : cells) {
      std::vector<std::string> shown(line.begin(),
                                     line.begin() + static_cast<std::ptrdiff_t>(header.size()));
      fmt::print(out, "| {} |", fmt::join(shown, " | "));
      if (line.size() > header.size()) fmt::print(out, " {}", line.back());
      fmt::print(out, "\n");
    }
    if (!note.empty()) fmt::print(out, "\n{}\n", note);
    fmt::print(out, "\n");
    return;
  }
  fmt::print(out, "{}\n", table.title());
  for (std::size_t c = 0; c < header.size(); ++c) {
    fmt::print(out, "  {}", pad(header[c], width[c], c >= 1));
  }
  fmt::print(out, "\n");
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < header.size(); ++c) {
      fmt::print(out, "  {}", pad(line[c], width[c], c >= 1));
    }
    if (line.size() > header.size()) fmt::print(out, "  {}", line.back());
    fmt::print(out, "\n");
  }
  if (!note.empty()) fmt::print(out, "  {}\n", note);
  fmt::print(out, "\n");
}

}  // namespace

std::vector<std::string> default_metrics() {
  return {"hop_bytes", "link_bytes_max", "makespan_s", "mpi_time_max_s", "map_seconds"};
}

std::string mpi_settings_title(std::string_view config) {
  // The keys a run's configuration holds only when not their defaults (experiments/Sweep.cpp).
  static constexpr std::array<std::string_view, 7> kKeys{
      "collectives",     "overheads", "bw-factor", "lat-factor",
      "reverse-traffic", "weight-s",  "envelope"};
  std::string text;
  for (const auto key : kKeys) {
    const auto prefix = fmt::format("{}: ", key);
    const auto at = config.starts_with(prefix) ? 0 : config.find(fmt::format("\n{}", prefix));
    if (at == std::string_view::npos) continue;
    const auto begin = at == 0 ? prefix.size() : at + 1 + prefix.size();
    const auto value = config.substr(begin, config.find('\n', begin) - begin);
    const auto steps = std::count(value.begin(), value.end(), ';') + 1;
    const std::string shown =
        key.ends_with("-factor") && steps > 2
            ? fmt::format("of {} steps #{}", steps, sha256(value).substr(0, 6))
            : std::string(value);
    text += fmt::format("{}{}{}", text.empty() ? "" : ", ", key,
                        key == "reverse-traffic" ? std::string() : " " + shown);
  }
  return text;
}

std::string ResultTable::title() const {
  std::string text = fmt::format("{} on {}, {}", workload, machine, model);
  if (eager_threshold || compute_scale) {
    text += fmt::format(" (eager {} B, compute x{}{}{})", eager_threshold.value_or(0),
                        compute_scale.value_or(0), mpi.empty() ? "" : "; ", mpi);
  } else if (!mpi.empty()) {
    text += fmt::format(" ({})", mpi);
  }
  return text;
}

std::vector<ResultTable> query_results(Store& store, const ResultsQuery& query) {
  std::vector<std::string> metrics;
  for (const auto& m : query.metrics.empty() ? default_metrics() : query.metrics)
    metrics.push_back(canonical_metric(m));
  std::string averages;
  for (const auto& m : metrics)
    averages += fmt::format(", AVG(CASE WHEN status = 'done' THEN {} END)", m);
  std::string condition = "status IN ('done', 'failed')";
  if (!query.where.empty())
    condition += fmt::format(" AND {}", where_clause(query.where, "--where"));
  if (!query.contexts.empty()) {
    std::string keys;
    for (const auto& key : query.contexts) {
      MAPSIM_EXPECTS(key.find('\'') == std::string::npos, "a context key is hex");
      keys += fmt::format("{}'{}'", keys.empty() ? "" : ", ", key);
    }
    condition += fmt::format(" AND context_key IN ({})", keys);
  }
  const auto sql = fmt::format(
      "SELECT context_key, workload, machine, model_label, eager_threshold, compute_scale, "
      "mapper_label, params, seed, MIN(mapper), SUM(status = 'done'), SUM(status = 'failed'), "
      "MAX(CASE WHEN status = 'failed' THEN message END), MIN(config){} FROM results WHERE {} "
      "GROUP BY context_key, mapper_label, params, seed "
      "ORDER BY workload, machine, model_label, eager_threshold, compute_scale, context_key, "
      "MIN(mapper) <> 'in-order', mapper_label, params, seed",
      averages, condition);
  auto& db = store.connection();
  std::optional<sql::Statement> select;
  try {
    select.emplace(db.prepare(sql));
  } catch (const InputError& e) {
    if (query.where.empty()) throw;
    std::string reason = e.what();
    if (const auto in = reason.rfind(" (in: "); in != std::string::npos) reason.resize(in);
    throw InputError(fmt::format("--where '{}': {}", query.where, reason));
  }
  std::vector<ResultTable> tables;
  std::vector<bool> in_order;
  std::vector<std::vector<bool>> baseline_rows;
  while (select->step()) {
    const auto context = select->text(0);
    if (tables.empty() || tables.back().context_key != context) {
      ResultTable table;
      table.context_key = context;
      table.workload = select->text(1);
      table.machine = select->text(2);
      table.model = select->text(3);
      if (!select->is_null(4)) table.eager_threshold = select->integer(4);
      if (!select->is_null(5)) table.compute_scale = select->real(5);
      table.mpi = mpi_settings_title(select->text(13));
      table.metrics = metrics;
      table.normalized = query.normalize;
      tables.push_back(std::move(table));
      baseline_rows.emplace_back();
    }
    ResultRow row;
    row.mapper = select->text(6);
    row.params = select->text(7);
    row.seed = select->integer(8);
    row.done = select->integer(10);
    row.failed = select->integer(11);
    row.message = select->text(12);
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const int column = 14 + static_cast<int>(m);
      if (!select->is_null(column)) {
        row.values.emplace_back(select->real(column));
      } else {
        row.values.emplace_back();
      }
    }
    baseline_rows.back().push_back(select->text(9) == "in-order" && row.done > 0);
    tables.back().rows.push_back(std::move(row));
  }

  for (std::size_t t = 0; t < tables.size(); ++t) {
    auto& table = tables[t];
    if (!query.normalize) continue;
    std::vector<double> sum(metrics.size(), 0);
    std::vector<int> count(metrics.size(), 0);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      if (!baseline_rows[t][r]) continue;
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        if (table.rows[r].values[m]) {
          sum[m] += *table.rows[r].values[m];
          ++count[m];
        }
      }
    }
    table.baseline_missing =
        std::find(baseline_rows[t].begin(), baseline_rows[t].end(), true) == baseline_rows[t].end();
    for (auto& row : table.rows) {
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        if (!row.values[m]) continue;
        const double base = count[m] > 0 ? sum[m] / count[m] : 0;
        if (base != 0) {
          row.values[m] = *row.values[m] / base;
        } else {
          row.values[m] = std::nullopt;
        }
      }
    }
  }

  if (!tables.empty()) {
    // As the rank_correlation view (repeat 0 of each done replayed run), with the tolerance.
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>, std::less<>> samples;
    auto correlation = db.prepare(
        "SELECT context_key, CAST(hop_bytes AS REAL), CAST(makespan_ps AS REAL) FROM runs "
        "WHERE status = 'done' AND repeat = 0 AND makespan_ps IS NOT NULL AND hop_bytes IS NOT "
        "NULL ORDER BY context_key, run_key");
    while (correlation.step()) {
      auto& [x, y] = samples[correlation.text(0)];
      x.push_back(correlation.real(1));
      y.push_back(correlation.real(2));
    }
    const auto single_group = [&](const std::vector<double>& v) {
      const auto ranks = tied_ranks(v, query.tie_tolerance);
      return std::adjacent_find(ranks.begin(), ranks.end(), std::not_equal_to<>()) == ranks.end();
    };
    for (auto& table : tables) {
      table.tie_tolerance = query.tie_tolerance;
      const auto it = samples.find(table.context_key);
      if (it == samples.end()) continue;
      const auto& [x, y] = it->second;
      table.pairs = x.size() * (x.size() - 1) / 2;
      table.tied_pairs = count_pairs(x, y, query.tie_tolerance).tied;
      if (x.size() >= 2 && !single_group(x) && !single_group(y))
        table.rank_correlation = spearman(x, y, query.tie_tolerance);
    }
  }
  return tables;
}

TableFormat table_format_from_name(std::string_view name) {
  if (name == "table") return TableFormat::Table;
  if (name == "csv") return TableFormat::Csv;
  if (name == "json") return TableFormat::Json;
  if (name == "markdown") return TableFormat::Markdown;
  throw InputError(fmt::format("unknown format '{}' (valid: table, csv, json, markdown)", name));
}

void write_results(std::ostream& out, const std::vector<ResultTable>& tables, TableFormat format) {
  switch (format) {
    case TableFormat::Table:
    case TableFormat::Markdown:
      for (const auto& table : tables) write_table(out, table, format == TableFormat::Markdown);
      if (tables.empty()) fmt::print(out, "no finished runs match\n");
      return;
    case TableFormat::Csv: {
      const std::vector<std::string> metrics =
          tables.empty() ? default_metrics() : tables.front().metrics;
      fmt::print(out,
                 "workload,machine,model,eager_threshold,compute_scale,mpi,mapper,params,"
                 "seed,status,{}\n",
                 fmt::join(metrics, ","));
      for (const auto& table : tables) {
        for (const auto& row : table.rows) {
          std::vector<std::string> values;
          for (const auto& v : row.values) values.push_back(v ? fmt::format("{}", *v) : "");
          fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(table.workload),
                     csv_field(table.machine), csv_field(table.model),
                     table.eager_threshold ? std::to_string(*table.eager_threshold) : "",
                     table.compute_scale ? fmt::format("{}", *table.compute_scale) : "",
                     csv_field(table.mpi), csv_field(row.mapper), csv_field(row.params), row.seed,
                     status_of(row), fmt::join(values, ","));
        }
      }
      return;
    }
    case TableFormat::Json: {
      fmt::print(out, "[");
      bool first = true;
      for (const auto& table : tables) {
        for (const auto& row : table.rows) {
          fmt::print(out, "{}\n  {{\"workload\": {}, \"machine\": {}, \"model\": {}, ",
                     first ? "" : ",", json_string(table.workload), json_string(table.machine),
                     json_string(table.model));
          first = false;
          fmt::print(out, "\"eager_threshold\": {}, \"compute_scale\": {}, \"mpi\": {}, ",
                     table.eager_threshold ? std::to_string(*table.eager_threshold) : "null",
                     json_number(table.compute_scale), json_string(table.mpi));
          fmt::print(out, "\"mapper\": {}, \"params\": {}, \"seed\": {}, \"status\": {}, ",
                     json_string(row.mapper), json_string(row.params), row.seed,
                     json_string(status_of(row)));
          fmt::print(out, "\"normalized\": {}, \"metrics\": {{", table.normalized);
          for (std::size_t m = 0; m < table.metrics.size(); ++m) {
            fmt::print(out, "{}{}: {}", m == 0 ? "" : ", ", json_string(table.metrics[m]),
                       json_number(row.values[m]));
          }
          fmt::print(out, "}}}}");
        }
      }
      fmt::print(out, "{}]\n", first ? "" : "\n");
      return;
    }
  }
}

void write_summary(std::ostream& out, const std::vector<ResultTable>& tables) {
  // Expects the metrics hop_bytes and makespan_s, normalised.
  std::vector<std::vector<std::string>> lines;
  lines.push_back({"workload", "machine", "model", "mappers", "lowest hop-bytes", "",
                   "shortest makespan", "", "rho"});
  for (const auto& table : tables) {
    const auto best = [&](std::size_t m) -> std::pair<std::string, std::string> {
      const ResultRow* winner = nullptr;
      for (const auto& row : table.rows) {
        if (m < row.values.size() && row.values[m] &&
            (winner == nullptr || *row.values[m] < *winner->values[m]))
          winner = &row;
      }
      if (winner == nullptr) return {"-", ""};
      return {winner->mapper,
              table.baseline_missing ? "" : fmt::format("{:.3f}", *winner->values[m])};
    };
    const auto [hb_mapper, hb_ratio] = best(0);
    const auto [ms_mapper, ms_ratio] = best(1);
    lines.push_back({table.workload, table.machine, table.model, std::to_string(table.rows.size()),
                     hb_mapper, hb_ratio, ms_mapper, ms_ratio,
                     table.pairs > 0 && table.mostly_tied() ? std::string("mostly tied")
                     : table.rank_correlation ? fmt::format("{:+.2f}", *table.rank_correlation)
                                              : std::string("-")});
  }
  std::vector<std::size_t> width(lines.front().size(), 0);
  for (const auto& line : lines) {
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  }
  for (const auto& line : lines) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      const bool number = c == 3 || c == 5 || c == 7 || c == 8;
      fmt::print(out, "{}  ", pad(line[c], width[c], number));
    }
    fmt::print(out, "\n");
  }
}

std::string find_run_key(Store& store, std::string_view run) {
  auto select = store.connection().prepare(
      "SELECT run_key, name FROM runs "
      "WHERE (length(?1) >= 6 AND substr(run_key, 1, length(?1)) = ?1) OR name = ?1 "
      "ORDER BY run_key LIMIT 6");
  select.bind(1, run);
  std::vector<std::pair<std::string, std::string>> matches;
  while (select.step()) matches.emplace_back(select.text(0), select.text(1));
  if (matches.empty()) {
    throw InputError(
        fmt::format("'{}': no run has this key (or key prefix of 6 or more digits) "
                    "or name in '{}'",
                    run, store.path().string()));
  }
  if (matches.size() > 1) {
    std::vector<std::string> names;
    for (const auto& [key, name] : matches)
      names.push_back(fmt::format("{} ({})", key.substr(0, 12), name));
    throw InputError(fmt::format("'{}' matches several runs: {}{}; give more of the key", run,
                                 fmt::join(names, ", "), matches.size() > 5 ? ", ..." : ""));
  }
  return matches.front().first;
}

RunMapping find_run_mapping(Store& store, std::string_view run) {
  const auto key = find_run_key(store, run);
  auto select = store.connection().prepare(
      "SELECT name, topology, mapping_key, status, message FROM runs WHERE run_key = ?");
  select.bind(1, key);
  MAPSIM_EXPECTS(select.step(), "the run just found is there");
  const auto name = select.text(0);
  auto stored = store.mapping(select.text(2));
  if (!stored) {
    const auto message = select.text(4);
    throw InputError(fmt::format("run '{}' has no stored mapping (status {}{})", name,
                                 select.text(3), message.empty() ? "" : ": " + message));
  }
  return {key, name, select.text(1), std::move(stored->mapping)};
}

}  // namespace mapsim::exp
