#pragma once
// The Mapper interface and the registry of mappers by name.
//
// A mapper places every rank of a communication matrix on a node of a topology. It is built
// from its parsed parameters (immutable, passed to the factory), and map() depends only on the
// matrix, the topology, those parameters and the seed: never on the thread count, so oneTBB may
// run anything inside in parallel and many mappers may run at once.
//
// Adding a mapper: declare its ParamSpec table and a factory, and add one line to the table in
// Registry.cpp (name, one-line description, parameters, factory).

#include <memory>
#include <span>
#include <string_view>

#include "mappers/CommGraph.hpp"
#include "mappers/Parameters.hpp"
#include "mappers/Random.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::map {

/// What a mapper works on, built once per map() call.
struct Problem {
  const traces::CommMatrix& matrix;
  const topo::Topology& topology;
  const CommGraph& graph;  ///< the matrix as an undirected graph
  Seed seed = 0;

  [[nodiscard]] Rank ranks() const { return matrix.rank_count(); }
  [[nodiscard]] int cores() const { return topology.cores_per_node(); }
};

class Mapper {
 public:
  virtual ~Mapper() = default;
  Mapper() = default;
  Mapper(const Mapper&) = delete;
  Mapper& operator=(const Mapper&) = delete;

  /// Places every rank. Throws InputError if the ranks do not fit on the machine (or if the
  /// mapper cannot handle this input, saying why). The result is valid: a bug otherwise.
  [[nodiscard]] topo::Mapping map(const traces::CommMatrix& matrix, const topo::Topology& topology,
                                  Seed seed = 0) const;

 protected:
  /// Preconditions: 1 <= ranks <= nodes * cores per node.
  [[nodiscard]] virtual topo::Mapping compute(const Problem& problem) const = 0;
};

using MapperFactory = std::unique_ptr<Mapper> (*)(const ParamValues& params);

struct MapperInfo {
  std::string_view name;
  std::string_view description;  ///< one line
  std::span<const ParamSpec> params;
  MapperFactory make;
};

/// Every registered mapper, in the order `mapsim list mappers` shows them.
std::span<const MapperInfo> mapper_infos();

/// The mapper named `name`; throws InputError listing the valid names.
const MapperInfo& find_mapper(std::string_view name);

/// Builds mapper `name` with parameters `params` (unknown keys and bad values are InputErrors).
std::unique_ptr<Mapper> make_mapper(std::string_view name, const ParamList& params = {});

}  // namespace mapsim::map
