#include "mappers/LinkLoadTracker.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::map {

using topo::LinkId;
using topo::NodeId;

std::array<std::uint64_t, topo::kLinkClassCount> link_time_weights(const topo::Topology& topology) {
  const topo::LinkTable table;
  const auto present = topology.has_link_classes();
  auto network = [&](int c) {
    const auto link_class = static_cast<topo::LinkClass>(c);
    return present[static_cast<std::size_t>(c)] && link_class != topo::LinkClass::IntraNode &&
           link_class != topo::LinkClass::InterSocket;
  };
  double fastest = 0;
  double slowest = std::numeric_limits<double>::infinity();
  for (int c = 0; c < topo::kLinkClassCount; ++c) {
    if (!network(c)) continue;
    fastest = std::max(fastest, table[static_cast<topo::LinkClass>(c)].bandwidth);
    slowest = std::min(slowest, table[static_cast<topo::LinkClass>(c)].bandwidth);
  }
  std::array<std::uint64_t, topo::kLinkClassCount> weights{};
  weights.fill(1);
  if (fastest == slowest || fastest == 0) return weights;
  for (int c = 0; c < topo::kLinkClassCount; ++c) {
    if (!network(c)) continue;
    const double bandwidth = table[static_cast<topo::LinkClass>(c)].bandwidth;
    weights[static_cast<std::size_t>(c)] = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::llround(1000 * fastest / bandwidth)));
  }
  return weights;
}

LinkLoadTracker::LinkLoadTracker(const CommGraph& graph, const topo::Topology& topology,
                                 std::span<const NodeId> node_of_rank)
    : graph_(graph), topology_(topology) {
  const auto links = static_cast<std::size_t>(topology.link_count());
  const auto classes = link_time_weights(topology);
  weight_.resize(links);
  std::uint64_t heaviest = 1;
  for (std::size_t l = 0; l < links; ++l) {
    weight_[l] =
        classes[static_cast<std::size_t>(topology.link(static_cast<LinkId>(l)).link_class)];
    heaviest = std::max(heaviest, weight_[l]);
  }
  std::uint64_t bytes = 0;
  for (Rank r = 0; r < graph.rank_count(); ++r) bytes += graph.bytes(r);
  bytes /= 2;  // graph.bytes counts each pair at both ends
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const auto longest = static_cast<std::uint64_t>(std::max(1, topology.max_route_links()));
  if (bytes > kMax / longest / heaviest) {
    throw InputError(fmt::format(
        "the link objectives (congestion, congestion-smooth, hybrid): {} bytes between ranks over "
        "routes of up to "
        "{} links, weighted by up to {}, pass 2^63 - 1, the most the congestion objectives sum "
        "exactly; use objective=hop-bytes",
        bytes, longest, heaviest));
  }
  while (leaves_ < links) leaves_ *= 2;
  tree_.assign(2 * leaves_, 0);
  delta_.assign(links, 0);
  route_.reserve(static_cast<std::size_t>(topology.max_route_links()));
  for (Rank u = 0; u < graph.rank_count(); ++u) {
    const NodeId a = node_of_rank[static_cast<std::size_t>(u)];
    for (const auto& nb : graph.neighbors(u)) {
      const NodeId b = node_of_rank[static_cast<std::size_t>(nb.rank)];
      if (a == b || nb.bytes_out == 0) continue;
      topology.route_into(a, b, route_);
      for (const LinkId l : route_) {
        const auto k = static_cast<std::size_t>(l);
        tree_[leaves_ + k] += nb.bytes_out * weight_[k];
      }
    }
  }
  for (std::size_t l = 0; l < links; ++l) {
    const Uint128 load = tree_[leaves_ + l];
    sum_of_squares_ += load * load;
    smooth_ += load * (load / weight_[l]);
  }
  for (std::size_t k = leaves_ - 1; k >= 1; --k)
    tree_[k] = std::max(tree_[2 * k], tree_[2 * k + 1]);
}

void LinkLoadTracker::set(std::size_t link, std::uint64_t value) {
  std::size_t k = leaves_ + link;
  tree_[k] = value;
  for (k /= 2; k >= 1; k /= 2) {
    const std::uint64_t top = std::max(tree_[2 * k], tree_[2 * k + 1]);
    if (tree_[k] == top) break;  // nothing above changes
    tree_[k] = top;
  }
}

void LinkLoadTracker::add_route(NodeId from, NodeId to, std::int64_t bytes, std::uint64_t& work) {
  if (from == to || bytes == 0) return;
  topology_.route_into(from, to, route_);
  work += route_.size();
  for (const LinkId l : route_) {
    auto& d = delta_[static_cast<std::size_t>(l)];
    if (d == 0) touched_.push_back(l);  // may repeat if d returns to 0: harmless below
    d += bytes * static_cast<std::int64_t>(weight_[static_cast<std::size_t>(l)]);
  }
}

void LinkLoadTracker::collect(std::span<const NodeId> node_of_rank, Rank a, NodeId to_a, Rank b,
                              NodeId to_b, std::uint64_t& work) {
  auto now = [&](Rank r) {
    if (r == a) return to_a;
    if (r == b) return to_b;
    return node_of_rank[static_cast<std::size_t>(r)];
  };
  auto moved = [&](Rank r, Rank skip) {
    const NodeId old_r = node_of_rank[static_cast<std::size_t>(r)];
    const NodeId new_r = now(r);
    for (const auto& nb : graph_.neighbors(r)) {
      if (nb.rank == skip) continue;
      const NodeId old_l = node_of_rank[static_cast<std::size_t>(nb.rank)];
      const NodeId new_l = now(nb.rank);
      const auto out = static_cast<std::int64_t>(nb.bytes_out);
      const auto in = static_cast<std::int64_t>(nb.bytes_in);
      add_route(old_r, old_l, -out, work);
      add_route(new_r, new_l, out, work);
      add_route(old_l, old_r, -in, work);
      add_route(new_l, new_r, in, work);
    }
  };
  moved(a, -1);
  if (b != -1) moved(b, a);  // the pair (a, b) was handled with a
  // Drop repeated entries (a delta that passed through 0).
  std::sort(touched_.begin(), touched_.end());
  touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
}

LinkLoadTracker::After LinkLoadTracker::evaluate(std::span<const NodeId> node_of_rank, Rank a,
                                                 NodeId to_a, Rank b, NodeId to_b,
                                                 std::uint64_t& work) {
  collect(node_of_rank, a, to_a, b, to_b, work);
  After after{0, sum_of_squares_, smooth_};
  for (const LinkId l : touched_) {
    const auto k = static_cast<std::size_t>(l);
    const Uint128 old_load = tree_[leaves_ + k];
    const auto new_load =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(old_load) + delta_[k]);
    after.sum_of_squares =
        after.sum_of_squares - old_load * old_load + static_cast<Uint128>(new_load) * new_load;
    after.smooth = after.smooth - old_load * (old_load / weight_[k]) +
                   static_cast<Uint128>(new_load) * (new_load / weight_[k]);
    // Keep the old load in delta_ to restore it below.
    delta_[k] = static_cast<std::int64_t>(old_load);
    set(k, new_load);
  }
  after.max = tree_[1];
  for (const LinkId l : touched_) {
    const auto k = static_cast<std::size_t>(l);
    set(k, static_cast<std::uint64_t>(delta_[k]));
    delta_[k] = 0;
  }
  touched_.clear();
  return after;
}

void LinkLoadTracker::apply(std::span<const NodeId> node_of_rank, Rank a, NodeId to_a, Rank b,
                            NodeId to_b, std::uint64_t& work) {
  collect(node_of_rank, a, to_a, b, to_b, work);
  for (const LinkId l : touched_) {
    const auto k = static_cast<std::size_t>(l);
    const Uint128 old_load = tree_[leaves_ + k];
    const auto new_load =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(old_load) + delta_[k]);
    sum_of_squares_ =
        sum_of_squares_ - old_load * old_load + static_cast<Uint128>(new_load) * new_load;
    smooth_ = smooth_ - old_load * (old_load / weight_[k]) +
              static_cast<Uint128>(new_load) * (new_load / weight_[k]);
    set(k, new_load);
    delta_[k] = 0;
  }
  touched_.clear();
}

}  // namespace mapsim::map
