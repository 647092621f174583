#pragma once
// Helpers of the generator tests: a sink that counts what a generated program calls (per rank:
// MPI functions, the point-to-point matrix, the collectives), without storing events, so that
// even class C runs can be checked; and the collectives of a Trace in a comparable form.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "support/Error.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/MpiCallSink.hpp"
#include "traces/Trace.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::testing {

/// The InputError make_workload throws for `options`, or "(no error)".
inline std::string workload_error(const traces::GeneratorOptions& options) {
  try {
    (void)traces::make_workload(options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// A collective as Score-P records it: operation, root (world rank or -1), bytes sent and
/// received by the rank.
using CollectiveRecord = std::tuple<traces::CollectiveOp, Rank, std::int64_t, std::int64_t>;

/// MPI functions the sink counts, per rank.
enum class Call : std::uint8_t { Send, Recv, Isend, Irecv, Wait, Waitall, Count };

class CallCounter final : public traces::MpiCallSink {
 public:
  std::vector<std::array<std::int64_t, static_cast<std::size_t>(Call::Count)>> calls;
  std::vector<std::vector<CollectiveRecord>> collectives;
  /// Communicator sizes of each rank's collectives, in order (to compare sub-communicators).
  std::vector<std::vector<std::size_t>> collective_sizes;

  [[nodiscard]] traces::CommMatrix matrix() const { return builder_.build(); }
  [[nodiscard]] std::int64_t count(Rank rank, Call call) const {
    return calls[static_cast<std::size_t>(rank)][static_cast<std::size_t>(call)];
  }

 private:
  void on_begin_trace() override {
    builder_ = traces::CommMatrixBuilder(rank_count());
    calls.assign(static_cast<std::size_t>(rank_count()), {});
    collectives.assign(static_cast<std::size_t>(rank_count()), {});
    collective_sizes.assign(static_cast<std::size_t>(rank_count()), {});
  }
  void on_begin_rank() override {}
  void on_end_rank() override {}
  void on_end_trace() override {}
  void on_compute(std::int64_t) override {}
  void bump(Call call) {
    ++calls[static_cast<std::size_t>(current_rank())][static_cast<std::size_t>(call)];
  }
  void record(traces::CollectiveOp op, traces::CommId comm, Rank root, std::int64_t sent,
              std::int64_t received) {
    const auto r = static_cast<std::size_t>(current_rank());
    collectives[r].emplace_back(op, root, sent, received);
    collective_sizes[r].push_back(communicators()[comm].members.size());
  }
  void on_handle(traces::MpiFunction function, traces::CommId comm, traces::CommId) override {
    record(function == traces::MpiFunction::Finalize ? traces::CollectiveOp::DestroyHandle
                                                     : traces::CollectiveOp::CreateHandle,
           comm, -1, 0, 0);
  }
  void on_send(bool blocking, Rank to, std::int32_t, std::int64_t bytes, traces::CommId,
               traces::RequestId) override {
    bump(blocking ? Call::Send : Call::Isend);
    builder_.add(current_rank(), to, 1, static_cast<std::uint64_t>(bytes));
  }
  void on_recv(Rank, std::int32_t, std::int64_t, traces::CommId) override { bump(Call::Recv); }
  void on_irecv(const traces::Completion&) override { bump(Call::Irecv); }
  void on_wait(traces::MpiFunction function, std::span<const traces::Completion>) override {
    bump(function == traces::MpiFunction::Wait ? Call::Wait : Call::Waitall);
  }
  void on_collective(traces::CollectiveOp op, traces::CommId comm, Rank root, std::int64_t sent,
                     std::int64_t received) override {
    record(op, comm, root, sent, received);
  }

  traces::CommMatrixBuilder builder_{0};
};

/// Runs the generator `options` into a CallCounter.
inline CallCounter count_calls(const traces::GeneratorOptions& options) {
  CallCounter counter;
  traces::run_workload(*traces::make_workload(options), counter);
  return counter;
}

inline traces::GeneratorOptions generator(std::string kernel, char problem_class, Rank ranks,
                                          std::optional<std::int64_t> iterations = {}) {
  traces::GeneratorOptions options;
  options.kernel = std::move(kernel);
  options.problem_class = problem_class;
  options.ranks = ranks;
  options.iterations = iterations;
  return options;
}

/// A small hand-written program of 3 ranks for the sink tests: point-to-point on WORLD and on a
/// split communicator whose ranks are WORLD's reversed (so translating ranks matters),
/// Isend/Irecv completed by Waitall and by Wait, collectives with and without a root, computation
/// before Init and after Finalize.
inline void small_program(traces::MpiCallSink& sink) {
  using traces::CollectiveOp;
  sink.begin_trace(3, {{"MPI_COMM_WORLD", {0, 1, 2}, -1}, {"reversed", {2, 1, 0}, 0}});
  sink.begin_rank(0);
  sink.compute(5);
  sink.init();
  sink.compute(10);
  const auto r0 = sink.irecv(1, 7, 100, 0);
  const auto s0 = sink.isend(1, 8, 200, 0);
  sink.compute(3);
  const std::array<traces::RequestId, 2> both{r0, s0};
  sink.waitall(both);
  sink.collective(CollectiveOp::Bcast, 0, 0, 24, 8);
  sink.comm_split(0, 1);
  sink.send(2, 9, 50, 1);
  sink.collective(CollectiveOp::Reduce, 1, 2, 8, 0);
  sink.finalize();
  sink.compute(2);
  sink.end_rank();
  sink.begin_rank(1);
  sink.init();
  const auto s1 = sink.isend(0, 7, 100, 0);
  const auto r1 = sink.irecv(0, 8, 200, 0);
  sink.wait(s1);
  sink.compute(1);
  sink.wait(r1);
  sink.collective(CollectiveOp::Bcast, 0, 0, 0, 8);
  sink.comm_split(0, 1);
  sink.collective(CollectiveOp::Reduce, 1, 2, 8, 0);
  sink.finalize();
  sink.end_rank();
  sink.begin_rank(2);
  sink.init();
  sink.collective(CollectiveOp::Bcast, 0, 0, 0, 8);
  sink.comm_split(0, 1);
  sink.compute(7);
  sink.recv(0, 9, 50, 1);
  sink.collective(CollectiveOp::Reduce, 1, 2, 8, 24);
  sink.finalize();
  sink.end_rank();
  sink.end_trace();
}

/// The collectives of each rank of a trace, in order.
inline std::vector<std::vector<CollectiveRecord>> collectives_of(const traces::Trace& trace) {
  std::vector<std::vector<CollectiveRecord>> all(trace.ranks.size());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    for (const auto& e : trace.ranks[r].events) {
      if (e.kind == traces::EventKind::Collective) {
        all[r].emplace_back(e.op, e.peer, e.bytes, e.received);
      }
    }
  }
  return all;
}

}  // namespace mapsim::testing
