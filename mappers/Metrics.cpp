#include "mappers/Metrics.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "support/Error.hpp"

namespace mapsim::map::metrics {
namespace {

using topo::LinkId;
using topo::NodeId;

// Sums over rank pairs; every field combines associatively and exactly, so the result does not
// depend on how TBB splits the ranks.
struct PairSums {
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
  std::uint64_t self_messages = 0;
  std::uint64_t intra = 0;
  std::uint64_t intra_bytes = 0;
  std::uint64_t inter_socket = 0;
  std::uint64_t inter_socket_bytes = 0;
  std::uint64_t hop_bytes = 0;
  std::uint64_t hop_messages = 0;
  int dilation = 0;

  PairSums& operator+=(const PairSums& o) {
    bytes += o.bytes;
    messages += o.messages;
    self_messages += o.self_messages;
    intra += o.intra;
    intra_bytes += o.intra_bytes;
    inter_socket += o.inter_socket;
    inter_socket_bytes += o.inter_socket_bytes;
    hop_bytes += o.hop_bytes;
    hop_messages += o.hop_messages;
    dilation = std::max(dilation, o.dilation);
    return *this;
  }
};

PairSums pair_sums(const traces::CommMatrix& matrix, const topo::Topology& topology,
                   const topo::Mapping& mapping) {
  // Sockets only where a node has several (empty: every rank on socket 0).
  const auto sockets = topology.sockets_per_node() > 1 ? topo::sockets_of(mapping, topology)
                                                       : std::vector<std::int32_t>{};
  return tbb::parallel_reduce(
      tbb::blocked_range<Rank>(0, matrix.rank_count(), 256), PairSums{},
      [&](const tbb::blocked_range<Rank>& ranks, PairSums sums) {
        for (Rank src = ranks.begin(); src != ranks.end(); ++src) {
          const NodeId a = mapping.node(src);
          const auto dsts = matrix.destinations(src);
          const auto traffic = matrix.traffic(src);
          for (std::size_t k = 0; k < dsts.size(); ++k) {
            if (dsts[k] == src) {
              sums.self_messages += traffic[k].messages;
              continue;
            }
            const NodeId b = mapping.node(dsts[k]);
            sums.bytes += traffic[k].bytes;
            sums.messages += traffic[k].messages;
            if (a == b) {
              sums.intra += traffic[k].messages;
              sums.intra_bytes += traffic[k].bytes;
              if (!sockets.empty() && sockets[static_cast<std::size_t>(src)] !=
                                          sockets[static_cast<std::size_t>(dsts[k])]) {
                sums.inter_socket += traffic[k].messages;
                sums.inter_socket_bytes += traffic[k].bytes;
              }
              continue;
            }
            const auto h = static_cast<std::uint64_t>(topology.hops(a, b));
            sums.hop_bytes += traffic[k].bytes * h;
            sums.hop_messages += traffic[k].messages * h;
            if (traffic[k].messages > 0)
              sums.dilation = std::max(sums.dilation, static_cast<int>(h));
          }
        }
        return sums;
      },
      [](PairSums x, const PairSums& y) { return x += y; });
}

LoadStats stats(std::span<const std::uint64_t> load, std::span<const std::uint64_t> messages) {
  LoadStats s;
  s.min = std::numeric_limits<std::uint64_t>::max();
  for (std::size_t k = 0; k < load.size(); ++k) {
    if (messages[k] == 0) continue;
    ++s.used;
    s.total += load[k];
    s.min = std::min(s.min, load[k]);
    s.max = std::max(s.max, load[k]);
  }
  if (s.used == 0) {
    s.min = 0;
  } else {
    s.average = static_cast<double>(s.total) / static_cast<double>(s.used);
  }
  return s;
}

// For every directed link, the index of its undirected link (the pair of its endpoints).
std::vector<std::int32_t> undirected_links(const topo::Topology& topology, std::int32_t& count) {
  const LinkId n = topology.link_count();
  std::vector<std::pair<std::uint64_t, LinkId>> keyed(static_cast<std::size_t>(n));
  for (LinkId id = 0; id < n; ++id) {
    const auto link = topology.link(id);
    const auto lo = static_cast<std::uint64_t>(std::min(link.from, link.to));
    const auto hi = static_cast<std::uint64_t>(std::max(link.from, link.to));
    keyed[static_cast<std::size_t>(id)] = {lo << 32 | hi, id};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::int32_t> index(static_cast<std::size_t>(n));
  count = 0;
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    if (k > 0 && keyed[k].first != keyed[k - 1].first) ++count;
    index[static_cast<std::size_t>(keyed[k].second)] = count;
  }
  if (!keyed.empty()) ++count;
  return index;
}

}  // namespace

void check_summable(const traces::CommMatrix& matrix, const topo::Topology& topology) {
  constexpr auto kLimit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const auto longest = static_cast<std::uint64_t>(std::max(topology.max_route_links(), 1));
  const traces::Traffic total = matrix.total();
  for (const auto& [value, what] :
       {std::pair{total.bytes, "bytes"}, std::pair{total.messages, "messages"}}) {
    if (value > kLimit / longest) {
      throw InputError(fmt::format(
          "the communication matrix's {} {} are too large for {} (limit {}): times {} links, "
          "the longest route, they pass {}, the most mapsim sums exactly (hop-{}, link loads)",
          value, what, topology.spec(), kLimit / longest, longest, kLimit, what));
    }
  }
}

std::uint64_t hop_bytes(const traces::CommMatrix& matrix, const topo::Topology& topology,
                        const topo::Mapping& mapping) {
  return pair_sums(matrix, topology, mapping).hop_bytes;
}

std::uint64_t hop_bytes(const CommGraph& graph, const topo::Topology& topology,
                        std::span<const NodeId> node_of_rank) {
  return tbb::parallel_reduce(
      tbb::blocked_range<Rank>(0, graph.rank_count(), 256), std::uint64_t{0},
      [&](const tbb::blocked_range<Rank>& ranks, std::uint64_t sum) {
        for (Rank i = ranks.begin(); i != ranks.end(); ++i) {
          const NodeId a = node_of_rank[static_cast<std::size_t>(i)];
          for (const auto& nb : graph.neighbors(i)) {
            const NodeId b = node_of_rank[static_cast<std::size_t>(nb.rank)];
            if (a != b) sum += nb.bytes_out * static_cast<std::uint64_t>(topology.hops(a, b));
          }
        }
        return sum;
      },
      std::plus<>());
}

LinkLoads link_loads(const traces::CommMatrix& matrix, const topo::Topology& topology,
                     const topo::Mapping& mapping) {
  const auto links = static_cast<std::size_t>(topology.link_count());
  struct Local {
    std::vector<std::uint64_t> bytes;
    std::vector<std::uint64_t> messages;
    std::vector<LinkId> route;
  };
  tbb::enumerable_thread_specific<Local> locals([&] {
    Local local{std::vector<std::uint64_t>(links, 0), std::vector<std::uint64_t>(links, 0), {}};
    local.route.reserve(static_cast<std::size_t>(topology.max_route_links()));
    return local;
  });
  tbb::parallel_for(tbb::blocked_range<Rank>(0, matrix.rank_count(), 64),
                    [&](const tbb::blocked_range<Rank>& ranks) {
                      auto& local = locals.local();
                      for (Rank src = ranks.begin(); src != ranks.end(); ++src) {
                        const NodeId a = mapping.node(src);
                        const auto dsts = matrix.destinations(src);
                        const auto traffic = matrix.traffic(src);
                        for (std::size_t k = 0; k < dsts.size(); ++k) {
                          const NodeId b = mapping.node(dsts[k]);
                          if (a == b) continue;
                          topology.route_into(a, b, local.route);
                          for (const LinkId id : local.route) {
                            local.bytes[static_cast<std::size_t>(id)] += traffic[k].bytes;
                            local.messages[static_cast<std::size_t>(id)] += traffic[k].messages;
                          }
                        }
                      }
                    });
  // Integer sums: the same totals whichever thread handled which ranks.
  LinkLoads loads{std::vector<std::uint64_t>(links, 0), std::vector<std::uint64_t>(links, 0)};
  for (const auto& local : locals) {
    for (std::size_t id = 0; id < links; ++id) {
      loads.bytes[id] += local.bytes[id];
      loads.messages[id] += local.messages[id];
    }
  }
  return loads;
}

Metrics evaluate(const traces::CommMatrix& matrix, const topo::Topology& topology,
                 const topo::Mapping& mapping, const topo::LinkTable& table) {
  MAPSIM_EXPECTS(mapping.rank_count() == matrix.rank_count(),
                 "the mapping and the matrix disagree on the number of ranks");
  check_summable(matrix, topology);
  const PairSums sums = pair_sums(matrix, topology, mapping);
  Metrics m;
  m.bytes = sums.bytes;
  m.messages = sums.messages;
  m.self_messages = sums.self_messages;
  m.intra_node_messages = sums.intra;
  m.inter_node_messages = sums.messages - sums.intra;
  m.inter_socket_messages = sums.inter_socket;
  m.inter_socket_bytes = sums.inter_socket_bytes;
  // The nodes' channels: within a socket, and between sockets.
  m.traffic_energy_joules =
      8e-12 * (static_cast<double>(sums.intra_bytes - sums.inter_socket_bytes) *
                   table.energy(topo::LinkClass::IntraNode).pj_per_bit +
               static_cast<double>(sums.inter_socket_bytes) *
                   table.energy(topo::LinkClass::InterSocket).pj_per_bit);
  m.latency_seconds =
      static_cast<double>(sums.intra - sums.inter_socket) *
          table[topo::LinkClass::IntraNode].latency +
      static_cast<double>(sums.inter_socket) * table[topo::LinkClass::InterSocket].latency;
  m.hop_bytes = sums.hop_bytes;
  m.hop_messages = sums.hop_messages;
  m.dilation_max = sums.dilation;
  m.dilation_average =
      sums.bytes == 0 ? 0.0 : static_cast<double>(sums.hop_bytes) / static_cast<double>(sums.bytes);

  const LinkLoads loads = link_loads(matrix, topology, mapping);
  m.directed_bytes = stats(loads.bytes, loads.messages);
  m.directed_messages = stats(loads.messages, loads.messages);

  std::int32_t undirected = 0;
  const auto index = undirected_links(topology, undirected);
  std::vector<std::uint64_t> both_bytes(static_cast<std::size_t>(undirected), 0);
  std::vector<std::uint64_t> both_messages(static_cast<std::size_t>(undirected), 0);
  for (std::size_t id = 0; id < loads.bytes.size(); ++id) {
    const auto u = static_cast<std::size_t>(index[id]);
    both_bytes[u] += loads.bytes[id];
    both_messages[u] += loads.messages[id];
    if (loads.bytes[id] == 0) continue;
    const auto link_class = topology.link(static_cast<LinkId>(id)).link_class;
    m.traffic_energy_joules +=
        8e-12 * static_cast<double>(loads.bytes[id]) * table.energy(link_class).pj_per_bit;
    const double bandwidth = table[link_class].bandwidth;
    const auto bytes = static_cast<double>(loads.bytes[id]);
    m.max_link_seconds = std::max(m.max_link_seconds, bytes / bandwidth);
    m.link_load_squares += bytes * bytes / bandwidth;
  }
  for (std::size_t id = 0; id < loads.messages.size(); ++id) {
    if (loads.messages[id] == 0) continue;
    const auto link_class = topology.link(static_cast<LinkId>(id)).link_class;
    m.latency_seconds += static_cast<double>(loads.messages[id]) * table[link_class].latency;
  }
  m.link_bytes = stats(both_bytes, both_messages);
  m.link_messages = stats(both_messages, both_messages);
  return m;
}

std::int64_t swap_delta(const CommGraph& graph, const topo::Topology& topology,
                        std::span<const NodeId> node_of_rank, Rank i, Rank j) {
  return swap_delta_by(
      graph, [&](NodeId a, NodeId b) { return static_cast<std::int64_t>(topology.hops(a, b)); },
      node_of_rank, i, j);
}

std::int64_t move_delta(const CommGraph& graph, const topo::Topology& topology,
                        std::span<const NodeId> node_of_rank, Rank i, NodeId to) {
  return move_delta_by(
      graph, [&](NodeId a, NodeId b) { return static_cast<std::int64_t>(topology.hops(a, b)); },
      node_of_rank, i, to);
}

}  // namespace mapsim::map::metrics
