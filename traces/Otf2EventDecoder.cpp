#include "traces/Otf2EventDecoder.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

__extension__ using Wide = unsigned __int128;

CollectiveOp collective_op(OTF2_CollectiveOp op) {
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      return CollectiveOp::Barrier;
    case OTF2_COLLECTIVE_OP_BCAST:
      return CollectiveOp::Bcast;
    case OTF2_COLLECTIVE_OP_GATHER:
      return CollectiveOp::Gather;
    case OTF2_COLLECTIVE_OP_GATHERV:
      return CollectiveOp::Gatherv;
    case OTF2_COLLECTIVE_OP_SCATTER:
      return CollectiveOp::Scatter;
    case OTF2_COLLECTIVE_OP_SCATTERV:
      return CollectiveOp::Scatterv;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
      return CollectiveOp::Allgather;
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      return CollectiveOp::Allgatherv;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
      return CollectiveOp::Alltoall;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
      return CollectiveOp::Alltoallv;
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
      return CollectiveOp::Alltoallw;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      return CollectiveOp::Allreduce;
    case OTF2_COLLECTIVE_OP_REDUCE:
      return CollectiveOp::Reduce;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
      return CollectiveOp::ReduceScatter;
    case OTF2_COLLECTIVE_OP_SCAN:
      return CollectiveOp::Scan;
    case OTF2_COLLECTIVE_OP_EXSCAN:
      return CollectiveOp::Exscan;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      return CollectiveOp::ReduceScatterBlock;
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE:
      return CollectiveOp::CreateHandle;
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE:
      return CollectiveOp::DestroyHandle;
    default:
      return CollectiveOp::Other;  // window (de)allocation and the like
  }
}

std::int64_t saturate(Wide value) {
  constexpr auto kMax = static_cast<Wide>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(value, kMax));
}

std::uint64_t since(std::uint64_t from, std::uint64_t to) {
  return to > from ? to - from : 0;  // clocks may step back a little after correction
}

}  // namespace

Otf2EventDecoder::Otf2EventDecoder(Otf2Definitions& definitions, const Otf2Location& location,
                                   std::vector<Event>* store, EventSink* sink,
                                   TraceSummary& summary, std::string where)
    : defs_(definitions),
      rank_(location.rank),
      store_(store),
      sink_(sink),
      summary_(summary),
      where_(std::move(where)),
      last_leave_(definitions.clock.offset),
      last_time_(definitions.clock.offset),
      end_time_(definitions.clock.end()) {}

void Otf2EventDecoder::undefined(const char* what, std::uint64_t ref) const {
  throw InputError(
      fmt::format("{}: record {} names {} {}, which the global definitions do not "
                  "define; the event file is damaged or belongs to another trace",
                  where_, records_ - 1, what, ref));
}

void Otf2EventDecoder::skip_comm(RecordKind kind, OTF2_CommRef comm) {
  if (!defs_.comm_defined(comm)) undefined("communicator", comm);
  skip(kind);
}

bool Otf2EventDecoder::bad_time(RecordKind kind, OTF2_TimeStamp time) {
  const auto& clock = defs_.clock;
  const auto seconds = [&](std::uint64_t ticks) {
    return static_cast<double>(ticks) / static_cast<double>(clock.resolution);
  };
  const auto range =
      fmt::format("the trace's clock range, {} ticks from {} as the definitions declare",
                  clock.length, clock.offset);
  std::string why;
  if (time < clock.offset) {
    why = fmt::format("lies {:.9g} s before the start of {}", seconds(clock.offset - time), range);
  } else if (time < last_time_) {
    why = fmt::format("goes back in time, {} ticks ({:.9g} s) before the previous record",
                      last_time_ - time, seconds(last_time_ - time));
  } else {
    why = fmt::format("lies {:.9g} s after the end of {}", seconds(time - end_time_), range);
  }
  error = std::make_exception_ptr(InputError(
      fmt::format("{}: record {} ({}) has timestamp {}, which {}; the event file is damaged or "
                  "belongs to another trace",
                  where_, records_, name(kind), time, why)));
  return false;
}

void Otf2EventDecoder::enter(OTF2_TimeStamp time, RegionClass region) {
  if (region == RegionClass::Other) return;
  if (depth_++ == 0) {
    pending_ += since(last_leave_, time);
    call_ = region;
  }
}

void Otf2EventDecoder::leave(OTF2_TimeStamp time, RegionClass region) {
  if (region == RegionClass::Other || depth_ == 0) return;  // unbalanced: measurement was off
  if (--depth_ != 0) return;
  last_leave_ = time;
  call_ = RegionClass::Other;
  for (const auto request : sendrecv_) emit(time, make(EventKind::Wait, request));
  sendrecv_.clear();
}

void Otf2EventDecoder::send(OTF2_TimeStamp time, RecordKind kind, uint32_t receiver,
                            OTF2_CommRef comm, uint32_t tag, uint64_t length,
                            const uint64_t* request) {
  const CommInfo* info = defs_.comm(comm);
  if (info == nullptr) return skip_comm(kind, comm);
  Event event = make(EventKind::Send, 0);
  fill_point_to_point(event, *info, comm, receiver, tag, length, "receiver");
  if (request != nullptr || call_ == RegionClass::MpiSendrecv) {
    event.kind = EventKind::Isend;
    event.request = next_request_++;
    if (request != nullptr) {
      if (!live_.insert_or_assign(*request, Live{event.request, position_, false}).second) {
        ++summary_.unknown_requests;  // reposted while live: the old one is lost
      }
    } else {
      sendrecv_.push_back(event.request);
    }
  }
  emit(time, event);
}

void Otf2EventDecoder::receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm,
                               uint32_t tag, uint64_t length) {
  const CommInfo* info = defs_.comm(comm);
  if (info == nullptr) return skip_comm(RecordKind::MpiRecv, comm);
  Event event = make(EventKind::Recv, 0);
  fill_point_to_point(event, *info, comm, sender, tag, length, "sender");
  if (call_ == RegionClass::MpiSendrecv) {
    event.kind = EventKind::Irecv;
    event.request = next_request_++;
    sendrecv_.push_back(event.request);
  }
  emit(time, event);
}

void Otf2EventDecoder::post(OTF2_TimeStamp time, EventKind kind, uint64_t request) {
  Live live{next_request_, position_, store_ != nullptr};
  Event event = make(kind, next_request_++);
  if (live.stored) {
    emit(time, event);
  } else {  // streaming: held back, with its gap, until it completes
    hold_gap(time);
    event.gap = take_gap();
    live.pending = event;
    ++position_;
  }
  if (!live_.insert_or_assign(request, live).second) ++summary_.unknown_requests;
}

void Otf2EventDecoder::complete_send(OTF2_TimeStamp time, uint64_t request) {
  const auto it = live_.find(request);
  if (it == live_.end()) {
    ++summary_.unknown_requests;
    return skip(RecordKind::MpiIsendComplete);
  }
  const auto id = it->second.id;
  live_.erase(it);
  emit(time, make(EventKind::Wait, id));
}

void Otf2EventDecoder::complete_receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm,
                                        uint32_t tag, uint64_t length, uint64_t request) {
  const CommInfo* info = defs_.comm(comm);
  if (info == nullptr) return skip_comm(RecordKind::MpiIrecv, comm);
  auto it = live_.find(request);
  if (it == live_.end()) {  // no MpiIrecvRequest (older tracers): post it here
    post(time, EventKind::Irecv, request);
    it = live_.find(request);
  }
  Live live = it->second;
  live_.erase(it);
  Event& event = patch(live);
  fill_point_to_point(event, *info, comm, sender, tag, length, "sender");
  finish_patch(time, live, event);
}

void Otf2EventDecoder::complete_collective(OTF2_TimeStamp time, OTF2_CollectiveOp op,
                                           OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                           uint64_t received, uint64_t request) {
  const CommInfo* info = defs_.comm(comm);
  const auto it = live_.find(request);
  if (info == nullptr) return skip_comm(RecordKind::NonBlockingCollectiveComplete, comm);
  if (it == live_.end()) {
    ++summary_.unknown_requests;
    return skip(RecordKind::NonBlockingCollectiveComplete);
  }
  Live live = it->second;
  live_.erase(it);
  Event& event = patch(live);
  fill_collective(event, *info, comm, op, root, sent, received);
  finish_patch(time, live, event);
}

void Otf2EventDecoder::cancel(OTF2_TimeStamp time, uint64_t request) {
  const auto it = live_.find(request);
  if (it == live_.end()) {
    ++summary_.unknown_requests;
    return skip(RecordKind::MpiRequestCancelled);
  }
  const Live live = it->second;
  live_.erase(it);
  if (held(live)) deliver(live.pending, live.index);  // the unfinished Irecv / ICollective
  emit(time, make(EventKind::Cancel, live.id));
}

void Otf2EventDecoder::test(uint64_t request) {
  if (!live_.contains(request)) {
    ++summary_.unknown_requests;
    skip(RecordKind::MpiRequestTest);
  }
}

void Otf2EventDecoder::collective(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                  uint32_t root, uint64_t sent, uint64_t received) {
  const CommInfo* info = defs_.comm(comm);
  if (info == nullptr) return skip_comm(RecordKind::MpiCollectiveEnd, comm);
  Event event = make(EventKind::Collective, 0);
  fill_collective(event, *info, comm, op, root, sent, received);
  emit(time, event);
}

std::int64_t Otf2EventDecoder::finish() {
  summary_.open_requests += live_.size();
  std::vector<std::pair<std::size_t, Event>> held_back;
  for (const auto& [otf2_id, live] : live_) {
    if (held(live)) held_back.emplace_back(live.index, live.pending);
  }
  // In posting order, whatever order the hash map keeps.
  std::sort(held_back.begin(), held_back.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [position, event] : held_back) deliver(event, position);
  if (depth_ == 0) pending_ += since(last_leave_, last_time_);
  return take_gap();
}

bool Otf2EventDecoder::held(const Live& live) const {
  return !live.stored && sink_ != nullptr &&
         (live.pending.kind == EventKind::Irecv || live.pending.kind == EventKind::ICollective);
}

// Hands an event that did not go through emit() (no gap of its own) to the sink.
void Otf2EventDecoder::deliver(const Event& event, std::size_t position) {
  tally(event);
  sink_->event(rank_, event, position);
}

Event Otf2EventDecoder::make(EventKind kind, std::uint32_t request) const {
  Event event;
  event.kind = kind;
  event.request = request;
  event.comm = defs_.world;
  return event;
}

Rank Otf2EventDecoder::world_rank(const CommInfo& info, OTF2_CommRef comm, uint32_t local,
                                  const char* role) {
  if (info.self) {
    if (local == 0) return rank_;
  } else if (info.global_members) {
    if (local < static_cast<uint32_t>(defs_.ranks)) return static_cast<Rank>(local);
  } else {
    const auto& members = defs_.communicators[static_cast<std::size_t>(info.index)].members;
    if (local < members.size()) return members[local];
  }
  const auto name = info.self ? std::string("(self-like)")
                              : defs_.communicators[static_cast<std::size_t>(info.index)].name;
  throw InputError(fmt::format("{}: {} {} is not a rank of communicator {} (OTF2 id {})", where_,
                               role, local, name, comm));
}

void Otf2EventDecoder::fill_point_to_point(Event& event, const CommInfo& info, OTF2_CommRef comm,
                                           uint32_t peer, uint32_t tag, uint64_t length,
                                           const char* role) {
  event.peer = world_rank(info, comm, peer, role);
  event.comm = defs_.event_comm(comm, info, rank_);
  event.tag = static_cast<std::int32_t>(tag);
  event.bytes = saturate(length);
}

void Otf2EventDecoder::fill_collective(Event& event, const CommInfo& info, OTF2_CommRef comm,
                                       OTF2_CollectiveOp op, uint32_t root, uint64_t sent,
                                       uint64_t received) {
  event.op = collective_op(op);
  event.comm = defs_.event_comm(comm, info, rank_);
  event.peer = root == OTF2_UNDEFINED_UINT32 ? -1 : world_rank(info, comm, root, "root");
  event.bytes = saturate(sent);
  event.received = saturate(received);
}

void Otf2EventDecoder::finish_patch(OTF2_TimeStamp time, const Live& live, const Event& event) {
  if (event.kind == EventKind::ICollective) {
    ++summary_.collectives[static_cast<std::size_t>(event.op)];
  }
  if (!live.stored) {
    ++summary_.events[static_cast<std::size_t>(event.kind)];
    sink_->event(rank_, event, live.index);
  }
  emit(time, make(EventKind::Wait, live.id));
}

// An MPI record outside any MPI region (measurement was off around it) happens "now": the time
// since the rank left MPI is computation up to here.
void Otf2EventDecoder::hold_gap(OTF2_TimeStamp time) {
  if (depth_ == 0) {
    pending_ += since(last_leave_, time);
    last_leave_ = time;
  }
}

std::int64_t Otf2EventDecoder::take_gap() {
  const auto ticks = emitted_ticks_ + pending_;
  pending_ = 0;
  emitted_ticks_ = ticks;
  const auto ps = saturate(static_cast<Wide>(ticks) * 1'000'000'000'000u / defs_.clock.resolution);
  const auto gap = ps - emitted_ps_;
  emitted_ps_ = ps;
  return gap;
}

// Counts an event in the summary. An ICollective's operation is known only when it completes,
// so it is counted per operation then (finish_patch).
void Otf2EventDecoder::tally(const Event& event) {
  ++summary_.events[static_cast<std::size_t>(event.kind)];
  if (event.kind == EventKind::Send || event.kind == EventKind::Isend) {
    ++summary_.point_to_point.messages;
    summary_.point_to_point.bytes += static_cast<std::uint64_t>(event.bytes);
  } else if (event.kind == EventKind::Collective) {
    ++summary_.collectives[static_cast<std::size_t>(event.op)];
  }
}

void Otf2EventDecoder::emit(OTF2_TimeStamp time, Event event) {
  hold_gap(time);
  event.gap = take_gap();
  tally(event);
  if (store_ != nullptr) {
    store_->push_back(event);
  } else {
    sink_->event(rank_, event, position_);
  }
  ++position_;
}

}  // namespace mapsim::traces
