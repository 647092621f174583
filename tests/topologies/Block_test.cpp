// Blocks of a machine (Block.hpp, Topology::block_stats and block): every block of small
// instances of every kind is a valid machine whose hops equal the machine's, whose closed-form
// stats equal the brute-force ones; the compact block for hand-solved sizes; and the closed
// forms that keep `mapsim topo` linear on large machines.

#include "topologies/Block.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "topologies/GridTopology.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

// Every extents vector with 1 <= extents[d] <= dims[d].
std::vector<std::vector<int>> every_extents(std::span<const int> dims) {
  std::vector<std::vector<int>> all{{}};
  for (const int k : dims) {
    std::vector<std::vector<int>> next;
    for (const auto& prefix : all) {
      for (int e = 1; e <= k; ++e) {
        next.push_back(prefix);
        next.back().push_back(e);
      }
    }
    all = std::move(next);
  }
  return all;
}

std::string text(const std::vector<int>& extents) {
  std::string s;
  for (const int e : extents) {
    if (!s.empty()) s += 'x';
    s += std::to_string(e);
  }
  return s;
}

// The block's own invariants, checked against the machine: node map, hops of every pair, the
// closed-form stats, its hop histogram, connected routes of its own links.
void check_block(const Topology& machine, const std::vector<int>& extents) {
  SCOPED_TRACE(machine.spec() + " block " + text(extents));
  const auto stats = machine.block_stats(extents);
  // A torus dimension (also the HAEC boards' x and y) may be cut to at most half plus one.
  bool valid = true;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    const int k = machine.dimensions()[d];
    if (machine.is_torus(static_cast<int>(d)) && extents[d] != k && extents[d] > k / 2 + 1)
      valid = false;
  }
  // Tianhe-3 blocks of several sides take them whole.
  if (machine.kind() == "tianhe3" && extents[3] != machine.dimensions()[3] &&
      extents[0] * extents[1] * extents[2] > 1)
    valid = false;
  ASSERT_EQ(stats.has_value(), valid);
  if (!valid) return;
  const auto block = machine.block(extents);
  ASSERT_EQ(std::vector<int>(block->dimensions().begin(), block->dimensions().end()), extents);
  if (machine.kind() == "mesh" || machine.kind() == "torus") {
    // A block of a torus that keeps no whole ring is a mesh.
    EXPECT_TRUE(block->kind() == "mesh" || block->kind() == "torus");
  } else {
    EXPECT_EQ(block->kind(), machine.kind());
  }
  for (std::size_t d = 0; d < extents.size(); ++d) {
    const int dim = static_cast<int>(d);
    EXPECT_EQ(block->is_torus(dim), machine.is_torus(dim) && extents[d] == machine.dimensions()[d]);
  }
  EXPECT_EQ(block->cores_per_node(), machine.cores_per_node());

  std::vector<NodeId> parent;
  std::set<NodeId> distinct;
  for (NodeId k = 0; k < block->node_count(); ++k) {
    const auto coords = block->coordinates(k);
    EXPECT_EQ(block->node_at(coords), k);
    for (std::size_t d = 0; d < coords.size(); ++d) ASSERT_LT(coords[d], extents[d]);
    parent.push_back(machine.node_at(coords));
    distinct.insert(parent.back());
    if (k > 0) {
      EXPECT_LT(parent[k - 1], parent[k]) << "block nodes follow the natural order";
    }
  }
  ASSERT_EQ(distinct.size(), parent.size());

  int diameter = 0;
  double total = 0;
  std::vector<std::uint64_t> counts;
  std::vector<LinkId> path;
  for (NodeId a = 0; a < block->node_count(); ++a) {
    for (NodeId b = 0; b < block->node_count(); ++b) {
      const int h = block->hops(a, b);
      ASSERT_EQ(h, machine.hops(parent[a], parent[b])) << a << " " << b;
      diameter = std::max(diameter, h);
      total += h;
      if (static_cast<std::size_t>(h) >= counts.size()) counts.resize(h + 1);
      ++counts[static_cast<std::size_t>(h)];
      block->route_into(a, b, path);
      VertexId at = a;
      for (const LinkId id : path) {
        ASSERT_GE(id, 0);
        ASSERT_LT(id, block->link_count());
        ASSERT_EQ(block->link(id).from, at);
        at = block->link(id).to;
        ASSERT_LT(at, block->vertex_count());
      }
      ASSERT_EQ(at, b);
      ASSERT_EQ(block->route_hops(path), h);
    }
  }
  EXPECT_EQ(stats->diameter, diameter);
  EXPECT_DOUBLE_EQ(stats->total_hops, total);
  EXPECT_EQ(block->hop_histogram().counts, counts);
  std::set<std::pair<VertexId, VertexId>> links;
  for (LinkId id = 0; id < block->link_count(); ++id) {
    EXPECT_TRUE(links.emplace(block->link(id).from, block->link(id).to).second);
  }
}

TEST(Block, EveryBlockOfSmallMachinesIsAMachineWithTheSameHops) {
  for (const char* spec : {"mesh:4x3", "mesh:2x3x2", "torus:5", "torus:4x3", "torus:6x4x2",
                           "torus:2x3x4:cores=2", "haec:4x3x3", "haec:5x2x2", "haec:1x1x3",
                           "tianhe3:2x3:nodes=6", "tianhe3:3x2:nodes=4:cores=2"}) {
    const auto machine = make_topology(spec);
    for (const auto& extents : every_extents(machine->dimensions())) {
      check_block(*machine, extents);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(Block, WholeMachineIsItsOwnBlock) {
  for (const char* spec : {"torus:4x4x4", "haec:4x4x4", "tianhe3:2x2:nodes=16", "mesh:3x5"}) {
    const auto machine = make_topology(spec);
    const std::vector<int> all(machine->dimensions().begin(), machine->dimensions().end());
    EXPECT_EQ(machine->block(all)->spec(), machine->spec());
    const auto block = compact_block(*machine, machine->node_count());
    EXPECT_EQ(block.extents, all) << spec;
  }
}

// Hand-solved compact blocks.
TEST(Block, CompactBlocksOfHandSolvedSizes) {
  struct Expected {
    const char* spec;
    NodeId nodes;
    std::vector<int> extents;
    int diameter;
  };
  const Expected cases[] = {
      // 8 nodes of a 4x4x4 torus: 2x2x2 and 4x2x1 both have diameter 3 (a whole ring of 4 has
      // diameter 2), 8 nodes and average 96 / 56 hops; 4x2x1 comes first in natural order.
      {"torus:4x4x4", 8, {4, 2, 1}, 3},
      // 24: the boxes of 24 nodes with one side of each of 2, 3, 4 have diameter 1 + 2 + 2 = 5
      // (a cut ring of 3 out of 4 keeps distance 2 between its ends), nothing has less;
      // they tie on the average too, and 4x3x2 is reached first.
      {"torus:4x4x4", 24, {4, 3, 2}, 5},
      // On the mesh, 8 nodes: the cube (diameter 3) beats 4x2x1 (diameter 4).
      {"mesh:4x4x4", 8, {2, 2, 2}, 3},
      // 24 on the mesh: 2x3x4 boxes have diameter 1 + 2 + 3 = 6, as does 3x3x3 with 27 nodes.
      {"mesh:4x4x4", 24, {4, 3, 2}, 6},
      // A ring of 8 cut to 5 nodes keeps its distances (at most 4); cut to 6, two of its nodes
      // would be 5 apart inside but 3 apart round the outside: 6 nodes take the whole ring.
      {"torus:8", 5, {5}, 4},
      {"torus:8", 6, {8}, 4},
      // HAEC 4x4x4, 8 nodes: 4x2 on one board has diameter 2 + 1; 2x2 on two boards, 4x1 or
      // 1x4 on two boards have max(2, 1) = 2 and total hops 64 alike; 4x1x2 comes first.
      {"haec:4x4x4", 8, {4, 1, 2}, 2},
      // 16: a whole board has diameter 4; 4x2 or 2x4 on two boards max(3, 1) = 3 with 320 total
      // hops, 2x2 on four boards max(2, 3) = 3 with 384: 4x2x2.
      {"haec:4x4x4", 16, {4, 2, 2}, 3},
      // Tianhe-3 with 8 nodes per side: 8 nodes are one side of a chip (1 hop).
      {"tianhe3:2x2:nodes=16", 8, {1, 1, 1, 8}, 1},
      // 24 nodes: three whole sides. Two chips of a row, both sides (3 + 1 hops), 32 nodes;
      // 2 x 2 chips of one side would have 5 hops.
      {"tianhe3:2x2:nodes=16", 24, {1, 2, 2, 8}, 4},
      // 5 nodes fit on one side.
      {"tianhe3:2x2:nodes=16", 5, {1, 1, 1, 5}, 1},
      // 12 nodes: one chip, both sides whole (2 hops).
      {"tianhe3:2x2:nodes=16", 12, {1, 1, 2, 8}, 2},
  };
  for (const auto& c : cases) {
    const auto machine = make_topology(c.spec);
    const auto block = compact_block(*machine, c.nodes);
    EXPECT_EQ(block.extents, c.extents) << c.spec << " " << c.nodes;
    EXPECT_EQ(block.stats.diameter, c.diameter) << c.spec << " " << c.nodes;
    EXPECT_GE(static_cast<NodeId>(block.nodes.size()), c.nodes);
  }
}

// Brute force: no box of the machine with enough nodes has a smaller diameter.
TEST(Block, NoBoxHasASmallerDiameter) {
  for (const char* spec : {"torus:4x4x4", "mesh:4x4x4", "haec:4x4x4", "tianhe3:2x2:nodes=16",
                           "torus:6x5", "mesh:7x3"}) {
    const auto machine = make_topology(spec);
    for (NodeId n = 1; n <= machine->node_count(); ++n) {
      const auto block = compact_block_shape(*machine, n);
      for (const auto& extents : every_extents(machine->dimensions())) {
        std::int64_t volume = 1;
        for (const int e : extents) volume *= e;
        const auto stats = machine->block_stats(extents);
        if (volume < n || !stats) continue;
        ASSERT_LE(block.stats.diameter, stats->diameter)
            << spec << " " << n << " " << text(extents);
      }
    }
  }
}

TEST(Block, CompactBlockOfAHugeMachineIsSmall) {
  // 8 nodes of a 64x64x64 torus: a 2x2x2-sized block whatever the machine's size.
  const auto machine = make_topology("torus:64x64x64");
  const auto block = compact_block(*machine, 8);
  EXPECT_EQ(block.machine->node_count(), 8);
  EXPECT_EQ(block.stats.diameter, 3);
}

// The per-dimension histogram of a ring or line is closed-form (it was O(k^2): `mapsim topo
// torus:2097152` ran for hours).
TEST(GridHistogram, LargeRingInClosedForm) {
  const int k = 1 << 21;
  const GridTopology ring({k}, /*torus=*/true, 1);
  const auto counts = ring.hop_histogram().counts;
  ASSERT_EQ(counts.size(), static_cast<std::size_t>(k / 2 + 1));
  EXPECT_EQ(counts[0], static_cast<std::uint64_t>(k));
  EXPECT_EQ(counts[1], 2 * static_cast<std::uint64_t>(k));
  EXPECT_EQ(counts[k / 2], static_cast<std::uint64_t>(k));  // the opposite node: one each
  const auto stats = distance_stats(HopHistogram{counts});
  EXPECT_EQ(stats.diameter, k / 2);
}

TEST(GridHistogram, MixedWrapAroundMatchesEveryPair) {
  const GridTopology grid({4, 3, 5}, std::vector<bool>{true, false, true}, 1);
  std::vector<std::uint64_t> counts;
  for (NodeId a = 0; a < grid.node_count(); ++a) {
    for (NodeId b = 0; b < grid.node_count(); ++b) {
      const auto h = static_cast<std::size_t>(grid.hops(a, b));
      if (h >= counts.size()) counts.resize(h + 1);
      ++counts[h];
    }
  }
  EXPECT_EQ(grid.hop_histogram().counts, counts);
  EXPECT_TRUE(grid.is_torus(0));
  EXPECT_FALSE(grid.is_torus(1));
  EXPECT_EQ(grid.kind(), "torus");
}

// Links per class in closed form on the HAEC Box (2 (Z - 1) (XY)^2 wireless links: counting
// them one by one took 8 s on haec:128x128x2), equal to the count on small machines.
TEST(LinksPerClass, ClosedFormEqualsCounting) {
  for (const char* spec : {"haec:3x4x3", "haec:2x2x1", "torus:3x4", "tianhe3:2x3:nodes=4"}) {
    const auto machine = make_topology(spec);
    std::array<std::int64_t, kLinkClassCount> counted{};
    for (LinkId id = 0; id < machine->link_count(); ++id)
      ++counted[static_cast<std::size_t>(machine->link(id).link_class)];
    EXPECT_EQ(machine->links_per_class(), counted) << spec;
  }
  const auto big = make_topology("haec:128x128x2");
  const auto counts = big->links_per_class();
  EXPECT_EQ(counts[static_cast<std::size_t>(LinkClass::HaecWireless)],
            2 * std::int64_t{128 * 128} * (128 * 128));
  EXPECT_EQ(counts[static_cast<std::size_t>(LinkClass::HaecOptical)], 2 * 4 * 128 * 128);
}

}  // namespace
}  // namespace mapsim::topo
