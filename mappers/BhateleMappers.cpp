// Bhatele's mappers (HiPC 2010; docs/references.md).
//
// Regular graphs — mxovlp, mxov-al, exco, coce, affine, step:
//   1. The process grid: the `grid` parameter, or the detected regular pattern
//      (RegularPattern.hpp). A 3-D pattern dx x dy x dz is seen as the 2-D grid dx x (dy * dz),
//      whose rows are the y rows of z plane after z plane.
//   2. The machine as planes of a 2-D processor mesh (MachineGrid): x and y of a mesh, torus or
//      HAEC board, the chip grid of Tianhe-3; planes are z (HAEC boards) and any further
//      dimensions. A cell holding c ranks (cores per node, or a Tianhe-3 chip's nodes x cores)
//      becomes an a x b block of virtual processors (a * b = c, the factor pair that makes the
//      plane most nearly square), so that every heuristic places one object per processor.
//   3. 2-D -> 3-D (the slides' "Mapping 2D Graphs to 3D"): the object grid is cut into as few
//      horizontal slabs as fill whole planes (every plane when the ranks fill the machine), slab
//      k goes to plane k through the 2-D heuristic (GridEmbedding.hpp); `stack` lays every slab
//      the same way, `fold` turns every other slab over so that the rows either side of a cut
//      sit on top of each other; `best` (the default) keeps whichever has fewer hop-bytes (the
//      slides choose "based on hop-bytes"). If a slab row is longer than a plane holds, the
//      grid is tried transposed.
//      `tile` and `tile-fold` (ours, after Cray's grid_order) cut the object grid instead into
//      tiles of a plane's shape, where its sides are multiples of the plane's (or, transposed,
//      of the plane's other side): tile (tx, ty) goes to plane tx + (tiles per row) * ty, each
//      object at its place in the tile (every heuristic leaves a grid that fits the plane
//      where it is). Both of a tile's axes stay on the plane's, so a 64 x 64 grid on a 16 x 16 x
//      16 torus keeps every neighbour but those across a tile's edge one hop away, where slabs of
//      64 x 4 must stretch one axis. `tile-fold` mirrors the odd tiles along each axis, so that
//      neighbours across a tile's edge sit on top of each other (for meshes, whose edges do not
//      wrap). A grid that does not tile the planes is mapped by mht, as an irregular one.
//   The pattern is matched exactly, as the slides do (`pattern=exact`, the default), or without
//   its light pairs where the exact match fails (`pattern=dominant`; RegularPattern.hpp), which
//   finds the halo grid of an NPB kernel whose matrix counts its collectives.
//   If the pattern is not regular (and no `grid` is given), coce falls back to coce-mht and the
//   others to mht, the slides' heuristics for irregular graphs, and say so in the log.
//   Machines without a grid (Topology::has_grid: an allocation or a small job's first nodes on a
//   hierarchical machine, seen as a NodeSubset; a Slurm cluster) have no planes to lay slabs on:
//   the heuristics refuse them, naming the mappers that take any set of nodes (mht and coce-mht
//   among them). Fat-trees, dragonflies and Cascade machines are grids of their coordinates
//   (MachineGrid.hpp): planes of hosts x routers, one per group on a dragonfly.
//
// Irregular graphs — bft, mht, coce-mht: IrregularMappers.hpp.

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "mappers/Factories.hpp"
#include "mappers/GridEmbedding.hpp"
#include "mappers/IrregularMappers.hpp"
#include "mappers/MachineGrid.hpp"
#include "mappers/MachineView.hpp"
#include "mappers/Metrics.hpp"
#include "mappers/RegularPattern.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

constexpr ParamSpec kGridParams[] = {
    {"grid", ParamType::Text, "",
     "process grid AxB or AxBxC (rank = x + A * (y + B * z)); empty: detect the pattern"},
    {"layers", ParamType::Choice, "best",
     "2-D -> 3-D: stack slabs, fold them, keep the better by hop-bytes, or cut the grid into "
     "tiles of a plane each, laid the same way or mirrored in turn",
     0, 0, "best|stack|fold|tile|tile-fold"},
    {"pattern", ParamType::Choice, "exact",
     "grid detection: every pair one grid step apart (the slides), or where that fails only the "
     "pairs carrying at least 1 % of the heaviest pair's bytes (dominant: a kernel's halos with "
     "its collectives counted)",
     0, 0, "exact|dominant"},
};

constexpr ParamSpec kAffineParams[] = {
    kGridParams[0],
    kGridParams[1],
    kGridParams[2],
    {"variant", ParamType::Choice, "floor",
     "floor(P * x / O) as in the slides, round(P * x / O), or corners onto corners", 0, 0,
     "floor|round|corners"},
};

constexpr ParamSpec kOriginCorner[] = {
    {"origin", ParamType::Choice, "corner", "where the first rank goes: node 0 or the centre", 0, 0,
     "corner|centre"},
};
constexpr ParamSpec kOriginCentre[] = {
    {"origin", ParamType::Choice, "centre", "where the first rank goes: node 0 or the centre", 0, 0,
     "corner|centre"},
};

Origin origin_of(const ParamValues& params) {
  return params.text("origin") == "corner" ? Origin::Corner : Origin::Centre;
}

// The machine's planes of virtual processors.
struct VirtualMachine {
  MachineGrid grid;
  int px = 1;  // cells per row of a plane
  int py = 1;
  int planes = 1;
  int a = 1;  // virtual processors per cell, across and up
  int b = 1;
  int cores = 1;

  explicit VirtualMachine(const topo::Topology& topology)
      : grid(topology), cores(topology.cores_per_node()) {
    const auto e = grid.extents();
    px = e[0];
    py = e.size() > 1 ? e[1] : 1;
    for (std::size_t d = 2; d < e.size(); ++d) planes *= e[d];
    const int c = grid.cell_capacity();
    double best = -1;
    for (int f = 1; f <= c; ++f) {
      if (c % f != 0) continue;
      const double skew =
          std::abs(std::log(static_cast<double>(px) * f / (static_cast<double>(py) * (c / f))));
      if (best < 0 || skew < best - 1e-12) {
        best = skew;
        a = f;
        b = c / f;
      }
    }
  }
  [[nodiscard]] int width() const { return px * a; }
  [[nodiscard]] int height() const { return py * b; }
  [[nodiscard]] std::int64_t plane_capacity() const {
    return static_cast<std::int64_t>(width()) * height();
  }
  [[nodiscard]] NodeId node(int vx, int vy, int plane) const {
    const int cell = vx / a + px * (vy / b + py * plane);
    const int slot = vx % a + a * (vy % b);
    return grid.first_node(cell) + slot / cores;
  }
};

struct Slabs {
  bool transposed = false;
  int ox = 0;  // the object grid as laid out (transposed or not)
  int oy = 0;
  std::vector<int> heights;
};

// Splits `total` into `parts` near-equal sizes, the larger first.
std::vector<int> split(int total, int parts) {
  std::vector<int> sizes(static_cast<std::size_t>(parts), total / parts);
  for (int i = 0; i < total % parts; ++i) ++sizes[static_cast<std::size_t>(i)];
  return sizes;
}

std::optional<Slabs> cut_slabs(int ox, int oy, const VirtualMachine& vm) {
  const std::int64_t objects = static_cast<std::int64_t>(ox) * oy;
  for (const bool transposed : {false, true}) {
    const int w = transposed ? oy : ox;
    const int h = transposed ? ox : oy;
    const auto least = static_cast<int>((objects + vm.plane_capacity() - 1) / vm.plane_capacity());
    for (int layers = std::max(1, least); layers <= std::min(vm.planes, h); ++layers) {
      const auto heights = split(h, layers);
      if (static_cast<std::int64_t>(w) * heights.front() <= vm.plane_capacity()) {
        return Slabs{transposed, w, h, heights};
      }
    }
  }
  return std::nullopt;
}

class GridMapper final : public Mapper {
 public:
  GridMapper(GridHeuristic heuristic, const ParamValues& params)
      : heuristic_(heuristic),
        grid_(params.text("grid")),
        layers_(params.text("layers")),
        pattern_(params.text("pattern") == "dominant" ? PatternMatch::Dominant
                                                      : PatternMatch::Exact),
        variant_(heuristic == GridHeuristic::Affine ? variant_of(params.text("variant"))
                                                    : AffineVariant::Floor) {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    if (!p.topology.has_grid()) {
      refuse(name(heuristic_), "lays the process grid onto the planes of the machine's grid",
             "grid", p.topology);
    }
    const auto dims =
        grid_.empty() ? detect_pattern(p.graph, pattern_)
                      : parse_grid(grid_, p.ranks(),
                                   fmt::format("mapper '{}': parameter 'grid'", name(heuristic_)));
    if (dims.empty()) {
      return fall_back(p, pattern_ == PatternMatch::Exact
                              ? fmt::format("the communication pattern is not a regular 2-D or "
                                            "3-D grid (pattern=dominant leaves out the pairs "
                                            "under {} % of the heaviest's, such as a kernel's "
                                            "collectives)",
                                            100 * kLightPairShare)
                              : std::string("the communication pattern is not a regular 2-D or "
                                            "3-D grid, even without its light pairs"));
    }
    int oy = 1;
    for (std::size_t d = 1; d < dims.size(); ++d) oy *= dims[d];
    const VirtualMachine vm(p.topology);
    if (layers_ == "tile" || layers_ == "tile-fold") {
      if (auto tiled = tile(p, vm, dims[0], oy, layers_ == "tile-fold")) return std::move(*tiled);
      return fall_back(p, fmt::format("the {}x{} process grid does not tile the {}x{} planes of {}",
                                      dims[0], oy, vm.width(), vm.height(), p.topology.spec()));
    }
    const auto slabs = cut_slabs(dims[0], oy, vm);
    if (!slabs) {
      return fall_back(p, fmt::format("the {}x{} process grid does not fit the planes of {}",
                                      dims[0], oy, p.topology.spec()));
    }
    if (layers_ != "best") return lay(p, *slabs, vm, dims[0], layers_ == "fold");
    auto stacked = lay(p, *slabs, vm, dims[0], false);
    if (slabs->heights.size() == 1) return stacked;
    auto folded = lay(p, *slabs, vm, dims[0], true);
    return metrics::hop_bytes(p.graph, p.topology, folded.nodes()) <
                   metrics::hop_bytes(p.graph, p.topology, stacked.nodes())
               ? std::move(folded)
               : std::move(stacked);
  }

 private:
  static AffineVariant variant_of(const std::string& text) {
    if (text == "round") return AffineVariant::Round;
    if (text == "corners") return AffineVariant::Corners;
    return AffineVariant::Floor;
  }

  topo::Mapping fall_back(const Problem& p, const std::string& why) const {
    const bool corners = heuristic_ == GridHeuristic::Coce;
    log::info("mapper '{}': {}; mapping with {} instead", name(heuristic_), why,
              corners ? "coce-mht" : "mht");
    return max_heap(p, Origin::Centre, corners);
  }

  // Slab k of the (maybe transposed) object grid onto plane k.
  topo::Mapping lay(const Problem& p, const Slabs& slabs, const VirtualMachine& vm, int ox,
                    bool fold) const {
    std::vector<NodeId> node_of(static_cast<std::size_t>(p.ranks()), -1);
    std::map<int, std::vector<std::int32_t>> embeddings;  // by slab height: slabs repeat
    int y0 = 0;
    for (std::size_t k = 0; k < slabs.heights.size(); ++k) {
      const int h = slabs.heights[k];
      auto& embedding = embeddings[h];
      if (embedding.empty()) {
        embedding = embed_grid(heuristic_, slabs.ox, h, vm.width(), vm.height(), variant_);
      }
      const bool flipped = fold && k % 2 == 1;
      for (int v = 0; v < h; ++v) {
        for (int x = 0; x < slabs.ox; ++x) {
          const int y = y0 + (flipped ? h - 1 - v : v);
          // Back to the untransposed object grid, whose object (x, y) is rank x + ox * y.
          const Rank rank = slabs.transposed ? y + ox * x : x + ox * y;
          const int at = embedding[static_cast<std::size_t>(x + slabs.ox * v)];
          node_of[static_cast<std::size_t>(rank)] =
              vm.node(at % vm.width(), at / vm.width(), static_cast<int>(k));
        }
      }
      y0 += h;
    }
    return topo::Mapping(std::move(node_of));
  }

  // The ox x oy object grid (maybe transposed) in tiles of a plane each, tile (tx, ty) on plane
  // tx + (tiles per row) * ty; with `fold` the odd tiles mirrored along that axis. Empty if the
  // grid does not tile the planes.
  std::optional<topo::Mapping> tile(const Problem& p, const VirtualMachine& vm, int ox, int oy,
                                    bool fold) const {
    const int w = vm.width();
    const int h = vm.height();
    for (const bool transposed : {false, true}) {
      const int gx = transposed ? oy : ox;  // the grid as laid out
      const int gy = transposed ? ox : oy;
      if (gx % w != 0 || gy % h != 0 || (gx / w) * (gy / h) > vm.planes) continue;
      const auto embedding = embed_grid(heuristic_, w, h, w, h, variant_);
      std::vector<NodeId> node_of(static_cast<std::size_t>(p.ranks()), -1);
      for (int y = 0; y < gy; ++y) {
        for (int x = 0; x < gx; ++x) {
          const int tx = x / w;
          const int ty = y / h;
          const int ix = fold && tx % 2 == 1 ? w - 1 - x % w : x % w;
          const int iy = fold && ty % 2 == 1 ? h - 1 - y % h : y % h;
          // Back to the untransposed object grid, whose object (x, y) is rank x + ox * y.
          const Rank rank = transposed ? y + ox * x : x + ox * y;
          const int at = embedding[static_cast<std::size_t>(ix + w * iy)];
          node_of[static_cast<std::size_t>(rank)] = vm.node(at % w, at / w, tx + (gx / w) * ty);
        }
      }
      return topo::Mapping(std::move(node_of));
    }
    return std::nullopt;
  }

  GridHeuristic heuristic_;
  std::string grid_;
  std::string layers_;
  PatternMatch pattern_;
  AffineVariant variant_;
};

class IrregularMapper final : public Mapper {
 public:
  enum class Kind : std::uint8_t { Bft, Mht, CoceMht };
  IrregularMapper(Kind kind, Origin origin) : kind_(kind), origin_(origin) {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    switch (kind_) {
      case Kind::Bft:
        return breadth_first(p, origin_);
      case Kind::Mht:
        return max_heap(p, origin_, false);
      case Kind::CoceMht:
        return max_heap(p, Origin::Centre, true);
    }
    return {};
  }

 private:
  Kind kind_;
  Origin origin_;
};

}  // namespace

std::span<const ParamSpec> grid_params() {
  return kGridParams;
}
std::span<const ParamSpec> affine_params() {
  return kAffineParams;
}
std::unique_ptr<Mapper> make_grid_mapper(GridHeuristic heuristic, const ParamValues& params) {
  return std::make_unique<GridMapper>(heuristic, params);
}

std::span<const ParamSpec> bft_params() {
  return kOriginCorner;
}
std::span<const ParamSpec> mht_params() {
  return kOriginCentre;
}
std::unique_ptr<Mapper> make_bft(const ParamValues& params) {
  return std::make_unique<IrregularMapper>(IrregularMapper::Kind::Bft, origin_of(params));
}
std::unique_ptr<Mapper> make_mht(const ParamValues& params) {
  return std::make_unique<IrregularMapper>(IrregularMapper::Kind::Mht, origin_of(params));
}
std::unique_ptr<Mapper> make_coce_mht(const ParamValues&) {
  return std::make_unique<IrregularMapper>(IrregularMapper::Kind::CoceMht, Origin::Centre);
}

}  // namespace mapsim::map
