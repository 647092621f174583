#pragma once
// Communication matrices for the mapper tests and benchmarks, built from their definitions (the
// trace generators live elsewhere; these tests must not depend on them).

#include <cstdint>
#include <vector>

#include "mappers/Random.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim::testing {

/// 2-D five-point stencil on an nx x ny process grid, rank = x + nx * y: every rank sends
/// `bytes` in one message to each of its 4 neighbours (fewer at the border unless periodic).
inline traces::CommMatrix stencil_2d(int nx, int ny, bool periodic, std::uint64_t bytes = 1000) {
  traces::CommMatrixBuilder builder(nx * ny);
  auto send = [&](int x, int y, int tx, int ty) {
    if (!periodic && (tx < 0 || tx >= nx || ty < 0 || ty >= ny)) return;
    tx = (tx + nx) % nx;
    ty = (ty + ny) % ny;
    if (tx == x && ty == y) return;
    builder.add(x + nx * y, tx + nx * ty, 1, bytes);
  };
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      send(x, y, x + 1, y);
      send(x, y, x - 1, y);
      send(x, y, x, y + 1);
      send(x, y, x, y - 1);
    }
  }
  return builder.build();
}

/// The non-periodic 2-D stencil above (1000 bytes a message) with rank 0 also sending every
/// other rank `broadcast_bytes` in one message, as an NPB kernel's collectives add partners to
/// its halo grid.
inline traces::CommMatrix stencil_2d_with_broadcast(int nx, int ny, std::uint64_t broadcast_bytes) {
  const auto stencil = stencil_2d(nx, ny, false);
  traces::CommMatrixBuilder builder(nx * ny);
  for (Rank r = 0; r < nx * ny; ++r) {
    for (const Rank d : stencil.destinations(r)) builder.add(r, d, 1, 1000);
  }
  for (Rank r = 1; r < nx * ny; ++r) builder.add(0, r, 1, broadcast_bytes);
  return builder.build();
}

/// 3-D seven-point stencil on nx x ny x nz, rank = x + nx * (y + ny * z).
inline traces::CommMatrix stencil_3d(int nx, int ny, int nz, bool periodic,
                                     std::uint64_t bytes = 1000) {
  traces::CommMatrixBuilder builder(nx * ny * nz);
  const int n[3] = {nx, ny, nz};
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        const int c[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          for (const int step : {-1, 1}) {
            int t[3] = {x, y, z};
            t[d] += step;
            if (!periodic && (t[d] < 0 || t[d] >= n[d])) continue;
            t[d] = (t[d] + n[d]) % n[d];
            if (t[d] == c[d]) continue;
            builder.add(x + nx * (y + ny * z), t[0] + nx * (t[1] + ny * t[2]), 1, bytes);
          }
        }
      }
    }
  }
  return builder.build();
}

/// NPB LU-like 2-D wavefront on an nx x ny grid (not periodic): the forward (lower-triangular)
/// sweep sends `sweeps` small messages to the east and south neighbours, the backward sweep as
/// many to the west and north ones; the halo exchange adds one large message each way.
inline traces::CommMatrix lu_wavefront(int nx, int ny, int sweeps = 64, std::uint64_t small = 40,
                                       std::uint64_t halo = 40000) {
  traces::CommMatrixBuilder builder(nx * ny);
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      const int r = x + nx * y;
      if (x + 1 < nx) {
        builder.add(r, r + 1, static_cast<std::uint64_t>(sweeps) + 1, small * sweeps + halo);
        builder.add(r + 1, r, static_cast<std::uint64_t>(sweeps) + 1, small * sweeps + halo);
      }
      if (y + 1 < ny) {
        builder.add(r, r + nx, static_cast<std::uint64_t>(sweeps) + 1, small * sweeps + halo);
        builder.add(r + nx, r, static_cast<std::uint64_t>(sweeps) + 1, small * sweeps + halo);
      }
    }
  }
  return builder.build();
}

/// Irregular: every rank sends to `partners` random others (seeded), random sizes, and
/// sometimes to itself.
inline traces::CommMatrix random_matrix(int ranks, int partners, std::uint64_t seed) {
  map::Random random(seed);
  traces::CommMatrixBuilder builder(ranks);
  for (int r = 0; r < ranks; ++r) {
    for (int k = 0; k < partners; ++k) {
      const auto dst = static_cast<int>(random.below(static_cast<std::uint64_t>(ranks)));
      const auto messages = 1 + random.below(5);
      builder.add(r, dst, messages, messages * (1 + random.below(100000)));
    }
  }
  return builder.build();
}

/// FT-like traffic: all-to-alls within consecutive groups of `group` ranks and within strided
/// ones (ranks equal modulo ranks / group), with weights that differ a little from pair to pair.
inline traces::CommMatrix all_to_all_groups(int ranks, int group) {
  traces::CommMatrixBuilder builder(ranks);
  for (int i = 0; i < ranks; ++i) {
    for (int j = 0; j < ranks; ++j) {
      const bool row = i / group == j / group;
      const bool column = i % (ranks / group) == j % (ranks / group);
      if (i != j && (row || column))
        builder.add(i, j, 1, static_cast<std::uint64_t>(row ? 1000 : 300 + (i * 7 + j) % 5));
    }
  }
  return builder.build();
}

}  // namespace mapsim::testing
