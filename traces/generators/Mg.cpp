// NPB 3.4 MG (docs/workloads.md §6): V-cycle multigrid on an nx³ grid, 3-D decomposition.
//
// nprocs = 2^⌊log2 N⌋ ranks work (comm_work, split from WORLD; the others get their own and go
// straight to finalize). L = log2 nprocs, px = 2^⌊L/3⌋, py = 2^⌊(L−⌊L/3⌋)/2⌋, pz = nprocs/(px·py);
// me = ix + px·(iy + py·iz). Levels k = 1 … lt (lt = log2 nx), ng(k) = nx / 2^(lt−k) points per
// axis; extent with ghosts m_a(k) = 2 + ⌊(idx+1)·ng/p_a⌋ − ⌊idx·ng/p_a⌋; a rank is dead at level k
// if some m_a = 2. Neighbour distance d_a: 1 at the finest level, doubled (walking to coarser
// levels) at each level where the rank or the rank at idx + d_a has no points; neighbours idx ±
// d_a (mod p_a), so dead ranks are skipped (and p_a ≤ 2 gives self or duplicate partners).
// comm3 at level k (live ranks), per axis: Irecv from nbr+ (tag a100) and nbr− (a300), Send to
// nbr+ (a300) and nbr− (a100), Wait, Wait; doubles (m2−2)(m3−2), m1(m3−2), m1·m2 for a = 1, 2, 3.
// comm3_ex at level k (interpolation from k−1), per axis: a live rank that has one point at k−1
// while its nbr+ has none gives 2 planes to nbr+ (a300) and 1 plane to nbr− (a100); one with
// none whose nbr+ has one takes (Irecv from nbr+ and nbr−, 2 Waits). Plane = m2·m3, m1·m3, m1·m2.
// Program: split, Barrier, 7 Bcasts (4, 4, 4, 4, 4, 32, 4 B); zran3 (Barrier, 10 × [Allreduce 8,
// 16, 8, 16 B], Barrier, comm3(lt)); norm2u3 (2 × Allreduce 8 B); resid; norm2u3; warm-up V-cycle
// + resid; zran3; Barrier; resid; norm2u3; nit × [V-cycle, resid]; norm2u3; Reduce 8 B root 0 —
// every collective on comm_work. resid = comm3(lt). V-cycle: k = lt … 2: comm3(k−1)
// (restriction); comm3(1) (smoother); k = 2 … lt: comm3_ex(k), comm3(k) (resid), comm3(k)
// (smoother).
//
// Compute model (flops per interior point of the rank at the level): restriction 8, smoother
// 20, resid 20, interpolation 10 (≈58 per finest point per V-cycle, NPB's count); zran3 20 and
// norm2u3 4 per finest point.

#include <array>

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr CommId kWork = 1;
constexpr CommId kIdle = 2;
constexpr double kRestrictFlops = 8;
constexpr double kSmoothFlops = 20;
constexpr double kResidFlops = 20;
constexpr double kInterpFlops = 10;
constexpr double kZran3Flops = 20;
constexpr double kNormFlops = 4;

struct ProcGrid {
  std::array<std::int64_t, 3> p{1, 1, 1};
};

ProcGrid mg_grid(std::int64_t active) {
  const int l = floor_log2(active);
  const int lx = l / 3;
  const int ly = (l - lx) / 2;
  ProcGrid grid;
  grid.p = {std::int64_t{1} << lx, std::int64_t{1} << ly, std::int64_t{1} << (l - lx - ly)};
  return grid;
}

class Mg final : public Workload {
 public:
  Mg(Rank ranks, std::int64_t nx, std::int64_t nit)
      : ranks_(ranks),
        active_(static_cast<Rank>(floor_pow2(ranks))),
        grid_(mg_grid(active_)),
        nx_(nx),
        lt_(floor_log2(nx)),
        nit_(nit) {}

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return nit_; }
  /// Every iteration is one V-cycle and resid, the same whatever the iteration.
  [[nodiscard]] bool affine_in_iterations(bool /*collectives*/) const override { return true; }

  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    std::vector<CommSpec> comms{world_communicator(ranks_)};
    CommSpec work{"comm_work", {}, kWorld};
    for (Rank r = 0; r < active_; ++r) work.members.push_back(r);
    comms.push_back(std::move(work));
    if (ranks_ > active_) {
      CommSpec idle{"comm_work (idle ranks)", {}, kWorld};
      for (Rank r = active_; r < ranks_; ++r) idle.members.push_back(r);
      comms.push_back(std::move(idle));
    }
    return comms;
  }

  void run(Mpi& mpi) const override {
    mpi.init();
    if (mpi.rank() >= active_) {
      mpi.comm_split(kWorld, kIdle);
      mpi.finalize();
      return;
    }
    const Place place = locate(mpi.rank());
    mpi.comm_split(kWorld, kWork);
    mpi.barrier(kWork);
    for (const std::int64_t bytes : {4, 4, 4, 4, 4, 32, 4}) mpi.bcast(bytes, 0, kWork);
    zran3(mpi, place);
    norm2u3(mpi, place);
    resid(mpi, place);
    norm2u3(mpi, place);
    vcycle(mpi, place);  // warm-up
    resid(mpi, place);
    zran3(mpi, place);
    mpi.barrier(kWork);
    resid(mpi, place);
    norm2u3(mpi, place);
    for (std::int64_t it = 0; it < nit_; ++it) {
      vcycle(mpi, place);
      resid(mpi, place);
    }
    norm2u3(mpi, place);
    mpi.reduce(kDouble, 0, kWork);
    mpi.finalize();
  }

 private:
  /// A rank's position, extents and neighbours, per level (index k, 1 … lt).
  struct Place {
    std::array<std::int64_t, 3> idx{};
    std::vector<std::array<std::int64_t, 3>> m;     // extents with ghosts
    std::vector<std::array<std::int64_t, 3>> dist;  // neighbour distances
  };

  [[nodiscard]] std::int64_t extent(int axis, std::int64_t idx, int k) const {
    const std::int64_t ng = nx_ >> (lt_ - k);
    const std::int64_t p = grid_.p[static_cast<std::size_t>(axis)];
    return 2 + (idx + 1) * ng / p - idx * ng / p;
  }

  [[nodiscard]] Place locate(Rank me) const {
    Place place;
    const auto& p = grid_.p;
    place.idx = {me % p[0], (me / p[0]) % p[1], me / (p[0] * p[1])};
    place.m.resize(static_cast<std::size_t>(lt_ + 1));
    place.dist.resize(static_cast<std::size_t>(lt_ + 1));
    std::array<std::int64_t, 3> dist{1, 1, 1};
    for (int k = lt_; k >= 1; --k) {
      for (int a = 0; a < 3; ++a) {
        const auto ua = static_cast<std::size_t>(a);
        const std::int64_t idx = place.idx[ua];
        place.m[static_cast<std::size_t>(k)][ua] = extent(a, idx, k);
        if (extent(a, idx, k) == 2 || extent(a, (idx + dist[ua]) % p[ua], k) == 2) dist[ua] *= 2;
      }
      place.dist[static_cast<std::size_t>(k)] = dist;
    }
    return place;
  }

  [[nodiscard]] Rank neighbour(const Place& place, int axis, int k, int sign) const {
    auto idx = place.idx;
    const auto ua = static_cast<std::size_t>(axis);
    const std::int64_t p = grid_.p[ua];
    idx[ua] = ((idx[ua] + sign * place.dist[static_cast<std::size_t>(k)][ua]) % p + p) % p;
    return static_cast<Rank>(idx[0] + grid_.p[0] * (idx[1] + grid_.p[1] * idx[2]));
  }

  [[nodiscard]] static bool alive(const Place& place, int k) {
    const auto& m = place.m[static_cast<std::size_t>(k)];
    return m[0] > 2 && m[1] > 2 && m[2] > 2;
  }

  [[nodiscard]] static double points(const Place& place, int k) {
    const auto& m = place.m[static_cast<std::size_t>(k)];
    return static_cast<double>((m[0] - 2) * (m[1] - 2) * (m[2] - 2));
  }

  static std::int32_t tag(int axis, bool towards_plus) {
    return static_cast<std::int32_t>(1000 * (axis + 1) + (towards_plus ? 300 : 100));
  }

  void comm3(Mpi& mpi, const Place& place, int k) const {
    if (!alive(place, k)) return;
    const auto& m = place.m[static_cast<std::size_t>(k)];
    const std::array<std::int64_t, 3> doubles{(m[1] - 2) * (m[2] - 2), m[0] * (m[2] - 2),
                                              m[0] * m[1]};
    for (int a = 0; a < 3; ++a) {
      const auto bytes = doubles[static_cast<std::size_t>(a)] * kDouble;
      const Rank plus = neighbour(place, a, k, +1);
      const Rank minus = neighbour(place, a, k, -1);
      const RequestId from_plus = mpi.irecv(plus, tag(a, false), bytes, kWork);
      const RequestId from_minus = mpi.irecv(minus, tag(a, true), bytes, kWork);
      mpi.send(plus, tag(a, true), bytes, kWork);
      mpi.send(minus, tag(a, false), bytes, kWork);
      mpi.wait(from_plus);
      mpi.wait(from_minus);
    }
  }

  void comm3_ex(Mpi& mpi, const Place& place, int k) const {
    if (!alive(place, k)) return;
    const auto& m = place.m[static_cast<std::size_t>(k)];
    const std::array<std::int64_t, 3> plane{m[1] * m[2], m[0] * m[2], m[0] * m[1]};
    for (int a = 0; a < 3; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      const Rank plus = neighbour(place, a, k, +1);
      const Rank minus = neighbour(place, a, k, -1);
      const std::int64_t p = grid_.p[ua];
      const std::int64_t idx = place.idx[ua];
      const bool mine = extent(a, idx, k - 1) > 2;
      const bool next =
          extent(a, (idx + place.dist[static_cast<std::size_t>(k)][ua]) % p, k - 1) > 2;
      const auto bytes = plane[ua] * kDouble;
      if (mine && !next) {
        mpi.send(plus, tag(a, true), 2 * bytes, kWork);
        mpi.send(minus, tag(a, false), bytes, kWork);
      } else if (!mine && next) {
        const RequestId from_plus = mpi.irecv(plus, tag(a, false), bytes, kWork);
        const RequestId from_minus = mpi.irecv(minus, tag(a, true), 2 * bytes, kWork);
        mpi.wait(from_plus);
        mpi.wait(from_minus);
      }
    }
  }

  void resid(Mpi& mpi, const Place& place, int k) const {
    mpi.flops(kResidFlops * points(place, k));
    comm3(mpi, place, k);
  }
  void resid(Mpi& mpi, const Place& place) const { resid(mpi, place, lt_); }

  void smooth(Mpi& mpi, const Place& place, int k) const {
    mpi.flops(kSmoothFlops * points(place, k));
    comm3(mpi, place, k);
  }

  void vcycle(Mpi& mpi, const Place& place) const {
    for (int k = lt_; k >= 2; --k) {
      mpi.flops(kRestrictFlops * points(place, k - 1));
      comm3(mpi, place, k - 1);
    }
    smooth(mpi, place, 1);
    for (int k = 2; k <= lt_; ++k) {
      mpi.flops(kInterpFlops * points(place, k));
      comm3_ex(mpi, place, k);
      resid(mpi, place, k);
      smooth(mpi, place, k);
    }
  }

  void zran3(Mpi& mpi, const Place& place) const {
    mpi.flops(kZran3Flops * points(place, lt_));
    mpi.barrier(kWork);
    for (int i = 0; i < 10; ++i) {
      for (const std::int64_t bytes : {8, 16, 8, 16}) mpi.allreduce(bytes, kWork);
    }
    mpi.barrier(kWork);
    comm3(mpi, place, lt_);
  }

  void norm2u3(Mpi& mpi, const Place& place) const {
    mpi.flops(kNormFlops * points(place, lt_));
    mpi.allreduce(kDouble, kWork);
    mpi.allreduce(kDouble, kWork);
  }

  Rank ranks_;
  Rank active_;
  ProcGrid grid_;
  std::int64_t nx_;
  int lt_;
  std::int64_t nit_;
};

}  // namespace

std::unique_ptr<Workload> make_mg(const GeneratorOptions& options) {
  const auto c = options.problem_class;
  const auto nx = by_class<std::int64_t>(c, {32, 128, 256, 256, 512, 1024});
  const auto nit = by_class<std::int64_t>(c, {4, 4, 4, 20, 20, 50});
  check_ranks(options, "px, py, pz <= nx for the 2^floor(log2 N) working ranks", [&](Rank n) {
    const auto grid = mg_grid(floor_pow2(n));
    return grid.p[0] <= nx && grid.p[1] <= nx && grid.p[2] <= nx;
  });
  return std::make_unique<Mg>(options.ranks, nx, iterations_or(options, nit));
}

}  // namespace mapsim::traces
