#include "mappers/NearBlocks.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace mapsim::map {

using topo::NodeId;

namespace {

// The blocks of one grouping S: ids 0, 1, ... in the order of the coordinates outside S.
struct Grouping {
  std::vector<std::int32_t> block;  // per node
  std::vector<std::int32_t> size;   // per block
};

Grouping group_by(const topo::Topology& topology, const std::vector<int>& coords, unsigned s) {
  const auto nodes = static_cast<std::size_t>(topology.node_count());
  const auto extents = topology.dimensions();
  const std::size_t dims = extents.size();
  std::vector<std::int64_t> key(nodes, 0);
  for (std::size_t n = 0; n < nodes; ++n) {
    std::int64_t k = 0;
    for (std::size_t d = dims; d-- > 0;) {
      if ((s >> d) & 1U) continue;
      k = k * extents[d] + coords[n * dims + d];
    }
    key[n] = k;
  }
  std::vector<std::int64_t> keys = key;
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  Grouping g{std::vector<std::int32_t>(nodes), std::vector<std::int32_t>(keys.size(), 0)};
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto id = std::lower_bound(keys.begin(), keys.end(), key[n]) - keys.begin();
    g.block[n] = static_cast<std::int32_t>(id);
    ++g.size[static_cast<std::size_t>(id)];
  }
  return g;
}

// Splits N(z) into the whole blocks G(z) and the explicit nodes E(z), both sorted. `count` has
// one zero per block and is left so.
struct Split {
  std::vector<std::int32_t> whole;
  std::vector<NodeId> loose;
};

void split(const NodeNeighbors& neighbors, const Grouping& g, NodeId z,
           std::vector<std::int32_t>& count, Split& out) {
  out.whole.clear();
  out.loose.clear();
  const auto adjacent = neighbors.adjacent(z);
  auto block_of = [&](NodeId n) { return g.block[static_cast<std::size_t>(n)]; };
  auto tally = [&](NodeId n, std::int32_t by) {
    count[static_cast<std::size_t>(block_of(n))] += by;
  };
  tally(z, 1);
  for (const NodeId m : adjacent) tally(m, 1);
  auto whole = [&](NodeId n) {
    const auto b = static_cast<std::size_t>(block_of(n));
    return g.size[b] >= 2 && count[b] == g.size[b];
  };
  auto place = [&](NodeId n) {
    if (!whole(n)) {
      out.loose.push_back(n);
    } else if (std::find(out.whole.begin(), out.whole.end(), block_of(n)) == out.whole.end()) {
      out.whole.push_back(block_of(n));
    }
  };
  // adjacent(z) is sorted; z goes in its place among them.
  bool placed = false;
  for (const NodeId m : adjacent) {
    if (!placed && z < m) {
      place(z);
      placed = true;
    }
    place(m);
  }
  if (!placed) place(z);
  tally(z, -1);
  for (const NodeId m : adjacent) tally(m, -1);
  std::sort(out.whole.begin(), out.whole.end());
}

// Sum over z of |E(z)| + |G(z)| for grouping g.
std::size_t cost_of(const NodeNeighbors& neighbors, const Grouping& g, NodeId nodes) {
  std::vector<std::size_t> cost(static_cast<std::size_t>(nodes), 0);
  tbb::parallel_for(tbb::blocked_range<NodeId>(0, nodes, 64), [&](const auto& range) {
    std::vector<std::int32_t> count(g.size.size(), 0);
    Split out;
    for (NodeId z = range.begin(); z != range.end(); ++z) {
      split(neighbors, g, z, count, out);
      cost[static_cast<std::size_t>(z)] = out.whole.size() + out.loose.size();
    }
  });
  return std::accumulate(cost.begin(), cost.end(), std::size_t{0});
}

}  // namespace

NearBlocks::NearBlocks(const topo::Topology& topology, const NodeNeighbors& neighbors) {
  const NodeId nodes = topology.node_count();
  const auto un = static_cast<std::size_t>(nodes);
  const auto extents = topology.dimensions();
  const std::size_t dims = extents.size();
  std::vector<int> coords;
  coords.reserve(un * dims);
  for (NodeId n = 0; n < nodes; ++n) {
    const auto c = topology.coordinates(n);
    coords.insert(coords.end(), c.begin(), c.end());
  }

  // The dimensions worth grouping (extent >= 2); all their subsets when they are at most 4,
  // else only the single ones (on many-dimensional grids a block of more than one dimension
  // holds diagonal nodes, never near).
  unsigned useful = 0;
  for (std::size_t d = 0; d < dims; ++d)
    if (extents[d] >= 2) useful |= 1U << d;
  std::vector<unsigned> candidates;
  if (std::popcount(useful) <= 4) {
    for (unsigned s = 1; s < (1U << dims); ++s)
      if ((s & ~useful) == 0) candidates.push_back(s);
  } else {
    for (std::size_t d = 0; d < dims; ++d)
      if ((useful >> d) & 1U) candidates.push_back(1U << d);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });

  Grouping best = group_by(topology, coords, 0);
  std::size_t best_cost = cost_of(neighbors, best, nodes);
  for (const unsigned s : candidates) {
    Grouping g = group_by(topology, coords, s);
    const std::size_t cost = cost_of(neighbors, g, nodes);
    if (cost < best_cost) {
      best = std::move(g);
      best_cost = cost;
      grouped_ = s;
    }
  }

  std::vector<Split> splits(un);
  tbb::parallel_for(tbb::blocked_range<NodeId>(0, nodes, 64), [&](const auto& range) {
    std::vector<std::int32_t> count(best.size.size(), 0);
    for (NodeId z = range.begin(); z != range.end(); ++z)
      split(neighbors, best, z, count, splits[static_cast<std::size_t>(z)]);
  });
  block_count_ = static_cast<std::int32_t>(best.size.size());
  block_ = std::move(best.block);
  whole_start_.assign(un + 1, 0);
  explicit_start_.assign(un + 1, 0);
  explicit_in_start_.assign(un + 1, 0);
  for (std::size_t z = 0; z < un; ++z) {
    whole_start_[z + 1] = whole_start_[z] + splits[z].whole.size();
    explicit_start_[z + 1] = explicit_start_[z] + splits[z].loose.size();
    for (const NodeId x : splits[z].loose) ++explicit_in_start_[static_cast<std::size_t>(x) + 1];
  }
  for (std::size_t x = 0; x < un; ++x) explicit_in_start_[x + 1] += explicit_in_start_[x];
  explicit_in_.resize(explicit_in_start_[un]);
  std::vector<std::size_t> fill(explicit_in_start_.begin(), explicit_in_start_.end() - 1);
  for (std::size_t z = 0; z < un; ++z) {
    whole_.insert(whole_.end(), splits[z].whole.begin(), splits[z].whole.end());
    explicit_.insert(explicit_.end(), splits[z].loose.begin(), splits[z].loose.end());
    // z increases, so every inverse list comes out sorted.
    for (const NodeId x : splits[z].loose)
      explicit_in_[fill[static_cast<std::size_t>(x)]++] = static_cast<NodeId>(z);
  }
}

}  // namespace mapsim::map
