#include "topologies/Topology.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "support/Error.hpp"
#include "support/Hostlist.hpp"

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

namespace {

constexpr std::array<Routing, 1> kMinimalOnly{Routing::Minimal};

}  // namespace

std::string_view name(Routing routing) {
  switch (routing) {
    case Routing::Minimal:
      return "minimal";
    case Routing::Ecmp:
      return "ecmp";
    case Routing::Valiant:
      return "valiant";
    case Routing::Ugal:
      return "ugal";
  }
  return "?";
}

Topology::Topology(std::vector<int> extents, NodeId node_count, int cores_per_node)
    : extents_(std::move(extents)),
      node_count_(node_count),
      cores_per_node_(cores_per_node),
      names_(std::make_shared<const HostNames>(node_count)) {
  MAPSIM_EXPECTS(node_count_ > 0 && cores_per_node_ > 0, "a topology needs nodes and cores");
}

std::string Topology::spec() const {
  std::string text = machine_spec();
  if (sockets_per_node_ != 1) text += fmt::format(":sockets={}", sockets_per_node_);
  if (routing_ != Routing::Minimal) text += fmt::format(":routing={}", name(routing_));
  if (!allocation_.empty()) {
    std::vector<std::string> hosts;
    hosts.reserve(allocation_.size());
    for (const NodeId node : allocation_) hosts.push_back(names_->name(node));
    text += fmt::format(":allocation={}", compress_hostlist(hosts));
  }
  if (!hosts_file_.empty()) text += fmt::format(":hosts={}", hosts_file_);
  return text;
}

std::span<const Routing> Topology::routings() const {
  return kMinimalOnly;
}

void Topology::alternative_route_into(NodeId a, NodeId b, std::uint64_t /*choice*/,
                                      std::vector<LinkId>& path) const {
  route_into(a, b, path);
}

NodeId Topology::node_named(std::string_view text, std::string_view what) const {
  if (const auto node = names_->find(text)) return *node;
  if (!text.empty() && text.size() <= 10 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto node = std::stoll(std::string(text));
    check_node(node, what);
    return static_cast<NodeId>(node);
  }
  throw InputError(
      fmt::format("{}: '{}' is neither a host of {} ({} to {}) nor a node id (0 to {})", what, text,
                  spec(), names_->name(0), names_->name(node_count_ - 1), node_count_ - 1));
}

bool Topology::allocated(NodeId node) const {
  if (allocation_.empty()) return true;
  const auto n = static_cast<std::size_t>(node);
  return ((in_allocation_[n / 64] >> (n % 64)) & 1) != 0;
}

NodeId Topology::usable_nodes() const {
  return allocation_.empty() ? node_count_ : static_cast<NodeId>(allocation_.size());
}

void Topology::set_routing(Routing routing) {
  const auto offered = routings();
  MAPSIM_EXPECTS(std::find(offered.begin(), offered.end(), routing) != offered.end(),
                 "a routing the machine does not offer");
  routing_ = routing;
}

void Topology::set_sockets(int sockets) {
  MAPSIM_EXPECTS(sockets >= 1 && cores_per_node_ % sockets == 0, "sockets that divide the cores");
  sockets_per_node_ = sockets;
}

void Topology::set_host_names(std::shared_ptr<const HostNames> names, std::string file) {
  MAPSIM_EXPECTS(names != nullptr && names->size() == node_count_, "a name for every node");
  names_ = std::move(names);
  hosts_file_ = std::move(file);
}

void Topology::set_allocation(std::vector<NodeId> allocation) {
  MAPSIM_EXPECTS(std::is_sorted(allocation.begin(), allocation.end()) &&
                     std::adjacent_find(allocation.begin(), allocation.end()) == allocation.end(),
                 "an allocation is sorted without duplicates");
  MAPSIM_EXPECTS(allocation.empty() || (allocation.front() >= 0 && allocation.back() < node_count_),
                 "allocated nodes exist");
  allocation_ = std::move(allocation);
  in_allocation_.assign(allocation_.empty() ? 0 : (static_cast<std::size_t>(node_count_) + 63) / 64,
                        0);
  for (const NodeId node : allocation_) {
    const auto n = static_cast<std::size_t>(node);
    in_allocation_[n / 64] |= std::uint64_t{1} << (n % 64);
  }
}

std::vector<NodeLevel> restrict_levels(std::vector<NodeLevel> levels,
                                       std::span<const NodeId> nodes) {
  for (auto& level : levels) {
    std::vector<std::int32_t> renumber(static_cast<std::size_t>(level.groups), -1);
    std::vector<std::int32_t> group;
    group.reserve(nodes.size());
    std::int32_t groups = 0;
    for (const NodeId node : nodes) {
      auto& g = renumber[static_cast<std::size_t>(level.group[static_cast<std::size_t>(node)])];
      if (g < 0) g = groups++;
      group.push_back(g);
    }
    level.group = std::move(group);
    level.groups = groups;
  }
  return levels;
}

void MachineSetup::apply(Topology& machine) const {
  machine.set_sockets(sockets);
  machine.set_routing(routing);
  if (names) machine.set_host_names(names, hosts_file);
  machine.set_allocation(allocation);
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
  has[static_cast<std::size_t>(LinkClass::InterSocket)] = sockets_per_node_ > 1;
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
