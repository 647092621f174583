// `mapsim simulate`: replays a trace on a modelled machine under one mapping or several (one per
// mapper, replayed in parallel), and prints what the simulator measured as text, CSV or JSON;
// optionally writes per-link loads as CSV.
//
// Order of work: everything cheap is checked before the trace's events are read — the options
// and whether the model uses them, the mappers and every parameter of each, the machine and the
// link classes it has, the output paths, the rank count (from the archive's definitions) against
// the machine, and a mapping file against the machine it was made for.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include "cli/Cli.hpp"
#include "cli/Interrupt.hpp"
#include "cli/LinkOverrides.hpp"
#include "cli/MachineOptions.hpp"
#include "cli/MapperChoice.hpp"
#include "cli/MatrixChoice.hpp"
#include "cli/ReplayCosts.hpp"
#include "cli/Report.hpp"
#include "cli/TraceInput.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingFile.hpp"
#include "sim/Energy.hpp"
#include "sim/Network.hpp"
#include "sim/PlacementBound.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "support/Progress.hpp"
#include "support/Suggest.hpp"
#include "support/Version.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/Otf2Streams.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/WorkloadMatrix.hpp"
#include "traces/WorkloadStreams.hpp"
#include "traces/generators/GeneratorSpec.hpp"
#include "tuning/ReplayOracle.hpp"

namespace mapsim::cli {
namespace {

std::string seconds(sim::Time t) {
  const double s = sim::to_seconds(t);
  if (s >= 1) return fmt::format("{:.6f} s", s);
  if (s >= 1e-3) return fmt::format("{:.6f} ms", s * 1e3);
  return fmt::format("{:.3f} us", s * 1e6);
}

/// One replay: the placement and what came of it.
struct Replay {
  std::string placement;  ///< text report: "in-order", the file, "greedy (seed 3)"
  std::string mapping;    ///< "in-order", the mapping file, or the mapper's name
  std::string mapper;     ///< "" unless a mapper computed it
  std::string params;
  double map_seconds = 0;
  std::optional<sim::Result> result;
  sim::Energy energy;  ///< of the result's network (sim/Energy.hpp)
  std::string error;
};

void write_links_csv(std::ostream& out, const std::vector<Replay>& replays,
                     const topo::Topology& topology) {
  const bool several = replays.size() > 1;
  fmt::print(out, "{}link,from,to,class,bytes,busy_s,utilisation\n", several ? "mapping," : "");
  for (const auto& replay : replays) {
    if (!replay.result) continue;
    const auto& result = *replay.result;
    const auto lead = several ? replay.mapping + "," : std::string();
    for (std::size_t i = 0; i < result.resource_bytes.size(); ++i) {
      const auto id = static_cast<topo::LinkId>(i);
      if (id < result.link_count) {
        const auto link = topology.link(id);
        fmt::print(out, "{}{},{},{},{},{},{:.9g},{:.6g}\n", lead, id, link.from, link.to,
                   topo::name(link.link_class), result.resource_bytes[i],
                   sim::to_seconds(result.resource_busy[i]), result.resource_utilisation[i]);
      } else if (result.resource_bytes[i] > 0) {
        const auto channel = sim::node_channel(topology, id);
        fmt::print(out, "{}{},{},{},{},{},{:.9g},{:.6g}\n", lead, id, channel.node, channel.node,
                   topo::name(channel.link_class), result.resource_bytes[i],
                   sim::to_seconds(result.resource_busy[i]), result.resource_utilisation[i]);
      }
    }
  }
}

/// The network model's corrections that are not the identity (size factors, reverse traffic,
/// weight-S, the envelope; sim/SizeFactors.hpp, sim/NetworkModel.hpp), "" if none.
std::string corrections(const sim::ModelOptions& o) {
  std::vector<std::string> items;
  if (!o.bandwidth_factor.identity())
    items.push_back(fmt::format("bw-factor {}", o.bandwidth_factor.to_string()));
  if (!o.latency_factor.identity())
    items.push_back(fmt::format("lat-factor {}", o.latency_factor.to_string()));
  if (o.reverse_traffic) items.emplace_back("reverse traffic");
  if (o.weight_s != 0) items.push_back(fmt::format("weight-S {:g} B", o.weight_s));
  if (o.envelope != 0) items.push_back(fmt::format("envelope {} B", o.envelope));
  return fmt::format("{}", fmt::join(items, "; "));
}

/// The critical path's parts as shares of the makespan: "compute 10.0 %, latency ..."; the MPI
/// overheads only where the replay charges them.
std::string path_shares(const sim::CriticalPath& p, bool overheads) {
  const double total = static_cast<double>(std::max<sim::Time>(p.total(), 1));
  const auto share = [&](sim::Time t) { return 100 * static_cast<double>(t) / total; };
  return fmt::format(
      "compute {:.1f} %, {}latency {:.1f} %, bandwidth {:.1f} %, contention {:.1f} %, waiting "
      "{:.1f} %",
      share(p.compute), overheads ? fmt::format("overheads {:.1f} %, ", share(p.overhead)) : "",
      share(p.latency), share(p.bandwidth), share(p.contention), share(p.waiting));
}

void print_result(std::FILE* out, const sim::Result& r, const sim::Energy& energy,
                  const TraceInput& trace, const topo::Topology& topology,
                  const std::string& placement, const std::string& overheads,
                  const sim::ModelOptions& options) {
  fmt::print(out, "trace            {} ({} ranks, {} events; read: {})\n", trace.source(),
             trace.ranks(), r.trace_events, trace.reading());
  fmt::print(out, "topology         {}\n", topology.spec());
  fmt::print(out, "mapping          {}\n", placement);
  fmt::print(out, "model            {}\n", r.model);
  if (overheads != "none") fmt::print(out, "overheads        {}\n", overheads);
  if (const auto text = corrections(options); !text.empty())
    fmt::print(out, "corrections      {}\n", text);
  fmt::print(out, "makespan         {}\n", seconds(r.makespan));
  fmt::print(out, "time in MPI      max {}, mean {}\n", seconds(r.mpi_time_max),
             seconds(static_cast<sim::Time>(r.mpi_time_mean)));
  fmt::print(out, "link utilisation max {:.3f} %, mean {:.3f} % over {} used of {} links\n",
             100 * r.max_link_utilisation, 100 * r.mean_link_utilisation, r.links_used,
             r.link_count);
  fmt::print(out, "messages         {} point-to-point ({} bytes), {} unmatched, {} cancelled\n",
             r.messages, r.message_bytes, r.unmatched_messages, r.cancelled);
  fmt::print(out, "collectives      {} calls, {} messages ({} bytes)\n", r.collectives,
             r.collective_messages, r.collective_bytes);
  fmt::print(out, "latency          mean {}, p50 {}, p90 {}, p99 {}, max {} over {} transfers\n",
             seconds(static_cast<sim::Time>(r.latency.mean())), seconds(r.latency.percentile(0.5)),
             seconds(r.latency.percentile(0.9)), seconds(r.latency.percentile(0.99)),
             seconds(r.latency.max()), r.latency.count());
  fmt::print(out,
             "slowdown         mean {:.4f}, aggregate {:.4f} (latency / contention-free time)\n",
             r.latency.mean_slowdown(), r.latency.aggregate_slowdown());
  fmt::print(out, "critical path    {}; {} transfers\n",
             path_shares(r.critical_path, overheads != "none"), r.critical_path.messages);
  fmt::print(out,
             "energy           {:.6g} J: traffic {:.6g} J, links' power {:.6g} J; average "
             "{:.6g} W\n",
             energy.joules(), energy.dynamic_joules, energy.static_joules, energy.watts());
  const double wall = std::max(r.wall_seconds, 1e-9);
  fmt::print(out,
             "events           {} trace, {} engine in {:.6f} s: {:.2f} M trace events/s, "
             "{:.2f} M engine events/s\n",
             r.trace_events, r.engine_events, r.wall_seconds,
             static_cast<double>(r.trace_events) / wall / 1e6,
             static_cast<double>(r.engine_events) / wall / 1e6);
}

void print_table(std::FILE* out, const std::vector<Replay>& replays, const TraceInput& trace,
                 const topo::Topology& topology, const sim::SimConfig& config,
                 std::optional<sim::Time> bound) {
  std::uint64_t events = 0;
  for (const auto& r : replays) {
    if (r.result) events = r.result->trace_events;
  }
  fmt::print(out, "trace            {} ({} ranks, {} events; read: {})\n", trace.source(),
             trace.ranks(), events, trace.reading());
  fmt::print(out, "topology         {}\n", topology.spec());
  fmt::print(out, "model            {}\n", config.model);
  if (const auto text = corrections(config.model_options); !text.empty())
    fmt::print(out, "corrections      {}\n", text);
  fmt::print(out, "\n");
  std::optional<sim::Time> baseline;
  for (const auto& r : replays) {
    if (r.mapping == "in-order" && r.result) baseline = r.result->makespan;
  }
  std::size_t width = 12;  // the mapper column: its longest name
  for (const auto& replay : replays) width = std::max(width, replay.mapping.size());
  // With --bound, each makespan's ratio to the placement bound as well.
  const auto vs_bound = [&](sim::Time makespan) {
    if (!bound) return std::string();
    return *bound > 0 ? fmt::format(" {:>8.3f}",
                                    static_cast<double>(makespan) / static_cast<double>(*bound))
                      : fmt::format(" {:>8}", "-");
  };
  fmt::print(out, "{:<{}} {:>14} {:>11}{} {:>14} {:>10} {:>14} {:>9} {:>10} {:>12}\n", "mapper",
             width, "makespan", "vs in-order", bound ? fmt::format(" {:>8}", "vs bound") : "",
             "MPI max", "link max", "latency mean", "slowdown", "replay [s]", "energy [J]");
  for (const auto& replay : replays) {
    if (!replay.result) {
      fmt::print(out, "{:<{}} error: {}\n", replay.mapping, width, replay.error);
      continue;
    }
    const auto& r = *replay.result;
    const std::string ratio = baseline && *baseline > 0
                                  ? fmt::format("{:.3f}", static_cast<double>(r.makespan) /
                                                              static_cast<double>(*baseline))
                                  : "-";
    fmt::print(out, "{:<{}} {:>14} {:>11}{} {:>14} {:>9.3f}% {:>14} {:>9.4f} {:>10.3f} {:>12.6g}\n",
               replay.mapping, width, seconds(r.makespan), ratio, vs_bound(r.makespan),
               seconds(r.mpi_time_max), 100 * r.max_link_utilisation,
               seconds(static_cast<sim::Time>(r.latency.mean())), r.latency.mean_slowdown(),
               r.wall_seconds, replay.energy.joules());
  }
  // Only when some replay has one (every row may have failed).
  if (std::none_of(replays.begin(), replays.end(), [](const Replay& r) { return r.result; }))
    return;
  fmt::print(out, "\ncritical path (shares of each makespan; Result.hpp, CriticalPath):\n");
  for (const auto& replay : replays) {
    if (replay.result)
      fmt::print(out, "{:<{}} {}\n", replay.mapping, width,
                 path_shares(replay.result->critical_path,
                             !config.overheads.none(topology.sockets_per_node() > 1)));
  }
}

/// The placement bound below the report: its makespan, what it assumes, and how far the fastest
/// mapping replayed is above it.
void print_bound(std::FILE* out, const sim::Result& bound, const sim::IdealMachine& ideal,
                 const std::vector<Replay>& replays, const topo::Topology& topology,
                 const sim::SimConfig& config) {
  const Replay* fastest = nullptr;
  for (const auto& r : replays) {
    if (r.result && (fastest == nullptr || r.result->makespan < fastest->result->makespan))
      fastest = &r;
  }
  if (replays.size() > 1) fmt::print(out, "\n");
  fmt::print(
      out,
      "bound            {}: no mapping replays faster under {} (no contention; every pair "
      "of ranks on the machine's cheapest channel, {:g} ns and {:g} GB/s{})\n",
      seconds(bound.makespan), config.model, static_cast<double>(ideal.latency) / 1e3,
      ideal.bandwidth / 1e9,
      config.overheads.none(topology.sockets_per_node() > 1) ? "" : ", with the least overheads");
  if (fastest == nullptr || fastest->result->makespan <= 0) return;
  const double makespan = static_cast<double>(fastest->result->makespan);
  fmt::print(out,
             "                 {} {:.3f} x the bound: no placement is more than {:.1f} % faster\n",
             replays.size() == 1 ? "this mapping is"
                                 : fmt::format("{} (the fastest) is", fastest->mapping),
             makespan / static_cast<double>(bound.makespan),
             100.0 * (1.0 - static_cast<double>(bound.makespan) / makespan));
}

Record settings_record(const TraceInput& trace, const topo::Topology& topology,
                       const sim::SimConfig& config, const std::vector<std::string>& overrides,
                       const std::vector<std::string>& energy_overrides,
                       std::optional<map::Seed> seed) {
  Record s;
  const bool packet = config.model == "packet";
  s.add("mapsim_version", version())
      .add("trace", trace.source())
      .add("ranks", trace.ranks())
      .add("read", trace.reading())
      .add("topology", topology.spec())
      .add("nodes", topology.node_count())
      .add("cores", topology.cores_per_node())
      .add("model", config.model)
      .add("compute_scale", config.compute_scale)
      .add("eager_threshold_bytes", config.eager_threshold)
      .add("collectives", traces::to_string(config.collectives))
      .add("overheads", sim::to_string(config.overheads, topology.sockets_per_node() > 1))
      .add("bw_factor", config.model_options.bandwidth_factor.to_string())
      .add("lat_factor", config.model_options.latency_factor.to_string())
      .add("reverse_traffic", config.model_options.reverse_traffic)
      .add("weight_s_bytes", config.model_options.weight_s)
      .add("envelope_bytes", config.model_options.envelope)
      .add("whole_run", !config.init_to_finalize);
  if (packet) {
    s.add("packet_size_bytes", config.model_options.packet_bytes)
        .add("cut_through", config.model_options.cut_through);
  } else {
    s.add_null("packet_size_bytes").add_null("cut_through");
  }
  s.add("link_overrides", fmt::format("{}", fmt::join(overrides, " ")));
  const auto has = topology.has_link_classes();
  for (const auto& info : topo::link_classes()) {
    if (!has[static_cast<std::size_t>(info.id)]) continue;
    const auto& link = config.links[info.id];
    const auto key = std::string(info.name);
    s.add(fmt::format("link_{}_bandwidth_bytes_per_s", key), link.bandwidth)
        .add(fmt::format("link_{}_latency_s", key), link.latency);
  }
  add_link_energy_settings(s, energy_overrides, topology, config.links);
  if (seed) {
    s.add("seed", *seed);
  } else {
    s.add_null("seed");
  }
  return s;
}

Record replay_record(const Replay& replay) {
  Record row;
  row.add("mapping", replay.mapping).add("mapper", replay.mapper).add("params", replay.params);
  if (!replay.result) {
    row.add("error", replay.error);
    return row;
  }
  const auto& r = *replay.result;
  if (replay.mapper.empty()) {
    row.add_null("map_seconds");
  } else {
    row.add("map_seconds", replay.map_seconds);
  }
  row.add("makespan_ps", r.makespan)
      .add("mpi_time_max_ps", r.mpi_time_max)
      .add("mpi_time_mean_ps", r.mpi_time_mean)
      .add("link_utilisation_max", r.max_link_utilisation)
      .add("link_utilisation_mean", r.mean_link_utilisation)
      .add("links_used", r.links_used)
      .add("link_count", r.link_count)
      .add("messages", r.messages)
      .add("message_bytes", r.message_bytes)
      .add("unmatched_messages", r.unmatched_messages)
      .add("cancelled_requests", r.cancelled)
      .add("collective_calls", r.collectives)
      .add("collective_messages", r.collective_messages)
      .add("collective_bytes", r.collective_bytes)
      .add("latency_count", r.latency.count())
      .add("latency_mean_ps", r.latency.mean())
      .add("latency_p50_ps", r.latency.percentile(0.5))
      .add("latency_p90_ps", r.latency.percentile(0.9))
      .add("latency_p99_ps", r.latency.percentile(0.99))
      .add("latency_max_ps", r.latency.max())
      .add("slowdown_mean", r.latency.mean_slowdown())
      .add("slowdown_aggregate", r.latency.aggregate_slowdown())
      .add("critical_compute_ps", r.critical_path.compute)
      .add("critical_overhead_ps", r.critical_path.overhead)
      .add("critical_latency_ps", r.critical_path.latency)
      .add("critical_bandwidth_ps", r.critical_path.bandwidth)
      .add("critical_contention_ps", r.critical_path.contention)
      .add("critical_waiting_ps", r.critical_path.waiting)
      .add("critical_transfers", r.critical_path.messages)
      .add("trace_events", r.trace_events)
      .add("engine_events", r.engine_events)
      .add("sim_seconds", r.wall_seconds)
      .add("energy_j", replay.energy.joules())
      .add("energy_dynamic_j", replay.energy.dynamic_joules)
      .add("energy_static_j", replay.energy.static_joules)
      .add("power_w", replay.energy.watts())
      .add("error", "");
  return row;
}

// Several mappings: one that fails leaves its row with the reason and a warning; the command
// fails only when none replayed, so a script never takes an all-error table for a result.
int exit_status(const std::vector<Replay>& replays) {
  if (std::any_of(replays.begin(), replays.end(), [](const auto& r) { return r.error.empty(); }))
    return 0;
  log::write(log::Level::Error, "every mapping failed (see the warnings above)");
  return 1;
}

}  // namespace

int run_simulate(const std::vector<std::string>& args) {
  const sim::SimConfig defaults;
  CommandLine line(
      "simulate",
      "--trace T --topology SPEC [--mapping FILE | --mapper NAME[,NAME...]|all] [OPTIONS]",
      "Replays an OTF2 trace or a generated workload on a modelled machine with rank r on the\n"
      "node the mapping gives\n"
      "(default: in order, rank r on node r / cores) and prints the makespan, time in MPI, link\n"
      "utilisation, message latencies and the simulator's speed. With several mappers the\n"
      "trace is read once and the replays run in parallel, one row per mapper, in the order\n"
      "given. '--format csv|json' prints every effective setting and one record per replay,\n"
      "times in picoseconds (_ps) or seconds (_s). 'mapsim list models' lists the network\n"
      "models.");
  line.options.add_options()(
      "trace", po::value<std::string>()->required(),
      "OTF2 trace (anchor file or directory), or a generator spec such as npb:lu:D:4096 "
      "('mapsim generate --help')")(
      "read", po::value<std::string>()->default_value("auto"),
      "how the events reach the replays: memory (an archive read once, a generator spec "
      "generated once; shared), stream (per replay, an archive read in windows per rank, a "
      "spec generated as it is replayed: memory independent of the trace's length), auto "
      "(memory up to 256 MiB of event files; a spec in memory when several replays share it "
      "and it has at most 2 Mi messages; else stream)")(
      "topology", po::value<std::string>()->required(), "machine spec, e.g. torus:4x4x4")(
      "mapping", po::value<std::string>(),
      "mapping file in any format 'mapsim map' writes (plain 'rank node' lines, an Open MPI "
      "rankfile, a host list, a SLURM_HOSTFILE, an MPICH_RANK_ORDER), read by its content")(
      "mapper", po::value<std::string>(),
      "compute the mapping with this mapper (a comma list, or 'all'; an item may carry "
      "parameters, NAME:key=value[:key=value...]) from the trace's matrix, collectives "
      "included unless --p2p-only ('mapsim list mappers'); a mapper that replays to choose "
      "(replay-search) searches under --model and --compute-scale unless given its own "
      "model= and compute-scale=")(
      "seed", po::value<std::string>()->default_value("0"),
      "random seed of the mappers and of per-message routes (routing=ecmp, valiant, ugal)")(
      "param", po::value<std::vector<std::string>>()->composing(),
      "mapper parameter key=value (MAPPER.key=value with several mappers); repeatable")(
      "model", po::value<std::string>()->default_value(defaults.model),
      "network model: analytic, flow or packet")(
      "compute-scale", po::value<std::string>(),
      fmt::format("factor on recorded compute gaps, 0 = communication only (default {})",
                  defaults.compute_scale)
          .c_str())("eager-threshold", po::value<std::string>(),
                    fmt::format("largest eager message in bytes; larger ones use rendezvous "
                                "(default {})",
                                defaults.eager_threshold)
                        .c_str())("packet-size", po::value<std::string>(),
                                  fmt::format("packet model: bytes per packet (default {})",
                                              defaults.model_options.packet_bytes)
                                      .c_str())(
      "store-and-forward", "packet model: store-and-forward instead of cut-through")(
      "whole-run", "also replay the computation before MPI_Init and after MPI_Finalize")(
      "time-limit", po::value<std::string>(),
      "seconds of wall time a replay may take before it stops with an error (default: none; "
      "as `mapsim run --time-limit`)")(
      "link", po::value<std::vector<std::string>>()->composing(),
      "override a link class the machine has: CLASS:GBPS:NS, e.g. grid:25:100 (repeatable; "
      "'mapsim list link-classes')")(
      "link-energy", po::value<std::vector<std::string>>()->composing(),
      "a link class's energy: CLASS:PJ_PER_BIT:IDLE_W:BUSY_W, e.g. grid:5:3:4 (repeatable; "
      "the defaults and the model in docs/models.md, \"Energy\")")(
      "links", po::value<std::string>(),
      "write per-link bytes, busy time and utilisation to this CSV file ('-': standard output)")(
      "critical-messages", po::value<std::string>(),
      "write the messages on the critical path, per pair of ranks, as a CSV matrix "
      "(src,dst,messages,bytes; '-': standard output): the weights of `best`'s objective=latency "
      "along the path (one mapping only)")(
      "bound",
      "also replay the placement bound: a makespan no mapping of these ranks on this machine "
      "can beat under this model (analytic or flow): no contention, every pair of ranks on "
      "the machine's cheapest channel (sim/PlacementBound.hpp)")(
      "format", po::value<std::string>()->default_value("text"),
      "report format: text, csv or json");
  add_matrix_options(line.options);
  add_replay_cost_options(line.options);
  add_machine_options(line.options);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;

  if (options.count("mapping") != 0 && options.count("mapper") != 0)
    throw po::error("give --mapping or --mapper, not both");
  if (options.count("param") != 0 && options.count("mapper") == 0)
    throw po::error("--param needs --mapper");
  if (options.count("p2p-only") != 0 && options.count("mapper") == 0)
    throw po::error("--p2p-only needs --mapper: it chooses what the mappers' matrix counts");
  const auto format = report_format_from_name(options["format"].as<std::string>(), "--format");

  // The mappers and all their parameters first: a bad name or parameter fails before anything
  // is read.
  std::vector<ChosenMapper> chosen;
  std::optional<map::Seed> seed;
  if (options.count("mapper") != 0) {
    const auto list = options["mapper"].as<std::string>();
    const auto given = options.count("param") != 0 ? options["param"].as<std::vector<std::string>>()
                                                   : std::vector<std::string>{};
    chosen = with_params(choose_mapper_items(list, "--mapper"), given, list);
    seed = static_cast<map::Seed>(
        parse_integer(options["seed"].as<std::string>(), "--seed", 0, INT64_MAX));
  }

  sim::SimConfig config;
  config.seed = static_cast<std::uint64_t>(
      parse_integer(options["seed"].as<std::string>(), "--seed", 0, INT64_MAX));
  config.model = options["model"].as<std::string>();
  config.collectives = collective_options(options);

  const auto models = sim::network_models();
  if (std::none_of(models.begin(), models.end(),
                   [&](const auto& m) { return m.name == config.model; })) {
    std::vector<std::string_view> names;
    for (const auto& m : models) names.push_back(m.name);
    throw InputError(fmt::format("--model: unknown network model '{}'; valid models: {}{}",
                                 config.model, fmt::join(names, ", "),
                                 suggest_suffix(config.model, names)));
  }
  // Options of the packet model are errors with another: they would change nothing.
  if (config.model != "packet") {
    for (const char* option : {"packet-size", "store-and-forward"}) {
      if (options.count(option) != 0) {
        throw po::error(
            fmt::format("--{} applies to the packet model only; the {} model would ignore it",
                        option, config.model));
      }
    }
  }
  if (options.count("time-limit") != 0) {
    config.stop.wall_seconds =
        parse_real(options["time-limit"].as<std::string>(), "--time-limit", 0, 1e9);
  }
  if (options.count("compute-scale") != 0)
    config.compute_scale =
        parse_real(options["compute-scale"].as<std::string>(), "--compute-scale");
  if (options.count("eager-threshold") != 0)
    config.eager_threshold = parse_integer(options["eager-threshold"].as<std::string>(),
                                           "--eager-threshold", 0, INT64_MAX);
  if (options.count("packet-size") != 0)
    config.model_options.packet_bytes =
        parse_integer(options["packet-size"].as<std::string>(), "--packet-size", 1, 1 << 30);
  config.model_options.cut_through = options.count("store-and-forward") == 0;
  check_replay_costs(options, config.model);
  const auto costs = replay_costs(options);
  config.overheads = costs.overheads;
  sim::apply(costs, config.model, config.model_options);
  config.init_to_finalize = options.count("whole-run") == 0;

  const auto topology = make_machine(options, options["topology"].as<std::string>(), "--topology");
  const auto overrides = options.count("link") != 0 ? options["link"].as<std::vector<std::string>>()
                                                    : std::vector<std::string>{};
  config.links = apply_link_overrides(overrides, *topology);
  const auto energy_overrides = options.count("link-energy") != 0
                                    ? options["link-energy"].as<std::vector<std::string>>()
                                    : std::vector<std::string>{};
  config.links = apply_link_energy(energy_overrides, *topology, config.links);
  sim::validate(config);
  // A mapper that replays to choose (replay-search) and was not given its model or compute scale
  // searches under this command's, so that its row is never slower than its portfolio's members
  // under the replay the table shows.
  inherit_replay_settings(chosen,
                          {config.model, config.compute_scale, "--model", "--compute-scale"});
  if (options.count("links") != 0) prepare_output(options["links"].as<std::string>(), "--links");
  const bool critical = options.count("critical-messages") != 0;
  if (critical) {
    prepare_output(options["critical-messages"].as<std::string>(), "--critical-messages");
    if (options.count("links") != 0 && options["links"].as<std::string>() == "-" &&
        options["critical-messages"].as<std::string>() == "-")
      throw po::error("--links and --critical-messages cannot both write to standard output");
  }

  // The rank count from the archive's definitions (or the generator), then the mapping file,
  // then the events.
  TraceInput trace(options["trace"].as<std::string>(),
                   read_mode_from_name(options["read"].as<std::string>()));
  const auto ranks = trace.ranks();
  const std::int64_t capacity =
      static_cast<std::int64_t>(topology->usable_nodes()) * topology->cores_per_node();
  if (ranks > capacity) {
    throw InputError(
        fmt::format("{} ranks do not fit on {} ({} {}nodes x {} cores); {} has {} "
                    "ranks",
                    ranks, topology->spec(), topology->usable_nodes(),
                    topology->allocation().empty() ? "" : "allocated ", topology->cores_per_node(),
                    options["trace"].as<std::string>(), ranks));
  }
  // The placement bound's machine, before any replay: the model may not have one.
  std::optional<sim::IdealMachine> ideal;
  if (options.count("bound") != 0) {
    try {
      ideal = sim::ideal_machine(*topology, ranks, config);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--bound: {}", e.what()));
    }
  }
  std::vector<Replay> replays;
  std::vector<topo::Mapping> mappings;
  if (options.count("mapping") != 0) {
    Replay replay;
    replay.mapping = replay.placement = options["mapping"].as<std::string>();
    mappings.push_back(map::read_mapping(replay.mapping, *topology, ranks));
    replays.push_back(std::move(replay));
  } else if (chosen.empty()) {
    Replay replay;
    replay.mapping = replay.placement = "in-order";
    mappings.push_back(topo::in_order_mapping(ranks, *topology));
    replays.push_back(std::move(replay));
  }
  // A generated workload is generated once and held when several replays read it.
  const bool shared = chosen.size() > 1 || ideal.has_value() ||
                      std::any_of(chosen.begin(), chosen.end(), [](const ChosenMapper& c) {
                        return map::make_mapper(c.name, c.params)->needs_oracle();
                      });
  const auto matrix_settings = matrix_options(options);
  trace.load(shared, matrix_settings);

  // Ctrl-C (or SIGTERM) stops the replays, a replaying mapper's too, as a time limit would, and
  // the command says so; a second signal kills at once.
  const InterruptGuard guard;
  config.stop.cancel = &interrupted();
  log::debug("replaying; Ctrl-C stops");
  const auto stopped = [] {
    fmt::print(stderr, "mapsim simulate: interrupted: no result\n");
    return 130;
  };
  try {
    if (!chosen.empty()) {
      const auto matrix = trace.matrix(matrix_settings);
      replays.resize(chosen.size());
      mappings.resize(chosen.size());
      for (std::size_t k = 0; k < chosen.size(); ++k) {
        replays[k].mapping = chosen[k].label;
        replays[k].mapper = chosen[k].name;
        replays[k].params = chosen[k].described;
        replays[k].placement = fmt::format("{} (seed {})", chosen[k].label, *seed);
      }
      // A mapper that replays (replay-search) judges mappings with this command's replay
      // settings; its model and compute scale are its parameters, filled in from --model and
      // --compute-scale where not given (above; its report says so).
      const tuning::ReplayOracle oracle(
          *topology, config,
          [&](const topo::Mapping& mapping, const sim::SimConfig& c, const map::Slice& slice) {
            return trace.simulate(*topology, mapping, c, slice);
          },
          [&](const map::Slice& slice) { trace.check_slice(slice); });
      if (critical && chosen.size() != 1)
        throw po::error("--critical-messages takes one mapping, not several mappers");
      // The final replay keeps its critical path's messages (the oracle's replays decide
      // themselves).
      config.critical_messages = critical;
      const auto map_one = [&](std::size_t k) {
        const auto mapper = map::make_mapper(chosen[k].name, chosen[k].params);
        const auto start = std::chrono::steady_clock::now();
        const NotedOracle noted(oracle, chosen[k].inherited);
        mappings[k] = mapper->map(matrix, *topology, *seed, &noted, config.links);
        replays[k].map_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        replays[k].result = trace.simulate(*topology, mappings[k], config);
        replays[k].energy = sim::replay_energy(*replays[k].result, *topology, config.links);
      };
      if (chosen.size() == 1) {
        map_one(0);
      } else {
        Progress progress("simulating", chosen.size(), "mappings");  // silences each replay's
        tbb::parallel_for(std::size_t{0}, chosen.size(), [&](std::size_t k) {
          const struct Done {
            Progress& progress;
            ~Done() { progress.advance(); }
          } done{progress};
          try {
            map_one(k);
          } catch (const InputError& e) {  // this row says why; the others stand
            replays[k].error = e.what();
            replays[k].result.reset();
          } catch (const Cancelled& e) {  // the time limit: likewise
            replays[k].error = e.what();
            replays[k].result.reset();
          }
        });
        for (const auto& r : replays) {
          if (!r.error.empty() && !interrupted().load())
            log::warning("mapper '{}': {}", r.mapping, r.error);
        }
      }
      if (const auto text = oracle.reported(); !text.empty()) log::info("{}", trim(text));
    } else {
      config.critical_messages = critical;
      replays[0].result = trace.simulate(*topology, mappings[0], config);
      replays[0].energy = sim::replay_energy(*replays[0].result, *topology, config.links);
    }
  } catch (const Cancelled&) {
    if (!interrupted().load()) throw;  // the time limit: its error as before
    return stopped();
  }
  if (interrupted().load()) return stopped();  // several mappings: each stopped in its row

  // With the link loads on standard output, the report goes to standard error.
  const auto to_stdout = [&](const char* option) {
    return options.count(option) != 0 && options[option].as<std::string>() == "-";
  };
  std::FILE* report = to_stdout("links") || to_stdout("critical-messages") ? stderr : stdout;
  if (critical && replays[0].result) {
    traces::CommMatrixBuilder pairs(trace.ranks());
    for (const auto& m : replays[0].result->critical_messages)
      pairs.add(m.src, m.dst, 1, static_cast<std::uint64_t>(m.bytes));
    write_output(options["critical-messages"].as<std::string>(), "--critical-messages",
                 [&](std::ostream& out) { traces::write_matrix_csv(pairs.build(), out); });
  }
  if (options.count("links") != 0) {
    write_output(options["links"].as<std::string>(), "--links",
                 [&](std::ostream& out) { write_links_csv(out, replays, *topology); });
  }

  // The bound: the same replay on the ideal machine of these ranks.
  std::optional<sim::Result> bound;
  if (ideal) {
    ideal->config.stop.cancel = &interrupted();
    try {
      bound = trace.simulate(*ideal->topology, ideal->mapping, ideal->config);
    } catch (const Cancelled&) {
      if (!interrupted().load()) throw;
      return stopped();
    }
  }

  if (format != ReportFormat::Text) {
    auto settings = settings_record(trace, *topology, config, overrides, energy_overrides, seed);
    if (bound) {
      settings.add("placement_bound_ps", bound->makespan);
    } else {
      settings.add_null("placement_bound_ps");
    }
    std::vector<Record> rows;
    for (const auto& r : replays) rows.push_back(replay_record(r));
    print_report(report, format, settings, rows);
    return exit_status(replays);
  }
  if (replays.size() == 1) {
    print_result(
        report, *replays[0].result, replays[0].energy, trace, *topology, replays[0].placement,
        sim::to_string(config.overheads, topology->sockets_per_node() > 1), config.model_options);
  } else {
    print_table(report, replays, trace, *topology, config,
                bound ? std::optional<sim::Time>(bound->makespan) : std::nullopt);
  }
  if (bound) print_bound(report, *bound, *ideal, replays, *topology, config);
  return exit_status(replays);
}

}  // namespace mapsim::cli
