// Slurm topology files (topology/tree): the shared invariants, hand-counted routes and hops on the
// files of tests/data/slurm, D-mod-K and ECMP among parallel parents, and every error of the
// reader, each naming the file, the line and the bad value.

#include "topologies/SlurmTree.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/topologies/EveryPair.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

using ::testing::HasSubstr;

// A folder for one test's files, removed with them. (tests/support/TempDir.hpp declares
// mapsim::testing, which would hide ::testing from EveryPair.hpp's tests in this namespace.)
class Folder {
 public:
  Folder() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            fmt::format("mapsim-slurm-{}-{}", info ? info->name() : "test", ::getpid());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

#define SLURM_DATA MAPSIM_TEST_DATA_DIR "/slurm/"

INSTANTIATE_TEST_SUITE_P(
    SlurmTrees, EveryPair,
    ::testing::Values("slurm:" SLURM_DATA "two-level.conf", "slurm:" SLURM_DATA "three-level.conf",
                      "slurm:" SLURM_DATA "leaf-spine.conf",
                      "slurm:" SLURM_DATA "fat-tree.conf:routing=ecmp",
                      "slurm:" SLURM_DATA "mixed.conf",
                      "slurm:" SLURM_DATA "uneven-parents.conf:cores=4",
                      "slurm:" SLURM_DATA "deep.conf", "slurm:" SLURM_DATA "single.conf",
                      "slurm:" SLURM_DATA "include.conf",
                      "slurm:" SLURM_DATA "two-level.conf:allocation=nid[0002-0004],nid0011"),
    SpecName);

// No two links join the same two vertices in the same direction: a switch lists a child once.
INSTANTIATE_TEST_SUITE_P(
    SlurmTrees, DistinctLinks,
    ::testing::Values("slurm:" SLURM_DATA "two-level.conf", "slurm:" SLURM_DATA "three-level.conf",
                      "slurm:" SLURM_DATA "leaf-spine.conf", "slurm:" SLURM_DATA "fat-tree.conf",
                      "slurm:" SLURM_DATA "mixed.conf", "slurm:" SLURM_DATA "uneven-parents.conf",
                      "slurm:" SLURM_DATA "deep.conf"),
    SpecName);

std::unique_ptr<SlurmTree> load(const std::string& file) {
  return std::make_unique<SlurmTree>(std::string(SLURM_DATA) + file, 1);
}

/// The vertices a route passes through after leaving a, by name.
std::vector<std::string> via(const Topology& t, NodeId a, NodeId b) {
  std::vector<std::string> names;
  for (const LinkId id : t.route(a, b)) names.push_back(t.vertex_name(t.link(id).to));
  return names;
}

std::vector<LinkClass> classes(const Topology& t, const std::vector<LinkId>& path) {
  std::vector<LinkClass> result;
  for (const LinkId id : path) result.push_back(t.link(id).link_class);
  return result;
}

// ---- Hops: the fewest switches of an up-down way, checked against a search of our own --------

class EveryFile : public ::testing::TestWithParam<std::string> {};

// Up-distances by a breadth-first search over parents(), independent of the tree's own tables:
// hops(a, b) = 1 + min over common ancestors C of (links up from a's leaf switch to C + links up
// from b's). Every route, minimal or ECMP, has that many hops.
TEST_P(EveryFile, HopsAreTheShortestUpDownWayAndEveryRouteTakesOne) {
  const auto t = load(GetParam());
  const auto up = [&](std::int32_t from) {
    std::map<std::int32_t, int> dist{{from, 0}};
    std::vector<std::int32_t> frontier{from};
    while (!frontier.empty()) {
      std::vector<std::int32_t> next;
      for (const auto s : frontier) {
        for (const auto p : t->parents(s)) {
          if (dist.emplace(p, dist[s] + 1).second) next.push_back(p);
        }
      }
      frontier = std::move(next);
    }
    return dist;
  };
  std::vector<LinkId> path;
  for (NodeId a = 0; a < t->node_count(); ++a) {
    const auto from_a = up(t->leaf_switch(a));
    for (NodeId b = 0; b < t->node_count(); ++b) {
      if (a == b) continue;
      int best = 1 << 20;
      for (const auto& [s, d] : up(t->leaf_switch(b))) {
        if (const auto it = from_a.find(s); it != from_a.end())
          best = std::min(best, d + it->second);
      }
      ASSERT_EQ(t->hops(a, b), 1 + best) << GetParam() << " " << a << " " << b;
      for (std::uint64_t choice = 0; choice < 16; ++choice) {
        t->alternative_route_into(a, b, choice * 0x9E3779B97F4A7C15ull, path);
        ASSERT_EQ(t->route_hops(path), t->hops(a, b));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SlurmTrees, EveryFile,
                         ::testing::Values("two-level.conf", "three-level.conf", "leaf-spine.conf",
                                           "fat-tree.conf", "mixed.conf", "uneven-parents.conf",
                                           "deep.conf", "single.conf", "include.conf"),
                         [](const auto& param_info) {
                           auto name = param_info.param.substr(0, param_info.param.find('.'));
                           std::erase(name, '-');
                           return name;
                         });

// ECMP routes are chains from a to b too, for every choice (EveryPair checks the minimal ones).
TEST_P(EveryFile, EcmpRoutesAreChainsFromAToB) {
  const auto t = make_topology("slurm:" SLURM_DATA + GetParam() + ":routing=ecmp");
  std::vector<LinkId> path;
  for (NodeId a = 0; a < t->node_count(); ++a) {
    for (NodeId b = 0; b < t->node_count(); ++b) {
      for (std::uint64_t choice = 0; choice < 8; ++choice) {
        t->alternative_route_into(a, b, choice * 0xD1B54A32D192ED03ull + 7, path);
        VertexId at = a;
        for (const LinkId id : path) {
          ASSERT_EQ(t->link(id).from, at);
          at = t->link(id).to;
        }
        ASSERT_EQ(at, b);
        ASSERT_LE(static_cast<int>(path.size()), t->max_route_links());
      }
    }
  }
}

// ---- two-level.conf: node order, host names, hops ----------------------------------------------

TEST(SlurmTree, NodesAreNumberedAsTheFileListsThemWithItsHostNames) {
  const auto t = load("two-level.conf");
  // nid[0001-0004,0007] on s0, then nid[0010-0012] on s1.
  ASSERT_EQ(t->node_count(), 8);
  const std::vector<std::string> hosts{"nid0001", "nid0002", "nid0003", "nid0004",
                                       "nid0007", "nid0010", "nid0011", "nid0012"};
  for (NodeId n = 0; n < 8; ++n) EXPECT_EQ(t->host_name(n), hosts[static_cast<std::size_t>(n)]);
  EXPECT_EQ(t->host_names().find("nid0007"), 4);
  EXPECT_EQ(t->host_names().find("nid0005"), std::nullopt);  // the gap of the hostlist
  EXPECT_THAT(t->host_names().source(), HasSubstr("two-level.conf"));
  EXPECT_EQ(t->coordinates(6), std::vector<int>{6});
  EXPECT_EQ(t->node_at(std::vector<int>{6}), 6);
  EXPECT_THROW((void)t->node_at(std::vector<int>{8}), InputError);
  EXPECT_FALSE(t->has_grid());
  EXPECT_TRUE(t->prefix_blocks());
  EXPECT_FALSE(t->nodes_are_routers());
  EXPECT_EQ(t->block_stats(std::vector<int>{4}), std::nullopt);
}

TEST(SlurmTree, SwitchesFollowTheNodesInTheOrderOfTheirLines) {
  const auto t = load("two-level.conf");
  ASSERT_EQ(t->switch_count(), 3);
  EXPECT_EQ(t->vertex_count(), 8 + 3);
  EXPECT_EQ(t->vertex_name(8), "switch s0");
  EXPECT_EQ(t->vertex_name(10), "switch root");
  EXPECT_EQ(t->vertex_name(4), "node 4 (nid0007)");
  EXPECT_EQ(t->find_switch("s1"), 1);
  EXPECT_EQ(t->find_switch("s2"), std::nullopt);
  EXPECT_EQ(t->switch_level(0), 1);
  EXPECT_EQ(t->switch_level(2), 2);
  EXPECT_EQ(t->tree_levels(), 2);
  // LinkSpeed is read and kept; Slurm's default is 1.
  EXPECT_EQ(t->link_speed(1), 100u);
  EXPECT_EQ(t->link_speed(0), 1u);
}

TEST(SlurmTree, HopsCountSwitches) {
  const auto t = load("two-level.conf");
  EXPECT_EQ(t->hops(0, 0), 0);
  EXPECT_EQ(t->hops(0, 4), 1);  // both on s0
  EXPECT_EQ(t->hops(0, 5), 3);  // s0, root, s1
  // node -> s0 -> root -> s1 -> node: the last link ends in a node, not a switch.
  EXPECT_EQ(via(*t, 0, 5), (std::vector<std::string>{"switch s0", "switch root", "switch s1",
                                                     "node 5 (nid0010)"}));
  EXPECT_EQ(t->max_route_links(), 4);
}

TEST(SlurmTree, LinksAreNumberedNodesFirstThenEdgesUpAndDown) {
  const auto t = load("two-level.conf");
  // 8 nodes x 2 links, then edges s0-root (0) and s1-root (1), up then down.
  ASSERT_EQ(t->link_count(), 16 + 4);
  EXPECT_EQ(t->link(2 * 4).from, 4);
  EXPECT_EQ(t->link(2 * 4).to, 8);  // node 4 up to s0
  EXPECT_EQ(t->link(2 * 4 + 1).from, 8);
  EXPECT_EQ(t->link(16).from, 8);  // s0 up to root
  EXPECT_EQ(t->link(16).to, 10);
  EXPECT_EQ(t->link(19).from, 10);  // root down to s1
  EXPECT_EQ(t->link(19).to, 9);
  EXPECT_EQ(t->route(0, 5), (std::vector<LinkId>{0, 16, 19, 11}));
}

TEST(SlurmTree, MachineSpecAndSourceFiles) {
  const std::string path = SLURM_DATA "two-level.conf";
  const auto t = make_topology("slurm:" + path + ":cores=2");
  EXPECT_EQ(t->machine_spec(), "slurm:" + path + ":cores=2");
  EXPECT_EQ(t->kind(), "slurm");
  EXPECT_EQ(t->cores_per_node(), 2);
  EXPECT_EQ(t->source_files(), std::vector<std::filesystem::path>{path});
  EXPECT_EQ(make_topology("slurm:" + path)->spec(), "slurm:" + path);
  // D-mod-K is the minimal routing of a tree, accepted under its own name.
  EXPECT_EQ(make_topology("slurm:" + path + ":routing=dmodk")->routing(), Routing::Minimal);
  const auto ecmp = make_topology("slurm:" + path + ":routing=ecmp");
  EXPECT_EQ(ecmp->spec(), "slurm:" + path + ":routing=ecmp");
  EXPECT_EQ(std::vector<Routing>(t->routings().begin(), t->routings().end()),
            (std::vector<Routing>{Routing::Minimal, Routing::Ecmp}));
}

// ---- three-level.conf: unequal depths, levels, link classes, Slurm's syntax ------------------

TEST(SlurmTree, ReadsSlurmSyntaxKeyCaseQuotesContinuationAndLinkSpeedForms) {
  const auto t = load("three-level.conf");
  // leaf1 rack1-n01..03, leaf2 "rack1-n04 rack1-n05" (a blank separates hostlist items), leaf3
  // rack2-n01..02 continued by rack2-n03, leaf4 rack3-n1..2 (no zero padding).
  const std::vector<std::string> hosts{"rack1-n01", "rack1-n02", "rack1-n03", "rack1-n04",
                                       "rack1-n05", "rack2-n01", "rack2-n02", "rack2-n03",
                                       "rack3-n1",  "rack3-n2"};
  ASSERT_EQ(t->node_count(), 10);
  for (NodeId n = 0; n < 10; ++n) EXPECT_EQ(t->host_name(n), hosts[static_cast<std::size_t>(n)]);
  EXPECT_EQ(t->link_speed(*t->find_switch("leaf4")), 10u * 1024);  // 10k
  EXPECT_EQ(t->link_speed(*t->find_switch("agg2")), 16u);          // 0x10
  EXPECT_EQ(t->link_speed(*t->find_switch("core")), 1u);
}

TEST(SlurmTree, LevelIsOneAboveTheHighestSwitchBelow) {
  const auto t = load("three-level.conf");
  EXPECT_EQ(t->switch_level(*t->find_switch("leaf4")), 1);
  EXPECT_EQ(t->switch_level(*t->find_switch("agg1")), 2);
  // core is above agg1 (level 2) and leaf4 (level 1): 1 + 2.
  EXPECT_EQ(t->switch_level(*t->find_switch("core")), 3);
  EXPECT_EQ(t->tree_levels(), 3);
}

TEST(SlurmTree, HopsOnUnequalDepths) {
  const auto t = load("three-level.conf");
  EXPECT_EQ(t->hops(0, 3), 3);  // leaf1, agg1, leaf2
  EXPECT_EQ(t->hops(0, 5), 5);  // leaf1, agg1, core, agg2, leaf3
  EXPECT_EQ(t->hops(0, 8), 4);  // leaf1, agg1, core, leaf4
  EXPECT_EQ(t->hops(9, 6), 4);  // leaf4, core, agg2, leaf3
  // 2 + the longest way: up 2 from leaf1 to core, down 2 to leaf3.
  EXPECT_EQ(t->max_route_links(), 6);
}

TEST(SlurmTree, LinkClassesFollowTheLevelOfTheLowerSwitch) {
  const auto t = load("three-level.conf");
  // leaf1 (level 1) -> agg1 ft-1, agg1 (level 2) -> core ft-2, core -> leaf4 (level 1) ft-1.
  EXPECT_EQ(classes(*t, t->route(0, 8)),
            (std::vector<LinkClass>{LinkClass::FtHost, LinkClass::Ft1, LinkClass::Ft2,
                                    LinkClass::Ft1, LinkClass::FtHost}));
  const auto per_class = t->links_per_class();
  // 10 nodes x 2; 4 leaf edges (leaf1, leaf2, leaf3 to their agg, leaf4 to core) x 2; 2 agg x 2.
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::FtHost)], 20);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::Ft1)], 8);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::Ft2)], 4);
  // The closed form agrees with counting link(id).
  std::array<std::int64_t, kLinkClassCount> counted{};
  for (LinkId id = 0; id < t->link_count(); ++id) {
    ++counted[static_cast<std::size_t>(t->link(id).link_class)];
  }
  EXPECT_EQ(per_class, counted);
}

TEST(SlurmTree, LevelsGroupNodesByTheirAncestorAtEachLevel) {
  const auto t = load("three-level.conf");
  const auto levels = t->levels();
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].name, "leaf switch");
  EXPECT_EQ(levels[0].groups, 4);
  EXPECT_EQ(levels[0].group, (std::vector<std::int32_t>{0, 0, 0, 1, 1, 2, 2, 2, 3, 3}));
  // Level 2: agg1 (leaf1, leaf2), agg2 (leaf3); leaf4's chain skips level 2 (its parent is the
  // core, at 3), so its level-2 group is leaf4 itself.
  EXPECT_EQ(levels[1].name, "level-2 switch");
  EXPECT_EQ(levels[1].groups, 3);
  EXPECT_EQ(levels[1].group, (std::vector<std::int32_t>{0, 0, 0, 0, 0, 1, 1, 1, 2, 2}));
  EXPECT_EQ(levels[2].groups, 1);
  EXPECT_EQ(levels[2].group, std::vector<std::int32_t>(10, 0));
}

// ---- Multi-parent switches: D-mod-K and ECMP ---------------------------------------------------

TEST(SlurmTree, LeafSpineDModKTakesTheSpineOfTheDestinationModTwo) {
  const auto t = load("leaf-spine.conf");
  // leaf1 has parents spine1, spine2 (in file order): destination 6 (n07) takes 6 mod 2 = 0,
  // spine1; destination 7 takes spine2.
  EXPECT_EQ(via(*t, 0, 6), (std::vector<std::string>{"switch leaf1", "switch spine1",
                                                     "switch leaf3", "node 6 (n07)"}));
  EXPECT_EQ(via(*t, 0, 7), (std::vector<std::string>{"switch leaf1", "switch spine2",
                                                     "switch leaf3", "node 7 (n08)"}));
  // Links: 12 nodes (0..23), then edges leaf1-spine1 (0), leaf1-spine2 (1), leaf2-spine1 (2), ...
  // leaf3-spine1 (4), leaf3-spine2 (5): up 24 + 2e, down 25 + 2e.
  EXPECT_EQ(t->route(0, 6), (std::vector<LinkId>{0, 24, 33, 13}));
  EXPECT_EQ(t->route(0, 7), (std::vector<LinkId>{0, 26, 35, 15}));
  EXPECT_EQ(t->hops(0, 7), 3);
  EXPECT_EQ(t->parents(0).size(), 2u);
  // Both spines reach every node: no common root is needed. The canonical chain takes the first
  // parent, spine1, so all nodes are one group at level 2.
  const auto levels = t->levels();
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[1].groups, 1);
}

TEST(SlurmTree, FatTreeDModKSpreadsDestinationsOverEveryCore) {
  const auto t = load("fat-tree.conf");
  // From node 0 (l1) into the other pod: the first choice (l1's parents a1, a2) takes b mod 2,
  // the next (the aggregation switch's two cores) (b / 2) mod 2: destinations 4, 5, 6, 7 take
  // c1, c3, c2, c4: one core each, as Zahavi's D-mod-K.
  const auto core = [&](NodeId b) { return via(*t, 0, b)[2]; };
  EXPECT_EQ(core(4), "switch c1");
  EXPECT_EQ(core(5), "switch c3");
  EXPECT_EQ(core(6), "switch c2");
  EXPECT_EQ(core(7), "switch c4");
  EXPECT_EQ(via(*t, 0, 5), (std::vector<std::string>{"switch l1", "switch a2", "switch c3",
                                                     "switch a4", "switch l3", "node 5 (h06)"}));
  // Within the pod: up to a1 (2 mod 2) or a2 (3 mod 2) and down.
  EXPECT_EQ(via(*t, 0, 2)[1], "switch a1");
  EXPECT_EQ(via(*t, 0, 3)[1], "switch a2");
  EXPECT_EQ(t->hops(0, 1), 1);
  EXPECT_EQ(t->hops(0, 3), 3);
  EXPECT_EQ(t->hops(0, 7), 5);
}

TEST(SlurmTree, EcmpChoosesFromTheChoiceAndReachesEveryParent) {
  const auto t = make_topology("slurm:" SLURM_DATA "fat-tree.conf:routing=ecmp");
  std::set<std::string> cores;
  std::vector<LinkId> path;
  std::vector<LinkId> again;
  for (std::uint64_t choice = 0; choice < 256; ++choice) {
    t->alternative_route_into(0, 4, choice, path);
    t->alternative_route_into(0, 4, choice, again);
    ASSERT_EQ(path, again) << "the same choice, the same route";
    ASSERT_EQ(path.size(), 6u);
    cores.insert(t->vertex_name(t->link(path[2]).to));
  }
  EXPECT_EQ(cores, (std::set<std::string>{"switch c1", "switch c2", "switch c3", "switch c4"}));
  // The minimal route ignores the choice.
  EXPECT_EQ(t->route(0, 4), load("fat-tree.conf")->route(0, 4));
}

TEST(SlurmTree, WithoutEcmpAlternativeRoutesAreTheMinimalOne) {
  const auto t = load("fat-tree.conf");
  std::vector<LinkId> path;
  for (std::uint64_t choice = 0; choice < 32; ++choice) {
    t->alternative_route_into(1, 6, choice, path);
    EXPECT_EQ(path, t->route(1, 6));
  }
}

TEST(SlurmTree, OnlyParentsOnAShortestWayAreChosen) {
  const auto t = load("mixed.conf");
  // l1 (nodes 0, 1) is under a1 and a2, l2 (2, 3) only under a1, l3 (4, 5) only under a2: to l2
  // the route takes a1 whatever b mod 2 or the ECMP choice says; to l3, a2.
  const auto ecmp = make_topology("slurm:" SLURM_DATA "mixed.conf:routing=ecmp");
  std::vector<LinkId> path;
  for (const NodeId b : {2, 3}) {
    EXPECT_EQ(via(*t, 0, b)[1], "switch a1");
    for (std::uint64_t choice = 0; choice < 64; ++choice) {
      ecmp->alternative_route_into(0, b, choice, path);
      ASSERT_EQ(path.size(), 4u);
      EXPECT_EQ(ecmp->vertex_name(ecmp->link(path[1]).to), "switch a1");
    }
  }
  for (const NodeId b : {4, 5}) EXPECT_EQ(via(*t, 1, b)[1], "switch a2");
  // l2 to l3 goes over the top: l2, a1, top, a2, l3.
  EXPECT_EQ(t->hops(2, 4), 5);
  EXPECT_EQ(t->hops(0, 2), 3);
  EXPECT_EQ(t->hops(0, 4), 3);
}

TEST(SlurmTree, ParentsAtDifferentLevelsTakeTheShorterWay) {
  const auto t = load("uneven-parents.conf");
  // l1 to l3: straight through root (3 switches), not agg then root (4).
  EXPECT_EQ(via(*t, 0, 4),
            (std::vector<std::string>{"switch l1", "switch root", "switch l3", "node 4 (p5)"}));
  EXPECT_EQ(t->hops(0, 4), 3);
  EXPECT_EQ(t->hops(0, 2), 3);  // l1, agg, l2
  EXPECT_EQ(t->hops(2, 4), 4);  // l2, agg, root, l3
  EXPECT_EQ(t->switch_level(*t->find_switch("root")), 3);
  // Level 2 follows l1's first parent, agg; l3's chain skips to root (level 3).
  const auto levels = t->levels();
  EXPECT_EQ(levels[1].group, (std::vector<std::int32_t>{0, 0, 0, 0, 1, 1}));
}

TEST(SlurmTree, EightLevelsUseEveryTreeLinkClass) {
  const auto t = load("deep.conf");
  EXPECT_EQ(t->tree_levels(), kMaxTreeLevels);
  // deep1 (d1) to deep3 (e1): d1 .. d8 up, e1: 9 switches.
  EXPECT_EQ(t->hops(0, 2), 9);
  EXPECT_EQ(t->max_route_links(), 2 + 7 + 1);
  const auto path = t->route(0, 2);
  EXPECT_EQ(classes(*t, path),
            (std::vector<LinkClass>{LinkClass::FtHost, LinkClass::Ft1, LinkClass::Ft2,
                                    LinkClass::Ft3, LinkClass::Ft4, LinkClass::Ft5, LinkClass::Ft6,
                                    LinkClass::Ft7, LinkClass::Ft1, LinkClass::FtHost}));
  EXPECT_EQ(t->levels().size(), 8u);
}

TEST(SlurmTree, OneSwitchIsOneHopBetweenAnyTwoNodes) {
  const auto t = load("single.conf");
  EXPECT_EQ(t->node_count(), 3);
  EXPECT_EQ(t->hops(0, 2), 1);
  EXPECT_EQ(t->max_route_links(), 2);
  EXPECT_EQ(t->hop_histogram().counts, (std::vector<std::uint64_t>{3, 6}));
  ASSERT_EQ(t->levels().size(), 1u);
  EXPECT_EQ(t->levels()[0].groups, 1);
}

TEST(SlurmTree, IncludeReadsAFileOfTheSameFolderAndCountsAsASource) {
  const auto t = load("include.conf");
  EXPECT_EQ(t->node_count(), 4);
  EXPECT_EQ(t->host_name(0), "i1");
  EXPECT_EQ(t->hops(0, 3), 3);
  ASSERT_EQ(t->source_files().size(), 2u);
  EXPECT_EQ(t->source_files()[1].filename(), "include-leaves.conf");
}

// Classes of leaf switches with equal ancestors: l1 {a1, a2, top}, l2 {a1, top}, l3 {a2, top}.
TEST(SlurmTree, HopHistogramByClassesOfLeafSwitches) {
  const auto t = load("mixed.conf");
  // 6 on the diagonal; 1 hop: 3 leaf switches x 2 x 1 ordered pairs; 3 hops: l1-l2 and l1-l3,
  // 2 x 2 nodes x 2 directions each; 5 hops: l2-l3, 8 ordered pairs.
  EXPECT_EQ(t->hop_histogram().counts, (std::vector<std::uint64_t>{6, 6, 0, 16, 0, 8}));
}

// ---- Host names in queries (mapsim topo --hops/--route go through node_named) -----------------

TEST(SlurmTree, NodesAreNamedByHostNameOrId) {
  const auto t = load("two-level.conf");
  EXPECT_EQ(t->node_named("nid0007", "--hops A"), 4);
  EXPECT_EQ(t->node_named("4", "--hops A"), 4);
  EXPECT_EQ(t->hops(t->node_named("nid0001", "A"), t->node_named("nid0012", "B")), 3);
  EXPECT_EQ(t->route(t->node_named("nid0001", "A"), t->node_named("nid0012", "B")), t->route(0, 7));
  try {
    (void)t->node_named("nid0005", "--route A");
    FAIL() << "nid0005 is not a host of the file";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--route A"));
    EXPECT_THAT(e.what(), HasSubstr("nid0005"));
    EXPECT_THAT(e.what(), HasSubstr("nid0001 to nid0012"));
  }
  EXPECT_THROW((void)t->node_named("8", "A"), InputError);
}

// ---- Specs -------------------------------------------------------------------------------------

std::string spec_error(const std::string& spec) {
  try {
    (void)parse_topology_spec(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SlurmTreeSpec, ThePathIsTheShape) {
  const auto spec = parse_topology_spec("slurm:conf/topology.conf:cores=2:routing=ecmp");
  EXPECT_EQ(spec.shape, "conf/topology.conf");
  EXPECT_EQ(to_string(spec), "slurm:conf/topology.conf:cores=2:routing=ecmp");
}

TEST(SlurmTreeSpec, RejectsAnExtraFieldAKindOptionAndHosts) {
  EXPECT_THAT(spec_error("slurm:C:/topology.conf"), HasSubstr("'/topology.conf' follows it"));
  const auto option = spec_error("slurm:t.conf:core=2");
  EXPECT_THAT(option, HasSubstr("unknown option 'core'"));
  EXPECT_THAT(option, HasSubstr("cores, routing, allocation"));
  EXPECT_THAT(option, HasSubstr("did you mean 'cores'"));
  EXPECT_THAT(spec_error("slurm:t.conf:hosts=h.txt"), HasSubstr("hosts="));
  EXPECT_THAT(spec_error("slurm:"), HasSubstr("missing"));
  EXPECT_THAT(spec_error("slurm:t.conf:routing=valiant"), HasSubstr("minimal, ecmp"));
}

// ---- Errors: each names the file, the line and the value ---------------------------------------

class SlurmTreeErrors : public ::testing::Test {
 protected:
  /// The message of loading `text` as t.conf; "no error" if it loads.
  std::string error(const std::string& text) {
    const auto file = dir_.write("t.conf", text);
    return error_of(file);
  }
  static std::string error_of(const std::filesystem::path& file) {
    try {
      (void)make_topology("slurm:" + file.string());
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  }
  /// "DIR/t.conf:LINE".
  std::string at(int line) const {
    return fmt::format("{}:{}", (dir_.path() / "t.conf").string(), line);
  }

  Folder dir_;
};

TEST_F(SlurmTreeErrors, UnknownKeySuggestsTheClosest) {
  const auto message = error("SwitchName=s1 Node=n[1-2]\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("unknown key 'Node'"));
  EXPECT_THAT(message, HasSubstr("did you mean 'Nodes'"));
  EXPECT_THAT(error("# c\nSwitchNmae=s1 Nodes=n1\n"), HasSubstr("did you mean 'SwitchName'"));
  EXPECT_THAT(error("\nSwitchName=s1 Nodes=n1 Speed=5\n"), HasSubstr(at(2)));
}

TEST_F(SlurmTreeErrors, AnotherPluginsKeysSayWhichPlugin) {
  const auto message = error("BlockName=b1 Nodes=n[1-4]\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("topology/block"));
}

TEST_F(SlurmTreeErrors, MissingSwitchName) {
  const auto message = error("SwitchName=s1 Nodes=n1\nNodes=n2\n");
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("SwitchName= is missing: the line starts with Nodes="));
  EXPECT_THAT(error("SwitchName=\"\" Nodes=n1\n"), HasSubstr("SwitchName is empty"));
}

TEST_F(SlurmTreeErrors, SwitchNameIsOneName) {
  const auto message = error("SwitchName=leaf[1-2] Nodes=n1\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("'leaf[1-2]' is not one name"));
  EXPECT_THAT(error("SwitchName=" + std::string(65, 's') + " Nodes=n1\n"),
              HasSubstr("longer than Slurm's 64"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n1 SwitchName=s2 Nodes=n2\n"),
              HasSubstr("a second SwitchName= ('s2')"));
}

TEST_F(SlurmTreeErrors, SwitchDefinedTwice) {
  const auto message = error(
      "SwitchName=s1 Nodes=n1\nSwitchName=s2 Nodes=n2\n"
      "SwitchName=s1 Nodes=n3\nSwitchName=top Switches=s[1-2]\n");
  EXPECT_THAT(message, HasSubstr(at(3)));
  EXPECT_THAT(message, HasSubstr("switch 's1' is defined twice (first at " + at(1)));
}

TEST_F(SlurmTreeErrors, SwitchWithNeitherOrBothNodesAndSwitches) {
  auto message = error("SwitchName=s1 Nodes=n1\nSwitchName=s2 LinkSpeed=5\n");
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("switch 's2' has neither Nodes= nor Switches="));
  message = error("SwitchName=s1 Nodes=n1\nSwitchName=s2 Nodes=n2 Switches=s1\n");
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("switch 's2' has both Nodes= and Switches="));
}

TEST_F(SlurmTreeErrors, UnknownSwitchInSwitches) {
  const auto message = error(
      "SwitchName=leaf1 Nodes=n1\nSwitchName=leaf2 Nodes=n2\n"
      "SwitchName=top \\\n  Switches=leaf[1-3]\n");
  // The Switches= is on the continued line 4.
  EXPECT_THAT(message, HasSubstr(at(4)));
  EXPECT_THAT(message, HasSubstr("'top' lists 'leaf3'"));
  EXPECT_THAT(message, HasSubstr("did you mean one of 'leaf1', 'leaf2'"));
  EXPECT_THAT(error("SwitchName=l Nodes=n1\nSwitchName=t Switches=l,l\n"),
              HasSubstr("'t' lists 'l' twice"));
}

TEST_F(SlurmTreeErrors, NodeUnderTwoLeafSwitches) {
  const auto message = error(
      "SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[4-6]\n"
      "SwitchName=top Switches=s[1-2]\n");
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message,
              HasSubstr("node 'n4' is under leaf switch 's2' and under 's1' (at " + at(1)));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n[1-3],n2\n"), HasSubstr("'n2' is listed twice under"));
}

TEST_F(SlurmTreeErrors, Cycle) {
  const auto message = error(
      "SwitchName=leaf Nodes=n1\nSwitchName=a Switches=leaf,b\n"
      "SwitchName=b Switches=a\n");
  EXPECT_THAT(message, HasSubstr("cycle"));
  EXPECT_THAT(message, HasSubstr("'a' lists 'b' (at " + at(2) + ")"));
  EXPECT_THAT(message, HasSubstr("'b' lists 'a' (at " + at(3) + ")"));
  const auto self = error("SwitchName=leaf Nodes=n1\nSwitchName=a Switches=leaf,a\n");
  EXPECT_THAT(self, HasSubstr("'a' lists 'a' (at " + at(2)));
}

TEST_F(SlurmTreeErrors, MoreThanEightLevels) {
  std::string text = "SwitchName=s1 Nodes=n1\n";
  for (int s = 2; s <= 9; ++s) text += fmt::format("SwitchName=s{} Switches=s{}\n", s, s - 1);
  const auto message = error(text);
  EXPECT_THAT(message, HasSubstr(at(9)));
  EXPECT_THAT(message, HasSubstr("switch 's9' is at level 9"));
  EXPECT_THAT(message, HasSubstr("at most 8 levels"));
}

TEST_F(SlurmTreeErrors, BadHostlistAndHostNames) {
  auto message = error("SwitchName=s1 Nodes=n[1-\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("n[1-"));
  message = error("SwitchName=s1 Nodes=n[3-1]\n");
  EXPECT_THAT(message, HasSubstr("the range '3-1' ends below its start"));
  message = error("SwitchName=s1 Nodes=n1,007\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("'007' is all digits"));
  message = error("SwitchName=s1 Nodes=n@1\n");
  EXPECT_THAT(message, HasSubstr("'n@1'"));
  message = error("SwitchName=s1 Nodes=n1\nSwitchName=s2 Nodes=m1\nSwitchName=t Switches=s[1-\n");
  EXPECT_THAT(message, HasSubstr(at(3)));
  EXPECT_THAT(message, HasSubstr("Switches of switch 't'"));
}

TEST_F(SlurmTreeErrors, SeveralRootsWithoutACommonAncestor) {
  const auto message = error(
      "SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[3-5]\n"
      "SwitchName=c Nodes=m1\nSwitchName=up Switches=a,b\n");
  EXPECT_THAT(message, HasSubstr("no switch reaches every node"));
  EXPECT_THAT(message, HasSubstr("'up' (" + at(4) + ", 5 nodes)"));
  EXPECT_THAT(message, HasSubstr("'c' (" + at(3) + ", 1 nodes)"));
  EXPECT_THAT(message, HasSubstr("SwitchName=top Switches=c,up"));
}

TEST_F(SlurmTreeErrors, NoNodes) {
  EXPECT_THAT(error(""), HasSubstr("defines no switch and no node"));
  EXPECT_THAT(error("# only a comment\n\n   \n"), HasSubstr("defines no switch and no node"));
}

TEST_F(SlurmTreeErrors, MissingFileOrDirectory) {
  EXPECT_THAT(error_of(dir_.path() / "none.conf"), HasSubstr("none.conf: no such file"));
  EXPECT_THAT(error_of(dir_.path()), HasSubstr("is a directory"));
}

TEST_F(SlurmTreeErrors, FileThatCannotBeOpened) {
  // A UNIX socket exists but open() refuses it (ENXIO), for root too: the one way to reach the
  // "cannot be opened" branch whatever user runs the tests.
  const auto path = dir_.path() / "socket.conf";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.string().size(), sizeof(address.sun_path));
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
  EXPECT_THAT(error_of(path), HasSubstr("socket.conf: cannot be opened for reading"));
  ::close(fd);
}

TEST_F(SlurmTreeErrors, LinkSpeed) {
  auto message = error("SwitchName=s1 Nodes=n1 LinkSpeed=fast\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("LinkSpeed 'fast' is not a number"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n1 LinkSpeed=-1\n"), HasSubstr("below zero"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n1 LinkSpeed=4294967296\n"),
              HasSubstr("greater than 4294967295"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n1 LinkSpeed=4194304k\n"),
              HasSubstr("greater than 4294967295"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n1 LinkSpeed=08\n"), HasSubstr("'08' is not a number"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=n1 LinkSpeed=1 LinkSpeed=2\n"), HasSubstr("twice"));
  // Slurm's other forms load.
  EXPECT_EQ(error("SwitchName=s1 Nodes=n1 LinkSpeed=UNLIMITED\n"), "no error");
  EXPECT_EQ(error("SwitchName=s1 Nodes=n1 LinkSpeed=010\n"), "no error");
}

TEST_F(SlurmTreeErrors, LineSyntax) {
  auto message = error("SwitchName=s1 Nodes=n1 Nodes=n2\n");
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("Nodes= is given twice for switch 's1'"));
  message = error("SwitchName=s1 Nodes+=n1\n");
  EXPECT_THAT(message, HasSubstr("'Nodes+=' has an operator"));
  message = error("SwitchName=s1 Nodes=n1\nfoo bar\n");
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("'foo bar' is not KEY=VALUE"));
  message = error("SwitchName=s1 Nodes=\n");
  EXPECT_THAT(message, HasSubstr("Nodes= has no value"));
  EXPECT_THAT(error("SwitchName=s1 Nodes=\",\"\n"),
              HasSubstr("Nodes= of switch 's1' names nothing"));
  // A value left out before the next key is not that key's text as the value.
  message = error("SwitchName= Nodes=n1\n");
  EXPECT_THAT(message, AllOf(HasSubstr(at(1)), HasSubstr("SwitchName= has no value")));
  // Blanks around '=' are Slurm's syntax, and read.
  EXPECT_EQ(error("SwitchName = s1 Nodes = n[1-2]\n"), "no error");
  // A quote that is never closed.
  message = error("SwitchName=\"s1 Nodes=n[1-2]\n");
  EXPECT_THAT(message,
              AllOf(HasSubstr(at(1)), HasSubstr("the quote that opens SwitchName's value is not "
                                                "closed")));
}

TEST_F(SlurmTreeErrors, Includes) {
  auto message = error("Include missing.conf\n");
  EXPECT_THAT(message, HasSubstr(at(1) + ": Include missing.conf"));
  EXPECT_THAT(message, HasSubstr("missing.conf: no such file"));
  dir_.write("loop.conf", "Include t.conf\n");
  message = error("SwitchName=s Nodes=n1\nInclude loop.conf\n");
  EXPECT_THAT(message, HasSubstr("Include t.conf includes a file that is being read"));
  EXPECT_THAT(error("Include *.conf\n"), HasSubstr("does not expand '*'"));
  EXPECT_THAT(error("Include %c.conf\n"), HasSubstr("cluster name"));
  // An error in an included file names that file and line.
  dir_.write("part.conf", "SwitchName=s Nodes=n1\nSwitchName=s2 Nods=n2\n");
  message = error("Include part.conf\n");
  EXPECT_THAT(message, HasSubstr((dir_.path() / "part.conf").string() + ":2: unknown key 'Nods'"));
}

/// Files written by a test, loaded without error.
class SlurmTreeFiles : public SlurmTreeErrors {};

// ---- Slurm's syntax, accepted ------------------------------------------------------------------

TEST_F(SlurmTreeFiles, AcceptsWhatSlurmsParserAccepts) {
  // Escaped '#', blanks around '=', empty hostlist items, blanks inside quotes, CRLF, comments
  // after a continuation, a trailing continuation at the end of the file.
  const auto file = dir_.write("t.conf",
                               "# header \\\r\n"
                               "SwitchName = s1   Nodes = \"a1, a2  a3\" # three\r\n"
                               "switchname=s2 nodes=b1,,b2,\\  # continued\n"
                               "b3\n"
                               "SwitchName=top Switches=s1,s2 \\\n");
  const SlurmTree t(file, 1);
  ASSERT_EQ(t.node_count(), 6);
  EXPECT_EQ(t.host_name(2), "a3");
  EXPECT_EQ(t.host_name(5), "b3");
  EXPECT_EQ(t.hops(0, 5), 3);
}

// ---- Random trees ------------------------------------------------------------------------------

// Random multi-parent trees, their lines shuffled (a switch may be listed before its line):
// hops are the fewest switches of an up-down way (a search of our own over parents()), every
// route (minimal and ECMP) is a chain with that many hops, the histogram counts every pair, and
// each level's groups lie within one group of the next level.
TEST_F(SlurmTreeFiles, RandomTreesKeepEveryInvariant) {
  std::mt19937 random(2024);
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE(::testing::Message() << "round " << round);
    std::vector<std::string> lines;
    std::vector<std::vector<std::string>> by_level(1);
    int host = 0;
    const int leaves = 1 + static_cast<int>(random() % 5);
    for (int i = 0; i < leaves; ++i) {
      const int nodes = 1 + static_cast<int>(random() % 3);
      by_level[0].push_back(fmt::format("leaf{}", i));
      lines.push_back(fmt::format("SwitchName=leaf{} Nodes=h[{}-{}]", i, host + 1, host + nodes));
      host += nodes;
    }
    std::set<std::string> has_parent;
    const int levels = 1 + static_cast<int>(random() % 4);
    for (int l = 1; l < levels; ++l) {
      by_level.emplace_back();
      const int count = 1 + static_cast<int>(random() % 3);
      for (int i = 0; i < count; ++i) {
        // One child a level down, so that this switch is at level l + 1; others from any level
        // below.
        std::set<std::string> children{by_level[l - 1][random() % by_level[l - 1].size()]};
        for (int extra = static_cast<int>(random() % 3); extra > 0; --extra) {
          const auto& below = by_level[random() % l];
          children.insert(below[random() % below.size()]);
        }
        const auto name = fmt::format("sw{}_{}", l, i);
        by_level[l].push_back(name);
        has_parent.insert(children.begin(), children.end());
        lines.push_back(fmt::format("SwitchName={} Switches={}", name, fmt::join(children, ",")));
      }
    }
    std::vector<std::string> roots;
    for (const auto& level : by_level) {
      for (const auto& name : level) {
        if (has_parent.count(name) == 0) roots.push_back(name);
      }
    }
    if (roots.size() > 1) {
      lines.push_back(fmt::format("SwitchName=top Switches={}", fmt::join(roots, ",")));
    }
    std::shuffle(lines.begin(), lines.end(), random);
    const auto file = dir_.write("t.conf", fmt::format("{}\n", fmt::join(lines, "\n")));
    const auto t = make_topology("slurm:" + file.string() + ":routing=ecmp");
    const auto& tree = dynamic_cast<const SlurmTree&>(*t);
    ASSERT_EQ(t->node_count(), host);

    const auto up = [&](std::int32_t from) {
      std::map<std::int32_t, int> dist{{from, 0}};
      std::vector<std::int32_t> frontier{from};
      while (!frontier.empty()) {
        std::vector<std::int32_t> next;
        for (const auto sw : frontier) {
          for (const auto p : tree.parents(sw)) {
            if (dist.emplace(p, dist[sw] + 1).second) next.push_back(p);
          }
        }
        frontier = std::move(next);
      }
      return dist;
    };
    std::vector<std::uint64_t> counts;
    std::vector<LinkId> path;
    for (NodeId a = 0; a < t->node_count(); ++a) {
      const auto from_a = up(tree.leaf_switch(a));
      for (NodeId b = 0; b < t->node_count(); ++b) {
        int expected = 0;
        if (a != b) {
          int best = 1 << 20;
          for (const auto& [sw, d] : up(tree.leaf_switch(b))) {
            if (const auto it = from_a.find(sw); it != from_a.end()) {
              best = std::min(best, d + it->second);
            }
          }
          expected = 1 + best;
        }
        ASSERT_EQ(t->hops(a, b), expected) << a << " " << b;
        if (static_cast<std::size_t>(expected) >= counts.size()) counts.resize(expected + 1);
        ++counts[static_cast<std::size_t>(expected)];
        for (std::uint64_t choice = 0; choice < 6; ++choice) {
          if (choice == 0) {
            t->route_into(a, b, path);
          } else {
            t->alternative_route_into(a, b, choice * 0x9E3779B97F4A7C15ull, path);
          }
          VertexId at = a;
          for (const LinkId id : path) {
            ASSERT_EQ(t->link(id).from, at);
            at = t->link(id).to;
          }
          ASSERT_EQ(at, b);
          ASSERT_EQ(t->route_hops(path), expected);
          ASSERT_LE(static_cast<int>(path.size()), t->max_route_links());
        }
      }
    }
    EXPECT_EQ(t->hop_histogram().counts, counts);
    const auto node_levels = t->levels();
    ASSERT_EQ(static_cast<int>(node_levels.size()), tree.tree_levels());
    for (std::size_t l = 0; l < node_levels.size(); ++l) {
      std::int32_t seen = 0;
      for (NodeId n = 0; n < t->node_count(); ++n) {
        const auto g = node_levels[l].group[static_cast<std::size_t>(n)];
        ASSERT_LE(g, seen) << "groups are numbered in order of first use";
        if (g == seen) ++seen;
        if (l + 1 == node_levels.size()) continue;
        for (NodeId m = 0; m < n; ++m) {
          if (node_levels[l].group[static_cast<std::size_t>(m)] == g) {
            ASSERT_EQ(node_levels[l + 1].group[static_cast<std::size_t>(m)],
                      node_levels[l + 1].group[static_cast<std::size_t>(n)])
                << "a group lies within one group of the next level";
          }
        }
      }
      EXPECT_EQ(node_levels[l].groups, seen);
    }
  }
}

// ---- A large generated tree --------------------------------------------------------------------

// 100,000 nodes: 2,500 leaf switches of 40, 50 pods of 50 leaf switches each under two aggregation
// switches (multi-parent), two cores above all aggregation switches. The histogram and levels are
// computed without a loop over node pairs.
TEST(SlurmTreeLarge, AHundredThousandNodesLoadAndAreDescribed) {
  const Folder dir;
  std::string text = "# generated\n";
  for (int leaf = 0; leaf < 2500; ++leaf) {
    text += fmt::format("SwitchName=leaf{:04} Nodes=cn[{:06}-{:06}]\n", leaf, leaf * 40 + 1,
                        leaf * 40 + 40);
  }
  for (int pod = 0; pod < 50; ++pod) {
    for (int side = 0; side < 2; ++side) {
      text += fmt::format("SwitchName=agg{:02}{} Switches=leaf[{:04}-{:04}]\n", pod, "ab"[side],
                          pod * 50, pod * 50 + 49);
    }
  }
  text += "SwitchName=core1 Switches=agg[00-49]a,agg[00-49]b\n";
  text += "SwitchName=core2 Switches=agg[00-49]a,agg[00-49]b\n";
  const auto file = dir.write("big.conf", text);
  const auto t = make_topology("slurm:" + file.string());
  ASSERT_EQ(t->node_count(), 100'000);
  EXPECT_EQ(t->host_name(99'999), "cn100000");
  const auto histogram = t->hop_histogram().counts;
  // Same leaf switch 1 hop, same pod 3 (leaf, agg, leaf), else 5 (leaf, agg, core, agg, leaf).
  const std::uint64_t n = 100'000;
  const std::uint64_t same_leaf = 2500ull * 40 * 39;
  const std::uint64_t same_pod = 50ull * 2000 * 2000 - 2500ull * 40 * 40;
  ASSERT_EQ(histogram.size(), 6u);
  EXPECT_EQ(histogram[0], n);
  EXPECT_EQ(histogram[1], same_leaf);
  EXPECT_EQ(histogram[3], same_pod);
  EXPECT_EQ(histogram[5], n * n - n - same_leaf - same_pod);
  EXPECT_EQ(t->hops(0, 99'999), 5);
  EXPECT_EQ(t->route(0, 99'999).size(), 6u);
  const auto levels = t->levels();
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].groups, 2500);
  EXPECT_EQ(levels[1].groups, 50);  // each pod's first aggregation switch
  EXPECT_EQ(levels[2].groups, 1);
  const auto per_class = t->links_per_class();
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::FtHost)], 200'000);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::Ft1)], 2 * 2500 * 2);
  EXPECT_EQ(per_class[static_cast<std::size_t>(LinkClass::Ft2)], 2 * 100 * 2);
  EXPECT_EQ(t->spec(), "slurm:" + file.string());
}

}  // namespace
}  // namespace mapsim::topo
