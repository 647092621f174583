#include "mappers/CommGraph.hpp"

#include <algorithm>

namespace mapsim::map {

CommGraph::CommGraph(const traces::CommMatrix& matrix) {
  const auto n = static_cast<std::size_t>(matrix.rank_count());
  // Both directions of every off-diagonal entry, bucketed by rank, then sorted and merged.
  std::vector<std::size_t> count(n + 1, 0);
  for (Rank src = 0; src < matrix.rank_count(); ++src) {
    for (const Rank dst : matrix.destinations(src)) {
      if (dst == src) continue;
      ++count[static_cast<std::size_t>(src)];
      ++count[static_cast<std::size_t>(dst)];
    }
  }
  std::vector<std::size_t> start(n + 1, 0);
  for (std::size_t r = 0; r < n; ++r) start[r + 1] = start[r] + count[r];
  std::vector<Neighbor> raw(start[n]);
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  for (Rank src = 0; src < matrix.rank_count(); ++src) {
    const auto dsts = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      const Rank dst = dsts[k];
      if (dst == src) continue;
      raw[fill[static_cast<std::size_t>(src)]++] = {dst, traffic[k].bytes, 0, traffic[k].messages,
                                                    0};
      raw[fill[static_cast<std::size_t>(dst)]++] = {src, 0, traffic[k].bytes, 0,
                                                    traffic[k].messages};
    }
  }
  row_start_.assign(n + 1, 0);
  volume_.assign(n, 0);
  neighbors_.reserve(raw.size());
  for (std::size_t r = 0; r < n; ++r) {
    auto first = raw.begin() + static_cast<std::ptrdiff_t>(start[r]);
    auto last = raw.begin() + static_cast<std::ptrdiff_t>(start[r + 1]);
    std::sort(first, last, [](const Neighbor& a, const Neighbor& b) { return a.rank < b.rank; });
    for (auto it = first; it != last; ++it) {
      if (neighbors_.size() > row_start_[r] && neighbors_.back().rank == it->rank) {
        auto& merged = neighbors_.back();
        merged.bytes_out += it->bytes_out;
        merged.bytes_in += it->bytes_in;
        merged.messages_out += it->messages_out;
        merged.messages_in += it->messages_in;
      } else {
        neighbors_.push_back(*it);
      }
      volume_[r] += it->bytes_out + it->bytes_in;
    }
    row_start_[r + 1] = neighbors_.size();
    max_degree_ = std::max(max_degree_, static_cast<int>(row_start_[r + 1] - row_start_[r]));
  }
}

CommGraph CommGraph::by_messages() const {
  CommGraph counts = *this;
  for (auto& nb : counts.neighbors_) {
    nb.bytes_out = nb.messages_out;
    nb.bytes_in = nb.messages_in;
  }
  for (Rank r = 0; r < rank_count(); ++r) {
    std::uint64_t sum = 0;
    for (const auto& nb : counts.neighbors(r)) sum += nb.messages();
    counts.volume_[static_cast<std::size_t>(r)] = sum;
  }
  return counts;
}

CommGraph CommGraph::heavy(double share) const {
  std::uint64_t heaviest = 0;
  for (const auto& nb : neighbors_) heaviest = std::max(heaviest, nb.bytes());
  const auto least = static_cast<double>(heaviest) * share;
  CommGraph kept;
  const auto n = static_cast<std::size_t>(rank_count());
  kept.row_start_.assign(n + 1, 0);
  kept.volume_.assign(n, 0);
  for (std::size_t r = 0; r < n; ++r) {
    for (const auto& nb : neighbors(static_cast<Rank>(r))) {
      if (static_cast<double>(nb.bytes()) < least) continue;
      kept.neighbors_.push_back(nb);
      kept.volume_[r] += nb.bytes();
    }
    kept.row_start_[r + 1] = kept.neighbors_.size();
    kept.max_degree_ =
        std::max(kept.max_degree_, static_cast<int>(kept.row_start_[r + 1] - kept.row_start_[r]));
  }
  return kept;
}

}  // namespace mapsim::map
