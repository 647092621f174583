#include "mappers/NodePool.hpp"

#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "mappers/CommGraph.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Scans below this size run sequentially: the parallel overhead would dominate.
constexpr std::size_t kParallelScan = 8192;

struct Candidate {
  std::int64_t cost = std::numeric_limits<std::int64_t>::max();
  NodeId node = std::numeric_limits<NodeId>::max();

  [[nodiscard]] bool better_than(const Candidate& o) const {
    return cost < o.cost || (cost == o.cost && node < o.node);
  }
};

// Arg-min of cost over `nodes`; (cost, id) is a total order, so the answer is the same however
// the range is split.
template <typename Cost>
Candidate arg_min(std::span<const NodeId> nodes, const Cost& cost) {
  auto scan = [&](std::size_t begin, std::size_t end, Candidate best) {
    for (std::size_t k = begin; k < end; ++k) {
      const Candidate c{cost(nodes[k]), nodes[k]};
      if (c.better_than(best)) best = c;
    }
    return best;
  };
  if (nodes.size() < kParallelScan) return scan(0, nodes.size(), Candidate{});
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, nodes.size(), 2048), Candidate{},
      [&](const tbb::blocked_range<std::size_t>& r, Candidate best) {
        return scan(r.begin(), r.end(), best);
      },
      [](const Candidate& a, const Candidate& b) { return a.better_than(b) ? a : b; });
}

}  // namespace

NodePool::NodePool(const topo::Topology& topology)
    : topology_(&topology),
      room_(static_cast<std::size_t>(topology.node_count()), topology.cores_per_node()),
      position_(static_cast<std::size_t>(topology.node_count())) {
  free_.reserve(static_cast<std::size_t>(topology.node_count()));
  for (NodeId n = 0; n < topology.node_count(); ++n) {
    position_[static_cast<std::size_t>(n)] = static_cast<std::int32_t>(free_.size());
    free_.push_back(n);
  }
}

void NodePool::take(NodeId node) {
  auto& room = room_[static_cast<std::size_t>(node)];
  MAPSIM_EXPECTS(room > 0, "a mapper placed a rank on a full node");
  if (--room > 0) return;
  const auto at = static_cast<std::size_t>(position_[static_cast<std::size_t>(node)]);
  free_[at] = free_.back();
  position_[static_cast<std::size_t>(free_[at])] = static_cast<std::int32_t>(at);
  free_.pop_back();
  position_[static_cast<std::size_t>(node)] = -1;
}

NodeId NodePool::nearest(NodeId from) const {
  MAPSIM_EXPECTS(!free_.empty(), "no free node left");
  if (has_room(from)) return from;
  return arg_min(std::span<const NodeId>(free_),
                 [&](NodeId n) { return static_cast<std::int64_t>(topology_->hops(from, n)); })
      .node;
}

NodeId NodePool::best(const std::function<std::int64_t(NodeId)>& cost) const {
  MAPSIM_EXPECTS(!free_.empty(), "no free node left");
  return arg_min(std::span<const NodeId>(free_), cost).node;
}

NodeId NodePool::nearest(NodeId from, const std::function<std::int64_t(NodeId)>& tie_cost) const {
  MAPSIM_EXPECTS(!free_.empty(), "no free node left");
  if (has_room(from)) return from;
  const auto closest = arg_min(std::span<const NodeId>(free_), [&](NodeId n) {
    return static_cast<std::int64_t>(topology_->hops(from, n));
  });
  std::vector<NodeId> tied;
  for (const NodeId n : free_) {
    if (topology_->hops(from, n) == closest.cost) tied.push_back(n);
  }
  if (tied.size() == 1) return tied.front();
  return arg_min(std::span<const NodeId>(tied), tie_cost).node;
}

topo::Mapping fill_in_order(std::span<const Rank> rank_order, std::span<const NodeId> node_order,
                            int cores) {
  std::vector<NodeId> node_of_rank(rank_order.size(), -1);
  for (std::size_t k = 0; k < rank_order.size(); ++k) {
    const auto slot = k / static_cast<std::size_t>(cores);
    MAPSIM_EXPECTS(slot < node_order.size(), "the node order is too short for the ranks");
    node_of_rank[static_cast<std::size_t>(rank_order[k])] = node_order[slot];
  }
  return topo::Mapping(std::move(node_of_rank));
}

topo::Mapping fill_in_order(Rank ranks, std::span<const NodeId> node_order, int cores) {
  std::vector<Rank> order(static_cast<std::size_t>(ranks));
  for (Rank r = 0; r < ranks; ++r) order[static_cast<std::size_t>(r)] = r;
  return fill_in_order(order, node_order, cores);
}

std::int64_t repair_capacity(std::vector<NodeId>& node_of_rank, const CommGraph& graph,
                             const topo::Topology& topology) {
  NodePool pool(topology);
  std::vector<Rank> excess;
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const NodeId node = node_of_rank[r];
    if (pool.has_room(node)) {
      pool.take(node);
    } else {
      excess.push_back(static_cast<Rank>(r));
    }
  }
  for (const Rank r : excess) {
    const NodeId from = node_of_rank[static_cast<std::size_t>(r)];
    const NodeId to = pool.nearest(from, [&](NodeId candidate) {
      return metrics::move_delta(graph, topology, node_of_rank, r, candidate);
    });
    pool.take(to);
    node_of_rank[static_cast<std::size_t>(r)] = to;
  }
  return static_cast<std::int64_t>(excess.size());
}

NodeId centre_node(const topo::Topology& topology) {
  std::vector<int> coords;
  for (const int extent : topology.dimensions()) coords.push_back(extent / 2);
  return topology.node_at(coords);
}

}  // namespace mapsim::map
