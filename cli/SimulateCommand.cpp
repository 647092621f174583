// `mapsim simulate`: replays a trace on a modelled machine under a mapping and prints what the
// simulator measured; optionally writes per-link loads as CSV.

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingFile.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::cli {
namespace {

// --link CLASS:GBPS:NS, e.g. grid:25:100.
topo::LinkTable apply_link_overrides(const std::vector<std::string>& overrides) {
  topo::LinkTable table;
  for (const auto& text : overrides) {
    const auto first = text.find(':');
    const auto second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos) {
      throw InputError(fmt::format("--link '{}': expected CLASS:GBPS:NS, e.g. grid:25:100", text));
    }
    const auto link_class = topo::link_class_from_name(text.substr(0, first));
    const auto what = fmt::format("--link '{}'", text);
    const double gbps = parse_real(text.substr(first + 1, second - first - 1), what + " bandwidth");
    const double ns = parse_real(text.substr(second + 1), what + " latency");
    try {
      table = table.with(link_class, {gbps * 1e9, ns * 1e-9});
    } catch (const InputError& e) {
      throw e.within(what);
    }
  }
  return table;
}

std::string seconds(sim::Time t) {
  const double s = sim::to_seconds(t);
  if (s >= 1) return fmt::format("{:.6f} s", s);
  if (s >= 1e-3) return fmt::format("{:.6f} ms", s * 1e3);
  return fmt::format("{:.3f} us", s * 1e6);
}

void write_links_csv(const std::string& path, const sim::Result& result,
                     const topo::Topology& topology) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) throw InputError(fmt::format("cannot write --links file '{}'", path));
  fmt::print(out, "link,from,to,class,bytes,busy_s,utilisation\n");
  for (std::size_t i = 0; i < result.resource_bytes.size(); ++i) {
    const auto id = static_cast<topo::LinkId>(i);
    if (id < result.link_count) {
      const auto link = topology.link(id);
      fmt::print(out, "{},{},{},{},{},{:.9g},{:.6g}\n", id, link.from, link.to,
                 topo::name(link.link_class), result.resource_bytes[i],
                 sim::to_seconds(result.resource_busy[i]), result.resource_utilisation[i]);
    } else if (result.resource_bytes[i] > 0) {
      const auto node = id - result.link_count;
      fmt::print(out, "{},{},{},{},{},{:.9g},{:.6g}\n", id, node, node,
                 topo::name(topo::LinkClass::IntraNode), result.resource_bytes[i],
                 sim::to_seconds(result.resource_busy[i]), result.resource_utilisation[i]);
    }
  }
  const bool failed = std::ferror(out) != 0;
  if (std::fclose(out) != 0 || failed)
    throw InputError(fmt::format("cannot write --links file '{}'", path));
}

void print_result(const sim::Result& r, const traces::Trace& trace, const topo::Topology& topology,
                  const std::string& placement) {
  fmt::print("trace            {} ({} ranks, {} events)\n", trace.source, trace.rank_count(),
             trace.event_count());
  fmt::print("topology         {}\n", topology.spec());
  fmt::print("mapping          {}\n", placement);
  fmt::print("model            {}\n", r.model);
  fmt::print("makespan         {}\n", seconds(r.makespan));
  fmt::print("time in MPI      max {}, mean {}\n", seconds(r.mpi_time_max),
             seconds(static_cast<sim::Time>(r.mpi_time_mean)));
  fmt::print("link utilisation max {:.3f} %, mean {:.3f} % over {} used of {} links\n",
             100 * r.max_link_utilisation, 100 * r.mean_link_utilisation, r.links_used,
             r.link_count);
  fmt::print("messages         {} point-to-point ({} bytes), {} unmatched, {} cancelled\n",
             r.messages, r.message_bytes, r.unmatched_messages, r.cancelled);
  fmt::print("collectives      {} calls, {} messages ({} bytes)\n", r.collectives,
             r.collective_messages, r.collective_bytes);
  fmt::print("latency          mean {}, p50 {}, p90 {}, p99 {}, max {} over {} transfers\n",
             seconds(static_cast<sim::Time>(r.latency.mean())), seconds(r.latency.percentile(0.5)),
             seconds(r.latency.percentile(0.9)), seconds(r.latency.percentile(0.99)),
             seconds(r.latency.max()), r.latency.count());
  fmt::print("slowdown         mean {:.4f}, aggregate {:.4f} (latency / contention-free time)\n",
             r.latency.mean_slowdown(), r.latency.aggregate_slowdown());
  const double wall = std::max(r.wall_seconds, 1e-9);
  fmt::print(
      "events           {} trace, {} engine in {:.6f} s: {:.2f} M trace events/s, "
      "{:.2f} M engine events/s\n",
      r.trace_events, r.engine_events, r.wall_seconds,
      static_cast<double>(r.trace_events) / wall / 1e6,
      static_cast<double>(r.engine_events) / wall / 1e6);
}

}  // namespace

int run_simulate(const std::vector<std::string>& args) {
  const sim::SimConfig defaults;
  CommandLine line(
      "simulate", "--trace T --topology SPEC [--mapping FILE | --mapper NAME] [OPTIONS]",
      "Replays an OTF2 trace on a modelled machine with rank r on the node the mapping gives\n"
      "(default: in order, rank r on node r / cores) and prints the makespan, time in MPI, link\n"
      "utilisation, message latencies and the simulator's speed. 'mapsim list models' lists\n"
      "the network models.");
  line.options.add_options()("trace", po::value<std::string>()->required(),
                             "OTF2 trace (anchor file or directory)")(
      "topology", po::value<std::string>()->required(), "machine spec, e.g. torus:4x4x4")(
      "mapping", po::value<std::string>(), "mapping file: 'rank node' per line, '#' comments")(
      "mapper", po::value<std::string>(),
      "compute the mapping with this mapper from the trace's point-to-point matrix ('mapsim "
      "list mappers')")("seed", po::value<std::string>()->default_value("0"),
                        "random seed of the mapper")(
      "param", po::value<std::vector<std::string>>()->composing(),
      "mapper parameter key=value; repeatable")(
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
      "link", po::value<std::vector<std::string>>()->composing(),
      "override a link class: CLASS:GBPS:NS, e.g. grid:25:100 (repeatable; 'mapsim list "
      "link-classes')")("links", po::value<std::string>(),
                        "write per-link bytes, busy time and utilisation to this CSV file");
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const auto& options = *vm;

  if (options.count("mapping") != 0 && options.count("mapper") != 0)
    throw po::error("give --mapping or --mapper, not both");
  if (options.count("param") != 0 && options.count("mapper") == 0)
    throw po::error("--param needs --mapper");
  // Build the mapper first: a bad name or parameter fails before the trace is read.
  std::unique_ptr<map::Mapper> mapper;
  map::Seed seed = 0;
  if (options.count("mapper") != 0) {
    map::ParamList params;
    if (options.count("param") != 0) {
      for (const auto& text : options["param"].as<std::vector<std::string>>()) {
        params.push_back(map::split_param(text, "--param"));
      }
    }
    mapper = map::make_mapper(options["mapper"].as<std::string>(), params);
    seed = static_cast<map::Seed>(
        parse_integer(options["seed"].as<std::string>(), "--seed", 0, INT64_MAX));
  }
  sim::SimConfig config;
  config.model = options["model"].as<std::string>();
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
  config.init_to_finalize = options.count("whole-run") == 0;
  if (options.count("link") != 0)
    config.links = apply_link_overrides(options["link"].as<std::vector<std::string>>());
  sim::validate(config);

  const auto topology = topo::make_topology(options["topology"].as<std::string>());
  const auto trace = traces::read_trace(options["trace"].as<std::string>());
  topo::Mapping mapping;
  std::string placement = "in-order";
  if (options.count("mapping") != 0) {
    placement = options["mapping"].as<std::string>();
    mapping = map::read_mapping(placement, *topology, trace.rank_count());
  } else if (mapper) {
    placement = fmt::format("{} (seed {})", options["mapper"].as<std::string>(), seed);
    mapping = mapper->map(traces::point_to_point_matrix(trace), *topology, seed);
  } else {
    mapping = topo::in_order_mapping(trace.rank_count(), *topology);
  }
  const auto result = sim::simulate(trace, *topology, mapping, config);
  print_result(result, trace, *topology, placement);
  if (options.count("links") != 0)
    write_links_csv(options["links"].as<std::string>(), result, *topology);
  return 0;
}

}  // namespace mapsim::cli
