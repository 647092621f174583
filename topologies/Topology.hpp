#pragma once
// A modelled machine: compute nodes joined by directed links, routed in dimension order.
//
// Vertices are compute nodes (ids 0 .. node_count()-1, numbered in the machine's natural linear
// order) followed by any routers and switches that are not nodes themselves. A route is the list
// of directed links a message crosses from node a to node b; it is a connected chain from a to b.
// hops(a, b) counts router traversals after leaving a, i.e. the links of the route that end in a
// router: on direct networks (mesh, torus, HAEC Box) every node is its own router and hops equals
// the route's length; on Tianhe-3, nodes hang off side routers and the last link of a route, into
// the destination node, is not a hop (Table 1 of the OHTMA paper counts routers).

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topologies/LinkClass.hpp"

namespace mapsim::topo {

using NodeId = std::int32_t;    ///< compute node
using VertexId = std::int32_t;  ///< compute node, router or switch
using LinkId = std::int32_t;    ///< directed link

struct Link {
  VertexId from = 0;
  VertexId to = 0;
  LinkClass link_class = LinkClass::Grid;
};

/// counts[h] = number of ordered node pairs (a, b), a == b included, with hops(a, b) == h.
struct HopHistogram {
  std::vector<std::uint64_t> counts;
};

struct DistanceStats {
  int diameter = 0;         ///< largest hops(a, b)
  double average = 0;       ///< mean hops(a, b) over ordered pairs of distinct nodes
  std::uint64_t pairs = 0;  ///< number of such pairs
};

DistanceStats distance_stats(const HopHistogram& histogram);

/// Distances within a block of a machine (Topology::block_stats).
struct BlockStats {
  int diameter = 0;       ///< largest hops between two nodes of the block
  double total_hops = 0;  ///< sum of hops over ordered pairs of its nodes
};

class Topology {
 public:
  virtual ~Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  /// Canonical spec string, e.g. "torus:4x4x4" or "tianhe3:2x2:cores=4".
  [[nodiscard]] virtual std::string spec() const = 0;
  /// The kind as in specs: "mesh", "torus", "haec" or "tianhe3".
  [[nodiscard]] virtual std::string_view kind() const = 0;

  [[nodiscard]] NodeId node_count() const { return node_count_; }
  /// Ranks one node holds: the capacity of a node in a mapping.
  [[nodiscard]] int cores_per_node() const { return cores_per_node_; }
  /// Nodes, then routers and switches that are not nodes.
  [[nodiscard]] virtual VertexId vertex_count() const { return node_count_; }
  /// True on direct networks, where every node routes (mesh, torus, HAEC Box).
  [[nodiscard]] virtual bool nodes_are_routers() const { return true; }
  [[nodiscard]] bool is_router(VertexId v) const { return nodes_are_routers() || v >= node_count_; }

  // Coordinates, as the Topology Manager API sees the machine.
  [[nodiscard]] std::span<const int> dimensions() const { return extents_; }
  [[nodiscard]] virtual std::string_view dimension_name(int dim) const = 0;
  [[nodiscard]] virtual bool is_torus(int dim) const = 0;
  [[nodiscard]] virtual std::vector<int> coordinates(NodeId node) const = 0;
  /// The node at `coords`; throws InputError if their number or any value is out of range.
  [[nodiscard]] virtual NodeId node_at(std::span<const int> coords) const = 0;

  /// Router traversals from a to b (see the file comment). Preconditions: a, b < node_count().
  [[nodiscard]] virtual int hops(NodeId a, NodeId b) const = 0;
  /// Replaces the contents of `path` with the dimension-order route from a to b. Reuses the
  /// vector's storage: no allocation once it has max_route_links() capacity.
  virtual void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const = 0;
  [[nodiscard]] std::vector<LinkId> route(NodeId a, NodeId b) const;
  /// Longest route in links, for reserving route buffers.
  [[nodiscard]] virtual int max_route_links() const = 0;
  /// The links of `path` that end in a router: equals hops(a, b) for path = route(a, b).
  [[nodiscard]] int route_hops(std::span<const LinkId> path) const;

  [[nodiscard]] virtual LinkId link_count() const = 0;
  /// Preconditions: 0 <= id < link_count().
  [[nodiscard]] virtual Link link(LinkId id) const = 0;
  /// Human-readable name of a vertex, e.g. "node 5 (1,1,0)" or "router (0,1) left".
  [[nodiscard]] virtual std::string vertex_name(VertexId v) const;

  /// The machine's natural linear node order. Node ids are numbered in it, so this is 0, 1, ...
  [[nodiscard]] std::vector<NodeId> natural_order() const;

  /// Exact histogram of hops over all ordered node pairs. The default evaluates every pair in
  /// parallel; kinds with a closed form override it.
  [[nodiscard]] virtual HopHistogram hop_histogram() const;

  /// Directed links per class. The default counts link(id) for every id; kinds with a closed
  /// form override it (the HAEC Box has a number of links quadratic in its boards' size).
  [[nodiscard]] virtual std::array<std::int64_t, kLinkClassCount> links_per_class() const;

  // Blocks (see Block.hpp). The block of `extents` (1 <= extents[d] <= dimensions()[d]) is the
  // set of nodes whose every coordinate d is below extents[d]: a sub-box at the origin.

  /// Hops within the block, in closed form, or nullopt when the block is not a machine of this
  /// kind (a torus dimension cut to more than half its ring, whose shortest ways would leave it)
  /// or never more compact than another (Tianhe-3 sides cut on a block of several sides).
  [[nodiscard]] virtual std::optional<BlockStats> block_stats(
      std::span<const int> extents) const = 0;
  /// The block as a machine of its own: the same kind and cores per node, the same coordinates,
  /// its nodes numbered in its own natural order, hops(a, b) equal to the machine's between the
  /// same nodes. Precondition: block_stats(extents) has a value.
  [[nodiscard]] virtual std::unique_ptr<Topology> block(std::span<const int> extents) const = 0;

  /// Throws InputError naming `what` unless 0 <= node < node_count().
  void check_node(std::int64_t node, std::string_view what) const;

  /// The link classes the machine has (links_per_class() > 0), and the intra-node channel every
  /// machine has.
  [[nodiscard]] std::array<bool, kLinkClassCount> has_link_classes() const;
  /// Throws InputError "WHAT: SPEC has no CLASS links; its link classes: ..." unless the machine
  /// has the class (for settings of a class: they would apply to nothing).
  void check_link_class(LinkClass link_class, std::string_view what) const;

 protected:
  Topology(std::vector<int> extents, NodeId node_count, int cores_per_node);

  /// "(1,2,3)" for the node's coordinates.
  [[nodiscard]] std::string coordinate_string(NodeId node) const;

 private:
  std::vector<int> extents_;
  NodeId node_count_ = 0;
  int cores_per_node_ = 1;
};

}  // namespace mapsim::topo
