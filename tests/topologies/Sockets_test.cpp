// Nodes with sockets (topologies/TopologySpec.hpp sockets=, Topology::sockets_per_node): the spec
// option parses, prints canonically and fails naming its value; a machine numbers its cores
// socket by socket; the inter-socket link class exists only on nodes of several sockets; a mapping
// may name every rank's core (topologies/Mapping.hpp) and validate checks those cores.

#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/NodeSubset.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

/// The message of the InputError that parsing `spec` throws ("" if it does not throw).
std::string spec_error(const std::string& spec) {
  try {
    (void)parse_topology_spec(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// The message of the InputError validate throws ("" if the mapping is valid).
std::string mapping_error(const Mapping& mapping, const Topology& topology) {
  try {
    validate(mapping, topology);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has_class(const Topology& machine, LinkClass link_class) {
  return machine.has_link_classes()[static_cast<std::size_t>(link_class)];
}

template <typename T>
std::vector<T> to_vector(std::span<const T> values) {
  return {values.begin(), values.end()};
}

// ---- Spec option sockets= ----------------------------------------------------------------------

TEST(SocketSpec, ParsesAndRoundTripsCanonically) {
  const auto spec = parse_topology_spec("torus:4x4:cores=8:sockets=2");
  EXPECT_EQ(spec.kind, "torus");
  EXPECT_EQ(spec.cores, 8);
  EXPECT_EQ(spec.sockets, 2);
  EXPECT_EQ(to_string(spec), "torus:4x4:cores=8:sockets=2");
  EXPECT_EQ(parse_topology_spec(to_string(spec)), spec);
  // Without the option a node has one socket, and the canonical text omits it (as sockets=1).
  EXPECT_EQ(parse_topology_spec("torus:4x4:cores=8").sockets, 1);
  EXPECT_EQ(to_string(parse_topology_spec("torus:4x4:cores=8:sockets=1")), "torus:4x4:cores=8");
  // One socket per core is allowed: S = N divides N.
  EXPECT_EQ(parse_topology_spec("mesh:2:cores=4:sockets=4").sockets, 4);
}

TEST(SocketSpec, CanonicalOrderIsCoresSocketsRouting) {
  // Options in any order print as cores, sockets, routing, allocation.
  EXPECT_EQ(to_string(parse_topology_spec("torus:4x4:sockets=2:cores=8")),
            "torus:4x4:cores=8:sockets=2");
  EXPECT_EQ(
      to_string(parse_topology_spec("fattree:k-ary-n-tree:4,2:routing=ecmp:sockets=2:cores=4")),
      to_string(parse_topology_spec("fattree:k-ary-n-tree:4,2:cores=4:sockets=2:routing=ecmp")));
  const auto text =
      to_string(parse_topology_spec("fattree:k-ary-n-tree:4,2:routing=ecmp:sockets=2:cores=4"));
  const auto cores = text.find(":cores=4");
  const auto sockets = text.find(":sockets=2");
  const auto routing = text.find(":routing=ecmp");
  ASSERT_NE(cores, std::string::npos) << text;
  ASSERT_NE(sockets, std::string::npos) << text;
  ASSERT_NE(routing, std::string::npos) << text;
  EXPECT_LT(cores, sockets) << text;
  EXPECT_LT(sockets, routing) << text;
  EXPECT_EQ(to_string(parse_topology_spec("tianhe3:2x2:sockets=2:cores=4:nodes=8")),
            "tianhe3:2x2:nodes=8:cores=4:sockets=2");
  EXPECT_EQ(to_string(parse_topology_spec("mesh:4:allocation=1-2:sockets=2:cores=4")),
            "mesh:4:cores=4:sockets=2:allocation=1-2");
}

TEST(SocketSpec, MachineSpecKeepsTheSockets) {
  for (const char* spec :
       {"torus:4x4:cores=8:sockets=2", "mesh:3:cores=6:sockets=3",
        "tianhe3:2x2:nodes=8:cores=4:sockets=2", "haec:2x2x2:cores=2:sockets=2"}) {
    const auto machine = make_topology(spec);
    EXPECT_EQ(machine->spec(), spec);
    // The spec of a made machine builds the same machine again.
    EXPECT_EQ(make_topology(machine->spec())->sockets_per_node(), machine->sockets_per_node());
  }
  // Sockets come before the routing in spec(), as in to_string.
  const auto tree = make_topology("fattree:k-ary-n-tree:4,2:cores=4:sockets=2:routing=ecmp");
  EXPECT_EQ(tree->spec(), to_string(parse_topology_spec(tree->spec())));
  EXPECT_THAT(tree->spec(), HasSubstr(":cores=4:sockets=2:routing=ecmp"));
  EXPECT_EQ(make_topology("torus:4x4:cores=8")->spec(), "torus:4x4:cores=8");
}

TEST(SocketSpec, RejectsSocketsThatDoNotDivideTheCores) {
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=3"),
              AllOf(HasSubstr("'torus:4x4:cores=8:sockets=3'"), HasSubstr("sockets=3"),
                    HasSubstr("cores=8"), HasSubstr("does not divide")));
  // More sockets than cores: none divides.
  EXPECT_THAT(spec_error("mesh:2:cores=2:sockets=4"),
              AllOf(HasSubstr("sockets=4"), HasSubstr("does not divide cores=2")));
  // The default one core per node takes no sockets=2.
  EXPECT_THAT(spec_error("mesh:2:sockets=2"), HasSubstr("sockets=2 does not divide cores=1"));
  // make_topology of a spec value checks it too.
  TopologySpec spec = parse_topology_spec("torus:4x4:cores=8");
  spec.sockets = 3;
  EXPECT_THROW((void)make_topology(spec), InputError);
}

TEST(SocketSpec, RejectsZeroSockets) {
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=0"),
              AllOf(HasSubstr("'torus:4x4:cores=8:sockets=0'"), HasSubstr("sockets is 0"),
                    HasSubstr("positive integer")));
}

TEST(SocketSpec, RejectsNonNumericAndNegativeSockets) {
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=abc"),
              AllOf(HasSubstr("'torus:4x4:cores=8:sockets=abc'"), HasSubstr("sockets is 'abc'"),
                    HasSubstr("not a positive integer")));
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=-2"),
              AllOf(HasSubstr("sockets is '-2'"), HasSubstr("positive integer")));
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=2x"), HasSubstr("sockets is '2x'"));
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets="),
              HasSubstr("option 'sockets' has an empty value"));
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=99999999999999999999999"),
              AllOf(HasSubstr("sockets is 99999999999999999999999"), HasSubstr("too large")));
}

TEST(SocketSpec, RejectsSocketsGivenTwice) {
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=2:sockets=4"),
              AllOf(HasSubstr("'torus:4x4:cores=8:sockets=2:sockets=4'"),
                    HasSubstr("option 'sockets' is given twice")));
  // Even the same value twice.
  EXPECT_THAT(spec_error("torus:4x4:cores=8:sockets=2:sockets=2"),
              HasSubstr("option 'sockets' is given twice"));
}

TEST(SocketSpec, UnknownOptionListsSockets) {
  EXPECT_THAT(spec_error("torus:4x4:socket=2"),
              AllOf(HasSubstr("unknown option 'socket'"), HasSubstr("sockets")));
  EXPECT_THAT(spec_error("tianhe3:2x2:socket=2"), HasSubstr("cores, sockets, nodes"));
}

// ---- Cores and sockets of a node ---------------------------------------------------------------

TEST(SocketTopology, CoresAreNumberedSocketBySocket) {
  const auto two = make_topology("torus:4x4:cores=8:sockets=2");
  EXPECT_EQ(two->cores_per_node(), 8);
  EXPECT_EQ(two->sockets_per_node(), 2);
  EXPECT_EQ(two->cores_per_socket(), 4);
  // Cores 0-3 are socket 0's, 4-7 socket 1's.
  const std::vector<int> expected_two{0, 0, 0, 0, 1, 1, 1, 1};
  for (int core = 0; core < 8; ++core) EXPECT_EQ(two->socket_of_core(core), expected_two[core]);

  const auto four = make_topology("torus:4x4:cores=8:sockets=4");
  EXPECT_EQ(four->cores_per_socket(), 2);
  const std::vector<int> expected_four{0, 0, 1, 1, 2, 2, 3, 3};
  for (int core = 0; core < 8; ++core) EXPECT_EQ(four->socket_of_core(core), expected_four[core]);

  // One socket by default: every core on socket 0.
  const auto one = make_topology("torus:4x4:cores=8");
  EXPECT_EQ(one->sockets_per_node(), 1);
  EXPECT_EQ(one->cores_per_socket(), 8);
  for (int core = 0; core < 8; ++core) EXPECT_EQ(one->socket_of_core(core), 0);

  // A socket per core.
  const auto each = make_topology("mesh:2:cores=3:sockets=3");
  EXPECT_EQ(each->cores_per_socket(), 1);
  for (int core = 0; core < 3; ++core) EXPECT_EQ(each->socket_of_core(core), core);
}

TEST(SocketTopology, SocketsDoNotChangeTheNetwork) {
  const auto plain = make_topology("torus:4x4:cores=8");
  const auto sockets = make_topology("torus:4x4:cores=8:sockets=2");
  EXPECT_EQ(sockets->node_count(), plain->node_count());
  EXPECT_EQ(sockets->link_count(), plain->link_count());
  EXPECT_EQ(sockets->links_per_class(), plain->links_per_class());
  EXPECT_EQ(sockets->hop_histogram().counts, plain->hop_histogram().counts);
}

TEST(SocketTopology, InterSocketClassOnlyWithSeveralSockets) {
  EXPECT_EQ(name(LinkClass::InterSocket), "inter-socket");
  EXPECT_EQ(link_class_from_name("inter-socket"), LinkClass::InterSocket);

  const auto one = make_topology("torus:4x4:cores=8");
  EXPECT_FALSE(has_class(*one, LinkClass::InterSocket));
  EXPECT_TRUE(has_class(*one, LinkClass::IntraNode));
  EXPECT_TRUE(has_class(*one, LinkClass::Grid));
  // sockets=1 written out is the same machine.
  EXPECT_FALSE(has_class(*make_topology("torus:4x4:cores=8:sockets=1"), LinkClass::InterSocket));

  const auto two = make_topology("torus:4x4:cores=8:sockets=2");
  EXPECT_TRUE(has_class(*two, LinkClass::InterSocket));
  EXPECT_TRUE(has_class(*two, LinkClass::IntraNode));
  EXPECT_TRUE(has_class(*two, LinkClass::Grid));
  // No network link is of the class: it is a channel inside a node.
  EXPECT_EQ(two->links_per_class()[static_cast<std::size_t>(LinkClass::InterSocket)], 0);

  // Everything else is as on the machine of one socket.
  auto expected = one->has_link_classes();
  expected[static_cast<std::size_t>(LinkClass::InterSocket)] = true;
  EXPECT_EQ(two->has_link_classes(), expected);
}

TEST(SocketTopology, CheckLinkClassAcceptsInterSocketOnlyWithSockets) {
  const auto two = make_topology("torus:4x4:cores=8:sockets=2");
  EXPECT_NO_THROW(two->check_link_class(LinkClass::InterSocket, "[network] inter-socket"));
  EXPECT_NO_THROW(two->check_link_class(LinkClass::IntraNode, "[network] intra-node"));

  const auto one = make_topology("torus:4x4:cores=8");
  try {
    one->check_link_class(LinkClass::InterSocket, "[network] inter-socket");
    ADD_FAILURE() << "check_link_class accepted inter-socket without sockets";
  } catch (const InputError& e) {
    EXPECT_THAT(std::string(e.what()),
                AllOf(HasSubstr("[network] inter-socket: torus:4x4:cores=8 has no inter-socket "
                                "links"),
                      HasSubstr("its link classes: grid, intra-node")));
    EXPECT_THAT(std::string(e.what()), ::testing::Not(HasSubstr("inter-socket,")));
  }
}

// ---- Mappings that name cores ------------------------------------------------------------------

TEST(SocketMapping, RankOrderCoresHandCase) {
  // Node 2 holds ranks 0, 2, 3 (cores 0, 1, 2), node 0 ranks 1, 4 (cores 0, 1), node 1 rank 5.
  EXPECT_EQ(rank_order_cores(std::vector<NodeId>{2, 0, 2, 2, 0, 1}),
            (std::vector<std::int32_t>{0, 0, 1, 2, 1, 0}));
  EXPECT_EQ(rank_order_cores(std::vector<NodeId>{}), std::vector<std::int32_t>{});
  EXPECT_EQ(rank_order_cores(std::vector<NodeId>{5}), std::vector<std::int32_t>{0});
}

TEST(SocketMapping, RankOrderCoresAreDropped) {
  const Mapping named({2, 0, 2, 2, 0, 1}, {0, 0, 1, 2, 1, 0});
  EXPECT_TRUE(named.cores().empty());
  EXPECT_EQ(named, Mapping({2, 0, 2, 2, 0, 1}));
  EXPECT_EQ(cores_of(named), (std::vector<std::int32_t>{0, 0, 1, 2, 1, 0}));

  // Other cores are kept, and the mapping differs from the node-only one.
  const Mapping swapped({2, 0, 2, 2, 0, 1}, {1, 0, 0, 2, 1, 0});
  EXPECT_EQ(to_vector(swapped.cores()), (std::vector<std::int32_t>{1, 0, 0, 2, 1, 0}));
  EXPECT_NE(swapped, Mapping({2, 0, 2, 2, 0, 1}));
  EXPECT_EQ(cores_of(swapped), (std::vector<std::int32_t>{1, 0, 0, 2, 1, 0}));
  EXPECT_EQ(to_vector(swapped.nodes()), (std::vector<NodeId>{2, 0, 2, 2, 0, 1}));
  // Free cores left between ranks are not the rank order either.
  EXPECT_FALSE(Mapping({0, 0}, {0, 2}).cores().empty());
}

TEST(SocketMapping, SocketsOfRanks) {
  const auto machine = make_topology("mesh:2:cores=4:sockets=2");
  // Cores 3, 0 on node 0 and 1, 2 on node 1: sockets 1, 0 and 0, 1.
  EXPECT_EQ(sockets_of(Mapping({0, 0, 1, 1}, {3, 0, 1, 2}), *machine),
            (std::vector<std::int32_t>{1, 0, 0, 1}));
  // Rank order: node 0's ranks 0, 1, 2 on cores 0, 1, 2 (sockets 0, 0, 1), node 1's rank 3 on
  // core 0.
  EXPECT_EQ(sockets_of(Mapping({0, 0, 0, 1}), *machine), (std::vector<std::int32_t>{0, 0, 1, 0}));
  // The same cores on a machine of one socket: all socket 0.
  const auto one = make_topology("mesh:2:cores=4");
  EXPECT_EQ(sockets_of(Mapping({0, 0, 1, 1}, {3, 0, 1, 2}), *one),
            (std::vector<std::int32_t>{0, 0, 0, 0}));
}

TEST(SocketMapping, ValidAcceptsDistinctCoresInRange) {
  const auto machine = make_topology("mesh:2:cores=4:sockets=2");
  EXPECT_EQ(mapping_error(Mapping({0, 0, 1, 1}, {3, 0, 1, 2}), *machine), "");
  // The same core number on two nodes is two cores.
  EXPECT_EQ(mapping_error(Mapping({0, 1, 0, 1}, {3, 3, 2, 2}), *machine), "");
  EXPECT_EQ(mapping_error(Mapping({1, 1, 1, 1}, {3, 2, 1, 0}), *machine), "");
}

TEST(SocketMapping, RejectsCoreOutOfRange) {
  const auto machine = make_topology("mesh:2:cores=4:sockets=2");
  EXPECT_THAT(mapping_error(Mapping({0, 1, 1}, {0, 1, 4}), *machine),
              AllOf(HasSubstr("rank 2"), HasSubstr("core 4"), HasSubstr("node1"),
                    HasSubstr("cores 0 to 3")));
  EXPECT_THAT(mapping_error(Mapping({0, 1}, {-1, 1}), *machine),
              AllOf(HasSubstr("rank 0"), HasSubstr("core -1"), HasSubstr("node0")));
}

TEST(SocketMapping, RejectsTwoRanksOnOneCore) {
  const auto machine = make_topology("mesh:2:cores=4:sockets=2");
  EXPECT_THAT(mapping_error(Mapping({1, 0, 1}, {2, 0, 2}), *machine),
              AllOf(HasSubstr("ranks 0 and 2"), HasSubstr("core 2"), HasSubstr("node1")));
}

TEST(SocketMapping, NodeChecksComeBeforeCores) {
  const auto machine = make_topology("mesh:2:cores=2:sockets=2");
  // Three ranks on node 0 of two cores: the node is over capacity, whatever the cores.
  EXPECT_THAT(mapping_error(Mapping({0, 0, 0}, {0, 1, 1}), *machine),
              HasSubstr("node 0 holds more than 2 rank(s)"));
}

// ---- Allocations and subsets keep the sockets --------------------------------------------------

TEST(SocketAllocation, AllocationKeepsTheSockets) {
  const auto machine = make_topology("mesh:4:cores=4:sockets=2:allocation=1-2");
  EXPECT_EQ(machine->sockets_per_node(), 2);
  EXPECT_EQ(machine->cores_per_socket(), 2);
  EXPECT_EQ(to_vector(machine->allocation()), (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(machine->spec(), "mesh:4:cores=4:sockets=2:allocation=node[1-2]");
  EXPECT_EQ(make_topology(machine->spec())->sockets_per_node(), 2);
  EXPECT_TRUE(has_class(*machine, LinkClass::InterSocket));

  // A job's view of its allocation is a machine of the same sockets.
  const NodeSubset allocated(*machine,
                             {machine->allocation().begin(), machine->allocation().end()});
  EXPECT_EQ(allocated.node_count(), 2);
  EXPECT_EQ(allocated.cores_per_node(), 4);
  EXPECT_EQ(allocated.sockets_per_node(), 2);
  EXPECT_EQ(allocated.cores_per_socket(), 2);
  EXPECT_EQ(allocated.socket_of_core(3), 1);
  EXPECT_TRUE(has_class(allocated, LinkClass::InterSocket));

  // Cores are checked against the allocation's nodes as on any machine.
  EXPECT_EQ(mapping_error(Mapping({1, 1, 2}, {3, 0, 2}), *machine), "");
  EXPECT_THAT(mapping_error(Mapping({1, 1, 2}, {3, 3, 2}), *machine),
              AllOf(HasSubstr("ranks 0 and 1"), HasSubstr("core 3"), HasSubstr("node1")));
}

TEST(SocketAllocation, SubsetOfAOneSocketMachineHasOneSocket) {
  const auto machine = make_topology("mesh:4:cores=4");
  const NodeSubset subset(*machine, {3, 0});
  EXPECT_EQ(subset.sockets_per_node(), 1);
  EXPECT_FALSE(has_class(subset, LinkClass::InterSocket));
}

}  // namespace
}  // namespace mapsim::topo
