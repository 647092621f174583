#include "traces/Otf2LocationReader.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

#include <fmt/format.h>
#include <otf2/OTF2_EvtReader.h>
#include <otf2/OTF2_EvtReaderCallbacks.h>

#include "support/Error.hpp"

namespace mapsim::traces {

std::string_view name(RecordKind kind) {
  static constexpr std::array<std::string_view, kRecordKindCount> kNames{
#define MAPSIM_X(name) #name,
      MAPSIM_OTF2_RECORD_KINDS(MAPSIM_X)
#undef MAPSIM_X
  };
  return kNames[static_cast<std::size_t>(kind)];
}

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
      return CollectiveOp::Other;
  }
}

std::int64_t saturate(Wide value) {
  constexpr auto kMax = static_cast<Wide>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(value, kMax));
}

/// The state of one location while its records are read. Methods are called from the OTF2
/// callbacks below; they may throw, the callbacks catch (exceptions must not unwind through
/// libotf2's C frames) and interrupt the reading.
class Decoder {
 public:
  Decoder(Otf2Definitions& definitions, const Otf2Location& location, std::vector<Event>* store,
          EventSink* sink, TraceSummary& summary, std::string where)
      : defs_(definitions),
        rank_(location.rank),
        store_(store),
        sink_(sink),
        summary_(summary),
        where_(std::move(where)),
        last_leave_(definitions.clock.offset),
        last_time_(definitions.clock.offset) {}

  RecordCounters counters;
  std::exception_ptr error;

  void saw(RecordKind kind, OTF2_TimeStamp time) {
    ++counters.read[static_cast<std::size_t>(kind)];
    last_time_ = std::max(last_time_, time);
  }
  void skip(RecordKind kind) { ++counters.skipped[static_cast<std::size_t>(kind)]; }
  [[nodiscard]] RegionClass region(OTF2_RegionRef ref) const { return defs_.region(ref); }
  [[nodiscard]] RegionClass calling_context(OTF2_CallingContextRef ref) const {
    return defs_.calling_context(ref);
  }

  void enter(OTF2_TimeStamp time, RegionClass region) {
    if (region == RegionClass::Other) return;
    if (depth_++ == 0) {
      pending_ += since(last_leave_, time);
      call_ = region;
    }
  }

  void leave(OTF2_TimeStamp time, RegionClass region) {
    if (region == RegionClass::Other || depth_ == 0) return;  // unbalanced: measurement was off
    if (--depth_ != 0) return;
    last_leave_ = time;
    for (const auto request : sendrecv_) emit(time, make(EventKind::Wait, request));
    sendrecv_.clear();
  }

  void send(OTF2_TimeStamp time, RecordKind kind, uint32_t receiver, OTF2_CommRef comm,
            uint32_t tag, uint64_t length, const uint64_t* request) {
    const CommInfo* info = defs_.comm(comm);
    if (info == nullptr) return skip(kind);
    Event event = make(EventKind::Send, 0);
    fill_point_to_point(event, *info, comm, receiver, tag, length, "receiver");
    if (request != nullptr || call_ == RegionClass::MpiSendrecv) {
      event.kind = EventKind::Isend;
      event.request = next_request_++;
      if (request != nullptr) {
        if (!live_.insert_or_assign(*request, Live{event.request, 0, false}).second) {
          ++summary_.unknown_requests;  // reposted while live: the old one is lost
        }
      } else {
        sendrecv_.push_back(event.request);
      }
    }
    emit(time, event);
  }

  void receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
               uint64_t length) {
    const CommInfo* info = defs_.comm(comm);
    if (info == nullptr) return skip(RecordKind::MpiRecv);
    Event event = make(EventKind::Recv, 0);
    fill_point_to_point(event, *info, comm, sender, tag, length, "sender");
    if (call_ == RegionClass::MpiSendrecv) {
      event.kind = EventKind::Irecv;
      event.request = next_request_++;
      sendrecv_.push_back(event.request);
    }
    emit(time, event);
  }

  void post(OTF2_TimeStamp time, EventKind kind, uint64_t request) {
    Event event = make(kind, next_request_++);
    if (kind == EventKind::ICollective) event.comm = defs_.world;
    Live live{event.request, 0, false};
    if (store_ != nullptr) {
      live.index = store_->size();
      live.stored = true;
      emit(time, event);
    } else {
      live.pending = event;
      pending_gap_holder(time);
    }
    if (!live_.insert_or_assign(request, live).second) ++summary_.unknown_requests;
  }

  void complete_send(OTF2_TimeStamp time, uint64_t request) {
    const auto it = live_.find(request);
    if (it == live_.end()) {
      ++summary_.unknown_requests;
      return skip(RecordKind::MpiIsendComplete);
    }
    const auto id = it->second.id;
    live_.erase(it);
    emit(time, make(EventKind::Wait, id));
  }

  void complete_receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                        uint64_t length, uint64_t request) {
    const CommInfo* info = defs_.comm(comm);
    if (info == nullptr) return skip(RecordKind::MpiIrecv);
    const auto it = live_.find(request);
    if (it == live_.end()) {  // no MpiIrecvRequest: post it here
      post(time, EventKind::Irecv, request);
      return complete_receive(time, sender, comm, tag, length, request);
    }
    Live live = it->second;
    live_.erase(it);
    Event& event = patch(live);
    fill_point_to_point(event, *info, comm, sender, tag, length, "sender");
    finish_patch(time, live, event);
  }

  void complete_collective(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                           uint32_t root, uint64_t sent, uint64_t received, uint64_t request) {
    const CommInfo* info = defs_.comm(comm);
    const auto it = live_.find(request);
    if (info == nullptr || it == live_.end()) {
      if (info != nullptr) ++summary_.unknown_requests;
      return skip(RecordKind::NonBlockingCollectiveComplete);
    }
    Live live = it->second;
    live_.erase(it);
    Event& event = patch(live);
    fill_collective(event, *info, comm, op, root, sent, received);
    finish_patch(time, live, event);
  }

  void cancel(OTF2_TimeStamp time, uint64_t request) {
    const auto it = live_.find(request);
    if (it == live_.end()) {
      ++summary_.unknown_requests;
      return skip(RecordKind::MpiRequestCancelled);
    }
    const Live live = it->second;
    live_.erase(it);
    if (held(live)) deliver(live.pending);  // the unfinished Irecv / ICollective, as posted
    emit(time, make(EventKind::Cancel, live.id));
  }

  void test(uint64_t request) {
    if (!live_.contains(request)) {
      ++summary_.unknown_requests;
      skip(RecordKind::MpiRequestTest);
    }
  }

  void collective(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                  uint64_t sent, uint64_t received) {
    const CommInfo* info = defs_.comm(comm);
    if (info == nullptr) return skip(RecordKind::MpiCollectiveEnd);
    Event event = make(EventKind::Collective, 0);
    fill_collective(event, *info, comm, op, root, sent, received);
    emit(time, event);
  }

  /// Ends the stream; returns the final gap in ps.
  std::int64_t finish() {
    summary_.open_requests += live_.size();
    std::vector<Event> held_back;
    for (const auto& [otf2_id, live] : live_) {
      if (held(live)) held_back.push_back(live.pending);
    }
    // In posting order, whatever order the hash map keeps.
    std::sort(held_back.begin(), held_back.end(),
              [](const Event& a, const Event& b) { return a.request < b.request; });
    for (const auto& event : held_back) deliver(event);
    if (depth_ == 0) pending_ += since(last_leave_, last_time_);
    return take_gap();
  }

 private:
  struct Live {
    std::uint32_t id = 0;
    std::size_t index = 0;  // in the stored stream
    bool stored = false;
    Event pending{};  // streaming: the Irecv / ICollective waiting for its completion
  };

  // Streaming: a posted Irecv / ICollective not yet handed to the sink.
  [[nodiscard]] bool held(const Live& live) const {
    return !live.stored && sink_ != nullptr &&
           (live.pending.kind == EventKind::Irecv || live.pending.kind == EventKind::ICollective);
  }

  // Hands an event that did not go through emit() (no gap of its own) to the sink.
  void deliver(const Event& event) {
    tally(event);
    sink_->event(rank_, event);
  }

  static std::uint64_t since(std::uint64_t from, std::uint64_t to) {
    return to > from ? to - from : 0;  // clocks may step back a little after correction
  }

  Event make(EventKind kind, std::uint32_t request) const {
    Event event;
    event.kind = kind;
    event.request = request;
    event.comm = defs_.world;
    return event;
  }

  Rank world_rank(const CommInfo& info, OTF2_CommRef comm, uint32_t local, const char* role) {
    if (info.self) {
      if (local == 0) return rank_;
    } else if (info.global_members) {
      if (local < static_cast<uint32_t>(defs_.ranks)) return static_cast<Rank>(local);
    } else {
      const auto& members = defs_.communicators[static_cast<std::size_t>(info.index)].members;
      if (local < members.size()) return members[local];
    }
    throw InputError(fmt::format("{}: {} {} is not a rank of communicator {} (OTF2 id {})", where_,
                                 role, local, comm_name(info, comm), comm));
  }

  std::string comm_name(const CommInfo& info, OTF2_CommRef comm) {
    return info.self ? fmt::format("{}", comm)
                     : defs_.communicators[static_cast<std::size_t>(info.index)].name;
  }

  void fill_point_to_point(Event& event, const CommInfo& info, OTF2_CommRef comm, uint32_t peer,
                           uint32_t tag, uint64_t length, const char* role) {
    event.peer = world_rank(info, comm, peer, role);
    event.comm = defs_.event_comm(comm, info, rank_);
    event.tag = static_cast<std::int32_t>(tag);
    event.bytes = saturate(length);
  }

  void fill_collective(Event& event, const CommInfo& info, OTF2_CommRef comm, OTF2_CollectiveOp op,
                       uint32_t root, uint64_t sent, uint64_t received) {
    event.op = collective_op(op);
    event.comm = defs_.event_comm(comm, info, rank_);
    event.peer = root == OTF2_UNDEFINED_UINT32 ? -1 : world_rank(info, comm, root, "root");
    event.bytes = saturate(sent);
    event.received = saturate(received);
  }

  Event& patch(Live& live) { return live.stored ? (*store_)[live.index] : live.pending; }

  void finish_patch(OTF2_TimeStamp time, const Live& live, const Event& event) {
    if (event.kind == EventKind::ICollective) {
      ++summary_.collectives[static_cast<std::size_t>(event.op)];
    }
    if (!live.stored) {
      ++summary_.events[static_cast<std::size_t>(event.kind)];
      sink_->event(rank_, event);
    }
    emit(time, make(EventKind::Wait, live.id));
  }

  // Streaming keeps a posted Irecv / ICollective back; its gap stays pending for the next event.
  void pending_gap_holder(OTF2_TimeStamp time) {
    if (depth_ == 0) {
      pending_ += since(last_leave_, time);
      last_leave_ = time;
    }
  }

  std::int64_t take_gap() {
    const auto ticks = emitted_ticks_ + pending_;
    pending_ = 0;
    emitted_ticks_ = ticks;
    const auto ps =
        saturate(static_cast<Wide>(ticks) * 1'000'000'000'000u / defs_.clock.resolution);
    const auto gap = ps - emitted_ps_;
    emitted_ps_ = ps;
    return gap;
  }

  // Counts an event in the summary. An ICollective's operation is known only when it completes,
  // so it is counted per operation then (finish_patch).
  void tally(const Event& event) {
    ++summary_.events[static_cast<std::size_t>(event.kind)];
    if (event.kind == EventKind::Send || event.kind == EventKind::Isend) {
      ++summary_.point_to_point.messages;
      summary_.point_to_point.bytes += static_cast<std::uint64_t>(event.bytes);
    } else if (event.kind == EventKind::Collective) {
      ++summary_.collectives[static_cast<std::size_t>(event.op)];
    }
  }

  void emit(OTF2_TimeStamp time, Event event) {
    pending_gap_holder(time);  // an MPI record outside any MPI region: it happens "now"
    event.gap = take_gap();
    tally(event);
    if (store_ != nullptr) {
      store_->push_back(event);
    } else {
      sink_->event(rank_, event);
    }
  }

  Otf2Definitions& defs_;
  Rank rank_;
  std::vector<Event>* store_;
  EventSink* sink_;
  TraceSummary& summary_;
  std::string where_;

  int depth_ = 0;
  RegionClass call_ = RegionClass::Other;
  std::uint64_t last_leave_;
  std::uint64_t last_time_;
  std::uint64_t pending_ = 0;        // ticks of computation not yet given to an event
  std::uint64_t emitted_ticks_ = 0;  // ticks given to events so far
  std::int64_t emitted_ps_ = 0;      // the same, in ps
  std::uint32_t next_request_ = 0;
  std::unordered_map<uint64_t, Live> live_;
  std::vector<std::uint32_t> sendrecv_;  // requests of the current MPI_Sendrecv
};

Decoder& decoder(void* user) {
  return *static_cast<Decoder*>(user);
}

// Runs `body` for one record, turning an exception into an interrupted read.
template <typename Body>
OTF2_CallbackCode guarded(void* user, RecordKind kind, OTF2_TimeStamp time, Body&& body) {
  Decoder& d = decoder(user);
  d.saw(kind, time);
  try {
    body(d);
  } catch (...) {
    d.error = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
  return OTF2_CALLBACK_SUCCESS;
}

// Records the trace model does not use: counted and skipped. One template serves every callback
// signature (the trailing arguments differ per kind).
template <RecordKind Kind, typename... Rest>
OTF2_CallbackCode skip_record(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                              OTF2_AttributeList*, Rest...) {
  Decoder& d = decoder(user);
  d.saw(Kind, time);
  d.skip(Kind);
  return OTF2_CALLBACK_SUCCESS;
}

#define MAPSIM_CALLBACK(Name, ...)                                                         \
  OTF2_CallbackCode on_##Name(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user, \
                              OTF2_AttributeList*, __VA_ARGS__)

MAPSIM_CALLBACK(Enter, OTF2_RegionRef region) {
  return guarded(user, RecordKind::Enter, time,
                 [&](Decoder& d) { d.enter(time, d.region(region)); });
}
MAPSIM_CALLBACK(Leave, OTF2_RegionRef region) {
  return guarded(user, RecordKind::Leave, time,
                 [&](Decoder& d) { d.leave(time, d.region(region)); });
}
MAPSIM_CALLBACK(CallingContextEnter, OTF2_CallingContextRef context, uint32_t) {
  return guarded(user, RecordKind::CallingContextEnter, time,
                 [&](Decoder& d) { d.enter(time, d.calling_context(context)); });
}
MAPSIM_CALLBACK(CallingContextLeave, OTF2_CallingContextRef context) {
  return guarded(user, RecordKind::CallingContextLeave, time,
                 [&](Decoder& d) { d.leave(time, d.calling_context(context)); });
}
MAPSIM_CALLBACK(MpiSend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return guarded(user, RecordKind::MpiSend, time, [&](Decoder& d) {
    d.send(time, RecordKind::MpiSend, receiver, comm, tag, length, nullptr);
  });
}
MAPSIM_CALLBACK(MpiIsend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                uint64_t request) {
  return guarded(user, RecordKind::MpiIsend, time, [&](Decoder& d) {
    d.send(time, RecordKind::MpiIsend, receiver, comm, tag, length, &request);
  });
}
MAPSIM_CALLBACK(MpiIsendComplete, uint64_t request) {
  return guarded(user, RecordKind::MpiIsendComplete, time,
                 [&](Decoder& d) { d.complete_send(time, request); });
}
MAPSIM_CALLBACK(MpiIrecvRequest, uint64_t request) {
  return guarded(user, RecordKind::MpiIrecvRequest, time,
                 [&](Decoder& d) { d.post(time, EventKind::Irecv, request); });
}
MAPSIM_CALLBACK(MpiRecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return guarded(user, RecordKind::MpiRecv, time,
                 [&](Decoder& d) { d.receive(time, sender, comm, tag, length); });
}
MAPSIM_CALLBACK(MpiIrecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                uint64_t request) {
  return guarded(user, RecordKind::MpiIrecv, time,
                 [&](Decoder& d) { d.complete_receive(time, sender, comm, tag, length, request); });
}
MAPSIM_CALLBACK(MpiRequestTest, uint64_t request) {
  return guarded(user, RecordKind::MpiRequestTest, time, [&](Decoder& d) { d.test(request); });
}
MAPSIM_CALLBACK(MpiRequestCancelled, uint64_t request) {
  return guarded(user, RecordKind::MpiRequestCancelled, time,
                 [&](Decoder& d) { d.cancel(time, request); });
}
OTF2_CallbackCode on_MpiCollectiveBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                        OTF2_AttributeList*) {
  return guarded(user, RecordKind::MpiCollectiveBegin, time, [](Decoder&) {});
}
MAPSIM_CALLBACK(MpiCollectiveEnd, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                uint64_t sent, uint64_t received) {
  return guarded(user, RecordKind::MpiCollectiveEnd, time,
                 [&](Decoder& d) { d.collective(time, op, comm, root, sent, received); });
}
MAPSIM_CALLBACK(NonBlockingCollectiveRequest, uint64_t request) {
  return guarded(user, RecordKind::NonBlockingCollectiveRequest, time,
                 [&](Decoder& d) { d.post(time, EventKind::ICollective, request); });
}
MAPSIM_CALLBACK(NonBlockingCollectiveComplete, OTF2_CollectiveOp op, OTF2_CommRef comm,
                uint32_t root, uint64_t sent, uint64_t received, uint64_t request) {
  return guarded(user, RecordKind::NonBlockingCollectiveComplete, time, [&](Decoder& d) {
    d.complete_collective(time, op, comm, root, sent, received, request);
  });
}
#undef MAPSIM_CALLBACK

using CallbacksPtr =
    std::unique_ptr<OTF2_EvtReaderCallbacks, decltype(&OTF2_EvtReaderCallbacks_Delete)>;

// Every record kind is registered, so that each is counted; `mpi` selects the decoding
// callbacks for the kinds the model uses (otherwise those are counted and skipped too).
CallbacksPtr make_callbacks(bool mpi) {
  CallbacksPtr callbacks(OTF2_EvtReaderCallbacks_New(), &OTF2_EvtReaderCallbacks_Delete);
  auto* cb = callbacks.get();
#define MAPSIM_X(Name) \
  OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, &skip_record<RecordKind::Name>);
  MAPSIM_OTF2_RECORD_KINDS(MAPSIM_X)
#undef MAPSIM_X
  if (mpi) {
#define MAPSIM_X(Name) OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, &on_##Name);
    MAPSIM_X(Enter)
    MAPSIM_X(Leave)
    MAPSIM_X(CallingContextEnter) MAPSIM_X(CallingContextLeave) MAPSIM_X(MpiSend) MAPSIM_X(MpiIsend)
        MAPSIM_X(MpiIsendComplete) MAPSIM_X(MpiIrecvRequest) MAPSIM_X(MpiRecv) MAPSIM_X(MpiIrecv)
            MAPSIM_X(MpiRequestTest) MAPSIM_X(MpiRequestCancelled) MAPSIM_X(MpiCollectiveBegin)
                MAPSIM_X(MpiCollectiveEnd) MAPSIM_X(NonBlockingCollectiveRequest)
                    MAPSIM_X(NonBlockingCollectiveComplete)
#undef MAPSIM_X
  }
  return callbacks;
}

}  // namespace

std::int64_t read_location(const Otf2Archive& archive, Otf2Definitions& definitions,
                           const Otf2Location& location, std::vector<Event>* store, EventSink* sink,
                           TraceSummary& summary, RecordCounters& counters) {
  const bool mpi = location.rank >= 0;
  MAPSIM_EXPECTS(!mpi || (store == nullptr) != (sink == nullptr),
                 "an MPI location needs exactly one of a store and a sink");
  const auto where =
      fmt::format("{}: location {} ('{}'{})", archive.anchor().string(), location.ref,
                  location.name, mpi ? fmt::format(", rank {}", location.rank) : "");
  OTF2_Reader* reader = archive.get();
  const auto file = [&](std::string_view extension) {
    return (archive.location_directory() / fmt::format("{}{}", location.ref, extension)).string();
  };

  // Local definitions hold the mapping tables libotf2 applies to this location's events; Score-P
  // writes them, other tools may not (then there is nothing to map).
  if (OTF2_DefReader* defs = OTF2_Reader_GetDefReader(reader, location.ref)) {
    uint64_t read = 0;
    const auto status = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &read);
    OTF2_Reader_CloseDefReader(reader, defs);
    archive.check(status, fmt::format("location {}: reading its local definitions from {} (is "
                                      "the file complete?)",
                                      location.ref, file(".def")));
  }
  take_otf2_messages();

  OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location.ref);
  if (events == nullptr) {
    archive.check(
        OTF2_ERROR_FILE_CAN_NOT_OPEN,
        fmt::format("location {}: opening its event file {}", location.ref,
                    (archive.location_directory() / fmt::format("{}.evt", location.ref)).string()));
  }
  Decoder decoder(definitions, location, store, sink, summary, where);
  const auto callbacks = make_callbacks(mpi);
  archive.check(OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks.get(), &decoder),
                "registering event callbacks");
  uint64_t read = 0;
  const auto status = OTF2_Reader_ReadAllLocalEvents(reader, events, &read);
  OTF2_Reader_CloseEvtReader(reader, events);
  if (decoder.error) std::rethrow_exception(decoder.error);
  archive.check(status, fmt::format("location {}: reading its events from {} (after {} records; "
                                    "is the file complete?)",
                                    location.ref, file(".evt"), read));
  for (std::size_t k = 0; k < kRecordKindCount; ++k) {
    counters.read[k] += decoder.counters.read[k];
    counters.skipped[k] += mpi ? decoder.counters.skipped[k] : decoder.counters.read[k];
  }
  return mpi ? decoder.finish() : 0;
}

}  // namespace mapsim::traces
