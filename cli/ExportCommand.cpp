// `mapsim export TRACE --format simgrid-ti --out DIR`: a trace in another tool's format; with
// --topology also the SimGrid platform and host file of the machine and mapping, and the smpirun
// command line that replays the trace as mapsim's `simulate` does.

#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli/Cli.hpp"
#include "cli/LinkOverrides.hpp"
#include "cli/MachineOptions.hpp"
#include "cli/MapperChoice.hpp"
#include "cli/MatrixChoice.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/MappingFile.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "topologies/SimgridPlatform.hpp"
#include "traces/SimgridTi.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::cli {
namespace {

/// `text` as one shell word.
std::string shell_word(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-+./:=@,%") == std::string::npos) {
    return text;
  }
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The placement --mapping, --mapper or in order gives the trace's ranks on `machine` (an
/// energy objective weighs `links`' energy per bit).
topo::Mapping placement(const po::variables_map& options, const traces::Trace& trace,
                        const topo::Topology& machine, const topo::LinkTable& links,
                        const std::vector<ChosenMapper>& chosen) {
  if (options.count("mapping") != 0) {
    return map::read_mapping(options["mapping"].as<std::string>(), machine, trace.rank_count());
  }
  if (chosen.empty()) return topo::in_order_mapping(trace.rank_count(), machine);
  const auto seed = static_cast<map::Seed>(
      parse_integer(options.count("seed") != 0 ? options["seed"].as<std::string>() : "0", "--seed",
                    0, INT64_MAX));
  // The mappers' matrix as map and simulate count it: collectives included unless --p2p-only.
  const auto counts = matrix_options(options);
  const auto matrix = counts.collectives ? traces::matrix_with_collectives(trace, counts.algorithms)
                                         : traces::point_to_point_matrix(trace);
  report_caveats(matrix, counts, trace.source, std::nullopt);
  return map::make_mapper(chosen.front().name, chosen.front().params)
      ->map(matrix, machine, seed, nullptr, links);
}

}  // namespace

int run_export(const std::vector<std::string>& args) {
  CommandLine line(
      "export",
      "TRACE --format simgrid-ti --out DIR [--no-compute] [--collectives SEL] "
      "[--native-collectives] [--topology SPEC "
      "[--mapping FILE | "
      "--mapper NAME] [--link CLASS:GBPS:NS]... [--platform auto|native|explicit]]",
      "Writes an OTF2 trace in another simulator's format.\n\n"
      "simgrid-ti: SimGrid's time-independent trace (DIR/rank-<r>.txt and DIR/index.txt), for\n"
      "  smpirun -np N -platform P.xml -hostfile H -replay DIR/index.txt\n"
      "Collectives are written as the point-to-point schedules mapsim replays (--collectives:\n"
      "MPICH's algorithms by default, or Open MPI's), every message\n"
      "with its own tag, so that SMPI replays exactly the messages mapsim replays; computation\n"
      "as compute actions in flops at --flops-per-second (the SimGrid hosts' speed), from\n"
      "MPI_Init to MPI_Finalize.\n\n"
      "With --topology, also the machine as a SimGrid platform (DIR/platform.xml: SimGrid's own\n"
      "TORUS, FAT_TREE or DRAGONFLY cluster where it builds and routes as mapsim does, else a\n"
      "zone of mapsim's routes between the hosts the mapping uses; --platform forces one) with\n"
      "the link parameters `simulate` uses (the defaults and --link), DIR/hostfile (rank r's\n"
      "host on line r; in order unless --mapping or --mapper), and the smpirun command line that\n"
      "replays the trace as `simulate --model flow` does: SMPI uncalibrated, mapsim's eager\n"
      "protocol (--eager-threshold), fine time precision, the bandwidth sharing re-solved in\n"
      "full at every change (SMPI's lazy update departs from it). SMPI adds a 16-byte envelope\n"
      "to every message: `simulate --envelope 16` sends the same bytes.");
  line.options.add_options()("trace", po::value<std::string>()->required(),
                             "OTF2 trace (anchor file or directory)")(
      "format", po::value<std::string>()->required(), "output format: simgrid-ti")(
      "out", po::value<std::string>()->required(), "output directory")(
      "no-compute", "communication only: no compute actions")(
      "native-collectives",
      "write each collective as one `coll` line and DIR/communicators.txt, for "
      "bench/smpi_replayer.c (an MPI program that lets SMPI's own collective selector choose "
      "the algorithms); smpirun -replay cannot read them")(
      "flops-per-second", po::value<std::string>(),
      "speed of the SimGrid hosts: compute actions are gap * speed flops (default 1e9)")(
      "topology", po::value<std::string>(),
      "also write the SimGrid platform and host file of this machine, e.g. torus:4x4x4")(
      "mapping", po::value<std::string>(),
      "with --topology: the placement, a mapping file in any format 'mapsim map' writes")(
      "mapper", po::value<std::string>(),
      "with --topology: compute the placement with this mapper (NAME or "
      "NAME:key=value[:key=value...]) from the trace's matrix, collectives included unless "
      "--p2p-only ('mapsim list mappers')")("param",
                                            po::value<std::vector<std::string>>()->composing(),
                                            "mapper parameter key=value; repeatable")(
      "seed", po::value<std::string>(), "random seed of the mapper (default 0)")(
      "link", po::value<std::vector<std::string>>()->composing(),
      "with --topology: override a link class the machine has, as in simulate: CLASS:GBPS:NS "
      "(repeatable)")("link-energy", po::value<std::vector<std::string>>()->composing(),
                      "with --topology: a link class's energy, as in simulate: "
                      "CLASS:PJ_PER_BIT:IDLE_W:BUSY_W (repeatable; implies --energy)")(
      "energy",
      "with --topology: give every link of the platform SimGrid's wattage_range property (its "
      "class's idle and busy power) for smpirun --cfg=plugin:link_energy; explicit routes")(
      "platform", po::value<std::string>(),
      "with --topology: auto (a native cluster where it routes as mapsim, else "
      "explicit routes; the default), native or explicit")(
      "eager-threshold", po::value<std::string>(),
      fmt::format("with --topology: the largest eager message of the replay the smpirun line "
                  "matches (default {})",
                  sim::SimConfig{}.eager_threshold)
          .c_str());
  add_machine_options(line.options);
  add_matrix_options(line.options);
  line.positional.add("trace", 1);
  const auto parsed = parse(line, args);
  if (!parsed) return 0;
  const auto& options = *parsed;
  const auto format = options["format"].as<std::string>();
  if (format != "simgrid-ti")
    throw InputError(fmt::format("--format '{}': the only format is simgrid-ti", format));
  traces::SimgridTiOptions ti;
  ti.compute = options.count("no-compute") == 0;
  ti.collectives = collective_options(options);
  ti.native_collectives = options.count("native-collectives") != 0;
  if (options.count("flops-per-second") != 0) {
    ti.flops_per_second =
        parse_real(options["flops-per-second"].as<std::string>(), "--flops-per-second");
    if (!(ti.flops_per_second > 0))
      throw InputError(fmt::format("--flops-per-second must be positive, got {}",
                                   options["flops-per-second"].as<std::string>()));
  }

  // Everything about the machine is checked before the trace is read.
  const bool with_machine = options.count("topology") != 0;
  for (const char* option : {"mapping", "mapper", "param", "seed", "link", "link-energy", "energy",
                             "platform", "eager-threshold", "hosts", "allocation"}) {
    if (!with_machine && options.count(option) != 0)
      throw po::error(fmt::format("--{} needs --topology", option));
  }
  if (options.count("mapping") != 0 && options.count("mapper") != 0)
    throw po::error("give --mapping or --mapper, not both");
  for (const char* option : {"param", "seed", "p2p-only"}) {
    if (options.count(option) != 0 && options.count("mapper") == 0)
      throw po::error(fmt::format("--{} needs --mapper", option));
  }
  std::unique_ptr<topo::Topology> machine;
  topo::LinkTable links;
  std::vector<ChosenMapper> chosen;
  auto choice = topo::PlatformChoice::Auto;
  std::int64_t eager = sim::SimConfig{}.eager_threshold;
  if (with_machine) {
    machine = make_machine(options, options["topology"].as<std::string>(), "--topology");
    links = apply_link_overrides(options.count("link") != 0
                                     ? options["link"].as<std::vector<std::string>>()
                                     : std::vector<std::string>{},
                                 *machine);
    links = apply_link_energy(options.count("link-energy") != 0
                                  ? options["link-energy"].as<std::vector<std::string>>()
                                  : std::vector<std::string>{},
                              *machine, links);
    if (options.count("platform") != 0) {
      try {
        choice = topo::platform_choice_from_name(options["platform"].as<std::string>());
      } catch (const InputError& e) {
        throw e.within("--platform");
      }
    }
    if (options.count("mapper") != 0) {
      const auto name = options["mapper"].as<std::string>();
      chosen =
          with_params(choose_mapper_items(name, "--mapper"),
                      options.count("param") != 0 ? options["param"].as<std::vector<std::string>>()
                                                  : std::vector<std::string>{},
                      name);
      if (chosen.size() != 1)
        throw po::error(
            fmt::format("--mapper '{}': export places the ranks once; name one "
                        "mapper",
                        name));
    }
    if (options.count("eager-threshold") != 0)
      eager = parse_integer(options["eager-threshold"].as<std::string>(), "--eager-threshold", 0,
                            INT64_MAX - 1);
  }

  const auto& source = options["trace"].as<std::string>();
  if (traces::is_generator_spec(source) && !std::filesystem::exists(source)) {
    throw InputError(fmt::format(
        "--trace '{}' is a generator spec; export reads OTF2 archives: write it as one first "
        "(mapsim generate; 'mapsim generate --help')",
        source));
  }
  const auto trace = traces::read_trace(source);
  const auto out = options["out"].as<std::string>();
  std::optional<topo::Mapping> mapping;
  std::optional<topo::SimgridPlatform> platform;
  if (machine) {
    mapping = placement(options, trace, *machine, links, chosen);
    topo::PlatformOptions platform_options;
    platform_options.choice = choice;
    platform_options.hosts.assign(mapping->nodes().begin(), mapping->nodes().end());
    platform_options.flops_per_second = ti.flops_per_second;
    platform_options.energy = options.count("energy") != 0 || options.count("link-energy") != 0;
    platform.emplace(*machine, links, std::move(platform_options));
  }

  const auto stats = traces::write_simgrid_ti(trace, out, ti);
  fmt::print("{}/index.txt: {} ranks, {} actions, {} messages{}\n", out, trace.rank_count(),
             stats.actions, stats.messages,
             stats.dropped_cancelled > 0
                 ? fmt::format(", {} cancelled sends left out", stats.dropped_cancelled)
                 : std::string());
  if (!platform) return 0;

  const auto platform_file = out + "/platform.xml";
  const auto hostfile = out + "/hostfile";
  write_output(platform_file, "--out", [&](std::ostream& os) { platform->write(os); });
  write_output(hostfile, "--out", [&](std::ostream& os) {
    for (const auto node : mapping->nodes()) fmt::print(os, "{}\n", platform->host_name(node));
  });
  fmt::print("{}: {}, {}\n", platform_file, platform->description(), machine->spec());
  for (const auto& note : platform->notes()) fmt::print("  note: {}\n", note);
  fmt::print("{}: {} ranks on {} hosts\n", hostfile, mapping->rank_count(),
             platform->hosts().size());
  fmt::print(
      "smpirun -np {} -platform {} -hostfile {} --cfg=smpi/bw-factor:0:1 "
      "--cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0 --cfg=smpi/async-small-thresh:{} "
      "--cfg=smpi/send-is-detached-thresh:{} --cfg=surf/precision:1e-12 --cfg=network/optim:Full "
      "--cfg=smpi/host-speed:{}f --cfg=smpi/display-timing:yes{} -replay {}\n",
      mapping->rank_count(), shell_word(platform_file), shell_word(hostfile), eager + 1, eager + 1,
      ti.flops_per_second, platform->energy() ? " --cfg=plugin:link_energy" : "",
      shell_word(out + "/index.txt"));
  return 0;
}

}  // namespace mapsim::cli
