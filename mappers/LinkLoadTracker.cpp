#include "mappers/LinkLoadTracker.hpp"

#include <algorithm>

namespace mapsim::map {

using topo::LinkId;
using topo::NodeId;

LinkLoadTracker::LinkLoadTracker(const CommGraph& graph, const topo::Topology& topology,
                                 std::span<const NodeId> node_of_rank)
    : graph_(graph), topology_(topology) {
  const auto links = static_cast<std::size_t>(topology.link_count());
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
      for (const LinkId l : route_) tree_[leaves_ + static_cast<std::size_t>(l)] += nb.bytes_out;
    }
  }
  for (std::size_t l = 0; l < links; ++l) {
    const Uint128 load = tree_[leaves_ + l];
    sum_of_squares_ += load * load;
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
    d += bytes;
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
  After after{0, sum_of_squares_};
  for (const LinkId l : touched_) {
    const auto k = static_cast<std::size_t>(l);
    const Uint128 old_load = tree_[leaves_ + k];
    const auto new_load =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(old_load) + delta_[k]);
    after.sum_of_squares =
        after.sum_of_squares - old_load * old_load + static_cast<Uint128>(new_load) * new_load;
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
    set(k, new_load);
    delta_[k] = 0;
  }
  touched_.clear();
}

}  // namespace mapsim::map
