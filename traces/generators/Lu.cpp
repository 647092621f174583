// NPB 3.4 LU (docs/workloads.md §3): SSOR on an nx0 × ny0 × nz0 grid split into 2-D pencils.
//
// Grid: ydim = the largest divisor of N ≤ √N, xdim = N / ydim (xdim ≤ 2·ydim); rank id has
// row = id mod xdim (i, splits nx0) and col = id div xdim (j, splits ny0); neighbours north = id−1,
// south = id+1, west = id−xdim, east = id+xdim where they exist (non-periodic).
// nx(row) = ⌊nx0/xdim⌋ + [row < nx0 mod xdim], ny(col) likewise, Li = nx − [row = 0] −
// [row = xdim−1], Lj = ny − [col = 0] − [col = ydim−1].
// Program (per rank): 10 Bcast; erhs halo; ssor(1) (warm-up); ssor(itmax); error Allreduce;
// pintgr (exchange_4/5/6 + 3 Allreduce). ssor(n): halo, l2norm Allreduce, Barrier; n × [lower
// wavefront over k = 2 … nz0−1 (Recv N, Recv W, compute, Send S, Send E; 5·Lj / 5·Li doubles,
// tags 2 / 4), upper wavefront over k = nz0−1 … 2 (Recv S, Recv E, compute, Send N, Send W;
// tags 1 / 3), l2norm Allreduce if istep mod inorm = 0, halo, l2norm Allreduce if istep mod inorm
// = 0 or istep = itmax]; timing Allreduce. Halo (exchange_3): Irecv/Send/Wait pairs N-S (tags
// 2, 1; 10·ny·nz0 doubles) then W-E (tags 4, 3; 10·nx·nz0 doubles).
//
// Compute model (flops, at kFlopsPerNs): per local point (nx·ny·nz0) and SSOR iteration 2000 —
// jacld+blts 750 and jacu+buts 750 per point of each k-plane, spent between a plane's receives
// and sends; rhs 500 after each halo exchange (close to NPB's own count, ≈1985·nx0·ny0·nz0 per
// iteration). Setup (setbv, setiv, erhs) 800 per point once; l2norm 10 per point before its
// Allreduce; error 50 per point; pintgr 20 per point of the rank's k-plane.

#include <array>

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr double kSweepFlops = 750;  // per point of a k-plane, per sweep
constexpr double kRhsFlops = 500;
constexpr double kSetupFlops = 800;
constexpr double kNormFlops = 10;
constexpr double kErrorFlops = 50;
constexpr double kIntegralFlops = 20;

struct LuGrid {
  std::int64_t xdim = 1;
  std::int64_t ydim = 1;
};

LuGrid lu_grid(std::int64_t n) {
  std::int64_t ydim = 1;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d == 0) ydim = d;
  }
  return {n / ydim, ydim};
}

class Lu final : public Workload {
 public:
  Lu(Rank ranks, std::int64_t size, std::int64_t itmax, std::int64_t inorm)
      : ranks_(ranks), grid_(lu_grid(ranks)), n0_(size), itmax_(itmax), inorm_(inorm) {}

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return itmax_; }
  /// Every SSOR step sends the same wavefront and halo messages; only the l2norm Allreduces
  /// depend on the step (every inorm steps and at itmax).
  [[nodiscard]] bool affine_in_iterations(bool collectives) const override { return !collectives; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(ranks_)};
  }

  void run(Mpi& mpi) const override {
    const Rank id = mpi.rank();
    Place r{};
    r.row = id % grid_.xdim;
    r.col = id / grid_.xdim;
    r.north = r.row > 0 ? id - 1 : -1;
    r.south = r.row < grid_.xdim - 1 ? id + 1 : -1;
    r.west = r.col > 0 ? id - static_cast<Rank>(grid_.xdim) : -1;
    r.east = r.col < grid_.ydim - 1 ? id + static_cast<Rank>(grid_.xdim) : -1;
    r.nx = block_size(n0_, grid_.xdim, r.row);
    r.ny = block_size(n0_, grid_.ydim, r.col);
    r.li = r.nx - (r.row == 0 ? 1 : 0) - (r.row == grid_.xdim - 1 ? 1 : 0);
    r.lj = r.ny - (r.col == 0 ? 1 : 0) - (r.col == grid_.ydim - 1 ? 1 : 0);
    const double points = static_cast<double>(r.nx * r.ny * n0_);

    mpi.init();
    for (const std::int64_t bytes : {4, 4, 4, 8, 8, 40, 4, 4, 4, 4}) mpi.bcast(bytes);
    mpi.flops(kSetupFlops * points);
    halo(mpi, r);  // erhs
    mpi.flops(kRhsFlops * points);
    ssor(mpi, r, 1);
    ssor(mpi, r, itmax_);
    mpi.flops(kErrorFlops * points);
    mpi.allreduce(5 * kDouble);
    pintgr(mpi, r);
    mpi.finalize();
  }

 private:
  struct Place {
    std::int64_t row = 0, col = 0, nx = 0, ny = 0, li = 0, lj = 0;
    Rank north = -1, south = -1, west = -1, east = -1;
  };

  void l2norm(Mpi& mpi, const Place& r) const {
    mpi.flops(kNormFlops * static_cast<double>(r.nx * r.ny * n0_));
    mpi.allreduce(5 * kDouble);
  }

  void ssor(Mpi& mpi, const Place& r, std::int64_t steps) const {
    const double points = static_cast<double>(r.nx * r.ny * n0_);
    const double plane = static_cast<double>(r.nx * r.ny);
    const std::int64_t ns_bytes = 5 * r.lj * kDouble;  // wavefront plane to north / south
    const std::int64_t ew_bytes = 5 * r.li * kDouble;  // to west / east
    halo(mpi, r);
    mpi.flops(kRhsFlops * points);
    l2norm(mpi, r);
    mpi.barrier();
    for (std::int64_t istep = 1; istep <= steps; ++istep) {
      for (std::int64_t k = 2; k <= n0_ - 1; ++k) {
        if (r.north >= 0) mpi.recv(r.north, 2, ns_bytes);
        if (r.west >= 0) mpi.recv(r.west, 4, ew_bytes);
        mpi.flops(kSweepFlops * plane);
        if (r.south >= 0) mpi.send(r.south, 2, ns_bytes);
        if (r.east >= 0) mpi.send(r.east, 4, ew_bytes);
      }
      for (std::int64_t k = n0_ - 1; k >= 2; --k) {
        if (r.south >= 0) mpi.recv(r.south, 1, ns_bytes);
        if (r.east >= 0) mpi.recv(r.east, 3, ew_bytes);
        mpi.flops(kSweepFlops * plane);
        if (r.north >= 0) mpi.send(r.north, 1, ns_bytes);
        if (r.west >= 0) mpi.send(r.west, 3, ew_bytes);
      }
      // The norm test compares against the class's itmax, also in the warm-up ssor(1).
      if (istep % inorm_ == 0) l2norm(mpi, r);
      halo(mpi, r);
      mpi.flops(kRhsFlops * points);
      if (istep % inorm_ == 0 || istep == itmax_) l2norm(mpi, r);
    }
    mpi.allreduce(kDouble);  // MAX of the timers
  }

  // exchange_3: north-south then west-east, each direction Irecv / Send / Wait.
  void halo(Mpi& mpi, const Place& r) const {
    const std::int64_t ns_bytes = 10 * r.ny * n0_ * kDouble;
    const std::int64_t ew_bytes = 10 * r.nx * n0_ * kDouble;
    exchange(mpi, r.north, r.south, 2, ns_bytes);
    exchange(mpi, r.south, r.north, 1, ns_bytes);
    exchange(mpi, r.west, r.east, 4, ew_bytes);
    exchange(mpi, r.east, r.west, 3, ew_bytes);
  }

  // Irecv from `from`, Send to `to`, Wait: each skipped where the neighbour does not exist.
  static void exchange(Mpi& mpi, Rank from, Rank to, std::int32_t tag, std::int64_t bytes) {
    RequestId request = 0;
    if (from >= 0) request = mpi.irecv(from, tag, bytes);
    if (to >= 0) mpi.send(to, tag, bytes);
    if (from >= 0) mpi.wait(request);
  }

  // Receive (Irecv + Wait) from `from`, then send to `to`: a chain along one direction.
  static void chain(Mpi& mpi, Rank from, Rank to, std::int32_t tag, std::int64_t bytes) {
    if (from >= 0) mpi.wait(mpi.irecv(from, tag, bytes));
    if (to >= 0) mpi.send(to, tag, bytes);
  }

  void pintgr(Mpi& mpi, const Place& r) const {
    mpi.flops(kIntegralFlops * static_cast<double>(r.nx * r.ny));
    // exchange_4: west-going 2·nx doubles (tag 3), then north-going 2·(ny+2) doubles (tag 1).
    chain(mpi, r.east, r.west, 3, 2 * r.nx * kDouble);
    chain(mpi, r.south, r.north, 1, 2 * (r.ny + 2) * kDouble);
    mpi.allreduce(kDouble);
    // exchange_5: the first and the last column (both, if there is one column) send nz0 north.
    for (const std::int64_t col : {std::int64_t{0}, grid_.ydim - 1}) {
      if (r.col == col) chain(mpi, r.south, r.north, 1, n0_ * kDouble);
    }
    mpi.allreduce(kDouble);
    // exchange_6: the first and the last row send nz0 west.
    for (const std::int64_t row : {std::int64_t{0}, grid_.xdim - 1}) {
      if (r.row == row) chain(mpi, r.east, r.west, 3, n0_ * kDouble);
    }
    mpi.allreduce(kDouble);
  }

  Rank ranks_;
  LuGrid grid_;
  std::int64_t n0_;  // nx0 = ny0 = nz0
  std::int64_t itmax_;
  std::int64_t inorm_;
};

}  // namespace

std::unique_ptr<Workload> make_lu(const GeneratorOptions& options) {
  const std::int64_t size =
      by_class<std::int64_t>(options.problem_class, {12, 33, 64, 102, 162, 408});
  const std::int64_t class_itmax =
      by_class<std::int64_t>(options.problem_class, {50, 300, 250, 250, 250, 300});
  check_ranks(options,
              "xdim <= 2*ydim (ydim = largest divisor of N <= sqrt(N), xdim = N/ydim) and at "
              "least 3 points per rank in x and y",
              [&](Rank n) {
                const auto grid = lu_grid(n);
                return grid.xdim <= 2 * grid.ydim && size / grid.xdim >= 3 && size / grid.ydim >= 3;
              });
  return std::make_unique<Lu>(options.ranks, size, iterations_or(options, class_itmax),
                              class_itmax);
}

}  // namespace mapsim::traces
