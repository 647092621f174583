#include "calibrate/PingPongTrace.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <otf2/OTF2_EvtReader.h>
#include <otf2/OTF2_EvtReaderCallbacks.h>

#include "support/Error.hpp"
#include "traces/Otf2Archive.hpp"
#include "traces/Otf2Definitions.hpp"
#include "traces/Otf2LocationReader.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::calib {
namespace {

namespace fs = std::filesystem;
using traces::RegionClass;

/// Step 1: the pairs of ranks (lower first) that exchange point-to-point messages.
class PairSink final : public traces::EventSink {
 public:
  std::set<std::pair<Rank, Rank>> pairs;

  void event(Rank rank, const traces::Event& event, std::size_t /*position*/) override {
    switch (event.kind) {
      case traces::EventKind::Send:
      case traces::EventKind::Isend:
      case traces::EventKind::Recv:
      case traces::EventKind::Irecv:
        pairs.insert(std::minmax(rank, event.peer));
        break;
      default:
        break;
    }
  }
};

/// One point-to-point operation of a rank, dated as step 2 says.
struct Operation {
  bool send = false;
  Rank peer = -1;
  std::int64_t bytes = 0;
  std::uint64_t time = 0;  ///< ticks: a send's call entered, a receive's call left
};

/// Step 2 for one location: its point-to-point operations in record order. The OTF2 callbacks
/// call it; what it throws is kept in `error` (exceptions must not unwind through libotf2).
class Timeline {
 public:
  Timeline(const traces::Otf2Definitions& definitions, Rank rank, std::string where)
      : defs_(&definitions), rank_(rank), where_(std::move(where)) {}

  std::vector<Operation> operations;
  std::exception_ptr error;

  void enter(OTF2_TimeStamp time, RegionClass region) {
    if (!mpi(region)) return;
    if (depth_++ == 0) entered_ = time;
  }
  void leave(OTF2_TimeStamp time, RegionClass region) {
    if (!mpi(region) || depth_ == 0) return;  // unbalanced: measurement was off
    if (--depth_ != 0) return;
    for (const auto k : completing_) operations[k].time = time;
    completing_.clear();
  }
  void send(OTF2_TimeStamp time, uint32_t receiver, OTF2_CommRef comm, uint64_t length) {
    const auto peer = world_rank(comm, receiver);
    if (peer < 0) return;
    operations.push_back(
        {true, peer, static_cast<std::int64_t>(length), depth_ > 0 ? entered_ : time});
  }
  void receive(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint64_t length) {
    const auto peer = world_rank(comm, sender);
    if (peer < 0) return;
    if (depth_ > 0) completing_.push_back(operations.size());  // dated when the call is left
    operations.push_back({false, peer, static_cast<std::int64_t>(length), time});
  }
  [[nodiscard]] RegionClass region(OTF2_RegionRef ref) const { return defs_->region(ref); }
  [[nodiscard]] RegionClass calling_context(OTF2_CallingContextRef ref) const {
    return defs_->calling_context(ref);
  }

 private:
  static bool mpi(RegionClass region) {
    return region == RegionClass::Mpi || region == RegionClass::MpiSendrecv;
  }

  /// The world rank of `local` in communicator `comm`, or -1 if `comm` is not an MPI one.
  [[nodiscard]] Rank world_rank(OTF2_CommRef comm, uint32_t local) const {
    const auto* info = defs_->comm(comm);
    if (info == nullptr) return -1;
    if (info->self) return rank_;
    if (info->global_members) return static_cast<Rank>(local);
    const auto& members = defs_->communicators[static_cast<std::size_t>(info->index)].members;
    if (local >= members.size()) {
      throw InputError(fmt::format("{}: a message names rank {} of communicator {}, which has {}",
                                   where_, local, comm, members.size()));
    }
    return members[local];
  }

  const traces::Otf2Definitions* defs_;
  Rank rank_;
  std::string where_;
  int depth_ = 0;                        // nesting of MPI regions
  std::uint64_t entered_ = 0;            // when the outermost MPI call was entered
  std::vector<std::size_t> completing_;  // receives completed in the current MPI call
};

// Runs `body` for one record, turning an exception into an interrupted read.
template <typename Body>
OTF2_CallbackCode guarded(void* user, Body&& body) {
  auto& timeline = *static_cast<Timeline*>(user);
  try {
    body(timeline);
  } catch (...) {
    timeline.error = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
  return OTF2_CALLBACK_SUCCESS;
}

#define MAPSIM_CALLBACK(Name, ...)                                                         \
  OTF2_CallbackCode on_##Name(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user, \
                              OTF2_AttributeList*, __VA_ARGS__)

MAPSIM_CALLBACK(Enter, OTF2_RegionRef region) {
  return guarded(user, [&](Timeline& t) { t.enter(time, t.region(region)); });
}
MAPSIM_CALLBACK(Leave, OTF2_RegionRef region) {
  return guarded(user, [&](Timeline& t) { t.leave(time, t.region(region)); });
}
MAPSIM_CALLBACK(CallingContextEnter, OTF2_CallingContextRef context, uint32_t) {
  return guarded(user, [&](Timeline& t) { t.enter(time, t.calling_context(context)); });
}
MAPSIM_CALLBACK(CallingContextLeave, OTF2_CallingContextRef context) {
  return guarded(user, [&](Timeline& t) { t.leave(time, t.calling_context(context)); });
}
MAPSIM_CALLBACK(MpiSend, uint32_t receiver, OTF2_CommRef comm, uint32_t, uint64_t length) {
  return guarded(user, [&](Timeline& t) { t.send(time, receiver, comm, length); });
}
MAPSIM_CALLBACK(MpiIsend, uint32_t receiver, OTF2_CommRef comm, uint32_t, uint64_t length,
                uint64_t) {
  return guarded(user, [&](Timeline& t) { t.send(time, receiver, comm, length); });
}
MAPSIM_CALLBACK(MpiRecv, uint32_t sender, OTF2_CommRef comm, uint32_t, uint64_t length) {
  return guarded(user, [&](Timeline& t) { t.receive(time, sender, comm, length); });
}
MAPSIM_CALLBACK(MpiIrecv, uint32_t sender, OTF2_CommRef comm, uint32_t, uint64_t length, uint64_t) {
  return guarded(user, [&](Timeline& t) { t.receive(time, sender, comm, length); });
}
#undef MAPSIM_CALLBACK

using CallbacksPtr =
    std::unique_ptr<OTF2_EvtReaderCallbacks, decltype(&OTF2_EvtReaderCallbacks_Delete)>;

/// Step 2: the point-to-point operations of `location` (a rank's), read again with their
/// timestamps from an archive the trace reader has already checked. Other records have no
/// callback: libotf2 passes over them.
std::vector<Operation> read_operations(const traces::Otf2Archive& archive,
                                       const traces::Otf2Definitions& definitions,
                                       const traces::Otf2Location& location) {
  OTF2_Reader* reader = archive.get();
  // Local definitions hold the mappings libotf2 applies to the location's events.
  if (OTF2_DefReader* defs = OTF2_Reader_GetDefReader(reader, location.ref); defs != nullptr) {
    uint64_t read = 0;
    const auto status = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &read);
    OTF2_Reader_CloseDefReader(reader, defs);
    archive.check(status, fmt::format("location {}: reading its local definitions", location.ref));
  }
  traces::take_otf2_messages();
  OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location.ref);
  if (events == nullptr) {
    archive.check(OTF2_ERROR_FILE_CAN_NOT_OPEN,
                  fmt::format("location {}: opening its event file", location.ref));
  }
  const auto closer = [reader](OTF2_EvtReader* e) { OTF2_Reader_CloseEvtReader(reader, e); };
  const std::unique_ptr<OTF2_EvtReader, decltype(closer)> close(events, closer);

  Timeline timeline(definitions, location.rank,
                    fmt::format("{}: location {} (rank {})", archive.anchor().string(),
                                location.ref, location.rank));
  CallbacksPtr callbacks(OTF2_EvtReaderCallbacks_New(), &OTF2_EvtReaderCallbacks_Delete);
  auto* cb = callbacks.get();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, &on_Enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, &on_Leave);
  OTF2_EvtReaderCallbacks_SetCallingContextEnterCallback(cb, &on_CallingContextEnter);
  OTF2_EvtReaderCallbacks_SetCallingContextLeaveCallback(cb, &on_CallingContextLeave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, &on_MpiSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, &on_MpiIsend);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, &on_MpiRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, &on_MpiIrecv);
  archive.check(OTF2_Reader_RegisterEvtCallbacks(reader, events, cb, &timeline),
                "registering event callbacks");
  uint64_t read = 0;
  const auto status = OTF2_Reader_ReadAllLocalEvents(reader, events, &read);
  if (timeline.error) std::rethrow_exception(timeline.error);
  archive.check(status, fmt::format("location {}: reading its events", location.ref));
  return std::move(timeline.operations);
}

const traces::Otf2Location& location_of(const traces::Otf2Definitions& definitions, Rank rank) {
  for (const auto& location : definitions.locations) {
    if (location.rank == rank) return location;
  }
  MAPSIM_EXPECTS(false, "the trace reader read a rank that has no location");
  return definitions.locations.front();
}

/// Step 3: checks that `ops` of `rank` alternate, starting with a send if `initiator`.
void check_alternation(const std::vector<Operation>& ops, Rank rank, bool initiator,
                       const std::string& anchor, const traces::ClockProperties& clock) {
  for (std::size_t k = 1; k < ops.size(); ++k) {
    if (ops[k].send != ops[k - 1].send) continue;
    const double at = static_cast<double>(ops[k].time - std::min(ops[k].time, clock.offset)) /
                      static_cast<double>(clock.resolution);
    throw InputError(fmt::format(
        "{}: not a ping-pong: rank {} {} twice in a row (its point-to-point operations {} and "
        "{}; the second, {} bytes, at {:.9g} s); in a ping-pong one rank sends each ping and "
        "receives its reply, the other receives it and replies",
        anchor, rank, ops[k].send ? "sends" : "receives", k, k + 1, ops[k].bytes, at));
  }
  if (initiator && ops.size() % 2 == 1) {
    throw InputError(
        fmt::format("{}: not a ping-pong: rank {}'s last ping ({} bytes) has no reply in the trace",
                    anchor, rank, ops.back().bytes));
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string pair_list(const std::set<std::pair<Rank, Rank>>& pairs) {
  constexpr std::size_t kNamed = 6;
  std::string text;
  std::size_t named = 0;
  for (const auto& [a, b] : pairs) {
    if (named++ == kNamed) {
      text += ", ...";
      break;
    }
    text += fmt::format("{}{} and {}", text.empty() ? "" : ", ", a, b);
  }
  return text;
}

}  // namespace

bool is_otf2_trace(const fs::path& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) return fs::exists(path / "traces.otf2", error);
  return path.extension() == ".otf2";
}

PingPong read_ping_pong(const fs::path& path) {
  // Step 1: the reader checks the archive and finds the pairs.
  PairSink sink;
  std::string anchor;
  {
    traces::TraceReader reader(path);
    anchor = reader.summary().anchor.string();
    reader.stream(sink);
  }
  if (sink.pairs.empty()) {
    throw InputError(fmt::format(
        "{}: no point-to-point messages: not a ping-pong between two ranks (such as osu_latency "
        "or IMB PingPong traced by Score-P)",
        anchor));
  }
  if (sink.pairs.size() > 1) {
    throw InputError(fmt::format(
        "{}: point-to-point messages between {} pairs of ranks ({}): a ping-pong trace has one "
        "pair exchanging messages (other ranks may only take part in collectives)",
        anchor, sink.pairs.size(), pair_list(sink.pairs)));
  }
  const auto [low, high] = *sink.pairs.begin();
  if (low == high) {
    throw InputError(fmt::format(
        "{}: not a ping-pong: rank {} sends point-to-point messages to itself only", anchor, low));
  }

  // Step 2: the two ranks' operations with their times.
  const traces::Otf2Archive archive(path);
  const traces::Otf2Definitions definitions(archive);
  const auto& clock = definitions.clock;
  if (clock.resolution == 0) {
    throw InputError(fmt::format("{}: the clock's resolution is 0 ticks per second", anchor));
  }
  const traces::Otf2LocationFiles files(archive, definitions);
  auto low_ops = read_operations(archive, definitions, location_of(definitions, low));
  auto high_ops = read_operations(archive, definitions, location_of(definitions, high));

  // Step 3: who pings, and the round trips.
  const bool low_sends = !low_ops.empty() && low_ops.front().send;
  const bool high_sends = !high_ops.empty() && high_ops.front().send;
  if (low_sends == high_sends) {
    throw InputError(fmt::format(
        "{}: not a ping-pong: ranks {} and {} both start by {} (in a ping-pong one rank sends "
        "the first ping, the other receives it)",
        anchor, low, high, low_sends ? "sending" : "receiving"));
  }
  PingPong result;
  result.initiator = low_sends ? low : high;
  result.responder = low_sends ? high : low;
  const auto& a = low_sends ? low_ops : high_ops;
  const auto& b = low_sends ? high_ops : low_ops;
  check_alternation(a, result.initiator, true, anchor, clock);
  check_alternation(b, result.responder, false, anchor, clock);
  if (a.size() != b.size()) {
    throw InputError(fmt::format(
        "{}: not a ping-pong: rank {} records {} messages, rank {} {}; the trace is incomplete",
        anchor, result.initiator, a.size(), result.responder, b.size()));
  }
  std::map<std::int64_t, std::vector<double>> by_size;
  const auto resolution = static_cast<double>(clock.resolution);
  for (std::size_t k = 0; k + 1 < a.size(); k += 2) {
    const auto& ping = a[k];
    const auto& reply = a[k + 1];
    if (reply.bytes != ping.bytes) {
      throw InputError(fmt::format(
          "{}: not a ping-pong: rank {} replies {} bytes to a ping of {} bytes from rank {} "
          "(round trip {}, at {:.9g} s); a ping-pong's reply has the ping's size",
          anchor, result.responder, reply.bytes, ping.bytes, result.initiator, k / 2 + 1,
          static_cast<double>(ping.time - std::min(ping.time, clock.offset)) / resolution));
    }
    const auto ticks = reply.time > ping.time ? reply.time - ping.time : 0;
    by_size[ping.bytes].push_back(static_cast<double>(ticks) / resolution / 2);
  }

  // Step 4: the median per size.
  result.round_trips = a.size() / 2;
  result.series.benchmark = "OTF2 ping-pong";
  result.series.measure = Measure::OneWayTime;
  result.series.source = path.string();
  for (const auto& [bytes, times] : by_size) {
    result.series.points.push_back({bytes, median(times)});
    result.repetitions.push_back(times.size());
  }
  return result;
}

Series read_ping_pong_trace(const fs::path& path) {
  return read_ping_pong(path).series;
}

}  // namespace mapsim::calib
