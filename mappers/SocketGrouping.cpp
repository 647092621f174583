#include "mappers/SocketGrouping.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <tbb/parallel_for.h>

namespace mapsim::map {
namespace {

/// Kernighan-Lin passes per node at most (each gains, or the search stops).
constexpr int kMaxPasses = 16;

/// Gains: differences of byte sums up to 2^63 - 1 each, exact in 128 bits.
__extension__ using Wide = __int128;

/// The ranks of one node on its sockets (see the header), socket[k] for its k-th lowest rank.
std::vector<int> group_node(std::span<const Rank> ranks, const CommGraph& graph, int sockets,
                            int per_socket) {
  const auto k = ranks.size();
  const auto s_count = static_cast<std::size_t>(sockets);
  // w(i, j): bytes both ways between the node's i-th and j-th ranks.
  std::vector<std::int64_t> w(k * k, 0);
  for (std::size_t i = 0; i < k; ++i) {
    for (const auto& nb : graph.neighbors(ranks[i])) {
      const auto at = std::lower_bound(ranks.begin(), ranks.end(), nb.rank);
      if (at == ranks.end() || *at != nb.rank) continue;
      w[i * k + static_cast<std::size_t>(at - ranks.begin())] =
          static_cast<std::int64_t>(nb.bytes());
    }
  }
  std::vector<int> socket(k);
  std::vector<int> free(s_count, per_socket);
  for (std::size_t i = 0; i < k; ++i) {
    socket[i] = static_cast<int>(i) / per_socket;
    --free[static_cast<std::size_t>(socket[i])];
  }
  // W(i, s) = sum of w(i, j) over the ranks j on socket s.
  std::vector<std::int64_t> to(k * s_count, 0);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      to[i * s_count + static_cast<std::size_t>(socket[j])] += w[i * k + j];
    }
  }
  const auto W = [&](std::size_t i, int s) {
    return static_cast<Wide>(to[i * s_count + static_cast<std::size_t>(s)]);
  };
  const auto relocate = [&](std::size_t i, int s) {
    const int from = socket[i];
    for (std::size_t l = 0; l < k; ++l) {
      to[l * s_count + static_cast<std::size_t>(from)] -= w[l * k + i];
      to[l * s_count + static_cast<std::size_t>(s)] += w[l * k + i];
    }
    socket[i] = s;
  };
  const auto move_to = [&](std::size_t i, int s) {
    ++free[static_cast<std::size_t>(socket[i])];
    --free[static_cast<std::size_t>(s)];
    relocate(i, s);
  };
  // Kernighan-Lin passes: each pass applies the best move or swap of unlocked ranks, even a
  // losing one, locks the ranks it moved, and so on until none is left; then it keeps the prefix
  // of the pass with the greatest total gain (nothing if no prefix gains) and starts over.
  std::vector<std::uint8_t> locked(k);
  struct Step {
    std::size_t i = 0;
    std::size_t j = 0;  // k: a move of i alone
    int i_from = 0;
    int j_from = 0;
  };
  std::vector<Step> pass;
  for (int round = 0; round < kMaxPasses; ++round) {
    std::fill(locked.begin(), locked.end(), 0);
    pass.clear();
    Wide total = 0;
    Wide best_total = 0;
    std::size_t best_length = 0;
    for (std::size_t step = 0; step < k; ++step) {
      bool found = false;
      Wide best = 0;
      std::size_t bi = 0;
      std::size_t bj = k;  // k: a move of bi to socket bs
      int bs = 0;
      const auto consider = [&](Wide gain, std::size_t i, std::size_t j, int b) {
        if (found && gain <= best) return;
        found = true;
        best = gain;
        bi = i;
        bj = j;
        bs = b;
      };
      for (std::size_t i = 0; i < k; ++i) {
        if (locked[i] != 0) continue;
        const int a = socket[i];
        for (int b = 0; b < sockets; ++b) {
          if (b == a || free[static_cast<std::size_t>(b)] == 0) continue;
          consider(W(i, b) - W(i, a), i, k, b);
        }
        for (std::size_t j = i + 1; j < k; ++j) {
          const int b = socket[j];
          if (b == a || locked[j] != 0) continue;
          consider(W(i, b) - W(i, a) + W(j, a) - W(j, b) - 2 * static_cast<Wide>(w[i * k + j]), i,
                   j, b);
        }
      }
      if (!found) break;
      locked[bi] = 1;
      if (bj == k) {
        pass.push_back({bi, k, socket[bi], 0});
        move_to(bi, bs);
      } else {
        locked[bj] = 1;
        const int a = socket[bi];
        pass.push_back({bi, bj, a, bs});
        relocate(bi, bs);
        relocate(bj, a);
      }
      total += best;
      if (total > best_total) {
        best_total = total;
        best_length = pass.size();
      }
    }
    // Undo the pass back to its best prefix.
    while (pass.size() > best_length) {
      const auto step = pass.back();
      pass.pop_back();
      if (step.j == k) {
        move_to(step.i, step.i_from);
      } else {
        relocate(step.i, step.i_from);
        relocate(step.j, step.j_from);
      }
    }
    if (best_total <= 0) break;
  }
  return socket;
}

}  // namespace

topo::Mapping group_sockets(const topo::Mapping& mapping, const CommGraph& graph,
                            const topo::Topology& topology) {
  const int sockets = topology.sockets_per_node();
  const int per_socket = topology.cores_per_socket();
  if (sockets == 1) return mapping;
  // The ranks of every node, in rank order: bucket by node.
  const auto nodes = mapping.nodes();
  std::vector<std::size_t> start(static_cast<std::size_t>(topology.node_count()) + 1, 0);
  for (const auto node : nodes) ++start[static_cast<std::size_t>(node) + 1];
  for (std::size_t n = 1; n < start.size(); ++n) start[n] += start[n - 1];
  std::vector<Rank> by_node(nodes.size());
  {
    auto next = start;
    for (Rank r = 0; r < mapping.rank_count(); ++r) {
      by_node[next[static_cast<std::size_t>(nodes[static_cast<std::size_t>(r)])]++] = r;
    }
  }
  std::vector<std::int32_t> cores(nodes.size(), 0);
  tbb::parallel_for(topo::NodeId{0}, topology.node_count(), [&](topo::NodeId n) {
    const auto first = start[static_cast<std::size_t>(n)];
    const std::span<const Rank> ranks(by_node.data() + first,
                                      start[static_cast<std::size_t>(n) + 1] - first);
    if (ranks.empty()) return;
    std::vector<int> socket;
    if (static_cast<int>(ranks.size()) > per_socket) {
      socket = group_node(ranks, graph, sockets, per_socket);
    } else {
      socket.assign(ranks.size(), 0);
    }
    std::vector<int> used(static_cast<std::size_t>(sockets), 0);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const int s = socket[i];
      cores[static_cast<std::size_t>(ranks[i])] =
          s * per_socket + used[static_cast<std::size_t>(s)]++;
    }
  });
  return {std::vector<topo::NodeId>(nodes.begin(), nodes.end()), std::move(cores)};
}

}  // namespace mapsim::map
