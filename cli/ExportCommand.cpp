// `mapsim export TRACE --format simgrid-ti --out DIR`: a trace in another tool's format.

#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "traces/SimgridTi.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::cli {

int run_export(const std::vector<std::string>& args) {
  CommandLine line(
      "export", "TRACE --format simgrid-ti --out DIR [--no-compute]",
      "Writes an OTF2 trace in another simulator's format.\n\n"
      "simgrid-ti: SimGrid's time-independent trace (DIR/rank-<r>.txt and DIR/index.txt), for\n"
      "  smpirun -np N -platform P.xml -hostfile H -replay DIR/index.txt\n"
      "Collectives are written as the point-to-point schedules mapsim replays, every message\n"
      "with its own tag, so that SMPI replays exactly the messages mapsim replays; computation\n"
      "as compute actions in flops at --flops-per-second (the SimGrid hosts' speed), from\n"
      "MPI_Init to MPI_Finalize.");
  line.options.add_options()("trace", po::value<std::string>()->required(),
                             "OTF2 trace (anchor file or directory)")(
      "format", po::value<std::string>()->required(), "output format: simgrid-ti")(
      "out", po::value<std::string>()->required(), "output directory")(
      "no-compute", "communication only: no compute actions")(
      "flops-per-second", po::value<std::string>(),
      "speed of the SimGrid hosts: compute actions are gap * speed flops (default 1e9)");
  line.positional.add("trace", 1);
  const auto parsed = parse(line, args);
  if (!parsed) return 0;
  const auto& options = *parsed;
  const auto format = options["format"].as<std::string>();
  if (format != "simgrid-ti")
    throw InputError(fmt::format("--format '{}': the only format is simgrid-ti", format));
  traces::SimgridTiOptions ti;
  ti.compute = options.count("no-compute") == 0;
  if (options.count("flops-per-second") != 0) {
    ti.flops_per_second =
        parse_real(options["flops-per-second"].as<std::string>(), "--flops-per-second");
    if (!(ti.flops_per_second > 0))
      throw InputError(fmt::format("--flops-per-second must be positive, got {}",
                                   options["flops-per-second"].as<std::string>()));
  }
  const auto trace = traces::read_trace(options["trace"].as<std::string>());
  const auto out = options["out"].as<std::string>();
  const auto stats = traces::write_simgrid_ti(trace, out, ti);
  fmt::print("{}/index.txt: {} ranks, {} actions, {} messages{}\n", out, trace.rank_count(),
             stats.actions, stats.messages,
             stats.dropped_cancelled > 0
                 ? fmt::format(", {} cancelled sends left out", stats.dropped_cancelled)
                 : std::string());
  return 0;
}

}  // namespace mapsim::cli
