// Every registered mapper on every kind of machine: a valid mapping (every rank placed, no node
// over capacity, only allocated nodes), the same for the same seed, and the same with one or two
// threads — or a refusal whose message says what the machine lacks and names the mappers that
// take any set of nodes. Machines: meshes, tori, the HAEC Box and Tianhe-3 as before; fat-trees,
// dragonflies, Cascade and Slurm trees; small jobs on those (their first nodes); allocations of
// every kind, scattered and not contiguous.

#include <algorithm>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "mappers/MachineView.hpp"
#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

struct Case {
  const char* machine;
  traces::CommMatrix matrix;
  const char* what;
};

std::vector<Case> cases() {
  return {
      {"mesh:8x8", testing::stencil_2d(8, 8, false), "2-D stencil, one per node"},
      {"mesh:12x6", testing::stencil_2d(9, 8, false), "9x8 on 12x6"},
      {"torus:4x4x4", testing::stencil_3d(4, 4, 4, true), "3-D stencil"},
      {"torus:4x4x4", testing::random_matrix(64, 4, 1), "irregular"},
      {"mesh:5x5x3:cores=2", testing::lu_wavefront(10, 12), "two cores per node"},
      {"haec:4x4x4", testing::lu_wavefront(8, 8), "HAEC Box"},
      {"haec:3x3x2", testing::random_matrix(13, 3, 2), "fewer ranks than nodes"},
      {"tianhe3:2x2:nodes=16", testing::stencil_2d(8, 8, true), "Tianhe-3"},
      {"tianhe3:2x3:nodes=8:cores=2", testing::random_matrix(70, 5, 3), "Tianhe-3, two cores"},
      {"torus:6", testing::stencil_2d(3, 2, true), "1-D machine"},
      {"mesh:2x2x2x2", testing::random_matrix(16, 3, 4), "4-D mesh"},
  };
}

// The job placement policies that need routers and groups (Hierarchy.hpp): they refuse a machine
// without levels, such as a 1-D torus.
bool needs_levels(std::string_view mapper) {
  return mapper == "random-router" || mapper == "group-striped";
}

// Mappers that walk a grid: the space-filling curves and Bhatele's heuristics for regular grids.
bool needs_grid(std::string_view mapper) {
  static const std::set<std::string_view> kGrid{"sweep",   "scan",   "peano",   "gray",
                                                "hilbert", "mxovlp", "mxov-al", "exco",
                                                "coce",    "affine", "step"};
  return kGrid.contains(mapper);
}

// A refusal names what the machine lacks and lists the mappers for any set of nodes, among them
// none that needs a grid or a hierarchy.
void expect_refusal_names_alternatives(const InputError& e, std::string_view mapper) {
  const std::string message = e.what();
  EXPECT_THAT(message, ::testing::HasSubstr("mapper '" + std::string(mapper) + "'"));
  EXPECT_THAT(message, ::testing::ContainsRegex("no (grid|hierarchy of routers and groups);"));
  const auto at = message.find("mappers for any set of nodes: ");
  ASSERT_NE(at, std::string::npos) << message;
  const auto list = message.substr(at);
  // What map and replay-search say once for every mapper refused on this machine.
  const auto* refused = dynamic_cast<const map::NotForMachine*>(&e);
  ASSERT_NE(refused, nullptr) << message;
  EXPECT_TRUE(message.ends_with(", and " + refused->machine())) << message;
  EXPECT_THAT(refused->machine(), ::testing::HasSubstr(" " + refused->lacks() + ";")) << message;
  for (const char* alternative : {"in-order", "greedy", "treematch", "scotch", "best"})
    EXPECT_THAT(list, ::testing::HasSubstr(alternative));
  for (const char* lacking : {"hilbert", "mxovlp", "random-router"})
    EXPECT_THAT(list, ::testing::Not(::testing::HasSubstr(lacking)));
}

TEST(AllMappers, ValidAndDeterministicOnEveryMachineKind) {
  for (const auto& c : cases()) {
    const auto machine = topo::make_topology(c.machine);
    for (const auto& info : mapper_infos()) {
      if (info.replays) continue;  // needs a trace: ReplaySearch_test.cpp
      SCOPED_TRACE(std::string(info.name) + " on " + c.machine + " (" + c.what + ")");
      const auto mapper = make_mapper(info.name);
      // The 1-D torus has no routers or groups: the policies that need them refuse it.
      if (needs_levels(info.name) && std::string_view(c.machine) == "torus:6") {
        try {
          (void)mapper->map(c.matrix, *machine, 42);
          ADD_FAILURE() << "no refusal";
        } catch (const InputError& e) {
          expect_refusal_names_alternatives(e, info.name);
        }
        continue;
      }
      const auto first = mapper->map(c.matrix, *machine, 42);
      ASSERT_EQ(first.rank_count(), c.matrix.rank_count());
      EXPECT_NO_THROW(validate(first, *machine));
      EXPECT_EQ(mapper->map(c.matrix, *machine, 42), first);
    }
  }
}

// A Slurm cluster of 16 nodes under uneven switches: leaf1 (6 nodes) and leaf2 (4) under spine1,
// leaf3 (6) beside it under the top switch; host names n01 .. n16, no grid.
const char* const kSlurmTree =
    "SwitchName=leaf1 Nodes=n[01-06]\n"
    "SwitchName=leaf2 Nodes=n[07-10]\n"
    "SwitchName=leaf3 Nodes=n[11-16]\n"
    "SwitchName=spine1 Switches=leaf[1-2]\n"
    "SwitchName=top Switches=spine1,leaf3\n";

// Whether a machine (its allocated nodes, if any) has a level of more than one group that is not
// its nodes themselves: routers and groups for the placement policies.
bool has_levels(const topo::Topology& machine) {
  std::vector<topo::NodeId> nodes(machine.allocation().begin(), machine.allocation().end());
  if (nodes.empty()) {
    for (topo::NodeId n = 0; n < machine.node_count(); ++n) nodes.push_back(n);
  }
  for (const auto& level : machine.levels()) {
    std::set<std::int32_t> groups;
    for (const auto n : nodes) groups.insert(level.group[static_cast<std::size_t>(n)]);
    if (groups.size() > 1 && groups.size() < nodes.size()) return true;
  }
  return false;
}

// Who must refuse: the curves where the machine has no grid (they walk the machine's grid through
// an allocation); Bhatele's heuristics also where they compute on some of its nodes (an allocation,
// a small job on a hierarchical machine); random-router and group-striped without levels.
bool must_refuse(std::string_view mapper, const topo::Topology& machine, bool small) {
  static const std::set<std::string_view> kCurves{"sweep", "scan", "peano", "gray", "hilbert"};
  if (kCurves.contains(mapper)) return !machine.has_grid();
  if (needs_grid(mapper)) return !machine.has_grid() || !machine.allocation().empty() || small;
  if (needs_levels(mapper)) return !has_levels(machine);
  return false;
}

struct NewCase {
  std::string machine;
  traces::CommMatrix matrix;
  const char* what;
};

std::vector<NewCase> new_cases(const std::string& slurm) {
  return {
      {"fattree:2;4,4;1,2;1,2", testing::lu_wavefront(4, 4), "fat-tree, full"},
      {"fattree:3;4,4,4;1,4,4;1,1,1", testing::stencil_3d(4, 4, 4, false), "3-level fat-tree"},
      {"fattree:3;4,4,4;1,4,4;1,1,1", testing::random_matrix(10, 3, 2), "fat-tree, small job"},
      {"dragonfly:9,4,2,2", testing::random_matrix(72, 4, 3), "dragonfly, full"},
      {"dragonfly:9,4,2,2:cores=2", testing::stencil_2d(5, 4, true), "dragonfly, small job"},
      {"cascade:2,1;3,1;6,1;4", testing::lu_wavefront(12, 12), "Cascade, full"},
      {"cascade:2,1;3,1;6,1;4", testing::random_matrix(30, 3, 4), "Cascade, small job"},
      {slurm, testing::random_matrix(16, 3, 5), "Slurm tree, full"},
      {slurm, testing::lu_wavefront(3, 3), "Slurm tree, small job"},
      // Allocations: scattered, not contiguous, of every kind.
      {"torus:4x4x4:allocation=0-20,40-60", testing::random_matrix(42, 4, 6), "torus allocation"},
      {"torus:4x4x4:allocation=0-20,40-60", testing::stencil_2d(4, 3, false),
       "torus allocation, small job"},
      {"mesh:8x8:allocation=0-7,16-23,40,42,44,46,60-63", testing::stencil_2d(4, 5, false),
       "scattered mesh nodes"},
      {"mesh:8x8:allocation=1,9,17,25,33,41,49,57", testing::random_matrix(8, 2, 7),
       "one mesh column"},
      {"haec:4x4x4:cores=2:allocation=5-10,20-30,50-63", testing::random_matrix(60, 4, 8),
       "HAEC allocation, two cores"},
      {"tianhe3:2x2:nodes=16:allocation=3-9,30-50", testing::lu_wavefront(7, 4),
       "Tianhe-3 allocation"},
      {"fattree:3;4,4,4;1,4,4;1,1,1:allocation=2-5,17,30-40,60-63", testing::stencil_2d(4, 5, true),
       "fat-tree allocation"},
      {"dragonfly:9,4,2,2:allocation=0-5,20-40,70", testing::random_matrix(28, 3, 9),
       "dragonfly allocation"},
      {"cascade:2,1;3,1;6,1;4:allocation=0-3,50-70,140-143", testing::lu_wavefront(5, 5),
       "Cascade allocation"},
      {slurm + ":allocation=0-2,6-8,12", testing::random_matrix(7, 2, 10), "Slurm allocation"},
      {"torus:6:allocation=0,2,4", testing::random_matrix(3, 2, 11), "1-D torus allocation"},
  };
}

TEST(AllMappers, ValidDeterministicOrRefusingOnTodaysMachinesAndAllocations) {
  const testing::TempDir dir;
  const auto slurm = "slurm:" + dir.write("topology.conf", kSlurmTree).string();
  for (const auto& c : new_cases(slurm)) {
    const auto machine = topo::make_topology(c.machine);
    const auto needed = static_cast<topo::NodeId>(
        (c.matrix.rank_count() + machine->cores_per_node() - 1) / machine->cores_per_node());
    const bool small =
        machine->allocation().empty() && machine->prefix_blocks() && needed < machine->node_count();
    for (const auto& info : mapper_infos()) {
      if (info.replays) continue;  // needs a trace: ReplaySearch_test.cpp
      SCOPED_TRACE(std::string(info.name) + " on " + c.machine + " (" + c.what + ")");
      const auto mapper = make_mapper(info.name);
      topo::Mapping one;
      try {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        one = mapper->map(c.matrix, *machine, 42);
      } catch (const InputError& e) {
        // Only mappers that need a grid or a hierarchy refuse, where it lacks, saying so.
        EXPECT_TRUE(must_refuse(info.name, *machine, small)) << e.what();
        expect_refusal_names_alternatives(e, info.name);
        continue;
      }
      EXPECT_FALSE(must_refuse(info.name, *machine, small)) << "no refusal";
      ASSERT_EQ(one.rank_count(), c.matrix.rank_count());
      EXPECT_NO_THROW(validate(one, *machine));  // within the allocation too
      topo::Mapping two;
      {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        two = mapper->map(c.matrix, *machine, 42);
      }
      EXPECT_EQ(one, two);
      // A small job on a hierarchical machine stays on its first nodes, but for the placements
      // over the whole machine.
      if (small && mapper->scope() == Scope::CompactBlock) {
        for (const auto node : one.nodes()) EXPECT_LT(node, needed);
      }
    }
  }
}

// Who refuses what, by hand: curves walk the grid of the machine under an allocation (a torus
// has one, a Slurm cluster none); Bhatele's heuristics need a grid of the nodes themselves (an
// allocation has none); the policies need routers and groups (a 1-D torus has none).
TEST(AllMappers, RefuseWhatTheMachineLacksNamingMappersThatCan) {
  const testing::TempDir dir;
  const auto slurm = topo::make_topology("slurm:" + dir.write("t.conf", kSlurmTree).string());
  const auto matrix = testing::stencil_2d(4, 4, false);
  try {
    (void)make_mapper("hilbert")->map(matrix, *slurm);
    ADD_FAILURE() << "hilbert mapped onto a Slurm cluster";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("mapper 'hilbert' orders the nodes along the "
                                               "machine's grid, and slurm:"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("has no grid; mappers for any set of nodes: "
                                               "in-order, round-robin, random, contiguous"));
  }
  const auto allocation = topo::make_topology("torus:4x4x4:allocation=0-20,40-60");
  const auto matrix42 = testing::random_matrix(42, 3, 1);
  EXPECT_NO_THROW((void)make_mapper("hilbert")->map(matrix42, *allocation));
  try {
    (void)make_mapper("mxovlp")->map(matrix42, *allocation);
    ADD_FAILURE() << "mxovlp mapped onto an allocation";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(),
                ::testing::HasSubstr("mapper 'mxovlp' lays the process grid onto the planes of the "
                                     "machine's grid, and the 42 allocated nodes of torus:4x4x4:"
                                     "allocation="));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("have no grid; mappers for any set of nodes:"));
  }
  const auto line = topo::make_topology("torus:6");
  try {
    (void)make_mapper("group-striped")->map(testing::random_matrix(6, 2, 1), *line);
    ADD_FAILURE() << "group-striped mapped onto a 1-D torus";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("mapper 'group-striped' deals the job's nodes over "
                                               "the groups (the outermost level of the machine's "
                                               "hierarchy), and torus:6 has no hierarchy of "
                                               "routers and groups; mappers for any set of nodes"));
  }
}

TEST(AllMappers, IndependentOfTheThreadCount) {
  const auto machine = topo::make_topology("torus:8x8x4");
  const auto matrix = testing::random_matrix(256, 6, 9);
  for (const auto& info : mapper_infos()) {
    if (info.replays) continue;  // needs a trace: ReplaySearch_test.cpp
    SCOPED_TRACE(info.name);
    const auto mapper = make_mapper(info.name);
    topo::Mapping one;
    topo::Mapping two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one = mapper->map(matrix, *machine, 7);
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      two = mapper->map(matrix, *machine, 7);
    }
    EXPECT_EQ(one, two);
  }
}

TEST(AllMappers, RejectMoreRanksThanCores) {
  const auto machine = topo::make_topology("mesh:2x2");
  const auto matrix = testing::random_matrix(5, 2, 1);
  for (const auto& info : mapper_infos()) {
    EXPECT_THROW((void)make_mapper(info.name)->map(matrix, *machine), InputError) << info.name;
  }
}

TEST(AllMappers, PlaceASingleRank) {
  const auto machine = topo::make_topology("torus:3x3");
  const traces::CommMatrix matrix(1);
  for (const auto& info : mapper_infos()) {
    if (info.replays) continue;  // needs a trace: ReplaySearch_test.cpp
    EXPECT_EQ(make_mapper(info.name)->map(matrix, *machine).rank_count(), 1) << info.name;
  }
}

}  // namespace
}  // namespace mapsim::map
