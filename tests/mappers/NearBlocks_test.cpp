// NearBlocks: each node's near set as whole blocks plus explicit nodes, checked against
// Topology::hops, and the grouping chosen on the machines it is made for.

#include "mappers/NearBlocks.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "mappers/NodeNeighbors.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

TEST(NearBlocks, WholeBlocksAndExplicitNodesAreExactlyTheNodesWithinOneHop) {
  for (const char* spec : {"mesh:4x3", "mesh:2x3x2:cores=2", "torus:4x4x4", "torus:3x5:cores=2",
                           "haec:4x4x4", "haec:3x3x4:cores=2", "haec:2x4x3", "tianhe3:2x2:nodes=8",
                           "tianhe3:2x3:nodes=12:cores=2"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    const NodeNeighbors neighbors(*machine, 0);
    const NearBlocks blocks(*machine, neighbors);
    const NodeId nodes = machine->node_count();
    std::vector<std::vector<NodeId>> members(static_cast<std::size_t>(blocks.block_count()));
    for (NodeId n = 0; n < nodes; ++n) {
      ASSERT_GE(blocks.block(n), 0);
      ASSERT_LT(blocks.block(n), blocks.block_count());
      members[static_cast<std::size_t>(blocks.block(n))].push_back(n);
    }
    std::vector<std::vector<NodeId>> explicit_in(static_cast<std::size_t>(nodes));
    std::size_t loose_count = 0;
    std::size_t whole_count = 0;
    for (NodeId z = 0; z < nodes; ++z) {
      // Every node within one hop once, from E(z) or from a block of G(z); no other node.
      std::vector<int> seen(static_cast<std::size_t>(nodes), 0);
      const auto loose = blocks.explicit_nodes(z);
      const auto whole = blocks.whole_blocks(z);
      EXPECT_TRUE(std::ranges::is_sorted(loose));
      EXPECT_TRUE(std::ranges::is_sorted(whole));
      for (const NodeId x : loose) {
        ++seen[static_cast<std::size_t>(x)];
        explicit_in[static_cast<std::size_t>(x)].push_back(z);
      }
      for (const std::int32_t g : whole) {
        EXPECT_GE(members[static_cast<std::size_t>(g)].size(), 2U);
        for (const NodeId y : members[static_cast<std::size_t>(g)])
          ++seen[static_cast<std::size_t>(y)];
      }
      for (NodeId y = 0; y < nodes; ++y)
        EXPECT_EQ(seen[static_cast<std::size_t>(y)], machine->hops(z, y) <= 1 ? 1 : 0)
            << z << " " << y;
      loose_count += loose.size();
      whole_count += whole.size();
    }
    for (NodeId x = 0; x < nodes; ++x) {
      const auto in = blocks.explicit_in(x);
      EXPECT_EQ(std::vector<NodeId>(in.begin(), in.end()),
                explicit_in[static_cast<std::size_t>(x)]);
    }
    EXPECT_EQ(blocks.cost(), loose_count + whole_count);
    EXPECT_EQ(blocks.any_explicit(), loose_count > 0);
    EXPECT_EQ(blocks.any_whole(), whole_count > 0);
  }
}

TEST(NearBlocks, BoardsOnTheHaecBoxSideRoutersOnTianhe3) {
  // HAEC 4x4x4: a node is near the 4 torus neighbours on its board and the boards above and
  // below. Grouping x and y (bits 0 and 1) makes the boards blocks: E(z) = z and its 4 board
  // neighbours, G(z) = 1 or 2 boards; per node 5 + 2 (inner boards) or 5 + 1 (top, bottom)
  // instead of 1 + 4 + 32 or 1 + 4 + 16 nodes.
  const auto haec = topo::make_topology("haec:4x4x4");
  const NodeNeighbors haec_neighbors(*haec, 0);
  const NearBlocks boards(*haec, haec_neighbors);
  EXPECT_EQ(boards.grouped_dimensions(), 0b011U);
  EXPECT_EQ(boards.block_count(), 4);
  EXPECT_EQ(boards.cost(), 64U * 5 + 32 * 2 + 32 * 1);
  // Node 21 = (1, 1, 1): board neighbours 17, 20, 22, 25; boards 0 and 2.
  EXPECT_EQ(std::vector<NodeId>(boards.explicit_nodes(21).begin(), boards.explicit_nodes(21).end()),
            (std::vector<NodeId>{17, 20, 21, 22, 25}));
  EXPECT_EQ(
      std::vector<std::int32_t>(boards.whole_blocks(21).begin(), boards.whole_blocks(21).end()),
      (std::vector<std::int32_t>{0, 2}));

  // Tianhe-3, 2x2 chips of 8 nodes: a node is near the 3 others on its side router. Grouping
  // the slot (bit 3) makes the side routers blocks: E(z) empty, G(z) = z's side router.
  const auto tianhe = topo::make_topology("tianhe3:2x2:nodes=8");
  const NodeNeighbors tianhe_neighbors(*tianhe, 0);
  const NearBlocks routers(*tianhe, tianhe_neighbors);
  EXPECT_EQ(routers.grouped_dimensions(), 0b1000U);
  EXPECT_EQ(routers.block_count(), 8);
  EXPECT_FALSE(routers.any_explicit());
  EXPECT_EQ(routers.cost(), 32U);

  // Torus 4x4x4: no block of two nodes or more is near a node whole: single nodes, E(z) = z and
  // its 6 neighbours. Torus 3x5: the x ring of 3 is near each of its nodes whole: grouping x
  // leaves E(z) = z's 2 y neighbours, 1 + 2 per node instead of 5.
  const auto torus = topo::make_topology("torus:4x4x4");
  const NodeNeighbors torus_neighbors(*torus, 0);
  const NearBlocks single(*torus, torus_neighbors);
  EXPECT_EQ(single.grouped_dimensions(), 0U);
  EXPECT_FALSE(single.any_whole());
  EXPECT_EQ(single.cost(), 64U * 7);
  const auto ring = topo::make_topology("torus:3x5");
  const NodeNeighbors ring_neighbors(*ring, 0);
  const NearBlocks rings(*ring, ring_neighbors);
  EXPECT_EQ(rings.grouped_dimensions(), 0b01U);
  EXPECT_EQ(rings.cost(), 15U * 3);
}

}  // namespace
}  // namespace mapsim::map
