#include "mappers/IrregularMappers.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>

#include "mappers/NodePool.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

NodeId origin_node(const topo::Topology& topology, Origin origin) {
  return origin == Origin::Corner ? 0 : centre_node(topology);
}

// Graph distances (hops in the communication graph) from `source`; -1 where unreachable.
std::vector<int> graph_distances(const CommGraph& graph, Rank source) {
  std::vector<int> distance(static_cast<std::size_t>(graph.rank_count()), -1);
  std::deque<Rank> queue{source};
  distance[static_cast<std::size_t>(source)] = 0;
  while (!queue.empty()) {
    const Rank u = queue.front();
    queue.pop_front();
    for (const auto& nb : graph.neighbors(u)) {
      auto& d = distance[static_cast<std::size_t>(nb.rank)];
      if (d < 0) {
        d = distance[static_cast<std::size_t>(u)] + 1;
        queue.push_back(nb.rank);
      }
    }
  }
  return distance;
}

// Four "corners" of a set of n points given the distance between two of them: c1 farthest from
// `first`, c2 farthest from c1, c3 the point whose nearer of c1 and c2 is farthest, c4 farthest
// from c3 (on a grid: two opposite corners, then the other two). Ties: the lowest index;
// unreachable points count as farthest of all; a point is never chosen twice.
template <typename Distance>
std::vector<std::int32_t> corners(std::int32_t n, std::int32_t first, const Distance& distance) {
  std::vector<std::int32_t> chosen;
  auto is_chosen = [&](std::int32_t i) {
    return std::find(chosen.begin(), chosen.end(), i) != chosen.end();
  };
  auto argmax = [&](const auto& score) {
    std::int32_t best = -1;
    std::int64_t best_score = -1;
    for (std::int32_t i = 0; i < n; ++i) {
      if (is_chosen(i)) continue;
      const std::int64_t value = score(i);
      if (value > best_score) {
        best = i;
        best_score = value;
      }
    }
    return best;
  };
  auto add_farthest_from = [&](std::int32_t from) {
    const auto c = argmax([&](std::int32_t i) { return distance(from, i); });
    if (c >= 0) chosen.push_back(c);
  };
  add_farthest_from(first);
  if (chosen.empty()) return chosen;
  add_farthest_from(chosen[0]);
  if (chosen.size() < 2) return chosen;
  std::vector<std::int64_t> from_first(static_cast<std::size_t>(n));
  for (std::int32_t i = 0; i < n; ++i)
    from_first[static_cast<std::size_t>(i)] = distance(chosen[0], i);
  const auto c3 = argmax([&](std::int32_t i) {
    return std::min(from_first[static_cast<std::size_t>(i)], distance(chosen[1], i));
  });
  if (c3 < 0) return chosen;
  chosen.push_back(c3);
  add_farthest_from(c3);
  return chosen;
}

class Placer {
 public:
  explicit Placer(const Problem& p)
      : p_(p), pool_(p.topology), node_of_(static_cast<std::size_t>(p.ranks()), -1) {}

  [[nodiscard]] bool placed(Rank r) const { return node_of_[static_cast<std::size_t>(r)] != -1; }
  [[nodiscard]] NodeId node(Rank r) const { return node_of_[static_cast<std::size_t>(r)]; }
  void put(Rank r, NodeId node) {
    pool_.take(node);
    node_of_[static_cast<std::size_t>(r)] = node;
  }
  void put_near(Rank r, NodeId near) { put(r, pool_.nearest(near)); }
  /// Around the centroid of r's mapped neighbours.
  void put_central(Rank r) {
    const auto neighbors = p_.graph.neighbors(r);
    put(r, pool_.best([&](NodeId candidate) {
      std::int64_t total = 0;
      for (const auto& nb : neighbors) {
        const NodeId at = node_of_[static_cast<std::size_t>(nb.rank)];
        if (at != -1) total += p_.topology.hops(candidate, at);
      }
      return total;
    }));
  }
  [[nodiscard]] Rank lowest_unplaced(Rank from) const {
    while (from < p_.ranks() && placed(from)) ++from;
    return from;
  }
  [[nodiscard]] topo::Mapping result() && { return topo::Mapping(std::move(node_of_)); }

 private:
  const Problem& p_;
  NodePool pool_;
  std::vector<NodeId> node_of_;
};

}  // namespace

topo::Mapping breadth_first(const Problem& p, Origin origin) {
  Placer placer(p);
  const NodeId start = origin_node(p.topology, origin);
  Random random(p.seed);
  Rank next = static_cast<Rank>(random.below(static_cast<std::uint64_t>(p.ranks())));
  Rank scan = 0;
  for (;;) {
    placer.put_near(next, start);
    std::deque<Rank> queue{next};
    while (!queue.empty()) {
      const Rank u = queue.front();
      queue.pop_front();
      for (const auto& nb : p.graph.neighbors(u)) {
        if (placer.placed(nb.rank)) continue;
        placer.put_near(nb.rank, placer.node(u));
        queue.push_back(nb.rank);
      }
    }
    scan = placer.lowest_unplaced(scan);
    if (scan == p.ranks()) break;
    next = scan;
  }
  return std::move(placer).result();
}

topo::Mapping max_heap(const Problem& p, Origin origin, bool from_corners) {
  Placer placer(p);
  const auto n = static_cast<std::size_t>(p.ranks());
  std::vector<int> mapped_neighbors(n, 0);
  std::vector<std::uint64_t> mapped_bytes(n, 0);
  struct Entry {
    int count;
    std::uint64_t bytes;
    Rank rank;
    bool operator<(const Entry& o) const {  // max-heap: most mapped neighbours first
      if (count != o.count) return count < o.count;
      if (bytes != o.bytes) return bytes < o.bytes;
      return rank > o.rank;
    }
  };
  std::priority_queue<Entry> heap;
  auto after_placing = [&](Rank r) {
    for (const auto& nb : p.graph.neighbors(r)) {
      if (placer.placed(nb.rank)) continue;
      const auto k = static_cast<std::size_t>(nb.rank);
      ++mapped_neighbors[k];
      mapped_bytes[k] += nb.bytes();
      heap.push({mapped_neighbors[k], mapped_bytes[k], nb.rank});
    }
  };
  auto drain = [&] {
    while (!heap.empty()) {
      const Entry top = heap.top();
      heap.pop();
      const auto k = static_cast<std::size_t>(top.rank);
      if (placer.placed(top.rank) || top.count != mapped_neighbors[k]) continue;  // stale
      placer.put_central(top.rank);
      after_placing(top.rank);
    }
  };

  const NodeId start = origin_node(p.topology, origin);
  if (from_corners && p.ranks() >= 4) {
    // corners() asks for all distances from one rank at a time: keep the last search.
    Rank source = -1;
    std::vector<int> from_source;
    const auto rank_corners = corners(p.ranks(), 0, [&](Rank a, Rank b) -> std::int64_t {
      if (a != source) {
        from_source = graph_distances(p.graph, a);
        source = a;
      }
      const auto d = from_source[static_cast<std::size_t>(b)];
      return d < 0 ? std::numeric_limits<std::int32_t>::max() : d;
    });
    const auto node_corners = corners(p.topology.node_count(), 0, [&](NodeId a, NodeId b) {
      return static_cast<std::int64_t>(p.topology.hops(a, b));
    });
    for (std::size_t k = 0; k < rank_corners.size() && k < node_corners.size(); ++k) {
      if (!placer.placed(rank_corners[k])) placer.put_near(rank_corners[k], node_corners[k]);
    }
    for (const Rank r : rank_corners) after_placing(r);
    drain();
  } else {
    Random random(p.seed);
    const auto first = static_cast<Rank>(random.below(static_cast<std::uint64_t>(p.ranks())));
    placer.put_near(first, start);
    after_placing(first);
    drain();
  }
  for (Rank scan = placer.lowest_unplaced(0); scan < p.ranks();
       scan = placer.lowest_unplaced(scan)) {
    placer.put_near(scan, start);
    after_placing(scan);
    drain();
  }
  return std::move(placer).result();
}

}  // namespace mapsim::map
