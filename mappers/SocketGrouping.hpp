#pragma once
// Which ranks of a node share a socket, on machines whose nodes have several
// (Topology::sockets_per_node): the third level of a placement, below the network and the node.
//
// A mapper chooses every rank's node; group_sockets then chooses, node by node, which of its
// ranks share a socket so that few bytes cross between sockets. It starts from the rank order
// (the ranks of a node on its cores in rank order, as a launcher binds them) and improves by
// Kernighan-Lin passes over two kinds of step: swapping two ranks on different sockets and moving
// a rank to a free core of another socket, with
//   W(i, s)                     bytes both ways between rank i and the node's ranks on socket s
//   gain(move i: a -> b)        = W(i, b) - W(i, a)
//   gain(swap i in a, j in b)   = W(i, b) - W(i, a) + W(j, a) - W(j, b) - 2 w(i, j)
// (a gain is the drop in bytes between sockets). A pass applies the step of greatest gain among
// ranks not yet moved in the pass, even a losing one (ties to the lowest ranks), until every rank
// has moved or none can; it then keeps its prefix of greatest total gain. Passes repeat while
// they gain (at most 16). Whole passes, unlike single steps, get past the exchanges that pay
// only together (a 4 x 2 block of a 2-D stencil: rows to sockets, to halves of the rows). The
// bytes between sockets never exceed the rank order's, and the result depends on the matrix and
// the mapping alone. Within a socket, ranks take its cores in rank order.
//
// Mapper::map applies it to every mapper but the baselines (Scope::WholeMachine: in-order,
// round-robin, random), which keep the launcher's binding.

#include "mappers/CommGraph.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

/// `mapping` with every rank's core chosen as above (the nodes unchanged); `mapping` itself on a
/// machine of one socket per node. Preconditions: the mapping is valid on `topology`, and
/// `graph` is its matrix's.
topo::Mapping group_sockets(const topo::Mapping& mapping, const CommGraph& graph,
                            const topo::Topology& topology);

}  // namespace mapsim::map
