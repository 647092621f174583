#pragma once
// Space-filling curves over a grid of cells, after Mokbel, Aref & Kamel (2002), as the HAEC
// thesis (sec. 3.3) uses them; mapsim fixes the conventions:
//   sweep    raster order, x fastest: every row in the same direction (jumps back at row ends)
//   scan     boustrophedon: x reverses on every other row of the snake, y on every other plane,
//            and so on for more dimensions, so consecutive cells are always adjacent
//   peano    Peano's curve on 3^k per side: base-3 digits of the index, interleaved x, y, z, ...;
//            a digit is reflected (d -> 2 - d) when the sum of the earlier index digits of the
//            other dimensions is odd. Continuous.
//   gray     Faloutsos's Gray-code curve: cells in the order of the inverse Gray code of their
//            bit-interleaved (Morton) key. Not continuous (neither is the curve).
//   hilbert  the Hilbert curve on 2^k per side, n dimensions by Skilling's transform
//            ("Programming the Hilbert curve", AIP Conf. Proc. 707, 2004). Continuous. In 3-D
//            there are several Hilbert curves; this is Skilling's.
//
// Sizes that are not powers of two (gray, hilbert) or three (peano): the curve is laid over the
// smallest enclosing cube of side 2^k (3^k) and the cells outside the machine are skipped, so the
// order is the curve's own order restricted to the machine. Where the curve leaves the machine
// and comes back, consecutive cells are not adjacent; on exact power sizes the order is
// continuous. Dimensions of extent 1 are ignored (a 16x16x1 grid is a 16x16 grid).
// Keys are 64-bit: n * ceil(log2 side) (n * ceil(log3 side) base-3 digits for peano) must fit,
// otherwise curve_order throws InputError.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace mapsim::map {

enum class Curve : std::uint8_t { Sweep, Scan, Peano, Gray, Hilbert };

std::string_view name(Curve curve);

/// Every cell of the grid `extents` (cell = x + e0 * (y + e1 * ...)), in curve order.
std::vector<std::int32_t> curve_order(std::span<const int> extents, Curve curve);

}  // namespace mapsim::map
