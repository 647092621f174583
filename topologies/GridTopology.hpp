#pragma once
// n-dimensional mesh (k-ary n-mesh) and torus (k-ary n-cube).
//
// Node (c0, c1, ..., c(n-1)) has id c0 + k0 * (c1 + k1 * (c2 + ...)): x varies fastest.
// Links: one per direction between neighbours; on a torus also the wrap-around links. A torus
// dimension of size 2 has a single link each way between its two nodes.
// Routing: dimension order x, y, z, ...; on a torus each dimension takes the shorter way round,
// and a tie (exactly half the ring) goes the positive way (SimGrid's TORUS cluster goes the
// negative way on the tie from coordinate k/2 to 0, its only difference from these routes).
// hops(a, b) = sum over d of |c_d(b) - c_d(a)| on a mesh, min(delta, k_d - delta) on a torus.
// levels(): nested blocks of the slowest dimensions, as launchers fill the machine: level k
// (k = 1 .. n - 1) groups the nodes that share coordinates k .. n - 1 ("x line", "xy plane",
// "xyz block", ...; group = node / (k0 ... k(k-1))); levels of one group (the whole machine) or
// equal to the level below (a dimension of extent 1) are left out. For the tree mappers and
// for the placements that deal over groups (round-robin on an allocation).
//
// A block of a torus (Block.hpp) may wrap around in some dimensions and not in others: the
// internal constructor takes the wrap-around per dimension; such a machine is of kind "torus"
// and its spec() names the open dimensions (it is not a spec the parser reads).

#include "topologies/Topology.hpp"

namespace mapsim::topo {

class GridTopology final : public Topology {
 public:
  /// Preconditions (checked by the spec parser): 1 <= extents.size() <= 16, every extent >= 1.
  GridTopology(std::vector<int> extents, bool torus, int cores_per_node);
  /// Wrap-around in dimension d iff periodic[d] (same size as extents).
  GridTopology(std::vector<int> extents, std::vector<bool> periodic, int cores_per_node);

  [[nodiscard]] std::string machine_spec() const override;
  [[nodiscard]] std::string_view kind() const override { return torus_ ? "torus" : "mesh"; }

  [[nodiscard]] std::string_view dimension_name(int dim) const override;
  [[nodiscard]] bool is_torus(int dim) const override {
    return periodic_[static_cast<std::size_t>(dim)];
  }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override;
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override;

  [[nodiscard]] int hops(NodeId a, NodeId b) const override {
    const std::int32_t* ca = &coords_[static_cast<std::size_t>(a) * ndims_];
    const std::int32_t* cb = &coords_[static_cast<std::size_t>(b) * ndims_];
    int total = 0;
    for (int d = 0; d < ndims_; ++d) total += hops_[step_base_[d] + cb[d] - ca[d]];
    return total;
  }
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override;
  [[nodiscard]] int max_route_links() const override { return max_route_links_; }

  [[nodiscard]] LinkId link_count() const override { return static_cast<LinkId>(links_.size()); }
  [[nodiscard]] Link link(LinkId id) const override { return links_[static_cast<std::size_t>(id)]; }

  [[nodiscard]] HopHistogram hop_histogram() const override;
  [[nodiscard]] std::vector<NodeLevel> levels() const override;

  [[nodiscard]] std::optional<BlockStats> block_stats(std::span<const int> extents) const override;
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> extents) const override;

 private:
  bool torus_;                  // some dimension wraps around
  std::vector<bool> periodic_;  // per dimension
  int ndims_;
  std::vector<std::int32_t> coords_;  // node-major, ndims_ per node
  // For dimension d and delta = c_d(b) - c_d(a), index step_base_[d] + delta gives the signed
  // number of steps the route takes (negative: the minus direction) and its absolute value.
  std::vector<int> step_base_;
  std::vector<std::int32_t> steps_;
  std::vector<std::int32_t> hops_;
  std::vector<LinkId> ports_;  // [(node * ndims + d) * 2 + (minus ? 1 : 0)], -1 where no link
  std::vector<Link> links_;
  int max_route_links_ = 0;
};

}  // namespace mapsim::topo
