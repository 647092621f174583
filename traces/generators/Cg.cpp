// NPB 3.4 CG (docs/workloads.md §5): conjugate gradient on an na × na sparse matrix split over a
// 2-D process grid.
//
// N = 2^L; nprows = 2^⌊L/2⌋, npcols = 2^⌈L/2⌉; proc_row = me div npcols, proc_col = me mod npcols;
// l2 = log2 npcols. Butterfly partner_i = proc_row·npcols + (proc_col XOR npcols/2^i), tag i,
// i = 1 … l2. Transpose partner (tag 1): square grid (me mod nprows)·nprows + me div nprows,
// else 2·(((me div 2) mod nprows)·nprows + (me div 2) div nprows) + me mod 2.
// nrow = rows of the rank's block (na split into nprows blocks, the first na mod nprows one
// larger); send_len = nrow (square) or ⌈nrow/2⌉ / ⌊nrow/2⌋ for even / odd me (non-square).
// Row-sum piece to partner_i: send_len, except nrow − send_len to partner_l2 when non-square.
// Every exchange is Irecv, Send, Wait on MPI_COMM_WORLD.
// Program: Bcast 4 B; one untimed outer iteration; Barrier; niter outer iterations; Reduce 8 B
// root 0. Outer iteration: rho reduction (1 double to each partner_i, i = 1 … l2); 25 × [row sum
// (partner_l2 … partner_1), transpose, d reduction, rho reduction]; residual (row sum,
// transpose, d reduction); norm (2 doubles to each partner_i).
//
// Compute model (flops per rank): the matrix has about nonzer·(nonzer+1) + 1 non-zeros per row
// (NPB's makea); a mat-vec costs 2·nnz/N, a dot product or axpy 2·na/N. Each of the 25 inner
// steps: mat-vec before the row sum, a dot before the d reduction, 2 axpys + a dot before the
// rho reduction, an axpy after it; the residual: a mat-vec and a dot; the norm: 2 dots; setup
// (makea): 40·nnz/N once.

#include <array>

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr int kInnerSteps = 25;

class Cg final : public Workload {
 public:
  Cg(Rank ranks, std::int64_t na, std::int64_t nonzer, std::int64_t niter)
      : ranks_(ranks), na_(na), niter_(niter) {
    const int l = floor_log2(ranks);
    nprows_ = std::int64_t{1} << (l / 2);
    npcols_ = std::int64_t{1} << ((l + 1) / 2);
    l2_ = floor_log2(npcols_);
    const double nnz = static_cast<double>(na) * static_cast<double>(nonzer * (nonzer + 1) + 1);
    matvec_ = 2 * nnz / ranks;
    vector_ = 2 * static_cast<double>(na) / ranks;
    setup_ = 40 * nnz / ranks;
  }

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return niter_; }
  /// Every outer iteration makes the same exchanges whatever its index.
  [[nodiscard]] bool affine_in_iterations(bool /*collectives*/) const override { return true; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(ranks_)};
  }

  void run(Mpi& mpi) const override {
    mpi.init();
    mpi.bcast(4);
    mpi.flops(setup_);
    outer(mpi);
    mpi.barrier();
    for (std::int64_t it = 0; it < niter_; ++it) outer(mpi);
    mpi.reduce(kDouble);
    mpi.finalize();
  }

 private:
  [[nodiscard]] bool square() const { return nprows_ == npcols_; }
  [[nodiscard]] std::int64_t nrow(Rank me) const { return block_size(na_, nprows_, me / npcols_); }
  [[nodiscard]] std::int64_t send_len(Rank me) const {
    const auto rows = nrow(me);
    if (square()) return rows;
    return me % 2 == 0 ? (rows + 1) / 2 : rows / 2;
  }
  [[nodiscard]] Rank partner(Rank me, int i) const {
    const std::int64_t row = me / npcols_;
    const std::int64_t col = me % npcols_;
    return static_cast<Rank>(row * npcols_ + (col ^ (npcols_ >> i)));
  }
  [[nodiscard]] Rank transpose_partner(Rank me) const {
    if (square()) return static_cast<Rank>((me % nprows_) * nprows_ + me / nprows_);
    const std::int64_t half = me / 2;
    return static_cast<Rank>(2 * ((half % nprows_) * nprows_ + half / nprows_) + me % 2);
  }
  /// Doubles of the row-sum piece `me` sends to its partner_i.
  [[nodiscard]] std::int64_t row_sum_len(Rank me, int i) const {
    return !square() && i == l2_ ? nrow(me) - send_len(me) : send_len(me);
  }

  static void exchange(Mpi& mpi, Rank peer, std::int32_t tag, std::int64_t to_peer,
                       std::int64_t from_peer) {
    const RequestId request = mpi.irecv(peer, tag, from_peer);
    mpi.send(peer, tag, to_peer);
    mpi.wait(request);
  }

  /// Recursive-doubling sum of `doubles` values over the process row.
  void reduction(Mpi& mpi, std::int64_t doubles) const {
    for (int i = 1; i <= l2_; ++i) {
      exchange(mpi, partner(mpi.rank(), i), i, doubles * kDouble, doubles * kDouble);
    }
  }

  void row_sum_and_transpose(Mpi& mpi) const {
    const Rank me = mpi.rank();
    mpi.flops(matvec_);
    for (int i = l2_; i >= 1; --i) {
      const Rank peer = partner(me, i);
      exchange(mpi, peer, i, row_sum_len(me, i) * kDouble, row_sum_len(peer, i) * kDouble);
    }
    if (l2_ != 0) {
      const Rank peer = transpose_partner(me);
      exchange(mpi, peer, 1, send_len(me) * kDouble, send_len(peer) * kDouble);
    }
  }

  void outer(Mpi& mpi) const {
    mpi.flops(vector_);
    reduction(mpi, 1);  // rho = r·r
    for (int step = 0; step < kInnerSteps; ++step) {
      row_sum_and_transpose(mpi);  // q = A·p
      mpi.flops(vector_);
      reduction(mpi, 1);  // d = p·q
      mpi.flops(3 * vector_);
      reduction(mpi, 1);  // rho = r·r
      mpi.flops(vector_);
    }
    row_sum_and_transpose(mpi);  // r = A·z
    mpi.flops(vector_);
    reduction(mpi, 1);  // ‖x − r‖
    mpi.flops(2 * vector_);
    reduction(mpi, 2);  // the two norms of the outer step
    mpi.flops(vector_);
  }

  Rank ranks_;
  std::int64_t na_;
  std::int64_t niter_;
  std::int64_t nprows_ = 1;
  std::int64_t npcols_ = 1;
  int l2_ = 0;
  double matvec_ = 0;
  double vector_ = 0;
  double setup_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_cg(const GeneratorOptions& options) {
  const auto c = options.problem_class;
  const auto na = by_class<std::int64_t>(c, {1400, 7000, 14000, 75000, 150000, 1500000});
  const auto nonzer = by_class<std::int64_t>(c, {7, 8, 11, 13, 15, 21});
  const auto niter = by_class<std::int64_t>(c, {15, 15, 15, 75, 75, 100});
  check_ranks(options, "a power of two", [](Rank n) { return is_pow2(n); });
  return std::make_unique<Cg>(options.ranks, na, nonzer, iterations_or(options, niter));
}

}  // namespace mapsim::traces
