#pragma once
// Internal: Bhatele's heuristics for irregular graphs without coordinates (docs/references.md,
// the slides' "Mapping Irregular Graphs"), on any machine, placing ranks on nodes by hops:
//   bft       breadth-first traversal: start with a random rank (the seed) at one end of the
//             machine (`origin`: node 0, or the centre); map ranks as the traversal meets them
//             (neighbours in rank order), each on the free node nearest its parent's
//   mht       max-heap traversal: start with a random rank at the centre (or node 0); the
//             unmapped neighbours of mapped ranks wait in a heap whose top has the most mapped
//             neighbours (ties: more bytes to them, then the lowest rank); each is placed around
//             the centroid of its mapped neighbours: the free node with the least total hops to
//             them (the machine's own distance, so tori and Tianhe-3 need no coordinates)
//   coce-mht  corners to centre with the heap: four ranks at the "geometric corners" of the
//             graph — without coordinates, pseudo-peripheral ranks: c1 farthest (in graph hops)
//             from rank 0, c2 farthest from c1, c3 the rank whose nearer of c1 and c2 is
//             farthest, c4 farthest from c3 (on a grid: its four corners) — go to the four
//             corners of the machine found the same way by hops from node 0; then MHT maps from
//             all sides inwards
// Where the graph falls apart, the next part starts with its lowest rank on the free node
// nearest the origin (the slides are silent). findNext is exact: the free node with the fewest
// hops (ties: the lowest id).

#include "mappers/Mapper.hpp"

namespace mapsim::map {

enum class Origin : std::uint8_t { Corner, Centre };

topo::Mapping breadth_first(const Problem& problem, Origin origin);
topo::Mapping max_heap(const Problem& problem, Origin origin, bool from_corners);

}  // namespace mapsim::map
