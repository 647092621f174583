// `mapsim map`: map the ranks of a matrix or trace onto a machine with one mapper, a list of
// them or all (in parallel), print every metric and the mapping time as text, CSV or JSON, and
// write the mappings.
//
// Order of work: everything cheap is checked before the matrix is read or a mapper runs — the
// options, the mappers and every parameter of each, the machine, the output paths, and (from a
// CSV matrix or an OTF2 archive's definitions) whether the ranks fit on the machine.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include "cli/Cli.hpp"
#include "cli/LinkOverrides.hpp"
#include "cli/MachineOptions.hpp"
#include "cli/MapperChoice.hpp"
#include "cli/MatrixChoice.hpp"
#include "cli/Report.hpp"
#include "cli/TraceInput.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingFile.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "support/Progress.hpp"
#include "support/Version.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/RecordedMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/WorkloadMatrix.hpp"
#include "traces/generators/GeneratorSpec.hpp"
#include "tuning/ReplayOracle.hpp"

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
  std::string machine;  ///< a refused machine: what every mapper refused on it is told (error)
  std::string file;     ///< the mapping file read or written ("" = none)
};

void check_fits(Rank ranks, const topo::Topology& topology, std::string_view source) {
  const std::int64_t capacity =
      static_cast<std::int64_t>(topology.usable_nodes()) * topology.cores_per_node();
  if (ranks > capacity) {
    throw InputError(
        fmt::format("{} ranks do not fit on {} ({} {}nodes x {} cores); {} has {} "
                    "ranks",
                    ranks, topology.spec(), topology.usable_nodes(),
                    topology.allocation().empty() ? "" : "allocated ", topology.cores_per_node(),
                    source, ranks));
  }
}

/// The mappers' matrix of --matrix or --trace (an OTF2 archive or a generator spec, with its
/// collectives unless --p2p-only); the ranks are checked against the machine before the trace's
/// events are read or the workload is run.
traces::CommMatrix load_matrix(const po::variables_map& vm, const topo::Topology& topology) {
  const auto options = matrix_options(vm);
  if (vm.count("matrix") != 0) {
    const auto source = vm["matrix"].as<std::string>();
    if (!options.collectives && !traces::is_recorded_matrix(source)) {
      throw po::error(fmt::format(
          "--p2p-only needs a trace; the CSV matrix '{}' already says what it counts", source));
    }
    if (vm.count("collectives") != 0 && !traces::is_recorded_matrix(source)) {
      throw po::error(fmt::format(
          "--collectives needs a trace; the CSV matrix '{}' already says what it counts", source));
    }
    auto matrix = traces::read_matrix_file(source, options.collectives, options.algorithms);
    check_fits(matrix.rank_count(), topology, source);
    report_caveats(matrix, options, source, std::nullopt);
    return matrix;
  }
  const auto source = vm["trace"].as<std::string>();
  if (traces::is_generator_spec(source)) {
    const auto generator = traces::parse_generator_spec(source);
    check_fits(generator.ranks, topology, source);
    const ProgressStep step(fmt::format("computing the matrix of {}", source));
    auto matrix = traces::workload_matrix(generator, options);
    report_caveats(matrix, options, source, std::nullopt);
    return matrix;
  }
  traces::TraceReader reader(source);
  check_fits(reader.rank_count(), topology, source);
  auto matrix = traces::read_matrix(reader, options);
  if (reader.summary().mpi_events() == 0) {
    throw InputError(fmt::format("{}: the trace has no MPI events; there is nothing to map",
                                 reader.summary().anchor.string()));
  }
  report_caveats(matrix, options, source, collective_calls(reader.summary()));
  return matrix;
}

std::string stats_line(const metrics::LoadStats& s, int precision) {
  return fmt::format("{}/{}/{:.{}f}/{}", s.total, s.min, s.average, precision, s.max);
}

/// `sockets`: the machine's nodes have several, so IaNLC splits by socket.
void print_metrics(std::FILE* out, const metrics::Metrics& m, bool sockets) {
  fmt::print(out, "hop-bytes      {}\n", m.hop_bytes);
  fmt::print(out, "hop-messages   {} (total IeNPC)\n", m.hop_messages);
  fmt::print(out, "dilation       max {} hops, average {:.4f} hops per byte\n", m.dilation_max,
             m.dilation_average);
  fmt::print(out, "messages       IePLC {}: IaNLC {} intra-node, IeNLC {} inter-node; {} to self\n",
             m.messages, m.intra_node_messages, m.inter_node_messages, m.self_messages);
  if (sockets) {
    fmt::print(out, "  sockets      IaNLC {} within a socket, {} between sockets ({} bytes)\n",
               m.intra_node_messages - m.inter_socket_messages, m.inter_socket_messages,
               m.inter_socket_bytes);
  }
  fmt::print(out, "link loads     total/min/avg/max over used links (dimension-order routes)\n");
  fmt::print(out, "  per direction  {} links: messages {}, bytes {}\n", m.directed_messages.used,
             stats_line(m.directed_messages, 2), stats_line(m.directed_bytes, 1));
  fmt::print(out, "  per link       {} links: messages {}, bytes {} (both directions)\n",
             m.link_messages.used, stats_line(m.link_messages, 2), stats_line(m.link_bytes, 1));
  fmt::print(out, "congestion     {:.6g} s: max over links of bytes / bandwidth\n",
             m.max_link_seconds);
  fmt::print(out, "  smooth       {:.6g} B s: sum over links of bytes^2 / bandwidth\n",
             m.link_load_squares);
  fmt::print(out, "latency        {:.6g} s: sum over messages of their route's latency\n",
             m.latency_seconds);
  fmt::print(out,
             "energy         {:.6g} J: the traffic's bits x pJ/bit over the routes and the "
             "nodes' channels\n",
             m.traffic_energy_joules);
}

void add_stats(Record& row, std::string_view prefix, const metrics::LoadStats& s) {
  row.add(fmt::format("{}_total", prefix), s.total)
      .add(fmt::format("{}_min", prefix), s.min)
      .add(fmt::format("{}_avg", prefix), s.average)
      .add(fmt::format("{}_max", prefix), s.max);
}

Record record_of(const Outcome& o, std::optional<std::uint64_t> baseline, bool sockets) {
  Record row;
  row.add("mapper", o.mapper).add("params", o.params).add("mapping_file", o.file);
  if (!o.error.empty()) {
    row.add("error", o.error);
    return row;
  }
  const auto& m = o.metrics;
  row.add("map_seconds", o.seconds).add("bytes", m.bytes).add("hop_bytes", m.hop_bytes);
  if (baseline && *baseline > 0) {
    row.add("hop_bytes_vs_in_order",
            static_cast<double>(m.hop_bytes) / static_cast<double>(*baseline));
  } else {
    row.add_null("hop_bytes_vs_in_order");
  }
  row.add("hop_messages", m.hop_messages)
      .add("dilation_max_hops", m.dilation_max)
      .add("dilation_avg_hops_per_byte", m.dilation_average)
      .add("ieplc", m.messages)
      .add("ianlc", m.intra_node_messages)
      .add("ienlc", m.inter_node_messages);
  if (sockets) {
    row.add("inter_socket_messages", m.inter_socket_messages)
        .add("inter_socket_bytes", m.inter_socket_bytes);
  }
  row.add("self_messages", m.self_messages).add("directed_links_used", m.directed_messages.used);
  add_stats(row, "directed_link_messages", m.directed_messages);
  add_stats(row, "directed_link_bytes", m.directed_bytes);
  row.add("links_used", m.link_messages.used);
  add_stats(row, "link_messages", m.link_messages);
  add_stats(row, "link_bytes", m.link_bytes);
  row.add("busiest_link_s", m.max_link_seconds)
      .add("link_load_squares", m.link_load_squares)
      .add("latency_s", m.latency_seconds)
      .add("traffic_energy_j", m.traffic_energy_joules)
      .add("error", "");
  return row;
}

Outcome run_one(const ChosenMapper& chosen, const traces::CommMatrix& matrix,
                const topo::Topology& topology, const topo::LinkTable& links, map::Seed seed,
                const map::TimeOracle* oracle) {
  Outcome outcome;
  outcome.mapper = chosen.label;
  outcome.params = chosen.described;
  const auto mapper = map::make_mapper(chosen.name, chosen.params);
  const auto start = std::chrono::steady_clock::now();
  outcome.mapping = mapper->map(matrix, topology, seed, oracle, links);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.metrics = metrics::evaluate(matrix, topology, *outcome.mapping, links);
  return outcome;
}

std::optional<std::uint64_t> in_order_hop_bytes(const std::vector<Outcome>& outcomes) {
  for (const auto& o : outcomes) {
    if (o.mapper == "in-order" && o.error.empty()) return o.metrics.hop_bytes;
  }
  return std::nullopt;
}

/// `sockets`: the machine's nodes have several; a column counts the messages between sockets.
void print_table(std::FILE* out, const std::vector<Outcome>& outcomes, bool sockets) {
  const auto baseline = in_order_hop_bytes(outcomes);
  std::size_t width = 12;  // the mapper column: its longest name
  for (const auto& o : outcomes) width = std::max(width, o.mapper.size());
  fmt::print(out, "{:<{}} {:>10} {:>16} {:>11} {:>5} {:>8} {:>14} {:>12} {:>12} {:>12}{}\n",
             "mapper", width, "time [ms]", "hop-bytes", "vs in-order", "dil", "avg hops",
             "hop-messages", "IeNLC", "max link msg", "max link s",
             sockets ? fmt::format(" {:>14}", "inter-socket") : "");
  for (const auto& o : outcomes) {
    if (!o.error.empty()) {
      fmt::print(out, "{:<{}} error: {}\n", o.mapper, width, o.error);
      continue;
    }
    const auto& m = o.metrics;
    const std::string ratio = baseline && *baseline > 0
                                  ? fmt::format("{:.3f}", static_cast<double>(m.hop_bytes) /
                                                              static_cast<double>(*baseline))
                                  : "-";
    fmt::print(out,
               "{:<{}} {:>10.3f} {:>16} {:>11} {:>5} {:>8.4f} {:>14} {:>12} {:>12} {:>12.4g}{}\n",
               o.mapper, width, o.seconds * 1e3, m.hop_bytes, ratio, m.dilation_max,
               m.dilation_average, m.hop_messages, m.inter_node_messages, m.directed_messages.max,
               m.max_link_seconds, sockets ? fmt::format(" {:>14}", m.inter_socket_messages) : "");
  }
}

std::string_view extension(map::MappingFormat format) {
  switch (format) {
    case map::MappingFormat::Plain:
      return ".map";
    case map::MappingFormat::Rankfile:
      return ".rankfile";
    case map::MappingFormat::Hostlist:
      return ".hostlist";
    case map::MappingFormat::Slurm:
      return ".hostfile";
    case map::MappingFormat::Mpich:
      return ".MPICH_RANK_ORDER";
  }
  return ".map";
}

/// Where --out puts each mapping: FILE for one, DIR/<mapper><ext> for several (DIR is created
/// if missing). Checked before any work.
struct OutPlan {
  bool given = false;
  bool directory = false;
  fs::path path;

  [[nodiscard]] fs::path file_for(std::string_view mapper, map::MappingFormat format) const {
    return directory ? path / fmt::format("{}{}", mapper, extension(format)) : path;
  }
};

// Several mappers: a mapper that cannot handle the input leaves its row with the reason and a
// warning; the command fails only when no mapper succeeded, so a script never takes an
// all-error table for a result.
int exit_status(const std::vector<Outcome>& outcomes) {
  const bool any = std::any_of(outcomes.begin(), outcomes.end(),
                               [](const Outcome& o) { return o.error.empty(); });
  if (any) return 0;
  log::write(log::Level::Error, "every mapper failed on this input (see the warnings above)");
  return 1;
}

}  // namespace

int run_map(const std::vector<std::string>& args) {
  CommandLine line(
      "map",
      "(--matrix CSV | --trace T|GENERATOR) --topology SPEC (--mapper NAME[,NAME...]|all | "
      "--mapping FILE) [--seed S] [--param [MAPPER.]key=value ...] [--out FILE|DIR] "
      "[--mapping-format plain|rankfile|hostlist|slurm|mpich] [--hosts FILE] [--allocation "
      "LIST|@FILE] [--format text|csv|json]",
      "Maps the ranks of a communication matrix onto a machine and prints every metric:\n"
      "hop-bytes, hop-messages, dilation, intra/inter-node messages, dimension-order link loads\n"
      "and the busiest link's time, with the mapping time. '--mapper a,b,c' or '--mapper all'\n"
      "runs several mappers in parallel and prints one row each (times are measured while the\n"
      "others run); their parameters are MAPPER.key=value, all checked before any mapping\n"
      "starts. '--mapping FILE' evaluates a given mapping (any --mapping-format) instead. 'mapsim\n"
      "list mappers' lists the mappers and their parameters. The input is a CSV matrix\n"
      "(src,dst,messages,bytes), an OTF2 trace (anchor file or archive directory) or a\n"
      "generator spec (--trace npb:lu:C:64; see 'mapsim generate --help'), whose matrix is\n"
      "computed without building the trace. The matrix counts point-to-point messages and the\n"
      "messages the replay sends for collectives, as sweeps do (--p2p-only: point-to-point\n"
      "only); an empty or mostly collective matrix is said so. '--format csv|json'\n"
      "prints the settings and one record per mapper with units in the keys (_bytes, _s,\n"
      "_hops). Mapping files record the settings in '#' header lines. Host names are the\n"
      "machine's: a Slurm topology file's, --hosts FILE's, or 'node' + the node id, zero-\n"
      "padded. --allocation restricts the mapping to the nodes a job got. Static metrics use\n"
      "the machine's minimal routes whatever its routing= (which applies to replays).");
  line.options.add_options()("matrix", po::value<std::string>(), "CSV communication matrix")(
      "trace", po::value<std::string>(),
      "OTF2 trace (anchor file or directory) or generator spec (e.g. npb:lu:C:64)")(
      "topology", po::value<std::string>()->required(), "machine spec, e.g. torus:4x4x4")(
      "mapper", po::value<std::string>(),
      "mapper name, a comma list of them, or 'all'; an item may carry "
      "parameters, NAME:key=value[:key=value...] (mxovlp:layers=tile,mxovlp:layers=tile-fold)")(
      "mapping", po::value<std::string>(), "evaluate this mapping file instead of mapping")(
      "seed", po::value<std::string>()->default_value("0"), "random seed (an unsigned integer)")(
      "param", po::value<std::vector<std::string>>()->composing(),
      "mapper parameter key=value (MAPPER.key=value with several mappers); repeatable")(
      "out", po::value<std::string>(),
      "write the mapping to FILE ('-': standard output); with several mappers, one file per "
      "mapper into DIR: DIR/MAPPER.map (.rankfile, .hostlist, .hostfile, .MPICH_RANK_ORDER)")(
      "mapping-format", po::value<std::string>()->default_value("plain"),
      "mapping file format: plain ('rank node'), rankfile (Open MPI mpirun --rankfile), hostlist "
      "(one host per rank), slurm (SLURM_HOSTFILE for srun --distribution=arbitrary), mpich "
      "(Cray MPICH_RANK_ORDER)")("format", po::value<std::string>()->default_value("text"),
                                 "report format: text, csv or json")(
      "link-energy", po::value<std::vector<std::string>>()->composing(),
      "a link class's energy: CLASS:PJ_PER_BIT:IDLE_W:BUSY_W, e.g. grid:5:3:4 (repeatable; the "
      "traffic energy uses the per-bit term)");
  add_matrix_options(line.options);
  add_machine_options(line.options);
  const auto vm = parse(line, args);
  if (!vm) return 0;

  const bool csv_input = vm->count("matrix") != 0;
  if (csv_input == (vm->count("trace") != 0))
    throw po::error("give exactly one of --matrix CSV and --trace T");
  const bool evaluate_only = vm->count("mapping") != 0;
  if (evaluate_only == (vm->count("mapper") != 0)) {
    throw po::error("give exactly one of --mapper NAME|all and --mapping FILE");
  }
  const auto format_text = (*vm)["format"].as<std::string>();
  if (format_text == "plain" || format_text == "rankfile" || format_text == "hostlist" ||
      format_text == "slurm" || format_text == "mpich") {
    throw po::error(fmt::format(
        "--format {}: the mapping file's format is now --mapping-format {}; --format is the "
        "report's (text, csv or json)",
        format_text, format_text));
  }
  const auto format = report_format_from_name(format_text, "--format");
  const auto mapping_format =
      map::mapping_format_from_name((*vm)["mapping-format"].as<std::string>());
  const auto seed = static_cast<map::Seed>(
      parse_integer((*vm)["seed"].as<std::string>(), "--seed", 0, INT64_MAX));
  const auto given = vm->count("param") != 0 ? (*vm)["param"].as<std::vector<std::string>>()
                                             : std::vector<std::string>{};
  std::string mapper_list;
  std::vector<ChosenMapper> chosen;
  if (evaluate_only) {
    if (!given.empty()) throw po::error("--param needs --mapper");
  } else {
    mapper_list = (*vm)["mapper"].as<std::string>();
    chosen = with_params(choose_mapper_items(mapper_list, "--mapper"), given, mapper_list);
  }
  const auto topology = make_machine(*vm, (*vm)["topology"].as<std::string>(), "--topology");
  const auto energy_overrides = vm->count("link-energy") != 0
                                    ? (*vm)["link-energy"].as<std::vector<std::string>>()
                                    : std::vector<std::string>{};
  const auto links = apply_link_energy(energy_overrides, *topology, topo::LinkTable{});

  OutPlan out;
  if (vm->count("out") != 0) {
    out.given = true;
    out.path = (*vm)["out"].as<std::string>();
    out.directory = chosen.size() > 1;
    if (out.directory) {
      if (out.path == "-") {
        throw po::error(fmt::format(
            "--out -: with --mapper {} there is one mapping per mapper; give a directory",
            mapper_list));
      }
      if (fs::exists(out.path) && !fs::is_directory(out.path)) {
        throw InputError(
            fmt::format("--out {}: with several mappers --out is a directory, and this is a file",
                        out.path.string()));
      }
      if (fs::is_directory(out.path)) {
        for (const auto& c : chosen) prepare_output(out.file_for(c.label, mapping_format), "--out");
      } else {
        prepare_output(out.path, "--out");
      }
    } else {
      prepare_output(out.path, "--out");
    }
  }

  const std::string source =
      csv_input ? (*vm)["matrix"].as<std::string>() : (*vm)["trace"].as<std::string>();
  const std::string_view input_kind = csv_input                           ? "matrix"
                                      : traces::is_generator_spec(source) ? "generator"
                                                                          : "trace";
  const auto matrix = load_matrix(*vm, *topology);
  const auto total = matrix.total();

  Record settings;
  settings.add("mapsim_version", version())
      .add("input_kind", input_kind)
      .add("input", source)
      .add("ranks", matrix.rank_count())
      .add("messages", total.messages)
      .add("message_bytes", total.bytes)
      .add("collective_messages", matrix.collective_total().messages)
      .add("collective_bytes", matrix.collective_total().bytes)
      .add("matrix_counts",
           csv_input ? std::string_view("as the CSV file gives") : counted(matrix_options(*vm)))
      .add("collectives", traces::to_string(matrix_options(*vm).algorithms))
      .add("topology", topology->spec())
      .add("nodes", topology->node_count())
      .add("cores", topology->cores_per_node())
      .add("seed", seed);
  add_link_energy_settings(settings, energy_overrides, *topology, links);
  if (out.given) settings.add("mapping_format", map::name(mapping_format));
  const auto mapping_settings = [&](const Outcome& o) {
    map::MappingSettings header{{"mapsim-version", std::string(version())},
                                {"source", fmt::format("{} {}", input_kind, source)},
                                {"mapper", o.mapper},
                                {"params", o.params},
                                {"seed", fmt::format("{}", seed)}};
    // The energy per bit an energy objective weighed, when not the defaults.
    if (!energy_overrides.empty())
      header.emplace_back("link-energy", fmt::format("{}", fmt::join(energy_overrides, " ")));
    return header;
  };

  // A mapper that replays (replay-search) judges mappings by replaying the trace under the
  // simulator's defaults, these links and collective algorithms (`simulate` takes every replay
  // option).
  std::optional<TraceInput> trace;
  std::optional<tuning::ReplayOracle> oracle;
  const bool replays = std::any_of(chosen.begin(), chosen.end(), [](const ChosenMapper& c) {
    return map::make_mapper(c.name, c.params)->needs_oracle();
  });
  if (replays && !csv_input) {
    trace.emplace(source, ReadMode::Auto);
    trace->load(true, matrix_options(*vm), &matrix);  // the search replays it many times
    sim::SimConfig config;
    config.links = links;
    config.collectives = matrix_options(*vm).algorithms;
    config.seed = seed;
    oracle.emplace(
        *topology, std::move(config),
        [&](const topo::Mapping& mapping, const sim::SimConfig& c, const map::Slice& slice) {
          return trace->simulate(*topology, mapping, c, slice);
        },
        [&](const map::Slice& slice) { trace->check_slice(slice); });
  }

  std::vector<Outcome> outcomes;
  if (evaluate_only) {
    Outcome o;
    o.file = (*vm)["mapping"].as<std::string>();
    o.mapping = map::read_mapping(o.file, *topology, matrix.rank_count());
    o.metrics = metrics::evaluate(matrix, *topology, *o.mapping, links);
    outcomes.push_back(std::move(o));
  } else if (chosen.size() == 1) {
    const ProgressStep step(fmt::format("mapping with {}", chosen[0].label));
    outcomes.push_back(
        run_one(chosen[0], matrix, *topology, links, seed, oracle ? &*oracle : nullptr));
  } else {
    outcomes.resize(chosen.size());
    Progress progress("mapping", chosen.size(), "mappers");
    tbb::parallel_for(std::size_t{0}, chosen.size(), [&](std::size_t k) {
      const struct Done {
        Progress& progress;
        ~Done() { progress.advance(); }
      } done{progress};
      try {
        outcomes[k] =
            run_one(chosen[k], matrix, *topology, links, seed, oracle ? &*oracle : nullptr);
      } catch (const InputError& e) {  // this mapper cannot handle this input: its row says why
        outcomes[k].mapper = chosen[k].label;
        outcomes[k].params = chosen[k].described;
        outcomes[k].error = e.what();
        if (const auto* refused = dynamic_cast<const map::NotForMachine*>(&e))
          outcomes[k].machine = refused->machine();
      }
    });
    // The mappers a machine is not for, in one warning per reason (their rows say it in full).
    std::vector<std::pair<std::string, std::vector<std::string>>> not_for;
    for (const auto& o : outcomes) {
      if (o.error.empty()) continue;
      if (o.machine.empty()) {
        log::warning("mapper '{}': {}", o.mapper, o.error);
        continue;
      }
      auto it = std::find_if(not_for.begin(), not_for.end(),
                             [&](const auto& entry) { return entry.first == o.machine; });
      if (it == not_for.end()) it = not_for.insert(not_for.end(), {o.machine, {}});
      it->second.push_back(o.mapper);
    }
    for (const auto& [machine, mappers] : not_for) {
      log::warning("{} {} not for this machine: {}", fmt::join(mappers, ", "),
                   mappers.size() == 1 ? "is" : "are", machine);
    }
  }

  if (oracle) {
    if (const auto text = oracle->reported(); !text.empty()) log::info("{}", trim(text));
  }

  // The mappings first: with --out -, the mapping is standard output and the report goes to
  // standard error.
  const bool mapping_to_stdout = out.given && !out.directory && out.path == "-";
  std::FILE* report = mapping_to_stdout ? stderr : stdout;
  std::vector<std::string> wrote;
  if (out.given) {
    if (out.directory) fs::create_directories(out.path);
    for (auto& o : outcomes) {
      if (!o.mapping) continue;
      const auto file = out.file_for(o.mapper, mapping_format);
      const auto header = evaluate_only ? map::MappingSettings{} : mapping_settings(o);
      map::write_mapping(file, *o.mapping, *topology, mapping_format, header);
      if (file != "-") {
        o.file = file.string();
        wrote.push_back(
            fmt::format("wrote          {} ({} format)\n", o.file, map::name(mapping_format)));
      }
    }
    if (mapping_to_stdout) std::cout.flush();
  }

  if (format != ReportFormat::Text) {
    const auto baseline = in_order_hop_bytes(outcomes);
    std::vector<Record> rows;
    const bool sockets = topology->sockets_per_node() > 1;
    for (const auto& o : outcomes) rows.push_back(record_of(o, baseline, sockets));
    print_report(report, format, settings, rows);
    return exit_status(outcomes);
  }

  fmt::print(report, "matrix         {} ranks, {} messages, {} bytes ({}; {})\n",
             matrix.rank_count(), total.messages, total.bytes, source,
             csv_input ? "as the CSV file gives"
             : matrix.collective_total().bytes == 0
                 ? std::string(counted(matrix_options(*vm)))
                 : fmt::format("of which collectives {} messages, {} bytes{}",
                               matrix.collective_total().messages, matrix.collective_total().bytes,
                               under(matrix_options(*vm))));
  fmt::print(report, "topology       {} ({} {}nodes x {} cores{})\n", topology->spec(),
             topology->usable_nodes(), topology->allocation().empty() ? "" : "allocated ",
             topology->cores_per_node(),
             topology->sockets_per_node() == 1
                 ? std::string()
                 : fmt::format(" on {} sockets", topology->sockets_per_node()));
  if (topology->routing() != topo::Routing::Minimal) {
    fmt::print(report,
               "routing        {} applies to replays; the static metrics below use the "
               "minimal routes\n",
               topo::name(topology->routing()));
  }
  if (evaluate_only) {
    fmt::print(report, "mapping        {}\n", (*vm)["mapping"].as<std::string>());
    print_metrics(report, outcomes[0].metrics, topology->sockets_per_node() > 1);
  } else if (chosen.size() == 1) {
    const auto& o = outcomes[0];
    fmt::print(report, "mapper         {}{}, seed {}\n", o.mapper,
               o.params.empty() ? "" : " (" + o.params + ")", seed);
    fmt::print(report, "mapping time   {:.3f} ms\n", o.seconds * 1e3);
    print_metrics(report, o.metrics, topology->sockets_per_node() > 1);
  } else {
    fmt::print(report, "mappers        {} {}, seed {}\n\n", mapper_list == "all" ? "all" : "chosen",
               chosen.size(), seed);
    print_table(report, outcomes, topology->sockets_per_node() > 1);
  }
  for (const auto& w : wrote) fmt::print(report, "{}", w);
  return exit_status(outcomes);
}

}  // namespace mapsim::cli
