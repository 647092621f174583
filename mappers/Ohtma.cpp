#include "mappers/Ohtma.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <limits>
#include <string>
#include <type_traits>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "mappers/GoalCosts.hpp"
#include "mappers/MappingScore.hpp"
#include "mappers/Random.hpp"
#include "mappers/SearchFactories.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Below this many elements a scan runs sequentially: the parallel overhead would dominate.
constexpr std::size_t kParallelGrain = 2048;

// ---------------------------------------------------------------------------------------------
// Greedy phase

struct NodeChoice {
  Uint128 key = ~Uint128{0};
  NodeId node = std::numeric_limits<NodeId>::max();

  [[nodiscard]] bool better_than(const NodeChoice& o) const {
    return key < o.key || (key == o.key && node < o.node);
  }
};

}  // namespace

std::vector<NodeId> ohtma_greedy(const CommGraph& graph, const topo::Topology& topology) {
  const Rank n = graph.rank_count();
  const NodeId nodes = topology.node_count();
  const int cores = topology.cores_per_node();
  MAPSIM_EXPECTS(static_cast<std::int64_t>(n) <= static_cast<std::int64_t>(nodes) * cores,
                 "OHTMA called with more ranks than cores");
  const auto un = static_cast<std::size_t>(n);
  const auto um = static_cast<std::size_t>(nodes);

  // hops_n of a core on node m, scaled by (1 + k): k * HS[m] + HT[m], with HT[m] the hops from
  // m to every core and HS[m] those to the selected cores (both equal for the cores of a node).
  std::vector<std::uint64_t> hop_total(um, 0);
  tbb::parallel_for(tbb::blocked_range<NodeId>(0, nodes, 64),
                    [&](const tbb::blocked_range<NodeId>& range) {
                      for (NodeId a = range.begin(); a != range.end(); ++a) {
                        std::uint64_t sum = 0;
                        for (NodeId b = 0; b < nodes; ++b)
                          sum += static_cast<std::uint64_t>(topology.hops(a, b));
                        hop_total[static_cast<std::size_t>(a)] = sum * static_cast<unsigned>(cores);
                      }
                    });
  std::vector<std::uint64_t> hop_selected(um, 0);
  std::vector<int> free_cores(um, cores);

  // comm_p scaled by (1 + k): k * S[p] + T[p], T the volume of p, S its volume to P_selected.
  std::vector<std::uint64_t> volume(un);
  for (Rank p = 0; p < n; ++p) volume[static_cast<std::size_t>(p)] = graph.bytes(p);
  std::vector<std::uint64_t> to_selected(un, 0);
  std::vector<Rank> unselected(un);
  for (Rank p = 0; p < n; ++p) unselected[static_cast<std::size_t>(p)] = p;

  std::vector<NodeId> node_of(un, -1);
  // Adds the hops to the core just placed on node `placed` (none: -1) and returns the free node
  // of least k HS + HT, ties to the lowest id.
  auto scan_nodes = [&](std::uint64_t k, NodeId placed) {
    auto body = [&](NodeId begin, NodeId end, NodeChoice best) {
      for (NodeId m = begin; m < end; ++m) {
        const auto at = static_cast<std::size_t>(m);
        if (placed >= 0) hop_selected[at] += static_cast<std::uint64_t>(topology.hops(m, placed));
        if (free_cores[at] == 0) continue;
        const NodeChoice c{static_cast<Uint128>(k) * hop_selected[at] + hop_total[at], m};
        if (c.better_than(best)) best = c;
      }
      return best;
    };
    if (um < kParallelGrain) return body(0, nodes, NodeChoice{});
    return tbb::parallel_reduce(
        tbb::blocked_range<NodeId>(0, nodes, 1024), NodeChoice{},
        [&](const tbb::blocked_range<NodeId>& r, NodeChoice best) {
          return body(r.begin(), r.end(), best);
        },
        [](const NodeChoice& a, const NodeChoice& b) { return a.better_than(b) ? a : b; });
  };

  NodeChoice next = scan_nodes(0, -1);
  for (std::uint64_t k = 0; k < un; ++k) {
    // p_max: largest k S + T, ties to the lowest rank.
    auto key_of = [&](Rank p) {
      return static_cast<Uint128>(k) * to_selected[static_cast<std::size_t>(p)] +
             volume[static_cast<std::size_t>(p)];
    };
    std::size_t best_at = 0;
    Uint128 best_key = key_of(unselected[0]);
    for (std::size_t at = 1; at < unselected.size(); ++at) {
      const Uint128 key = key_of(unselected[at]);
      if (key > best_key || (key == best_key && unselected[at] < unselected[best_at])) {
        best_key = key;
        best_at = at;
      }
    }
    const Rank p_max = unselected[best_at];
    unselected[best_at] = unselected.back();
    unselected.pop_back();
    const NodeId n_min = next.node;
    node_of[static_cast<std::size_t>(p_max)] = n_min;
    --free_cores[static_cast<std::size_t>(n_min)];
    for (const auto& nb : graph.neighbors(p_max))
      to_selected[static_cast<std::size_t>(nb.rank)] += nb.bytes();
    if (k + 1 < un) next = scan_nodes(k + 1, n_min);
  }
  return node_of;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Exchange phase

// A pair's gain and partner; `better` is the total order of the arg-max (larger gain, then the
// lower partner).
struct Entry {
  std::int64_t gain = std::numeric_limits<std::int64_t>::min();
  Rank j = std::numeric_limits<Rank>::max();

  [[nodiscard]] bool better_than(const Entry& o) const {
    return gain > o.gain || (gain == o.gain && j < o.j);
  }
  [[nodiscard]] bool none() const { return j == std::numeric_limits<Rank>::max(); }
};

// Known best partners of every row, at most kCap of them, and `bound`, an Entry that no
// unknown partner beats (none(): every partner is known).
constexpr std::size_t kCap = 32;

struct Row {
  std::array<Entry, kCap> known{};
  std::uint32_t size = 0;
  Entry bound{};
};

class ExchangePhase {
 public:
  /// `in_time` is asked before each of the first full rows; if it says no, the phase is not
  /// ready() and must not be used.
  template <typename InTime>
  ExchangePhase(const CommGraph& graph, const topo::Topology& topology, std::vector<NodeId> f,
                const InTime& in_time)
      : graph_(graph),
        topology_(topology),
        n_(graph.rank_count()),
        f_(std::move(f)),
        cost_(static_cast<std::size_t>(n_)),
        locked_(static_cast<std::size_t>(n_), 0),
        in_k_(static_cast<std::size_t>(n_), 0),
        rows_(static_cast<std::size_t>(n_)),
        scratch_([this] { return Scratch(static_cast<std::size_t>(n_)); }) {
    for (Rank r = 0; r < n_; ++r) {
      cost_[static_cast<std::size_t>(r)] = own_cost(r);
      unlocked_.push_back(r);
    }
    std::atomic<bool> late{false};
    for_rows(unlocked_, [&](Rank i, Scratch& s) {
      if (late.load(std::memory_order_relaxed)) return;
      if (!in_time()) {
        late = true;
        return;
      }
      recompute(i, s);
    });
    ready_ = !late;
  }

  [[nodiscard]] bool ready() const { return ready_; }

  /// The unlocked pair of largest gain (ties: lowest m, then lowest n), or m = -1 if none.
  [[nodiscard]] OhtmaExchange best() const {
    OhtmaExchange choice{-1, -1, 0, {}};
    for (const Rank i : unlocked_) {
      const Row& row = rows_[static_cast<std::size_t>(i)];
      if (row.size == 0) continue;
      const Entry& top = row.known[0];
      if (choice.m < 0 || top.gain > choice.gain || (top.gain == choice.gain && i < choice.m)) {
        choice = {i, top.j, top.gain, {}};
      }
    }
    if (choice.m > choice.n) std::swap(choice.m, choice.n);
    return choice;
  }

  void exchange(Rank m, Rank n) {
    std::swap(f_[static_cast<std::size_t>(m)], f_[static_cast<std::size_t>(n)]);
    locked_[static_cast<std::size_t>(m)] = 1;
    locked_[static_cast<std::size_t>(n)] = 1;
    std::erase_if(unlocked_, [&](Rank r) { return r == m || r == n; });
    // K: the ranks whose pair gains changed (the pair itself and its partners).
    k_.clear();
    auto mark = [&](Rank r) {
      if (!in_k_[static_cast<std::size_t>(r)]) {
        in_k_[static_cast<std::size_t>(r)] = 1;
        k_.push_back(r);
      }
    };
    mark(m);
    mark(n);
    for (const auto& nb : graph_.neighbors(m)) mark(nb.rank);
    for (const auto& nb : graph_.neighbors(n)) mark(nb.rank);
    for (const Rank r : k_) cost_[static_cast<std::size_t>(r)] = own_cost(r);
    k_unlocked_.clear();
    for (const Rank r : k_) {
      if (!locked_[static_cast<std::size_t>(r)]) k_unlocked_.push_back(r);
    }
    // Rows in K are recomputed in full; gains are symmetric, so their gains with every other row
    // are kept (k_gains_) for the rows outside K, which changed only in their pairs with K.
    if (k_gains_.size() < k_unlocked_.size()) k_gains_.resize(k_unlocked_.size());
    tbb::parallel_for(std::size_t{0}, k_unlocked_.size(), [&](std::size_t k) {
      auto& gains = k_gains_[k];
      gains.resize(static_cast<std::size_t>(n_));
      recompute(k_unlocked_[k], scratch_.local(), gains.data());
    });
    for_rows(unlocked_, [&](Rank i, Scratch& s) {
      if (!in_k_[static_cast<std::size_t>(i)]) refresh(i, s);
    });
    for (const Rank r : k_) in_k_[static_cast<std::size_t>(r)] = 0;
  }

  [[nodiscard]] std::size_t unlocked() const { return unlocked_.size(); }

 private:
  struct Scratch {
    explicit Scratch(std::size_t n) : hops_from(n, 0), pair_volume(n, 0) {}
    std::vector<std::int64_t> hops_from;     // B(f(i), f(l)) for every l
    std::vector<std::uint64_t> pair_volume;  // A(i, j) for the neighbours j of i, else 0
    std::vector<Entry> entries;
    std::vector<Entry> fresh;
  };

  [[nodiscard]] std::int64_t h(NodeId a, NodeId b) const {
    return static_cast<std::int64_t>(topology_.hops(a, b));
  }
  [[nodiscard]] NodeId f(Rank r) const { return f_[static_cast<std::size_t>(r)]; }

  // c_r = sum_l A(r, l) B(f(r), f(l)).
  [[nodiscard]] std::int64_t own_cost(Rank r) const {
    std::int64_t c = 0;
    for (const auto& nb : graph_.neighbors(r))
      c += static_cast<std::int64_t>(nb.bytes()) * h(f(r), f(nb.rank));
    return c;
  }

  template <typename Body>
  void for_rows(const std::vector<Rank>& rows, const Body& body) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size(), 16),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        Scratch& s = scratch_.local();
                        for (std::size_t k = range.begin(); k != range.end(); ++k) body(rows[k], s);
                      });
  }

  // Keeps the best kCap of `entries` in row i and the best of the rest as the bound (merged
  // with `bound`, the bound on partners not in `entries`).
  void store(Rank i, std::vector<Entry>& entries, Entry bound) {
    Row& row = rows_[static_cast<std::size_t>(i)];
    auto better = [](const Entry& a, const Entry& b) { return a.better_than(b); };
    if (entries.size() > kCap) {
      std::nth_element(entries.begin(), entries.begin() + kCap, entries.end(), better);
      const Entry& rest = entries[kCap];
      if (rest.better_than(bound)) bound = rest;
      entries.resize(kCap);
    }
    std::sort(entries.begin(), entries.end(), better);
    std::copy(entries.begin(), entries.end(), row.known.begin());
    row.size = static_cast<std::uint32_t>(entries.size());
    row.bound = bound;
  }

  // Every unlocked partner of i, with gain = c_i + c_j - D_i(f(j)) - D_j(f(i))
  //                                         - A(i, j) (B(f(i), f(j)) + B(f(j), f(i))),
  // D_r(x) = sum_l A(r, l) B(x, f(l)): the sum of line 26 rearranged, exactly equal.
  void recompute(Rank i, Scratch& s, std::int64_t* gains = nullptr) {
    const NodeId fi = f(i);
    for (Rank l = 0; l < n_; ++l) s.hops_from[static_cast<std::size_t>(l)] = h(fi, f(l));
    const auto mine = graph_.neighbors(i);
    for (const auto& nb : mine) s.pair_volume[static_cast<std::size_t>(nb.rank)] = nb.bytes();
    s.entries.clear();
    const std::int64_t ci = cost_[static_cast<std::size_t>(i)];
    for (const Rank j : unlocked_) {
      if (j == i) continue;
      const NodeId fj = f(j);
      std::int64_t g = 0;
      if (fj != fi) {
        std::int64_t dj = 0;  // D_j(f(i))
        for (const auto& nb : graph_.neighbors(j))
          dj += static_cast<std::int64_t>(nb.bytes()) *
                s.hops_from[static_cast<std::size_t>(nb.rank)];
        std::int64_t di = 0;  // D_i(f(j))
        for (const auto& nb : mine) di += static_cast<std::int64_t>(nb.bytes()) * h(fj, f(nb.rank));
        const auto aij = static_cast<std::int64_t>(s.pair_volume[static_cast<std::size_t>(j)]);
        g = ci + cost_[static_cast<std::size_t>(j)] - di - dj - aij * (h(fi, fj) + h(fj, fi));
      }
      s.entries.push_back({g, j});
      if (gains != nullptr) gains[static_cast<std::size_t>(j)] = g;
    }
    for (const auto& nb : mine) s.pair_volume[static_cast<std::size_t>(nb.rank)] = 0;
    store(i, s.entries, Entry{});
  }

  // Row i is outside K: only its pairs with K changed.
  void refresh(Rank i, Scratch& s) {
    Row& row = rows_[static_cast<std::size_t>(i)];
    auto better = [](const Entry& a, const Entry& b) { return a.better_than(b); };
    s.fresh.clear();
    for (std::size_t k = 0; k < k_unlocked_.size(); ++k)
      s.fresh.push_back({k_gains_[k][static_cast<std::size_t>(i)], k_unlocked_[k]});
    std::sort(s.fresh.begin(), s.fresh.end(), better);
    // Merge the known entries outside K (sorted) with the fresh ones (sorted).
    s.entries.clear();
    std::size_t a = 0;
    std::size_t b = 0;
    while (s.entries.size() <= kCap && (a < row.size || b < s.fresh.size())) {
      while (a < row.size && in_k_[static_cast<std::size_t>(row.known[a].j)]) ++a;
      if (a < row.size && (b == s.fresh.size() || row.known[a].better_than(s.fresh[b]))) {
        s.entries.push_back(row.known[a++]);
      } else if (b < s.fresh.size()) {
        s.entries.push_back(s.fresh[b++]);
      }
    }
    Entry bound = row.bound;
    if (s.entries.size() > kCap) {
      if (s.entries[kCap].better_than(bound)) bound = s.entries[kCap];
      s.entries.resize(kCap);
    }
    std::copy(s.entries.begin(), s.entries.end(), row.known.begin());
    row.size = static_cast<std::uint32_t>(s.entries.size());
    row.bound = bound;
    if (!row.bound.none() && (row.size == 0 || !row.known[0].better_than(row.bound))) {
      recompute(i, s);
    }
  }

  const CommGraph& graph_;
  const topo::Topology& topology_;
  Rank n_;
  std::vector<NodeId> f_;
  std::vector<std::int64_t> cost_;
  std::vector<char> locked_;
  std::vector<char> in_k_;
  std::vector<Rank> k_;
  std::vector<Rank> k_unlocked_;
  std::vector<std::vector<std::int64_t>> k_gains_;  // [k][i]: gain of (k_unlocked_[k], i)
  std::vector<Rank> unlocked_;                      // in increasing rank order
  std::vector<Row> rows_;
  tbb::enumerable_thread_specific<Scratch> scratch_;
  bool ready_ = true;
};

// The exchange phase on a dense matrix (OhtmaGains::Dense, or Automatic when the graph has at
// least n^2 / 8 neighbour entries, so that the table below takes at most 1.6 times the
// CommGraph's memory): a table Q of n x n gains' terms,
//   Q[i][j] = D_i(f(j)) + A(i, j) B(f(i), f(j))   (i != j),   Q[i][i] = c_i = D_i(f(i)),
// so that gain(i, j) = Q[i][i] + Q[j][j] - Q[i][j] - Q[j][i] (0 when f(i) = f(j), as the
// sparse phase has it). After the exchange of m (p -> q) and n (q -> p), D_r changes by
// alpha_r (B(x, q) - B(x, p)) with alpha_r = A(r, m) - A(r, n), only for the neighbours of m
// and n; columns m and n swap; the pair terms of m's and n's pairs are recomputed. Each
// iteration then scans every unlocked pair, in tiles (both Q[i][j] and Q[j][i] from cache), in
// parallel with the same arg-max as the sparse phase. Building Q costs O(n * sum of degrees),
// an iteration O(n * (|N(m)| + |N(n)|) + unlocked^2).
class DenseExchangePhase {
 public:
  template <typename InTime>
  DenseExchangePhase(const CommGraph& graph, const topo::Topology& topology, std::vector<NodeId> f,
                     const InTime& in_time)
      : graph_(graph),
        topology_(topology),
        n_(static_cast<std::size_t>(graph.rank_count())),
        f_(std::move(f)),
        q_(n_ * n_, 0) {
    for (Rank r = 0; r < graph.rank_count(); ++r) unlocked_.push_back(r);
    // D_i(f(j)) = sum_l A(i, l) B(f(j), f(l)), by chunks of l: the chunk's hop rows
    // B(f(j), f(l)) first, then every row i adds those of its neighbours in the chunk.
    constexpr std::size_t kChunk = 64;
    std::vector<std::int32_t> hops(kChunk * n_);
    std::vector<std::size_t> cursor(n_, 0);  // next neighbour of row i to add
    tbb::enumerable_thread_specific<std::vector<std::int32_t>> sums;
    for (std::size_t l0 = 0; l0 < n_; l0 += kChunk) {
      if (!in_time()) {
        ready_ = false;
        return;
      }
      const std::size_t l1 = std::min(n_, l0 + kChunk);
      tbb::parallel_for(l0, l1, [&](std::size_t l) {
        std::int32_t* row = hops.data() + (l - l0) * n_;
        for (std::size_t j = 0; j < n_; ++j) row[j] = topology_.hops(f_[j], f_[l]);
      });
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_, 8),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          std::vector<std::int32_t>& sum = sums.local();
                          sum.resize(n_);
                          for (std::size_t i = range.begin(); i != range.end(); ++i)
                            add_chunk(i, l0, l1, hops.data(), sum.data(), cursor[i]);
                        });
    }
    tbb::parallel_for(std::size_t{0}, n_, [&](std::size_t i) { add_pair_terms(i, +1); });
  }

  [[nodiscard]] bool ready() const { return ready_; }
  [[nodiscard]] std::size_t unlocked() const { return unlocked_.size(); }

  /// The unlocked pair of largest gain (ties: lowest m, then lowest n), or m = -1 if none.
  [[nodiscard]] OhtmaExchange best() const {
    const std::size_t u = unlocked_.size();
    std::vector<std::int64_t> diagonal(u);
    for (std::size_t a = 0; a < u; ++a) diagonal[a] = q(unlocked_[a], unlocked_[a]);
    constexpr std::size_t kTile = 64;
    const std::size_t tiles = (u + kTile - 1) / kTile;
    auto better = [](const OhtmaExchange& x, const OhtmaExchange& y) {
      if (y.m < 0) return x.m >= 0;
      if (x.m < 0) return false;
      if (x.gain != y.gain) return x.gain > y.gain;
      return x.m < y.m || (x.m == y.m && x.n < y.n);
    };
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, tiles, 1), OhtmaExchange{-1, -1, 0, {}},
        [&](const tbb::blocked_range<std::size_t>& range, OhtmaExchange choice) {
          // Per row of the tile row, its best partner: partners come in increasing order, so a
          // strictly larger gain wins and ties keep the lowest.
          std::array<std::int64_t, kTile> row_gain;
          std::array<std::size_t, kTile> row_partner;
          for (std::size_t ti = range.begin(); ti != range.end(); ++ti) {
            const std::size_t a0 = ti * kTile;
            const std::size_t a1 = std::min(u, a0 + kTile);
            row_gain.fill(std::numeric_limits<std::int64_t>::min());
            row_partner.fill(u);
            for (std::size_t b0 = a0; b0 < u; b0 += kTile) {
              const std::size_t b1 = std::min(u, b0 + kTile);
              for (std::size_t a = a0; a < a1; ++a) {
                const auto i = static_cast<std::size_t>(unlocked_[a]);
                const std::int64_t* qi = q_.data() + i * n_;
                const std::int64_t* qcol = q_.data() + i;
                std::int64_t best_gain = row_gain[a - a0];
                std::size_t best_b = row_partner[a - a0];
                for (std::size_t b = std::max(b0, a + 1); b < b1; ++b) {
                  const auto j = static_cast<std::size_t>(unlocked_[b]);
                  const std::int64_t g = diagonal[a] + diagonal[b] - qi[j] - qcol[j * n_];
                  if (g > best_gain) {
                    best_gain = g;
                    best_b = b;
                  }
                }
                row_gain[a - a0] = best_gain;
                row_partner[a - a0] = best_b;
              }
            }
            for (std::size_t a = a0; a < a1; ++a) {
              if (row_partner[a - a0] == u) continue;
              const OhtmaExchange c{
                  unlocked_[a], unlocked_[row_partner[a - a0]], row_gain[a - a0], {}};
              if (better(c, choice)) choice = c;
            }
          }
          return choice;
        },
        [&](const OhtmaExchange& x, const OhtmaExchange& y) { return better(x, y) ? x : y; });
  }

  void exchange(Rank m, Rank n) {
    const auto um = static_cast<std::size_t>(m);
    const auto un = static_cast<std::size_t>(n);
    std::erase_if(unlocked_, [&](Rank r) { return r == m || r == n; });
    const NodeId p = f_[um];
    const NodeId qn = f_[un];
    if (p == qn) return;  // two cores of one node: nothing changes
    change_pair_terms(m, n, -1);
    for (std::size_t r = 0; r < n_; ++r) std::swap(q_[r * n_ + um], q_[r * n_ + un]);
    std::swap(f_[um], f_[un]);
    // alpha_r = A(r, m) - A(r, n) over the merged neighbour lists of m and n.
    changed_.clear();
    const auto nm = graph_.neighbors(m);
    const auto nn = graph_.neighbors(n);
    for (std::size_t a = 0, b = 0; a < nm.size() || b < nn.size();) {
      if (b == nn.size() || (a < nm.size() && nm[a].rank < nn[b].rank)) {
        changed_.push_back({nm[a].rank, static_cast<std::int64_t>(nm[a].bytes())});
        ++a;
      } else if (a == nm.size() || nn[b].rank < nm[a].rank) {
        changed_.push_back({nn[b].rank, -static_cast<std::int64_t>(nn[b].bytes())});
        ++b;
      } else {
        const auto alpha =
            static_cast<std::int64_t>(nm[a].bytes()) - static_cast<std::int64_t>(nn[b].bytes());
        if (alpha != 0) changed_.push_back({nm[a].rank, alpha});
        ++a;
        ++b;
      }
    }
    delta_.resize(n_);
    for (std::size_t j = 0; j < n_; ++j)
      delta_[j] = static_cast<std::int64_t>(topology_.hops(f_[j], qn)) -
                  static_cast<std::int64_t>(topology_.hops(f_[j], p));
    tbb::parallel_for(std::size_t{0}, changed_.size(), [&](std::size_t k) {
      std::int64_t* qr = q_.data() + static_cast<std::size_t>(changed_[k].rank) * n_;
      const std::int64_t alpha = changed_[k].alpha;
      for (std::size_t j = 0; j < n_; ++j) qr[j] += alpha * delta_[j];
    });
    change_pair_terms(m, n, +1);
  }

 private:
  struct Change {
    Rank rank;
    std::int64_t alpha;
  };

  // Adds A(i, l) B(f(j), f(l)) to row i for i's neighbours l in [l0, l1) (their hop rows in
  // `hops` from l0 on), from neighbour `at` on, and leaves `at` past them. Neighbours of equal
  // weight (all-to-alls) have their hop rows summed first and multiplied once; `sum` is scratch.
  void add_chunk(std::size_t i, std::size_t l0, std::size_t l1, const std::int32_t* hops,
                 std::int32_t* sum, std::size_t& at) {
    const auto nbs = graph_.neighbors(static_cast<Rank>(i));
    std::int64_t* qi = q_.data() + i * n_;
    auto row = [&](std::size_t k) {
      return hops + (static_cast<std::size_t>(nbs[k].rank) - l0) * n_;
    };
    while (at < nbs.size() && static_cast<std::size_t>(nbs[at].rank) < l1) {
      const std::uint64_t weight = nbs[at].bytes();
      std::size_t end = at + 1;
      while (end < nbs.size() && static_cast<std::size_t>(nbs[end].rank) < l1 &&
             nbs[end].bytes() == weight)
        ++end;
      const auto a = static_cast<std::int64_t>(weight);
      if (end - at == 1) {
        const std::int32_t* h = row(at);
        for (std::size_t j = 0; j < n_; ++j) qi[j] += a * h[j];
      } else {  // at most kChunk rows of hops: no overflow
        std::copy_n(row(at), n_, sum);
        for (std::size_t k = at + 1; k < end; ++k) {
          const std::int32_t* h = row(k);
          for (std::size_t j = 0; j < n_; ++j) sum[j] += h[j];
        }
        for (std::size_t j = 0; j < n_; ++j) qi[j] += a * sum[j];
      }
      at = end;
    }
  }

  [[nodiscard]] std::int64_t q(Rank i, Rank j) const {
    return q_[static_cast<std::size_t>(i) * n_ + static_cast<std::size_t>(j)];
  }
  [[nodiscard]] std::int64_t pair_term(Rank i, const Neighbor& nb) const {
    return static_cast<std::int64_t>(nb.bytes()) *
           static_cast<std::int64_t>(topology_.hops(f_[static_cast<std::size_t>(i)],
                                                    f_[static_cast<std::size_t>(nb.rank)]));
  }
  void add_pair_terms(std::size_t i, std::int64_t sign) {
    for (const auto& nb : graph_.neighbors(static_cast<Rank>(i)))
      q_[i * n_ + static_cast<std::size_t>(nb.rank)] += sign * pair_term(static_cast<Rank>(i), nb);
  }
  // The pair terms that depend on f(m) or f(n): rows m and n, and columns m and n of the other
  // rows; sign -1 removes them (before the exchange), +1 adds them (after).
  void change_pair_terms(Rank m, Rank n, std::int64_t sign) {
    add_pair_terms(static_cast<std::size_t>(m), sign);
    add_pair_terms(static_cast<std::size_t>(n), sign);
    for (const Rank c : {m, n}) {
      for (const auto& nb : graph_.neighbors(c)) {
        if (nb.rank == m || nb.rank == n) continue;
        const std::int64_t term =
            static_cast<std::int64_t>(nb.bytes()) *
            static_cast<std::int64_t>(topology_.hops(f_[static_cast<std::size_t>(nb.rank)],
                                                     f_[static_cast<std::size_t>(c)]));
        q_[static_cast<std::size_t>(nb.rank) * n_ + static_cast<std::size_t>(c)] += sign * term;
      }
    }
  }

  const CommGraph& graph_;
  const topo::Topology& topology_;
  std::size_t n_;
  std::vector<NodeId> f_;
  std::vector<std::int64_t> q_;  // n x n, row-major
  std::vector<Rank> unlocked_;   // in increasing rank order
  std::vector<Change> changed_;
  std::vector<std::int64_t> delta_;
  bool ready_ = true;
};

// The exchange phase under another goal (Ohtma.hpp): every unlocked pair evaluated exactly
// by `best`'s cost of the goal, in parallel (GoalReplicas: the same pair at any thread count).
class GoalExchangePhase {
 public:
  GoalExchangePhase(const CommGraph& graph, const topo::Topology& topology,
                    const std::vector<NodeId>& f, const OhtmaOptions& options)
      : setup_(options.goal, graph, topology, options.reference, kTimeEnergyWeight, 8, 8,
               options.links),
        copies_(setup_.space(), options.goal, Placement(topology, f)),
        n_(graph.rank_count()),
        start_(copies_.cost()) {
    for (Rank r = 0; r < n_; ++r) unlocked_.push_back(r);
  }

  [[nodiscard]] bool ready() const { return true; }
  [[nodiscard]] std::size_t unlocked() const { return unlocked_.size(); }
  [[nodiscard]] SearchCost start() const { return start_; }

  /// The unlocked pair (m, n), m < n, with the lowest cost after its exchange.
  OhtmaExchange best() {
    const GoalCandidate found = copies_.least(
        unlocked_.size(),
        [&](GoalCost& cost, const Placement& at, std::size_t k, GoalCandidate& least,
            std::uint64_t& work) {
          const Rank m = unlocked_[k];
          for (std::size_t l = k + 1; l < unlocked_.size(); ++l) {
            const Rank n = unlocked_[l];
            least.offer(cost.after(at, at.slot(m), at.slot(n), work),
                        static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n_) +
                            static_cast<std::uint64_t>(n));
          }
        },
        8);
    if (found.key == GoalCandidate::kNone) return {-1, -1, 0, {}};
    const auto m = static_cast<Rank>(found.key / static_cast<std::uint64_t>(n_));
    const auto n = static_cast<Rank>(found.key % static_cast<std::uint64_t>(n_));
    return {m, n, drop(copies_.cost(), found.after), found.after};
  }

  void exchange(const OhtmaExchange& pair) {
    const auto& p = copies_.placement();
    copies_.commit(p.slot(pair.m), p.slot(pair.n), pair.after);
    std::erase_if(unlocked_, [&](Rank r) { return r == pair.m || r == pair.n; });
  }

 private:
  // The drop of the leading sum: the primary, or (congestion-smooth) the secondary.
  static std::int64_t drop(const SearchCost& before, const SearchCost& after) {
    if (before.primary != 0 || after.primary != 0)
      return static_cast<std::int64_t>(before.primary) - static_cast<std::int64_t>(after.primary);
    constexpr auto kMax = static_cast<Uint128>(std::numeric_limits<std::int64_t>::max());
    if (after.secondary <= before.secondary)
      return static_cast<std::int64_t>(std::min(before.secondary - after.secondary, kMax));
    return -static_cast<std::int64_t>(std::min(after.secondary - before.secondary, kMax));
  }

  GoalSetup setup_;
  GoalReplicas copies_;
  Rank n_;
  SearchCost start_;
  std::vector<Rank> unlocked_;  // in increasing rank order
};

// Runs `loop` exchanges of `phase` (lines 20-34) into `result`.
template <typename Phase, typename InTime>
void exchange_loop(Phase& phase, std::int64_t loop, const InTime& in_time, OhtmaResult& result) {
  result.timed_out = !phase.ready();
  for (std::int64_t k = 0; phase.ready() && k < loop && phase.unlocked() >= 2; ++k) {
    if (!in_time()) {
      result.timed_out = true;
      break;
    }
    const OhtmaExchange pair = phase.best();
    if (pair.m < 0) break;
    result.exchanges.push_back(pair);
    if constexpr (std::is_same_v<Phase, GoalExchangePhase>) {
      phase.exchange(pair);
    } else {
      phase.exchange(pair.m, pair.n);
    }
  }
}

// The greedy mapping with the first `kept` exchanges made (line 40).
void keep_prefix(OhtmaResult& result) {
  result.final = result.greedy;
  for (std::size_t t = 0; t < result.kept; ++t) {
    const auto& e = result.exchanges[t];
    std::swap(result.final[static_cast<std::size_t>(e.m)],
              result.final[static_cast<std::size_t>(e.n)]);
  }
}

}  // namespace

OhtmaResult run_ohtma(const CommGraph& graph, const topo::Topology& topology,
                      const OhtmaOptions& options) {
  OhtmaResult result;
  result.greedy = ohtma_greedy(graph, topology);
  const Rank n = graph.rank_count();
  const std::int64_t loop = options.loop < 0 ? n / 2 : options.loop;
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options.time_limit));
  auto in_time = [&] { return options.time_limit <= 0 || Clock::now() < deadline; };
  if (options.goal != SearchGoal::HopBytes) {
    GoalExchangePhase phase(graph, topology, result.greedy, options);  // refuses what overflows
    if (loop > 0 && n >= 2) {
      exchange_loop(phase, loop, in_time, result);
      // Backtracking: the shortest prefix with the lowest cost, if below the greedy mapping's.
      SearchCost best = phase.start();
      for (std::size_t t = 0; t < result.exchanges.size(); ++t) {
        if (result.exchanges[t].after < best) {
          best = result.exchanges[t].after;
          result.kept = t + 1;
        }
      }
    }
    keep_prefix(result);
    return result;
  }
  if (loop > 0 && n >= 2) {
    const auto un = static_cast<std::size_t>(n);
    const bool dense =
        options.gains == OhtmaGains::Dense ||
        (options.gains == OhtmaGains::Automatic && 2 * graph.edge_count() * 8 >= un * un);
    if (dense) {
      DenseExchangePhase phase(graph, topology, result.greedy, in_time);
      exchange_loop(phase, loop, in_time, result);
    } else {
      ExchangePhase phase(graph, topology, result.greedy, in_time);
      exchange_loop(phase, loop, in_time, result);
    }
  }
  // Backtracking: the shortest prefix with the largest cumulative gain (Sum[0] = 0).
  std::int64_t sum = 0;
  std::int64_t best = 0;
  for (std::size_t t = 0; t < result.exchanges.size(); ++t) {
    sum += result.exchanges[t].gain;
    if (sum > best) {
      best = sum;
      result.kept = t + 1;
    }
  }
  keep_prefix(result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// The mapper

namespace {

constexpr ParamSpec kOhtmaParams[] = {
    {"objective", ParamType::Choice, "hop-bytes",
     "what the exchange phase minimises: hop-bytes (the paper's) or one of best's objectives, "
     "every unlocked pair evaluated exactly (O(n^3) evaluations: bound large jobs with "
     "time-limit)",
     0, 0, "hop-bytes|congestion|congestion-smooth|latency|energy|hybrid"},
    {"loop", ParamType::Integer, "-1",
     "exchange iterations (each locks two processes); -1: |P| / 2 as in the paper", -1, 2147483647},
    {"time-limit", ParamType::Real, "0",
     "wall-clock seconds for the exchange phase, 0 for none (when it strikes the result depends "
     "on the machine's speed)",
     0, 1e9},
};

class OhtmaMapper final : public Mapper {
 public:
  explicit OhtmaMapper(const ParamValues& params)
      : word_(params.text("objective")),
        loop_(params.integer("loop")),
        time_limit_(params.real("time-limit")) {}

  [[nodiscard]] bool weighs_link_energy() const override { return word_ == "energy"; }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    OhtmaOptions options;
    options.goal = parse_search_goal(word_);
    if (GoalSetup::needs_reference(options.goal)) options.reference = reference(word_, p);
    options.loop = loop_;
    options.time_limit = time_limit_;
    options.links = p.links;
    return topo::Mapping(run_ohtma(p.graph, p.topology, options).final);
  }

 private:
  std::string word_;  // the objective
  std::int64_t loop_;
  double time_limit_;
};

}  // namespace

std::span<const ParamSpec> ohtma_params() {
  return kOhtmaParams;
}
std::unique_ptr<Mapper> make_ohtma(const ParamValues& params) {
  return std::make_unique<OhtmaMapper>(params);
}

}  // namespace mapsim::map
