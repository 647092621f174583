#pragma once
// Reads the event records of one OTF2 location and decodes them into trace-model events
// (internal to the reader; Otf2EventDecoder does the decoding, by the rules of Trace.hpp).
//
// Compute gaps: a rank is "in MPI" from entering an MPI region (outermost) to leaving it; time
// outside MPI accumulates as computation and becomes the `gap` of the next event the rank
// produces, so time in MPI calls that produce no event (MPI_Comm_rank, an unsuccessful MPI_Test)
// is neither computation nor lost to the next event's gap. User, OpenMP, CUDA, RMA and metric
// records between MPI calls do not interrupt computation. Gaps are summed in clock ticks and
// converted to picoseconds cumulatively (ps = ticks * 10^12 / resolution in 128-bit arithmetic),
// so rounding never accumulates along a stream. The first gap counts from the trace's global
// start (ClockProperties offset); `final_gap` runs from the last MPI call to the location's last
// record.
//
// Requests: MPI reuses request ids once they complete, so the reader keeps the live requests of
// the rank and numbers each posted request afresh (0, 1, 2, ... per rank). MpiIsend → Isend,
// MpiIsendComplete → Wait; MpiIrecvRequest → Irecv at the posting point, completed in place by
// MpiIrecv (source, tag, delivered length) → Wait; NonBlockingCollectiveRequest → ICollective,
// completed by NonBlockingCollectiveComplete → Wait; MpiRequestCancelled → Cancel. An MpiIrecv
// without a live request (older tracers) becomes Irecv + Wait where it is recorded.
// MPI_Sendrecv(_replace) records MpiSend and MpiRecv inside one call; they become Isend + Irecv
// + Wait + Wait so that replay does not serialise (and deadlock) the exchange.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "traces/Otf2Archive.hpp"
#include "traces/Otf2Definitions.hpp"
#include "traces/Trace.hpp"
#include "traces/TraceSummary.hpp"

namespace mapsim::traces {

class Otf2EventDecoder;

/// Receives a rank's events while an archive is streamed. Unlike a stored Trace, an Irecv or
/// ICollective arrives when it completes (just before its Wait), with everything filled in;
/// `position` is the event's index in the rank's stored stream (read_trace's order), so that
/// the posting order can be restored.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void event(Rank rank, const Event& event, std::size_t position) = 0;
  /// The rank's stream ended; `final_gap` as RankStream::final_gap.
  virtual void end_rank(Rank /*rank*/, std::int64_t /*final_gap*/) {}
};

/// OTF2 event record kinds, in the order of OTF2_EvtReaderCallbacks.h.
// clang-format off
#define MAPSIM_OTF2_RECORD_KINDS(X)                                                            \
  X(Unknown) X(BufferFlush) X(MeasurementOnOff) X(Enter) X(Leave) X(MpiSend) X(MpiIsend)       \
  X(MpiIsendComplete) X(MpiIrecvRequest) X(MpiRecv) X(MpiIrecv) X(MpiRequestTest)              \
  X(MpiRequestCancelled) X(MpiCollectiveBegin) X(MpiCollectiveEnd) X(OmpFork) X(OmpJoin)       \
  X(OmpAcquireLock) X(OmpReleaseLock) X(OmpTaskCreate) X(OmpTaskSwitch) X(OmpTaskComplete)     \
  X(Metric) X(ParameterString) X(ParameterInt) X(ParameterUnsignedInt) X(RmaWinCreate)         \
  X(RmaWinDestroy) X(RmaCollectiveBegin) X(RmaCollectiveEnd) X(RmaGroupSync) X(RmaRequestLock) \
  X(RmaAcquireLock) X(RmaTryLock) X(RmaReleaseLock) X(RmaSync) X(RmaWaitChange) X(RmaPut)      \
  X(RmaGet) X(RmaAtomic) X(RmaOpCompleteBlocking) X(RmaOpCompleteNonBlocking) X(RmaOpTest)     \
  X(RmaOpCompleteRemote) X(ThreadFork) X(ThreadJoin) X(ThreadTeamBegin) X(ThreadTeamEnd)       \
  X(ThreadAcquireLock) X(ThreadReleaseLock) X(ThreadTaskCreate) X(ThreadTaskSwitch)            \
  X(ThreadTaskComplete) X(ThreadCreate) X(ThreadBegin) X(ThreadWait) X(ThreadEnd)              \
  X(CallingContextEnter) X(CallingContextLeave) X(CallingContextSample) X(IoCreateHandle)      \
  X(IoDestroyHandle) X(IoDuplicateHandle) X(IoSeek) X(IoChangeStatusFlags) X(IoDeleteFile)     \
  X(IoOperationBegin) X(IoOperationTest) X(IoOperationIssued) X(IoOperationComplete)           \
  X(IoOperationCancelled) X(IoAcquireLock) X(IoReleaseLock) X(IoTryLock) X(ProgramBegin)       \
  X(ProgramEnd) X(NonBlockingCollectiveRequest) X(NonBlockingCollectiveComplete) X(CommCreate) \
  X(CommDestroy)
// clang-format on

enum class RecordKind : std::uint8_t {
#define MAPSIM_X(name) name,
  MAPSIM_OTF2_RECORD_KINDS(MAPSIM_X)
#undef MAPSIM_X
      Count
};
inline constexpr std::size_t kRecordKindCount = static_cast<std::size_t>(RecordKind::Count);
std::string_view name(RecordKind kind);

/// Per-kind record counters, summed over locations.
struct RecordCounters {
  std::array<std::uint64_t, kRecordKindCount> read{};
  std::array<std::uint64_t, kRecordKindCount> skipped{};
};

/// The event records of one location, read in steps: the location's local definitions and event
/// reader are opened on construction and the records read on demand, all at once (read_all, the
/// stored path) or a batch at a time (read, Otf2Streams). One decoder and the same checks serve
/// both. If the location carries a rank's MPI events, its events go to `store` (a stored Trace)
/// or to `sink` (streaming; exactly one of them is non-null); otherwise records are only counted.
/// Updates `summary` (events, collectives, traffic, request anomalies), which must outlive it.
/// Throws InputError, naming the event or local definitions file, for files that are missing,
/// empty, unreadable or truncated, for a record count other than the definitions declare
/// (checked when the records are exhausted), for a timestamp that goes back or leaves the clock
/// range, for a reference to an undefined region, calling context or communicator, and for events
/// that cannot be translated. After a throw the cursor is unusable.
class LocationCursor {
 public:
  /// `local_definitions`: read the location's local definitions (libotf2 takes them once per
  /// archive: false when the location is read a second time).
  LocationCursor(const Otf2Archive& archive, Otf2Definitions& definitions,
                 const Otf2Location& location, std::vector<Event>* store, EventSink* sink,
                 TraceSummary& summary, bool local_definitions = true);
  ~LocationCursor();
  LocationCursor(LocationCursor&& other) noexcept;
  LocationCursor& operator=(LocationCursor&& other) noexcept;
  LocationCursor(const LocationCursor&) = delete;
  LocationCursor& operator=(const LocationCursor&) = delete;

  /// Reads up to `records` more event records; false once the location has none left (its
  /// record count then checked).
  bool read(std::uint64_t records);
  /// Reads every record left.
  void read_all();
  /// Ends the location once its records are exhausted: adds its record counts to `counters`,
  /// hands held-back events to the sink and returns the rank's final gap (ps; 0 if not MPI).
  std::int64_t finish(RecordCounters& counters);

 private:
  void settle(OTF2_ErrorCode status, bool ended);
  void close() noexcept;

  const Otf2Archive* archive_;
  const Otf2Location* location_;
  std::unique_ptr<Otf2EventDecoder> decoder_;
  OTF2_EvtReader* events_ = nullptr;
  std::uint64_t read_ = 0;  // records libotf2 reported read
  bool exhausted_ = false;
};

/// Reads every event record of `location` (a LocationCursor read at once); returns the rank's
/// final gap (ps).
std::int64_t read_location(const Otf2Archive& archive, Otf2Definitions& definitions,
                           const Otf2Location& location, std::vector<Event>* store, EventSink* sink,
                           TraceSummary& summary, RecordCounters& counters);

/// What the archive and its definitions tell before any event is read (TraceSummary's first
/// fields).
TraceSummary archive_summary(const Otf2Archive& archive, const Otf2Definitions& definitions);
/// Adds the record counts of a whole read to `summary` (records, skipped, records_by_kind).
void add_record_counts(const RecordCounters& counters, TraceSummary& summary);

/// The per-location files of an archive opened for reading (RAII): every location selected,
/// the local definition files (optional) and event files opened; closed on destruction.
class Otf2LocationFiles {
 public:
  Otf2LocationFiles(const Otf2Archive& archive, const Otf2Definitions& definitions);
  ~Otf2LocationFiles();
  Otf2LocationFiles(const Otf2LocationFiles&) = delete;
  Otf2LocationFiles& operator=(const Otf2LocationFiles&) = delete;

  /// Per location (definition order): whether its event file exists (a location without events
  /// may lack one). Throws InputError, naming the anchor and a missing file, if one with events
  /// lacks its file.
  [[nodiscard]] const std::vector<bool>& present() const { return present_; }

 private:
  const Otf2Archive* archive_;
  std::vector<bool> present_;
  bool local_definitions_ = false;
};

}  // namespace mapsim::traces
