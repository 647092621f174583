#pragma once
// Text reports about a machine, shared by `mapsim topo` and `mapsim demo`.

#include <cstdio>
#include <string_view>

#include "topologies/Topology.hpp"

namespace mapsim::cli {

/// Nodes, cores, routers, links per class with their parameters, diameter and average distance.
void print_topology(std::FILE* out, const topo::Topology& topology);

/// The route from a to b, one link per line, with its hops.
void print_route(std::FILE* out, const topo::Topology& topology, topo::NodeId a, topo::NodeId b);

/// A node given as an id ("21") or as coordinates ("1,1,1"); `what` names it in errors.
topo::NodeId parse_node(const topo::Topology& topology, std::string_view text,
                        std::string_view what);

}  // namespace mapsim::cli
