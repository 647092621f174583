#pragma once
// An MpiCallSink that builds the Trace in memory, exactly as the OTF2 reader would produce it from
// the archive Otf2Writer writes for the same calls (Trace.hpp's rules):
// - gap = the compute() time since the previous MPI call (in ps; the calls take no time here);
// - Send / Recv / Isend as called; an Irecv at its posting point, carrying the source, tag and
//   size of the message that completes it;
// - MPI_Wait → one Wait; MPI_Waitall over k requests → k Waits in completion order, the first
//   with the gap;
// - init / comm_split / comm_dup → Collective CreateHandle on WORLD / the parent communicator;
//   finalize → Collective DestroyHandle on WORLD; collectives with root as a world rank or -1;
// - requests numbered per rank 0, 1, 2, ... in posting order;
// - Trace::communicators = the CommSpecs (name, members), world = 0;
//   final_gap = compute() after the last call.

#include <string>

#include "traces/MpiCallSink.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// Turns each rank's calls into events by the rules above, appended to the vector a subclass
/// gives per rank: the conversion TraceBuilder and the streamed workloads share.
class EventRecorder : public MpiCallSink {
 protected:
  EventRecorder() = default;

  /// Where rank `rank`'s events go (asked at begin_rank).
  virtual std::vector<Event>& events_of(Rank rank) = 0;
  /// The rank ended; `final_gap` in ps.
  virtual void ended(Rank rank, std::int64_t final_gap) = 0;
  /// Called after each call's events were appended.
  virtual void appended() {}

 private:
  void on_begin_rank() override;
  void on_end_rank() override;
  void on_end_trace() override {}
  void on_compute(std::int64_t ns) override { gap_ns_ += ns; }
  void on_handle(MpiFunction function, CommId comm, CommId created) override;
  void on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes, CommId comm,
               RequestId request) override;
  void on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) override;
  void on_irecv(const Completion& posted) override;
  void on_wait(MpiFunction function, std::span<const Completion> completed) override;
  void on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                     std::int64_t received) override;

  /// Appends an event carrying the pending gap.
  Event& push(EventKind kind);

  std::vector<Event>* events_ = nullptr;
  std::int64_t gap_ns_ = 0;
};

class TraceBuilder final : public EventRecorder {
 public:
  /// `source` becomes Trace::source (e.g. "generated: lu class S, 8 ranks").
  explicit TraceBuilder(std::string source);

  /// The trace, once end_trace() has been called; leaves the builder empty.
  [[nodiscard]] Trace take();

 private:
  void on_begin_trace() override;
  std::vector<Event>& events_of(Rank rank) override;
  void ended(Rank rank, std::int64_t final_gap) override;

  Trace trace_;
  bool in_rank_ = false;
};

}  // namespace mapsim::traces
