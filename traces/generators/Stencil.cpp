// Halo-exchange stencils (Jacobi sweeps, the "2D/3D stencil" of the mapping literature):
// mapsim's own model, not NPB.
//
// Grid: n^d points (stencil2d: n = 1024 · 2^class, i.e. S 1024 … D 32768; stencil3d: n = 64 ·
// 2^class, S 64 … D 2048), split over a balanced process grid (as MPI_Dims_create: prime factors
// of N, largest first, each to the currently smallest dimension; dimensions in non-increasing
// order), rank = x + px·(y + py·z); non-periodic, so edge ranks have fewer neighbours.
// Per sweep (100 by default): Irecv from every neighbour (−x, +x, −y, +y[, −z, +z]), Isend to
// every neighbour in the same order, compute the interior, Waitall, compute the boundary layer;
// every 10th sweep and the last: Allreduce 8 B (residual). Tags name the direction of travel:
// +x 1, −x 2, +y 3, −y 4, +z 5, −z 6. A halo message carries one face of the rank's block, 8 B
// per point (ny·nz points towards ±x, ...), or exactly --message-bytes if given. Setup: Bcast
// 16 B (the parameters), Barrier; at the end Reduce 8 B root 0 (timers).
//
// Compute model: 2·(2d+1) flops per point and sweep (a (2d+1)-point stencil: multiply-add per
// point of the stencil).

#include <algorithm>
#include <array>

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr std::int64_t kResidualEvery = 10;

/// A balanced factorisation of n into `dims` factors, in non-increasing order.
std::vector<std::int64_t> balanced_grid(std::int64_t n, int dims) {
  std::vector<std::int64_t> factors;
  for (std::int64_t f = 2; f * f <= n; ++f) {
    while (n % f == 0) {
      factors.push_back(f);
      n /= f;
    }
  }
  if (n > 1) factors.push_back(n);
  std::sort(factors.rbegin(), factors.rend());
  std::vector<std::int64_t> grid(static_cast<std::size_t>(dims), 1);
  for (const auto f : factors) *std::min_element(grid.begin(), grid.end()) *= f;
  std::sort(grid.rbegin(), grid.rend());
  return grid;
}

class Stencil final : public Workload {
 public:
  Stencil(Rank ranks, int dims, std::int64_t n, std::int64_t sweeps,
          std::optional<std::int64_t> message_bytes)
      : ranks_(ranks),
        dims_(dims),
        grid_(balanced_grid(ranks, dims)),
        n_(n),
        sweeps_(sweeps),
        message_bytes_(message_bytes) {}

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return sweeps_; }
  /// Every sweep exchanges the same halos; the residual Allreduce comes every 10th sweep and at
  /// the last.
  [[nodiscard]] bool affine_in_iterations(bool collectives) const override { return !collectives; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(ranks_)};
  }

  void run(Mpi& mpi) const override {
    const auto d = static_cast<std::size_t>(dims_);
    std::vector<std::int64_t> coord(d), extent(d);
    std::int64_t rest = mpi.rank();
    for (std::size_t a = 0; a < d; ++a) {
      coord[a] = rest % grid_[a];
      rest /= grid_[a];
      extent[a] = block_size(n_, grid_[a], coord[a]);
    }
    std::int64_t points = 1;
    for (const auto e : extent) points *= e;
    std::int64_t interior = 1;
    for (const auto e : extent) interior *= std::max<std::int64_t>(e - 2, 0);
    const double flops_per_point = 2.0 * static_cast<double>(2 * dims_ + 1);

    struct Halo {
      Rank peer;
      std::int32_t send_tag, recv_tag;
      std::int64_t bytes;
    };
    std::vector<Halo> halos;
    for (std::size_t a = 0; a < d; ++a) {
      std::int64_t face = kDouble;
      for (std::size_t o = 0; o < d; ++o) {
        if (o != a) face *= extent[o];
      }
      const std::int64_t bytes = message_bytes_.value_or(face);
      for (const int sign : {-1, +1}) {
        const std::int64_t c = coord[a] + sign;
        if (c < 0 || c >= grid_[a]) continue;
        auto peer_coord = coord;
        peer_coord[a] = c;
        std::int64_t peer = 0;
        for (std::size_t b = d; b-- > 0;) peer = peer * grid_[b] + peer_coord[b];
        const auto tag = [&](int towards) {
          return static_cast<std::int32_t>(2 * a + (towards > 0 ? 1 : 2));
        };
        halos.push_back({static_cast<Rank>(peer), tag(sign), tag(-sign), bytes});
      }
    }

    mpi.init();
    mpi.bcast(16);
    mpi.barrier();
    std::vector<RequestId> requests;
    for (std::int64_t sweep = 1; sweep <= sweeps_; ++sweep) {
      requests.clear();
      for (const auto& h : halos) requests.push_back(mpi.irecv(h.peer, h.recv_tag, h.bytes));
      for (const auto& h : halos) requests.push_back(mpi.isend(h.peer, h.send_tag, h.bytes));
      mpi.flops(flops_per_point * static_cast<double>(interior));
      if (!requests.empty()) mpi.waitall(requests);
      mpi.flops(flops_per_point * static_cast<double>(points - interior));
      if (sweep % kResidualEvery == 0 || sweep == sweeps_) mpi.allreduce(kDouble);
    }
    mpi.reduce(kDouble);
    mpi.finalize();
  }

 private:
  Rank ranks_;
  int dims_;
  std::vector<std::int64_t> grid_;
  std::int64_t n_;
  std::int64_t sweeps_;
  std::optional<std::int64_t> message_bytes_;
};

std::unique_ptr<Workload> make_stencil(const GeneratorOptions& options, int dims,
                                       std::int64_t smallest) {
  const std::int64_t n = smallest << class_index(options.problem_class);
  check_ranks(options, "a balanced process grid whose largest dimension is at most n",
              [&](Rank ranks) { return balanced_grid(ranks, dims).front() <= n; });
  return std::make_unique<Stencil>(options.ranks, dims, n, iterations_or(options, 100),
                                   options.message_bytes);
}

}  // namespace

std::unique_ptr<Workload> make_stencil2d(const GeneratorOptions& options) {
  return make_stencil(options, 2, 1024);
}

std::unique_ptr<Workload> make_stencil3d(const GeneratorOptions& options) {
  return make_stencil(options, 3, 64);
}

}  // namespace mapsim::traces
