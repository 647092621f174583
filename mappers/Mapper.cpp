#include "mappers/Mapper.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"

namespace mapsim::map {

topo::Mapping Mapper::map(const traces::CommMatrix& matrix, const topo::Topology& topology,
                          Seed seed) const {
  const std::int64_t capacity =
      static_cast<std::int64_t>(topology.node_count()) * topology.cores_per_node();
  if (matrix.rank_count() == 0) throw InputError("the communication matrix has no ranks");
  if (matrix.rank_count() > capacity) {
    throw InputError(fmt::format("{} ranks do not fit on {} ({} nodes x {} cores)",
                                 matrix.rank_count(), topology.spec(), topology.node_count(),
                                 topology.cores_per_node()));
  }
  const CommGraph graph(matrix);
  auto mapping = compute(Problem{matrix, topology, graph, seed});
  MAPSIM_EXPECTS(mapping.rank_count() == matrix.rank_count(), "a mapper lost ranks");
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
  throw InputError(fmt::format("unknown mapper '{}'; valid: {}", name, fmt::join(names, ", ")));
}

std::unique_ptr<Mapper> make_mapper(std::string_view name, const ParamList& params) {
  const auto& info = find_mapper(name);
  return info.make(parse_params(fmt::format("mapper '{}'", info.name), info.params, params));
}

}  // namespace mapsim::map
