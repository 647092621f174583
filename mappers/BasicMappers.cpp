// The launchers' default placements and a random one.
//   in-order     rank r on node floor(r / cores) in the machine's natural order (mpirun --map-by
//                core; the Tianhe-3 default of the OHTMA paper)
//   round-robin  ranks dealt cyclically over the machine's groups — Tianhe-3 chips, HAEC boards,
//                the planes of the slowest dimension of a mesh or torus (a 1-D machine: its
//                nodes) — and within a group in natural order: rank r goes to group r mod G as
//                the floor(r / G)-th rank there (Slurm's cyclic distribution)
//   random       a uniformly random placement over all cores (Fisher-Yates on the core list)
// All three are baselines defined over the whole machine (Scope::WholeMachine): a small job is
// not first confined to a compact block (Mapper.hpp), because what they place is the point —
// the launcher's default order, a cyclic spread, a placement that ignores the machine.

#include "mappers/Factories.hpp"
#include "mappers/MachineGrid.hpp"
#include "mappers/NodePool.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

class InOrder final : public Mapper {
 public:
  [[nodiscard]] Scope scope() const override { return Scope::WholeMachine; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    return topo::in_order_mapping(p.ranks(), p.topology);
  }
};

class RoundRobin final : public Mapper {
 public:
  [[nodiscard]] Scope scope() const override { return Scope::WholeMachine; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const auto dims = p.topology.dimensions();
    // Nodes of a group are consecutive in the natural order for every kind.
    const NodeId group_size = p.topology.kind() == "tianhe3"
                                  ? MachineGrid(p.topology).nodes_per_cell()
                                  : p.topology.node_count() / dims.back();
    const NodeId groups = p.topology.node_count() / group_size;
    std::vector<NodeId> node_of_rank(static_cast<std::size_t>(p.ranks()));
    for (Rank r = 0; r < p.ranks(); ++r) {
      const NodeId group = r % groups;
      const NodeId within = r / groups;  // rank's position in its group
      node_of_rank[static_cast<std::size_t>(r)] = group * group_size + within / p.cores();
    }
    return topo::Mapping(std::move(node_of_rank));
  }
};

class RandomMapper final : public Mapper {
 public:
  [[nodiscard]] Scope scope() const override { return Scope::WholeMachine; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    std::vector<NodeId> cores;
    cores.reserve(static_cast<std::size_t>(p.topology.node_count()) *
                  static_cast<std::size_t>(p.cores()));
    for (NodeId n = 0; n < p.topology.node_count(); ++n) {
      for (int c = 0; c < p.cores(); ++c) cores.push_back(n);
    }
    Random random(p.seed);
    random.shuffle(std::span<NodeId>(cores));
    cores.resize(static_cast<std::size_t>(p.ranks()));
    return topo::Mapping(std::move(cores));
  }
};

}  // namespace

std::unique_ptr<Mapper> make_in_order(const ParamValues&) {
  return std::make_unique<InOrder>();
}
std::unique_ptr<Mapper> make_round_robin(const ParamValues&) {
  return std::make_unique<RoundRobin>();
}
std::unique_ptr<Mapper> make_random(const ParamValues&) {
  return std::make_unique<RandomMapper>();
}

}  // namespace mapsim::map
