#pragma once
// Priority queues of simulation events, ordered by (time, sequence number). The sequence number
// is the order in which events were scheduled, so events at the same picosecond run first in,
// first out: the tie-breaking is deterministic and independent of the queue's internals.
//
// Three implementations share one interface (push, top, pop, empty, size) so that
// bench/sim_bench.cpp can compare them on the classic "hold" workload and on full replays:
//   BinaryHeap  — implicit binary heap over a vector (std::push_heap / std::pop_heap);
//   QuadHeap    — implicit 4-ary heap: half the depth, children on one cache line;
//   PairingHeap — pointer-free pairing heap (node pool with indices), two-pass merge on pop.
// The engine uses EventQueue (below); the choice is made by measurement (see the README).

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/Time.hpp"

namespace mapsim::sim {

struct QueuedEvent {
  Time time = 0;
  std::uint64_t seq = 0;   ///< scheduling order: the tie-breaker
  std::uint32_t kind = 0;  ///< which handler (see Engine.hpp)
  std::uint32_t data = 0;  ///< the handler's argument (a rank, a flow, a packet...)
};

inline bool earlier(const QueuedEvent& a, const QueuedEvent& b) {
  return a.time < b.time || (a.time == b.time && a.seq < b.seq);
}

/// (time, seq) as one unsigned 128-bit number, ordered as earlier() orders events (times are
/// >= 0): one comparison without branches, for the engine's heap.
__extension__ typedef unsigned __int128 OrderKey;
inline OrderKey order_key(const QueuedEvent& e) {
  return (static_cast<OrderKey>(static_cast<std::uint64_t>(e.time)) << 64) | e.seq;
}

/// The index in [first, end) (not empty) of the element of `items` with the smallest key(item),
/// and that key: the child search of a 4-ary heap, by selects on one 128-bit key rather than
/// branches.
template <class T, class Key>
std::pair<std::size_t, OrderKey> least_of(const std::vector<T>& items, std::size_t first,
                                          std::size_t end, Key key) {
  std::size_t best = first;
  OrderKey least = key(items[first]);
  for (std::size_t c = first + 1; c < end; ++c) {
    const OrderKey k = key(items[c]);
    const bool less = k < least;
    least = less ? k : least;
    best = less ? c : best;
  }
  return {best, least};
}

class BinaryHeap {
 public:
  void push(const QueuedEvent& e) {
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  [[nodiscard]] const QueuedEvent& top() const { return heap_.front(); }
  void pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
  }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }

 private:
  static bool later(const QueuedEvent& a, const QueuedEvent& b) { return earlier(b, a); }
  std::vector<QueuedEvent> heap_;
};

class QuadHeap {
 public:
  void push(const QueuedEvent& e) {
    std::size_t i = heap_.size();
    heap_.push_back(e);
    const OrderKey k = order_key(e);
    while (i > 0) {
      const std::size_t parent = (i - 1) / 4;
      if (!(k < order_key(heap_[parent]))) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  [[nodiscard]] const QueuedEvent& top() const { return heap_.front(); }
  void pop() {
    const QueuedEvent last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return;
    std::size_t i = 0;
    const OrderKey key_of_last = order_key(last);
    for (;;) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      const auto [best, least] = least_of(heap_, first, std::min(first + 4, n),
                                          [](const QueuedEvent& e) { return order_key(e); });
      if (!(least < key_of_last)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = last;
  }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }

 private:
  std::vector<QueuedEvent> heap_;
};

class PairingHeap {
 public:
  void push(const QueuedEvent& e) {
    std::uint32_t node;
    if (free_ != kNone) {
      node = free_;
      free_ = nodes_[node].sibling;
    } else {
      node = static_cast<std::uint32_t>(nodes_.size());
      nodes_.emplace_back();
    }
    nodes_[node] = Node{e, kNone, kNone};
    root_ = root_ == kNone ? node : meld(root_, node);
    ++size_;
  }
  [[nodiscard]] const QueuedEvent& top() const { return nodes_[root_].event; }
  void pop() {
    const std::uint32_t old = root_;
    root_ = merge_pairs(nodes_[old].child);
    nodes_[old].sibling = free_;
    free_ = old;
    --size_;
  }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Node {
    QueuedEvent event;
    std::uint32_t child = kNone;
    std::uint32_t sibling = kNone;
  };

  std::uint32_t meld(std::uint32_t a, std::uint32_t b) {
    if (earlier(nodes_[b].event, nodes_[a].event)) std::swap(a, b);
    nodes_[b].sibling = nodes_[a].child;
    nodes_[a].child = b;
    return a;
  }

  // Two-pass pairing: meld siblings pairwise left to right, then meld the pairs right to left.
  std::uint32_t merge_pairs(std::uint32_t first) {
    pairs_.clear();
    while (first != kNone) {
      const std::uint32_t a = first;
      const std::uint32_t b = nodes_[a].sibling;
      if (b == kNone) {
        nodes_[a].sibling = kNone;
        pairs_.push_back(a);
        break;
      }
      first = nodes_[b].sibling;
      nodes_[a].sibling = kNone;
      nodes_[b].sibling = kNone;
      pairs_.push_back(meld(a, b));
    }
    if (pairs_.empty()) return kNone;
    std::uint32_t result = pairs_.back();
    for (std::size_t i = pairs_.size() - 1; i-- > 0;) result = meld(pairs_[i], result);
    return result;
  }

  std::vector<Node> nodes_;
  std::vector<std::uint32_t> pairs_;
  std::uint32_t root_ = kNone;
  std::uint32_t free_ = kNone;
  std::size_t size_ = 0;
};

/// The engine's queue, chosen by bench/sim_bench.cpp (hold workload and full replays).
using EventQueue = QuadHeap;

}  // namespace mapsim::sim
