#pragma once
// A synthetic MPI program (one of the generators): how many ranks it runs, the communicators it
// creates, and the MPI calls each rank makes, in program order, with the computation between
// them. run_workload() feeds it to an MpiCallSink rank by rank.

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/MpiCallSink.hpp"

namespace mapsim::traces {

/// The rate at which generated ranks compute: 1 Gflop/s, i.e. one flop per nanosecond. Compute
/// gaps are flop counts of the kernel's work (formulas in each generator) divided by this rate.
inline constexpr double kFlopsPerNs = 1.0;

/// What a generated rank calls: the sink's calls, plus the collectives with the bytes Score-P
/// records as sent and received (docs/workloads.md §1; b = payload bytes, P = communicator size):
/// Bcast root b·P / b, others 0 / b; Reduce root b / b·P, others b / 0; Allreduce b·P / b·P;
/// Alltoall (c bytes per peer) c·P / c·P; Barrier 0 / 0.
class Mpi {
 public:
  /// `workload`: what errors name it by (Workload::description).
  Mpi(MpiCallSink& sink, Rank rank, std::string_view workload = {})
      : sink_(sink), rank_(rank), workload_(workload) {}

  [[nodiscard]] Rank rank() const { return rank_; }
  [[nodiscard]] MpiCallSink& sink() { return sink_; }

  /// Computation of `flops` floating-point operations (rounded to whole nanoseconds); throws
  /// InputError past what a trace records (2^63 ns, 292 years).
  void flops(double flops) {
    const double ns = std::round(flops / kFlopsPerNs);
    if (!(ns < 0x1p63)) [[unlikely]]
      throw_too_long(flops);
    sink_.compute(static_cast<std::int64_t>(ns));
  }

  void init() { sink_.init(); }
  void finalize() { sink_.finalize(); }
  void comm_split(CommId parent, CommId created) { sink_.comm_split(parent, created); }
  void comm_dup(CommId parent, CommId created) { sink_.comm_dup(parent, created); }

  void send(Rank to, std::int32_t tag, std::int64_t bytes, CommId comm = kWorld) {
    sink_.send(to, tag, bytes, comm);
  }
  void recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm = kWorld) {
    sink_.recv(from, tag, bytes, comm);
  }
  RequestId isend(Rank to, std::int32_t tag, std::int64_t bytes, CommId comm = kWorld) {
    return sink_.isend(to, tag, bytes, comm);
  }
  RequestId irecv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm = kWorld) {
    return sink_.irecv(from, tag, bytes, comm);
  }
  void wait(RequestId request) { sink_.wait(request); }
  void waitall(std::span<const RequestId> requests) { sink_.waitall(requests); }

  void barrier(CommId comm = kWorld) { sink_.collective(CollectiveOp::Barrier, comm, -1, 0, 0); }
  void bcast(std::int64_t bytes, Rank root = 0, CommId comm = kWorld) {
    sink_.collective(CollectiveOp::Bcast, comm, root, rank_ == root ? bytes * size(comm) : 0,
                     bytes);
  }
  void reduce(std::int64_t bytes, Rank root = 0, CommId comm = kWorld) {
    sink_.collective(CollectiveOp::Reduce, comm, root, bytes,
                     rank_ == root ? bytes * size(comm) : 0);
  }
  void allreduce(std::int64_t bytes, CommId comm = kWorld) {
    sink_.collective(CollectiveOp::Allreduce, comm, -1, bytes * size(comm), bytes * size(comm));
  }
  void alltoall(std::int64_t bytes_per_peer, CommId comm = kWorld) {
    const auto total = bytes_per_peer * size(comm);
    sink_.collective(CollectiveOp::Alltoall, comm, -1, total, total);
  }
  void alltoallv(std::int64_t sent, std::int64_t received, CommId comm = kWorld) {
    sink_.collective(CollectiveOp::Alltoallv, comm, -1, sent, received);
  }

 private:
  [[noreturn]] void throw_too_long(double flops) const;
  [[nodiscard]] std::int64_t size(CommId comm) const {
    return static_cast<std::int64_t>(sink_.communicators()[comm].members.size());
  }

  MpiCallSink& sink_;
  Rank rank_;
  std::string_view workload_;
};

class Workload {
 public:
  virtual ~Workload() = default;
  [[nodiscard]] virtual Rank rank_count() const = 0;
  /// The iteration count it runs (GeneratorOptions::iterations or the class's own), if it has
  /// one (EP has none).
  [[nodiscard]] virtual std::optional<std::int64_t> iterations() const { return std::nullopt; }
  /// Whether its communication matrix is affine in the iteration count: that of n iterations is
  /// M(1) + (n - 1)·(M(2) - M(1)) for every n >= 1, because every iteration sends the same
  /// messages whatever its index. `collectives`: the matrix that also counts the collectives'
  /// messages (LU's point-to-point messages are affine, its norms every inorm steps are not).
  /// workload_matrix() extrapolates from 1, 2 and 3 iterations when this holds, so claim it only
  /// after reading the generator's loop; false by default.
  [[nodiscard]] virtual bool affine_in_iterations(bool /*collectives*/) const { return false; }
  /// Entry 0 is MPI_COMM_WORLD; the others in the order the program creates them.
  [[nodiscard]] virtual std::vector<CommSpec> communicators() const = 0;
  /// Rank `mpi.rank()`'s calls, from MPI_Init to MPI_Finalize and the computation after it.
  virtual void run(Mpi& mpi) const = 0;

  /// What errors name it by: its generator options in words (make_workload sets it).
  std::string description;
};

/// MPI_COMM_WORLD of `ranks` ranks.
CommSpec world_communicator(Rank ranks);

/// Called after each rank with the number of ranks done and the total.
using WorkloadProgress = std::function<void(Rank done, Rank total)>;

/// Feeds every rank of `workload` to `sink`, from begin_trace to end_trace.
void run_workload(const Workload& workload, MpiCallSink& sink,
                  const WorkloadProgress& progress = {});

/// Feeds rank `rank` of `workload` to `sink`, from begin_rank to end_rank: for sinks begun with
/// the workload's CommTable and RankOrder::Any, one per rank or thread.
void run_workload_rank(const Workload& workload, MpiCallSink& sink, Rank rank);

}  // namespace mapsim::traces
