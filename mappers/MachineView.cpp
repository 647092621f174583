#include "mappers/MachineView.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "topologies/NodeSubset.hpp"

namespace mapsim::map {
namespace {

constexpr std::string_view kGridMappers[] = {"sweep",   "scan",   "peano",   "gray",
                                             "hilbert", "mxovlp", "mxov-al", "exco",
                                             "coce",    "affine", "step"};
constexpr std::string_view kLevelMappers[] = {"random-router", "group-striped"};

template <std::size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// "the 42 allocated nodes of torus:4x4x4:allocation=...", and whether that is plural.
std::pair<std::string, bool> describe(const topo::Topology& topology) {
  const RootView view = root_view(topology);
  if (!view.subset) return {topology.spec(), false};
  const auto n = view.nodes.size();
  const auto& machine = *view.machine;
  const auto allocation = machine.allocation();
  if (!allocation.empty()) {
    if (n == allocation.size())
      return {fmt::format("the {} allocated nodes of {}", n, machine.spec()), true};
    return {fmt::format("the first {} of the {} allocated nodes of {} (a small job's block)", n,
                        allocation.size(), machine.spec()),
            true};
  }
  bool prefix = true;
  for (std::size_t k = 0; k < n; ++k) prefix = prefix && view.nodes[k] == static_cast<int>(k);
  if (prefix) {
    return {fmt::format("the first {} nodes of {} (a small job's block)", n, machine.spec()), true};
  }
  return {fmt::format("{} nodes of {}", n, machine.spec()), true};
}

}  // namespace

RootView root_view(const topo::Topology& topology) {
  RootView view;
  view.machine = &topology;
  view.nodes.resize(static_cast<std::size_t>(topology.node_count()));
  for (topo::NodeId k = 0; k < topology.node_count(); ++k)
    view.nodes[static_cast<std::size_t>(k)] = k;
  while (const auto* subset = dynamic_cast<const topo::NodeSubset*>(view.machine)) {
    const auto inner = subset->nodes();
    for (auto& node : view.nodes) node = inner[static_cast<std::size_t>(node)];
    view.machine = &subset->machine();
    view.subset = true;
  }
  return view;
}

topo::Mapping sweep_or_in_order(const traces::CommMatrix& matrix, const topo::Topology& topology,
                                std::uint64_t seed) {
  if (root_view(topology).machine->has_grid())
    return make_mapper("sweep")->map(matrix, topology, seed);
  return topo::in_order_mapping(matrix.rank_count(), topology);
}

bool needs_grid(std::string_view mapper) {
  return listed(kGridMappers, mapper);
}

bool needs_levels(std::string_view mapper) {
  return listed(kLevelMappers, mapper);
}

void refuse(std::string_view mapper, std::string_view needs, std::string_view what,
            const topo::Topology& topology) {
  std::vector<std::string_view> others;
  for (const auto& info : mapper_infos()) {
    if (!needs_grid(info.name) && !needs_levels(info.name)) others.push_back(info.name);
  }
  const auto [nodes, plural] = describe(topology);
  auto machine = fmt::format("{} {} no {}; mappers for any set of nodes: {}", nodes,
                             plural ? "have" : "has", what, fmt::join(others, ", "));
  const auto message = fmt::format("mapper '{}' {}, and {}", mapper, needs, machine);
  throw NotForMachine(message, fmt::format("no {}", what), std::move(machine));
}

}  // namespace mapsim::map
