#include "topologies/Block.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "support/Error.hpp"
#include "topologies/NodeSubset.hpp"

namespace mapsim::topo {
namespace {

struct Candidate {
  std::vector<int> extents;
  BlockStats stats;
  std::int64_t volume = 0;
  double average = 0;
  NodeId last = 0;  // the block's last node in natural order: node_at(extents - 1)

  [[nodiscard]] bool better_than(const Candidate& o) const {
    if (stats.diameter != o.stats.diameter) return stats.diameter < o.stats.diameter;
    if (volume != o.volume) return volume < o.volume;
    if (average != o.average) return average < o.average;
    return last < o.last;  // distinct blocks have distinct last nodes
  }
};

class Search {
 public:
  Search(const Topology& topology, NodeId nodes)
      : topology_(topology),
        nodes_(nodes),
        dims_(topology.dimensions()),
        extents_(dims_.size(), 1) {}

  std::optional<Candidate> run() {
    visit(0, 1);
    return best_;
  }

 private:
  void visit(std::size_t d, std::int64_t volume) {
    const std::size_t last = dims_.size() - 1;
    if (d == last || volume >= nodes_) {
      // Every further dimension but the last stays 1; the last takes the least extent (that the
      // kind allows) reaching the nodes: a larger one has no smaller diameter and more nodes.
      for (std::size_t k = d; k < last; ++k) extents_[k] = 1;
      const std::int64_t need = (nodes_ + volume - 1) / volume;
      for (auto e = static_cast<int>(std::max<std::int64_t>(1, need)); e <= dims_[last]; ++e) {
        extents_[last] = e;
        if (const auto stats = topology_.block_stats(extents_)) {
          consider(*stats, volume * e);
          break;
        }
      }
      for (std::size_t k = d; k <= last; ++k) extents_[k] = 1;
      return;
    }
    const int top = static_cast<int>(std::min<std::int64_t>(dims_[d], nodes_));
    for (int e = 1; e <= top; ++e) {
      extents_[d] = e;
      visit(d + 1, volume * e);
    }
    extents_[d] = 1;
  }

  void consider(const BlockStats& stats, std::int64_t volume) {
    const double pairs = static_cast<double>(volume) * static_cast<double>(volume - 1);
    std::vector<int> corner(extents_);
    for (int& c : corner) --c;
    Candidate c{extents_, stats, volume, pairs == 0 ? 0.0 : stats.total_hops / pairs,
                topology_.node_at(corner)};
    if (!best_ || c.better_than(*best_)) best_ = std::move(c);
  }

  const Topology& topology_;
  std::int64_t nodes_;
  std::span<const int> dims_;
  std::vector<int> extents_;
  std::optional<Candidate> best_;
};

}  // namespace

Block compact_block_shape(const Topology& topology, NodeId nodes) {
  MAPSIM_EXPECTS(nodes >= 1 && nodes <= topology.node_count(),
                 "a compact block of between 1 node and the whole machine");
  MAPSIM_EXPECTS(!topology.prefix_blocks(), "a hierarchical machine's blocks are prefixes");
  const auto found = Search(topology, nodes).run();
  // The whole machine is always a candidate (the last dimension whole, the others too).
  MAPSIM_EXPECTS(found.has_value(), "the whole machine is a block");
  Block block;
  block.extents = found->extents;
  block.stats = found->stats;
  return block;
}

Block compact_block(const Topology& topology, NodeId nodes) {
  if (topology.prefix_blocks()) {
    Block block;
    block.nodes.resize(static_cast<std::size_t>(nodes));
    std::iota(block.nodes.begin(), block.nodes.end(), NodeId{0});
    block.machine = std::make_unique<NodeSubset>(topology, block.nodes);
    return block;
  }
  Block block = compact_block_shape(topology, nodes);
  block.machine = topology.block(block.extents);
  block.nodes.reserve(static_cast<std::size_t>(block.machine->node_count()));
  for (NodeId k = 0; k < block.machine->node_count(); ++k) {
    block.nodes.push_back(topology.node_at(block.machine->coordinates(k)));
  }
  return block;
}

}  // namespace mapsim::topo
