// The launchers' default placements and a random one.
//   in-order     rank r on node floor(r / cores) in the machine's natural order (mpirun --map-by
//                core; the Tianhe-3 default of the OHTMA paper)
//   round-robin  ranks dealt cyclically over the machine's groups — Tianhe-3 chips, HAEC boards,
//                the planes of the slowest dimension of a mesh or torus (a 1-D machine: its
//                nodes) — and within a group in natural order: rank r goes to group r mod G as
//                the floor(r / G)-th rank there (Slurm's cyclic distribution). On other machines
//                and on an allocation the groups are those of the outermost level of the
//                machine's hierarchy with more than one (Hierarchy.hpp: fat-tree pods or leaf
//                switches, dragonfly and Cascade groups, a Slurm tree's top switches, the planes
//                or lines an allocation of a torus touches; its nodes when there is none), which
//                may differ in size: a full group is skipped, the others take one rank per turn
//   random       a uniformly random placement over all cores (Fisher-Yates on the core list)
// All three are baselines defined over the whole machine (Scope::WholeMachine): a small job is
// not first confined to a compact block (Mapper.hpp), because what they place is the point —
// the launcher's default order, a cyclic spread, a placement that ignores the machine. On an
// allocation the whole machine is the allocated nodes.

#include "mappers/Factories.hpp"
#include "mappers/Hierarchy.hpp"
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
    return topo::Mapping(deal(groups(p.topology), p.ranks(), p.cores()));
  }

 private:
  static std::vector<std::vector<NodeId>> groups(const topo::Topology& topology) {
    const auto kind = topology.kind();
    if (kind != "mesh" && kind != "torus" && kind != "haec" && kind != "tianhe3") {
      const Hierarchy tree(topology);
      return tree.members(tree.height() > 1 ? tree.height() - 1 : 0);
    }
    // Chips, or planes of the slowest dimension: equal and consecutive in the natural order.
    const NodeId size = kind == "tianhe3" ? MachineGrid(topology).nodes_per_cell()
                                          : topology.node_count() / topology.dimensions().back();
    std::vector<std::vector<NodeId>> planes(static_cast<std::size_t>(topology.node_count() / size));
    for (NodeId n = 0; n < topology.node_count(); ++n)
      planes[static_cast<std::size_t>(n / size)].push_back(n);
    return planes;
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
