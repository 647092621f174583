#pragma once
// The discrete-event core: a clock in picoseconds and a queue of events, each a (kind, data) pair
// that the owner of the engine dispatches. No virtual calls and no std::function per event: the
// replay's hot loop switches on `kind`.
//
// Determinism: events run in (time, scheduling order); nothing depends on addresses, hashing or
// threads, so a replay gives bit-identical results run after run.
//
// Events scheduled for the current picosecond (a delivery the moment a flow drains, a flow
// model's re-solve behind everything due now, a rank resuming without overheads) skip the heap:
// they wait in a first-in, first-out list. The order stays (time, scheduling order): an event in
// the heap at time now() was scheduled before the clock reached now(), so before every event in
// the list, and the list holds only events at now() (the clock moves on only when it is empty).
//
// One timer: an event that its owner moves rather than adds (the flow model's single wake-up at
// its earliest drain, FlowModel.hpp). It is ordered as the scheduled event it stands for, by
// (time, sequence number), but takes no heap operations, and setting it again supersedes the
// event it held. A superseded event counts as processed, as the stale event it replaces used to
// be: popped, recognised by its sequence number and ignored (nothing else changes; it only moved
// the clock to its own time, which no event depends on).

#include <cstdint>
#include <vector>

#include "sim/EventQueue.hpp"
#include "support/Error.hpp"

namespace mapsim::sim {

/// Event kinds. The replay owns the first ones; each network model numbers its own from
/// kModelEvents.
enum EventKinds : std::uint32_t {
  kRankResume = 0,    ///< data = rank: continue replaying its stream
  kDelivery = 1,      ///< data = transfer: the network model has delivered it
  kInject = 2,        ///< data = transfer: its sender's overheads are over, it enters the network
  kMemberResume = 3,  ///< data = collective member: its rank's overheads are over
  kModelEvents = 8,
};

class Engine {
 public:
  [[nodiscard]] Time now() const { return now_; }

  /// Schedules (kind, data) at `at`, which must not be in the past. Returns the event's sequence
  /// number, unique for the run (models use it to recognise events they have since superseded).
  std::uint64_t schedule(Time at, std::uint32_t kind, std::uint32_t data) {
    MAPSIM_EXPECTS(at >= now_, "an event was scheduled in the past");
    if (at == now_) {
      due_now_.push_back(QueuedEvent{at, next_seq_, kind, data});
    } else {
      queue_.push(QueuedEvent{at, next_seq_, kind, data});
    }
    return next_seq_++;
  }

  /// Sets the timer to (kind, data) at `at` (not in the past), superseding the event it held;
  /// returns the event's sequence number, as schedule() does. An event for now() is scheduled
  /// as any other.
  std::uint64_t set_timer(Time at, std::uint32_t kind, std::uint32_t data) {
    if (timer_set_) {
      timer_set_ = false;
      ++superseded_;
    }
    if (at == now_) return schedule(at, kind, data);
    MAPSIM_EXPECTS(at > now_, "an event was scheduled in the past");
    timer_ = QueuedEvent{at, next_seq_, kind, data};
    timer_set_ = true;
    return next_seq_++;
  }

  /// Takes the next event and advances the clock to it; false when none is left.
  bool next(QueuedEvent& event) {
    const bool heap = !queue_.empty();
    if (timer_set_ && (!heap || earlier(timer_, queue_.top())) &&
        (timer_.time == now_ || head_ == due_now_.size())) {
      // Before the heap's top; at now() (scheduled before the clock got here) or with nothing
      // else due now.
      event = timer_;
      timer_set_ = false;
      now_ = event.time;
    } else if (heap && queue_.top().time == now_) {  // scheduled before the clock got here
      event = queue_.top();
      queue_.pop();
    } else if (head_ < due_now_.size()) {
      event = due_now_[head_++];
      if (head_ == due_now_.size()) {
        due_now_.clear();
        head_ = 0;
      }
    } else if (heap) {
      event = queue_.top();
      queue_.pop();
      now_ = event.time;
    } else {
      return false;
    }
    ++processed_;
    return true;
  }

  /// Whether no event is due at now() but the one being handled: an event scheduled now would
  /// run next.
  [[nodiscard]] bool nothing_due_now() const {
    return head_ == due_now_.size() && (queue_.empty() || queue_.top().time > now_) &&
           !(timer_set_ && timer_.time == now_);
  }

  /// Whether the timer, due at now(), is the only event due now but the one being handled: it
  /// runs next, before any event scheduled now.
  [[nodiscard]] bool only_timer_due_now() const {
    return head_ == due_now_.size() && (queue_.empty() || queue_.top().time > now_) && timer_set_ &&
           timer_.time == now_;
  }

  /// Events processed so far, superseded timer events included.
  [[nodiscard]] std::uint64_t processed() const { return processed_ + superseded_; }
  [[nodiscard]] std::size_t pending() const {
    return queue_.size() + (due_now_.size() - head_) + (timer_set_ ? 1 : 0);
  }

 private:
  EventQueue queue_;
  std::vector<QueuedEvent> due_now_;  // events at now_, in scheduling order, from head_
  std::size_t head_ = 0;
  Time now_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t processed_ = 0;
  QueuedEvent timer_;
  bool timer_set_ = false;
  std::uint64_t superseded_ = 0;
};

}  // namespace mapsim::sim
