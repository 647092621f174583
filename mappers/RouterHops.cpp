#include "mappers/RouterHops.hpp"

#include <limits>

#include "mappers/Hierarchy.hpp"
#include "mappers/MachineView.hpp"

namespace mapsim::map {
namespace {

// At most this many router pairs in a table (bytes).
constexpr std::size_t kMaxEntries = std::size_t{1} << 22;

}  // namespace

std::optional<RouterHops> RouterHops::of(const topo::Topology& topology) {
  if (!root_view(topology).machine->prefix_blocks()) return std::nullopt;
  const Hierarchy tree(topology);
  if (tree.height() < 2) return std::nullopt;
  const auto routers = static_cast<std::size_t>(tree.width(1));
  if (routers * routers > kMaxEntries) return std::nullopt;
  const auto members = tree.members(1);
  RouterHops table;
  table.routers_ = routers;
  table.router_.resize(static_cast<std::size_t>(topology.node_count()));
  for (topo::NodeId n = 0; n < topology.node_count(); ++n)
    table.router_[static_cast<std::size_t>(n)] = tree.group(1, n);
  table.table_.resize(routers * routers);
  for (std::size_t r = 0; r < routers; ++r) {
    for (std::size_t s = 0; s < routers; ++s) {
      const auto& a = members[r];
      const auto& b = members[s];
      // Within a router: its first two nodes (a router of one node never asks).
      const topo::NodeId first = b.size() > 1 && r == s ? b[1] : b.front();
      const int hops = topology.hops(a.front(), first);
      const topo::NodeId last_a = a.back();
      const topo::NodeId last_b = r == s ? (a.size() > 1 ? a[a.size() - 2] : a.back()) : b.back();
      if (hops > std::numeric_limits<std::uint8_t>::max() ||
          (last_a != last_b && topology.hops(last_a, last_b) != hops)) {
        return std::nullopt;
      }
      table.table_[r * routers + s] = static_cast<std::uint8_t>(hops);
    }
  }
  return table;
}

}  // namespace mapsim::map
