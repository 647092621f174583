#pragma once
// Link-load heat map of one stored run on its machine: where the traffic of a mapping goes.
//
// The load of a directed link is the bytes the replay carried over it (the links table's
// `bytes`) when the run was replayed and the link has that value, else the static bytes of the
// minimal routes (dimension order on grids). Links the run did not store carried nothing.
//   mesh, torus  one panel per plane (the first two dimensions; planes along the others, at most
//                16: beyond that the 16 whose busiest link is busiest, said in `about`); each
//                link a segment between its nodes coloured by its load, offset to the right of
//                its direction so the two directions lie side by side; a torus wrap-around link
//                an arrow leaving the panel at its source node; links leaving the plane as a
//                square at their node, coloured by the busiest of them;
//   HAEC Box     one panel per board: optical links as segments, wireless links to the boards
//                above and below as a square at the node (the busiest of them);
//   Tianhe-3     two panels of rows x (columns x 2 sides) cells, one per side router: the
//                busiest link between the router and its nodes (either way), and the busiest of
//                its switch links (both ways) and the cross link it sends on;
//   dragonfly,   (HierarchyHeatMap.cpp) a group x group matrix, the busiest global (blue) link
//   Cascade      from the row's group to the column's; per router (x: its place in its group,
//                Cascade's chassis then blade; y: its group) the busiest local (green, black)
//                link it sends on, and the busiest link between it and its nodes, either way;
//   fat-tree,    (HierarchyHeatMap.cpp) a row of cells per switch level, a cell per switch in
//   Slurm tree   switch order spread over the width: the busiest up-link each switch sends on
//                (with the nodes' links up into each leaf switch as row 0), and in a second
//                panel the busiest down-link (the leaf switches': to their nodes).
// Hierarchical machines are readable at thousands of nodes: an axis of more than 128 groups,
// routers or switches is binned into at most 128 cells, each the busiest link of its bin, which
// `about` says. All panels share one colour scale [0, colour_max]. Links within a node
// (intra-node channels, stored after the links) are left out. The CSV has one row per network
// link that carried bytes; the table the 10 busiest links that carried bytes, with their share of
// the bytes on all links; a second table (more_tables, "classes") per link class of the machine
// its links, those that carried bytes, their bytes and share, and its busiest link.

#include <optional>

#include "experiments/Chart.hpp"
#include "experiments/ReportData.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::exp {

/// The chart of `run` on `machine` (built from run.topology). `colour_max`: the top of the
/// colour scale in bytes (several maps side by side share one scale); nullopt = this run's
/// busiest link (1 if nothing was carried). Throws InputError naming the run and the link if a
/// stored link does not exist on `machine`, is stored twice, or joins other vertices than the
/// machine's link of that id.
Chart heatmap_chart(const LinkLoadRun& run, const topo::Topology& machine,
                    std::optional<double> colour_max = std::nullopt);

}  // namespace mapsim::exp
