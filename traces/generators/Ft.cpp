// NPB 3.4 FT (docs/workloads.md §7): 3-D FFT of an nx × ny × nz grid, transposes by MPI_Alltoall,
// no point-to-point.
//
// np_min = 2^⌊log2 N⌋ fixes the layout: 0-D if np_min = 1 (no transposes), 1-D (np1 = 1,
// np2 = np_min) if np_min ≤ nz, else 2-D (np1 = nz, np2 = np_min/nz). me1 = me div np2,
// me2 = me mod np2; commslice1 = the ranks with my me1, commslice2 = those with my me2 (when N
// is not a power of two the surplus ranks form smaller slices). ntdivnp = nx·ny·nz / np_min.
// One FFT: 1-D: Alltoall on commslice1 with ⌊ntdivnp/N⌋ double complex per peer (16 B each);
// 2-D: Alltoall on commslice2 with ⌊ntdivnp/np1⌋ per peer, then on commslice1 with
// ⌊ntdivnp/np2⌋ (the inverse FFT in the reverse order). (⌊ntdivnp/N⌋ reproduces the
// non-power-of-two trace ft.S.12; for 2-D layouts with N not a power of two the per-peer counts
// are the rule of docs/workloads.md §7, not checked against a trace.)
// Program: 5 Bcasts 4 B (WORLD); Comm_split → commslice1, Comm_split → commslice2; forward FFT
// (warm-up); Barrier (WORLD); forward FFT; niter × [evolve, inverse FFT, checksum Reduce 16 B
// root 0 on WORLD].
//
// Compute model (flops per rank, n = nx·ny·nz): one 3-D FFT 5·n·log2(n)/N, split evenly over the
// one-dimensional FFT passes between the transposes; initial conditions 20·n/N; evolve 8·n/N;
// checksum 2048 (1024 points).

#include <array>

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kComplex = 16;

class Ft final : public Workload {
 public:
  Ft(Rank ranks, std::array<std::int64_t, 3> dims, std::int64_t niter)
      : ranks_(ranks), np_min_(floor_pow2(ranks)), niter_(niter) {
    const std::int64_t nz = dims[2];
    total_ = dims[0] * dims[1] * dims[2];
    layout_ = np_min_ == 1 ? 0 : np_min_ <= nz ? 1 : 2;
    np1_ = layout_ == 2 ? nz : 1;
    np2_ = np_min_ / np1_;
    ntdivnp_ = total_ / np_min_;
    const double n = static_cast<double>(total_);
    fft_ = 5 * n * std::log2(n) / ranks;
    evolve_ = 8 * n / ranks;
    setup_ = 20 * n / ranks;
  }

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return niter_; }
  /// Every iteration is evolve, one inverse FFT and the checksum Reduce, whatever the iteration.
  [[nodiscard]] bool affine_in_iterations(bool /*collectives*/) const override { return true; }

  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    std::vector<CommSpec> comms{world_communicator(ranks_)};
    for (std::int64_t me1 = 0; me1 <= (ranks_ - 1) / np2_; ++me1) {
      CommSpec slice{"commslice1", {}, kWorld};
      for (std::int64_t me2 = 0; me2 < np2_ && me1 * np2_ + me2 < ranks_; ++me2) {
        slice.members.push_back(static_cast<Rank>(me1 * np2_ + me2));
      }
      comms.push_back(std::move(slice));
    }
    for (std::int64_t me2 = 0; me2 < np2_ && me2 < ranks_; ++me2) {
      CommSpec slice{"commslice2", {}, kWorld};
      for (std::int64_t me = me2; me < ranks_; me += np2_)
        slice.members.push_back(static_cast<Rank>(me));
      comms.push_back(std::move(slice));
    }
    return comms;
  }

  void run(Mpi& mpi) const override {
    const Rank me = mpi.rank();
    const auto slice1 = static_cast<CommId>(1 + me / np2_);
    const auto slice2 = static_cast<CommId>(1 + (ranks_ - 1) / np2_ + 1 + me % np2_);
    mpi.init();
    for (int i = 0; i < 5; ++i) mpi.bcast(4);
    mpi.comm_split(kWorld, slice1);
    mpi.comm_split(kWorld, slice2);
    mpi.flops(setup_);
    fft(mpi, slice1, slice2, true);  // warm-up
    mpi.barrier();
    fft(mpi, slice1, slice2, true);
    for (std::int64_t it = 0; it < niter_; ++it) {
      mpi.flops(evolve_);
      fft(mpi, slice1, slice2, false);
      mpi.flops(2048);
      mpi.reduce(kComplex);
    }
    mpi.finalize();
  }

 private:
  void fft(Mpi& mpi, CommId slice1, CommId slice2, bool forward) const {
    switch (layout_) {
      case 0:
        mpi.flops(fft_);
        break;
      case 1:
        mpi.flops(fft_ * 2 / 3);
        mpi.alltoall(ntdivnp_ / ranks_ * kComplex, slice1);
        mpi.flops(fft_ / 3);
        break;
      default: {
        const std::array<std::pair<CommId, std::int64_t>, 2> passes{
            {{slice2, ntdivnp_ / np1_}, {slice1, ntdivnp_ / np2_}}};
        mpi.flops(fft_ / 3);
        for (int i = 0; i < 2; ++i) {
          const auto& [comm, per_peer] = passes[static_cast<std::size_t>(forward ? i : 1 - i)];
          mpi.alltoall(per_peer * kComplex, comm);
          mpi.flops(fft_ / 3);
        }
      }
    }
  }

  Rank ranks_;
  std::int64_t np_min_;
  std::int64_t niter_;
  std::int64_t total_ = 0;
  int layout_ = 0;
  std::int64_t np1_ = 1;
  std::int64_t np2_ = 1;
  std::int64_t ntdivnp_ = 0;
  double fft_ = 0;
  double evolve_ = 0;
  double setup_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_ft(const GeneratorOptions& options) {
  const auto c = options.problem_class;
  const auto dims = by_class<std::array<std::int64_t, 3>>(c, {{{64, 64, 64},
                                                               {128, 128, 32},
                                                               {256, 256, 128},
                                                               {512, 256, 256},
                                                               {512, 512, 512},
                                                               {2048, 1024, 1024}}});
  const auto niter = by_class<std::int64_t>(c, {6, 6, 6, 20, 20, 25});
  check_ranks(options, "2^floor(log2 N) <= ny*nz",
              [&](Rank n) { return floor_pow2(n) <= dims[1] * dims[2]; });
  return std::make_unique<Ft>(options.ranks, dims, iterations_or(options, niter));
}

}  // namespace mapsim::traces
