// NPB 3.4 EP (docs/workloads.md §9): Gaussian deviates by the Marsaglia polar method; no
// point-to-point at all.
//
// 2^(m−16) batches of 2^16 pairs are split as evenly as possible over the N ranks (N ≤ 2^(m−16)).
// Program: Bcast 4 B; Barrier; computation; Allreduce sx (8 B), sy (8 B), q (80 B), time (8 B).
//
// Compute model: 60 flops per pair (two randlc draws, the acceptance test, a log and a sqrt for
// the accepted ones), i.e. 60·2^16 per batch.

#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr double kFlopsPerPair = 60;
constexpr std::int64_t kPairsPerBatch = std::int64_t{1} << 16;

class Ep final : public Workload {
 public:
  Ep(Rank ranks, std::int64_t batches) : ranks_(ranks), batches_(batches) {}

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(ranks_)};
  }

  void run(Mpi& mpi) const override {
    mpi.init();
    mpi.bcast(4);
    mpi.barrier();
    const auto batches = block_size(batches_, ranks_, mpi.rank());
    mpi.flops(kFlopsPerPair * static_cast<double>(batches * kPairsPerBatch));
    for (const std::int64_t bytes : {8, 8, 80, 8}) mpi.allreduce(bytes);
    mpi.finalize();
  }

 private:
  Rank ranks_;
  std::int64_t batches_;
};

}  // namespace

std::unique_ptr<Workload> make_ep(const GeneratorOptions& options) {
  const auto m = by_class<int>(options.problem_class, {24, 25, 28, 30, 32, 36});
  const std::int64_t batches = std::int64_t{1} << (m - 16);
  check_ranks(options, "N <= 2^(m-16) batches", [&](Rank n) { return n <= batches; });
  return std::make_unique<Ep>(options.ranks, batches);
}

}  // namespace mapsim::traces
