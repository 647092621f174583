// Some of a machine's nodes as a machine of their own (topologies/NodeSubset.hpp), on every kind:
// routes are chains of links in the subset's vertex ids, hops are the machine's, the levels are
// the machine's restricted to the subset, host names are carried over.

#include "topologies/NodeSubset.hpp"

#include <map>
#include <set>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

#define SLURM_DATA MAPSIM_TEST_DATA_DIR "/slurm/"

/// Every third node from the last down: out of natural order, none adjacent in it.
std::vector<NodeId> every_third_backwards(const Topology& machine) {
  std::vector<NodeId> nodes;
  for (NodeId n = machine.node_count() - 1; n >= 0; n -= 3) nodes.push_back(n);
  return nodes;
}

class EveryKindSubset : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    machine_ = make_topology(GetParam());
    subset_ = std::make_unique<NodeSubset>(*machine_, every_third_backwards(*machine_));
  }
  std::unique_ptr<Topology> machine_;
  std::unique_ptr<NodeSubset> subset_;
};

TEST_P(EveryKindSubset, IsAMachineOfItsNodes) {
  const auto& s = *subset_;
  const auto nodes = every_third_backwards(*machine_);
  ASSERT_EQ(s.node_count(), static_cast<NodeId>(nodes.size()));
  EXPECT_TRUE(std::equal(s.nodes().begin(), s.nodes().end(), nodes.begin(), nodes.end()));
  EXPECT_EQ(&s.machine(), machine_.get());
  EXPECT_EQ(s.kind(), "subset");
  EXPECT_EQ(s.machine_spec(), fmt::format("{} nodes of {}", nodes.size(), machine_->spec()));
  EXPECT_EQ(s.cores_per_node(), machine_->cores_per_node());
  EXPECT_EQ(s.vertex_count(), machine_->vertex_count());
  EXPECT_EQ(s.link_count(), machine_->link_count());
  EXPECT_EQ(s.nodes_are_routers(), machine_->nodes_are_routers());
  EXPECT_FALSE(s.has_grid());
  EXPECT_TRUE(s.prefix_blocks());
  // One coordinate: the position in the subset.
  EXPECT_EQ(s.dimensions().size(), 1u);
  const NodeId last = s.node_count() - 1;
  EXPECT_EQ(s.coordinates(last), std::vector<int>{last});
  EXPECT_EQ(s.node_at(std::vector<int>{last}), last);
  EXPECT_THROW((void)s.node_at(std::vector<int>{s.node_count()}), InputError);
  for (NodeId k = 0; k < s.node_count(); ++k) {
    EXPECT_EQ(s.vertex_name(k), machine_->vertex_name(nodes[static_cast<std::size_t>(k)]));
  }
}

TEST_P(EveryKindSubset, RoutesAreChainsInTheSubsetsVertexIdsWithTheMachinesHops) {
  const auto& s = *subset_;
  std::vector<LinkId> path;
  for (NodeId a = 0; a < s.node_count(); ++a) {
    for (NodeId b = 0; b < s.node_count(); ++b) {
      SCOPED_TRACE(::testing::Message() << GetParam() << " from " << a << " to " << b);
      const NodeId ma = s.nodes()[static_cast<std::size_t>(a)];
      const NodeId mb = s.nodes()[static_cast<std::size_t>(b)];
      ASSERT_EQ(s.hops(a, b), machine_->hops(ma, mb));
      s.route_into(a, b, path);
      // The machine's links, renamed: subset vertex k < n is subset node k.
      ASSERT_EQ(path, machine_->route(ma, mb));
      VertexId at = a;
      for (const LinkId id : path) {
        const Link link = s.link(id);
        ASSERT_EQ(link.from, at);
        ASSERT_LT(link.to, s.vertex_count());
        ASSERT_EQ(link.link_class, machine_->link(id).link_class);
        ASSERT_EQ(s.vertex_name(link.to), machine_->vertex_name(machine_->link(id).to));
        at = link.to;
      }
      ASSERT_EQ(at, b);
      ASSERT_EQ(s.route_hops(path), s.hops(a, b));
    }
  }
}

TEST_P(EveryKindSubset, RenumbersEachVertexOnceSubsetNodesFirst) {
  // Links keep their ids; their ends are renamed by one map from machine to subset vertices,
  // without two machine vertices sharing a subset vertex, and subset node k is machine node
  // nodes()[k].
  const auto& s = *subset_;
  std::map<VertexId, VertexId> renamed;
  std::set<VertexId> used;
  const auto rename = [&](VertexId machine_vertex, VertexId subset_vertex) {
    const auto [it, inserted] = renamed.emplace(machine_vertex, subset_vertex);
    ASSERT_EQ(it->second, subset_vertex) << "vertex " << machine_vertex << " renamed twice";
    if (inserted) {
      ASSERT_TRUE(used.insert(subset_vertex).second) << "vertex " << subset_vertex;
    }
  };
  for (LinkId id = 0; id < s.link_count(); ++id) {
    rename(machine_->link(id).from, s.link(id).from);
    rename(machine_->link(id).to, s.link(id).to);
  }
  for (NodeId k = 0; k < s.node_count(); ++k) {
    EXPECT_EQ(renamed.at(s.nodes()[static_cast<std::size_t>(k)]), k);
  }
  EXPECT_EQ(s.links_per_class(), machine_->links_per_class());
}

TEST_P(EveryKindSubset, HopHistogramCountsTheSubsetsPairs) {
  const auto& s = *subset_;
  std::vector<std::uint64_t> counts;
  for (NodeId a = 0; a < s.node_count(); ++a) {
    for (NodeId b = 0; b < s.node_count(); ++b) {
      const auto h = static_cast<std::size_t>(s.hops(a, b));
      if (h >= counts.size()) counts.resize(h + 1);
      ++counts[h];
    }
  }
  EXPECT_EQ(s.hop_histogram().counts, counts);
}

TEST_P(EveryKindSubset, LevelsAreTheMachinesRestrictedAndRenumbered) {
  const auto& s = *subset_;
  const auto machine_levels = machine_->levels();
  const auto levels = s.levels();
  ASSERT_EQ(levels.size(), machine_levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l) {
    EXPECT_EQ(levels[l].name, machine_levels[l].name);
    ASSERT_EQ(levels[l].group.size(), static_cast<std::size_t>(s.node_count()));
    // Two subset nodes share a group exactly when their machine nodes do; groups are numbered in
    // order of first use, 0 .. groups - 1.
    std::map<std::int32_t, std::int32_t> to_subset_group;
    std::int32_t next = 0;
    for (NodeId k = 0; k < s.node_count(); ++k) {
      const auto machine_group =
          machine_levels[l].group[static_cast<std::size_t>(s.nodes()[static_cast<std::size_t>(k)])];
      const auto [it, inserted] = to_subset_group.emplace(machine_group, next);
      if (inserted) ++next;
      EXPECT_EQ(levels[l].group[static_cast<std::size_t>(k)], it->second) << "level " << l;
    }
    EXPECT_EQ(levels[l].groups, next);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, EveryKindSubset,
    ::testing::Values("mesh:4x3", "torus:3x3x2", "haec:2x2x3", "tianhe3:2x2:nodes=4",
                      "fattree:2;4,4;1,2;1,2", "dragonfly:9,4,2,2", "cascade:2,1;3,1;6,1;4",
                      "slurm:" SLURM_DATA "three-level.conf", "slurm:" SLURM_DATA "fat-tree.conf",
                      "slurm:" SLURM_DATA "mixed.conf:cores=2"),
    [](const auto& param_info) {
      std::string name = param_info.param.substr(0, param_info.param.find(':'));
      return name + std::to_string(param_info.index);
    });

// ---- Host names --------------------------------------------------------------------------------

TEST(NodeSubset, CarriesTheMachinesHostNamesFromItsFile) {
  const auto machine = make_topology("slurm:" SLURM_DATA "two-level.conf");
  const NodeSubset subset(*machine, {7, 0, 4});
  EXPECT_EQ(subset.host_name(0), "nid0012");
  EXPECT_EQ(subset.host_name(1), "nid0001");
  EXPECT_EQ(subset.host_name(2), "nid0007");
  EXPECT_EQ(subset.host_names().find("nid0007"), 2);
  EXPECT_EQ(subset.host_names().find("nid0002"), std::nullopt);  // not in the subset
  EXPECT_EQ(subset.node_named("nid0001", "A"), 1);
  EXPECT_EQ(subset.host_names().source(), machine->host_names().source());
  // nid0012 (s1) and nid0001 (s0): across the root.
  EXPECT_EQ(subset.hops(0, 1), 3);
  EXPECT_EQ(subset.hops(1, 2), 1);
}

TEST(NodeSubset, CarriesTheMachinesHostNamesFromAHostsFile) {
  const testing::TempDir dir;
  const auto hosts = dir.write("hosts.txt", "cn[1-8]\n");
  const auto machine = make_topology("torus:2x2x2:hosts=" + hosts.string());
  const NodeSubset subset(*machine, {5, 6});
  EXPECT_EQ(subset.host_name(0), "cn6");
  EXPECT_EQ(subset.host_name(1), "cn7");
}

// The compact block of a hierarchical machine is a prefix subset (Block.hpp): the first nodes of
// the file, here both of s0's first four and nothing else.
TEST(NodeSubset, PrefixOfASlurmTree) {
  const auto machine = make_topology("slurm:" SLURM_DATA "two-level.conf");
  const NodeSubset subset(*machine, {0, 1, 2, 3});
  const auto levels = subset.levels();
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].groups, 1);  // all on s0
  EXPECT_EQ(subset.hop_histogram().counts, (std::vector<std::uint64_t>{4, 12}));
}

}  // namespace
}  // namespace mapsim::topo
