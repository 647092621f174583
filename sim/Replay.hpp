#pragma once
// The replay kernel: ranks walking their event streams, MPI matching and protocols, collectives
// as point-to-point schedules. Internal to mapsim::sim; the public face is Simulation.hpp, whose
// comment states the semantics implemented here.
//
// The trace is read as it is replayed (traces/EventStreams.hpp): each rank holds a window of its
// next events, refilled when it runs out; a collective whose members' records are not yet read
// reads ahead in their streams until it finds them. So memory is the ranks' windows, the
// read-ahead a collective needs, and the messages in flight: per in-flight message one Message
// (104 bytes, 64 of them its critical path) + its requests (144 bytes each, with a copy of the
// event that started them, for errors, and a critical path) + a matching queue entry (16 bytes)
// + the network model's state (see each model).

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/Engine.hpp"
#include "sim/Network.hpp"
#include "sim/NetworkModel.hpp"
#include "sim/Result.hpp"
#include "sim/Simulation.hpp"
#include "sim/SlotPool.hpp"
#include "traces/CollectiveSchedule.hpp"
#include "traces/EventStreams.hpp"

namespace mapsim::sim {

class Replay {
 public:
  /// Events the ranks' windows hold together at most (1.25 MiB): a rank reads this many divided
  /// by the rank count at a time, between kMinWindow and kMaxWindow. Events are read in a batch
  /// and replayed one at a time as the ranks take turns, so a batch waits in the cache only if
  /// all windows fit in a core's L2 cache: measured (LU class B, 64 ranks, 100 iterations,
  /// communication only, torus:4x4x4), with a budget of 2^20 events (40 MiB, 16,384 per rank)
  /// MPI overheads made the replay 24 % slower, with 2^15 (512 per rank) 13 %, the replay
  /// without them no slower (generated workload and OTF2 archive alike). Windows of 256 events
  /// read an archive as fast as larger ones (LU class C, 1,024 ranks).
  static constexpr std::size_t kWindowBudget = std::size_t{1} << 15;
  static constexpr std::size_t kMinWindow = 256;
  static constexpr std::size_t kMaxWindow = 16384;

  Replay(traces::EventStreams& streams, const topo::Mapping& mapping, Network& network,
         const SimConfig& config);

  Result run();

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  struct Message {
    Time injected = 0;  // when the data entered the network
    std::int64_t bytes = 0;
    Rank src = 0;
    Rank dst = 0;
    std::uint32_t send_req = kNone;
    std::uint32_t recv_req = kNone;
    bool eager = false;
    bool matched = false;
    bool arrived = false;  // data delivered
    bool rts_arrived = false;
    bool cancelled = false;
    bool collective = false;
    // The critical path up to the start of its current transfer; after the data arrived, up to
    // its arrival (Result.hpp, CriticalPath).
    CriticalPath path;
  };
  enum class RequestKind : std::uint8_t { Send, Recv, Collective };
  struct Request {
    std::uint64_t event = 0;       // index of the trace event that started it (for errors)
    traces::Event started;         // that event (for errors)
    std::uint32_t object = kNone;  // message (Send, Recv once matched) or collective member
    std::uint32_t notify = kNone;  // kNone: the rank waits on it; else a collective member
    Rank rank = 0;
    RequestKind kind = RequestKind::Send;
    bool done = false;
    Time overhead = 0;  // a completed receive's o_r, charged when its rank takes it
    Time posted = 0;    // a receive: when its rank posted it (later than now if it ran ahead)
    // A receive: the critical path to its posting; once done, to its completion (a send's too).
    CriticalPath path;
  };
  struct Envelope {  // an entry of a receiver's matching queues
    std::int32_t tag = 0;
    Rank src = 0;
    std::uint32_t item = 0;  // unexpected: message; posted: request
    std::uint16_t comm = 0;
  };
  // A member's record of a collective it will call, read ahead of its replay.
  struct CollectiveCall {
    traces::CollectiveOp op = traces::CollectiveOp::None;
    Rank root = -1;
    std::int64_t bytes = 0;
    std::int64_t received = 0;
  };
  // A rank's communicating collectives on one communicator, as read from its stream: calls
  // [first, first + calls.size()) not yet taken by an instance; `read` found so far.
  struct CollectiveCalls {
    std::uint32_t first = 0;
    std::uint32_t read = 0;
    std::deque<CollectiveCall> calls;
  };
  struct RankState {
    std::vector<traces::Event> window;  // events [base, base + window.size()) of the stream
    std::size_t next = 0;               // index into window of the next event
    std::uint64_t base = 0;
    bool ended = false;  // the stream has no more events beyond the window
    traces::Event last;  // the event executed last (for errors)
    bool gap_done = false;
    bool final_gap_done = false;
    bool finished = false;
    std::uint32_t waiting = kNone;  // the request the rank is blocked on
    Time compute = 0;
    Time finish = 0;
    CriticalPath path;         // the critical path to the rank's present (at most now)
    Time pending_compute = 0;  // the computation of the gap it resumes after (advance)
    Time cpu_free = 0;         // overheads: the rank's CPU is busy until then
    std::array<Time, kChannels> next_injection{};  // overheads: the gap's next free time
    std::vector<std::pair<std::uint32_t, std::uint32_t>> live;  // trace request id -> request
    std::vector<Envelope> posted;      // receives waiting for a send, in posting order
    std::vector<Envelope> unexpected;  // sends waiting for a receive, in sending order
    std::unordered_map<std::uint16_t, std::uint32_t> collectives_on;  // comm -> count so far
    std::unordered_map<std::uint16_t, CollectiveCalls> collectives_read;
  };
  struct CollectiveInstance {
    std::unique_ptr<traces::CollectiveSchedule> schedule;
    std::uint32_t members_left = 0;
  };
  struct Member {
    std::uint64_t instance_key = 0;
    std::uint32_t request = kNone;  // the rank-visible request, completed at the end
    std::int32_t me = 0;            // rank within the communicator
    std::int32_t step = 0;
    std::int32_t tag = 0;
    std::uint32_t pending = 0;  // its messages not yet done (more than one step's if they overlap)
    std::uint32_t posted[2] = {kNone, kNone};  // the requests of the step being posted
    std::uint16_t comm = 0;
    bool posting = false;
    bool waiting = false;  // for its pending messages (a step without overlap, or the end)
    Time overhead = 0;     // its step's receive overheads, charged before the next step
    CriticalPath path;     // the critical path to the member's present
  };

  // Rank replay (Replay.cpp).
  /// Reads the rank's next window (keeping the events not yet replayed); false at its end.
  bool read_more(Rank rank);
  /// Checks a newly read event's references and notes its collective calls.
  void check_read(Rank rank, const traces::Event& event, std::uint64_t index);
  void advance(Rank rank);
  /// Throws Cancelled if the config's stop condition holds.
  void check_stop(std::chrono::steady_clock::time_point deadline) const;
  /// Executes the event; returns true if the rank is now blocked.
  bool execute(Rank rank, const traces::Event& event, std::uint64_t index);
  bool block_on(Rank rank, std::uint32_t request);
  std::uint32_t take_live(Rank rank, std::uint32_t id, std::uint64_t index, const char* what);
  std::uint32_t new_request(Rank rank, RequestKind kind, std::uint64_t index,
                            const traces::Event& event, std::uint32_t notify);
  void complete(std::uint32_t request);
  /// Resumes the rank at `at` (not before now): an engine event, or none when it would be the
  /// next one.
  void resume(Rank rank, Time at);
  void cancel(std::uint32_t request);

  // Messages and protocols (Replay.cpp).
  /// `from`: the critical path of the sender (the rank, or its collective member) at the post.
  std::uint32_t post_send(Rank src, Rank dst, std::uint16_t comm, std::int32_t tag,
                          std::int64_t bytes, std::uint32_t request, bool collective,
                          const CriticalPath& from);
  void post_recv(Rank rank, Rank src, std::uint16_t comm, std::int32_t tag, std::uint32_t request);
  void pair(std::uint32_t message, std::uint32_t request);
  void start_transfer(std::uint32_t message, int phase, Time delay = 0);
  /// Starts the message's eager data or request-to-send after its sender's overheads.
  void inject(std::uint32_t message, int phase);
  /// Gives a receive request of `message` (arrived) its overhead and critical path; the caller
  /// releases the message, then completes the request (which may post new messages).
  void take_arrival(std::uint32_t request, const Message& message);

  // Overheads (Replay.cpp, sim/Overheads.hpp); used only when config_.overheads is not none.
  [[nodiscard]] Channel channel(Rank a, Rank b) const {
    if (mapping_->node(a) != mapping_->node(b)) return Channel::Network;
    return socket(a) == socket(b) ? Channel::IntraNode : Channel::InterSocket;
  }
  /// The rank's socket on its node (0 on nodes of one socket).
  [[nodiscard]] int socket(Rank rank) const {
    return sockets_.empty() ? 0 : sockets_[static_cast<std::size_t>(rank)];
  }
  /// Whether the rank may execute `event` now although its CPU is busy until cpu_free: a Send or
  /// Isend (its o_s starts at cpu_free and its transfer enters the network at the same time,
  /// as a delayed transfer; it matches the same receive, MPI's order per source and tag being
  /// kept) or a Wait (a completed request's o_r starts at cpu_free; a pending one resumes the
  /// rank at max(completion, cpu_free) + o_r): the same times without an engine event each.
  /// A Recv or Irecv too: it is posted at cpu_free (Request::posted), so a rendezvous's
  /// clear-to-send leaves at max(request-to-send arrival, posted), and a message that arrives
  /// before then is taken at cpu_free + o_r, as if posted then. A rank that completes a receive
  /// runs ahead of its o_r the same way (resumes_now).
  [[nodiscard]] bool runs_ahead(const traces::Event& event) const {
    using traces::EventKind;
    return run_ahead_ && (event.kind == EventKind::Send || event.kind == EventKind::Isend ||
                          event.kind == EventKind::Recv || event.kind == EventKind::Irecv ||
                          event.kind == EventKind::Wait);
  }
  /// Whether a rank that is busy with overheads and resumes now would execute its next event at
  /// once (runs_ahead, no compute gap before it): then it need not wait for an engine event at
  /// the end of its overheads. False when that event is not read yet.
  [[nodiscard]] bool resumes_now(const RankState& state) const {
    if (!run_ahead_ || state.gap_done || state.next >= state.window.size()) return false;
    const traces::Event& event = state.window[state.next];
    return (config_.compute_scale == 0 || event.gap <= 0) && runs_ahead(event);
  }
  /// The delay of a clear-to-send started now for receive `request`: until it was posted.
  [[nodiscard]] Time until_posted(std::uint32_t request) const {
    return std::max<Time>(0, requests_[request].posted - engine_.now());
  }
  /// Occupies the rank's CPU for `cost` from max(now, cpu_free); returns when it is free again.
  Time occupy(Rank rank, Time cost);
  /// How long the rank's CPU is still busy with overheads (its next event waits for them).
  [[nodiscard]] Time busy_for(const RankState& state) const {
    return std::max<Time>(0, state.cpu_free - engine_.now());
  }
  void delivered(std::uint32_t transfer);
  void release(std::uint32_t message);

  // The critical path (Result.hpp, CriticalPath).
  /// Extends `path` to time t: the time since it ends is MPI overheads on the rank (waiting
  /// without overheads). A t before its end leaves it as it is.
  void extend(CriticalPath& path, Time t) const {
    const Time rest = t - path.total();
    if (rest > 0) (overheads_ ? path.overhead : path.waiting) += rest;
  }
  /// `path` becomes `other` if that ends later (stays on ties): the one a rank that needs both
  /// continues.
  static void keep_later(CriticalPath& path, const CriticalPath& other) {
    // Copied only when it changes: a path copied onto itself right after a field of it changed
    // reads back in 16-byte pieces what was just written in 8-byte ones, which stalls.
    if (other.total() > path.total()) path = other;
  }
  /// Adds a transfer that took `took` from a to b (sockets; `bytes` of payload, `wire_bytes` on
  /// the wire: the payload and its envelope) to `path`, split into latency, bandwidth and
  /// contention; returns its contention-free time.
  Time add_transfer(CriticalPath& path, Time took, Rank from, Rank to, std::int64_t bytes,
                    std::int64_t wire_bytes);
  /// A message's data on the wire: its payload and the envelope (ModelOptions::envelope).
  [[nodiscard]] std::int64_t wire_bytes(const Message& message) const;

  // Collectives (CollectiveReplay.cpp).
  void start_collective(Rank rank, const traces::Event& event, std::uint64_t index,
                        std::uint32_t request);
  void advance_member(std::uint32_t member);
  const traces::CollectiveSchedule& instance(std::uint16_t comm, std::uint32_t k);

  // Errors (ReplayErrors.cpp).
  [[noreturn]] void throw_deadlock();
  /// The number of events of the rank's stream (reads the rest of it, keeping none).
  std::uint64_t stream_length(Rank rank);
  /// sum += bytes; throws InputError naming `what` if the sum passes 2^64 - 1.
  static void add_bytes(std::uint64_t& sum, std::int64_t bytes, std::string_view what);
  std::string describe(std::uint32_t request) const;
  std::string comm_name(std::uint16_t comm) const;

  Result finish_result();
  /// The result of a replay stopped by StopCondition::past (Result::cut).
  Result cut_result();
  /// The network's resources into `r`: link count, bytes carried and busy times.
  void measure_resources(Result& r) const;

  traces::EventStreams* streams_;
  const std::vector<traces::Communicator>* communicators_;
  const topo::Mapping* mapping_;
  std::vector<std::int32_t> sockets_;  // per rank; empty on nodes of one socket
  Network* network_;
  SimConfig config_;
  bool overheads_ = false;  // config_.overheads is not none
  Engine engine_;
  std::unique_ptr<NetworkModel> model_;
  // Under overheads, a rank whose CPU is still busy may execute a send or a Wait at once rather
  // than at the end of its overheads (see runs_ahead); only where that changes nothing: the model
  // takes delayed transfers and routes do not depend on the order transfers start in.
  bool run_ahead_ = false;
  Rank resume_next_ = -1;  // a rank to resume at the end of this event's handling (resume)
  Result result_;

  std::vector<RankState> ranks_;
  std::size_t window_ = kMinWindow;  // events a rank reads at a time
  SlotPool<Message> messages_;
  // SimConfig::critical_messages: every transfer made, each with the index of the transfer
  // before it on its path (CriticalPath::last_transfer), for the critical path's list.
  struct TransferRecord {
    Result::CriticalMessage message;
    std::uint32_t previous = CriticalPath::kNoTransfer;
  };
  std::vector<TransferRecord> transfers_;
  std::vector<Request> requests_;
  std::vector<std::uint32_t> free_requests_;
  std::vector<Member> members_;
  std::vector<std::uint32_t> free_members_;
  std::unordered_map<std::uint64_t, CollectiveInstance> instances_;
  /// comm_rank_[comm][world rank]: rank within the communicator or -1, built on first use.
  std::vector<std::vector<std::int32_t>> comm_rank_;
  std::int32_t rank_in(std::uint16_t comm, Rank world);
};

}  // namespace mapsim::sim
