#pragma once
// Static quality of a mapping f: rank -> node, all exact (integers where the quantity is one).
//
//   hop-bytes      HB = sum over ordered rank pairs (i, j) of bytes(i, j) * hops(f(i), f(j))
//   hop-messages   HM = sum of messages(i, j) * hops(f(i), f(j)) (the HAEC thesis's total IeNPC)
//   dilation       max hops(f(i), f(j)) over pairs that exchange at least one message, and the
//                  byte-weighted average HB / sum of bytes
//   IePLC          messages between distinct ranks (a property of the matrix)
//   IaNLC / IeNLC  messages between distinct ranks on the same node / on different nodes
//                  (IaNLC + IeNLC = IePLC); self-messages are counted apart. On nodes of
//                  several sockets, IaNLC splits into messages within a socket and between two
//                  sockets of the node (their cores: topologies/Mapping.hpp)
//   link loads     every message between different nodes crosses the links of its
//                  dimension-order route (Topology::route_into); per directed link the bytes and
//                  messages crossing it, and per link with both directions together (the
//                  thesis's IeNPC statistics). Statistics are over used links (at least one
//                  message), so min may be far above zero.
//   congestion     max over directed links of bytes / bandwidth of the link's class, in seconds:
//                  the time the busiest link needs for its traffic, a static lower bound.
//   traffic energy sum over directed links of 8 bytes x pJ/bit of the link's class, plus the
//                  bytes between ranks of one node x the intra-node (or, across sockets, the
//                  inter-socket) class's pJ/bit, in joules: the dynamic energy of the traffic on
//                  the static routes (sim/Energy.hpp adds the links' power over a replay)
//
// On direct networks (mesh, torus, HAEC Box) a route has hops(a, b) links, so the sum of the
// per-link message loads equals HM. On Tianhe-3 a route has one link more than its hops (the
// last link, into the destination node), so the sum equals HM + IeNLC.
//
// Swap deltas (for search-based mappers): exchanging the nodes of ranks i and j changes HB by
//   delta(i, j) = sum over neighbours l of i (l != j) of
//                   out(i,l) (h(f(j), f(l)) - h(f(i), f(l))) + in(i,l) (h(f(l), f(j)) - h(f(l),
//                   f(i)))
//               + the same for j with f(i) and f(j) exchanged
//               + out(i,j) (h(f(j), f(i)) - h(f(i), f(j))) + in(i,j) (h(f(i), f(j)) - h(f(j),
//               f(i)))
// in O(deg i + deg j) from the sparse graph; the last line vanishes when hops are symmetric.

#include <cstdint>
#include <span>
#include <vector>

#include "mappers/CommGraph.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::map::metrics {

/// Statistics of a load over the links that carry at least one message.
struct LoadStats {
  std::uint64_t total = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  double average = 0;
  std::int64_t used = 0;  ///< links with at least one message
};

/// Per directed link: bytes and messages crossing it.
struct LinkLoads {
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint64_t> messages;
};

struct Metrics {
  std::uint64_t bytes = 0;                ///< between distinct ranks
  std::uint64_t messages = 0;             ///< IePLC: between distinct ranks
  std::uint64_t self_messages = 0;        ///< a rank to itself (no link, not in IePLC)
  std::uint64_t intra_node_messages = 0;  ///< IaNLC
  std::uint64_t inter_node_messages = 0;  ///< IeNLC
  /// Of IaNLC, the messages between ranks on different sockets of their node (0 on nodes of one
  /// socket), and their bytes.
  std::uint64_t inter_socket_messages = 0;
  std::uint64_t inter_socket_bytes = 0;
  std::uint64_t hop_bytes = 0;
  std::uint64_t hop_messages = 0;
  int dilation_max = 0;
  double dilation_average = 0;  ///< weighted by bytes: hop_bytes / bytes (0 without bytes)
  LoadStats directed_bytes;     ///< per direction of a link
  LoadStats directed_messages;
  LoadStats link_bytes;  ///< per link, both directions together
  LoadStats link_messages;
  double max_link_seconds = 0;  ///< max over directed links of bytes / bandwidth
  /// sum over directed links of bytes^2 / bandwidth (byte-seconds): congestion-smooth's sum
  double link_load_squares = 0;
  /// sum over messages of their route's latency (the links' latencies; the intra-node or
  /// inter-socket channel's between ranks of one node), seconds: the latency objective's sum
  double latency_seconds = 0;
  double traffic_energy_joules = 0;
};

/// Throws InputError unless every sum weighted by hops is exact in 64 bits on `topology`: the
/// matrix's total bytes, and its total messages, times the machine's longest route in links (at
/// least its diameter in hops) must be at most 2^63 - 1. Then hop-bytes, hop-messages, link loads
/// and swap deltas cannot wrap. Mapper::map and evaluate check it; O(entries).
void check_summable(const traces::CommMatrix& matrix, const topo::Topology& topology);

/// hop-bytes alone, in parallel (deterministic: integer sums).
std::uint64_t hop_bytes(const traces::CommMatrix& matrix, const topo::Topology& topology,
                        const topo::Mapping& mapping);
std::uint64_t hop_bytes(const CommGraph& graph, const topo::Topology& topology,
                        std::span<const topo::NodeId> node_of_rank);

/// Dimension-order link loads, in parallel with one reused route buffer per thread (no
/// allocation per route); identical whatever the number of threads.
LinkLoads link_loads(const traces::CommMatrix& matrix, const topo::Topology& topology,
                     const topo::Mapping& mapping);

/// Every metric above. Preconditions: the mapping is valid for the matrix and the topology.
/// Throws InputError as check_summable.
Metrics evaluate(const traces::CommMatrix& matrix, const topo::Topology& topology,
                 const topo::Mapping& mapping, const topo::LinkTable& links = {});

/// Change of hop-bytes if ranks i and j exchange nodes (negative: better). O(deg i + deg j).
std::int64_t swap_delta(const CommGraph& graph, const topo::Topology& topology,
                        std::span<const topo::NodeId> node_of_rank, Rank i, Rank j);

/// Change of hop-bytes if rank i moves to node `to`. O(deg i).
std::int64_t move_delta(const CommGraph& graph, const topo::Topology& topology,
                        std::span<const topo::NodeId> node_of_rank, Rank i, topo::NodeId to);

/// The change of a rank's hop-bytes with partner nb (on node fl) when it moves from `from` to
/// `to`: out(i,l) (h(to, fl) - h(from, fl)) + in(i,l) (h(fl, to) - h(fl, from)). The hops of a
/// direction without bytes are not asked for (most pairs of irregular traffic go one way).
template <typename Hops>
std::int64_t directed_change(const Neighbor& nb, topo::NodeId fl, topo::NodeId from,
                             topo::NodeId to, const Hops& h) {
  std::int64_t change = 0;
  if (nb.bytes_out != 0)
    change += static_cast<std::int64_t>(nb.bytes_out) * (h(to, fl) - h(from, fl));
  if (nb.bytes_in != 0)
    change += static_cast<std::int64_t>(nb.bytes_in) * (h(fl, to) - h(fl, from));
  return change;
}

/// swap_delta with the hops of `hops(a, b)` (an int64), e.g. a table equal to the machine's.
template <typename Hops>
std::int64_t swap_delta_by(const CommGraph& graph, const Hops& hops,
                           std::span<const topo::NodeId> node_of_rank, Rank i, Rank j) {
  const topo::NodeId fi = node_of_rank[static_cast<std::size_t>(i)];
  const topo::NodeId fj = node_of_rank[static_cast<std::size_t>(j)];
  if (fi == fj) return 0;
  std::int64_t delta = 0;
  // Rank `r` leaves node `from` for node `to`; its partners other than `other` stay put.
  auto side = [&](Rank r, Rank other, topo::NodeId from, topo::NodeId to) {
    for (const auto& nb : graph.neighbors(r)) {
      if (nb.rank == other) {
        // The pair itself: i and j exchange places, so only asymmetric hops change it.
        delta += static_cast<std::int64_t>(nb.bytes_out) * (hops(to, from) - hops(from, to));
        continue;
      }
      delta += directed_change(nb, node_of_rank[static_cast<std::size_t>(nb.rank)], from, to, hops);
    }
  };
  side(i, j, fi, fj);
  side(j, i, fj, fi);
  return delta;
}

/// move_delta with the hops of `hops(a, b)`.
template <typename Hops>
std::int64_t move_delta_by(const CommGraph& graph, const Hops& hops,
                           std::span<const topo::NodeId> node_of_rank, Rank i, topo::NodeId to) {
  const topo::NodeId from = node_of_rank[static_cast<std::size_t>(i)];
  if (from == to) return 0;
  std::int64_t delta = 0;
  for (const auto& nb : graph.neighbors(i))
    delta += directed_change(nb, node_of_rank[static_cast<std::size_t>(nb.rank)], from, to, hops);
  return delta;
}

}  // namespace mapsim::map::metrics
