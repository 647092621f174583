#include "traces/MatrixStatistics.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace mapsim::traces {
namespace {

bool heavier(const PairTraffic& a, const PairTraffic& b) {
  if (a.traffic.bytes != b.traffic.bytes) return a.traffic.bytes > b.traffic.bytes;
  if (a.traffic.messages != b.traffic.messages) return a.traffic.messages > b.traffic.messages;
  return a.src != b.src ? a.src < b.src : a.dst < b.dst;
}

template <typename Value>
Spread spread(const std::vector<RankTraffic>& ranks, Value value) {
  if (ranks.empty()) return {};
  Spread s{static_cast<double>(value(ranks.front())), 0, static_cast<double>(value(ranks.front()))};
  double sum = 0;
  for (const auto& rank : ranks) {
    const auto v = static_cast<double>(value(rank));
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    sum += v;
  }
  s.mean = sum / static_cast<double>(ranks.size());
  return s;
}

}  // namespace

MatrixStatistics matrix_statistics(const CommMatrix& matrix, std::size_t top) {
  MatrixStatistics stats;
  stats.ranks = matrix.rank_count();
  stats.nonzero_pairs = matrix.nonzero_count();
  stats.per_rank.resize(static_cast<std::size_t>(stats.ranks));
  for (Rank r = 0; r < stats.ranks; ++r) stats.per_rank[static_cast<std::size_t>(r)].rank = r;

  // A min-heap of the `top` heaviest pairs seen so far: its front is the lightest kept.
  std::vector<PairTraffic> heap;
  for (Rank src = 0; src < stats.ranks; ++src) {
    const auto dsts = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    auto& sender = stats.per_rank[static_cast<std::size_t>(src)];
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      const Rank dst = dsts[k];
      const Traffic& t = traffic[k];
      auto& receiver = stats.per_rank[static_cast<std::size_t>(dst)];
      stats.total.messages += t.messages;
      stats.total.bytes += t.bytes;
      sender.sent.messages += t.messages;
      sender.sent.bytes += t.bytes;
      receiver.received.messages += t.messages;
      receiver.received.bytes += t.bytes;
      if (dst == src) {
        ++stats.self_pairs;
        stats.self.messages += t.messages;
        stats.self.bytes += t.bytes;
      } else {
        ++sender.out_degree;
        ++receiver.in_degree;
      }
      if (top == 0) continue;
      const PairTraffic pair{src, dst, t};
      if (heap.size() < top) {
        heap.push_back(pair);
        std::push_heap(heap.begin(), heap.end(), heavier);
      } else if (heavier(pair, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), heavier);
        heap.back() = pair;
        std::push_heap(heap.begin(), heap.end(), heavier);
      }
    }
  }
  std::sort(heap.begin(), heap.end(), heavier);
  stats.heaviest = std::move(heap);

  for (const auto& rank : stats.per_rank) {
    if (rank.sent.messages + rank.received.messages > 0) ++stats.active_ranks;
  }
  stats.out_degree = spread(stats.per_rank, [](const RankTraffic& r) { return r.out_degree; });
  stats.in_degree = spread(stats.per_rank, [](const RankTraffic& r) { return r.in_degree; });
  stats.sent_bytes = spread(stats.per_rank, [](const RankTraffic& r) { return r.sent.bytes; });
  stats.received_bytes =
      spread(stats.per_rank, [](const RankTraffic& r) { return r.received.bytes; });
  return stats;
}

std::vector<MatrixCaveat> matrix_caveats(const CommMatrix& matrix, bool collectives,
                                         std::optional<std::uint64_t> collective_calls,
                                         std::string_view p2p_option) {
  std::vector<MatrixCaveat> caveats;
  const Traffic total = matrix.total();
  const bool calls = collective_calls.value_or(1) > 0;  // unknown: there may be some
  const std::string left_out =
      !collectives && calls
          ? fmt::format(
                "; {} leaves the input's {}collective calls out, drop it to map the "
                "collectives' messages",
                p2p_option,
                collective_calls ? fmt::format("{} ", *collective_calls) : std::string())
          : std::string();
  if (total.bytes == 0) {
    caveats.push_back(
        {true, fmt::format("the matrix {}: every placement has hop-bytes 0, so the mappers have "
                           "nothing to optimise and any mapping scores as well as another{}",
                           total.messages == 0 ? std::string("is empty")
                                               : fmt::format("carries no bytes ({} empty messages)",
                                                             total.messages),
                           left_out)});
    return caveats;
  }
  if (collectives) {
    const Traffic part = matrix.collective_total();
    const double share =
        static_cast<double>(total.bytes - part.bytes) / static_cast<double>(total.bytes);
    if (part.bytes == total.bytes) {
      caveats.push_back(
          {false, fmt::format("the input sends no point-to-point bytes: the matrix is its "
                              "collectives' messages as the replay sends them ({} leaves them "
                              "out)",
                              p2p_option)});
    } else if (part.bytes > 0 && share < kSmallPointToPointShare) {
      caveats.push_back(
          {false, fmt::format("point-to-point messages are {:.1f} % of the matrix's bytes; the "
                              "rest are the collectives' messages as the replay sends them, "
                              "which the mappers place as well ({} leaves them out)",
                              100.0 * share, p2p_option)});
    }
  } else if (collective_calls.value_or(0) > 0) {
    caveats.push_back({false, fmt::format("the matrix leaves the input's {} collective calls out "
                                          "({}), though the replay sends their messages",
                                          *collective_calls, p2p_option)});
  }
  return caveats;
}

}  // namespace mapsim::traces
