#include "topologies/Topology.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "support/Error.hpp"

namespace mapsim::topo {

DistanceStats distance_stats(const HopHistogram& histogram) {
  DistanceStats stats;
  std::uint64_t weighted = 0;
  for (std::size_t h = 1; h < histogram.counts.size(); ++h) {
    if (histogram.counts[h] == 0) continue;
    stats.diameter = static_cast<int>(h);
    stats.pairs += histogram.counts[h];
    weighted += histogram.counts[h] * h;
  }
  stats.average = stats.pairs == 0 ? 0.0 : static_cast<double>(weighted) / stats.pairs;
  return stats;
}

Topology::Topology(std::vector<int> extents, NodeId node_count, int cores_per_node)
    : extents_(std::move(extents)), node_count_(node_count), cores_per_node_(cores_per_node) {
  MAPSIM_EXPECTS(node_count_ > 0 && cores_per_node_ > 0, "a topology needs nodes and cores");
}

std::vector<LinkId> Topology::route(NodeId a, NodeId b) const {
  std::vector<LinkId> path;
  route_into(a, b, path);
  return path;
}

int Topology::route_hops(std::span<const LinkId> path) const {
  if (nodes_are_routers()) return static_cast<int>(path.size());
  return static_cast<int>(
      std::count_if(path.begin(), path.end(), [&](LinkId id) { return is_router(link(id).to); }));
}

std::string Topology::vertex_name(VertexId v) const {
  return fmt::format("node {} {}", v, coordinate_string(v));
}

std::string Topology::coordinate_string(NodeId node) const {
  return fmt::format("({})", fmt::join(coordinates(node), ","));
}

std::vector<NodeId> Topology::natural_order() const {
  std::vector<NodeId> order(static_cast<std::size_t>(node_count_));
  std::iota(order.begin(), order.end(), NodeId{0});
  return order;
}

HopHistogram Topology::hop_histogram() const {
  using Counts = std::vector<std::uint64_t>;
  auto add = [](Counts a, const Counts& b) {
    if (a.size() < b.size()) a.resize(b.size());
    for (std::size_t h = 0; h < b.size(); ++h) a[h] += b[h];
    return a;
  };
  Counts counts = tbb::parallel_reduce(
      tbb::blocked_range<NodeId>(0, node_count_), Counts{},
      [&](const tbb::blocked_range<NodeId>& rows, Counts local) {
        for (NodeId a = rows.begin(); a != rows.end(); ++a) {
          for (NodeId b = 0; b < node_count_; ++b) {
            const auto h = static_cast<std::size_t>(hops(a, b));
            if (h >= local.size()) local.resize(h + 1);
            ++local[h];
          }
        }
        return local;
      },
      add);
  return HopHistogram{std::move(counts)};
}

std::array<std::int64_t, kLinkClassCount> Topology::links_per_class() const {
  std::array<std::int64_t, kLinkClassCount> counts{};
  for (LinkId id = 0; id < link_count(); ++id)
    ++counts[static_cast<std::size_t>(link(id).link_class)];
  return counts;
}

std::array<bool, kLinkClassCount> Topology::has_link_classes() const {
  std::array<bool, kLinkClassCount> has{};
  const auto counts = links_per_class();
  for (std::size_t c = 0; c < has.size(); ++c) has[c] = counts[c] > 0;
  has[static_cast<std::size_t>(LinkClass::IntraNode)] = true;
  return has;
}

void Topology::check_link_class(LinkClass link_class, std::string_view what) const {
  const auto has = has_link_classes();
  if (has[static_cast<std::size_t>(link_class)]) return;
  std::vector<std::string_view> names;
  for (const auto& info : link_classes()) {
    if (has[static_cast<std::size_t>(info.id)]) names.push_back(info.name);
  }
  throw InputError(fmt::format("{}: {} has no {} links; its link classes: {}", what, spec(),
                               name(link_class), fmt::join(names, ", ")));
}

void Topology::check_node(std::int64_t node, std::string_view what) const {
  if (node < 0 || node >= node_count_) {
    throw InputError(fmt::format("{}: node {} does not exist; {} has nodes 0 to {}", what, node,
                                 spec(), node_count_ - 1));
  }
}

}  // namespace mapsim::topo
