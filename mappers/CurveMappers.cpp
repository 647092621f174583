// Space-filling-curve mappers (HAEC thesis sec. 3.3): the curve orders the cells of the machine
// grid (MachineGrid: nodes of a mesh, torus, HAEC Box, fat-tree, dragonfly or Cascade; chips of
// Tianhe-3, whose nodes follow in natural order, left half first), and ranks 0, 1, 2, ... fill
// that node order, `cores` ranks per node. With more nodes than ranks the curve's tail stays
// empty. Communication oblivious: the matrix only gives the number of ranks.
// On some nodes of a machine (an allocation, or a small job's first nodes on a hierarchical
// machine: a NodeSubset without a grid of its own) the curve walks the whole machine's grid and
// the ranks fill the allocated nodes in the order it visits them (as Slurm's former
// topology/3d_torus plugin ranked a torus's nodes along a Hilbert curve). A machine without any
// grid (a Slurm cluster read from its topology file, or nodes of one) is refused, naming the
// mappers that take any set of nodes.

#include "mappers/Factories.hpp"
#include "mappers/MachineGrid.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/NodePool.hpp"
#include "mappers/SpaceFillingCurves.hpp"

namespace mapsim::map {
namespace {

class CurveMapper final : public Mapper {
 public:
  explicit CurveMapper(Curve curve) : curve_(curve) {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const RootView view = root_view(p.topology);
    if (!view.machine->has_grid()) {
      refuse(name(curve_), "orders the nodes along the machine's grid", "grid", p.topology);
    }
    const MachineGrid grid(*view.machine);
    const auto cells = curve_order(grid.extents(), curve_);
    // The topology's node k is the machine's node view.nodes[k].
    std::vector<topo::NodeId> local(static_cast<std::size_t>(view.machine->node_count()), -1);
    for (std::size_t k = 0; k < view.nodes.size(); ++k)
      local[static_cast<std::size_t>(view.nodes[k])] = static_cast<topo::NodeId>(k);
    std::vector<topo::NodeId> nodes;
    nodes.reserve(static_cast<std::size_t>(p.topology.node_count()));
    for (const auto cell : cells) {
      for (int k = 0; k < grid.nodes_per_cell(); ++k) {
        const auto at = local[static_cast<std::size_t>(grid.first_node(cell) + k)];
        if (at >= 0) nodes.push_back(at);
      }
    }
    return fill_in_order(p.ranks(), nodes, p.cores());
  }

 private:
  Curve curve_;
};

}  // namespace

std::unique_ptr<Mapper> make_curve(Curve curve) {
  return std::make_unique<CurveMapper>(curve);
}

}  // namespace mapsim::map
