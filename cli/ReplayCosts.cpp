#include "cli/ReplayCosts.hpp"

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Log.hpp"

namespace mapsim::cli {

void add_replay_cost_options(po::options_description& options) {
  options.add_options()(
      "calibration", po::value<std::string>()->value_name("none|smpi|FILE"),
      "what the replay charges beyond the link classes, as a set: none (default), smpi (SimGrid "
      "3.32's SMPI model: its size factors, cross-traffic and weight-S), or a calibration file "
      "(docs/models.md, \"Calibration\"); the options below change its parts")(
      "overheads", po::value<std::string>()->value_name("SPEC"),
      "MPI's per-message CPU costs on the ranks (LogGP overheads o_s, o_r and gap g per channel, "
      "docs/models.md): none (default), typical, or items CHANNEL.KEY=NS after a preset, e.g. "
      "typical,network.o_s=600 (channels intra-node, inter-socket, network; keys o_s, o_r, g in "
      "ns, O_s, O_r in ns per byte)")(
      "bw-factor", po::value<std::string>()->value_name("F|S:F;..."),
      "flow and analytic: size-dependent factor on a message's bandwidth, in SimGrid's "
      "notation (smpi/bw-factor), e.g. '0:0.81;65472:0.94' (default 1)")(
      "lat-factor", po::value<std::string>()->value_name("F|S:F;..."),
      "flow and analytic: size-dependent factor on a message's route latency (smpi/lat-factor; "
      "default 1)")("reverse-traffic",
                    "flow: every flow also loads the route back with 5 % of its rate, as "
                    "SimGrid's network/crosstraffic")(
      "envelope", po::value<std::int64_t>()->value_name("BYTES"),
      "bytes every message carries on the wire beyond its payload (MPI's envelope; SMPI sends "
      "16; default 0)");
}

sim::Calibration replay_costs(const po::variables_map& vm) {
  sim::Calibration costs;
  if (vm.count("calibration") != 0)
    costs = sim::load_calibration(vm["calibration"].as<std::string>(), "--calibration");
  if (vm.count("overheads") != 0)
    costs.overheads = sim::parse_overheads(vm["overheads"].as<std::string>(), "--overheads");
  if (vm.count("bw-factor") != 0)
    costs.bandwidth_factor =
        sim::SizeFactors::parse(vm["bw-factor"].as<std::string>(), "--bw-factor");
  if (vm.count("lat-factor") != 0)
    costs.latency_factor =
        sim::SizeFactors::parse(vm["lat-factor"].as<std::string>(), "--lat-factor");
  if (vm.count("reverse-traffic") != 0) costs.reverse_traffic = true;
  if (vm.count("envelope") != 0) {
    costs.envelope = vm["envelope"].as<std::int64_t>();
    if (costs.envelope < 0 || costs.envelope > sim::kMaxEnvelope) {
      throw InputError(
          fmt::format("--envelope {}: bytes from 0 to {}", costs.envelope, sim::kMaxEnvelope));
    }
  }
  return costs;
}

void check_replay_costs(const po::variables_map& vm, std::string_view model) {
  for (const char* option : {"bw-factor", "lat-factor"}) {
    if (vm.count(option) != 0 && model != "flow" && model != "analytic") {
      throw po::error(fmt::format(
          "--{} applies to the flow and analytic models only; the {} model would ignore it", option,
          model));
    }
  }
  if (vm.count("reverse-traffic") != 0 && model != "flow") {
    throw po::error(fmt::format(
        "--reverse-traffic applies to the flow model only; the {} model would ignore it", model));
  }
  if (vm.count("calibration") != 0 && model != "flow") {
    log::info("--calibration under the {} model: {}", model,
              model == "analytic"
                  ? "its size factors, overheads and envelope apply, not its reverse traffic or "
                    "weight-S"
                  : "only its overheads and envelope apply (the packet model takes no flow-level "
                    "correction)");
  }
}

}  // namespace mapsim::cli
