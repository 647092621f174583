// The job placement policies that studies of dragonfly networks compare, as mappers: where a
// scheduler puts the job's nodes, ranks filling them in order (`cores` consecutive ranks per node,
// node k of the job taking ranks k cores .. (k + 1) cores - 1).
//   contiguous     the first nodes in the machine's natural order, which fills a router, then a
//                  group: in-order under the policies' name (Jain et al. 2014's and Yang et al.
//                  2016's contiguous placement; Prisacari et al. 2014's linear one)
//   random-node    nodes drawn uniformly at random (a seeded Fisher-Yates shuffle of the nodes),
//                  the job's k-th node the k-th drawn (RDN in Jain et al.; Yang et al.'s random
//                  placement). With one core per node it equals `random`; with several, `random`
//                  scatters single ranks and random-node whole nodes' worth of them
//   random-router  routers drawn uniformly at random, each bringing all its nodes in natural
//                  order, until the job has enough (RDR in Jain et al.; Yang et al.'s random
//                  router placement; SST's DflyRDRAllocator): neighbouring ranks share a router,
//                  consecutive routers are anywhere
//   group-striped  the job's nodes dealt round-robin over the groups: node k in group k mod G,
//                  each group's nodes taken in natural order, a full group skipped (RRN, round-
//                  robin node, in Jain et al.; SST's DflyRRNAllocator): consecutive nodes' worth
//                  of ranks in different groups, spreading the job's traffic over the global
//                  links
// Sources: N. Jain, A. Bhatele, X. Ni, N. J. Wright, L. V. Kale, "Maximizing Throughput on a
// Dragonfly Network", SC14; X. Yang, J. Jenkins, M. Mubarak, R. B. Ross, Z. Lan, "Watch Out for
// the Bully! Job Interference Study on Dragonfly Network", SC16; B. Prisacari et al., "Efficient
// Task Placement and Routing in Dragonfly Networks", HPDC 2014 (docs/references.md).
// Any machine with a hierarchy (Hierarchy.hpp) has routers and groups: the innermost kept level
// is the "router" (a fat-tree's or Slurm tree's leaf switch, a Cascade blade) and the outermost
// the "group" (a fat-tree's pods, a Slurm tree's top switches). random-router and group-striped
// refuse machines without one (a 1-D mesh or torus, or some of its nodes), naming the mappers
// that take any set of nodes; contiguous and random-node place on any machine. All four are
// placements over the whole machine (Scope::WholeMachine): a small job is not first confined to a
// compact block, the policy chooses its nodes; on an allocation, among the allocated nodes.

#include "mappers/Factories.hpp"
#include "mappers/Hierarchy.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/NodePool.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

class Policy : public Mapper {
 public:
  [[nodiscard]] Scope scope() const override { return Scope::WholeMachine; }

 protected:
  /// The job's nodes in the order ranks fill them: at least ceil(ranks / cores).
  [[nodiscard]] virtual std::vector<NodeId> job_nodes(const Problem& p) const = 0;

  topo::Mapping compute(const Problem& p) const override {
    return fill_in_order(p.ranks(), job_nodes(p), p.cores());
  }

  static NodeId nodes_needed(const Problem& p) {
    return static_cast<NodeId>((p.ranks() + p.cores() - 1) / p.cores());
  }

  // The tree of the machine, refusing one without levels on behalf of `mapper`.
  static Hierarchy levels_of(const Problem& p, std::string_view mapper, std::string_view needs) {
    Hierarchy tree(p.topology);
    if (tree.height() < 2) refuse(mapper, needs, "hierarchy of routers and groups", p.topology);
    return tree;
  }
};

class Contiguous final : public Policy {
 protected:
  std::vector<NodeId> job_nodes(const Problem& p) const override {
    std::vector<NodeId> nodes(static_cast<std::size_t>(nodes_needed(p)));
    for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = static_cast<NodeId>(k);
    return nodes;
  }
};

class RandomNode final : public Policy {
 protected:
  std::vector<NodeId> job_nodes(const Problem& p) const override {
    std::vector<NodeId> nodes(static_cast<std::size_t>(p.topology.node_count()));
    for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = static_cast<NodeId>(k);
    Random random(p.seed);
    random.shuffle(std::span<NodeId>(nodes));
    return nodes;
  }
};

class RandomRouter final : public Policy {
 protected:
  std::vector<NodeId> job_nodes(const Problem& p) const override {
    const auto tree = levels_of(p, "random-router",
                                "places the job on whole routers (the innermost level of the "
                                "machine's hierarchy)");
    auto routers = tree.members(1);
    Random random(p.seed);
    random.shuffle(std::span<std::vector<NodeId>>(routers));
    std::vector<NodeId> nodes;
    for (const auto& router : routers) {
      if (static_cast<NodeId>(nodes.size()) >= nodes_needed(p)) break;
      nodes.insert(nodes.end(), router.begin(), router.end());
    }
    return nodes;
  }
};

class GroupStriped final : public Policy {
 protected:
  std::vector<NodeId> job_nodes(const Problem& p) const override {
    const auto tree = levels_of(p, "group-striped",
                                "deals the job's nodes over the groups (the outermost level of "
                                "the machine's hierarchy)");
    return deal(tree.members(tree.height() - 1), nodes_needed(p), 1);
  }
};

}  // namespace

std::unique_ptr<Mapper> make_contiguous(const ParamValues&) {
  return std::make_unique<Contiguous>();
}
std::unique_ptr<Mapper> make_random_node(const ParamValues&) {
  return std::make_unique<RandomNode>();
}
std::unique_ptr<Mapper> make_random_router(const ParamValues&) {
  return std::make_unique<RandomRouter>();
}
std::unique_ptr<Mapper> make_group_striped(const ParamValues&) {
  return std::make_unique<GroupStriped>();
}

}  // namespace mapsim::map
