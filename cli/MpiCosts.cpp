#include "cli/MpiCosts.hpp"

namespace mapsim::cli {

void add_overheads_option(po::options_description& options) {
  options.add_options()(
      "overheads", po::value<std::string>()->value_name("SPEC"),
      "MPI's per-message CPU costs on the ranks (LogGP overheads o_s, o_r and gap g per channel, "
      "docs/models.md): none (default), typical, or items CHANNEL.KEY=NS after a preset, e.g. "
      "typical,network.o_s=600 (channels intra-node, network; keys o_s, o_r, g in ns, O_s, O_r "
      "in ns per byte)");
}

sim::Overheads overheads_option(const po::variables_map& vm) {
  if (vm.count("overheads") == 0) return {};
  return sim::parse_overheads(vm["overheads"].as<std::string>(), "--overheads");
}

}  // namespace mapsim::cli
