#include "cli/ReplayCosts.hpp"

#include <fmt/format.h>

namespace mapsim::cli {

void add_replay_cost_options(po::options_description& options) {
  options.add_options()(
      "overheads", po::value<std::string>()->value_name("SPEC"),
      "MPI's per-message CPU costs on the ranks (LogGP overheads o_s, o_r and gap g per channel, "
      "docs/models.md): none (default), typical, or items CHANNEL.KEY=NS after a preset, e.g. "
      "typical,network.o_s=600 (channels intra-node, network; keys o_s, o_r, g in ns, O_s, O_r "
      "in ns per byte)")(
      "bw-factor", po::value<std::string>()->value_name("F|S:F;..."),
      "flow and analytic: size-dependent factor on a message's bandwidth, in SimGrid's "
      "notation (smpi/bw-factor), e.g. '0:0.81;65472:0.94' (default 1)")(
      "lat-factor", po::value<std::string>()->value_name("F|S:F;..."),
      "flow and analytic: size-dependent factor on a message's route latency (smpi/lat-factor; "
      "default 1)")("reverse-traffic",
                    "flow: every flow also loads the route back with 5 % of its rate, as "
                    "SimGrid's network/crosstraffic");
}

sim::Overheads overheads_option(const po::variables_map& vm) {
  if (vm.count("overheads") == 0) return {};
  return sim::parse_overheads(vm["overheads"].as<std::string>(), "--overheads");
}

void apply_flow_options(const po::variables_map& vm, std::string_view model,
                        sim::ModelOptions& options) {
  for (const char* option : {"bw-factor", "lat-factor"}) {
    if (vm.count(option) == 0) continue;
    if (model != "flow" && model != "analytic") {
      throw po::error(fmt::format(
          "--{} applies to the flow and analytic models only; the {} model would ignore it", option,
          model));
    }
    const auto factors =
        sim::SizeFactors::parse(vm[option].as<std::string>(), fmt::format("--{}", option));
    (std::string_view(option) == "bw-factor" ? options.bandwidth_factor : options.latency_factor) =
        factors;
  }
  if (vm.count("reverse-traffic") != 0) {
    if (model != "flow") {
      throw po::error(fmt::format(
          "--reverse-traffic applies to the flow model only; the {} model would ignore it", model));
    }
    options.reverse_traffic = true;
  }
}

}  // namespace mapsim::cli
