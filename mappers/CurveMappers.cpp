// Space-filling-curve mappers (HAEC thesis sec. 3.3): the curve orders the cells of the machine
// grid (MachineGrid: nodes of a mesh, torus or HAEC Box; chips of Tianhe-3, whose nodes follow
// in natural order, left half first), and ranks 0, 1, 2, ... fill that node order, `cores`
// ranks per node. With more nodes than ranks the curve's tail stays empty. Communication
// oblivious: the matrix only gives the number of ranks.

#include "mappers/Factories.hpp"
#include "mappers/MachineGrid.hpp"
#include "mappers/NodePool.hpp"
#include "mappers/SpaceFillingCurves.hpp"

namespace mapsim::map {
namespace {

class CurveMapper final : public Mapper {
 public:
  explicit CurveMapper(Curve curve) : curve_(curve) {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const MachineGrid grid(p.topology);
    const auto cells = curve_order(grid.extents(), curve_);
    std::vector<topo::NodeId> nodes;
    nodes.reserve(static_cast<std::size_t>(p.topology.node_count()));
    for (const auto cell : cells) {
      for (int k = 0; k < grid.nodes_per_cell(); ++k) nodes.push_back(grid.first_node(cell) + k);
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
