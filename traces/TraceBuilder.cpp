#include "traces/TraceBuilder.hpp"

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kPsPerNs = 1000;

}  // namespace

TraceBuilder::TraceBuilder(std::string source) {
  trace_.source = std::move(source);
}

Trace TraceBuilder::take() {
  MAPSIM_EXPECTS(!in_rank_, "TraceBuilder::take() inside a rank");
  Trace trace = std::move(trace_);
  trace_ = Trace{};
  return trace;
}

void TraceBuilder::on_begin_trace() {
  trace_.ranks.assign(static_cast<std::size_t>(rank_count()), RankStream{});
  trace_.communicators.clear();
  for (const auto& spec : communicators())
    trace_.communicators.push_back({spec.name, spec.members});
  trace_.world = kWorld;
}

std::vector<Event>& TraceBuilder::events_of(Rank rank) {
  in_rank_ = true;
  return trace_.ranks[static_cast<std::size_t>(rank)].events;
}

void TraceBuilder::ended(Rank rank, std::int64_t final_gap) {
  auto& stream = trace_.ranks[static_cast<std::size_t>(rank)];
  stream.final_gap = final_gap;
  stream.events.shrink_to_fit();
  in_rank_ = false;
}

void EventRecorder::on_begin_rank() {
  events_ = &events_of(current_rank());
  gap_ns_ = 0;
}

void EventRecorder::on_end_rank() {
  events_ = nullptr;
  ended(current_rank(), gap_ns_ * kPsPerNs);
}

Event& EventRecorder::push(EventKind kind) {
  Event& event = events_->emplace_back();
  event.kind = kind;
  event.gap = gap_ns_ * kPsPerNs;
  gap_ns_ = 0;
  return event;
}

void EventRecorder::on_handle(MpiFunction function, CommId comm, CommId /*created*/) {
  Event& event = push(EventKind::Collective);
  event.op =
      function == MpiFunction::Finalize ? CollectiveOp::DestroyHandle : CollectiveOp::CreateHandle;
  event.comm = comm;
  appended();
}

void EventRecorder::on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes,
                            CommId comm, RequestId request) {
  Event& event = push(blocking ? EventKind::Send : EventKind::Isend);
  event.peer = to;
  event.tag = tag;
  event.bytes = bytes;
  event.comm = comm;
  event.request = blocking ? 0 : request;
  appended();
}

void EventRecorder::on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) {
  Event& event = push(EventKind::Recv);
  event.peer = from;
  event.tag = tag;
  event.bytes = bytes;
  event.comm = comm;
  appended();
}

void EventRecorder::on_irecv(const Completion& posted) {
  Event& event = push(EventKind::Irecv);
  event.peer = posted.peer;
  event.tag = posted.tag;
  event.bytes = posted.bytes;
  event.comm = posted.comm;
  event.request = posted.request;
  appended();
}

void EventRecorder::on_wait(MpiFunction /*function*/, std::span<const Completion> completed) {
  for (const auto& completion : completed) push(EventKind::Wait).request = completion.request;
  appended();
}

void EventRecorder::on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                                  std::int64_t received) {
  Event& event = push(EventKind::Collective);
  event.op = op;
  event.comm = comm;
  event.peer = root;
  event.bytes = sent;
  event.received = received;
  appended();
}

}  // namespace mapsim::traces
