// `mapsim run`: expands an experiment config into runs and runs them into the results database
// (or shows them with --dry-run, or writes Slurm scripts with --slurm). Without a config it runs
// the bundled demo sweep.

#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>
#include <unordered_set>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "cli/Interrupt.hpp"
#include "cli/MapperChoice.hpp"
#include "experiments/Config.hpp"
#include "experiments/Query.hpp"
#include "experiments/Runner.hpp"
#include "experiments/Slurm.hpp"
#include "experiments/Sweep.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Parse.hpp"

namespace mapsim::cli {
namespace {

std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw po::error(fmt::format("--shard '{}': expected I/N, e.g. 2/8", text));
  const auto count = static_cast<int>(parse_integer(text.substr(slash + 1), "--shard N", 1, 10000));
  const auto index = static_cast<int>(parse_integer(text.substr(0, slash), "--shard I", 1, count));
  return {index, count};
}

std::string command_line(const std::vector<std::string>& args) {
  std::string text = "mapsim run";
  for (const auto& a : args) {
    text += ' ';
    text += exp::shell_quote(a);
  }
  return text;
}

void print_dry_run(const exp::Sweep& sweep, const std::vector<exp::StoredState>& states,
                   const std::vector<std::size_t>& shown) {
  std::map<std::string_view, std::size_t> counts;
  fmt::print("{:<8} {:<12} {}\n", "status", "key", "name");
  for (const auto i : shown) {
    const auto& state = states[i];
    const auto status = exp::name(state.status);
    ++counts[status];
    std::string detail;
    if (state.status == exp::RunStatus::Running || state.status == exp::RunStatus::Stale)
      detail = fmt::format("  ({} pid {})", state.host, state.pid);
    if (state.status == exp::RunStatus::Failed) detail = "  (" + state.message + ")";
    fmt::print("{:<8} {:<12} {}{}\n", status, sweep.runs[i].key.substr(0, 12), sweep.runs[i].name,
               detail);
  }
  std::vector<std::string> parts;
  for (const auto status : {"new", "done", "failed", "stale", "running"}) {
    if (counts.contains(status)) parts.push_back(fmt::format("{} {}", counts[status], status));
  }
  fmt::print("{} runs{}{}\n", shown.size(), parts.empty() ? "" : ": ", fmt::join(parts, ", "));
  fmt::print(
      "({} combinations: {} excluded, {} dropped by --where or --mapper, {} equal to an earlier "
      "run)\n",
      sweep.combinations, sweep.excluded, sweep.filtered, sweep.merged);
}

/// `text` as an SQL string literal.
std::string sql_quoted(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

/// The items of a --mapper list: split at commas outside brackets (a sweep's labels, such as
/// "scotch[runs=8,strategy=quality]", hold commas).
std::vector<std::string_view> mapper_list_items(std::string_view list) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    if (i == list.size() || (list[i] == ',' && depth == 0)) {
      items.push_back(trim(list.substr(from, i - from)));
      from = i + 1;
    } else if (list[i] == '[') {
      ++depth;
    } else if (list[i] == ']' && depth > 0) {
      --depth;
    }
  }
  return items;
}

/// --mapper LIST: `where` ANDed with the runs of these mappers, each a mapper name (all its runs)
/// or a label of the sweep's mappers axis (that entry's runs: "best-latency", "scotch[runs=8]");
/// every one must be on the axis (as the where condition also reaches Slurm shards, they run the
/// same runs).
std::string restrict_mappers(const exp::SweepConfig& config, const po::variables_map& options,
                             const std::string& where) {
  const auto list = options["mapper"].as<std::string>();
  if (list == "all") return where;
  std::vector<std::string_view> names;
  std::vector<std::string_view> labels;
  for (const auto& m : config.mappers) {
    if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
    if (m.label != m.name) labels.push_back(m.label);
  }
  const auto known = [&] {
    return labels.empty() ? fmt::format("its mappers: {}", fmt::join(names, ", "))
                          : fmt::format("its mappers: {}; its labels: {}", fmt::join(names, ", "),
                                        fmt::join(labels, ", "));
  };
  std::vector<std::string> by_name;
  std::vector<std::string> by_label;
  std::vector<std::string_view> rest;  // mapper names, checked as everywhere
  for (const auto item : mapper_list_items(list)) {
    if (item.empty()) {
      throw InputError(fmt::format(
          "--mapper '{}': an empty mapper name (give NAME, NAME,NAME,... or all)", list));
    }
    if (std::find(labels.begin(), labels.end(), item) != labels.end()) {
      by_label.push_back(sql_quoted(item));
    } else {
      rest.push_back(item);
    }
  }
  if (!rest.empty()) {
    std::vector<std::string_view> chosen;
    try {
      chosen = choose_mappers(fmt::format("{}", fmt::join(rest, ",")), "--mapper");
    } catch (const InputError& e) {
      if (labels.empty()) throw;
      throw InputError(
          fmt::format("{}; the sweep's labels: {}", e.what(), fmt::join(labels, ", ")));
    }
    for (const auto name : chosen) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        throw InputError(
            fmt::format("--mapper {}: the sweep has no mapper '{}'; {}", list, name, known()));
      }
      by_name.push_back(sql_quoted(name));
    }
  }
  std::vector<std::string> conditions;
  if (!by_name.empty())
    conditions.push_back(fmt::format("mapper IN ({})", fmt::join(by_name, ", ")));
  if (!by_label.empty())
    conditions.push_back(fmt::format("mapper_label IN ({})", fmt::join(by_label, ", ")));
  const auto condition =
      conditions.size() == 1 ? conditions[0] : fmt::format("({})", fmt::join(conditions, " OR "));
  return where.empty() ? condition : fmt::format("({}) AND {}", where, condition);
}

}  // namespace

/// The exit status of a sweep that finished with failed runs stored (1 and 2 are bad input and
/// bad usage, 3 a bug, 130 an interrupt).
constexpr int kExitFailedRuns = 4;

int run_run(const std::vector<std::string>& args) {
  CommandLine line(
      "run",
      "[CONFIG] [--quick] [--db FILE] [--jobs N] [--where EXPR] [--rerun-failed] [--shard I/N]",
      "Runs an experiment config (YAML: workloads x machines x mappers x models ...; see\n"
      "docs/experiments.md) into a SQLite results database, skipping runs already stored:\n"
      "an interrupted sweep resumes where it stopped. Without CONFIG it runs the bundled demo\n"
      "sweep (six NPB kernels at 64 ranks on four machines with twelve mappers). Ctrl-C stops\n"
      "cleanly: finished runs stay stored, unfinished ones are discarded. --quick runs the\n"
      "config's quick variant (its top-level `quick:` map replaces the sections it names), a\n"
      "sweep of a few minutes for trying a config. A run that fails is stored with its message\n"
      "and the sweep goes on; the exit status is then 4 (failed runs stored), 0 when every\n"
      "run of the sweep is done.");
  line.options.add_options()("config", po::value<std::string>(), "the config file (YAML)")(
      "quick", "run the config's quick variant (its `quick:` sections replace the top-level ones)")(
      "db", po::value<std::string>()->default_value("results.db"), "results database")(
      "jobs,j", po::value<std::string>(),
      "runs in parallel (default: one per core this process may use)")(
      "where", po::value<std::string>(),
      "only runs for which this SQL condition holds, e.g. \"mapper = 'scotch' AND ranks <= 64\"")(
      "rerun-failed", "run failed runs again")(
      "shard", po::value<std::string>(),
      "run shard I of N (1-based): a deterministic stripe of the runs, for job arrays")(
      "dry-run", "list the runs and their status in the database; run nothing")(
      "slurm", po::value<std::string>(),
      "write (not submit) a Slurm array job of N shards and a merge job, beside the config")(
      "time-limit", po::value<std::string>(),
      "seconds of wall time per replay before it fails (default: the config's run.time-limit, or "
      "none)")("store-links", "also store per-link loads (as store: {links: true})")(
      "max-combinations", po::value<std::string>(),
      "refuse a sweep of more combinations than this (default 1000000), counted before "
      "anything is expanded")(
      "mapper", po::value<std::string>(),
      "only the runs of these mappers of the sweep (the demo's or the config's mappers axis): "
      "NAME[,NAME...] or all; an item may also be a label of that axis (best-latency, "
      "scotch[runs=8]) for that entry's runs alone");
  line.positional.add("config", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;

  exp::RunnerOptions runner;
  runner.database = options["db"].as<std::string>();
  if (options.count("jobs") != 0)
    runner.jobs =
        static_cast<int>(parse_integer(options["jobs"].as<std::string>(), "--jobs", 1, 1024));
  if (options.count("shard") != 0) {
    if (options.count("slurm") != 0) throw po::error("give --shard or --slurm, not both");
    std::tie(runner.shard_index, runner.shard_count) =
        parse_shard(options["shard"].as<std::string>());
  }
  if (options.count("time-limit") != 0) {
    runner.time_limit = parse_real(options["time-limit"].as<std::string>(), "--time-limit");
    if (*runner.time_limit < 0)
      throw InputError(
          fmt::format("--time-limit {}: expected zero (none) or more seconds", *runner.time_limit));
  }
  if (options.count("store-links") != 0) runner.store_links = true;
  runner.rerun_failed = options.count("rerun-failed") != 0;
  runner.command = command_line(args);
  std::string where = options.count("where") != 0 ? options["where"].as<std::string>() : "";

  const bool quick = options.count("quick") != 0;
  exp::SweepConfig config;
  if (options.count("config") != 0) {
    config = exp::load_config(options["config"].as<std::string>(), quick);
  } else {
    if (options.count("slurm") != 0) throw po::error("--slurm needs a CONFIG file");
    config = exp::parse_config(exp::demo_config_text(), exp::kDemoConfigName,
                               std::filesystem::current_path(), quick);
  }

  if (options.count("mapper") != 0) where = restrict_mappers(config, options, where);
  const auto max_combinations =
      options.count("max-combinations") != 0
          ? static_cast<std::size_t>(parse_integer(options["max-combinations"].as<std::string>(),
                                                   "--max-combinations", 1, INT64_MAX))
          : exp::kMaxCombinations;

  if (options.count("slurm") != 0) {
    // The config and --where are valid before writing.
    (void)exp::expand(config, where, max_combinations);
    exp::SlurmOptions slurm;
    slurm.config = options["config"].as<std::string>();
    slurm.database = runner.database;
    slurm.shards =
        static_cast<int>(parse_integer(options["slurm"].as<std::string>(), "--slurm", 1, 10000));
    std::error_code error;
    slurm.mapsim = std::filesystem::canonical("/proc/self/exe", error);
    if (error) slurm.mapsim = "mapsim";
    slurm.cpus_per_task = runner.jobs > 0 ? runner.jobs : 2;
    std::vector<std::string> extra;
    if (quick) extra.emplace_back("--quick");
    if (!where.empty()) extra.push_back("--where " + exp::shell_quote(where));
    if (runner.rerun_failed) extra.emplace_back("--rerun-failed");
    if (runner.time_limit) extra.push_back(fmt::format("--time-limit {}", *runner.time_limit));
    if (runner.store_links) extra.emplace_back("--store-links");
    slurm.extra_arguments = fmt::format("{}", fmt::join(extra, " "));
    const auto scripts = exp::write_slurm_scripts(slurm);
    fmt::print("wrote {} (array of {} shards) and {} (merge into {});\nsubmit them with:\n\n{}",
               scripts.array.string(), slurm.shards, scripts.merge.string(),
               slurm.database.string(), scripts.commands);
    return 0;
  }

  const auto sweep = exp::expand(std::move(config), where, max_combinations);
  if (options.count("dry-run") != 0) {
    const auto states = exp::run_states(sweep, runner.database);
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < sweep.runs.size(); ++i) {
      if (exp::in_shard(sweep.runs[i], runner.shard_index, runner.shard_count)) shown.push_back(i);
    }
    print_dry_run(sweep, states, shown);
    return 0;
  }

  const InterruptGuard guard;
  runner.interrupt = &interrupted();
  const auto report = exp::run_sweep(sweep, runner);

  if (report.interrupted) {
    fmt::print(stderr,
               "mapsim run: interrupted: {} runs finished and stored in {}, {} unfinished "
               "discarded; run the same command again to resume\n",
               report.done + report.failed, runner.database.string(), report.discarded);
    return 130;
  }
  // The summary of this sweep's contexts (this shard's).
  std::vector<std::string> contexts;
  std::unordered_set<std::string> seen;
  for (const auto& run : sweep.runs) {
    if (exp::in_shard(run, runner.shard_index, runner.shard_count) &&
        seen.insert(run.context_key).second)
      contexts.push_back(run.context_key);
  }
  if (!contexts.empty()) {
    exp::Store store(runner.database, exp::Store::Access::Read);
    exp::ResultsQuery query;
    query.metrics = {"hop_bytes", "makespan_s"};
    query.normalize = true;
    query.contexts = contexts;
    const auto tables = exp::query_results(store, query);
    if (!tables.empty()) {
      std::ostringstream summary;
      exp::write_summary(summary, tables);
      fmt::print("{}\n", summary.str());
    }
  }
  fmt::print(
      "{} runs in {}: {} done and {} failed now, {} done before, {} failed before{}{}; {} mapper "
      "calls, {} mappings from the database; {:.1f} s\n",
      report.runs, runner.database.string(), report.done, report.failed, report.already_done,
      report.already_failed,
      report.running_elsewhere > 0 ? fmt::format(", {} running elsewhere", report.running_elsewhere)
                                   : "",
      report.taken > 0 ? fmt::format(", {} taken by another runner", report.taken) : "",
      report.mapper_invocations, report.mappings_reused, report.seconds);
  if (report.already_failed > 0 && !runner.rerun_failed) {
    fmt::print("run again with --rerun-failed to retry the {} failed runs\n",
               report.already_failed);
  }
  fmt::print("tables: mapsim results {}\n", exp::shell_quote(runner.database.string()));
  // Scripts and job dependencies see a sweep with failed runs as not done.
  const auto failed = report.failed + (runner.rerun_failed ? 0 : report.already_failed);
  if (failed > 0) {
    fmt::print(stderr,
               "mapsim run: {} of {} runs failed: stored with their messages (status 'failed' "
               "in the runs table); --rerun-failed runs them again\n",
               failed, report.runs);
    return kExitFailedRuns;
  }
  return 0;
}

}  // namespace mapsim::cli
