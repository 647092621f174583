#include "traces/WorkloadMatrix.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "support/Error.hpp"
#include "traces/CollectiveTraffic.hpp"

namespace mapsim::traces {
namespace {

/// What one rank sent: its row of the matrix and, when collectives count, its collective calls
/// (as the Collective events TraceBuilder records: handles included, they are dissemination
/// barriers too).
struct RankRow {
  std::vector<std::pair<Rank, Traffic>> entries;  // in order of first message
  std::size_t last = 0;                           // the entry hit last
  Traffic total;
  const char* overflow = nullptr;  // "bytes" or "messages" if the row alone passed the limit
  std::vector<Event> collectives;
};

/// Counts each rank's Send and Isend into rows[rank]. One per thread, begun with the workload's
/// CommTable and RankOrder::Any; each rank is run by exactly one sink, so rows need no lock.
class CountingSink final : public MpiCallSink {
 public:
  CountingSink(std::vector<RankRow>& rows, bool collectives)
      : rows_(rows), collectives_(collectives) {}

 private:
  void on_begin_trace() override {}
  void on_begin_rank() override { row_ = &rows_[static_cast<std::size_t>(current_rank())]; }
  void on_end_rank() override { row_ = nullptr; }
  void on_end_trace() override {}
  void on_compute(std::int64_t /*ns*/) override {}
  void on_recv(Rank /*from*/, std::int32_t /*tag*/, std::int64_t /*bytes*/,
               CommId /*comm*/) override {}
  void on_irecv(const Completion& /*posted*/) override {}
  void on_wait(MpiFunction /*function*/, std::span<const Completion> /*completed*/) override {}

  void on_send(bool /*blocking*/, Rank to, std::int32_t /*tag*/, std::int64_t bytes,
               CommId /*comm*/, RequestId /*request*/) override {
    RankRow& row = *row_;
    if (row.overflow != nullptr) return;
    const auto b = static_cast<std::uint64_t>(bytes);
    // The row's totals bound the matrix's from below: past the limit, the matrix is too.
    if (b > kMaxMatrixTotal - row.total.bytes || row.total.messages == kMaxMatrixTotal) {
      row.overflow = b > kMaxMatrixTotal - row.total.bytes ? "bytes" : "messages";
      return;
    }
    row.total.bytes += b;
    ++row.total.messages;
    const std::size_t n = row.entries.size();
    // A rank sends to a few peers over and over: scan from the last hit.
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = row.last + k < n ? row.last + k : row.last + k - n;
      if (row.entries[i].first == to) {
        ++row.entries[i].second.messages;
        row.entries[i].second.bytes += b;
        row.last = i;
        return;
      }
    }
    row.last = n;
    row.entries.push_back({to, {1, b}});
  }

  void on_handle(MpiFunction function, CommId comm, CommId /*created*/) override {
    if (!collectives_) return;
    Event& event = row_->collectives.emplace_back();
    event.kind = EventKind::Collective;
    event.op = function == MpiFunction::Finalize ? CollectiveOp::DestroyHandle
                                                 : CollectiveOp::CreateHandle;
    event.comm = comm;
  }

  void on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                     std::int64_t received) override {
    if (!collectives_) return;
    Event& event = row_->collectives.emplace_back();
    event.kind = EventKind::Collective;
    event.op = op;
    event.comm = comm;
    event.peer = root;
    event.bytes = sent;
    event.received = received;
  }

  std::vector<RankRow>& rows_;
  bool collectives_;
  RankRow* row_ = nullptr;
};

[[noreturn]] void throw_too_large(std::string_view what, std::string_view detail) {
  throw InputError(fmt::format(
      "the communication matrix's total {} are too large (limit {}, the most mapsim sums "
      "exactly): {}",
      what, kMaxMatrixTotal, detail));
}

std::vector<RankRow> run_ranks(const Workload& workload, bool collectives) {
  const Rank ranks = workload.rank_count();
  const auto table = make_comm_table(ranks, workload.communicators());
  std::vector<RankRow> rows(static_cast<std::size_t>(ranks));
  tbb::enumerable_thread_specific<std::unique_ptr<CountingSink>> sinks;
  tbb::parallel_for(tbb::blocked_range<Rank>(0, ranks), [&](const tbb::blocked_range<Rank>& range) {
    auto& sink = sinks.local();
    if (!sink) {
      sink = std::make_unique<CountingSink>(rows, collectives);
      sink->begin_trace(table, RankOrder::Any);
    }
    for (Rank rank = range.begin(); rank != range.end(); ++rank) {
      run_workload_rank(workload, *sink, rank);
    }
  });
  for (auto& sink : sinks) sink->end_trace();
  return rows;
}

/// The matrix of the rows, rank by rank (so the same whatever ran them), with the collectives'
/// messages added as matrix_with_collectives adds them.
CommMatrix build_matrix(std::vector<RankRow>& rows, const Workload& workload,
                        const MatrixOptions& options) {
  const Rank ranks = workload.rank_count();
  CommMatrixBuilder builder(ranks);
  for (Rank rank = 0; rank < ranks; ++rank) {
    auto& row = rows[static_cast<std::size_t>(rank)];
    if (row.overflow != nullptr) {
      throw_too_large(row.overflow, fmt::format("rank {} alone sends more", rank));
    }
    for (const auto& [to, traffic] : row.entries) {
      builder.add(rank, to, traffic.messages, traffic.bytes);
    }
    row.entries = {};
  }
  if (options.collectives) {
    CollectiveTraffic traffic;
    for (Rank rank = 0; rank < ranks; ++rank) {
      auto& calls = rows[static_cast<std::size_t>(rank)].collectives;
      for (std::size_t i = 0; i < calls.size(); ++i) traffic.add(rank, i, calls[i]);
      calls = {};
    }
    std::vector<Communicator> communicators;
    for (auto& spec : workload.communicators()) {
      communicators.push_back({std::move(spec.name), std::move(spec.members)});
    }
    traffic.add_to(builder, communicators, options.algorithms);
  }
  return builder.build();
}

/// M(n) = M(1) + (n - 1)·(M(2) - M(1)) if M(3) - M(2) = M(2) - M(1) >= 0 entry for entry;
/// nothing otherwise. Throws InputError if an entry or the totals pass kMaxMatrixTotal.
std::optional<CommMatrix> extrapolate(const CommMatrix& m1, const CommMatrix& m2,
                                      const CommMatrix& m3, std::int64_t n) {
  const Rank ranks = m3.rank_count();
  const auto affine = [](std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    return a <= b && b <= c && c - b == b - a;
  };
  // Every pair M(1) or M(2) has is one M(3) has (else it decreased): the counts tell.
  std::size_t seen1 = 0;
  std::size_t seen2 = 0;
  for (Rank src = 0; src < ranks; ++src) {
    const auto destinations = m3.destinations(src);
    const auto traffic = m3.traffic(src);
    for (std::size_t i = 0; i < destinations.size(); ++i) {
      const Traffic a = m1.at(src, destinations[i]);
      const Traffic b = m2.at(src, destinations[i]);
      const Traffic c = traffic[i];
      seen1 += a.messages != 0 || a.bytes != 0 ? 1 : 0;
      seen2 += b.messages != 0 || b.bytes != 0 ? 1 : 0;
      if (!affine(a.messages, b.messages, c.messages) || !affine(a.bytes, b.bytes, c.bytes)) {
        return std::nullopt;
      }
    }
  }
  if (seen1 != m1.nonzero_count() || seen2 != m2.nonzero_count()) return std::nullopt;
  // The collectives' share of the totals grows alike (it always does when the entries do, as the
  // calls repeat; checked all the same, as the share is reported).
  const Traffic c1 = m1.collective_total();
  const Traffic c2 = m2.collective_total();
  const Traffic c3 = m3.collective_total();
  const Traffic t1 = m1.total();
  const Traffic t2 = m2.total();
  if (!affine(c1.messages, c2.messages, c3.messages) || !affine(c1.bytes, c2.bytes, c3.bytes) ||
      c2.messages - c1.messages > t2.messages - t1.messages ||
      c2.bytes - c1.bytes > t2.bytes - t1.bytes) {
    return std::nullopt;
  }

  const auto steps = static_cast<std::uint64_t>(n - 1);
  const auto value = [&](std::uint64_t a, std::uint64_t b, std::string_view what, Rank src,
                         Rank dst) {
    std::uint64_t grown = 0;
    std::uint64_t sum = 0;
    if (__builtin_mul_overflow(steps, b - a, &grown) || __builtin_add_overflow(a, grown, &sum) ||
        sum > kMaxMatrixTotal) {
      throw_too_large(what, fmt::format("{} iterations send more than that from rank {} to rank {}",
                                        n, src, dst));
    }
    return sum;
  };
  CommMatrixBuilder builder(ranks);
  for (Rank src = 0; src < ranks; ++src) {
    for (const Rank dst : m3.destinations(src)) {
      const Traffic a = m1.at(src, dst);
      const Traffic b = m2.at(src, dst);
      builder.add(src, dst, value(a.messages, b.messages, "messages", src, dst),
                  value(a.bytes, b.bytes, "bytes", src, dst));
    }
  }
  // Bounded by the totals, which the builder has checked.
  builder.count_as_collectives({c1.messages + steps * (c2.messages - c1.messages),
                                c1.bytes + steps * (c2.bytes - c1.bytes)});
  return builder.build();
}

}  // namespace

CommMatrix workload_matrix(const Workload& workload, const MatrixOptions& options) {
  auto rows = run_ranks(workload, options.collectives);
  return build_matrix(rows, workload, options);
}

CommMatrix workload_matrix(const GeneratorOptions& generator, const MatrixOptions& options) {
  const auto workload = make_workload(generator);
  const auto n = workload->iterations();
  if (!n || *n <= 3 || !workload->affine_in_iterations(options.collectives)) {
    return workload_matrix(*workload, options);
  }
  const auto at = [&](std::int64_t iterations) {
    GeneratorOptions fewer = generator;
    fewer.iterations = iterations;
    return workload_matrix(*make_workload(fewer), options);
  };
  const auto m1 = at(1);
  const auto m2 = at(2);
  const auto m3 = at(3);
  if (auto matrix = extrapolate(m1, m2, m3, *n)) return std::move(*matrix);
  // The workload claims more than its first iterations show: run them all.
  return workload_matrix(*workload, options);
}

}  // namespace mapsim::traces
