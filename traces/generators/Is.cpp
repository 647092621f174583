// NPB 3.4 IS (docs/workloads.md §8): parallel bucket sort of integer keys.
//
// N = 2^L ranks, each with num_keys = 2^TOTAL_KEYS_LOG_2 / N · MIN_PROCS keys. Program: Bcast 4 B;
// 11 rankings (one untimed, then the timed ones; each: Allreduce (NUM_BUCKETS+5)·4 B, Alltoall
// 4 B per peer, Alltoallv of the keys); Reduce 8 B root 0; full_verify: Irecv from r−1
// (tag 1000, 4 B), Send 4 B to r+1, Wait; Reduce 4 B root 0. All on MPI_COMM_WORLD.
//
// The Alltoallv volumes are data-dependent, so they are computed from the keys themselves,
// re-creating NPB's key sequence: x_n = a·x_{n−1} mod 2^46 (a = 5^13, x_0 = 314159265, the
// randlc generator, exact in 64-bit integers because 2^46 divides 2^64); key g is
// ⌊(x_{4g+1} + … + x_{4g+4}) · (MAX_KEY/4) / 2^46⌋, i.e. the sum shifted right by
// 48 − MAX_KEY_LOG_2 (rank r holds keys r·num_keys … (r+1)·num_keys − 1, its generator seeded by
// find_my_seed at exactly that offset, so the global key set does not depend on N). Ranking
// `it` first sets rank 0's keys it ← it and it + MAX_ITERATIONS ← MAX_KEY − it (cumulatively),
// then every rank sends all its keys (num_keys·4 B) and rank j receives the keys of the buckets
// [first, last] where the running global bucket count first reaches (j+1)·num_keys (NPB's
// redistribution loop; ranks beyond the last threshold receive nothing).
//
// Compute model (operations per rank at kFlopsPerNs): key generation 40 per key once; per
// ranking 5 per key for the histogram and bucketing before the Allreduce, 5 per key for the
// local ranking after the Alltoallv; full_verify 3 per key.

#include <array>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::uint64_t kMultiplier = 1220703125;  // 5^13
constexpr std::uint64_t kSeed = 314159265;
constexpr std::uint64_t kMask46 = (std::uint64_t{1} << 46) - 1;

/// a^n mod 2^46 (64-bit products wrap modulo 2^64, a multiple of 2^46).
std::uint64_t power(std::uint64_t a, std::uint64_t n) {
  std::uint64_t result = 1;
  while (n > 0) {
    if ((n & 1) != 0) result = (result * a) & kMask46;
    a = (a * a) & kMask46;
    n >>= 1;
  }
  return result;
}

struct IsClass {
  int total_keys_log2;
  int max_key_log2;
  int buckets_log2;
  std::int64_t min_procs;
  std::int64_t max_procs;
};

class Is final : public Workload {
 public:
  Is(Rank ranks, const IsClass& c, std::int64_t iterations)
      : ranks_(ranks),
        num_keys_(((std::int64_t{1} << c.total_keys_log2) / ranks) * c.min_procs),
        buckets_(std::int64_t{1} << c.buckets_log2),
        iterations_(iterations) {
    received_ = simulate_keys(c);
  }

  [[nodiscard]] Rank rank_count() const override { return ranks_; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return iterations_; }
  // Not affine_in_iterations: the Alltoallv volumes depend on the keys of each ranking. (Its
  // point-to-point messages, full_verify's, do not depend on the iterations at all, but a full
  // run makes a few calls per ranking, cheaper than re-creating the keys three more times.)
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(ranks_)};
  }

  void run(Mpi& mpi) const override {
    const Rank me = mpi.rank();
    const double keys = static_cast<double>(num_keys_);
    mpi.init();
    mpi.bcast(4);
    mpi.flops(40 * keys);
    for (std::size_t call = 0; call < received_.size(); ++call) {
      mpi.flops(5 * keys);
      mpi.allreduce((buckets_ + 5) * 4);
      mpi.alltoall(4);
      mpi.alltoallv(num_keys_ * 4, received_[call][static_cast<std::size_t>(me)] * 4);
      mpi.flops(5 * keys);
    }
    mpi.reduce(8);
    mpi.flops(3 * keys);
    RequestId request = 0;
    if (me > 0) request = mpi.irecv(me - 1, 1000, 4);
    if (me < ranks_ - 1) mpi.send(me + 1, 1000, 4);
    if (me > 0) mpi.wait(request);
    mpi.reduce(4);
    mpi.finalize();
  }

 private:
  /// Keys received by each rank in each of the 1 + iterations rankings.
  [[nodiscard]] std::vector<std::vector<std::int64_t>> simulate_keys(const IsClass& c) const {
    const int shift = 48 - c.max_key_log2;  // key = (sum of 4 randoms) >> shift
    const int bucket_shift = c.max_key_log2 - c.buckets_log2;
    const std::int64_t total = num_keys_ * ranks_;
    const std::int64_t max_key = std::int64_t{1} << c.max_key_log2;
    std::vector<std::int64_t> histogram(static_cast<std::size_t>(buckets_), 0);
    // The keys rank 0 overwrites, indexes 1 … 2·iterations.
    std::vector<std::int64_t> first(static_cast<std::size_t>(2 * iterations_ + 1), 0);
    // The key chain is one long recurrence; cut it into kLanes blocks, each started by jumping
    // ahead (x·a^k mod 2^46), and advance them together so the multiplications overlap.
    constexpr std::int64_t kLanes = 8;
    const std::int64_t lane_keys = total / kLanes;
    std::array<std::uint64_t, kLanes> lane{};
    const std::uint64_t jump = power(kMultiplier, static_cast<std::uint64_t>(4 * lane_keys));
    lane[0] = kSeed;
    for (std::size_t l = 1; l < lane.size(); ++l) lane[l] = (lane[l - 1] * jump) & kMask46;
    const auto next_key = [&](std::uint64_t& x) {
      std::uint64_t sum = 0;
      for (int i = 0; i < 4; ++i) {
        x = (x * kMultiplier) & kMask46;
        sum += x;
      }
      return static_cast<std::int64_t>(sum >> shift);
    };
    for (std::int64_t g = 0; g < lane_keys; ++g) {
      for (auto& x : lane) ++histogram[static_cast<std::size_t>(next_key(x) >> bucket_shift)];
    }
    // The keys rank 0 will overwrite (the first ones of lane 0), and the tail after the lanes.
    std::uint64_t x = kSeed;
    for (std::size_t g = 0; g < first.size() && static_cast<std::int64_t>(g) < total; ++g) {
      first[g] = next_key(x);
    }
    x = (kSeed * power(kMultiplier, static_cast<std::uint64_t>(4 * kLanes * lane_keys))) & kMask46;
    for (std::int64_t g = kLanes * lane_keys; g < total; ++g) {
      ++histogram[static_cast<std::size_t>(next_key(x) >> bucket_shift)];
    }

    std::vector<std::vector<std::int64_t>> received;
    auto set_key = [&](std::int64_t index, std::int64_t key) {
      auto& old = first[static_cast<std::size_t>(index)];
      --histogram[static_cast<std::size_t>(old >> bucket_shift)];
      ++histogram[static_cast<std::size_t>(key >> bucket_shift)];
      old = key;
    };
    auto rank_once = [&](std::int64_t it) {
      set_key(it, it);
      set_key(it + iterations_, max_key - it);
      std::vector<std::int64_t> counts(static_cast<std::size_t>(ranks_), 0);
      std::int64_t running = 0;
      std::int64_t in_range = 0;
      std::size_t j = 0;
      for (const auto count : histogram) {
        running += count;
        in_range += count;
        if (j < counts.size() && running >= static_cast<std::int64_t>(j + 1) * num_keys_) {
          counts[j++] = in_range;
          in_range = 0;
        }
      }
      received.push_back(std::move(counts));
    };
    rank_once(1);  // untimed
    for (std::int64_t it = 1; it <= iterations_; ++it) rank_once(it);
    return received;
  }

  Rank ranks_;
  std::int64_t num_keys_;
  std::int64_t buckets_;
  std::int64_t iterations_;
  std::vector<std::vector<std::int64_t>> received_;
};

}  // namespace

std::unique_ptr<Workload> make_is(const GeneratorOptions& options) {
  const auto c = by_class<IsClass>(options.problem_class, {{{16, 11, 9, 1, 128},
                                                            {20, 16, 10, 1, 1024},
                                                            {23, 19, 10, 1, 1024},
                                                            {25, 21, 10, 1, 1024},
                                                            {27, 23, 10, 1, 1024},
                                                            {29, 27, 10, 4, 1024}}});
  check_ranks(options, fmt::format("a power of two from {} to {}", c.min_procs, c.max_procs),
              [&](Rank n) { return is_pow2(n) && n >= c.min_procs && n <= c.max_procs; });
  const std::int64_t iterations = iterations_or(options, 10);
  const std::int64_t num_keys =
      ((std::int64_t{1} << c.total_keys_log2) / options.ranks) * c.min_procs;
  if (2 * iterations >= num_keys) {
    throw InputError(fmt::format(
        "is class {} on {} ranks has {} keys per rank, too few for {} iterations (NPB modifies "
        "keys 1 .. 2*iterations of rank 0)",
        options.problem_class, options.ranks, num_keys, iterations));
  }
  return std::make_unique<Is>(options.ranks, c, iterations);
}

}  // namespace mapsim::traces
