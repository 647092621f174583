// rcm — Hoefler & Snir's graph-similarity mapping (ICS 2011; OHTMA paper sec. 3): reverse
// Cuthill–McKee orders both graphs so that their adjacency matrices have small bandwidth, and
// the k-th rank of the process order goes to the k-th core of the machine order.
//   process graph  ranks, an edge where any message goes either way
//   machine graph  every vertex of the topology (nodes, and on Tianhe-3 its routers and
//                  switches), an edge per pair of vertices joined by a link; the order is then
//                  restricted to the compute nodes; on an allocation (a NodeSubset), the
//                  whole machine's graph, restricted to the allocated nodes
// Orders come from Boost.Graph's cuthill_mckee_ordering (a pseudo-peripheral start vertex per
// connected component, neighbours by increasing degree), reversed. Deterministic; no seed.

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>

#include "mappers/Factories.hpp"
#include "mappers/NodePool.hpp"

namespace mapsim::map {
namespace {

using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                          boost::property<boost::vertex_color_t, boost::default_color_type,
                                          boost::property<boost::vertex_degree_t, int>>>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

std::vector<std::int32_t> reverse_cuthill_mckee(Graph& graph) {
  std::vector<Vertex> order(boost::num_vertices(graph));
  boost::cuthill_mckee_ordering(graph, order.rbegin(), boost::get(boost::vertex_color, graph),
                                boost::make_degree_map(graph));
  return {order.begin(), order.end()};
}

class Rcm final : public Mapper {
 protected:
  topo::Mapping compute(const Problem& p) const override {
    Graph process(static_cast<std::size_t>(p.ranks()));
    for (Rank r = 0; r < p.ranks(); ++r) {
      for (const auto& nb : p.graph.neighbors(r)) {
        if (nb.rank > r)
          boost::add_edge(static_cast<Vertex>(r), static_cast<Vertex>(nb.rank), process);
      }
    }
    const auto& topology = p.topology;
    Graph machine(static_cast<std::size_t>(topology.vertex_count()));
    for (topo::LinkId id = 0; id < topology.link_count(); ++id) {
      const auto link = topology.link(id);
      // Each pair is linked both ways: add it once.
      if (link.from < link.to) {
        boost::add_edge(static_cast<Vertex>(link.from), static_cast<Vertex>(link.to), machine);
      }
    }
    const auto rank_order = reverse_cuthill_mckee(process);
    std::vector<topo::NodeId> node_order;
    node_order.reserve(static_cast<std::size_t>(topology.node_count()));
    for (const auto v : reverse_cuthill_mckee(machine)) {
      if (v < topology.node_count()) node_order.push_back(v);
    }
    return fill_in_order(std::vector<Rank>(rank_order.begin(), rank_order.end()), node_order,
                         p.cores());
  }
};

}  // namespace

std::unique_ptr<Mapper> make_rcm(const ParamValues&) {
  return std::make_unique<Rcm>();
}

}  // namespace mapsim::map
