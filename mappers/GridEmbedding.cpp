#include "mappers/GridEmbedding.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "support/Error.hpp"

namespace mapsim::map {
namespace {

// The processor mesh with the processors taken so far, and findNext.
class Plane {
 public:
  Plane(int px, int py, int objects)
      : px_(px),
        py_(py),
        used_(static_cast<std::size_t>(px) * py, 0),
        place_(static_cast<std::size_t>(objects), -1) {}

  [[nodiscard]] bool is_free(int x, int y) const {
    return x >= 0 && x < px_ && y >= 0 && y < py_ && used_[index(x, y)] == 0;
  }
  void put(int object, int x, int y) {
    MAPSIM_EXPECTS(is_free(x, y), "a grid heuristic placed two objects on one processor");
    used_[index(x, y)] = 1;
    place_[static_cast<std::size_t>(object)] = static_cast<std::int32_t>(index(x, y));
  }
  /// Places `object` on the free processor nearest (x, y) (clamped into the mesh).
  void put_near(int object, int x, int y) {
    x = std::clamp(x, 0, px_ - 1);
    y = std::clamp(y, 0, py_ - 1);
    for (int d = 0; d <= px_ + py_; ++d) {
      if (d == 0) {
        if (is_free(x, y)) return put(object, x, y);
        continue;
      }
      // The ring of Manhattan radius d, clockwise from (x, y - d).
      for (int k = 0; k < d; ++k) {
        const std::array<std::array<int, 2>, 4> ring{
            {{x + k, y - d + k}, {x + d - k, y + k}, {x - k, y + d - k}, {x - d + k, y - k}}};
        for (const auto& [cx, cy] : ring) {
          if (is_free(cx, cy)) return put(object, cx, cy);
        }
      }
    }
    MAPSIM_EXPECTS(false, "findNext found no free processor");
  }
  [[nodiscard]] std::int32_t place(int object) const {
    return place_[static_cast<std::size_t>(object)];
  }
  [[nodiscard]] std::vector<std::int32_t> result() && { return std::move(place_); }
  [[nodiscard]] int px() const { return px_; }

 private:
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(x) +
           static_cast<std::size_t>(px_) * static_cast<std::size_t>(y);
  }

  int px_;
  int py_;
  std::vector<char> used_;
  std::vector<std::int32_t> place_;
};

std::vector<std::int32_t> affine(int ox, int oy, int px, int py, AffineVariant variant) {
  Plane plane(px, py, ox * oy);
  auto scale = [&](int v, int o, int p) {
    switch (variant) {
      case AffineVariant::Floor:
        return static_cast<int>(static_cast<std::int64_t>(p) * v / o);
      case AffineVariant::Round:
        return static_cast<int>(std::floor(static_cast<double>(p) * v / o + 0.5));
      case AffineVariant::Corners:
        return o == 1
                   ? 0
                   : static_cast<int>(std::floor(static_cast<double>(p - 1) * v / (o - 1) + 0.5));
    }
    return 0;
  };
  for (int y = 0; y < oy; ++y) {
    for (int x = 0; x < ox; ++x) plane.put_near(x + ox * y, scale(x, ox, px), scale(y, oy, py));
  }
  return std::move(plane).result();
}

// Offsets (dx, dy) of the square shell `s` around a corner: the column dx = s (dy < s) upwards,
// then the row dy = s from dx = 0 to s.
void shell(int s, std::vector<std::array<int, 2>>& out) {
  out.clear();
  for (int dy = 0; dy < s; ++dy) out.push_back({s, dy});
  for (int dx = 0; dx <= s; ++dx) out.push_back({dx, s});
}

std::vector<std::int32_t> exco(int ox, int oy, int px, int py) {
  Plane plane(px, py, ox * oy);
  std::vector<std::array<int, 2>> cells;
  for (int s = 0; s < std::max(ox, oy); ++s) {
    shell(s, cells);
    for (const auto& [x, y] : cells) {
      if (x < ox && y < oy) plane.put_near(x + ox * y, x, y);
    }
  }
  return std::move(plane).result();
}

std::vector<std::int32_t> coce(int ox, int oy, int px, int py) {
  Plane plane(px, py, ox * oy);
  // Corner k: bit 0 = right side, bit 1 = top side.
  auto offset = [&](int k, int x, int y) {
    return std::array<int, 2>{(k & 1) != 0 ? ox - 1 - x : x, (k & 2) != 0 ? oy - 1 - y : y};
  };
  auto owner = [&](int x, int y) {
    int best = 0;
    int best_distance = std::numeric_limits<int>::max();
    for (int k = 0; k < 4; ++k) {
      const auto [dx, dy] = offset(k, x, y);
      if (std::max(dx, dy) < best_distance) {
        best = k;
        best_distance = std::max(dx, dy);
      }
    }
    return best;
  };
  std::array<std::vector<int>, 4> queue;  // each corner's objects in shell order
  std::vector<std::array<int, 2>> cells;
  for (int s = 0; s < std::max(ox, oy); ++s) {
    shell(s, cells);
    for (int k = 0; k < 4; ++k) {
      for (const auto& [dx, dy] : cells) {
        const auto [x, y] = offset(k, dx, dy);  // offsets are their own inverse
        if (x < 0 || x >= ox || y < 0 || y >= oy || owner(x, y) != k) continue;
        if (dx >= ox || dy >= oy) continue;
        queue[static_cast<std::size_t>(k)].push_back(x + ox * y);
      }
    }
  }
  std::array<std::size_t, 4> next{};
  for (bool any = true; any;) {
    any = false;
    for (int k = 0; k < 4; ++k) {
      auto& q = queue[static_cast<std::size_t>(k)];
      auto& at = next[static_cast<std::size_t>(k)];
      if (at == q.size()) continue;
      any = true;
      const int object = q[at++];
      const auto [dx, dy] = offset(k, object % ox, object / ox);
      plane.put_near(object, (k & 1) != 0 ? px - 1 - dx : dx, (k & 2) != 0 ? py - 1 - dy : dy);
    }
  }
  return std::move(plane).result();
}

// Splits `total` into `parts` near-equal sizes, the larger first.
std::vector<int> split(int total, int parts) {
  std::vector<int> sizes(static_cast<std::size_t>(parts), total / parts);
  for (int i = 0; i < total % parts; ++i) ++sizes[static_cast<std::size_t>(i)];
  return sizes;
}

std::vector<std::int32_t> step(int ox, int oy, int px, int py) {
  if (ox <= px && oy <= py) {
    std::vector<std::int32_t> place(static_cast<std::size_t>(ox) * oy);
    for (int y = 0; y < oy; ++y) {
      for (int x = 0; x < ox; ++x) place[static_cast<std::size_t>(x + ox * y)] = x + px * y;
    }
    return place;
  }
  if (oy <= py) {  // wider than the mesh: the same, transposed
    const auto t = step(oy, ox, py, px);
    std::vector<std::int32_t> place(t.size());
    for (int y = 0; y < oy; ++y) {
      for (int x = 0; x < ox; ++x) {
        const int p = t[static_cast<std::size_t>(y + oy * x)];  // transposed object (y, x)
        place[static_cast<std::size_t>(x + ox * y)] = p / py + px * (p % py);
      }
    }
    return place;
  }
  int bands = std::min(oy, py);
  for (; bands > 1; --bands) {
    const auto oh = split(oy, bands);
    const auto ph = split(py, bands);
    bool fits = true;
    for (int i = 0; i < bands; ++i) {
      fits = fits && static_cast<std::int64_t>(ox) * oh[static_cast<std::size_t>(i)] <=
                         static_cast<std::int64_t>(px) * ph[static_cast<std::size_t>(i)];
    }
    if (fits) break;
  }
  const auto oh = split(oy, bands);
  const auto ph = split(py, bands);
  std::vector<std::int32_t> place(static_cast<std::size_t>(ox) * oy);
  int oy0 = 0;
  int py0 = 0;
  for (int i = 0; i < bands; ++i) {
    const int h = oh[static_cast<std::size_t>(i)];
    const int g = ph[static_cast<std::size_t>(i)];
    for (int k = 0; k < ox * h; ++k) {
      const int x = k / h;
      const int y = oy0 + (x % 2 == 0 ? k % h : h - 1 - k % h);
      const int column = k / g;
      const int row = column % 2 == 0 ? k % g : g - 1 - k % g;
      place[static_cast<std::size_t>(x + ox * y)] = column + px * (py0 + row);
    }
    oy0 += h;
    py0 += g;
  }
  return place;
}

// Maximum overlap. A block is a rectangle of objects in its own (u, v) frame; a rectangle of
// free processors is (x0, y0, w, h).
struct Block {
  int w = 0;
  int h = 0;
  std::vector<int> ids;  // ids[u + w * v]
};

Block transposed(const Block& b) {
  Block t{b.h, b.w, std::vector<int>(b.ids.size())};
  for (int v = 0; v < b.h; ++v) {
    for (int u = 0; u < b.w; ++u)
      t.ids[static_cast<std::size_t>(v + t.w * u)] = b.ids[static_cast<std::size_t>(u + b.w * v)];
  }
  return t;
}

Block mirrored(const Block& b, bool in_u, bool in_v) {
  Block m{b.w, b.h, std::vector<int>(b.ids.size())};
  for (int v = 0; v < b.h; ++v) {
    for (int u = 0; u < b.w; ++u) {
      const int su = in_u ? b.w - 1 - u : u;
      const int sv = in_v ? b.h - 1 - v : v;
      m.ids[static_cast<std::size_t>(u + b.w * v)] = b.ids[static_cast<std::size_t>(su + b.w * sv)];
    }
  }
  return m;
}

Block columns(const Block& b, int from) {  // columns [from, w)
  Block c{b.w - from, b.h, {}};
  for (int v = 0; v < b.h; ++v) {
    for (int u = from; u < b.w; ++u) c.ids.push_back(b.ids[static_cast<std::size_t>(u + b.w * v)]);
  }
  return c;
}

Block rows(const Block& b, int from) {  // rows [from, h)
  Block r{b.w, b.h - from, {}};
  for (int v = from; v < b.h; ++v) {
    for (int u = 0; u < b.w; ++u) r.ids.push_back(b.ids[static_cast<std::size_t>(u + b.w * v)]);
  }
  return r;
}

struct Rect {
  int x0 = 0;
  int y0 = 0;
  int w = 0;
  int h = 0;
};

struct Candidate {
  Block block;
  bool right = false;  // anchored at the rectangle's right (top) edge instead of its left
  bool top = false;
};

std::vector<std::int32_t> max_overlap(int ox, int oy, int px, int py, bool align) {
  Plane plane(px, py, ox * oy);
  // Sum of Manhattan distances from the overlap's objects to their placed grid neighbours.
  auto alignment_cost = [&](const Block& c, int bx, int by, int ow, int oh) {
    std::int64_t cost = 0;
    for (int v = 0; v < oh; ++v) {
      for (int u = 0; u < ow; ++u) {
        const int id = c.ids[static_cast<std::size_t>(u + c.w * v)];
        const int x = id % ox;
        const int y = id / ox;
        const std::array<std::array<int, 2>, 4> around{
            {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}}};
        for (const auto& [nx, ny] : around) {
          if (nx < 0 || nx >= ox || ny < 0 || ny >= oy) continue;
          const auto at = plane.place(nx + ox * ny);
          if (at < 0) continue;
          cost += std::abs(at % px - (bx + u)) + std::abs(at / px - (by + v));
        }
      }
    }
    return cost;
  };

  Block block{ox, oy, {}};
  for (int id = 0; id < ox * oy; ++id) block.ids.push_back(id);
  Rect free{0, 0, px, py};
  while (!block.ids.empty()) {
    std::vector<Candidate> candidates;
    for (const bool turn : {false, true}) {
      const Block oriented = turn ? transposed(block) : block;
      if (turn && block.w == block.h) continue;
      if (!align) {
        candidates.push_back({oriented, false, false});
        continue;
      }
      for (int mirror = 0; mirror < 4; ++mirror) {
        const Block m = mirrored(oriented, (mirror & 1) != 0, (mirror & 2) != 0);
        for (int anchor = 0; anchor < 4; ++anchor)
          candidates.push_back({m, (anchor & 1) != 0, (anchor & 2) != 0});
      }
    }
    const Candidate* best = nullptr;
    std::int64_t best_overlap = -1;
    std::int64_t best_cost = 0;
    for (const auto& c : candidates) {
      if (c.block.w > free.w && c.block.h > free.h) continue;  // cannot be completed
      const int ow = std::min(c.block.w, free.w);
      const int oh = std::min(c.block.h, free.h);
      const std::int64_t overlap = static_cast<std::int64_t>(ow) * oh;
      if (overlap < best_overlap) continue;
      const int bx = c.right ? free.x0 + free.w - ow : free.x0;
      const int by = c.top ? free.y0 + free.h - oh : free.y0;
      const std::int64_t cost = align ? alignment_cost(c.block, bx, by, ow, oh) : 0;
      if (overlap > best_overlap || cost < best_cost) {
        best = &c;
        best_overlap = overlap;
        best_cost = cost;
      }
    }
    MAPSIM_EXPECTS(best != nullptr, "maximum overlap found no way to lay the objects");
    const Block& c = best->block;
    const int ow = std::min(c.w, free.w);
    const int oh = std::min(c.h, free.h);
    const int bx = best->right ? free.x0 + free.w - ow : free.x0;
    const int by = best->top ? free.y0 + free.h - oh : free.y0;
    for (int v = 0; v < oh; ++v) {
      for (int u = 0; u < ow; ++u)
        plane.put(c.ids[static_cast<std::size_t>(u + c.w * v)], bx + u, by + v);
    }
    if (c.w > free.w) {  // columns stick out; the free rows remain
      block = columns(c, ow);
      free = {free.x0, best->top ? free.y0 : free.y0 + oh, free.w, free.h - oh};
    } else if (c.h > free.h) {  // rows stick out; the free columns remain
      block = rows(c, oh);
      free = {best->right ? free.x0 : free.x0 + ow, free.y0, free.w - ow, free.h};
    } else {
      block = {};
    }
  }
  return std::move(plane).result();
}

}  // namespace

std::string_view name(GridHeuristic heuristic) {
  switch (heuristic) {
    case GridHeuristic::Mxovlp:
      return "mxovlp";
    case GridHeuristic::MxovAl:
      return "mxov-al";
    case GridHeuristic::Exco:
      return "exco";
    case GridHeuristic::Coce:
      return "coce";
    case GridHeuristic::Affine:
      return "affine";
    case GridHeuristic::Step:
      return "step";
  }
  return "?";
}

std::vector<std::int32_t> embed_grid(GridHeuristic heuristic, int ox, int oy, int px, int py,
                                     AffineVariant variant) {
  MAPSIM_EXPECTS(ox >= 1 && oy >= 1 &&
                     static_cast<std::int64_t>(ox) * oy <= static_cast<std::int64_t>(px) * py,
                 "the object grid must fit the processor mesh");
  switch (heuristic) {
    case GridHeuristic::Mxovlp:
      return max_overlap(ox, oy, px, py, false);
    case GridHeuristic::MxovAl:
      return max_overlap(ox, oy, px, py, true);
    case GridHeuristic::Exco:
      return exco(ox, oy, px, py);
    case GridHeuristic::Coce:
      return coce(ox, oy, px, py);
    case GridHeuristic::Affine:
      return affine(ox, oy, px, py, variant);
    case GridHeuristic::Step:
      return step(ox, oy, px, py);
  }
  return {};
}

}  // namespace mapsim::map
