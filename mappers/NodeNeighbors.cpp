#include "mappers/NodeNeighbors.hpp"

#include <algorithm>
#include <cstdlib>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace mapsim::map {

using topo::NodeId;

NodeNeighbors::NodeNeighbors(const topo::Topology& topology, std::size_t near_limit) {
  const NodeId nodes = topology.node_count();
  const auto un = static_cast<std::size_t>(nodes);
  const auto vertices = static_cast<std::size_t>(topology.vertex_count());

  // Out-links of every vertex (CSR).
  std::vector<std::size_t> out_start(vertices + 1, 0);
  for (topo::LinkId id = 0; id < topology.link_count(); ++id)
    ++out_start[static_cast<std::size_t>(topology.link(id).from) + 1];
  for (std::size_t v = 0; v < vertices; ++v) out_start[v + 1] += out_start[v];
  std::vector<topo::VertexId> out(out_start[vertices]);
  {
    std::vector<std::size_t> fill(out_start.begin(), out_start.end() - 1);
    for (topo::LinkId id = 0; id < topology.link_count(); ++id) {
      const auto link = topology.link(id);
      out[fill[static_cast<std::size_t>(link.from)]++] = link.to;
    }
  }

  // Adjacent nodes: through links, and through one router that is not a node.
  std::vector<std::vector<NodeId>> adjacent(un);
  tbb::parallel_for(tbb::blocked_range<NodeId>(0, nodes, 64), [&](const auto& range) {
    for (NodeId n = range.begin(); n != range.end(); ++n) {
      auto& list = adjacent[static_cast<std::size_t>(n)];
      auto visit = [&](topo::VertexId v, bool via_router) {
        if (v < nodes) {
          if (v != n && topology.hops(n, v) <= 1) list.push_back(v);
          return;
        }
        if (via_router) return;  // a second router: farther than one hop
        for (std::size_t k = out_start[static_cast<std::size_t>(v)];
             k < out_start[static_cast<std::size_t>(v) + 1]; ++k) {
          if (out[k] < nodes && out[k] != n && topology.hops(n, out[k]) <= 1)
            list.push_back(out[k]);
        }
      };
      for (std::size_t k = out_start[static_cast<std::size_t>(n)];
           k < out_start[static_cast<std::size_t>(n) + 1]; ++k) {
        visit(out[k], false);
      }
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
  });

  std::vector<int> coords;
  const std::size_t dims = topology.dimensions().size();
  coords.reserve(un * dims);
  for (NodeId n = 0; n < nodes; ++n) {
    const auto c = topology.coordinates(n);
    coords.insert(coords.end(), c.begin(), c.end());
  }
  auto distance = [&](NodeId a, NodeId b) {
    int d = 0;
    for (std::size_t k = 0; k < dims; ++k)
      d += std::abs(coords[static_cast<std::size_t>(a) * dims + k] -
                    coords[static_cast<std::size_t>(b) * dims + k]);
    return d;
  };

  // Near nodes: breadth first over the links, layer by layer, until a layer brings the count to
  // near_limit (or nothing is left), then the nearest of those.
  std::vector<std::vector<NodeId>> near(un);
  const std::size_t limit = std::min<std::size_t>(near_limit, un > 0 ? un - 1 : 0);
  tbb::parallel_for(tbb::blocked_range<NodeId>(0, nodes, 64), [&](const auto& range) {
    std::vector<std::uint32_t> seen(vertices, 0);
    std::uint32_t stamp = 0;
    std::vector<topo::VertexId> layer;
    std::vector<topo::VertexId> next;
    std::vector<NodeId> found;
    for (NodeId n = range.begin(); n != range.end(); ++n) {
      ++stamp;
      found.clear();
      layer.assign(1, n);
      seen[static_cast<std::size_t>(n)] = stamp;
      while (found.size() < limit && !layer.empty()) {
        next.clear();
        for (const topo::VertexId v : layer) {
          for (std::size_t k = out_start[static_cast<std::size_t>(v)];
               k < out_start[static_cast<std::size_t>(v) + 1]; ++k) {
            const topo::VertexId w = out[k];
            if (seen[static_cast<std::size_t>(w)] == stamp) continue;
            seen[static_cast<std::size_t>(w)] = stamp;
            next.push_back(w);
            if (w < nodes) found.push_back(w);
          }
        }
        layer.swap(next);
      }
      struct Key {
        int hops;
        int distance;
        NodeId node;
        bool operator<(const Key& o) const {
          if (hops != o.hops) return hops < o.hops;
          if (distance != o.distance) return distance < o.distance;
          return node < o.node;
        }
      };
      std::vector<Key> keys;
      keys.reserve(found.size());
      for (const NodeId m : found) keys.push_back({topology.hops(n, m), distance(n, m), m});
      const std::size_t keep = std::min(limit, keys.size());
      std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(keep), keys.end());
      auto& result = near[static_cast<std::size_t>(n)];
      for (std::size_t k = 0; k < keep; ++k) result.push_back(keys[k].node);
    }
  });

  auto flatten = [&](const std::vector<std::vector<NodeId>>& lists, std::vector<std::size_t>& start,
                     std::vector<NodeId>& items) {
    start.assign(un + 1, 0);
    for (std::size_t n = 0; n < un; ++n) start[n + 1] = start[n] + lists[n].size();
    items.reserve(start[un]);
    for (const auto& list : lists) items.insert(items.end(), list.begin(), list.end());
  };
  flatten(adjacent, adjacent_start_, adjacent_);
  flatten(near, near_start_, near_);
}

}  // namespace mapsim::map
