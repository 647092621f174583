#include "traces/Otf2LocationReader.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <otf2/OTF2_EvtReader.h>
#include <otf2/OTF2_EvtReaderCallbacks.h>

#include "support/Error.hpp"
#include "traces/Otf2EventDecoder.hpp"

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

Otf2EventDecoder& decoder(void* user) {
  return *static_cast<Otf2EventDecoder*>(user);
}

// Runs `body` for one record, turning an exception into an interrupted read.
template <typename Body>
OTF2_CallbackCode guarded(void* user, RecordKind kind, OTF2_TimeStamp time, Body&& body) {
  Otf2EventDecoder& d = decoder(user);
  if (!d.saw(kind, time)) return OTF2_CALLBACK_INTERRUPT;
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
  Otf2EventDecoder& d = decoder(user);
  if (!d.saw(Kind, time)) return OTF2_CALLBACK_INTERRUPT;
  d.skip(Kind);
  return OTF2_CALLBACK_SUCCESS;
}

#define MAPSIM_CALLBACK(Name, ...)                                                         \
  OTF2_CallbackCode on_##Name(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user, \
                              OTF2_AttributeList*, __VA_ARGS__)

MAPSIM_CALLBACK(Enter, OTF2_RegionRef region) {
  return guarded(user, RecordKind::Enter, time,
                 [&](Otf2EventDecoder& d) { d.enter(time, d.region(region)); });
}
MAPSIM_CALLBACK(Leave, OTF2_RegionRef region) {
  return guarded(user, RecordKind::Leave, time,
                 [&](Otf2EventDecoder& d) { d.leave(time, d.region(region)); });
}
MAPSIM_CALLBACK(CallingContextEnter, OTF2_CallingContextRef context, uint32_t) {
  return guarded(user, RecordKind::CallingContextEnter, time,
                 [&](Otf2EventDecoder& d) { d.enter(time, d.calling_context(context)); });
}
MAPSIM_CALLBACK(CallingContextLeave, OTF2_CallingContextRef context) {
  return guarded(user, RecordKind::CallingContextLeave, time,
                 [&](Otf2EventDecoder& d) { d.leave(time, d.calling_context(context)); });
}
MAPSIM_CALLBACK(MpiSend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return guarded(user, RecordKind::MpiSend, time, [&](Otf2EventDecoder& d) {
    d.send(time, RecordKind::MpiSend, receiver, comm, tag, length, nullptr);
  });
}
MAPSIM_CALLBACK(MpiIsend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                uint64_t request) {
  return guarded(user, RecordKind::MpiIsend, time, [&](Otf2EventDecoder& d) {
    d.send(time, RecordKind::MpiIsend, receiver, comm, tag, length, &request);
  });
}
MAPSIM_CALLBACK(MpiIsendComplete, uint64_t request) {
  return guarded(user, RecordKind::MpiIsendComplete, time,
                 [&](Otf2EventDecoder& d) { d.complete_send(time, request); });
}
MAPSIM_CALLBACK(MpiIrecvRequest, uint64_t request) {
  return guarded(user, RecordKind::MpiIrecvRequest, time,
                 [&](Otf2EventDecoder& d) { d.post(time, EventKind::Irecv, request); });
}
MAPSIM_CALLBACK(MpiRecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return guarded(user, RecordKind::MpiRecv, time,
                 [&](Otf2EventDecoder& d) { d.receive(time, sender, comm, tag, length); });
}
MAPSIM_CALLBACK(MpiIrecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                uint64_t request) {
  return guarded(user, RecordKind::MpiIrecv, time, [&](Otf2EventDecoder& d) {
    d.complete_receive(time, sender, comm, tag, length, request);
  });
}
MAPSIM_CALLBACK(MpiRequestTest, uint64_t request) {
  return guarded(user, RecordKind::MpiRequestTest, time,
                 [&](Otf2EventDecoder& d) { d.test(request); });
}
MAPSIM_CALLBACK(MpiRequestCancelled, uint64_t request) {
  return guarded(user, RecordKind::MpiRequestCancelled, time,
                 [&](Otf2EventDecoder& d) { d.cancel(time, request); });
}
OTF2_CallbackCode on_MpiCollectiveBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                        OTF2_AttributeList*) {
  return guarded(user, RecordKind::MpiCollectiveBegin, time, [](Otf2EventDecoder&) {});
}
MAPSIM_CALLBACK(MpiCollectiveEnd, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                uint64_t sent, uint64_t received) {
  return guarded(user, RecordKind::MpiCollectiveEnd, time,
                 [&](Otf2EventDecoder& d) { d.collective(time, op, comm, root, sent, received); });
}
MAPSIM_CALLBACK(NonBlockingCollectiveRequest, uint64_t request) {
  return guarded(user, RecordKind::NonBlockingCollectiveRequest, time,
                 [&](Otf2EventDecoder& d) { d.post(time, EventKind::ICollective, request); });
}
MAPSIM_CALLBACK(NonBlockingCollectiveComplete, OTF2_CollectiveOp op, OTF2_CommRef comm,
                uint32_t root, uint64_t sent, uint64_t received, uint64_t request) {
  return guarded(user, RecordKind::NonBlockingCollectiveComplete, time, [&](Otf2EventDecoder& d) {
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
    // clang-format off
#define MAPSIM_X(Name) OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, &on_##Name);
    MAPSIM_X(Enter) MAPSIM_X(Leave) MAPSIM_X(CallingContextEnter) MAPSIM_X(CallingContextLeave)
    MAPSIM_X(MpiSend) MAPSIM_X(MpiIsend) MAPSIM_X(MpiIsendComplete) MAPSIM_X(MpiIrecvRequest)
    MAPSIM_X(MpiRecv) MAPSIM_X(MpiIrecv) MAPSIM_X(MpiRequestTest) MAPSIM_X(MpiRequestCancelled)
    MAPSIM_X(MpiCollectiveBegin) MAPSIM_X(MpiCollectiveEnd)
    MAPSIM_X(NonBlockingCollectiveRequest) MAPSIM_X(NonBlockingCollectiveComplete)
    // clang-format on
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
  OTF2_Reader* reader = archive.get();
  const auto file = [&](std::string_view extension) {
    return (archive.location_directory() / fmt::format("{}{}", location.ref, extension)).string();
  };
  const auto where = fmt::format("{}: location {} ('{}'{})", file(".evt"), location.ref,
                                 location.name, mpi ? fmt::format(", rank {}", location.rank) : "");

  // Local definitions hold the mapping tables libotf2 applies to this location's events; Score-P
  // writes them, other tools may not (then there is nothing to map). A file that is there but
  // cannot be read is an error: without its mappings the events would be misread.
  const auto unreadable = [&](const std::string& path, std::string_view what) {
    if (auto problem = file_problem(path); !problem.empty()) {
      take_otf2_messages();
      throw InputError(
          fmt::format("{}: location {}: its {} {}", path, location.ref, what, problem));
    }
  };
  if (OTF2_DefReader* defs = OTF2_Reader_GetDefReader(reader, location.ref)) {
    uint64_t read = 0;
    const auto status = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &read);
    OTF2_Reader_CloseDefReader(reader, defs);
    archive.check(status, fmt::format("location {}: reading its local definitions from {}: the "
                                      "file is truncated or damaged (it fails after {} "
                                      "definitions)",
                                      location.ref, file(".def"), read));
  } else if (std::filesystem::exists(file(".def"))) {
    unreadable(file(".def"), "local definitions file");
    archive.check(
        OTF2_ERROR_FILE_CAN_NOT_OPEN,
        fmt::format("location {}: opening its local definitions {}", location.ref, file(".def")));
  }
  take_otf2_messages();

  OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location.ref);
  if (events == nullptr) {
    unreadable(file(".evt"), "event file");
    archive.check(
        OTF2_ERROR_FILE_CAN_NOT_OPEN,
        fmt::format("location {}: opening its event file {}", location.ref, file(".evt")));
  }
  Otf2EventDecoder decoder(definitions, location, store, sink, summary, where);
  const auto callbacks = make_callbacks(mpi);
  archive.check(OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks.get(), &decoder),
                "registering event callbacks");
  uint64_t read = 0;
  const auto status = OTF2_Reader_ReadAllLocalEvents(reader, events, &read);
  OTF2_Reader_CloseEvtReader(reader, events);
  if (decoder.error) std::rethrow_exception(decoder.error);
  archive.check(status, fmt::format("location {}: reading its events from {}: the file is "
                                    "truncated or damaged (it fails after {} of the {} records "
                                    "the definitions declare)",
                                    location.ref, file(".evt"), read, location.events));
  // A file cut at a chunk or record boundary reads without complaint; another location's or
  // another archive's file may too. The definitions' count tells.
  if (decoder.records() != location.events) {
    throw InputError(fmt::format(
        "{}: holds {} event records, but the global definitions declare {} for this location: "
        "the event file is {}",
        where, decoder.records(), location.events,
        decoder.records() < location.events ? "truncated or damaged"
                                            : "damaged or belongs to another location or trace"));
  }
  for (std::size_t k = 0; k < kRecordKindCount; ++k) {
    counters.read[k] += decoder.counters.read[k];
    counters.skipped[k] += mpi ? decoder.counters.skipped[k] : decoder.counters.read[k];
  }
  return mpi ? decoder.finish() : 0;
}

}  // namespace mapsim::traces
