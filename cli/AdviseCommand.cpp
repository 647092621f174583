// `mapsim advise`: one answer for a user's trace on a machine. Maps with a portfolio of mappers,
// replays every distinct mapping communication-only under `flow`, the leading ones also for the
// whole run (with the recorded computation), checks the winner against in-order under `analytic`
// and `packet`, and prints one table and a verdict: the recommended mapping and its gain, the
// communication share of the run, whether the models agree, whether hop-bytes would have chosen
// the same, and each mapping's network energy while communicating (sim/Energy.hpp); it writes
// the winner's launcher file. A mapper of the portfolio that replays (replay-search, which
// --search adds) replays through an oracle with the same settings as the communication column.
//
// The rule: the recommended mapping is the one with the shortest communication-only replay
// under flow (the placement's effect, which computation would hide), if it beats in-order by
// more than kTie; otherwise in-order (the launcher's default: no change is worth making).

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "cli/Cli.hpp"
#include "cli/LinkOverrides.hpp"
#include "cli/MachineOptions.hpp"
#include "cli/MapperChoice.hpp"
#include "cli/MatrixChoice.hpp"
#include "cli/ReplayCosts.hpp"
#include "cli/Report.hpp"
#include "cli/TraceInput.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingFile.hpp"
#include "mappers/Metrics.hpp"
#include "sim/Energy.hpp"
#include "sim/PlacementBound.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "support/Progress.hpp"
#include "support/Version.hpp"
#include "tuning/ReplayOracle.hpp"

namespace mapsim::cli {
namespace {

/// Relative differences up to this are ties: no mapping "beats" another by less.
constexpr double kTie = 0.001;
/// Network energies within this relative difference are the same (floating-point noise).
constexpr double kSameEnergy = 1e-9;

/// The default portfolio: one mapper of each family that is fast at thousands of ranks — the
/// launcher's orders, space-filling curves, graph mappers, Bhatele's grid and graph heuristics,
/// the job-placement policies of hierarchies — and `best`, the library's search. (The other
/// searches, ohtma, bokhari, genetic and sampling, take minutes at thousands of ranks; the other
/// members of a family rarely add a distinct mapping. --mapper all takes every one.) Last, a
/// halo grid's tiles, laid the same way and mirrored (mxovlp's layers=tile and tile-fold, with
/// the grid found behind the collectives): they beat in-order where in-order's rows stretch
/// over a plane (LU at hundreds of ranks and more), and merge with mht's mapping elsewhere.
constexpr std::string_view kPortfolio =
    "in-order,round-robin,random,hilbert,scan,greedy,treematch,rcm,bisection,scotch,mxovlp,mht,"
    "random-router,group-striped,best,mxovlp:layers=tile:pattern=dominant,"
    "mxovlp:layers=tile-fold:pattern=dominant";

/// The portfolio `list` names: "all" (every mapper that maps from the matrix alone), or a comma
/// list of items NAME[:key=value...], each checked now; in-order first (added if missing).
std::vector<map::MapperItem> portfolio_of(std::string_view list) {
  auto items = choose_mapper_items(list, "--mapper");
  // In-order first: every ratio is to its mapping.
  const auto in_order = std::find_if(
      items.begin(), items.end(), [](const map::MapperItem& m) { return m.label == "in-order"; });
  if (in_order == items.end()) {
    items.insert(items.begin(), {"in-order", {}, "in-order"});
  } else {
    std::rotate(items.begin(), in_order, in_order + 1);
  }
  return items;
}

/// One distinct mapping: the mappers that gave it and what the replays measured.
struct Candidate {
  std::vector<std::string_view> mappers;  ///< the first names it
  topo::Mapping mapping;
  std::uint64_t hop_bytes = 0;
  sim::Time comm = 0;               ///< communication only, flow
  double comm_energy = 0;           ///< J: the network's energy over that replay
  std::optional<sim::Time> whole;   ///< whole run, flow (leading candidates)
  std::optional<double> mpi_share;  ///< mean time in MPI / makespan, whole run
};

double ratio(double value, double baseline) {
  return baseline > 0 ? value / baseline : 1.0;
}

std::string percent_faster(double r) {
  if (std::abs(1 - r) <= kTie) return "as fast as";
  return r < 1 ? fmt::format("{:.1f} % faster than", 100 * (1 - r))
               : fmt::format("{:.1f} % slower than", 100 * (r - 1));
}

std::string seconds_text(sim::Time t) {
  const double s = sim::to_seconds(t);
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.3f} us", s * 1e6);
}

}  // namespace

int run_advise(const std::vector<std::string>& args) {
  CommandLine line(
      "advise",
      "TRACE --topology SPEC [--allocation LIST|@FILE] [--hosts FILE] [--search[=PARAMS]] "
      "[--link CLASS:GBPS:NS] [--link-energy CLASS:PJ:IDLE_W:BUSY_W] [--out FILE --mapping-format "
      "rankfile|slurm|mpich|hostlist|plain] [--format text|json]",
      "Which placement for this trace on this machine, and how much does it matter? Maps the\n"
      "ranks with a portfolio of mappers (every fast one and 'best'), replays every distinct\n"
      "mapping communication only under the flow model, the leading ones also for the whole\n"
      "run (with the trace's computation), checks the winner against in-order under the\n"
      "analytic and packet models, and prints one table and a verdict: the recommended\n"
      "mapping (the shortest communication, unless no mapping beats in-order by 0.1 %), its\n"
      "gain in communication and in the whole run, the communication share of the run,\n"
      "the headroom left (its communication against the placement bound, a time no\n"
      "placement can beat), whether the three models agree, whether hop-bytes would have\n"
      "chosen the same, and the network energy each mapping's communication spends (links'\n"
      "power included; the most frugal mapping named). --out writes the recommended mapping\n"
      "for a launcher.\n"
      "TRACE is an OTF2 archive or a generator spec (npb:lu:A:64); its matrix counts\n"
      "collectives as everywhere in mapsim. --search adds replay-search, the mapper that\n"
      "searches with this replay in the loop (about 200 replays more: minutes where one\n"
      "replay takes a second), which is never slower than its own portfolio there.");
  line.options.add_options()("trace", po::value<std::string>()->required(),
                             "OTF2 trace (anchor file or directory) or generator spec")(
      "topology", po::value<std::string>()->required(), "machine spec, e.g. torus:4x4x4")(
      "mapper", po::value<std::string>(),
      fmt::format("the portfolio: 'all' or a comma list of mappers, each NAME or "
                  "NAME:key=value[:key=value...] (default: {}); in-order is always added",
                  kPortfolio)
          .c_str())(
      "search", po::value<std::string>()->implicit_value(""),
      "also map with replay-search, which replays with these costs and collectives (by "
      "default as the communication column: flow, communication only); "
      "--search=KEY=VALUE[:KEY=VALUE...] sets its parameters, e.g. "
      "--search=evaluations=40:time-limit=60 ('mapsim list mappers'). replay-search may also "
      "be an item of --mapper")(
      "link", po::value<std::vector<std::string>>()->composing(),
      "override a link class the machine has: CLASS:GBPS:NS, e.g. grid:25:100 (repeatable; "
      "'mapsim list link-classes'; as in simulate)")(
      "link-energy", po::value<std::vector<std::string>>()->composing(),
      "a link class's energy: CLASS:PJ_PER_BIT:IDLE_W:BUSY_W, e.g. grid:5:3:4 (repeatable; as in "
      "simulate): the network energy of every replay, and what objective=energy weighs")(
      "candidates", po::value<std::string>()->default_value("2"),
      "how many of the fastest mappings to replay for the whole run too (1 to 64)")(
      "seed", po::value<std::string>()->default_value("0"),
      "random seed of the mappers and of per-message routes")(
      "out", po::value<std::string>(), "write the recommended mapping to FILE ('-': stdout)")(
      "mapping-format", po::value<std::string>()->default_value("rankfile"),
      "format of --out: rankfile (Open MPI), slurm (SLURM_HOSTFILE), mpich (MPICH_RANK_ORDER), "
      "hostlist or plain")("format", po::value<std::string>()->default_value("text"),
                           "report format: text or json");
  line.positional.add("trace", 1);
  add_matrix_options(line.options);
  add_replay_cost_options(line.options);
  add_machine_options(line.options);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;

  // Cheap checks first: the report format, the portfolio, the machine, --out, the ranks.
  const auto format = report_format_from_name(options["format"].as<std::string>(), "--format");
  if (format == ReportFormat::Csv) throw po::error("--format csv: advise prints text or json");
  const auto mapping_format =
      map::mapping_format_from_name(options["mapping-format"].as<std::string>());
  const auto seed = static_cast<map::Seed>(
      parse_integer(options["seed"].as<std::string>(), "--seed", 0, INT64_MAX));
  const auto leading = static_cast<std::size_t>(
      parse_integer(options["candidates"].as<std::string>(), "--candidates", 1, 64));
  const auto costs = replay_costs(options);
  const auto overheads = costs.overheads;
  const std::string list =
      options.count("mapper") != 0 ? options["mapper"].as<std::string>() : std::string(kPortfolio);
  auto items = portfolio_of(list);
  if (options.count("search") != 0) {
    const auto& given = options["search"].as<std::string>();
    const auto item = map::parse_mapper_item(
        given.empty() ? "replay-search" : "replay-search:" + given, "--search");
    if (std::any_of(items.begin(), items.end(),
                    [&](const map::MapperItem& m) { return m.label == item.label; })) {
      throw InputError(
          fmt::format("--search: mapper '{}' is named in --mapper as well", item.label));
    }
    items.push_back(item);
  }
  const auto topology = make_machine(options, options["topology"].as<std::string>(), "--topology");
  const auto link_overrides = options.count("link") != 0
                                  ? options["link"].as<std::vector<std::string>>()
                                  : std::vector<std::string>{};
  const auto energy_overrides = options.count("link-energy") != 0
                                    ? options["link-energy"].as<std::vector<std::string>>()
                                    : std::vector<std::string>{};
  const auto links = apply_link_energy(energy_overrides, *topology,
                                       apply_link_overrides(link_overrides, *topology));
  if (options.count("out") != 0) prepare_output(options["out"].as<std::string>(), "--out");
  TraceInput trace(options["trace"].as<std::string>(), ReadMode::Auto);
  const std::int64_t capacity =
      static_cast<std::int64_t>(topology->usable_nodes()) * topology->cores_per_node();
  if (trace.ranks() > capacity) {
    throw InputError(
        fmt::format("{} ranks do not fit on {} ({} {}nodes x {} cores); {} has {} ranks",
                    trace.ranks(), topology->spec(), topology->usable_nodes(),
                    topology->allocation().empty() ? "" : "allocated ", topology->cores_per_node(),
                    trace.source(), trace.ranks()));
  }
  const auto matrix_settings = matrix_options(options);
  trace.load(true, matrix_settings);  // every step replays it
  const auto matrix = trace.matrix(matrix_settings);

  // The replays that judge the mappings: communication only, under flow (step 2).
  sim::SimConfig comm_only;
  comm_only.collectives = matrix_settings.algorithms;
  comm_only.overheads = overheads;
  sim::apply(costs, "flow", comm_only.model_options);
  comm_only.compute_scale = 0;
  comm_only.seed = seed;
  comm_only.links = links;
  // A mapper that replays (replay-search) judges its candidates with the same settings, and
  // unless given its own model= and compute-scale=, under the same model and compute scale
  // (flow, communication only: replay-search's defaults too), so that it is never slower than
  // its portfolio's members under the replay that ranks them here.
  std::vector<std::string> inherited;
  for (auto& item : items) {
    inherited.push_back(inherit_replay_settings(
        item.name, item.params, {"flow", 0, "advise's ranking", "advise's ranking"}));
  }
  const tuning::ReplayOracle oracle(
      *topology, comm_only,
      [&](const topo::Mapping& mapping, const sim::SimConfig& c, const map::Slice& slice) {
        return trace.simulate(*topology, mapping, c, slice);
      },
      [&](const map::Slice& slice) { trace.check_slice(slice); });

  // 1. Map with every mapper of the portfolio (in parallel); a mapper that refuses the machine
  // (a grid-only one on a fat-tree) is left out and named. Mappers that replay (searches, which
  // take long) come after the others, one at a time, their progress shown.
  std::vector<std::optional<topo::Mapping>> mappings(items.size());
  std::vector<std::string> refusals(items.size());
  const auto replays = [&](std::size_t k) { return map::find_mapper(items[k].name).replays; };
  std::vector<std::size_t> fast;
  std::vector<std::size_t> searches;
  for (std::size_t k = 0; k < items.size(); ++k) (replays(k) ? searches : fast).push_back(k);
  // Fallbacks of grid heuristics ("not a regular grid: mapping with mht") are no news here.
  {
    const auto level = log::level();
    if (level == log::Level::Info) log::set_level(log::Level::Warning);
    const struct Restore {
      log::Level level;
      ~Restore() { log::set_level(level); }
    } restore{level};
    Progress progress("mapping", fast.size(), "mappers");
    tbb::parallel_for(std::size_t{0}, fast.size(), [&](std::size_t i) {
      const auto k = fast[i];
      try {
        mappings[k] = map::make_mapper(items[k].name, items[k].params)
                          ->map(matrix, *topology, seed, nullptr, comm_only.links);
      } catch (const InputError& e) {
        refusals[k] = e.what();
      }
      progress.advance();
    });
  }
  // A search takes long: its rounds are shown as they end (as `map` shows them).
  for (const auto k : searches) {
    const ProgressStep step(fmt::format("searching with {}", items[k].label));
    try {
      const NotedOracle noted(oracle, inherited[k]);
      mappings[k] = map::make_mapper(items[k].name, items[k].params)
                        ->map(matrix, *topology, seed, &noted, comm_only.links);
    } catch (const InputError& e) {  // asked for by name: say why it has no row
      refusals[k] = e.what();
      log::warning("{}: {}", items[k].label, e.what());
    }
  }
  if (!mappings[0]) throw InputError("in-order cannot map this trace: " + refusals[0]);
  std::vector<Candidate> candidates;
  std::vector<std::string> refused;
  std::vector<std::string> failed;  // searches that could not run (their warning says why)
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::string_view label = items[k].label;
    if (!mappings[k]) {
      (replays(k) ? failed : refused).emplace_back(label);
      log::debug("advise: {} refused: {}", label, refusals[k]);
      continue;
    }
    const auto same = std::find_if(candidates.begin(), candidates.end(),
                                   [&](const Candidate& c) { return c.mapping == *mappings[k]; });
    if (same != candidates.end()) {
      same->mappers.push_back(label);
      continue;
    }
    Candidate c;
    c.mappers.push_back(label);
    c.mapping = std::move(*mappings[k]);
    c.hop_bytes = map::metrics::hop_bytes(matrix, *topology, c.mapping);
    candidates.push_back(std::move(c));
  }

  // What the searches tried (replay-search's portfolio, rounds and gain).
  if (const auto text = oracle.reported(); !text.empty()) log::info("{}", trim(text));

  // 2. Every distinct mapping, communication only, under flow.
  {
    Progress progress("replaying", candidates.size(), "mappings (communication only, flow)");
    tbb::parallel_for(std::size_t{0}, candidates.size(), [&](std::size_t k) {
      const auto r = trace.simulate(*topology, candidates[k].mapping, comm_only);
      candidates[k].comm = r.makespan;
      candidates[k].comm_energy = sim::replay_energy(r, *topology, comm_only.links).joules();
      progress.advance();
    });
  }
  // In-order stays first; the others by communication time, ties in portfolio order.
  std::stable_sort(candidates.begin() + 1, candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.comm < b.comm; });
  const Candidate& in_order = candidates[0];
  const auto comm_ratio = [&](const Candidate& c) {
    return ratio(static_cast<double>(c.comm), static_cast<double>(in_order.comm));
  };
  const auto energy_ratio = [&](const Candidate& c) {
    return ratio(c.comm_energy, in_order.comm_energy);
  };
  // The mapping whose communication spends the least network energy (the first on ties); the
  // recommended one's counts as the same within kSameEnergy (below).
  const auto least = std::min_element(
      candidates.begin(), candidates.end(),
      [](const Candidate& a, const Candidate& b) { return a.comm_energy < b.comm_energy; });

  // 3. The leading mappings and in-order, for the whole run.
  sim::SimConfig whole_run;
  whole_run.collectives = matrix_settings.algorithms;
  whole_run.overheads = overheads;
  whole_run.model_options = comm_only.model_options;
  whole_run.seed = seed;
  whole_run.links = links;
  const std::size_t whole_count = std::min(candidates.size(), leading + 1);
  {
    Progress progress("replaying", whole_count, "mappings (whole run, flow)");
    tbb::parallel_for(std::size_t{0}, whole_count, [&](std::size_t k) {
      const auto r = trace.simulate(*topology, candidates[k].mapping, whole_run);
      candidates[k].whole = r.makespan;
      candidates[k].mpi_share =
          r.makespan > 0 ? r.mpi_time_mean / static_cast<double>(r.makespan) : 0.0;
      progress.advance();
    });
  }

  // The placement bound of the communication (sim/PlacementBound.hpp): how much any placement
  // could still gain over the recommendation.
  sim::Time bound = 0;
  {
    const ProgressStep step("replaying the placement bound");
    const auto ideal = sim::ideal_machine(*topology, trace.ranks(), comm_only);
    bound = trace.simulate(*ideal.topology, ideal.mapping, ideal.config).makespan;
  }

  // 4. The recommendation, and its challenge under the other models: the winner against
  // in-order, or (in-order recommended) the fastest other mapping against in-order.
  std::size_t best = 0;
  if (candidates.size() > 1 && comm_ratio(candidates[1]) < 1 - kTie) best = 1;
  const Candidate& winner = candidates[best];
  // The most frugal mapping: the recommended one if it spends as much as the least, to a relative
  // kSameEnergy (the same traffic summed in another order differs in the last bits: no mapping
  // to name for that).
  const Candidate& frugal =
      least->comm_energy >= winner.comm_energy * (1 - kSameEnergy) ? winner : *least;
  const Candidate& challenger = candidates[candidates.size() > 1 ? 1 : 0];
  struct ModelCheck {
    std::string_view model;
    double ratio = 1;  ///< challenger / in-order, communication only
  };
  std::vector<ModelCheck> checks{{"analytic"}, {"flow", comm_ratio(challenger)}, {"packet"}};
  if (&challenger != &in_order) {
    for (auto& check : checks) {
      if (check.model == "flow") continue;
      sim::SimConfig config = comm_only;
      config.model = std::string(check.model);
      // Each model with the corrections it takes: analytic the size factors, packet none.
      config.model_options = sim::ModelOptions{};
      sim::apply(costs, check.model, config.model_options);
      const auto pair = std::array<const Candidate*, 2>{&challenger, &in_order};
      std::array<sim::Time, 2> times{};
      tbb::parallel_for(std::size_t{0}, std::size_t{2}, [&](std::size_t k) {
        times[k] = trace.simulate(*topology, pair[k]->mapping, config).makespan;
      });
      check.ratio = ratio(static_cast<double>(times[0]), static_cast<double>(times[1]));
    }
  }
  const auto [low, high] = std::minmax_element(
      checks.begin(), checks.end(), [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
  // The models agree with in-order recommended when none sees the challenger faster than
  // in-order; with a winner (flow sees it faster), when another model does too and none sees it
  // slower: a tie is no disagreement (the analytic model, without contention, ties wherever the
  // hops are the same), a gain only flow sees is not taken on trust, and one that another model
  // sees as a loss is a disagreement.
  const auto gains =
      std::count_if(checks.begin(), checks.end(), [](const auto& c) { return c.ratio < 1 - kTie; });
  const auto losses =
      std::count_if(checks.begin(), checks.end(), [](const auto& c) { return c.ratio > 1 + kTie; });
  const bool models_agree = best == 0 ? gains == 0 : gains >= 2 && losses == 0;
  const bool analytic_ties = std::abs(checks[0].ratio - 1) <= kTie;
  // What hop-bytes alone would have chosen.
  const auto by_hop_bytes = std::min_element(
      candidates.begin(), candidates.end(),
      [](const Candidate& a, const Candidate& b) { return a.hop_bytes < b.hop_bytes; });
  const bool static_agrees =
      &*by_hop_bytes == &winner || std::abs(comm_ratio(*by_hop_bytes) - comm_ratio(winner)) <= kTie;
  // The share of the run placement can change: communication replayed alone against the whole
  // run (time in MPI is larger: it includes waiting for other ranks' computation).
  const double comm_share =
      ratio(static_cast<double>(in_order.comm), static_cast<double>(in_order.whole.value_or(0)));
  const double mpi_share = in_order.mpi_share.value_or(0);
  const auto whole_ratio = [&](const Candidate& c) {
    return ratio(static_cast<double>(*c.whole), static_cast<double>(*in_order.whole));
  };

  std::string wrote;
  if (options.count("out") != 0) {
    const auto out = options["out"].as<std::string>();
    map::write_mapping(out, winner.mapping, *topology, mapping_format,
                       {{"mapsim-version", std::string(version())},
                        {"source", trace.source()},
                        {"mapper", std::string(winner.mappers.front())},
                        {"advice", "mapsim advise"}});
    wrote = out;
  }

  const auto name_of = [](const Candidate& c) {
    std::string name(c.mappers.front());
    if (c.mappers.size() > 1) name += fmt::format(" (+{} alike)", c.mappers.size() - 1);
    return name;
  };
  const bool all_tie = std::all_of(candidates.begin(), candidates.end(),
                                   [&](const Candidate& c) { return c.comm == in_order.comm; });
  const std::string verdict =
      best == 0 && all_tie && candidates.size() > 1
          ? fmt::format("in-order: every mapping's communication replays in {}, as in-order's",
                        seconds_text(in_order.comm))
      : best == 0 ? fmt::format(
                        "in-order: no mapping shortens communication by more than {:.1f} % "
                        "(the best, {}, is {:.3f} of in-order)",
                        100 * kTie, candidates.size() > 1 ? name_of(candidates[1]) : "-",
                        candidates.size() > 1 ? comm_ratio(candidates[1]) : 1.0)
                  : fmt::format("{}: communication {} in-order ({} vs {}), whole run {} in-order{}",
                                winner.mappers.front(), percent_faster(comm_ratio(winner)),
                                seconds_text(winner.comm), seconds_text(in_order.comm),
                                percent_faster(whole_ratio(winner)),
                                models_agree ? "" : " (under flow; the models disagree: below)");
  std::string models_text =
      &challenger == &in_order
          ? std::string("no other mapping to compare")
          : fmt::format(
                "{}: {} / in-order = {:.3f} analytic, {:.3f} flow, {:.3f} packet (spread "
                "{:.3f}){}",
                models_agree ? "agree" : "DISAGREE", challenger.mappers.front(), checks[0].ratio,
                checks[1].ratio, checks[2].ratio, high->ratio - low->ratio,
                best == 0 ? "; no model sees it faster than in-order by 0.1 %"
                : models_agree && analytic_ties
                    ? "; the gain is in contention, which the analytic model leaves out"
                    : "");
  if (best == 0 && !models_agree) {
    models_text = fmt::format(
        "DISAGREE: {} / in-order = {:.3f} analytic, {:.3f} flow, {:.3f} "
        "packet (spread {:.3f}): another model sees a gain flow does not",
        challenger.mappers.front(), checks[0].ratio, checks[1].ratio, checks[2].ratio,
        high->ratio - low->ratio);
  }
  // What the network spends while the ranks communicate: the recommended mapping's, and the
  // most frugal mapping's if another.
  std::string energy_text =
      &winner == &in_order
          ? fmt::format("in-order spends {:.4g} J of network energy while communicating",
                        in_order.comm_energy)
          : fmt::format(
                "{} spends {:.3f} of in-order's network energy while communicating "
                "({:.4g} J vs {:.4g} J)",
                winner.mappers.front(), energy_ratio(winner), winner.comm_energy,
                in_order.comm_energy);
  energy_text += &frugal == &winner ? "; no mapping spends less"
                                    : fmt::format("; the most frugal is {} ({:.3f} of in-order's)",
                                                  name_of(frugal), energy_ratio(frugal));
  const std::string static_text =
      static_agrees ? fmt::format("hop-bytes would have chosen {} as well", name_of(*by_hop_bytes))
                    : fmt::format(
                          "hop-bytes would have chosen {} ({:.3f} of in-order's "
                          "hop-bytes), whose communication takes {:.3f} of in-order's",
                          name_of(*by_hop_bytes),
                          ratio(static_cast<double>(by_hop_bytes->hop_bytes),
                                static_cast<double>(in_order.hop_bytes)),
                          comm_ratio(*by_hop_bytes));

  if (format == ReportFormat::Json) {
    Record settings;
    settings.add("mapsim_version", version())
        .add("trace", trace.source())
        .add("ranks", trace.ranks())
        .add("topology", topology->spec())
        .add("matrix_counts", counted(matrix_settings))
        .add("collectives", traces::to_string(matrix_settings.algorithms))
        .add("overheads", sim::to_string(overheads, topology->sockets_per_node() > 1))
        .add("bw_factor", comm_only.model_options.bandwidth_factor.to_string())
        .add("lat_factor", comm_only.model_options.latency_factor.to_string())
        .add("reverse_traffic", comm_only.model_options.reverse_traffic)
        .add("weight_s_bytes", comm_only.model_options.weight_s)
        .add("envelope_bytes", comm_only.model_options.envelope)
        .add("link_overrides", fmt::format("{}", fmt::join(link_overrides, " ")));
    add_link_energy_settings(settings, energy_overrides, *topology, links);
    settings.add("seed", seed)
        .add("mappers", items.size())
        .add("refused", fmt::format("{}", fmt::join(refused, ",")))
        .add("failed_searches", fmt::format("{}", fmt::join(failed, ",")))
        .add("distinct_mappings", candidates.size())
        .add("recommended", std::string(winner.mappers.front()))
        .add("comm_vs_in_order", comm_ratio(winner))
        .add("whole_run_vs_in_order", whole_ratio(winner))
        .add("comm_share", comm_share)
        .add("mpi_time_share", mpi_share)
        .add("models_agree", models_agree ? "yes" : "no")
        .add("challenger", std::string(challenger.mappers.front()))
        .add("analytic_vs_in_order", checks[0].ratio)  // the challenger's
        .add("flow_vs_in_order", checks[1].ratio)
        .add("packet_vs_in_order", checks[2].ratio)
        .add("energy_vs_in_order", energy_ratio(winner))
        .add("frugal", std::string(frugal.mappers.front()))
        .add("frugal_energy_vs_in_order", energy_ratio(frugal))
        .add("static_choice", std::string(by_hop_bytes->mappers.front()))
        .add("static_agrees", static_agrees ? "yes" : "no")
        .add("comm_bound_ps", bound)
        .add("comm_vs_bound", ratio(static_cast<double>(winner.comm), static_cast<double>(bound)))
        .add("verdict", verdict)
        .add("mapping_file", wrote)
        .add("mapping_format", map::name(mapping_format));
    std::vector<Record> rows;
    for (const auto& c : candidates) {
      Record row;
      row.add("mapper", std::string(c.mappers.front()))
          .add("same_as", fmt::format("{}", fmt::join(c.mappers.begin() + 1, c.mappers.end(), ",")))
          .add("hop_bytes", c.hop_bytes)
          .add("hop_bytes_vs_in_order",
               ratio(static_cast<double>(c.hop_bytes), static_cast<double>(in_order.hop_bytes)))
          .add("comm_ps", c.comm)
          .add("comm_vs_in_order", comm_ratio(c))
          .add("comm_energy_j", c.comm_energy)
          .add("comm_energy_vs_in_order", energy_ratio(c));
      if (c.whole) {
        row.add("whole_run_ps", *c.whole).add("whole_run_vs_in_order", whole_ratio(c));
      } else {
        row.add_null("whole_run_ps").add_null("whole_run_vs_in_order");
      }
      rows.push_back(std::move(row));
    }
    print_report(stdout, format, settings, rows);
    return 0;
  }

  std::FILE* out = stdout;
  fmt::print(out, "trace          {} ({} ranks; matrix: {}{}, {} bytes)\n", trace.source(),
             trace.ranks(), counted(matrix_settings), under(matrix_settings), matrix.total().bytes);
  fmt::print(out, "machine        {} ({} {}nodes x {} cores)\n", topology->spec(),
             topology->usable_nodes(), topology->allocation().empty() ? "" : "allocated ",
             topology->cores_per_node());
  // What the replays charge beyond the links, when not the defaults (--overheads,
  // --calibration and the options they stand for).
  std::vector<std::string> charged;
  if (const auto text = sim::to_string(overheads, topology->sockets_per_node() > 1); text != "none")
    charged.push_back("overheads " + text);
  const auto& o = comm_only.model_options;
  const auto factors = [&](std::string_view name, const sim::SizeFactors& f) {
    if (f.identity()) return;
    const auto text = f.to_string();
    const auto steps = std::count(text.begin(), text.end(), ';') + 1;
    charged.push_back(steps > 2 ? fmt::format("{} of {} steps", name, steps)
                                : fmt::format("{} {}", name, text));
  };
  factors("bw-factor", o.bandwidth_factor);
  factors("lat-factor", o.latency_factor);
  if (o.reverse_traffic) charged.emplace_back("reverse traffic");
  if (o.weight_s != 0) charged.push_back(fmt::format("weight-S {} B", o.weight_s));
  if (o.envelope != 0) charged.push_back(fmt::format("envelope {} B", o.envelope));
  if (!link_overrides.empty())
    charged.push_back(fmt::format("links {}", fmt::join(link_overrides, " ")));
  if (!energy_overrides.empty())
    charged.push_back(fmt::format("link energy {}", fmt::join(energy_overrides, " ")));
  if (!charged.empty()) {
    fmt::print(out, "costs          {}{}\n",
               options.count("calibration") != 0
                   ? fmt::format("calibration {}: ", options["calibration"].as<std::string>())
                   : std::string(),
               fmt::join(charged, "; "));
  }
  fmt::print(out, "portfolio      {} mappers, {} distinct mappings{}{}\n", items.size(),
             candidates.size(),
             refused.empty() ? std::string()
                             : fmt::format("; refused the machine: {}", fmt::join(refused, ", ")),
             failed.empty() ? std::string()
                            : fmt::format("; could not search: {}", fmt::join(failed, ", ")));
  std::size_t width = 28;  // the mapping column: its longest name
  for (const auto& c : candidates) width = std::max(width, name_of(c).size());
  fmt::print(out, "\n{:<{}} {:>10} {:>22} {:>22} {:>8}\n", "mapping", width, "hop-bytes",
             "communication", "whole run", "energy");
  for (const auto& c : candidates) {
    fmt::print(out, "{:<{}} {:>10.3f} {:>10.3f} {:>11} {:>10} {:>11} {:>8.3f}\n", name_of(c), width,
               ratio(static_cast<double>(c.hop_bytes), static_cast<double>(in_order.hop_bytes)),
               comm_ratio(c), seconds_text(c.comm),
               c.whole ? fmt::format("{:.3f}", whole_ratio(c)) : std::string("-"),
               c.whole ? seconds_text(*c.whole) : std::string(), energy_ratio(c));
  }
  fmt::print(out,
             "(ratios to in-order; communication: replayed without the computation, flow model; "
             "whole run: with it, for the {} fastest and in-order; energy: the network's over the "
             "communication replay, links' power included)\n\n",
             whole_count - 1);
  fmt::print(out, "recommended    {}\n", verdict);
  fmt::print(out,
             "communication  {:.1f} % of the whole run under in-order (communication replayed "
             "alone / whole run; time in MPI, waiting included: {:.1f} %)\n",
             100 * comm_share, 100 * mpi_share);
  fmt::print(out,
             "headroom       no placement communicates faster than {} (the placement bound: no "
             "contention, every pair of ranks on the machine's cheapest channel); {} takes {:.3f} "
             "times as long: at most {:.1f} % left to gain\n",
             seconds_text(bound), winner.mappers.front(),
             ratio(static_cast<double>(winner.comm), static_cast<double>(bound)),
             winner.comm > 0
                 ? 100.0 * (1.0 - static_cast<double>(bound) / static_cast<double>(winner.comm))
                 : 0.0);
  fmt::print(out, "models         {}\n", models_text);
  fmt::print(out, "energy         {}\n", energy_text);
  fmt::print(out, "static metric  {}\n", static_text);
  if (!wrote.empty()) fmt::print(out, "wrote          {} ({})\n", wrote, map::name(mapping_format));
  return 0;
}

}  // namespace mapsim::cli
