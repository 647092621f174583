#pragma once
// A modelled machine: compute nodes joined by directed links, each pair with one minimal route
// (dimension order on meshes, tori, the HAEC Box and Tianhe-3; D-mod-K on fat-trees and Slurm
// trees; minimal on dragonflies) and, on some kinds, alternative routes per message (Routing).
//
// Vertices are compute nodes (ids 0 .. node_count()-1, numbered in the machine's natural linear
// order) followed by any routers and switches that are not nodes themselves. A route is the list
// of directed links a message crosses from node a to node b; it is a connected chain from a to b.
// hops(a, b) counts router traversals after leaving a, i.e. the links of the route that end in a
// router: on direct networks (mesh, torus, HAEC Box) every node is its own router and hops equals
// the route's length; on indirect ones (Tianhe-3, fat-trees, dragonflies, Slurm trees) nodes hang
// off routers or switches and the last link of a route, into the destination node, is not a hop
// (Table 1 of the OHTMA paper counts routers).
// A machine also carries its host names and, for a job, an allocation: the nodes the job may use
// (TopologySpec.hpp, NodeSubset.hpp).

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topologies/HostNames.hpp"
#include "topologies/LinkClass.hpp"

namespace mapsim::topo {

using NodeId = std::int32_t;    ///< compute node
using VertexId = std::int32_t;  ///< compute node, router or switch
using LinkId = std::int32_t;    ///< directed link

/// How a replay routes each message (spec option routing=). Static metrics always use the minimal
/// route (route_into); the network models ask for alternative_route_into per message.
enum class Routing : std::uint8_t {
  Minimal,  ///< the kind's one deterministic route: dimension order, D-mod-K, dragonfly minimal
  Ecmp,     ///< fat-trees: each message takes the up-ports a hash of it selects (equal cost)
  Valiant,  ///< dragonflies: each message goes through a random intermediate group
  Ugal,     ///< dragonflies: each message takes the minimal or a Valiant route, whichever the
            ///< load on their first links favours at injection (UGAL-L)
};
std::string_view name(Routing routing);

/// A level of a machine's hierarchy above its nodes (a leaf switch, a router, a dragonfly group,
/// a pod): group[n] is the group of node n at that level, groups numbered 0 .. groups - 1 in
/// natural order. Levels run from the innermost outwards; each group of a level lies within one
/// group of the next.
struct NodeLevel {
  std::string name;  ///< e.g. "leaf switch", "router", "group"
  std::int32_t groups = 0;
  std::vector<std::int32_t> group;
};

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

  /// Canonical spec string, e.g. "torus:4x4x4" or "tianhe3:2x2:cores=4": the machine's own
  /// spec followed by its sockets, routing, allocation and host names where they are not the
  /// defaults.
  [[nodiscard]] std::string spec() const;
  /// The machine alone, without routing, allocation or host names.
  [[nodiscard]] virtual std::string machine_spec() const = 0;
  /// The kind as in specs: "mesh", "torus", "haec", "tianhe3", "fattree", "dragonfly", ...
  [[nodiscard]] virtual std::string_view kind() const = 0;

  [[nodiscard]] NodeId node_count() const { return node_count_; }
  /// Ranks one node holds: the capacity of a node in a mapping.
  [[nodiscard]] int cores_per_node() const { return cores_per_node_; }
  /// Processor sockets per node (spec option sockets=; 1 by default): cores 0 .. c - 1 are
  /// socket 0's, c .. 2c - 1 socket 1's, and so on, c = cores_per_socket().
  [[nodiscard]] int sockets_per_node() const { return sockets_per_node_; }
  [[nodiscard]] int cores_per_socket() const { return cores_per_node_ / sockets_per_node_; }
  [[nodiscard]] int socket_of_core(int core) const { return core / cores_per_socket(); }
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
  /// Longest route in links, alternative routes included, for reserving route buffers.
  [[nodiscard]] virtual int max_route_links() const = 0;
  /// The links of `path` that end in a router: equals hops(a, b) for path = route(a, b).
  [[nodiscard]] int route_hops(std::span<const LinkId> path) const;

  [[nodiscard]] virtual LinkId link_count() const = 0;
  /// Preconditions: 0 <= id < link_count().
  [[nodiscard]] virtual Link link(LinkId id) const = 0;
  /// Human-readable name of a vertex, e.g. "node 5 (1,1,0)" or "router (0,1) left".
  [[nodiscard]] virtual std::string vertex_name(VertexId v) const;

  // Routing of messages in a replay (see Routing). The kind lists what it offers; the spec picks.

  /// The routings this kind offers, minimal first.
  [[nodiscard]] virtual std::span<const Routing> routings() const;
  [[nodiscard]] Routing routing() const { return routing_; }
  /// Replaces `path` with one alternative route from a to b under routing() (ECMP: the up-ports;
  /// Valiant and UGAL: the Valiant route through an intermediate), selected by `choice`, any 64-bit
  /// value (a hash of the message): the same choice gives the same route. The default, for kinds
  /// with one route per pair, is route_into.
  virtual void alternative_route_into(NodeId a, NodeId b, std::uint64_t choice,
                                      std::vector<LinkId>& path) const;

  // The machine as a user's job sees it: host names and an allocation (TopologySpec.hpp).

  /// The names of the nodes: the machine's own (a Slurm topology file), a hosts file's, or
  /// "node" + zero-padded id (HostNames.hpp).
  [[nodiscard]] const HostNames& host_names() const { return *names_; }
  [[nodiscard]] std::string host_name(NodeId node) const { return names_->name(node); }
  /// The node `text` names: a host name, or a node id in decimal. Throws InputError naming
  /// `what` and listing a few host names if there is none.
  [[nodiscard]] NodeId node_named(std::string_view text, std::string_view what) const;
  /// The nodes a job may use, in natural order; empty when it may use every node.
  [[nodiscard]] std::span<const NodeId> allocation() const { return allocation_; }
  /// True if a job may place ranks on `node` (always, without an allocation).
  [[nodiscard]] bool allocated(NodeId node) const;
  /// Nodes a job may use: the allocation's size, or node_count().
  [[nodiscard]] NodeId usable_nodes() const;
  /// Files the machine itself was read from (a Slurm topology file), whose content a results key
  /// covers; host-name and allocation files are not among them (the spec holds the allocation).
  [[nodiscard]] virtual std::vector<std::filesystem::path> source_files() const { return {}; }

  /// The hierarchy above the nodes, innermost first (see NodeLevel): routers or leaf switches and
  /// groups or pods; HAEC boards; Tianhe-3 side routers and chips; a mesh's or torus's lines and
  /// planes of its slowest dimensions. Used by the tree mapper and the job-placement policies.
  [[nodiscard]] virtual std::vector<NodeLevel> levels() const { return {}; }
  /// True if the nodes form the full grid of dimensions(): every coordinate tuple in range is a
  /// node (mesh, torus, HAEC Box, Tianhe-3, fat-trees and dragonflies, their blocks). False for a
  /// machine read from a file and for a subset of a machine's nodes: mappers that walk a grid
  /// (space-filling curves, Bhatele's heuristics) refuse those.
  [[nodiscard]] virtual bool has_grid() const { return true; }

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
  /// True for hierarchical machines (fat-trees, dragonflies, Slurm trees), whose natural order
  /// fills a switch or router, then a group, before the next: their compact block for n nodes is
  /// the first n nodes in natural order (Block.hpp), and block_stats is never asked.
  [[nodiscard]] virtual bool prefix_blocks() const { return false; }

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

  /// Set once by make_topology (TopologySpec.cpp) and by views of a machine (NodeSubset.hpp).
  /// Preconditions: routing is one of routings(); names cover node_count() nodes; allocation is
  /// sorted, without duplicates, every node in range.
  void set_routing(Routing routing);
  /// Precondition: `sockets` divides cores_per_node().
  void set_sockets(int sockets);
  /// `file`: the hosts file the names came from, written into spec() ("" for a kind's own names).
  void set_host_names(std::shared_ptr<const HostNames> names, std::string file);
  void set_allocation(std::vector<NodeId> allocation);
  friend struct MachineSetup;

 private:
  std::vector<int> extents_;
  NodeId node_count_ = 0;
  int cores_per_node_ = 1;
  int sockets_per_node_ = 1;
  Routing routing_ = Routing::Minimal;
  std::shared_ptr<const HostNames> names_;
  std::string hosts_file_;
  std::vector<NodeId> allocation_;            // sorted; empty: every node
  std::vector<std::uint64_t> in_allocation_;  // a bit per node, when allocation_ is not empty
};

/// `levels` restricted to `nodes` (each a node the levels cover): group[k] is node nodes[k]'s
/// group, groups renumbered in order of first use.
std::vector<NodeLevel> restrict_levels(std::vector<NodeLevel> levels,
                                       std::span<const NodeId> nodes);

/// What a spec adds to a machine (TopologySpec.cpp): its sockets, routing, host names and
/// allocation.
struct MachineSetup {
  int sockets = 1;
  Routing routing = Routing::Minimal;
  std::shared_ptr<const HostNames> names;  ///< null: keep the machine's own
  std::string hosts_file;
  std::vector<NodeId> allocation;  ///< sorted, no duplicates; empty: every node
  void apply(Topology& machine) const;
};

}  // namespace mapsim::topo
