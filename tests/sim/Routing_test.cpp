// Per-message routing in the replay (sim/Network.hpp): valiant takes the alternative route of
// every message, UGAL chooses between the minimal and the alternative by the load the model sees
// on their first router links, minimal never leaves the cached route. On a hand-made machine with
// exactly two ways between its two nodes, so that every choice can be worked out by hand.

#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "support/Error.hpp"

namespace mapsim::testing {
namespace {

using sim::Time;
using topo::Link;
using topo::LinkId;
using topo::NodeId;

// Nodes A = 0 and B = 1; routers r0 = 2, r1 = 3, r2 = 4. A hangs off r0, B off r1; r0 and r1 are
// joined directly (the minimal way) and through r2 (the detour). Every link is a grid link, both
// directions:
//   0: A->r0  1: r0->A  2: r0->r1  3: r1->r0  4: r0->r2  5: r2->r0  6: r2->r1  7: r1->r2
//   8: r1->B  9: B->r1
// Minimal A->B: 0, 2, 8 (3 links); the alternative: 0, 4, 6, 8 (4 links). B->A mirrors them.
class TwoWays final : public topo::Topology {
 public:
  TwoWays() : Topology({2}, 2, 1) {}

  [[nodiscard]] std::string machine_spec() const override { return "two-ways"; }
  [[nodiscard]] std::string_view kind() const override { return "two-ways"; }
  [[nodiscard]] topo::VertexId vertex_count() const override { return 5; }
  [[nodiscard]] bool nodes_are_routers() const override { return false; }
  [[nodiscard]] std::string_view dimension_name(int /*dim*/) const override { return "x"; }
  [[nodiscard]] bool is_torus(int /*dim*/) const override { return false; }
  [[nodiscard]] std::vector<int> coordinates(NodeId node) const override { return {node}; }
  [[nodiscard]] NodeId node_at(std::span<const int> coords) const override { return coords[0]; }
  [[nodiscard]] int hops(NodeId a, NodeId b) const override { return a == b ? 0 : 2; }
  void route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const override {
    path.clear();
    if (a == 0 && b == 1) path = {0, 2, 8};
    if (a == 1 && b == 0) path = {9, 3, 1};
  }
  void alternative_route_into(NodeId a, NodeId b, std::uint64_t /*choice*/,
                              std::vector<LinkId>& path) const override {
    path.clear();
    if (a == 0 && b == 1) path = {0, 4, 6, 8};
    if (a == 1 && b == 0) path = {9, 7, 5, 1};
  }
  [[nodiscard]] std::span<const topo::Routing> routings() const override { return kRoutings; }
  [[nodiscard]] int max_route_links() const override { return 4; }
  [[nodiscard]] LinkId link_count() const override { return 10; }
  [[nodiscard]] Link link(LinkId id) const override {
    static constexpr std::array<std::array<int, 2>, 10> kEnds{
        {{0, 2}, {2, 0}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {4, 3}, {3, 4}, {3, 1}, {1, 3}}};
    const auto& e = kEnds[static_cast<std::size_t>(id)];
    return {e[0], e[1], topo::LinkClass::Grid};
  }
  [[nodiscard]] std::optional<topo::BlockStats> block_stats(
      std::span<const int> /*extents*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] std::unique_ptr<Topology> block(std::span<const int> /*extents*/) const override {
    return nullptr;
  }

 private:
  static constexpr std::array<topo::Routing, 3> kRoutings{
      topo::Routing::Minimal, topo::Routing::Valiant, topo::Routing::Ugal};
};

sim::Result replay(const traces::Trace& trace, topo::Routing routing, const std::string& model) {
  TwoWays machine;
  topo::MachineSetup setup;
  setup.routing = routing;
  setup.apply(machine);
  auto config = round_config(model);
  config.eager_threshold = 1 << 30;  // every message eager: its data leaves at once
  return sim::simulate(trace, machine, topo::Mapping({0, 1}), config);
}

TEST(Routing, MinimalKeepsTheCachedRoute) {
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  for (const auto& model : kModels) {
    const auto r = replay(b.trace(), topo::Routing::Minimal, model);
    // 3 links of 100 ns and 1000 B at 1 GB/s.
    EXPECT_EQ(r.makespan, 1300 * kNs) << model;
    EXPECT_EQ(r.resource_bytes[2], 1000) << model;
    EXPECT_EQ(r.resource_bytes[4], 0) << model;
  }
}

TEST(Routing, ValiantTakesTheAlternativeOfEveryMessage) {
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000).send(1, 0, 500).recv(0, 1, 500);
  for (const auto& model : kModels) {
    const auto r = replay(b.trace(), topo::Routing::Valiant, model);
    // A->B over 4 links: 400 ns + 1000 ns; then B->A: 400 ns + 500 ns.
    EXPECT_EQ(r.makespan, (1400 + 900) * kNs) << model;
    EXPECT_EQ(r.resource_bytes[4], 1000) << model;  // r0->r2
    EXPECT_EQ(r.resource_bytes[6], 1000) << model;  // r2->r1
    EXPECT_EQ(r.resource_bytes[7], 500) << model;   // r1->r2, the way back
    EXPECT_EQ(r.resource_bytes[2], 0) << model;
    EXPECT_EQ(r.resource_bytes[3], 0) << model;
  }
}

// Two messages A->B, the second sent 500 ns after the first (a compute gap of 500 ns).
traces::Trace two_messages(std::int64_t bytes) {
  TraceBuilder b(2);
  b.isend(0, 1, bytes, 1).isend(0, 1, bytes, 2, 0, 500 * kNs).wait(0, 1).wait(0, 2);
  b.irecv(1, 0, bytes, 1).irecv(1, 0, bytes, 2).wait(1, 1).wait(1, 2);
  return b.trace();
}

TEST(Routing, UgalDetoursAroundALoadedFirstLink) {
  const auto trace = two_messages(100000);
  for (const std::string model : {"flow", "packet"}) {
    const auto r = replay(trace, topo::Routing::Ugal, model);
    // The first message finds every link idle: q = 0 on both ways, a tie, so minimal. At 500 ns
    // it streams over r0->r1 (flow: one flow on the link; packet: the port busy until about
    // 100 us): q_min * 3 > 0 = q_alt * 4, so the second message detours through r2.
    EXPECT_EQ(r.resource_bytes[2], 100000) << model;
    EXPECT_EQ(r.resource_bytes[4], 100000) << model;
    EXPECT_EQ(r.resource_bytes[6], 100000) << model;
    EXPECT_EQ(r.resource_bytes[0], 200000) << model;  // both leave A over its one link
  }
}

TEST(Routing, UgalIsMinimalWhenTheModelSeesNoLoad) {
  // The analytic model has no contention, so no load: every tie goes to the minimal route.
  const auto r = replay(two_messages(100000), topo::Routing::Ugal, "analytic");
  EXPECT_EQ(r.resource_bytes[2], 200000);
  EXPECT_EQ(r.resource_bytes[4], 0);
}

TEST(Routing, UgalIsMinimalWhileTheFirstMessageIsStillInFlight) {
  // Both messages start at the same instant: the first is still crossing its route's latency and
  // loads no link yet (flow), so the second sees no load either and both go minimal.
  TraceBuilder b(2);
  b.isend(0, 1, 100000, 1).isend(0, 1, 100000, 2).wait(0, 1).wait(0, 2);
  b.irecv(1, 0, 100000, 1).irecv(1, 0, 100000, 2).wait(1, 1).wait(1, 2);
  const auto r = replay(b.trace(), topo::Routing::Ugal, "flow");
  EXPECT_EQ(r.resource_bytes[2], 200000);
  EXPECT_EQ(r.resource_bytes[4], 0);
}

// Every rank of 20 sends 100 kB to the rank 7 further on a dragonfly of 5 groups, all at once.
traces::Trace shift_by_seven() {
  TraceBuilder b(20);
  for (Rank r = 0; r < 20; ++r) {
    b.isend(r, (r + 7) % 20, 100000, 1).irecv(r, (r + 13) % 20, 100000, 2).wait(r, 1).wait(r, 2);
  }
  return b.trace();
}

sim::Result on_dragonfly(const std::string& routing, const std::string& model, std::uint64_t seed) {
  const auto machine = topo::make_topology("dragonfly:5,2,2,2:routing=" + routing);
  sim::SimConfig config;
  config.model = model;
  config.seed = seed;
  return sim::simulate(shift_by_seven(), *machine, topo::in_order_mapping(20, *machine), config);
}

TEST(Routing, PerMessageRoutesAreDeterministicForASeed) {
  for (const std::string routing : {"valiant", "ugal"}) {
    for (const auto& model : kModels) {
      SCOPED_TRACE(routing + " " + model);
      const auto a = on_dragonfly(routing, model, 1);
      const auto b = on_dragonfly(routing, model, 1);
      EXPECT_EQ(a.makespan, b.makespan);
      EXPECT_EQ(a.resource_bytes, b.resource_bytes);
    }
  }
  // Valiant draws its intermediate groups from the seed: another seed, other links.
  EXPECT_NE(on_dragonfly("valiant", "flow", 1).resource_bytes,
            on_dragonfly("valiant", "flow", 2).resource_bytes);
  // Minimal routing ignores the seed.
  EXPECT_EQ(on_dragonfly("minimal", "flow", 1).resource_bytes,
            on_dragonfly("minimal", "flow", 2).resource_bytes);
}

TEST(Routing, ValiantCarriesEveryMessageThroughAThirdGroup) {
  // Minimal routes between groups cross one global link; a Valiant route two (into and out of
  // the intermediate group): count the bytes on global links.
  const auto machine = topo::make_topology("dragonfly:5,2,2,2");
  std::int64_t minimal_global = 0;
  std::int64_t valiant_global = 0;
  const auto minimal = on_dragonfly("minimal", "analytic", 3);
  const auto valiant = on_dragonfly("valiant", "analytic", 3);
  for (topo::LinkId l = 0; l < machine->link_count(); ++l) {
    if (machine->link(l).link_class != topo::LinkClass::DfGlobal) continue;
    minimal_global += minimal.resource_bytes[static_cast<std::size_t>(l)];
    valiant_global += valiant.resource_bytes[static_cast<std::size_t>(l)];
  }
  // Node r is in group r / 4; r and r + 7 (mod 20) are always in different groups: every one of
  // the 20 messages crosses one global link minimally and two under Valiant.
  EXPECT_EQ(minimal_global, 20 * 100000);
  EXPECT_EQ(valiant_global, 2 * 20 * 100000);
}

TEST(Routing, ReplaysOnEveryNewKindCompleteAndRepeatForASeed) {
  // 16 ranks, each sending 50 kB to the rank 5 further on and to the rank 11 further on, all at
  // once, on every kind of today's machines under each routing it offers, in every model.
  TraceBuilder b(16);
  for (Rank r = 0; r < 16; ++r) {
    b.isend(r, (r + 5) % 16, 50000, 1).isend(r, (r + 11) % 16, 50000, 2);
    b.irecv(r, (r + 11) % 16, 50000, 3).irecv(r, (r + 5) % 16, 50000, 4);
    for (std::uint32_t q = 1; q <= 4; ++q) b.wait(r, q);
  }
  const auto trace = b.trace();
  const std::string slurm =
      "slurm:" + std::string(MAPSIM_TEST_DATA_DIR) + "/slurm/leaf-spine.conf:cores=2";
  for (const std::string& spec :
       {std::string("fattree:2;4,4;1,2;1,2"), std::string("dragonfly:4,2,2,2"),
        std::string("cascade:2,1;2,1;2,1;2"), slurm}) {
    const auto machine = topo::make_topology(spec);
    for (const auto routing : machine->routings()) {
      auto parsed = topo::parse_topology_spec(spec);
      parsed.routing = routing;
      const auto routed = topo::make_topology(parsed);
      const auto mapping = topo::in_order_mapping(16, *routed);
      for (const auto& model : kModels) {
        SCOPED_TRACE(routed->spec() + " " + model);
        sim::SimConfig config;
        config.model = model;
        config.seed = 7;
        const auto first = sim::simulate(trace, *routed, mapping, config);
        const auto again = sim::simulate(trace, *routed, mapping, config);
        EXPECT_EQ(first.messages, 32U);
        EXPECT_EQ(first.unmatched_messages, 0U);
        EXPECT_GT(first.makespan, 0);
        EXPECT_EQ(again.makespan, first.makespan);
        EXPECT_EQ(again.resource_bytes, first.resource_bytes);
      }
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
