#include "mappers/Hierarchy.hpp"

#include <algorithm>

#include "mappers/MachineGrid.hpp"
#include "support/Error.hpp"

namespace mapsim::map {

using topo::NodeId;

Hierarchy::Hierarchy(const topo::Topology& topology)
    : Hierarchy(topology.node_count(), topology.levels()) {}

Hierarchy::Hierarchy(NodeId nodes, std::vector<topo::NodeLevel> levels) {
  const auto un = static_cast<std::size_t>(nodes);
  width_.push_back(nodes);
  names_.emplace_back("node");
  group_.emplace_back();
  child_start_.emplace_back();
  children_.emplace_back();
  size_.emplace_back();
  middle_.emplace_back();

  auto add_level = [&](std::string name, std::int32_t groups, std::vector<std::int32_t> group) {
    const int t = static_cast<int>(width_.size());
    const std::int32_t below = width_.back();
    // Parents of the vertices below, checking that the levels nest.
    std::vector<std::int32_t> parent(static_cast<std::size_t>(below), -1);
    std::vector<NodeId> size(static_cast<std::size_t>(groups), 0);
    for (NodeId n = 0; n < nodes; ++n) {
      const std::int32_t g = group[static_cast<std::size_t>(n)];
      MAPSIM_EXPECTS(g >= 0 && g < groups, "a machine level numbers its groups 0 .. groups - 1");
      auto& p = parent[static_cast<std::size_t>(this->group(t - 1, n))];
      MAPSIM_EXPECTS(p == -1 || p == g,
                     "each group of a machine level lies within one of the next");
      p = g;
      ++size[static_cast<std::size_t>(g)];
    }
    std::vector<std::size_t> start(static_cast<std::size_t>(groups) + 1, 0);
    for (const auto p : parent) ++start[static_cast<std::size_t>(p) + 1];
    for (std::size_t g = 0; g < static_cast<std::size_t>(groups); ++g) start[g + 1] += start[g];
    std::vector<std::int32_t> list(static_cast<std::size_t>(below));
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    // Children in increasing id: natural order, as ids are.
    for (std::int32_t c = 0; c < below; ++c)
      list[fill[static_cast<std::size_t>(parent[static_cast<std::size_t>(c)])]++] = c;
    std::vector<NodeId> middle(static_cast<std::size_t>(groups), -1);
    std::vector<NodeId> seen(static_cast<std::size_t>(groups), 0);
    for (NodeId n = 0; n < nodes; ++n) {
      const auto g = static_cast<std::size_t>(group[static_cast<std::size_t>(n)]);
      if (seen[g]++ == (size[g] - 1) / 2) middle[g] = n;
    }
    middle_.push_back(std::move(middle));
    width_.push_back(groups);
    names_.push_back(std::move(name));
    group_.push_back(std::move(group));
    child_start_.push_back(std::move(start));
    children_.push_back(std::move(list));
    size_.push_back(std::move(size));
  };
  for (auto& level : levels) {
    if (level.groups <= 1 || level.groups == width_.back()) continue;
    MAPSIM_EXPECTS(level.group.size() == un, "a machine level gives every node a group");
    add_level(std::move(level.name), level.groups, std::move(level.group));
  }
  add_level("machine", 1, std::vector<std::int32_t>(un, 0));
}

std::vector<std::vector<NodeId>> Hierarchy::members(int t) const {
  std::vector<std::vector<NodeId>> out(static_cast<std::size_t>(width(t)));
  for (NodeId n = 0; n < width(0); ++n) out[static_cast<std::size_t>(group(t, n))].push_back(n);
  return out;
}

std::vector<NodeId> deal(const std::vector<std::vector<NodeId>>& groups, std::int64_t count,
                         int per_node) {
  std::vector<NodeId> node_of;
  node_of.reserve(static_cast<std::size_t>(count));
  std::vector<std::int64_t> placed(groups.size(), 0);
  while (static_cast<std::int64_t>(node_of.size()) < count) {
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (static_cast<std::int64_t>(node_of.size()) == count) break;
      const auto at = static_cast<std::size_t>(placed[g] / per_node);
      if (at == groups[g].size()) continue;  // full
      node_of.push_back(groups[g][at]);
      ++placed[g];
    }
  }
  return node_of;
}

std::vector<topo::NodeLevel> box_levels(const topo::Topology& machine,
                                        std::span<const NodeId> nodes) {
  const MachineGrid grid(machine);
  const auto extents = grid.extents();
  const std::size_t dims = extents.size();
  struct Box {
    std::vector<int> lo;
    std::vector<int> hi;  // exclusive
  };
  auto volume = [&](const Box& b) {
    std::int64_t v = 1;
    for (std::size_t d = 0; d < dims; ++d) v *= b.hi[d] - b.lo[d];
    return v;
  };
  // Each machine node's group at every depth, outermost first.
  std::vector<topo::NodeLevel> outer_first;
  std::vector<Box> boxes{Box{std::vector<int>(dims, 0), {extents.begin(), extents.end()}}};
  for (;;) {
    std::vector<Box> next;
    bool split = false;
    for (const auto& box : boxes) {
      if (volume(box) == 1) {
        next.push_back(box);
        continue;
      }
      std::size_t across = 0;
      for (std::size_t d = 1; d < dims; ++d) {
        if (box.hi[d] - box.lo[d] >= box.hi[across] - box.lo[across]) across = d;
      }
      const int mid = box.lo[across] + (box.hi[across] - box.lo[across] + 1) / 2;
      Box low = box;
      Box high = box;
      low.hi[across] = mid;
      high.lo[across] = mid;
      next.push_back(std::move(low));
      next.push_back(std::move(high));
      split = true;
    }
    if (!split) break;
    // Natural order: by the lowest cell of each box.
    std::sort(next.begin(), next.end(),
              [&](const Box& a, const Box& b) { return grid.cell_at(a.lo) < grid.cell_at(b.lo); });
    topo::NodeLevel level{
        "block", static_cast<std::int32_t>(next.size()),
        std::vector<std::int32_t>(static_cast<std::size_t>(machine.node_count()))};
    std::vector<int> c(dims);
    for (std::size_t b = 0; b < next.size(); ++b) {
      const auto& box = next[b];
      c = box.lo;
      for (;;) {  // every cell of the box
        const int cell = grid.cell_at(c);
        for (int k = 0; k < grid.nodes_per_cell(); ++k)
          level.group[static_cast<std::size_t>(grid.first_node(cell) + k)] =
              static_cast<std::int32_t>(b);
        std::size_t d = 0;
        while (d < dims && ++c[d] == box.hi[d]) {
          c[d] = box.lo[d];
          ++d;
        }
        if (d == dims) break;
      }
    }
    outer_first.push_back(std::move(level));
    boxes = std::move(next);
  }
  std::vector<topo::NodeLevel> levels;
  for (auto& level : machine.levels()) {  // finer than a cell
    if (level.groups > grid.cell_count()) levels.push_back(std::move(level));
  }
  for (auto it = outer_first.rbegin(); it != outer_first.rend(); ++it)
    levels.push_back(std::move(*it));
  return topo::restrict_levels(std::move(levels), nodes);
}

}  // namespace mapsim::map
