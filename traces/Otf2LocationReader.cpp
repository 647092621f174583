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

namespace {

std::string location_file(const Otf2Archive& archive, const Otf2Location& location,
                          std::string_view extension) {
  return (archive.location_directory() / fmt::format("{}{}", location.ref, extension)).string();
}

}  // namespace

LocationCursor::LocationCursor(const Otf2Archive& archive, Otf2Definitions& definitions,
                               const Otf2Location& location, std::vector<Event>* store,
                               EventSink* sink, TraceSummary& summary, bool local_definitions)
    : archive_(&archive), location_(&location) {
  const bool mpi = location.rank >= 0;
  MAPSIM_EXPECTS(!mpi || (store == nullptr) != (sink == nullptr),
                 "an MPI location needs exactly one of a store and a sink");
  OTF2_Reader* reader = archive.get();
  const auto file = [&](std::string_view extension) {
    return location_file(archive, location, extension);
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
  OTF2_DefReader* defs =
      local_definitions ? OTF2_Reader_GetDefReader(reader, location.ref) : nullptr;
  if (defs != nullptr) {
    uint64_t read = 0;
    const auto status = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &read);
    OTF2_Reader_CloseDefReader(reader, defs);
    archive.check(status, fmt::format("location {}: reading its local definitions from {}: the "
                                      "file is truncated or damaged (it fails after {} "
                                      "definitions)",
                                      location.ref, file(".def"), read));
  } else if (local_definitions && std::filesystem::exists(file(".def"))) {
    unreadable(file(".def"), "local definitions file");
    archive.check(
        OTF2_ERROR_FILE_CAN_NOT_OPEN,
        fmt::format("location {}: opening its local definitions {}", location.ref, file(".def")));
  }
  take_otf2_messages();

  events_ = OTF2_Reader_GetEvtReader(reader, location.ref);
  if (events_ == nullptr) {
    unreadable(file(".evt"), "event file");
    archive.check(
        OTF2_ERROR_FILE_CAN_NOT_OPEN,
        fmt::format("location {}: opening its event file {}", location.ref, file(".evt")));
  }
  decoder_ = std::make_unique<Otf2EventDecoder>(definitions, location, store, sink, summary, where);
  // libotf2 copies the callbacks; the decoder stays where it is when the cursor moves.
  const auto callbacks = make_callbacks(mpi);
  const auto status =
      OTF2_Reader_RegisterEvtCallbacks(reader, events_, callbacks.get(), decoder_.get());
  if (status != OTF2_SUCCESS) close();
  archive.check(status, "registering event callbacks");
}

LocationCursor::~LocationCursor() {
  close();
}

LocationCursor::LocationCursor(LocationCursor&& other) noexcept
    : archive_(other.archive_),
      location_(other.location_),
      decoder_(std::move(other.decoder_)),
      events_(std::exchange(other.events_, nullptr)),
      read_(other.read_),
      exhausted_(other.exhausted_) {}

LocationCursor& LocationCursor::operator=(LocationCursor&& other) noexcept {
  if (this != &other) {
    close();
    archive_ = other.archive_;
    location_ = other.location_;
    decoder_ = std::move(other.decoder_);
    events_ = std::exchange(other.events_, nullptr);
    read_ = other.read_;
    exhausted_ = other.exhausted_;
  }
  return *this;
}

void LocationCursor::close() noexcept {
  if (events_ != nullptr) {
    OTF2_Reader_CloseEvtReader(archive_->get(), std::exchange(events_, nullptr));
  }
}

bool LocationCursor::read(std::uint64_t records) {
  if (exhausted_) return false;
  MAPSIM_EXPECTS(events_ != nullptr, "LocationCursor::read after a failed read");
  uint64_t read = 0;
  const auto status = OTF2_Reader_ReadLocalEvents(archive_->get(), events_, records, &read);
  read_ += read;
  settle(status, read < records);
  return !exhausted_;
}

void LocationCursor::read_all() {
  if (exhausted_) return;
  MAPSIM_EXPECTS(events_ != nullptr, "LocationCursor::read_all after a failed read");
  uint64_t read = 0;
  const auto status = OTF2_Reader_ReadAllLocalEvents(archive_->get(), events_, &read);
  read_ += read;
  settle(status, true);
}

// After a read: unless it went well and records are left, closes the event reader and throws
// what went wrong (the decoder's error first: it interrupted libotf2), or checks the record count.
void LocationCursor::settle(OTF2_ErrorCode status, bool ended) {
  if (status == OTF2_SUCCESS && !decoder_->error && !ended) return;
  close();
  exhausted_ = true;
  if (decoder_->error) std::rethrow_exception(decoder_->error);
  archive_->check(status,
                  fmt::format("location {}: reading its events from {}: the file is truncated or "
                              "damaged (it fails after {} of the {} records the definitions "
                              "declare)",
                              location_->ref, location_file(*archive_, *location_, ".evt"), read_,
                              location_->events));
  // A file cut at a chunk or record boundary reads without complaint; another location's or
  // another archive's file may too. The definitions' count tells.
  const auto records = decoder_->records();
  if (records != location_->events) {
    throw InputError(fmt::format(
        "{}: holds {} event records, but the global definitions declare {} for this location: "
        "the event file is {}",
        decoder_->where(), records, location_->events,
        records < location_->events ? "truncated or damaged"
                                    : "damaged or belongs to another location or trace"));
  }
}

std::int64_t LocationCursor::finish(RecordCounters& counters) {
  MAPSIM_EXPECTS(exhausted_ && decoder_ != nullptr,
                 "LocationCursor::finish before the records are exhausted");
  const bool mpi = location_->rank >= 0;
  for (std::size_t k = 0; k < kRecordKindCount; ++k) {
    counters.read[k] += decoder_->counters.read[k];
    counters.skipped[k] += mpi ? decoder_->counters.skipped[k] : decoder_->counters.read[k];
  }
  return mpi ? decoder_->finish() : 0;
}

std::int64_t read_location(const Otf2Archive& archive, Otf2Definitions& definitions,
                           const Otf2Location& location, std::vector<Event>* store, EventSink* sink,
                           TraceSummary& summary, RecordCounters& counters) {
  LocationCursor cursor(archive, definitions, location, store, sink, summary);
  cursor.read_all();
  return cursor.finish(counters);
}

TraceSummary archive_summary(const Otf2Archive& archive, const Otf2Definitions& definitions) {
  TraceSummary summary;
  summary.anchor = archive.anchor();
  summary.creator = archive.creator();
  summary.otf2_version = archive.version();
  summary.timer_resolution = definitions.clock.resolution;
  summary.trace_length = definitions.clock.length;
  summary.ranks = definitions.ranks;
  summary.locations = definitions.locations.size();
  summary.communicators = definitions.communicators.size();
  return summary;
}

void add_record_counts(const RecordCounters& counters, TraceSummary& summary) {
  for (std::size_t k = 0; k < kRecordKindCount; ++k) {
    if (counters.read[k] == 0) continue;
    summary.records_by_kind.push_back(
        {name(static_cast<RecordKind>(k)), counters.read[k], counters.skipped[k]});
    summary.records += counters.read[k];
    summary.skipped += counters.skipped[k];
  }
}

Otf2LocationFiles::Otf2LocationFiles(const Otf2Archive& archive, const Otf2Definitions& definitions)
    : archive_(&archive), present_(definitions.locations.size(), true) {
  OTF2_FileSubstrate substrate = OTF2_SUBSTRATE_UNDEFINED;
  OTF2_Compression compression = OTF2_COMPRESSION_UNDEFINED;
  if (OTF2_Reader_GetFileSubstrate(archive.get(), &substrate) != OTF2_SUCCESS ||
      OTF2_Reader_GetCompression(archive.get(), &compression) != OTF2_SUCCESS ||
      substrate != OTF2_SUBSTRATE_POSIX || compression != OTF2_COMPRESSION_NONE) {
    take_otf2_messages();  // other substrates name their files differently; libotf2 will complain
  } else {
    const auto directory = archive.location_directory();
    std::size_t missing = 0;
    std::string first;
    for (std::size_t i = 0; i < present_.size(); ++i) {
      const auto& location = definitions.locations[i];
      const auto file = directory / fmt::format("{}.evt", location.ref);
      if (std::filesystem::exists(file)) continue;
      present_[i] = false;  // fine for a location without events: tracers may not write its file
      if (location.events > 0 && missing++ == 0) first = file.string();
    }
    if (missing > 0 && !std::filesystem::is_directory(directory)) {
      throw InputError(fmt::format(
          "{}: the archive's event files are missing: the directory '{}' does not exist (the "
          "definitions list {} locations with events; only the definitions were copied?)",
          archive.anchor().string(), directory.string(), definitions.locations.size()));
    }
    if (missing > 0) {
      throw InputError(fmt::format("{}: {} of {} event files are missing, e.g. '{}'",
                                   archive.anchor().string(), missing, definitions.locations.size(),
                                   first));
    }
    // Local definitions are optional, but an archive that has them has them for every location
    // with events: without its file a location's communicators and requests read as unknown, and
    // the errors would blame the trace's events.
    std::size_t with = 0;
    std::size_t without = 0;
    for (const auto& location : definitions.locations) {
      if (location.events == 0) continue;
      const auto file = directory / fmt::format("{}.def", location.ref);
      if (std::filesystem::exists(file)) {
        ++with;
      } else if (without++ == 0) {
        first = file.string();
      }
    }
    if (with > 0 && without > 0) {
      throw InputError(fmt::format(
          "{}: {} of {} local definition files are missing, e.g. '{}' (the other locations "
          "have theirs: a partly copied archive?)",
          archive.anchor().string(), without, with + without, first));
    }
  }
  OTF2_Reader* reader = archive.get();
  for (const auto& location : definitions.locations) {
    archive.check(OTF2_Reader_SelectLocation(reader, location.ref), "selecting locations");
  }
  // Local definition files are optional (libotf2 reports an error if there are none).
  local_definitions_ = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  take_otf2_messages();
  const auto status = OTF2_Reader_OpenEvtFiles(reader);
  if (status != OTF2_SUCCESS && local_definitions_) OTF2_Reader_CloseDefFiles(reader);
  archive.check(status, "opening the event files");
}

Otf2LocationFiles::~Otf2LocationFiles() {
  OTF2_Reader* reader = archive_->get();
  if (local_definitions_) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  take_otf2_messages();
}

}  // namespace mapsim::traces
