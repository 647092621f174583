// Sweep3D-style discrete-ordinates transport sweep (the pattern the OHTMA paper maps: a 2-D
// process mesh, pipelined wavefronts; Wylie et al. 2010): mapsim's own model, not NPB.
//
// Grid: n³ cells, n by class (S 32, W 64, A 128, B 256, C 512, D 1024), split over an
// npe_i × npe_j process mesh (npe_j = the largest divisor of N ≤ √N, npe_i = N / npe_j; rank
// = i + npe_i·j) into it × jt × n columns (it = block of n over npe_i, jt likewise); k is not
// split. Angles: 6 per octant (S6), in blocks of mmi = 3 (2 blocks); k in blocks of mk = 10 planes
// (the last block may be thinner). Per iteration (12 by default, as Sweep3D's fixed-iteration
// inputs): the 8 octants, corner by corner — (+i,+j), (−i,+j), (+i,−j), (−i,−j), each with k
// downwards then upwards. An octant pipelines its angle blocks × k blocks: Recv from the upstream i
// neighbour (jt·mk·mmi doubles) and from the upstream j neighbour (it·mk·mmi doubles), compute the
// block, Send downstream in i and in j — so every sweep starts at one corner of the mesh and flows
// to the opposite one. Tags name the direction of travel: +i 1, −i 2, +j 3, −j 4. Then Allreduce 8
// B (convergence test). Setup: Bcast of the 64-byte input deck; at the end Reduce 8 B root 0
// (timers). All blocking, on MPI_COMM_WORLD.
//
// Compute model: 22 flops per cell and angle in a block (the sweep's inner loop), 10 per cell per
// iteration for the source update.

#include <array>

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr std::int64_t kAnglesPerOctant = 6;
constexpr std::int64_t kAngleBlock = 3;
constexpr std::int64_t kPlaneBlock = 10;
constexpr double kCellAngleFlops = 22;
constexpr double kSourceFlops = 10;

struct Mesh {
  std::int64_t npe_i = 1;
  std::int64_t npe_j = 1;
};

Mesh sweep_mesh(std::int64_t n) {
  std::int64_t npe_j = 1;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d == 0) npe_j = d;
  }
  return {n / npe_j, npe_j};
}

class Sweep3d final : public Workload {
 public:
  Sweep3d(Rank ranks, std::int64_t n, std::int64_t iterations)
      : ranks_(ranks), mesh_(sweep_mesh(ranks)), n_(n), iterations_(iterations) {}

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return iterations_; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(ranks_)};
  }

  void run(Mpi& mpi) const override {
    const Rank me = mpi.rank();
    const std::int64_t pi = me % mesh_.npe_i;
    const std::int64_t pj = me / mesh_.npe_i;
    const std::int64_t it = block_size(n_, mesh_.npe_i, pi);
    const std::int64_t jt = block_size(n_, mesh_.npe_j, pj);
    auto at = [&](std::int64_t i, std::int64_t j) -> Rank {
      if (i < 0 || i >= mesh_.npe_i || j < 0 || j >= mesh_.npe_j) return -1;
      return static_cast<Rank>(i + mesh_.npe_i * j);
    };

    mpi.init();
    mpi.bcast(64);
    for (std::int64_t iteration = 0; iteration < iterations_; ++iteration) {
      mpi.flops(kSourceFlops * static_cast<double>(it * jt * n_));
      for (int corner = 0; corner < 4; ++corner) {
        const int di = corner % 2 == 0 ? +1 : -1;
        const int dj = corner < 2 ? +1 : -1;
        const Rank up_i = at(pi - di, pj);
        const Rank down_i = at(pi + di, pj);
        const Rank up_j = at(pi, pj - dj);
        const Rank down_j = at(pi, pj + dj);
        const std::int32_t tag_i = di > 0 ? 1 : 2;
        const std::int32_t tag_j = dj > 0 ? 3 : 4;
        for (int k_direction = 0; k_direction < 2; ++k_direction) {
          for (std::int64_t angles = 0; angles < kAnglesPerOctant; angles += kAngleBlock) {
            for (std::int64_t k = 0; k < n_; k += kPlaneBlock) {
              const std::int64_t planes = std::min(kPlaneBlock, n_ - k);
              const std::int64_t i_face = jt * planes * kAngleBlock * kDouble;
              const std::int64_t j_face = it * planes * kAngleBlock * kDouble;
              if (up_i >= 0) mpi.recv(up_i, tag_i, i_face);
              if (up_j >= 0) mpi.recv(up_j, tag_j, j_face);
              mpi.flops(kCellAngleFlops * static_cast<double>(it * jt * planes * kAngleBlock));
              if (down_i >= 0) mpi.send(down_i, tag_i, i_face);
              if (down_j >= 0) mpi.send(down_j, tag_j, j_face);
            }
          }
        }
      }
      mpi.allreduce(kDouble);
    }
    mpi.reduce(kDouble);
    mpi.finalize();
  }

 private:
  Rank ranks_;
  Mesh mesh_;
  std::int64_t n_;
  std::int64_t iterations_;
};

}  // namespace

std::unique_ptr<Workload> make_sweep3d(const GeneratorOptions& options) {
  const auto n = by_class<std::int64_t>(options.problem_class, {32, 64, 128, 256, 512, 1024});
  check_ranks(options, "npe_i <= n and npe_j <= n (npe_j = largest divisor of N <= sqrt(N))",
              [&](Rank ranks) {
                const auto mesh = sweep_mesh(ranks);
                return mesh.npe_i <= n && mesh.npe_j <= n;
              });
  return std::make_unique<Sweep3d>(options.ranks, n, iterations_or(options, 12));
}

}  // namespace mapsim::traces
