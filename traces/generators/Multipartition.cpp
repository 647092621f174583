// NPB 3.4 BT and SP (docs/workloads.md §4): ADI on a G³ grid in a diagonal multipartition.
//
// p = ⌊√N⌋; ranks 0 … p²−1 work, the others only split off and wait at the final barrier.
// Rank r = i + p·j owns cells c = 0 … p−1 at 0-based cell coordinates ((i+c) mod p, (j−c) mod p,
// c); a cell coordinate x has q + [x < G mod p] points (q = ⌊G/p⌋ ≥ 3). Partners: succ/pred in
// x ((i±1) mod p, j), y (i, (j±1) mod p), z ((i∓1) mod p, (j±1) mod p).
// Communicators: comm_setup = split of WORLD (active ranks; the idle ones get their own),
// comm_solve and comm_rhs = two dups of comm_setup (same numbering as WORLD).
// Program: split, 2 dups, Bcasts (BT 6, SP 4) on comm_setup; adi (warm-up); Barrier(comm_setup);
// niter × adi; Allreduce 40 B, copy_faces, Allreduce 40 B, Reduce 8 B (root 0), all on
// comm_setup; Barrier(WORLD). adi = copy_faces, then the x, y and z line solves.
// copy_faces (comm_rhs): 6 Irecv (succ_x 3000, pred_x 2000, succ_y 5000, pred_y 4000, succ_z
// 6000, pred_z 7000), 6 Isend (succ_x 2000, pred_x 3000, succ_y 4000, pred_y 5000, succ_z 7000,
// pred_z 6000), Waitall(12); sizes Σ over the sender's cells not on the face's boundary of
// 10 × (face points) doubles.
// Line solve in direction d (comm_solve), stage s working on the cell with d-coordinate s−1:
//   BT: forward stage 1 Isend 240·MCD² B to succ; stage s ≥ 2 Irecv from pred, Wait(previous
//   Isend), Wait(Irecv), Isend unless s = p; backward from stage p the same towards pred with
//   40·MCD² B (MCD = ⌊G/p⌋ + 1). Tags 3000/2000 + jp + kp·p (x), 5000/4000 + ip + kp·p (y),
//   6000/7000 + ip + jp·p (z) of the sending cell.
//   SP: tag 0; forward stage s ≥ 2 Irecv, Waitall(Irecv, previous Isend), Isend 22·b doubles
//   unless s = p; backward 10·b doubles; b = product of the sending cell's sizes in the two other
//   directions, each less its boundary points ([coord = 0] + [coord = p−1]).
//
// Compute model (flops per grid point of the cells concerned): BT (≈3500 per point and time
// step, as NPB's count 3478.8·G³): compute_rhs 900 after copy_faces; per direction 600 in the
// forward and 200 in the backward stage of each cell; add 100. SP (≈880 per point and step):
// compute_rhs 300, txinvr 30, per direction 100 forward and 50 backward, add 20. Both: setup
// 500 per point; each verification norm 50 per point.

#include <array>

#include "support/Error.hpp"
#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr CommId kSetup = 1;

enum class Solver { Bt, Sp };

struct Flops {
  double rhs, txinvr, forward, backward, add;
};
constexpr Flops kBtFlops{900, 0, 600, 200, 100};
constexpr Flops kSpFlops{300, 30, 100, 50, 20};
constexpr double kSetupFlops = 500;
constexpr double kNormFlops = 50;

struct Cell {
  std::array<std::int64_t, 3> coord{};  // x, y, z cell coordinates
  std::array<std::int64_t, 3> size{};   // points per direction
};

class Multipartition final : public Workload {
 public:
  Multipartition(Solver solver, Rank ranks, std::int64_t grid, std::int64_t niter)
      : solver_(solver), ranks_(ranks), p_(isqrt(ranks)), g_(grid), niter_(niter) {
    // Communicator ids: 1 comm_setup, [2 idle ranks], then comm_solve and comm_rhs.
    const bool idle = static_cast<std::int64_t>(ranks_) > p_ * p_;
    solve_ = static_cast<CommId>(idle ? 3 : 2);
    rhs_ = static_cast<CommId>(solve_ + 1);
  }

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return niter_; }
  /// Every time step is one adi, the same whatever the step.
  [[nodiscard]] bool affine_in_iterations(bool /*collectives*/) const override { return true; }

  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    std::vector<CommSpec> comms{world_communicator(ranks_)};
    CommSpec setup{"comm_setup", {}, kWorld};
    for (Rank r = 0; r < active(); ++r) setup.members.push_back(r);
    comms.push_back(setup);
    if (ranks_ > active()) {
      CommSpec idle{"comm_setup (idle ranks)", {}, kWorld};
      for (Rank r = active(); r < ranks_; ++r) idle.members.push_back(r);
      comms.push_back(idle);
    }
    comms.push_back({"comm_solve", setup.members, kSetup});
    comms.push_back({"comm_rhs", setup.members, kSetup});
    return comms;
  }

  void run(Mpi& mpi) const override {
    mpi.init();
    if (mpi.rank() >= active()) {
      mpi.comm_split(kWorld, 2);
      mpi.barrier();
      mpi.finalize();
      return;
    }
    mpi.comm_split(kWorld, kSetup);
    mpi.comm_dup(kSetup, solve_);
    mpi.comm_dup(kSetup, rhs_);
    if (solver_ == Solver::Bt) {
      for (const std::int64_t bytes : {4, 8, 12, 4, 4, 4}) mpi.bcast(bytes, 0, kSetup);
    } else {
      for (const std::int64_t bytes : {4, 8, 12, 4}) mpi.bcast(bytes, 0, kSetup);
    }
    const double points = rank_points(mpi.rank());
    mpi.flops(kSetupFlops * points);
    adi(mpi);
    mpi.barrier(kSetup);
    for (std::int64_t step = 0; step < niter_; ++step) adi(mpi);
    mpi.flops(kNormFlops * points);
    mpi.allreduce(5 * kDouble, kSetup);
    copy_faces(mpi);
    mpi.flops(kNormFlops * points);
    mpi.allreduce(5 * kDouble, kSetup);
    mpi.reduce(kDouble, 0, kSetup);
    mpi.barrier();
    mpi.finalize();
  }

 private:
  [[nodiscard]] Rank active() const { return static_cast<Rank>(p_ * p_); }
  [[nodiscard]] const Flops& flops() const { return solver_ == Solver::Bt ? kBtFlops : kSpFlops; }

  [[nodiscard]] std::int64_t points(std::int64_t coord) const {
    return g_ / p_ + (coord < g_ % p_ ? 1 : 0);
  }

  /// Cell c of rank r.
  [[nodiscard]] Cell cell(Rank r, std::int64_t c) const {
    const std::int64_t i = r % p_;
    const std::int64_t j = r / p_;
    Cell cell;
    cell.coord = {(i + c) % p_, ((j - c) % p_ + p_) % p_, c};
    for (int d = 0; d < 3; ++d)
      cell.size[static_cast<std::size_t>(d)] = points(cell.coord[static_cast<std::size_t>(d)]);
    return cell;
  }

  /// The cell of rank r whose coordinate in direction d is `coord` (its stage coord+1 there).
  [[nodiscard]] Cell cell_at(Rank r, int d, std::int64_t coord) const {
    const std::int64_t i = r % p_;
    const std::int64_t j = r / p_;
    const std::int64_t c = d == 0   ? ((coord - i) % p_ + p_) % p_
                           : d == 1 ? ((j - coord) % p_ + p_) % p_
                                    : coord;
    return cell(r, c);
  }

  [[nodiscard]] double rank_points(Rank r) const {
    double total = 0;
    for (std::int64_t c = 0; c < p_; ++c) {
      const auto s = cell(r, c).size;
      total += static_cast<double>(s[0] * s[1] * s[2]);
    }
    return total;
  }

  /// Partner of r in direction d: successor (+1) or predecessor (−1).
  [[nodiscard]] Rank partner(Rank r, int d, int sign) const {
    const std::int64_t i = r % p_;
    const std::int64_t j = r / p_;
    auto wrap = [&](std::int64_t v) { return (v % p_ + p_) % p_; };
    std::int64_t pi = i, pj = j;
    if (d == 0) pi = wrap(i + sign);
    if (d == 1) pj = wrap(j + sign);
    if (d == 2) {
      pi = wrap(i - sign);
      pj = wrap(j + sign);
    }
    return static_cast<Rank>(pi + p_ * pj);
  }

  /// copy_faces message of rank r towards direction d and side (+1: succ, −1: pred), in bytes:
  /// the faces of its cells that are not on the grid boundary on that side.
  [[nodiscard]] std::int64_t face_bytes(Rank r, int d, int sign) const {
    std::int64_t doubles = 0;
    for (std::int64_t c = 0; c < p_; ++c) {
      const Cell k = cell(r, c);
      const auto coord = k.coord[static_cast<std::size_t>(d)];
      if (coord == (sign > 0 ? p_ - 1 : 0)) continue;
      std::int64_t face = 10;
      for (int o = 0; o < 3; ++o) {
        if (o != d) face *= k.size[static_cast<std::size_t>(o)];
      }
      doubles += face;
    }
    return doubles * kDouble;
  }

  void copy_faces(Mpi& mpi) const {
    const Rank r = mpi.rank();
    if (p_ > 1) {
      // Irecv tags are the senders' Isend tags: from succ 3000/5000/6000, from pred 2000/4000/7000.
      constexpr std::array<std::int32_t, 3> kFromSucc{3000, 5000, 6000};
      constexpr std::array<std::int32_t, 3> kFromPred{2000, 4000, 7000};
      std::array<RequestId, 12> requests{};
      std::size_t n = 0;
      for (int d = 0; d < 3; ++d) {
        const Rank succ = partner(r, d, +1);
        const Rank pred = partner(r, d, -1);
        requests[n++] =
            mpi.irecv(succ, kFromSucc[static_cast<std::size_t>(d)], face_bytes(succ, d, -1), rhs_);
        requests[n++] =
            mpi.irecv(pred, kFromPred[static_cast<std::size_t>(d)], face_bytes(pred, d, +1), rhs_);
      }
      for (int d = 0; d < 3; ++d) {
        requests[n++] = mpi.isend(partner(r, d, +1), kFromPred[static_cast<std::size_t>(d)],
                                  face_bytes(r, d, +1), rhs_);
        requests[n++] = mpi.isend(partner(r, d, -1), kFromSucc[static_cast<std::size_t>(d)],
                                  face_bytes(r, d, -1), rhs_);
      }
      mpi.waitall(requests);
    }
    mpi.flops(flops().rhs * rank_points(r));
  }

  void adi(Mpi& mpi) const {
    const double points = rank_points(mpi.rank());
    copy_faces(mpi);
    if (solver_ == Solver::Sp) mpi.flops(flops().txinvr * points);
    for (int d = 0; d < 3; ++d) solve(mpi, d);
    mpi.flops(flops().add * points);
  }

  /// BT's tag of the message a cell sends in direction d (forward or backward).
  [[nodiscard]] std::int32_t bt_tag(const Cell& k, int d, bool forward) const {
    const auto [x, y, z] = k.coord;
    switch (d) {
      case 0:
        return static_cast<std::int32_t>((forward ? 3000 : 2000) + y + z * p_);
      case 1:
        return static_cast<std::int32_t>((forward ? 5000 : 4000) + x + z * p_);
      default:
        return static_cast<std::int32_t>((forward ? 6000 : 7000) + x + y * p_);
    }
  }

  /// The bytes a cell sends in direction d.
  [[nodiscard]] std::int64_t solve_bytes(const Cell& k, int d, bool forward) const {
    if (solver_ == Solver::Bt) {
      const std::int64_t mcd = g_ / p_ + 1;
      return (forward ? 30 : 5) * mcd * mcd * kDouble;
    }
    std::int64_t lines = 1;
    for (int o = 0; o < 3; ++o) {
      if (o == d) continue;
      const auto coord = k.coord[static_cast<std::size_t>(o)];
      lines *=
          k.size[static_cast<std::size_t>(o)] - (coord == 0 ? 1 : 0) - (coord == p_ - 1 ? 1 : 0);
    }
    return (forward ? 22 : 10) * lines * kDouble;
  }

  /// One message of the pipelined line solve from `from`'s cell at `coord` to this rank.
  RequestId receive(Mpi& mpi, Rank from, int d, std::int64_t coord, bool forward) const {
    const Cell sender = cell_at(from, d, coord);
    const std::int32_t tag = solver_ == Solver::Bt ? bt_tag(sender, d, forward) : 0;
    return mpi.irecv(from, tag, solve_bytes(sender, d, forward), solve_);
  }

  RequestId send(Mpi& mpi, Rank to, const Cell& k, int d, bool forward) const {
    const std::int32_t tag = solver_ == Solver::Bt ? bt_tag(k, d, forward) : 0;
    return mpi.isend(to, tag, solve_bytes(k, d, forward), solve_);
  }

  void complete(Mpi& mpi, RequestId sent, RequestId received) const {
    if (solver_ == Solver::Bt) {
      mpi.wait(sent);
      mpi.wait(received);
    } else {
      const std::array<RequestId, 2> both{received, sent};
      mpi.waitall(both);
    }
  }

  void solve(Mpi& mpi, int d) const {
    const Rank r = mpi.rank();
    const Rank succ = partner(r, d, +1);
    const Rank pred = partner(r, d, -1);
    auto work = [&](const Cell& k, double per_point) {
      mpi.flops(per_point * static_cast<double>(k.size[0] * k.size[1] * k.size[2]));
    };
    // Forward elimination: stage s works on the cell with coordinate s−1 in direction d.
    Cell k = cell_at(r, d, 0);
    work(k, flops().forward);
    if (p_ == 1) {
      work(k, flops().backward);
      return;
    }
    RequestId sent = send(mpi, succ, k, d, true);
    for (std::int64_t s = 2; s <= p_; ++s) {
      k = cell_at(r, d, s - 1);
      const RequestId received = receive(mpi, pred, d, s - 2, true);
      complete(mpi, sent, received);
      work(k, flops().forward);
      if (s < p_) sent = send(mpi, succ, k, d, true);
    }
    // Back substitution, stage p down to 1, towards the predecessor.
    work(k, flops().backward);
    sent = send(mpi, pred, k, d, false);
    for (std::int64_t s = p_ - 1; s >= 1; --s) {
      k = cell_at(r, d, s - 1);
      const RequestId received = receive(mpi, succ, d, s, false);
      complete(mpi, sent, received);
      work(k, flops().backward);
      if (s > 1) sent = send(mpi, pred, k, d, false);
    }
  }

  Solver solver_;
  Rank ranks_;
  std::int64_t p_;
  std::int64_t g_;
  std::int64_t niter_;
  CommId solve_ = 2;
  CommId rhs_ = 3;
};

std::unique_ptr<Workload> make_multipartition(Solver solver, const GeneratorOptions& options,
                                              const std::array<std::int64_t, 6>& grids,
                                              const std::array<std::int64_t, 6>& niters) {
  const std::int64_t grid = by_class(options.problem_class, grids);
  check_ranks(options, "at least 3 points per cell: floor(G/p) >= 3 with p = floor(sqrt(N))",
              [&](Rank n) { return grid / isqrt(n) >= 3; });
  return std::make_unique<Multipartition>(
      solver, options.ranks, grid, iterations_or(options, by_class(options.problem_class, niters)));
}

}  // namespace

std::unique_ptr<Workload> make_bt(const GeneratorOptions& options) {
  return make_multipartition(Solver::Bt, options, {12, 24, 64, 102, 162, 408},
                             {60, 200, 200, 200, 200, 250});
}

std::unique_ptr<Workload> make_sp(const GeneratorOptions& options) {
  return make_multipartition(Solver::Sp, options, {12, 36, 64, 102, 162, 408},
                             {100, 400, 400, 400, 400, 500});
}

}  // namespace mapsim::traces
