#include "experiments/ReportFindings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "experiments/ChartText.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {
namespace {

using namespace chart;

/// The first row with the lowest value of `metric` among the rows that have it (and, if
/// `also` is given, that metric too); nullptr if none.
const ReportRow* lowest(const ReportContext& context, std::size_t metric,
                        std::optional<std::size_t> also = std::nullopt) {
  const ReportRow* best = nullptr;
  for (const auto& row : context.rows) {
    if (!row.values[metric] || (also && !row.values[*also])) continue;
    if (best == nullptr || *row.values[metric] < *best->values[metric]) best = &row;
  }
  return best;
}

/// `fraction` as a signed percentage with one decimal: 0.125 -> "+12.5 %", never "-0.0 %".
std::string percent(double fraction) {
  double tenths = std::round(fraction * 1000);
  if (tenths == 0) tenths = 0;  // -0 -> +0
  return fmt::format("{:+.1f} %", tenths / 10);
}

std::string gain_cell(std::optional<double> ratio) {
  if (!ratio) return "-";
  return fmt::format("{:.3f} ({})", *ratio, percent(*ratio - 1));
}

std::string static_cell(const ContextFinding& f, double tolerance) {
  switch (f.static_choice) {
    case StaticChoice::StaticOnly:
      return "- (static only: chosen by hop-bytes)";
    case StaticChoice::Same:
      return "yes";
    case StaticChoice::TiedMetric:
      return fmt::format("tie: {} has hop-bytes within {} of {}'s", f.static_pick,
                         tolerance_text(tolerance), f.best);
    case StaticChoice::TiedTime:
      return fmt::format("yes, as good: {} (time within {})", f.static_pick,
                         tolerance_text(tolerance));
    case StaticChoice::Other:
      return fmt::format("no: {}, {} time", f.static_pick,
                         percent(f.static_pick_slowdown.value_or(1) - 1));
  }
  MAPSIM_EXPECTS(false, "every static choice is handled");
  return {};
}

/// One or two sentences over every finding: how often hop-bytes alone would have chosen well.
std::string overview(const std::vector<ContextFinding>& found,
                     const std::map<std::size_t, const ContextAgreement*>& agreement_of) {
  std::size_t simulated = 0, good = 0, other = 0, tied_metric = 0, mostly_tied = 0;
  double worst = 1;
  for (const auto& f : found) {
    if (!f.simulated) continue;
    ++simulated;
    switch (f.static_choice) {
      case StaticChoice::Same:
      case StaticChoice::TiedTime:
        ++good;
        break;
      case StaticChoice::TiedMetric:
        ++tied_metric;
        break;
      case StaticChoice::Other:
        ++other;
        worst = std::max(worst, f.static_pick_slowdown.value_or(1));
        break;
      case StaticChoice::StaticOnly:
        break;
    }
    const auto it = agreement_of.find(f.context);
    if (it != agreement_of.end() && it->second->mostly_tied()) ++mostly_tied;
  }
  const auto static_only = found.size() - simulated;
  std::string text;
  if (simulated > 0) {
    text = fmt::format(
        "Of {} simulated workload, machine and model combinations, choosing the mapper by "
        "hop-bytes alone gets the fastest one (or one as fast) in {}, a slower one in {}{}, and "
        "cannot tell the fastest from its pick in {}; {} {} mostly tied.",
        simulated, good, other,
        other > 0 ? fmt::format(" (up to {} time)", percent(worst - 1)) : "", tied_metric,
        mostly_tied, mostly_tied == 1 ? "is" : "are");
  }
  if (static_only > 0) {
    text += fmt::format("{}{} {} static only (no simulated time): chosen by hop-bytes.",
                        text.empty() ? "" : " ", static_only,
                        static_only == 1 ? "combination is" : "combinations are");
  }
  return text;
}

}  // namespace

std::vector<ContextFinding> findings(const ReportData& data, double tie_tolerance) {
  const auto hop = data.metric_index("hop_bytes");
  const auto time = ReportData::kTime;
  std::vector<ContextFinding> out;
  for (std::size_t c = 0; c < data.contexts.size(); ++c) {
    const auto& context = data.contexts[c];
    ContextFinding f;
    f.context = c;
    const ReportRow* best = lowest(context, time);
    f.simulated = best != nullptr;
    const auto metric = f.simulated ? time : hop;
    if (!f.simulated) best = lowest(context, hop);
    if (best == nullptr) continue;
    f.best = best->mapper;
    f.best_ratio = best->ratios[metric];
    for (const auto& row : context.rows) {
      if (&row != best && row.values[metric] &&
          tied(*row.values[metric], *best->values[metric], tie_tolerance))
        f.tied_with_best.push_back(row.mapper);
    }
    if (f.simulated) {
      const ReportRow* pick = lowest(context, hop, time);
      if (pick != nullptr) {
        f.static_pick = pick->mapper;
        f.static_pick_slowdown = *best->values[time] > 0
                                     ? std::optional(*pick->values[time] / *best->values[time])
                                     : std::nullopt;
        if (pick == best) {
          f.static_choice = StaticChoice::Same;
        } else if (best->values[hop] &&
                   tied(*pick->values[hop], *best->values[hop], tie_tolerance)) {
          f.static_choice = StaticChoice::TiedMetric;
        } else if (tied(*pick->values[time], *best->values[time], tie_tolerance)) {
          f.static_choice = StaticChoice::TiedTime;
        } else {
          f.static_choice = StaticChoice::Other;
        }
      }
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<ModelComparison> compare_models(const ReportData& data,
                                            const std::vector<ContextFinding>& found) {
  std::map<std::pair<std::string, std::string>, ModelComparison> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (!found[i].simulated) continue;
    MAPSIM_EXPECTS(found[i].context < data.contexts.size(), "a finding names a context");
    const auto& context = data.contexts[found[i].context];
    const auto key = std::pair(context.workload, context.machine);
    auto [at, added] = groups.try_emplace(key);
    if (added) {
      order.push_back(key);
      at->second.workload = context.workload;
      at->second.machine = context.machine;
    }
    at->second.findings.push_back(i);
  }
  std::vector<ModelComparison> out;
  for (const auto& key : order) {
    auto& g = groups[key];
    if (g.findings.size() < 2) continue;
    const auto& first = found[g.findings.front()];
    g.same_best = std::all_of(g.findings.begin(), g.findings.end(),
                              [&](std::size_t i) { return found[i].best == first.best; });
    // A mapper within the tie tolerance of every model's recommendation serves them all.
    const auto wins = [&](std::size_t i, const std::string& mapper) {
      const auto& f = found[i];
      return f.best == mapper || std::find(f.tied_with_best.begin(), f.tied_with_best.end(),
                                           mapper) != f.tied_with_best.end();
    };
    std::vector<std::string> candidates{first.best};
    candidates.insert(candidates.end(), first.tied_with_best.begin(), first.tied_with_best.end());
    g.same_winner = std::any_of(candidates.begin(), candidates.end(), [&](const std::string& m) {
      return std::all_of(g.findings.begin(), g.findings.end(),
                         [&](std::size_t i) { return wins(i, m); });
    });
    double low = 0, high = 0;
    bool all = true;
    for (std::size_t k = 0; k < g.findings.size(); ++k) {
      const auto& ratio = found[g.findings[k]].best_ratio;
      if (!ratio) {
        all = false;
        break;
      }
      low = k == 0 ? *ratio : std::min(low, *ratio);
      high = k == 0 ? *ratio : std::max(high, *ratio);
    }
    if (all) g.ratio_spread = high - low;
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<ChartTable> findings_tables(const ReportData& data,
                                        const std::vector<ContextFinding>& found,
                                        const std::vector<ModelComparison>& models,
                                        const std::vector<ContextAgreement>& agreements,
                                        double tie_tolerance) {
  std::map<std::size_t, const ContextAgreement*> agreement_of;
  for (const auto& a : agreements) agreement_of.emplace(a.context, &a);
  std::vector<ChartTable> tables;

  ChartTable mappers;
  mappers.suffix = "mappers";
  mappers.caption =
      overview(found, agreement_of) +
      fmt::format(
          " The mapper to use per workload, machine and model: the lowest simulated time (static "
          "model: the lowest hop-bytes), its time / in-order, whether choosing by hop-bytes alone "
          "would have picked it, and how hop-bytes and the time order the mappers (Spearman's rho; "
          "\"mostly tied\" when more than half of the mapper pairs are within {} in hop-bytes or "
          "in "
          "time, and the order is noise).",
          tolerance_text(tie_tolerance));
  mappers.header = {"workload",           "machine",    "model",
                    "recommended mapper", "/ in-order", "hop-bytes would choose it",
                    "hop-bytes vs time"};
  for (const auto& f : found) {
    const auto& context = data.contexts[f.context];
    std::string best = f.best;
    if (!f.tied_with_best.empty()) {
      best += fmt::format(" (tied within {}: {})", tolerance_text(tie_tolerance),
                          fmt::join(f.tied_with_best, ", "));
    }
    std::string rho = "-";
    if (const auto it = agreement_of.find(f.context); it != agreement_of.end()) {
      const auto& a = *it->second;
      rho = fmt::format("{} ({} of {} pairs tied)", rho_cell(a), a.ties, a.pairs);
    }
    mappers.rows.push_back({context.workload, context.machine, context.model_title(), best,
                            gain_cell(f.best_ratio), static_cell(f, tie_tolerance), rho});
  }
  tables.push_back(std::move(mappers));

  if (models.empty()) return tables;
  ChartTable agree;
  agree.suffix = "models";
  agree.caption =
      "Workloads and machines replayed under several models: the mapper each model recommends "
      "(with its time / in-order), whether they all recommend the same one (or one within the tie "
      "tolerance of each model's recommendation), and how far the recommended mappers' ratios lie "
      "apart (largest - smallest).";
  agree.header = {"workload", "machine", "recommended per model", "same mapper", "ratio spread"};
  for (const auto& m : models) {
    std::vector<std::string> picks;
    for (const auto i : m.findings) {
      const auto& f = found[i];
      picks.push_back(fmt::format("{}: {} {}", data.contexts[f.context].model_title(), f.best,
                                  ratio_cell(f.best_ratio)));
    }
    agree.rows.push_back({m.workload, m.machine, fmt::format("{}", fmt::join(picks, "; ")),
                          m.same_best ? "yes"
                          : m.same_winner
                              ? fmt::format("yes, within {}", tolerance_text(tie_tolerance))
                              : "no",
                          m.ratio_spread ? fmt::format("{:.3f}", *m.ratio_spread) : "-"});
  }
  tables.push_back(std::move(agree));
  return tables;
}

}  // namespace mapsim::exp
