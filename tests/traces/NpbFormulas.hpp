#pragma once
// Closed-form communication matrices of the NPB fact sheet (docs/workloads.md), written for the
// generator tests (independently of the generators): LU §4.4, BT §5.4, SP §6, CG §7.3.

#include <array>
#include <cstdint>

#include "traces/CommMatrix.hpp"

namespace mapsim::testing {

using traces::CommMatrix;
using traces::CommMatrixBuilder;

inline constexpr std::int64_t kNpbDouble = 8;

/// Size of block `index` of `total` split into `parts`, the first `total mod parts` one larger.
inline std::int64_t block(std::int64_t total, std::int64_t parts, std::int64_t index) {
  return total / parts + (index < total % parts ? 1 : 0);
}

inline std::int64_t isqrt(std::int64_t n) {
  std::int64_t r = 0;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r;
}

/// §4.4: whole-run messages and bytes per directed neighbour link, for nx0 = ny0 = nz0 = n0.
inline CommMatrix lu_formula(std::int64_t n0, std::int64_t itmax, Rank ranks) {
  std::int64_t ydim = 1;
  for (std::int64_t d = 1; d * d <= ranks; ++d) {
    if (ranks % d == 0) ydim = d;
  }
  const std::int64_t xdim = ranks / ydim;
  const std::int64_t w = (itmax + 1) * (n0 - 2);
  const std::int64_t h = itmax + 4;
  CommMatrixBuilder m(ranks);
  for (Rank id = 0; id < ranks; ++id) {
    const std::int64_t row = id % xdim;
    const std::int64_t col = id / xdim;
    const std::int64_t nx = block(n0, xdim, row);
    const std::int64_t ny = block(n0, ydim, col);
    const std::int64_t li = nx - (row == 0) - (row == xdim - 1);
    const std::int64_t lj = ny - (col == 0) - (col == ydim - 1);
    const std::int64_t e5 = (col == 0) + (col == ydim - 1);
    const std::int64_t e6 = (row == 0) + (row == xdim - 1);
    const auto add = [&](std::int64_t dst, std::int64_t msgs, std::int64_t doubles) {
      m.add(id, static_cast<Rank>(dst), static_cast<std::uint64_t>(msgs),
            static_cast<std::uint64_t>(kNpbDouble * doubles));
    };
    if (row < xdim - 1) add(id + 1, w + h, w * 5 * lj + h * 10 * ny * n0);
    if (row > 0)
      add(id - 1, w + h + 1 + e5, w * 5 * lj + h * 10 * ny * n0 + 2 * (ny + 2) + e5 * n0);
    if (col < ydim - 1) add(id + xdim, w + h, w * 5 * li + h * 10 * nx * n0);
    if (col > 0) add(id - xdim, w + h + 1 + e6, w * 5 * li + h * 10 * nx * n0 + 2 * nx + e6 * n0);
  }
  return m.build();
}

struct Multipartition {
  std::int64_t p, g, niter;
  bool bt;

  [[nodiscard]] std::int64_t size(std::int64_t coord) const { return g / p + (coord < g % p); }
  [[nodiscard]] std::array<std::int64_t, 3> cell(Rank r, std::int64_t c) const {
    const std::int64_t i = r % p;
    const std::int64_t j = r / p;
    return {(i + c) % p, ((j - c) % p + p) % p, c};
  }
  /// §5.1's partner table.
  [[nodiscard]] Rank partner(Rank r, int d, int sign) const {
    const auto wrap = [&](std::int64_t v) { return (v % p + p) % p; };
    const std::int64_t i = r % p;
    const std::int64_t j = r / p;
    if (d == 0) return static_cast<Rank>(wrap(i + sign) + p * j);
    if (d == 1) return static_cast<Rank>(i + p * wrap(j + sign));
    return static_cast<Rank>(wrap(i - sign) + p * wrap(j + sign));
  }
  /// §5.2 copy_faces: Σ over cells not on the face's side of 10 × the face's points, in bytes.
  [[nodiscard]] std::int64_t face(Rank r, int d, int sign) const {
    std::int64_t doubles = 0;
    for (std::int64_t c = 0; c < p; ++c) {
      const auto x = cell(r, c);
      if (x[static_cast<std::size_t>(d)] == (sign > 0 ? p - 1 : 0)) continue;
      std::int64_t f = 10;
      for (int o = 0; o < 3; ++o) {
        if (o != d) f *= size(x[static_cast<std::size_t>(o)]);
      }
      doubles += f;
    }
    return doubles * kNpbDouble;
  }
  /// §6: the lines b of a cell's SP solver message in direction d.
  [[nodiscard]] std::int64_t lines(const std::array<std::int64_t, 3>& x, int d) const {
    std::int64_t b = 1;
    for (int o = 0; o < 3; ++o) {
      if (o == d) continue;
      const auto coord = x[static_cast<std::size_t>(o)];
      b *= size(coord) - (coord == 0) - (coord == p - 1);
    }
    return b;
  }

  /// §5.4 (BT) and §6 (SP) totals per directed partner link.
  [[nodiscard]] CommMatrix matrix(Rank ranks) const {
    CommMatrixBuilder m(ranks);
    const std::int64_t mcd = g / p + 1;
    for (Rank r = 0; r < p * p && p > 1; ++r) {
      for (int d = 0; d < 3; ++d) {
        for (const int sign : {+1, -1}) {
          std::int64_t solver = 0;  // bytes of the (niter+1)(p−1) solver messages
          if (bt) {
            solver = (niter + 1) * (p - 1) * (sign > 0 ? 240 : 40) * mcd * mcd;
          } else {
            // Sending cells: forward stages 1 … p−1 (coordinate 0 … p−2 in d), backward
            // stages p … 2 (coordinate p−1 … 1).
            for (std::int64_t c = 0; c < p; ++c) {
              const auto x = cell(r, c);
              const auto coord = x[static_cast<std::size_t>(d)];
              if (sign > 0 && coord <= p - 2) solver += 22 * lines(x, d);
              if (sign < 0 && coord >= 1) solver += 10 * lines(x, d);
            }
            solver *= (niter + 1) * kNpbDouble;
          }
          m.add(r, partner(r, d, sign),
                static_cast<std::uint64_t>((niter + 2) + (niter + 1) * (p - 1)),
                static_cast<std::uint64_t>((niter + 2) * face(r, d, sign) + solver));
        }
      }
    }
    return m.build();
  }
};

/// §7.1 and §7.3.
inline CommMatrix cg_formula(std::int64_t na, std::int64_t niter, Rank ranks) {
  int l = 0;
  while ((1 << (l + 1)) <= ranks) ++l;
  const std::int64_t nprows = std::int64_t{1} << (l / 2);
  const std::int64_t npcols = std::int64_t{1} << ((l + 1) / 2);
  int l2 = 0;
  while ((std::int64_t{1} << l2) < npcols) ++l2;
  const bool square = nprows == npcols;
  const auto nrow = [&](std::int64_t me) { return block(na, nprows, me / npcols); };
  const auto send_len = [&](std::int64_t me) {
    return square ? nrow(me) : me % 2 == 0 ? (nrow(me) + 1) / 2 : nrow(me) / 2;
  };
  const std::int64_t outer = niter + 1;
  CommMatrixBuilder m(ranks);
  for (std::int64_t me = 0; me < ranks; ++me) {
    for (int i = 1; i <= l2; ++i) {
      const std::int64_t partner = (me / npcols) * npcols + ((me % npcols) ^ (npcols >> i));
      const std::int64_t len = !square && i == l2 ? nrow(me) - send_len(me) : send_len(me);
      m.add(static_cast<Rank>(me), static_cast<Rank>(partner),
            static_cast<std::uint64_t>(79 * outer),
            static_cast<std::uint64_t>(outer * (26 * 8 * len + 52 * 8 + 16)));
    }
    if (l2 != 0) {
      const std::int64_t exch =
          square ? (me % nprows) * nprows + me / nprows
                 : 2 * (((me / 2) % nprows) * nprows + (me / 2) / nprows) + me % 2;
      m.add(static_cast<Rank>(me), static_cast<Rank>(exch), static_cast<std::uint64_t>(26 * outer),
            static_cast<std::uint64_t>(26 * outer * 8 * send_len(me)));
    }
  }
  return m.build();
}

}  // namespace mapsim::testing
