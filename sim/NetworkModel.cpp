#include "sim/NetworkModel.hpp"

#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/AnalyticModel.hpp"
#include "sim/FlowModel.hpp"
#include "sim/PacketModel.hpp"
#include "support/Suggest.hpp"

namespace mapsim::sim {
namespace {

constexpr std::array<NetworkModelInfo, 3> kModels{{
    {"analytic", "no contention: route latency + size / bottleneck bandwidth"},
    {"flow", "route latency, then weighted max-min sharing of link bandwidth (SimGrid CM02)"},
    {"packet", "packets through per-link FIFO output queues, cut-through or store-and-forward"},
}};

}  // namespace

std::span<const NetworkModelInfo> network_models() {
  return kModels;
}

std::unique_ptr<NetworkModel> make_network_model(std::string_view name, Engine& engine,
                                                 Network& network, const ModelOptions& options) {
  if (name == "analytic") return std::make_unique<AnalyticModel>(engine, network, options);
  if (name == "flow") return std::make_unique<FlowModel>(engine, network, options);
  if (name == "packet") {
    if (!options.bandwidth_factor.identity() || !options.latency_factor.identity() ||
        options.reverse_traffic || options.weight_s != 0) {
      throw InputError(
          "the packet model takes no size factors, reverse traffic or weight-S (--bw-factor, "
          "--lat-factor, --reverse-traffic, a calibration): they are flow-level corrections; use "
          "flow or analytic");
    }
    if (options.packet_bytes <= 0) {
      throw InputError(fmt::format("packet size {} bytes must be positive (--packet-size)",
                                   options.packet_bytes));
    }
    return std::make_unique<PacketModel>(engine, network, options);
  }
  std::string valid;
  std::vector<std::string_view> names;
  for (const auto& model : kModels) {
    valid += valid.empty() ? "" : ", ";
    valid += model.name;
    names.push_back(model.name);
  }
  throw InputError(fmt::format("unknown network model '{}'; valid models: {}{}", name, valid,
                               suggest_suffix(name, names)));
}

}  // namespace mapsim::sim
