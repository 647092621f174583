// Invariants over every ordered node pair of small instances of every topology kind.

#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

class EveryPair : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { topology_ = make_topology(GetParam()); }
  std::unique_ptr<Topology> topology_;
};

TEST_P(EveryPair, RouteIsConnectedChainOfExistingLinksWithHopsLength) {
  const auto& t = *topology_;
  std::vector<LinkId> path;
  for (NodeId a = 0; a < t.node_count(); ++a) {
    for (NodeId b = 0; b < t.node_count(); ++b) {
      t.route_into(a, b, path);
      SCOPED_TRACE(testing::Message() << GetParam() << " from " << a << " to " << b);
      VertexId at = a;
      for (const LinkId id : path) {
        ASSERT_GE(id, 0);
        ASSERT_LT(id, t.link_count());
        const Link link = t.link(id);
        ASSERT_EQ(link.from, at) << "link " << id << " does not continue the chain";
        at = link.to;
      }
      ASSERT_EQ(at, b) << "route does not end at b";
      ASSERT_EQ(t.route_hops(path), t.hops(a, b));
      ASSERT_LE(static_cast<int>(path.size()), t.max_route_links());
      if (t.nodes_are_routers()) {
        ASSERT_EQ(static_cast<int>(path.size()), t.hops(a, b));
      }
    }
  }
}

TEST_P(EveryPair, HopsAreZeroExactlyOnTheDiagonalAndSymmetric) {
  const auto& t = *topology_;
  for (NodeId a = 0; a < t.node_count(); ++a) {
    EXPECT_EQ(t.hops(a, a), 0);
    EXPECT_TRUE(t.route(a, a).empty());
    for (NodeId b = 0; b < t.node_count(); ++b) {
      if (a != b) {
        EXPECT_GT(t.hops(a, b), 0) << a << " " << b;
      }
      EXPECT_EQ(t.hops(a, b), t.hops(b, a)) << a << " " << b;
    }
  }
}

TEST_P(EveryPair, HopHistogramMatchesEveryPair) {
  const auto& t = *topology_;
  std::vector<std::uint64_t> counts;
  for (NodeId a = 0; a < t.node_count(); ++a) {
    for (NodeId b = 0; b < t.node_count(); ++b) {
      const auto h = static_cast<std::size_t>(t.hops(a, b));
      if (h >= counts.size()) counts.resize(h + 1);
      ++counts[h];
    }
  }
  EXPECT_EQ(t.hop_histogram().counts, counts);
}

TEST_P(EveryPair, LinksAreDistinctAndJoinExistingVertices) {
  const auto& t = *topology_;
  std::set<std::pair<VertexId, VertexId>> seen;
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const Link link = t.link(id);
    EXPECT_GE(link.from, 0);
    EXPECT_LT(link.from, t.vertex_count());
    EXPECT_GE(link.to, 0);
    EXPECT_LT(link.to, t.vertex_count());
    EXPECT_NE(link.from, link.to);
    EXPECT_TRUE(seen.emplace(link.from, link.to).second) << "duplicate link " << id;
  }
}

TEST_P(EveryPair, CoordinatesRoundTrip) {
  const auto& t = *topology_;
  for (NodeId node = 0; node < t.node_count(); ++node) {
    const auto coords = t.coordinates(node);
    ASSERT_EQ(coords.size(), t.dimensions().size());
    for (std::size_t d = 0; d < coords.size(); ++d) {
      EXPECT_GE(coords[d], 0);
      EXPECT_LT(coords[d], t.dimensions()[d]);
    }
    EXPECT_EQ(t.node_at(coords), node);
  }
}

TEST_P(EveryPair, SpecRoundTrips) {
  EXPECT_EQ(make_topology(topology_->spec())->spec(), topology_->spec());
  EXPECT_EQ(to_string(parse_topology_spec(topology_->spec())), topology_->spec());
}

INSTANTIATE_TEST_SUITE_P(SmallInstances, EveryPair,
                         ::testing::Values("mesh:1", "mesh:5", "mesh:3x4", "mesh:2x3x2",
                                           "mesh:2x2x2x2:cores=2", "torus:2", "torus:4", "torus:5",
                                           "torus:3x4", "torus:2x3x4", "torus:1x4", "torus:4x4x4",
                                           "haec:3x3x3", "haec:2x3x4", "haec:4x4x1",
                                           "haec:4x4x4:cores=2", "haec:1x1x3",
                                           "tianhe3:1x1:nodes=2", "tianhe3:2x3:nodes=4",
                                           "tianhe3:3x3:nodes=6:cores=2", "tianhe3:2x2"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace mapsim::topo
