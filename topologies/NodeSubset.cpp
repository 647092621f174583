#include "topologies/NodeSubset.hpp"

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::topo {

NodeSubset::NodeSubset(const Topology& machine, std::vector<NodeId> nodes)
    : Topology({static_cast<int>(nodes.size())}, static_cast<NodeId>(nodes.size()),
               machine.cores_per_node()),
      machine_(&machine),
      nodes_(std::move(nodes)) {
  const auto vertices = static_cast<std::size_t>(machine.vertex_count());
  to_subset_.assign(vertices, -1);
  to_machine_.reserve(vertices);
  for (const NodeId node : nodes_) {
    MAPSIM_EXPECTS(node >= 0 && node < machine.node_count(), "a subset of the machine's nodes");
    MAPSIM_EXPECTS(to_subset_[static_cast<std::size_t>(node)] < 0, "a subset of distinct nodes");
    to_subset_[static_cast<std::size_t>(node)] = static_cast<VertexId>(to_machine_.size());
    to_machine_.push_back(node);
  }
  for (VertexId v = 0; v < machine.vertex_count(); ++v) {
    if (to_subset_[static_cast<std::size_t>(v)] >= 0) continue;
    to_subset_[static_cast<std::size_t>(v)] = static_cast<VertexId>(to_machine_.size());
    to_machine_.push_back(v);
  }
  set_routing(machine.routing());
  set_sockets(machine.sockets_per_node());
  // The machine's names of the nodes, defaults included (node 5 of torus:4x4x4 stays node05).
  std::vector<std::string> names;
  names.reserve(nodes_.size());
  for (const NodeId node : nodes_) names.push_back(machine.host_name(node));
  set_host_names(std::make_shared<const HostNames>(std::move(names), machine.host_names().source()),
                 "");
}

std::string NodeSubset::machine_spec() const {
  return fmt::format("{} nodes of {}", nodes_.size(), machine_->spec());
}

std::string_view NodeSubset::dimension_name(int /*dim*/) const {
  return "node";
}

NodeId NodeSubset::node_at(std::span<const int> coords) const {
  if (coords.size() != 1) {
    throw InputError(fmt::format("{} has 1 coordinate per node, got {}", spec(), coords.size()));
  }
  check_node(coords[0], "coordinate");
  return coords[0];
}

void NodeSubset::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  machine_->route_into(nodes_[static_cast<std::size_t>(a)], nodes_[static_cast<std::size_t>(b)],
                       path);
}

void NodeSubset::alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                                        std::vector<LinkId>& path) const {
  machine_->alternative_route_into(nodes_[static_cast<std::size_t>(a)],
                                   nodes_[static_cast<std::size_t>(b)], choice, path);
}

Link NodeSubset::link(LinkId id) const {
  Link link = machine_->link(id);
  link.from = to_subset_[static_cast<std::size_t>(link.from)];
  link.to = to_subset_[static_cast<std::size_t>(link.to)];
  return link;
}

std::string NodeSubset::vertex_name(VertexId v) const {
  return machine_->vertex_name(to_machine_[static_cast<std::size_t>(v)]);
}

std::vector<NodeLevel> NodeSubset::levels() const {
  return restrict_levels(machine_->levels(), nodes_);
}

std::unique_ptr<Topology> NodeSubset::block(std::span<const int> /*extents*/) const {
  MAPSIM_EXPECTS(false, "a subset's blocks are prefixes (prefix_blocks)");
  return nullptr;
}

}  // namespace mapsim::topo
