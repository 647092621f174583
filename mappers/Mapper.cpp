#include "mappers/Mapper.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "mappers/Metrics.hpp"
#include "mappers/SocketGrouping.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"
#include "topologies/Block.hpp"
#include "topologies/NodeSubset.hpp"

namespace mapsim::map {

topo::Mapping Mapper::map(const traces::CommMatrix& matrix, const topo::Topology& topology,
                          Seed seed, const TimeOracle* oracle, const topo::LinkTable& links) const {
  const std::int64_t capacity =
      static_cast<std::int64_t>(topology.usable_nodes()) * topology.cores_per_node();
  if (matrix.rank_count() == 0) throw InputError("the communication matrix has no ranks");
  if (matrix.rank_count() > capacity) {
    if (!topology.allocation().empty()) {
      throw InputError(
          fmt::format("{} ranks do not fit on the {} allocated nodes of {} ({} nodes "
                      "x {} cores)",
                      matrix.rank_count(), topology.usable_nodes(), topology.spec(),
                      topology.usable_nodes(), topology.cores_per_node()));
    }
    throw InputError(fmt::format("{} ranks do not fit on {} ({} nodes x {} cores)",
                                 matrix.rank_count(), topology.spec(), topology.node_count(),
                                 topology.cores_per_node()));
  }
  metrics::check_summable(matrix, topology);  // hop-weighted sums stay exact
  const CommGraph graph(matrix);
  if (needs_oracle()) {
    if (oracle == nullptr) {
      throw InputError(
          "this mapper replays the workload to judge mappings, so it needs a trace (an OTF2 "
          "archive or a generator spec), not a communication matrix alone");
    }
    MAPSIM_EXPECTS(&oracle->topology() == &topology || oracle->topology().spec() == topology.spec(),
                   "the time oracle replays on another machine than the mapper maps onto");
    return checked(search(Problem{matrix, topology, graph, links, seed}, *oracle), matrix,
                   topology);
  }
  if (!topology.allocation().empty()) {
    // The mapper computes on the allocated nodes as a machine of their own (NodeSubset.hpp).
    const auto allocation = topology.allocation();
    const topo::NodeSubset allocated(
        topology, std::vector<topo::NodeId>(allocation.begin(), allocation.end()));
    return with_sockets(
        checked(on_machine(place(matrix, allocated, graph, links, seed), allocated.nodes()), matrix,
                topology),
        graph, topology);
  }
  return with_sockets(checked(place(matrix, topology, graph, links, seed), matrix, topology), graph,
                      topology);
}

topo::Mapping Mapper::search(const Problem&, const TimeOracle&) const {
  MAPSIM_EXPECTS(false, "search() called on a mapper that needs no time oracle");
  return {};
}

topo::Mapping Mapper::with_sockets(topo::Mapping mapping, const CommGraph& graph,
                                   const topo::Topology& topology) const {
  if (topology.sockets_per_node() == 1 || scope() == Scope::WholeMachine) return mapping;
  return checked(group_sockets(mapping, graph, topology), graph.rank_count(), topology);
}

topo::Mapping Mapper::place(const traces::CommMatrix& matrix, const topo::Topology& topology,
                            const CommGraph& graph, const topo::LinkTable& links, Seed seed) const {
  const auto needed = static_cast<topo::NodeId>(
      (matrix.rank_count() + topology.cores_per_node() - 1) / topology.cores_per_node());
  if (scope() == Scope::CompactBlock && needed < topology.node_count()) {
    const auto block = topo::compact_block(topology, needed);
    if (block.machine->node_count() < topology.node_count()) {
      return on_machine(compute(Problem{matrix, *block.machine, graph, links, seed}), block.nodes);
    }
  }
  return compute(Problem{matrix, topology, graph, links, seed});
}

topo::Mapping Mapper::on_machine(const topo::Mapping& local, std::span<const topo::NodeId> nodes) {
  std::vector<topo::NodeId> node_of_rank;
  node_of_rank.reserve(static_cast<std::size_t>(local.rank_count()));
  for (const auto node : local.nodes()) {
    MAPSIM_EXPECTS(node >= 0 && node < static_cast<topo::NodeId>(nodes.size()),
                   "a mapper placed a rank outside its block or allocation");
    node_of_rank.push_back(nodes[static_cast<std::size_t>(node)]);
  }
  if (local.cores().empty()) return topo::Mapping(std::move(node_of_rank));
  return {std::move(node_of_rank), {local.cores().begin(), local.cores().end()}};
}

topo::Mapping Mapper::checked(topo::Mapping mapping, const traces::CommMatrix& matrix,
                              const topo::Topology& topology) {
  return checked(std::move(mapping), matrix.rank_count(), topology);
}

topo::Mapping Mapper::checked(topo::Mapping mapping, Rank ranks, const topo::Topology& topology) {
  MAPSIM_EXPECTS(mapping.rank_count() == ranks, "a mapper lost ranks");
  try {
    validate(mapping, topology);
  } catch (const InputError& e) {
    MAPSIM_EXPECTS(false, fmt::format("a mapper produced an invalid mapping: {}", e.what()));
  }
  return mapping;
}

const MapperInfo& find_mapper(std::string_view name) {
  for (const auto& info : mapper_infos()) {
    if (info.name == name) return info;
  }
  std::vector<std::string_view> names;
  for (const auto& info : mapper_infos()) names.push_back(info.name);
  throw InputError(fmt::format("unknown mapper '{}'; valid: {}{}", name, fmt::join(names, ", "),
                               suggest_suffix(name, names)));
}

std::unique_ptr<Mapper> make_mapper(std::string_view name, const ParamList& params) {
  const auto& info = find_mapper(name);
  return info.make(parse_params(fmt::format("mapper '{}'", info.name), info.params, params));
}

MapperItem parse_mapper_item(std::string_view item, std::string_view where) {
  MapperItem parsed;
  parsed.label = std::string(trim(item));
  if (parsed.label.empty()) throw InputError(fmt::format("{}: an empty item", where));
  const auto parts = split_fields(parsed.label, ':');
  parsed.name = std::string(trim(parts.front()));
  const auto context = fmt::format("{} item '{}'", where, parsed.label);
  for (std::size_t k = 1; k < parts.size(); ++k)
    parsed.params.push_back(split_param(parts[k], context));
  try {
    (void)make_mapper(parsed.name, parsed.params);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", context, e.what()));
  }
  return parsed;
}

}  // namespace mapsim::map
