#pragma once
// Some of a machine's nodes as a machine of their own: a job's allocation, or the compact block of
// a hierarchical machine (Block.hpp). The mappers compute on it as on any machine; node k of the
// subset is node nodes()[k] of the machine.
//
// Everything but the node numbering is the machine's: hops(a, b) and routes (minimal and
// alternative, under the machine's routing) are the machine's between the same nodes, its links
// keep their ids and classes, and messages may cross nodes,
// routers and switches outside the subset. Vertices are renumbered so that the subset's nodes come
// first: vertex k < n is the subset's node k; the machine's other vertices follow in their own
// order (its other nodes, then its routers and switches). So a route is still a chain of links
// from node a to node b in the subset's vertex ids.
// Coordinates: one dimension, the position in the subset (no grid: has_grid() is false). Levels:
// the machine's, restricted to the subset (restrict_levels).
// The subset refers to the machine, which must outlive it.

#include "topologies/Topology.hpp"

namespace mapsim::topo {

class NodeSubset final : public Topology {
 public:
  /// Preconditions: nodes non-empty, distinct, each a node of `machine`.
  NodeSubset(const Topology& machine, std::vector<NodeId> nodes);

  [[nodiscard]] const Topology& machine() const { return *machine_; }
  /// Node k of the subset is node nodes()[k] of the machine.
  [[nodiscard]] std::span<const NodeId> nodes() const { return nodes_; }

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return "subset"; }
  [[nodiscard]] VertexId vertex_count() const override { return machine_->vertex_count(); }
  [[nodiscard]] bool nodes_are_routers() const override { return machine_->nodes_are_routers(); }

  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override { return {node}; }
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override {
    return machine_->hops(nodes_[static_cast<std::size_t>(a)], nodes_[static_cast<std::size_t>(b)]);
  }
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] std::span<const Routing> routings() const override { return machine_->routings(); }
  void alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                              std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override { return machine_->max_route_links(); }
  [[nodiscard]] LinkId link_count() const override { return machine_->link_count(); }
  [[nodiscard]] Link link(LinkId id) const override;
  [[nodiscard]] std::string vertex_name(VertexId v) const override;
  [[nodiscard]] std::array<std::int64_t, kLinkClassCount> links_per_class() const override {
    return machine_->links_per_class();
  }
  [[nodiscard]] std::vector<NodeLevel> levels() const override;
  [[nodiscard]] bool has_grid() const override { return false; }

  [[nodiscard]] std::optional<BlockStats> block_stats(
      std::span<const int> /*extents*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> extents) const override;
  [[nodiscard]] bool prefix_blocks() const override { return true; }

 private:
  const Topology* machine_;
  std::vector<NodeId> nodes_;
  std::vector<VertexId> to_machine_;  // subset vertex -> machine vertex
  std::vector<VertexId> to_subset_;   // machine vertex -> subset vertex
};

}  // namespace mapsim::topo
