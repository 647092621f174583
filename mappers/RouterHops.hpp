#pragma once
// Internal: the hops of a hierarchical machine from a table of its routers, for the local
// searches, whose time goes into hops(a, b).
//
// On fat-trees, dragonflies, Cascade and Slurm trees (Topology::prefix_blocks), and on some of
// their nodes, hops(a, b) for a != b depends only on the routers of a and b — the innermost level
// of the machine's hierarchy (leaf switch, router, blade): every route climbs from a's router and
// descends into b's. The table holds hops(first node of R, first node of S) for every pair of
// routers R, S (within a router, between its first two nodes): routers x routers bytes, built
// when that is at most kMaxEntries (4 MiB; 2048 routers), never nodes x nodes. The table is
// checked against Topology::hops on the last nodes of every pair of routers too, and not used if
// they differ; answers equal Topology::hops, so a search with it maps the same, faster (Cascade's
// and dragonflies' hops divide node ids by their sizes several times per call).

#include <cstdint>
#include <optional>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::map {

class RouterHops {
 public:
  /// The table, or nullopt where it does not apply (not hierarchical, too many routers, or a
  /// machine whose hops are not those of its routers).
  static std::optional<RouterHops> of(const topo::Topology& topology);

  [[nodiscard]] std::int64_t operator()(topo::NodeId a, topo::NodeId b) const {
    if (a == b) return 0;
    return table_[static_cast<std::size_t>(router_[static_cast<std::size_t>(a)]) * routers_ +
                  static_cast<std::size_t>(router_[static_cast<std::size_t>(b)])];
  }

 private:
  std::vector<std::int32_t> router_;  // per node
  std::size_t routers_ = 0;
  std::vector<std::uint8_t> table_;  // routers x routers
};

}  // namespace mapsim::map
