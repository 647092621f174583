#include "experiments/ReportData.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "experiments/Query.hpp"
#include "experiments/RankCorrelation.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Where.hpp"
#include "support/Error.hpp"
#include "support/Suggest.hpp"

namespace mapsim::exp {
namespace {

/// A metric of schema::metrics(); "hop-bytes" is accepted for hop_bytes (as `mapsim results`).
std::string canonical_metric(std::string_view given, std::string_view role) {
  std::string name(given);
  std::replace(name.begin(), name.end(), '-', '_');
  const auto valid = schema::metrics();
  if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
    throw InputError(fmt::format("unknown {} metric '{}' (valid: {}){}", role, given,
                                 fmt::join(valid, ", "), suggest_suffix(name, valid)));
  }
  return name;
}

/// Prepares `sql`, whose condition includes the user's `where`; SQLite's complaint about the
/// condition becomes "--where 'EXPR': REASON" (as query_results does).
sql::Statement prepare_with_where(sql::Connection& db, const std::string& sql,
                                  std::string_view where) {
  try {
    return db.prepare(sql);
  } catch (const InputError& e) {
    if (where.empty()) throw;
    std::string reason = e.what();
    if (const auto in = reason.rfind(" (in: "); in != std::string::npos) reason.resize(in);
    throw InputError(fmt::format("--where '{}': {}", where, reason));
  }
}

std::string condition_with(std::string condition, std::string_view where) {
  if (!where.empty()) condition += fmt::format(" AND {}", where_clause(where, "--where"));
  return condition;
}

/// The workload spec without its first field (after the kind) that is the rank count.
std::string family_of(const std::string& spec, const std::string& workload, std::int64_t ranks) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const auto colon = spec.find(':', start);
    fields.push_back(spec.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  const auto count = std::to_string(ranks);
  for (std::size_t f = 1; f < fields.size(); ++f) {
    if (fields[f] != count) continue;
    fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(f));
    return fmt::format("{}", fmt::join(fields, ":"));
  }
  return workload;
}

std::optional<double> optional_real(const sql::Statement& s, int column) {
  if (s.is_null(column)) return std::nullopt;
  return s.real(column);
}

std::optional<std::int64_t> optional_integer(const sql::Statement& s, int column) {
  if (s.is_null(column)) return std::nullopt;
  return s.integer(column);
}

/// Sorting key of a context: machine, model, eager, compute scale, family, ranks, workload.
auto context_order(const ReportContext& c) {
  return std::tie(c.machine, c.model, c.eager_threshold, c.compute_scale, c.family, c.ranks,
                  c.workload, c.context_key);
}

std::size_t static_metric_order(std::string_view metric) {
  const auto* at =
      std::find(std::begin(kReportStaticMetrics), std::end(kReportStaticMetrics), metric);
  return static_cast<std::size_t>(at - std::begin(kReportStaticMetrics));
}

}  // namespace

std::string ReportContext::model_title() const {
  std::string text = model;
  if (eager_threshold || compute_scale) {
    text += fmt::format(" (eager {} B, compute x{}{}{})", eager_threshold.value_or(0),
                        compute_scale.value_or(0), mpi.empty() ? "" : "; ", mpi);
  } else if (!mpi.empty()) {
    text += fmt::format(" ({})", mpi);
  }
  return text;
}

std::size_t ReportData::metric_index(std::string_view metric) const {
  const auto at = std::find(metrics.begin(), metrics.end(), metric);
  if (at == metrics.end()) {
    throw InputError(fmt::format("metric '{}' is not in the report (it has: {})", metric,
                                 fmt::join(metrics, ", ")));
  }
  return static_cast<std::size_t>(at - metrics.begin());
}

ReportData read_report(Store& store, const ReportQuery& query) {
  ReportData data;
  for (const auto metric : kReportStaticMetrics) data.metrics.emplace_back(metric);
  data.metrics.push_back(canonical_metric(query.time_metric, "time"));
  const auto scaling = canonical_metric(query.scaling_metric, "scaling");
  if (std::find(data.metrics.begin(), data.metrics.end(), scaling) == data.metrics.end())
    data.metrics.push_back(scaling);
  // The network's energy (NULL for static runs and runs stored before schema 3): energy charts.
  if (std::find(data.metrics.begin(), data.metrics.end(), "energy_j") == data.metrics.end())
    data.metrics.emplace_back("energy_j");
  // The makespan and its critical path's parts (NULL for runs stored before schema 4): the
  // critical-path charts.
  for (const auto metric : kCriticalPathMetrics) {
    if (std::find(data.metrics.begin(), data.metrics.end(), metric) == data.metrics.end())
      data.metrics.emplace_back(metric);
  }
  const auto metric_count = data.metrics.size();

  // Per metric its mean over the done runs and how many done runs have it (to pool the runs of
  // several in-order labels into one baseline).
  std::string columns;
  for (const auto& m : data.metrics) {
    columns += fmt::format(", AVG(CASE WHEN status = 'done' THEN {0} END)", m);
    columns += fmt::format(", COUNT(CASE WHEN status = 'done' THEN {0} END)", m);
  }
  const auto sql = fmt::format(
      "SELECT context_key, mapper_label, MIN(mapper) = 'in-order', SUM(status = 'done'), "
      "MIN(workload), MIN(workload_spec), MIN(ranks), MIN(machine), MIN(topology), "
      "MIN(topology_kind), MIN(model_label), MIN(eager_threshold), MIN(compute_scale), "
      "MIN(config){} "
      "FROM results WHERE {} GROUP BY context_key, mapper_label",
      columns, condition_with("status IN ('done', 'failed')", query.where));
  auto select = prepare_with_where(store.connection(), sql, query.where);
  constexpr int kFirstMetric = 14;

  struct Baseline {
    std::vector<double> sum;
    std::vector<std::int64_t> count;
    std::vector<std::optional<double>> single;  ///< the one in-order row's mean, if one
    std::size_t rows = 0;
    std::vector<std::string> labels;  ///< of in-order's rows
  };
  std::vector<Baseline> baselines;
  std::map<std::string, std::size_t, std::less<>> index;
  while (select.step()) {
    const auto runs = select.integer(3);
    if (runs == 0) continue;  // only failed runs: no values, the row is left out
    const auto key = select.text(0);
    auto [at, added] = index.try_emplace(key, data.contexts.size());
    if (added) {
      ReportContext c;
      c.context_key = key;
      c.workload = select.text(4);
      c.ranks = select.integer(6);
      c.family = family_of(select.text(5), c.workload, c.ranks);
      c.machine = select.text(7);
      c.topology = select.text(8);
      c.topology_kind = select.text(9);
      c.model = select.text(10);
      c.eager_threshold = optional_integer(select, 11);
      c.compute_scale = optional_real(select, 12);
      c.mpi = mpi_settings_title(select.text(13));
      data.contexts.push_back(std::move(c));
      baselines.push_back({std::vector<double>(metric_count, 0),
                           std::vector<std::int64_t>(metric_count, 0),
                           std::vector<std::optional<double>>(metric_count),
                           0,
                           {}});
    }
    ReportRow row;
    row.mapper = select.text(1);
    row.runs = runs;
    auto& baseline = baselines[at->second];
    const bool in_order = select.integer(2) != 0;
    if (in_order) {
      ++baseline.rows;
      baseline.labels.push_back(row.mapper);
    }
    for (std::size_t m = 0; m < metric_count; ++m) {
      const int column = kFirstMetric + 2 * static_cast<int>(m);
      row.values.push_back(optional_real(select, column));
      if (in_order && row.values.back()) {
        const auto n = select.integer(column + 1);
        baseline.sum[m] += *row.values.back() * static_cast<double>(n);
        baseline.count[m] += n;
        baseline.single[m] = row.values.back();
      }
    }
    data.contexts[at->second].rows.push_back(std::move(row));
  }

  for (std::size_t c = 0; c < data.contexts.size(); ++c) {
    const auto& baseline = baselines[c];
    for (auto& row : data.contexts[c].rows) {
      for (std::size_t m = 0; m < metric_count; ++m) {
        // One in-order row: its mean as it is, so that in-order's own ratio is exactly 1.
        const std::optional<double> base =
            baseline.count[m] == 0 ? std::nullopt
            : baseline.rows == 1
                ? baseline.single[m]
                : std::optional(baseline.sum[m] / static_cast<double>(baseline.count[m]));
        if (row.values[m] && base && *base != 0) {
          row.ratios.emplace_back(*row.values[m] / *base);
        } else {
          row.ratios.emplace_back();
        }
      }
    }
    // In-order first, then by label.
    const auto later = [&](const ReportRow& r) {
      return std::find(baseline.labels.begin(), baseline.labels.end(), r.mapper) ==
             baseline.labels.end();
    };
    std::sort(data.contexts[c].rows.begin(), data.contexts[c].rows.end(),
              [&](const ReportRow& a, const ReportRow& b) {
                const bool la = later(a), lb = later(b);
                return std::tie(la, a.mapper) < std::tie(lb, b.mapper);
              });
  }
  std::sort(data.contexts.begin(), data.contexts.end(),
            [](const ReportContext& a, const ReportContext& b) {
              return context_order(a) < context_order(b);
            });
  return data;
}

std::vector<ContextAgreement> agreement(const ReportData& data, std::string_view metric,
                                        double tie_tolerance) {
  MAPSIM_EXPECTS(tie_tolerance >= 0 && tie_tolerance < 1, "the tie tolerance was validated");
  const auto m = data.metric_index(metric);
  const auto t = data.time_index();
  std::vector<ContextAgreement> out;
  for (std::size_t c = 0; c < data.contexts.size(); ++c) {
    std::vector<const ReportRow*> rows;
    for (const auto& row : data.contexts[c].rows) {
      if (row.values[m] && row.values[t]) rows.push_back(&row);
    }
    if (rows.size() < 2) continue;
    ContextAgreement a;
    a.context = c;
    a.metric = std::string(metric);
    a.mappers = rows.size();
    a.pairs = rows.size() * (rows.size() - 1) / 2;
    a.tie_tolerance = tie_tolerance;
    std::vector<double> s, time;
    for (const auto* row : rows) {
      s.push_back(*row->values[m]);
      time.push_back(*row->values[t]);
    }
    if (rows.size() >= 3) a.rho = spearman(s, time, tie_tolerance);
    a.ties = count_pairs(s, time, tie_tolerance).tied;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t j = i + 1; j < rows.size(); ++j) {
        const double si = s[i], sj = s[j];
        const double ti = time[i], tj = time[j];
        // A tie in either is no disagreement (as count_pairs).
        if (tied(si, sj, tie_tolerance) || tied(ti, tj, tie_tolerance)) continue;
        if ((si - sj) * (ti - tj) >= 0) continue;
        const bool i_first = si < sj;
        const auto& first = i_first ? *rows[i] : *rows[j];
        const auto& second = i_first ? *rows[j] : *rows[i];
        a.discordant.push_back({first.mapper, second.mapper, *first.values[m], *second.values[m],
                                *first.values[t], *second.values[t]});
      }
    }
    std::sort(a.discordant.begin(), a.discordant.end(),
              [](const DiscordantPair& x, const DiscordantPair& y) {
                return std::tie(x.first, x.second) < std::tie(y.first, y.second);
              });
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<AgreementSummary> summarise(const ReportData& data,
                                        const std::vector<ContextAgreement>& agreements) {
  struct Sums {
    AgreementSummary summary;
    double rho_sum = 0;
    std::size_t rhos = 0;
  };
  // By machine, model title, then the metric in kReportStaticMetrics order (others after, by
  // name).
  using Key = std::tuple<std::string, std::string, std::size_t, std::string>;
  std::map<Key, Sums> groups;
  for (const auto& a : agreements) {
    MAPSIM_EXPECTS(a.context < data.contexts.size(), "an agreement names a context of its data");
    const auto& context = data.contexts[a.context];
    auto& g = groups[Key{context.machine, context.model_title(), static_metric_order(a.metric),
                         a.metric}];
    g.summary.machine = context.machine;
    g.summary.model = context.model_title();
    g.summary.metric = a.metric;
    g.summary.tie_tolerance = a.tie_tolerance;
    ++g.summary.contexts;
    g.summary.pairs += a.pairs;
    g.summary.discordant += a.discordant.size();
    g.summary.ties += a.ties;
    if (a.mostly_tied()) ++g.summary.mostly_tied;
    if (a.rho && !a.mostly_tied()) {
      g.rho_sum += *a.rho;
      ++g.rhos;
    }
  }
  std::vector<AgreementSummary> out;
  for (auto& [key, g] : groups) {
    if (g.rhos > 0) g.summary.mean_rho = g.rho_sum / static_cast<double>(g.rhos);
    out.push_back(std::move(g.summary));
  }
  return out;
}

LinkLoadRun read_link_loads(Store& store, std::string_view run) {
  auto& db = store.connection();
  auto select = db.prepare(
      "SELECT run_key, name, workload, machine, topology, mapper_label, model_label, status, "
      "message FROM runs WHERE run_key = ?");
  select.bind(1, find_run_key(store, run));
  MAPSIM_EXPECTS(select.step(), "the run just found is there");
  LinkLoadRun result;
  result.key = select.text(0);
  result.name = select.text(1);
  result.workload = select.text(2);
  result.machine = select.text(3);
  result.topology = select.text(4);
  result.mapper = select.text(5);
  result.model = select.text(6);
  const auto status = select.text(7);
  if (status != "done") {
    // Rerunning with --store-links would not help a run that failed or has not finished.
    const auto message = select.text(8);
    throw InputError(fmt::format(
        "run '{}' ({}) {}{}: it has no link loads to draw", result.name, result.key.substr(0, 12),
        status == "failed" ? "failed" : fmt::format("has not finished (it is {})", status),
        message.empty() ? "" : fmt::format(": {}", message)));
  }
  auto links = db.prepare(
      "SELECT link, from_node, to_node, class, static_bytes, bytes, busy_ps, utilisation "
      "FROM links WHERE run_key = ? ORDER BY link");
  links.bind(1, result.key);
  while (links.step()) {
    LinkLoad l;
    l.link = links.integer(0);
    l.from = links.integer(1);
    l.to = links.integer(2);
    l.link_class = links.text(3);
    l.static_bytes = links.integer(4);
    l.bytes = optional_integer(links, 5);
    l.busy_ps = optional_integer(links, 6);
    l.utilisation = optional_real(links, 7);
    result.replayed = result.replayed || l.bytes.has_value();
    result.links.push_back(std::move(l));
  }
  if (result.links.empty()) {
    throw InputError(fmt::format(
        "run '{}' ({}) has no stored link loads; rerun it with `mapsim run --store-links`",
        result.name, result.key.substr(0, 12)));
  }
  return result;
}

std::vector<std::string> default_heatmap_runs(Store& store, std::string_view where) {
  // Done runs (repeat 0) with stored links; the context with the most ranks first, and in it
  // in-order, then the others by simulated time (static runs: hop-bytes).
  const auto sql = fmt::format(
      "SELECT context_key, run_key, mapper = 'in-order' FROM results WHERE {} "
      "ORDER BY ranks DESC, workload, machine, model_label, context_key, mapper <> 'in-order', "
      "makespan_ps IS NULL, makespan_ps, hop_bytes, mapper_label, run_key",
      condition_with("status = 'done' AND repeat = 0 AND EXISTS (SELECT 1 FROM links WHERE "
                     "links.run_key = results.run_key)",
                     where));
  auto select = prepare_with_where(store.connection(), sql, where);
  std::vector<std::string> runs;
  std::string context;
  bool have_in_order = false;
  bool have_other = false;
  while (select.step()) {
    if (context.empty()) context = select.text(0);
    if (select.text(0) != context) break;
    const bool in_order = select.integer(2) != 0;
    if (in_order && !have_in_order) {
      runs.push_back(select.text(1));
      have_in_order = true;
    } else if (!in_order && !have_other) {
      runs.push_back(select.text(1));
      have_other = true;
      break;
    }
  }
  return runs;
}

traces::CollectiveOptions stored_algorithms(std::string_view config) {
  // Sweep.cpp writes "collectives: SPEC" only when not MPICH's.
  constexpr std::string_view kKey = "\ncollectives: ";
  const auto at = config.find(kKey);
  if (at == std::string_view::npos) return {};
  auto value = config.substr(at + kKey.size());
  value = value.substr(0, value.find('\n'));
  try {
    return traces::parse_collective_options(value, "the stored configuration");
  } catch (const InputError&) {  // a newer mapsim's algorithm: count as MPICH's
    return {};
  }
}

std::vector<StoredWorkload> stored_workloads(Store& store, std::string_view where) {
  const auto sql = fmt::format(
      "SELECT workload, MIN(workload_kind), MIN(workload_spec), MIN(collectives), MIN(config) "
      "FROM results WHERE {} GROUP BY workload ORDER BY workload",
      condition_with("status = 'done'", where));
  auto select = prepare_with_where(store.connection(), sql, where);
  std::vector<StoredWorkload> workloads;
  while (select.step()) {
    workloads.push_back({select.text(0), select.text(1), select.text(2),
                         select.is_null(3) || select.integer(3) != 0,
                         stored_algorithms(select.is_null(4) ? std::string() : select.text(4))});
  }
  return workloads;
}

}  // namespace mapsim::exp
