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
  MAPSIM_EXPECTS(events_ == nullptr, "TraceBuilder::take() inside a rank");
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

void TraceBuilder::on_begin_rank() {
  events_ = &trace_.ranks[static_cast<std::size_t>(current_rank())].events;
  gap_ns_ = 0;
}

void TraceBuilder::on_end_rank() {
  trace_.ranks[static_cast<std::size_t>(current_rank())].final_gap = gap_ns_ * kPsPerNs;
  events_->shrink_to_fit();
  events_ = nullptr;
}

Event& TraceBuilder::push(EventKind kind) {
  Event& event = events_->emplace_back();
  event.kind = kind;
  event.gap = gap_ns_ * kPsPerNs;
  gap_ns_ = 0;
  return event;
}

void TraceBuilder::on_handle(MpiFunction function, CommId comm, CommId /*created*/) {
  Event& event = push(EventKind::Collective);
  event.op =
      function == MpiFunction::Finalize ? CollectiveOp::DestroyHandle : CollectiveOp::CreateHandle;
  event.comm = comm;
}

void TraceBuilder::on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes,
                           CommId comm, RequestId request) {
  Event& event = push(blocking ? EventKind::Send : EventKind::Isend);
  event.peer = to;
  event.tag = tag;
  event.bytes = bytes;
  event.comm = comm;
  event.request = blocking ? 0 : request;
}

void TraceBuilder::on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) {
  Event& event = push(EventKind::Recv);
  event.peer = from;
  event.tag = tag;
  event.bytes = bytes;
  event.comm = comm;
}

void TraceBuilder::on_irecv(const Completion& posted) {
  Event& event = push(EventKind::Irecv);
  event.peer = posted.peer;
  event.tag = posted.tag;
  event.bytes = posted.bytes;
  event.comm = posted.comm;
  event.request = posted.request;
}

void TraceBuilder::on_wait(MpiFunction /*function*/, std::span<const Completion> completed) {
  for (const auto& completion : completed) push(EventKind::Wait).request = completion.request;
}

void TraceBuilder::on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                                 std::int64_t received) {
  Event& event = push(EventKind::Collective);
  event.op = op;
  event.comm = comm;
  event.peer = root;
  event.bytes = sent;
  event.received = received;
}

}  // namespace mapsim::traces
