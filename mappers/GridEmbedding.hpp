#pragma once
// Bhatele's heuristics for embedding a regular 2-D object grid in a 2-D processor mesh
// (Bhatele, Gupta, Kale & Chung, HiPC 2010; docs/references.md), one object per
// processor. Objects are numbered x + ox * y on the ox x oy object grid, processors x + px * y
// on the px x py mesh; ox * oy <= px * py. Distances are Manhattan (a mesh), and "findNext" —
// every heuristic's way to place an object whose desired processor is taken — is the nearest
// free processor, searched in Manhattan rings around the desired one (a spiral), each ring
// clockwise from the cell straight above (lower y) the centre.
//
//   mxovlp   maximum overlap: lay the object grid on the mesh, turned the way that covers the
//            most processors, corner on corner; the overlapping objects stay where they are;
//            the part that sticks out is laid, the same way, on the free rectangle left over,
//            recursively
//   mxov-al  the same with alignment at each recursive call: of the ways to turn and mirror the
//            part that sticks out and the corners of the free rectangle to anchor it at, the
//            one whose overlap keeps its grid neighbours (already placed) closest
//   exco     expand from corner: objects in expanding squares from the corner (0, 0); each one
//            wants the processor with its own coordinates (clamped into the mesh), or findNext
//   coce     corners to centre: the same from all four corners at once, each object belonging
//            to its nearest corner and wanting the processor at the same offset from the
//            matching corner of the mesh; the corners take turns
//   affine   (x, y) -> (floor(px * x / ox), floor(py * y / oy)), conflicts by findNext; the
//            variants `round` (nearest instead of floor) and `corners` (corners onto corners:
//            round((px - 1) * x / (ox - 1))) stretch differently
//   step     when the object grid is taller than the mesh (oy > py; wider: the same,
//            transposed), cut both into the same number b of horizontal bands, as many as can be
//            cut with each object band fitting its processor band; within a band, objects in
//            column-major snake order (every other object column downwards) fill processors in
//            column-major snake order, so an object column continues in the next processor
//            column like a staircase and grid neighbours in a column stay adjacent. When the
//            object grid fits the mesh, every object keeps its coordinates.
// Where the slides are silent (ties, findNext's ring order, the order objects are taken in,
// EXCO's and COCE's desired processors, STEP's bands), the choices are the ones stated here.

#include <cstdint>
#include <string_view>
#include <vector>

namespace mapsim::map {

enum class GridHeuristic : std::uint8_t { Mxovlp, MxovAl, Exco, Coce, Affine, Step };
enum class AffineVariant : std::uint8_t { Floor, Round, Corners };

std::string_view name(GridHeuristic heuristic);

/// The processor of every object. Precondition: 1 <= ox * oy <= px * py.
std::vector<std::int32_t> embed_grid(GridHeuristic heuristic, int ox, int oy, int px, int py,
                                     AffineVariant variant = AffineVariant::Floor);

}  // namespace mapsim::map
