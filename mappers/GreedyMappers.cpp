// Greedy constructive mappers.
//
// greedy — Hoefler & Snir (ICS 2011) as the OHTMA paper (sec. 3) describes it: "chooses one of
// the processes with the heaviest out-degree and greedily maps its heaviest neighbouring
// processes to the neighbouring processors with the heaviest connections". Here:
//   1. Start a component with the unmapped rank of largest traffic (bytes in + out, or messages
//      with weight=messages; ties: the lowest rank) on the free node nearest the machine's
//      centre (the best-connected place of a mesh; any place of a torus).
//   2. Repeatedly take the unmapped rank with the heaviest connection to the mapped ranks (ties:
//      larger total traffic, then the lowest rank) and put it on the free node nearest the node
//      of its heaviest mapped neighbour; among equally near nodes, the one with the least
//      weighted hops to all its mapped neighbours (then the lowest id).
//   3. When no unmapped rank talks to a mapped one, start a new component (step 1).
// The seed papers are silent on the start node and on ties; those choices are ours. Hoefler &
// Snir also weigh routes by the congestion mapped so far; the OHTMA description does not, and
// neither do we. A node with cores left is free (NodePool), so with several cores per node a
// rank's heaviest partner's node is its first choice; with more nodes than ranks the mapping
// stays around the centre.
//
// minmd — minimum Manhattan distance, the HAEC thesis's Algorithm 2 (sec. 3.2): communicating
// pairs in decreasing order of weight (bytes both ways, or messages; ties: the lower pair
// (u, v) first); a pair with one end mapped puts the other on the free node nearest it; a pair
// with neither mapped puts u nearest the start node (floor(d_k / 2) per dimension) and v nearest
// u. NEARESTNEIGHBOR is exact: the free node with the fewest hops (ties: the lowest id), which is
// what the thesis's breadth-first search finds up to its tie order. The thesis raises the
// process-per-node limit when no node is free; here a node holds at most `cores` ranks and the
// machine always has room (nodes * cores >= ranks). Ranks that communicate with nobody are
// placed last, in rank order, nearest the start node.
//
// Both work on any machine through Topology::hops: fat-trees, dragonflies, Cascade, Slurm trees,
// allocations. The "centre" of a machine without a grid of its own (an allocation or a small
// job's first nodes, seen as a NodeSubset; a Slurm cluster) is its middle node in natural order
// (coordinate floor(n / 2) of its one dimension); on a hierarchy every node is as central.

#include <algorithm>
#include <queue>

#include "mappers/Factories.hpp"
#include "mappers/NodePool.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

constexpr ParamSpec kWeightParams[] = {
    {"weight", ParamType::Choice, "bytes", "edge weight: bytes exchanged or number of messages", 0,
     0, "bytes|messages"},
};

std::uint64_t weight_of(const Neighbor& nb, bool messages) {
  return messages ? nb.messages() : nb.bytes();
}

class Greedy final : public Mapper {
 public:
  explicit Greedy(const ParamValues& params) : messages_(params.text("weight") == "messages") {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    const auto n = static_cast<std::size_t>(p.ranks());
    std::vector<std::uint64_t> total(n, 0);
    for (Rank r = 0; r < p.ranks(); ++r) {
      for (const auto& nb : p.graph.neighbors(r))
        total[static_cast<std::size_t>(r)] += weight_of(nb, messages_);
    }
    std::vector<Rank> by_total(n);
    for (Rank r = 0; r < p.ranks(); ++r) by_total[static_cast<std::size_t>(r)] = r;
    std::stable_sort(by_total.begin(), by_total.end(), [&](Rank a, Rank b) {
      return total[static_cast<std::size_t>(a)] > total[static_cast<std::size_t>(b)];
    });

    struct Entry {
      std::uint64_t connection;
      std::uint64_t total;
      Rank rank;
      bool operator<(const Entry& o) const {  // max-heap: heaviest, then larger total, lower rank
        if (connection != o.connection) return connection < o.connection;
        if (total != o.total) return total < o.total;
        return rank > o.rank;
      }
    };
    std::priority_queue<Entry> heap;
    std::vector<std::uint64_t> connection(n, 0);
    std::vector<NodeId> node_of(n, -1);
    NodePool pool(p.topology);
    const NodeId centre = centre_node(p.topology);
    std::size_t next_start = 0;
    auto place = [&](Rank r, NodeId node) {
      node_of[static_cast<std::size_t>(r)] = node;
      pool.take(node);
      for (const auto& nb : p.graph.neighbors(r)) {
        const auto u = static_cast<std::size_t>(nb.rank);
        if (node_of[u] != -1) continue;
        connection[u] += weight_of(nb, messages_);
        heap.push({connection[u], total[u], nb.rank});
      }
    };
    for (Rank placed = 0; placed < p.ranks(); ++placed) {
      Rank r = -1;
      while (!heap.empty()) {
        const Entry top = heap.top();
        heap.pop();
        const auto k = static_cast<std::size_t>(top.rank);
        if (node_of[k] == -1 && top.connection == connection[k]) {
          r = top.rank;
          break;
        }
      }
      if (r == -1) {  // a new component
        while (node_of[static_cast<std::size_t>(by_total[next_start])] != -1) ++next_start;
        r = by_total[next_start];
        place(r, pool.nearest(centre));
        continue;
      }
      const Neighbor* heaviest = nullptr;
      for (const auto& nb : p.graph.neighbors(r)) {
        if (node_of[static_cast<std::size_t>(nb.rank)] == -1) continue;
        if (heaviest == nullptr || weight_of(nb, messages_) > weight_of(*heaviest, messages_)) {
          heaviest = &nb;
        }
      }
      const NodeId anchor = node_of[static_cast<std::size_t>(heaviest->rank)];
      const auto neighbors = p.graph.neighbors(r);
      place(r, pool.nearest(anchor, [&](NodeId candidate) {
        std::int64_t cost = 0;
        for (const auto& nb : neighbors) {
          const NodeId at = node_of[static_cast<std::size_t>(nb.rank)];
          if (at == -1) continue;
          cost +=
              static_cast<std::int64_t>(weight_of(nb, messages_)) * p.topology.hops(candidate, at);
        }
        return cost;
      }));
    }
    return topo::Mapping(std::move(node_of));
  }

 private:
  bool messages_;
};

class MinMd final : public Mapper {
 public:
  explicit MinMd(const ParamValues& params) : messages_(params.text("weight") == "messages") {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    struct Pair {
      std::uint64_t weight;
      Rank u;
      Rank v;
    };
    std::vector<Pair> pairs;
    pairs.reserve(p.graph.edge_count());
    for (Rank u = 0; u < p.ranks(); ++u) {
      for (const auto& nb : p.graph.neighbors(u)) {
        if (nb.rank > u) pairs.push_back({weight_of(nb, messages_), u, nb.rank});
      }
    }
    // Stable: pairs of equal weight keep their (u, v) order.
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const Pair& a, const Pair& b) { return a.weight > b.weight; });
    std::vector<NodeId> node_of(static_cast<std::size_t>(p.ranks()), -1);
    NodePool pool(p.topology);
    const NodeId start = centre_node(p.topology);
    auto place = [&](Rank r, NodeId near) {
      const NodeId node = pool.nearest(near);
      pool.take(node);
      node_of[static_cast<std::size_t>(r)] = node;
    };
    for (const auto& [weight, u, v] : pairs) {
      const NodeId fu = node_of[static_cast<std::size_t>(u)];
      const NodeId fv = node_of[static_cast<std::size_t>(v)];
      if (fu != -1 && fv == -1) {
        place(v, fu);
      } else if (fu == -1 && fv != -1) {
        place(u, fv);
      } else if (fu == -1 && fv == -1) {
        place(u, start);
        place(v, node_of[static_cast<std::size_t>(u)]);
      }
    }
    for (Rank r = 0; r < p.ranks(); ++r) {
      if (node_of[static_cast<std::size_t>(r)] == -1) place(r, start);
    }
    return topo::Mapping(std::move(node_of));
  }

 private:
  bool messages_;
};

}  // namespace

std::span<const ParamSpec> greedy_params() {
  return kWeightParams;
}
std::unique_ptr<Mapper> make_greedy(const ParamValues& params) {
  return std::make_unique<Greedy>(params);
}
std::span<const ParamSpec> minmd_params() {
  return kWeightParams;
}
std::unique_ptr<Mapper> make_minmd(const ParamValues& params) {
  return std::make_unique<MinMd>(params);
}

}  // namespace mapsim::map
