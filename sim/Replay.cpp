#include "sim/Replay.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "support/Progress.hpp"

namespace mapsim::sim {
namespace {

// Transfer ids: message index * 4 + phase.
constexpr int kData = 0;
constexpr int kRequestToSend = 1;
constexpr int kClearToSend = 2;

// Progress on a terminal is advanced once per 64Ki engine events: a mask test per event.
constexpr std::uint64_t kProgressMask = (1u << 16) - 1;

bool communicates(traces::CollectiveOp op) {
  return op != traces::CollectiveOp::None && op != traces::CollectiveOp::DestroyHandle &&
         op != traces::CollectiveOp::Other;
}

}  // namespace

Replay::Replay(traces::EventStreams& streams, const topo::Mapping& mapping, Network& network,
               const SimConfig& config)
    : streams_(&streams),
      communicators_(&streams.communicators()),
      mapping_(&mapping),
      sockets_(network.topology().sockets_per_node() > 1
                   ? topo::sockets_of(mapping, network.topology())
                   : std::vector<std::int32_t>{}),
      network_(&network),
      config_(config),
      overheads_(!config.overheads.none(network.topology().sockets_per_node() > 1)),
      model_(make_network_model(config.model, engine_, network, config.model_options)),
      run_ahead_(config.run_ahead && overheads_ && model_->takes_delay() &&
                 network.topology().routing() == topo::Routing::Minimal),
      ranks_(static_cast<std::size_t>(streams.rank_count())),
      window_(
          std::clamp(kWindowBudget / static_cast<std::size_t>(std::max(streams.rank_count(), 1)),
                     kMinWindow, kMaxWindow)),
      comm_rank_(streams.communicators().size()) {}

bool Replay::read_more(Rank rank) {
  RankState& state = ranks_[static_cast<std::size_t>(rank)];
  if (state.ended) return false;
  if (state.next > 0) {  // drop what was replayed; keep what was read ahead
    state.window.erase(state.window.begin(),
                       state.window.begin() + static_cast<std::ptrdiff_t>(state.next));
    state.base += state.next;
    state.next = 0;
  }
  const std::size_t old = state.window.size();
  if (streams_->read(rank, state.window, window_) == 0) {
    state.ended = true;
    return false;
  }
  for (std::size_t i = old; i < state.window.size(); ++i)
    check_read(rank, state.window[i], state.base + i);
  return true;
}

void Replay::check_read(Rank rank, const traces::Event& event, std::uint64_t index) {
  const auto& comms = *communicators_;
  if (event.comm >= comms.size()) {
    throw InputError(fmt::format("rank {}, event {}: names communicator {} of {}", rank, index,
                                 event.comm, comms.size()));
  }
  using traces::EventKind;
  const bool p2p = event.kind == EventKind::Send || event.kind == EventKind::Isend ||
                   event.kind == EventKind::Recv || event.kind == EventKind::Irecv;
  const auto ranks = static_cast<Rank>(ranks_.size());
  if (p2p && (event.peer < 0 || event.peer >= ranks)) {
    throw InputError(fmt::format("rank {}, event {}: a {} names peer rank {} of {}", rank, index,
                                 traces::name(event.kind), event.peer, ranks));
  }
  if ((event.kind == EventKind::Collective || event.kind == EventKind::ICollective) &&
      communicates(event.op)) {
    auto& calls = ranks_[static_cast<std::size_t>(rank)].collectives_read[event.comm];
    calls.calls.push_back(CollectiveCall{event.op, event.peer, event.bytes, event.received});
    ++calls.read;
  }
}

Result Replay::run() {
  const auto wall_start = std::chrono::steady_clock::now();
  for (Rank r = 0; r < streams_->rank_count(); ++r)
    engine_.schedule(0, kRankResume, static_cast<std::uint32_t>(r));
  const auto deadline =
      wall_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(config_.stop.wall_seconds));
  const bool stoppable = config_.stop.wall_seconds > 0 || config_.stop.cancel != nullptr;
  Progress progress("replaying", streams_->event_count().value_or(0), "events");
  const bool drawing = progress.active();
  std::uint64_t shown = 0;
  Time past = config_.stop.past;  // 0 once every rank has finished: nothing left to cut
  QueuedEvent event;
  while (engine_.next(event)) {
    if (past > 0 && engine_.now() > past) {
      if (std::any_of(ranks_.begin(), ranks_.end(),
                      [](const RankState& r) { return !r.finished; })) {
        result_.wall_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        return cut_result();
      }
      past = 0;
    }
    if (stoppable && (engine_.processed() & 4095) == 0) check_stop(deadline);
    if (drawing && (engine_.processed() & kProgressMask) == 0) {
      progress.advance(result_.trace_events - shown);
      shown = result_.trace_events;
    }
    switch (event.kind) {
      case kRankResume:
        advance(static_cast<Rank>(event.data));
        break;
      case kDelivery:
        delivered(event.data);
        break;
      case kInject:
        start_transfer(event.data / 4, static_cast<int>(event.data % 4));
        break;
      case kMemberResume:
        advance_member(event.data);
        break;
      default:
        model_->handle(event);
        // A delivery that would have been the next event (NetworkModel::deliver_now).
        if (const auto transfer = model_->take_delivery(); transfer != NetworkModel::kNoDelivery)
          delivered(transfer);
    }
    while (resume_next_ >= 0) {  // a resumption that would have been the next event (resume)
      const Rank rank = resume_next_;
      resume_next_ = -1;
      advance(rank);
    }
  }
  progress.advance(result_.trace_events - shown);
  for (const auto& rank : ranks_) {
    if (!rank.finished) throw_deadlock();
  }
  result_.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return finish_result();
}

void Replay::check_stop(std::chrono::steady_clock::time_point deadline) const {
  if (config_.stop.cancel != nullptr && config_.stop.cancel->load(std::memory_order_relaxed))
    throw Cancelled("the replay was interrupted");
  if (config_.stop.wall_seconds > 0 && std::chrono::steady_clock::now() >= deadline) {
    throw Cancelled(
        fmt::format("time limit of {} s reached after {} engine events at simulated time {:.6g} s",
                    config_.stop.wall_seconds, engine_.processed(), to_seconds(engine_.now())));
  }
}

void Replay::advance(Rank rank) {
  RankState& state = ranks_[static_cast<std::size_t>(rank)];
  // The path to now: the gap it computed, then whatever overheads kept its CPU busy.
  state.path.compute += state.pending_compute;
  state.pending_compute = 0;
  extend(state.path, engine_.now());
  const double scale = config_.compute_scale;
  auto scaled = [scale, rank](std::int64_t gap) -> Time {
    if (scale == 0 || gap <= 0) return 0;
    if (scale == 1.0) return gap;
    return checked_time(static_cast<double>(gap) * scale, [&] {
      return fmt::format("rank {}'s compute gap of {:.6g} s scaled by the compute scale {:.6g}",
                         rank, to_seconds(gap), scale);
    });
  };
  const bool window = config_.init_to_finalize;
  for (;;) {
    if (state.next == state.window.size() && !read_more(rank)) {
      if (!state.final_gap_done) {
        state.final_gap_done = true;
        const bool after_finalize = window && state.base + state.next > 0 &&
                                    state.last.op == traces::CollectiveOp::DestroyHandle;
        const Time gap = after_finalize ? 0 : scaled(streams_->final_gap(rank));
        const Time busy = overheads_ ? busy_for(state) : 0;
        if (gap > 0 || busy > 0) {
          // compute <= now, so once now + gap is checked the sum cannot overflow.
          engine_.schedule(add_time(add_time(engine_.now(), busy), gap), kRankResume,
                           static_cast<std::uint32_t>(rank));
          state.compute += gap;
          state.pending_compute = gap;
          return;
        }
      }
      state.finished = true;
      state.finish = engine_.now();
      return;
    }
    const std::uint64_t index = state.base + state.next;
    if (!state.gap_done) {
      const auto& event = state.window[state.next];
      const bool before_init =
          window && index == 0 && event.op == traces::CollectiveOp::CreateHandle;
      const Time gap = before_init ? 0 : scaled(event.gap);
      const Time busy = overheads_ ? busy_for(state) : 0;  // the last event's overheads
      if (gap > 0 || (busy > 0 && !runs_ahead(event))) {
        state.gap_done = true;
        engine_.schedule(add_time(add_time(engine_.now(), busy), gap), kRankResume,
                         static_cast<std::uint32_t>(rank));
        state.compute += gap;  // compute <= now: no overflow once now + gap is checked
        state.pending_compute = gap;
        return;
      }
    }
    state.gap_done = false;
    // A copy: executing a collective may read ahead in other ranks' windows, not in this one's,
    // but the copy keeps that an implementation detail.
    state.last = state.window[state.next++];
    ++result_.trace_events;
    if (execute(rank, state.last, index)) return;
  }
}

bool Replay::execute(Rank rank, const traces::Event& e, std::uint64_t index) {
  using traces::EventKind;
  RankState& state = ranks_[static_cast<std::size_t>(rank)];
  switch (e.kind) {
    case EventKind::Send:
    case EventKind::Isend: {
      const bool blocking = e.kind == EventKind::Send;
      const auto req = new_request(rank, RequestKind::Send, index, e, kNone);
      if (!blocking) state.live.emplace_back(e.request, req);
      ++result_.messages;
      add_bytes(result_.message_bytes, e.bytes, "point-to-point messages");
      post_send(rank, e.peer, e.comm, e.tag, e.bytes, req, false, state.path);
      return blocking && block_on(rank, req);
    }
    case EventKind::Recv:
    case EventKind::Irecv: {
      const bool blocking = e.kind == EventKind::Recv;
      const auto req = new_request(rank, RequestKind::Recv, index, e, kNone);
      // Posted when the rank's CPU is free: later than now if it ran ahead (runs_ahead).
      requests_[req].posted = std::max(engine_.now(), state.cpu_free);
      requests_[req].path = state.path;
      extend(requests_[req].path, requests_[req].posted);
      if (!blocking) state.live.emplace_back(e.request, req);
      post_recv(rank, e.peer, e.comm, e.tag, req);
      return blocking && block_on(rank, req);
    }
    case EventKind::Wait:
      return block_on(rank, take_live(rank, e.request, index, "Wait"));
    case EventKind::Cancel:
      cancel(take_live(rank, e.request, index, "Cancel"));
      return false;
    case EventKind::Collective:
    case EventKind::ICollective: {
      if (!communicates(e.op)) return false;
      const bool blocking = e.kind == EventKind::Collective;
      const auto req = new_request(rank, RequestKind::Collective, index, e, kNone);
      if (!blocking) state.live.emplace_back(e.request, req);
      start_collective(rank, e, index, req);
      return blocking && block_on(rank, req);
    }
  }
  return false;
}

bool Replay::block_on(Rank rank, std::uint32_t request) {
  RankState& state = ranks_[static_cast<std::size_t>(rank)];
  // A rank that ran ahead (runs_ahead) reaches this at its CPU's free time, not now: its path
  // goes on to then, as it would had it waited for its CPU.
  if (overheads_) extend(state.path, std::max(engine_.now(), state.cpu_free));
  if (requests_[request].done) {
    keep_later(state.path, requests_[request].path);
    free_requests_.push_back(request);
    // A receive's o_r; the rank's next event waits for it (advance).
    if (overheads_) (void)occupy(rank, requests_[request].overhead);
    return false;
  }
  state.waiting = request;
  return true;
}

std::uint32_t Replay::take_live(Rank rank, std::uint32_t id, std::uint64_t index,
                                const char* what) {
  auto& live = ranks_[static_cast<std::size_t>(rank)].live;
  // Searched from the newest: requests are usually completed soon after they start.
  for (auto it = live.rbegin(); it != live.rend(); ++it) {
    if (it->first == id) {
      const auto request = it->second;
      live.erase(std::next(it).base());
      return request;
    }
  }
  throw InputError(fmt::format(
      "the trace cannot be replayed: rank {}, event {}: {} on request {}, which no Isend, Irecv "
      "or non-blocking collective of rank {} started (or which already completed)",
      rank, index, what, id, rank));
}

std::uint32_t Replay::new_request(Rank rank, RequestKind kind, std::uint64_t index,
                                  const traces::Event& event, std::uint32_t notify) {
  std::uint32_t id;
  if (!free_requests_.empty()) {
    id = free_requests_.back();
    free_requests_.pop_back();
  } else {
    id = static_cast<std::uint32_t>(requests_.size());
    requests_.emplace_back();
  }
  requests_[id] = Request{index, event, kNone, notify, rank, kind, false, 0, 0, {}};
  return id;
}

void Replay::complete(std::uint32_t id) {
  Request& request = requests_[id];
  request.done = true;
  if (request.notify != kNone) {
    Member& member = members_[request.notify];
    member.overhead += request.overhead;
    keep_later(member.path, request.path);
    // A request of the step being posted: advance_member counts it when it finishes posting.
    if (member.posting && (id == member.posted[0] || id == member.posted[1])) return;
    free_requests_.push_back(id);
    if (--member.pending == 0 && member.waiting) {
      member.waiting = false;
      advance_member(request.notify);
    }
    return;
  }
  RankState& rank = ranks_[static_cast<std::size_t>(request.rank)];
  if (rank.waiting == id) {
    rank.waiting = kNone;
    keep_later(rank.path, request.path);
    free_requests_.push_back(id);
    const Time at = overheads_ ? occupy(request.rank, request.overhead) : engine_.now();
    // A rank whose next event runs ahead of its o_r resumes now (runs_ahead): the same times.
    resume(request.rank, resumes_now(rank) ? engine_.now() : at);
  }
}

void Replay::resume(Rank rank, Time at) {
  // Resumed now with nothing else due now, the rank's event would run next: it runs at the end
  // of this event's handling instead (run), without an event; events scheduled meanwhile would
  // queue behind it either way.
  if (at == engine_.now() && resume_next_ < 0 && engine_.nothing_due_now()) {
    resume_next_ = rank;
  } else {
    engine_.schedule(at, kRankResume, static_cast<std::uint32_t>(rank));
  }
}

void Replay::cancel(std::uint32_t id) {
  Request& request = requests_[id];
  ++result_.cancelled;
  if (request.done) {
    free_requests_.push_back(id);
    return;
  }
  auto drop = [](std::vector<Envelope>& queue, std::uint32_t item) {
    const auto it = std::find_if(queue.begin(), queue.end(),
                                 [item](const Envelope& e) { return e.item == item; });
    if (it != queue.end()) queue.erase(it);
  };
  if (request.kind == RequestKind::Recv && request.object == kNone) {
    drop(ranks_[static_cast<std::size_t>(request.rank)].posted, id);
    free_requests_.push_back(id);
  } else if (request.kind == RequestKind::Send && !messages_[request.object].matched) {
    const auto m = request.object;
    Message& message = messages_[m];
    drop(ranks_[static_cast<std::size_t>(message.dst)].unexpected, m);
    message.cancelled = true;
    message.send_req = kNone;
    // Whatever is still in flight releases the message when it arrives.
    if (message.arrived || message.rts_arrived) release(m);
    free_requests_.push_back(id);
  }
  // A request that has matched cannot be cancelled (in MPI neither): it completes unobserved.
}

std::uint32_t Replay::post_send(Rank src, Rank dst, std::uint16_t comm, std::int32_t tag,
                                std::int64_t bytes, std::uint32_t request, bool collective,
                                const CriticalPath& from) {
  const std::uint32_t m = messages_.acquire();
  Message& message = messages_[m];
  message.bytes = bytes;
  message.src = src;
  message.dst = dst;
  message.send_req = request;
  message.eager = bytes <= config_.eager_threshold;
  message.collective = collective;
  message.path = from;
  requests_[request].object = m;
  // Match now, in sending order (MPI's non-overtaking rule), whatever the network does later.
  auto& receiver = ranks_[static_cast<std::size_t>(dst)];
  const auto it = std::find_if(
      receiver.posted.begin(), receiver.posted.end(),
      [&](const Envelope& e) { return e.src == src && e.tag == tag && e.comm == comm; });
  std::uint32_t recv = kNone;
  if (it != receiver.posted.end()) {
    recv = it->item;
    receiver.posted.erase(it);
  } else {
    receiver.unexpected.push_back(Envelope{tag, src, m, comm});
  }
  if (message.eager) {
    inject(m, kData);
    requests_[request].path = from;
    complete(request);  // buffered: the send returns at once (after its o_s)
  } else {
    inject(m, kRequestToSend);
  }
  if (recv != kNone) pair(m, recv);
  return m;
}

void Replay::post_recv(Rank rank, Rank src, std::uint16_t comm, std::int32_t tag,
                       std::uint32_t request) {
  auto& state = ranks_[static_cast<std::size_t>(rank)];
  const auto it = std::find_if(
      state.unexpected.begin(), state.unexpected.end(),
      [&](const Envelope& e) { return e.src == src && e.tag == tag && e.comm == comm; });
  if (it == state.unexpected.end()) {
    state.posted.push_back(Envelope{tag, src, request, comm});
    return;
  }
  const auto m = it->item;
  state.unexpected.erase(it);
  pair(m, request);
}

void Replay::pair(std::uint32_t m, std::uint32_t request) {
  Message& message = messages_[m];
  message.matched = true;
  message.recv_req = request;
  requests_[request].object = m;
  if (message.eager) {
    if (message.arrived) {
      take_arrival(request, message);
      release(m);
      complete(request);
    }
  } else if (message.rts_arrived) {
    start_transfer(m, kClearToSend, until_posted(request));
  }
}

void Replay::start_transfer(std::uint32_t m, int phase, Time delay) {
  MAPSIM_EXPECTS(delay == 0 || model_->takes_delay(),
                 "a delayed transfer for a model that takes it");
  Message& message = messages_[m];
  const bool back = phase == kClearToSend;
  Transfer transfer;
  transfer.id = m * 4 + static_cast<std::uint32_t>(phase);
  transfer.src = mapping_->node(back ? message.dst : message.src);
  transfer.dst = mapping_->node(back ? message.src : message.dst);
  transfer.src_socket = socket(back ? message.dst : message.src);
  transfer.dst_socket = socket(back ? message.src : message.dst);
  transfer.bytes = phase == kData ? wire_bytes(message) : 0;
  transfer.delay = delay;
  const Time start = add_time(engine_.now(), delay);
  if (phase == kData) message.injected = start;
  // A clear-to-send leaves when the request-to-send has arrived and the receive is posted.
  if (back) keep_later(message.path, requests_[message.recv_req].path);
  extend(message.path, start);
  model_->start(transfer);
}

void Replay::delivered(std::uint32_t transfer) {
  const std::uint32_t m = transfer / 4;
  const int phase = static_cast<int>(transfer % 4);
  Message& message = messages_[m];
  const bool back = phase == kClearToSend;
  const Rank from = back ? message.dst : message.src;
  const Rank to = back ? message.src : message.dst;
  const Time free =
      add_transfer(message.path, engine_.now() - message.path.total(), from, to,
                   phase == kData ? message.bytes : 0, phase == kData ? wire_bytes(message) : 0);
  switch (phase) {
    case kData: {
      message.arrived = true;
      result_.latency.add(engine_.now() - message.injected, free);
      if (message.cancelled) {
        release(m);
      } else if (!message.eager) {
        const auto send = message.send_req;
        const auto recv = message.recv_req;
        requests_[send].path = message.path;
        take_arrival(recv, message);
        release(m);
        complete(send);
        complete(recv);
      } else if (message.matched) {
        const auto recv = message.recv_req;
        take_arrival(recv, message);
        release(m);
        complete(recv);
      }
      break;
    }
    case kRequestToSend:
      message.rts_arrived = true;
      if (message.cancelled) {
        release(m);
      } else if (message.matched) {
        start_transfer(m, kClearToSend, until_posted(message.recv_req));
      }
      break;
    case kClearToSend:
      start_transfer(m, kData);
      break;
    default:
      MAPSIM_EXPECTS(false, "unknown transfer phase");
  }
}

void Replay::inject(std::uint32_t m, int phase) {
  if (!overheads_) {
    start_transfer(m, phase);
    return;
  }
  const Message& message = messages_[m];
  const Channel c = channel(message.src, message.dst);
  RankState& sender = ranks_[static_cast<std::size_t>(message.src)];
  const Time cpu = occupy(message.src, config_.overheads.send(c, message.bytes));
  Time& next = sender.next_injection[static_cast<std::size_t>(c)];
  const Time at = std::max(cpu, next);
  next = add_time(at, config_.overheads.of(c).gap);
  if (at == engine_.now()) {
    start_transfer(m, phase);
  } else if (model_->takes_delay()) {
    start_transfer(m, phase, at - engine_.now());
  } else {
    engine_.schedule(at, kInject, m * 4 + static_cast<std::uint32_t>(phase));
  }
}

void Replay::take_arrival(std::uint32_t request, const Message& message) {
  if (overheads_) {
    requests_[request].overhead =
        config_.overheads.receive(channel(message.src, message.dst), message.bytes);
  }
  requests_[request].path = message.path;
}

std::int64_t Replay::wire_bytes(const Message& message) const {
  std::int64_t bytes = 0;
  if (__builtin_add_overflow(message.bytes, config_.model_options.envelope, &bytes)) [[unlikely]] {
    throw InputError(fmt::format("a message of {} bytes and its {}-byte envelope pass {} bytes",
                                 message.bytes, config_.model_options.envelope,
                                 std::numeric_limits<std::int64_t>::max()));
  }
  return bytes;
}

Time Replay::add_transfer(CriticalPath& path, Time took, Rank from, Rank to, std::int64_t bytes,
                          std::int64_t wire_bytes) {
  const auto [latency, free] = model_->free_times(mapping_->node(from), mapping_->node(to),
                                                  wire_bytes, socket(from), socket(to));
  // Size factors may make a transfer faster than its unfactored parts: the parts never exceed
  // what it took, so that they add up.
  const Time lat = std::clamp<Time>(latency, 0, std::max<Time>(took, 0));
  const Time bandwidth = std::clamp<Time>(free - latency, 0, std::max<Time>(took - lat, 0));
  path.latency += lat;
  path.bandwidth += bandwidth;
  path.contention += std::max<Time>(took - lat - bandwidth, 0);
  ++path.messages;
  if (config_.critical_messages) {
    MAPSIM_EXPECTS(transfers_.size() < CriticalPath::kNoTransfer,
                   "more transfers than the critical path's record can index");
    transfers_.push_back({{from, to, bytes}, path.last_transfer});
    path.last_transfer = static_cast<std::uint32_t>(transfers_.size() - 1);
  }
  return free;
}

Time Replay::occupy(Rank rank, Time cost) {
  Time& free = ranks_[static_cast<std::size_t>(rank)].cpu_free;
  free = add_time(std::max(engine_.now(), free), cost);
  return free;
}

void Replay::release(std::uint32_t m) {
  messages_.release(m);
}

std::int32_t Replay::rank_in(std::uint16_t comm, Rank world) {
  // Streams may add communicators as they are read (a rank's MPI_COMM_SELF).
  if (comm >= comm_rank_.size()) comm_rank_.resize(communicators_->size());
  auto& table = comm_rank_[comm];
  if (table.empty()) {
    const Rank ranks = streams_->rank_count();
    table.assign(static_cast<std::size_t>(ranks), -1);
    const auto& members = (*communicators_)[comm].members;
    for (std::size_t i = 0; i < members.size(); ++i) {
      const Rank w = members[i];
      if (w >= 0 && w < ranks) table[static_cast<std::size_t>(w)] = static_cast<std::int32_t>(i);
    }
  }
  return table[static_cast<std::size_t>(world)];
}

Result Replay::cut_result() {
  Result& r = result_;
  r.cut = true;
  r.model = config_.model;
  r.engine_events = engine_.processed();
  r.makespan = engine_.now();
  for (const auto& rank : ranks_) r.rank_finish.push_back(rank.finished ? rank.finish : r.makespan);
  measure_resources(r);
  return std::move(r);
}

void Replay::measure_resources(Result& r) const {
  const auto bytes = model_->resource_bytes();
  r.link_count = network_->link_count();
  r.resource_bytes.assign(bytes.begin(), bytes.end());
  r.resource_busy.resize(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    r.resource_busy[i] = transfer_time(static_cast<double>(bytes[i]),
                                       network_->bandwidth(static_cast<ResourceId>(i)));
  }
}

Result Replay::finish_result() {
  Result& r = result_;
  r.model = config_.model;
  r.engine_events = engine_.processed();
  const auto n = ranks_.size();
  r.rank_finish.resize(n);
  r.rank_mpi_time.resize(n);
  double mpi_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    r.rank_finish[i] = ranks_[i].finish;
    r.rank_mpi_time[i] = ranks_[i].finish - ranks_[i].compute;
    if (ranks_[i].finish > r.makespan || i == 0) {
      r.makespan = ranks_[i].finish;
      r.critical_path = ranks_[i].path;
      extend(r.critical_path, ranks_[i].finish);
    }
    r.mpi_time_max = std::max(r.mpi_time_max, r.rank_mpi_time[i]);
    mpi_sum += static_cast<double>(r.rank_mpi_time[i]);
  }
  r.mpi_time_mean = n == 0 ? 0 : mpi_sum / static_cast<double>(n);
  MAPSIM_EXPECTS(r.critical_path.total() == r.makespan,
                 fmt::format("the critical path's parts add up to {} ps, not the makespan {} ps",
                             r.critical_path.total(), r.makespan));
  for (auto k = r.critical_path.last_transfer; k != CriticalPath::kNoTransfer;
       k = transfers_[k].previous)
    r.critical_messages.push_back(transfers_[k].message);
  std::reverse(r.critical_messages.begin(), r.critical_messages.end());
  MAPSIM_EXPECTS(
      !config_.critical_messages || r.critical_messages.size() == r.critical_path.messages,
      "the critical path's list of transfers lost some");
  r.critical_path.last_transfer = CriticalPath::kNoTransfer;
  transfers_ = {};
  for (const auto& rank : ranks_) r.unmatched_messages += rank.unexpected.size();

  measure_resources(r);
  r.resource_utilisation.resize(r.resource_bytes.size());
  double used_sum = 0;
  for (std::size_t i = 0; i < r.resource_bytes.size(); ++i) {
    const auto id = static_cast<ResourceId>(i);
    r.resource_utilisation[i] =
        r.makespan > 0 ? static_cast<double>(r.resource_busy[i]) / static_cast<double>(r.makespan)
                       : 0;
    if (id < r.link_count && r.resource_bytes[i] > 0) {
      ++r.links_used;
      used_sum += r.resource_utilisation[i];
      r.max_link_utilisation = std::max(r.max_link_utilisation, r.resource_utilisation[i]);
    }
  }
  r.mean_link_utilisation = r.links_used == 0 ? 0 : used_sum / r.links_used;
  return std::move(r);
}

}  // namespace mapsim::sim
