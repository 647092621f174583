// The invariants of EveryPair.hpp.

#include "tests/topologies/EveryPair.hpp"

namespace mapsim::topo {

TEST_P(EveryPair, RouteIsConnectedChainOfExistingLinksWithHopsLength) {
  const auto& t = *topology_;
  std::vector<LinkId> path;
  for (NodeId a = 0; a < t.node_count(); ++a) {
    for (NodeId b = 0; b < t.node_count(); ++b) {
      t.route_into(a, b, path);
      SCOPED_TRACE(::testing::Message() << GetParam() << " from " << a << " to " << b);
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

TEST_P(EveryPair, AlternativeRoutesAreConnectedChainsOfExistingLinks) {
  // Under each routing the machine offers, a handful of choices per pair: every alternative route
  // (ECMP, Valiant; the minimal one on kinds with a single route) is a chain from a to b that fits
  // the route buffers, and under ECMP it is as long as the minimal route.
  for (const auto routing : topology_->routings()) {
    auto spec = parse_topology_spec(GetParam());
    spec.routing = routing;
    const auto t = make_topology(spec);
    std::vector<LinkId> path;
    for (NodeId a = 0; a < t->node_count(); ++a) {
      for (NodeId b = 0; b < t->node_count(); ++b) {
        for (const std::uint64_t choice : {0ULL, 1ULL, 7ULL, 0x9E3779B97F4A7C15ULL, ~0ULL}) {
          t->alternative_route_into(a, b, choice, path);
          SCOPED_TRACE(::testing::Message()
                       << t->spec() << " from " << a << " to " << b << " choice " << choice);
          VertexId at = a;
          for (const LinkId id : path) {
            ASSERT_GE(id, 0);
            ASSERT_LT(id, t->link_count());
            const Link link = t->link(id);
            ASSERT_EQ(link.from, at) << "link " << id << " does not continue the chain";
            at = link.to;
          }
          ASSERT_EQ(at, b) << "route does not end at b";
          ASSERT_LE(static_cast<int>(path.size()), t->max_route_links());
          if (a == b) {
            ASSERT_TRUE(path.empty());
          }
          if (routing == Routing::Ecmp) {
            ASSERT_EQ(t->route_hops(path), t->hops(a, b));
          }
        }
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

TEST_P(EveryPair, LinksJoinExistingVertices) {
  const auto& t = *topology_;
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const Link link = t.link(id);
    EXPECT_GE(link.from, 0);
    EXPECT_LT(link.from, t.vertex_count());
    EXPECT_GE(link.to, 0);
    EXPECT_LT(link.to, t.vertex_count());
    EXPECT_NE(link.from, link.to);
  }
}

TEST_P(DistinctLinks, NoTwoLinksJoinTheSameVertices) {
  const auto& t = *topology_;
  std::set<std::pair<VertexId, VertexId>> seen;
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const Link link = t.link(id);
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

}  // namespace mapsim::topo
