// `mapsim map`: map the ranks of a matrix or trace onto a machine with one mapper (or all of
// them, in parallel), print every metric and the mapping time, and write the mapping.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include "cli/Cli.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingFile.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::cli {
namespace {

namespace fs = std::filesystem;
namespace metrics = map::metrics;

struct Outcome {
  std::string mapper;
  std::string params;
  std::optional<topo::Mapping> mapping;
  metrics::Metrics metrics;
  double seconds = 0;
  std::string error;
};

traces::CommMatrix load_matrix(const po::variables_map& vm, std::string& source) {
  const bool csv = vm.count("matrix") != 0;
  const bool trace = vm.count("trace") != 0;
  if (csv == trace) throw po::error("give exactly one of --matrix CSV and --trace T");
  if (csv) {
    source = vm["matrix"].as<std::string>();
    return traces::read_matrix_csv(source);
  }
  source = vm["trace"].as<std::string>();
  traces::TraceReader reader(source);
  auto matrix = traces::read_matrix(reader);
  if (reader.summary().mpi_events() == 0) {
    throw InputError(fmt::format("{}: the trace has no MPI events; there is nothing to map",
                                 reader.summary().anchor.string()));
  }
  return matrix;
}

// Parameters for `mapper`: "key=value" applies to the one mapper given; "NAME.key=value" to
// mapper NAME (required with --mapper all).
map::ParamList params_for(std::string_view mapper, const std::vector<std::string>& given,
                          bool all) {
  map::ParamList params;
  for (const auto& text : given) {
    auto [key, value] = map::split_param(text, "--param");
    const auto dot = key.find('.');
    if (dot == std::string::npos) {
      if (all) {
        throw po::error(
            fmt::format("--param {}: with --mapper all, name the mapper: "
                        "MAPPER.{}",
                        text, text));
      }
      params.emplace_back(key, value);
      continue;
    }
    const auto owner = key.substr(0, dot);
    (void)map::find_mapper(owner);  // an unknown mapper name is an error even if unused
    if (!all && owner != mapper) {
      throw InputError(fmt::format("--param {} is for mapper '{}', not '{}'", text, owner, mapper));
    }
    if (owner == mapper) params.emplace_back(key.substr(dot + 1), value);
  }
  return params;
}

std::string stats_line(const metrics::LoadStats& s, int precision) {
  return fmt::format("{}/{}/{:.{}f}/{}", s.total, s.min, s.average, precision, s.max);
}

void print_metrics(std::FILE* out, const metrics::Metrics& m) {
  fmt::print(out, "hop-bytes      {}\n", m.hop_bytes);
  fmt::print(out, "hop-messages   {} (total IeNPC)\n", m.hop_messages);
  fmt::print(out, "dilation       max {} hops, average {:.4f} hops per byte\n", m.dilation_max,
             m.dilation_average);
  fmt::print(out, "messages       IePLC {}: IaNLC {} intra-node, IeNLC {} inter-node; {} to self\n",
             m.messages, m.intra_node_messages, m.inter_node_messages, m.self_messages);
  fmt::print(out, "link loads     total/min/avg/max over used links (dimension-order routes)\n");
  fmt::print(out, "  per direction  {} links: messages {}, bytes {}\n", m.directed_messages.used,
             stats_line(m.directed_messages, 2), stats_line(m.directed_bytes, 1));
  fmt::print(out, "  per link       {} links: messages {}, bytes {} (both directions)\n",
             m.link_messages.used, stats_line(m.link_messages, 2), stats_line(m.link_bytes, 1));
  fmt::print(out, "congestion     {:.6g} s: max over links of bytes / bandwidth\n",
             m.max_link_seconds);
}

void write_out(const po::variables_map& vm, const topo::Mapping& mapping,
               const topo::Topology& topology) {
  const auto format = map::mapping_format_from_name(vm["format"].as<std::string>());
  const auto out = vm["out"].as<std::string>();
  if (out == "-") {
    map::write_mapping(std::cout, mapping, topology, format);
    std::cout.flush();
    return;
  }
  map::write_mapping(fs::path(out), mapping, topology, format);
  fmt::print("wrote          {} ({} format)\n", out, map::name(format));
}

Outcome run_one(std::string_view name, const map::ParamList& params,
                const traces::CommMatrix& matrix, const topo::Topology& topology, map::Seed seed) {
  Outcome outcome;
  outcome.mapper = name;
  const auto mapper = map::make_mapper(name, params);
  const auto& info = map::find_mapper(name);
  outcome.params = map::parse_params(name, info.params, params).describe();
  const auto start = std::chrono::steady_clock::now();
  outcome.mapping = mapper->map(matrix, topology, seed);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.metrics = metrics::evaluate(matrix, topology, *outcome.mapping);
  return outcome;
}

void print_table(const std::vector<Outcome>& outcomes) {
  std::optional<std::uint64_t> baseline;
  for (const auto& o : outcomes) {
    if (o.mapper == "in-order" && o.error.empty()) baseline = o.metrics.hop_bytes;
  }
  fmt::print("{:<12} {:>10} {:>16} {:>11} {:>5} {:>8} {:>14} {:>12} {:>12} {:>12}\n", "mapper",
             "time [ms]", "hop-bytes", "vs in-order", "dil", "avg hops", "hop-messages", "IeNLC",
             "max link msg", "max link s");
  for (const auto& o : outcomes) {
    if (!o.error.empty()) {
      fmt::print("{:<12} error: {}\n", o.mapper, o.error);
      continue;
    }
    const auto& m = o.metrics;
    const std::string ratio = baseline && *baseline > 0
                                  ? fmt::format("{:.3f}", static_cast<double>(m.hop_bytes) /
                                                              static_cast<double>(*baseline))
                                  : "-";
    fmt::print("{:<12} {:>10.3f} {:>16} {:>11} {:>5} {:>8.4f} {:>14} {:>12} {:>12} {:>12.4g}\n",
               o.mapper, o.seconds * 1e3, m.hop_bytes, ratio, m.dilation_max, m.dilation_average,
               m.hop_messages, m.inter_node_messages, m.directed_messages.max, m.max_link_seconds);
  }
}

}  // namespace

int run_map(const std::vector<std::string>& args) {
  CommandLine line(
      "map",
      "(--matrix CSV | --trace T) --topology SPEC (--mapper NAME|all | --mapping FILE) "
      "[--seed S] [--param key=value ...] [--out FILE] [--format plain|rankfile|hostlist]",
      "Maps the ranks of a communication matrix onto a machine and prints every metric:\n"
      "hop-bytes, hop-messages, dilation, intra/inter-node messages, dimension-order link loads\n"
      "and the busiest link's time, with the mapping time. '--mapper all' runs every mapper in\n"
      "parallel and prints one table (times are measured while the others run). '--mapping FILE'\n"
      "evaluates a given mapping ('rank node' lines) instead. 'mapsim list mappers' lists the\n"
      "mappers and their parameters. The input is a CSV matrix (src,dst,messages,bytes) or an\n"
      "OTF2 trace (anchor file or archive directory), whose point-to-point messages count.\n"
      "Host names in rankfiles and host lists are 'node' + the node id, zero-padded.");
  line.options.add_options()("matrix", po::value<std::string>(), "CSV communication matrix")(
      "trace", po::value<std::string>(), "OTF2 trace (anchor file or directory)")(
      "topology", po::value<std::string>()->required(), "machine spec, e.g. torus:4x4x4")(
      "mapper", po::value<std::string>(), "mapper name, or 'all'")(
      "mapping", po::value<std::string>(), "evaluate this mapping file instead of mapping")(
      "seed", po::value<std::string>()->default_value("0"), "random seed (an unsigned integer)")(
      "param", po::value<std::vector<std::string>>()->composing(),
      "mapper parameter key=value (MAPPER.key=value with --mapper all); repeatable")(
      "out", po::value<std::string>(), "write the mapping to FILE ('-': standard output)")(
      "format", po::value<std::string>()->default_value("plain"),
      "mapping file format: plain ('rank node'), rankfile (Open MPI), hostlist (one host per "
      "rank, Slurm/MPICH)");
  const auto vm = parse(line, args);
  if (!vm) return 0;

  const bool evaluate_only = vm->count("mapping") != 0;
  if (evaluate_only == (vm->count("mapper") != 0)) {
    throw po::error("give exactly one of --mapper NAME|all and --mapping FILE");
  }
  (void)map::mapping_format_from_name((*vm)["format"].as<std::string>());
  const auto seed = static_cast<map::Seed>(
      parse_integer((*vm)["seed"].as<std::string>(), "--seed", 0, INT64_MAX));
  const auto given = vm->count("param") != 0 ? (*vm)["param"].as<std::vector<std::string>>()
                                             : std::vector<std::string>{};
  const auto topology = topo::make_topology((*vm)["topology"].as<std::string>());
  std::string source;
  const auto matrix = load_matrix(*vm, source);
  const auto total = matrix.total();
  // With the mapping on standard output, the report goes to standard error.
  std::FILE* report =
      vm->count("out") != 0 && (*vm)["out"].as<std::string>() == "-" ? stderr : stdout;
  fmt::print(report, "matrix         {} ranks, {} messages, {} bytes ({})\n", matrix.rank_count(),
             total.messages, total.bytes, source);
  fmt::print(report, "topology       {} ({} nodes x {} cores)\n", topology->spec(),
             topology->node_count(), topology->cores_per_node());

  if (evaluate_only) {
    if (!given.empty()) throw po::error("--param needs --mapper");
    const auto file = (*vm)["mapping"].as<std::string>();
    const auto mapping = map::read_mapping(file, *topology, matrix.rank_count());
    fmt::print(report, "mapping        {}\n", file);
    print_metrics(report, metrics::evaluate(matrix, *topology, mapping));
    if (vm->count("out") != 0) write_out(*vm, mapping, *topology);
    return 0;
  }

  const auto name = (*vm)["mapper"].as<std::string>();
  if (name != "all") {
    const auto outcome = run_one(name, params_for(name, given, false), matrix, *topology, seed);
    fmt::print(report, "mapper         {}{}, seed {}\n", name,
               outcome.params.empty() ? "" : " (" + outcome.params + ")", seed);
    fmt::print(report, "mapping time   {:.3f} ms\n", outcome.seconds * 1e3);
    print_metrics(report, outcome.metrics);
    if (vm->count("out") != 0) write_out(*vm, *outcome.mapping, *topology);
    return 0;
  }

  if (vm->count("out") != 0) throw po::error("--out needs one mapper, not --mapper all");
  const auto infos = map::mapper_infos();
  std::vector<map::ParamList> params;
  for (const auto& info : infos) params.push_back(params_for(info.name, given, true));
  std::vector<Outcome> outcomes(infos.size());
  tbb::parallel_for(std::size_t{0}, infos.size(), [&](std::size_t k) {
    try {
      outcomes[k] = run_one(infos[k].name, params[k], matrix, *topology, seed);
    } catch (const InputError& e) {
      outcomes[k].mapper = infos[k].name;
      outcomes[k].error = e.what();
    }
  });
  fmt::print("mappers        all {}, seed {}\n\n", infos.size(), seed);
  print_table(outcomes);
  return 0;
}

}  // namespace mapsim::cli
