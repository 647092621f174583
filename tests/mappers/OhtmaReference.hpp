#pragma once
// A plain reference implementation of OHTMA (Algorithm 1 of the OHTMA paper), dense and straight
// from the pseudocode, for checking the fast one (mappers/Ohtma.cpp). It resolves what the
// pseudocode leaves open exactly as mappers/Ohtma.hpp documents: comm_p and hops_n compared
// scaled by (1 + |selected|) in integers; ties to the lowest process, processor, pair and prefix;
// both exchanged processes locked; the pair itself left out of Cost; processors = cores.
// O(n^2 + S^2) memory (S cores) and O(n^4) time: for tests on small instances only.

#include <cstdint>
#include <vector>

#include "mappers/Ohtma.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::testing {

inline map::OhtmaResult reference_ohtma(const traces::CommMatrix& matrix,
                                        const topo::Topology& topology, std::int64_t loop = -1) {
  using topo::NodeId;
  const auto n = static_cast<std::size_t>(matrix.rank_count());
  const auto cores = static_cast<std::size_t>(topology.cores_per_node());
  const std::size_t s = static_cast<std::size_t>(topology.node_count()) * cores;

  // A: symmetric volume, self-traffic left out. B: hops between cores (processors).
  std::vector<std::vector<std::int64_t>> a(n, std::vector<std::int64_t>(n, 0));
  for (Rank src = 0; src < matrix.rank_count(); ++src) {
    const auto dsts = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      if (dsts[k] == src) continue;
      const auto i = static_cast<std::size_t>(src);
      const auto j = static_cast<std::size_t>(dsts[k]);
      a[i][j] += static_cast<std::int64_t>(traffic[k].bytes);
      a[j][i] += static_cast<std::int64_t>(traffic[k].bytes);
    }
  }
  std::vector<std::vector<std::int64_t>> b(s, std::vector<std::int64_t>(s, 0));
  for (std::size_t x = 0; x < s; ++x) {
    for (std::size_t y = 0; y < s; ++y) {
      b[x][y] = topology.hops(static_cast<NodeId>(x / cores), static_cast<NodeId>(y / cores));
    }
  }

  // Lines 1-19.
  std::vector<bool> p_selected(n, false);
  std::vector<bool> n_selected(s, false);
  std::vector<std::size_t> f(n, 0);  // process -> processor
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p_max = n;
    std::int64_t comm_max = 0;
    for (std::size_t p = 0; p < n; ++p) {
      if (p_selected[p]) continue;
      std::int64_t selected = 0;
      std::int64_t unselected = 0;
      for (std::size_t i = 0; i < n; ++i) (p_selected[i] ? selected : unselected) += a[p][i];
      const auto comm = static_cast<std::int64_t>(1 + k) * selected + unselected;
      if (p_max == n || comm > comm_max) {
        p_max = p;
        comm_max = comm;
      }
    }
    std::size_t n_min = s;
    std::int64_t hops_min = 0;
    for (std::size_t x = 0; x < s; ++x) {
      if (n_selected[x]) continue;
      std::int64_t selected = 0;
      std::int64_t unselected = 0;
      for (std::size_t i = 0; i < s; ++i) (n_selected[i] ? selected : unselected) += b[x][i];
      const auto hops = static_cast<std::int64_t>(1 + k) * selected + unselected;
      if (n_min == s || hops < hops_min) {
        n_min = x;
        hops_min = hops;
      }
    }
    f[p_max] = n_min;
    p_selected[p_max] = true;
    n_selected[n_min] = true;
  }
  map::OhtmaResult result;
  auto nodes_of = [&](const std::vector<std::size_t>& g) {
    std::vector<NodeId> nodes(n);
    for (std::size_t p = 0; p < n; ++p) nodes[p] = static_cast<NodeId>(g[p] / cores);
    return nodes;
  };
  result.greedy = nodes_of(f);

  // Lines 20-34.
  const std::int64_t iterations = loop < 0 ? static_cast<std::int64_t>(n / 2) : loop;
  std::vector<bool> status(n, false);
  const std::vector<std::size_t> greedy = f;
  for (std::int64_t k = 0; k < iterations; ++k) {
    bool found = false;
    map::OhtmaExchange best;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        if (status[i] || status[j]) continue;
        std::int64_t cost = 0;
        for (std::size_t l = 0; l < n; ++l) {
          if (l == i || l == j) continue;
          cost +=
              a[i][l] * (b[f[i]][f[l]] - b[f[j]][f[l]]) + a[j][l] * (b[f[j]][f[l]] - b[f[i]][f[l]]);
        }
        if (!found || cost > best.gain) {
          found = true;
          best = {static_cast<Rank>(i), static_cast<Rank>(j), cost};
        }
      }
    }
    if (!found) break;
    result.exchanges.push_back(best);
    status[static_cast<std::size_t>(best.m)] = true;
    status[static_cast<std::size_t>(best.n)] = true;
    std::swap(f[static_cast<std::size_t>(best.m)], f[static_cast<std::size_t>(best.n)]);
  }

  // Lines 35-39.
  std::int64_t sum = 0;
  std::int64_t best_sum = 0;
  for (std::size_t t = 0; t < result.exchanges.size(); ++t) {
    sum += result.exchanges[t].gain;
    if (sum > best_sum) {
      best_sum = sum;
      result.kept = t + 1;
    }
  }
  f = greedy;
  for (std::size_t t = 0; t < result.kept; ++t) {
    std::swap(f[static_cast<std::size_t>(result.exchanges[t].m)],
              f[static_cast<std::size_t>(result.exchanges[t].n)]);
  }
  result.final = nodes_of(f);
  return result;
}

}  // namespace mapsim::testing
