#pragma once
// The state of one OTF2 location while its records are read, turning MPI records into trace-model
// events (internal to the reader; the rules are in Otf2LocationReader.hpp). The OTF2 callbacks
// call these methods; they may throw, and the callbacks catch (exceptions must not unwind through
// libotf2's C frames) and interrupt the reading.

#include <cstdint>
#include <exception>
#include <string>
#include <unordered_map>
#include <vector>

#include <otf2/OTF2_Events.h>
#include <otf2/OTF2_GeneralDefinitions.h>

#include "traces/Otf2Definitions.hpp"
#include "traces/Otf2LocationReader.hpp"
#include "traces/Trace.hpp"
#include "traces/TraceSummary.hpp"

namespace mapsim::traces {

class Otf2EventDecoder {
 public:
  /// Exactly one of `store` (append to a stored stream) and `sink` (stream) is non-null.
  /// `where` names the location in error messages.
  Otf2EventDecoder(Otf2Definitions& definitions, const Otf2Location& location,
                   std::vector<Event>* store, EventSink* sink, TraceSummary& summary,
                   std::string where);

  RecordCounters counters;
  std::exception_ptr error;  ///< what interrupted the reading, rethrown after it

  /// Counts a record; false (with `error` set) if its timestamp goes back in time or leaves the
  /// clock range of the definitions [offset, offset + length] — a damaged event file, or one of
  /// another run. Timestamps are checked on every record, whether decoded or skipped.
  [[nodiscard]] bool saw(RecordKind kind, OTF2_TimeStamp time) {
    ++counters.read[static_cast<std::size_t>(kind)];
    if (time < last_time_ || time > end_time_) [[unlikely]] {
      return bad_time(kind, time);
    }
    last_time_ = time;
    ++records_;
    return true;
  }
  /// The location, as error messages name it.
  [[nodiscard]] const std::string& where() const { return where_; }
  /// Records seen so far (all kinds).
  [[nodiscard]] std::uint64_t records() const { return records_; }
  void skip(RecordKind kind) { ++counters.skipped[static_cast<std::size_t>(kind)]; }
  /// The class of region `ref`; throws InputError if the definitions have no such region.
  [[nodiscard]] RegionClass region(OTF2_RegionRef ref) const {
    const auto region = defs_.region(ref);
    if (region == RegionClass::Undefined) [[unlikely]] {
      undefined("region", ref);
    }
    return region;
  }
  [[nodiscard]] RegionClass calling_context(OTF2_CallingContextRef ref) const {
    const auto region = defs_.calling_context(ref);
    if (region == RegionClass::Undefined) [[unlikely]] {
      undefined("calling context", ref);
    }
    return region;
  }

  void enter(OTF2_TimeStamp time, RegionClass region);
  void leave(OTF2_TimeStamp time, RegionClass region);
  /// MpiSend (request null) or MpiIsend.
  void send(OTF2_TimeStamp time, RecordKind kind, uint32_t receiver, OTF2_CommRef comm,
            uint32_t tag, uint64_t length, const uint64_t* request);
  void receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
               uint64_t length);
  /// MpiIrecvRequest (kind Irecv) or NonBlockingCollectiveRequest (kind ICollective).
  void post(OTF2_TimeStamp time, EventKind kind, uint64_t request);
  void complete_send(OTF2_TimeStamp time, uint64_t request);
  void complete_receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                        uint64_t length, uint64_t request);
  void complete_collective(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                           uint32_t root, uint64_t sent, uint64_t received, uint64_t request);
  void cancel(OTF2_TimeStamp time, uint64_t request);
  void test(uint64_t request);
  void collective(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                  uint64_t sent, uint64_t received);

  /// Ends the stream (hands still-held events to the sink); returns the final gap in ps.
  std::int64_t finish();

 private:
  struct Live {
    std::uint32_t id = 0;
    std::size_t index = 0;  // position in the rank's stream (index in the stored one)
    bool stored = false;
    Event pending{};  // streaming: the Irecv / ICollective waiting for its completion
  };

  bool bad_time(RecordKind kind, OTF2_TimeStamp time);
  [[noreturn]] void undefined(const char* what, std::uint64_t ref) const;
  /// A record on communicator `comm`, which is not an MPI one: skipped if it is defined.
  void skip_comm(RecordKind kind, OTF2_CommRef comm);
  [[nodiscard]] bool held(const Live& live) const;
  void deliver(const Event& event, std::size_t position);
  [[nodiscard]] Event make(EventKind kind, std::uint32_t request) const;
  Rank world_rank(const CommInfo& info, OTF2_CommRef comm, uint32_t local, const char* role);
  void fill_point_to_point(Event& event, const CommInfo& info, OTF2_CommRef comm, uint32_t peer,
                           uint32_t tag, uint64_t length, const char* role);
  void fill_collective(Event& event, const CommInfo& info, OTF2_CommRef comm, OTF2_CollectiveOp op,
                       uint32_t root, uint64_t sent, uint64_t received);
  Event& patch(Live& live) { return live.stored ? (*store_)[live.index] : live.pending; }
  void finish_patch(OTF2_TimeStamp time, const Live& live, const Event& event);
  void hold_gap(OTF2_TimeStamp time);
  std::int64_t take_gap();
  void tally(const Event& event);
  void emit(OTF2_TimeStamp time, Event event);

  Otf2Definitions& defs_;
  Rank rank_;
  std::vector<Event>* store_;
  EventSink* sink_;
  TraceSummary& summary_;
  std::string where_;

  int depth_ = 0;                          // nesting of MPI regions
  RegionClass call_ = RegionClass::Other;  // the outermost MPI region entered
  std::uint64_t last_leave_;               // when the rank last left MPI
  std::uint64_t last_time_;                // the latest record seen
  std::uint64_t end_time_;                 // the clock's last tick (offset + length)
  std::uint64_t records_ = 0;              // records seen
  std::uint64_t pending_ = 0;              // ticks of computation not yet given to an event
  std::uint64_t emitted_ticks_ = 0;        // ticks given to events so far
  std::int64_t emitted_ps_ = 0;            // the same, in ps
  std::uint32_t next_request_ = 0;
  std::size_t position_ = 0;                 // events produced so far, held ones included
  std::unordered_map<uint64_t, Live> live_;  // by OTF2 request id
  std::vector<std::uint32_t> sendrecv_;      // requests of the current MPI_Sendrecv
};

}  // namespace mapsim::traces
