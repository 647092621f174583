#include "traces/WorkloadStreams.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include <boost/context/fiber.hpp>
#include <boost/context/preallocated.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <fmt/format.h>

// AddressSanitizer must be told of every switch between stacks (Boost.Context's fcontext switch
// does not tell it): each switch is bracketed by start/finish_switch_fiber.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define MAPSIM_ASAN_FIBERS 1
#endif

#include "support/Error.hpp"
#include "traces/TraceBuilder.hpp"

namespace mapsim::traces {
namespace {

namespace context = boost::context;

/// Events a rank produces before it pauses.
constexpr std::size_t kWindowEvents = 1024;
/// Stack reserved per rank; the generators' call depth needs a few KiB. A guard page below it
/// turns an overflow into a crash rather than a corruption.
constexpr std::size_t kStackBytes = 64 * 1024;

/// A stack ASan is told about when execution moves onto it.
struct StackBounds {
  const void* bottom = nullptr;
  std::size_t size = 0;
};

/// Thrown inside a paused rank whose streams are going: unwinds its program.
struct Abandoned {};

/// Before switching to the stack `to`; `fake_stack` nullptr when the current stack is finished.
inline void start_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] StackBounds to) {
#ifdef MAPSIM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
#endif
}

/// On arriving on a stack; `from` receives the bounds of the stack left (if not nullptr).
inline void finish_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] StackBounds* from) {
#ifdef MAPSIM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack, from == nullptr ? nullptr : &from->bottom,
                                  from == nullptr ? nullptr : &from->size);
#endif
}

}  // namespace

/// One rank's program as a fiber: records its calls into `buffer` and pauses whenever the buffer
/// holds a window.
class WorkloadStreams::RankRun final : public EventRecorder {
 public:
  RankRun(const Workload& workload, std::shared_ptr<const CommTable> table, Rank rank)
      : workload_(&workload), rank_(rank) {
    begin_trace(std::move(table), RankOrder::Any);
  }

  /// A rank paused inside its program is unwound (by an exception thrown where it paused).
  ~RankRun() override {
    if (!started_ || done) return;
    abandon_ = true;
    switch_to_rank();
  }
  RankRun(const RankRun&) = delete;
  RankRun& operator=(const RankRun&) = delete;

  /// Runs the rank until it has produced a window of events or ended.
  void produce() {
    MAPSIM_EXPECTS(!done, "a finished rank was resumed");
    if (!started_) {
      started_ = true;
      context::protected_fixedsize_stack allocator(kStackBytes);
      const context::stack_context stack = allocator.allocate();
      stack_ = {static_cast<const char*>(stack.sp) - stack.size, stack.size};
      fiber_ = context::fiber(
          std::allocator_arg, context::preallocated(stack.sp, stack.size, stack), allocator,
          [this](context::fiber&& consumer) { return body(std::move(consumer)); });
    }
    switch_to_rank();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  std::vector<Event> buffer;
  std::size_t taken = 0;  // buffer[0, taken) has been handed out
  bool done = false;
  std::int64_t final_gap = 0;

 private:
  void switch_to_rank() {
    void* fake_stack = nullptr;
    start_switch(&fake_stack, stack_);
    fiber_ = std::move(fiber_).resume();
    finish_switch(fake_stack, nullptr);
  }

  void switch_to_consumer() {
    void* fake_stack = nullptr;
    start_switch(&fake_stack, consumer_stack_);
    consumer_ = std::move(consumer_).resume();
    finish_switch(fake_stack, &consumer_stack_);
    if (abandon_) throw Abandoned{};
  }

  context::fiber body(context::fiber&& consumer) {
    finish_switch(nullptr, &consumer_stack_);
    consumer_ = std::move(consumer);
    try {
      run_workload_rank(*workload_, *this, rank_);
    } catch (const Abandoned&) {
      // unwound: the streams are going
    } catch (const context::detail::forced_unwind&) {
      throw;  // Boost.Context unwinding the fiber: let it
    } catch (...) {
      error_ = std::current_exception();
    }
    done = true;
    start_switch(nullptr, consumer_stack_);  // this stack is finished
    return std::move(consumer_);
  }

  void on_begin_trace() override {}
  std::vector<Event>& events_of(Rank /*rank*/) override { return buffer; }
  void ended(Rank /*rank*/, std::int64_t gap) override { final_gap = gap; }
  void appended() override {
    if (buffer.size() >= kWindowEvents) switch_to_consumer();
  }

  const Workload* workload_;
  Rank rank_;
  bool started_ = false;
  bool abandon_ = false;
  StackBounds stack_;           // the rank's stack
  StackBounds consumer_stack_;  // the stack that resumed it last
  std::exception_ptr error_;
  context::fiber consumer_;
  context::fiber fiber_;  // empty once the rank has ended (or was unwound)
};

WorkloadStreams::WorkloadStreams(const GeneratorOptions& options)
    : workload_(make_workload(options)), source_("generated: " + describe(options)) {
  auto specs = workload_->communicators();
  communicators_.reserve(specs.size());
  for (const auto& spec : specs) communicators_.push_back({spec.name, spec.members});
  table_ = make_comm_table(workload_->rank_count(), std::move(specs));
  runs_.resize(static_cast<std::size_t>(workload_->rank_count()));
}

WorkloadStreams::~WorkloadStreams() = default;

Rank WorkloadStreams::rank_count() const {
  return workload_->rank_count();
}

std::size_t WorkloadStreams::read(Rank rank, std::vector<Event>& out, std::size_t max) {
  MAPSIM_EXPECTS(rank >= 0 && rank < rank_count(), "WorkloadStreams::read: no such rank");
  auto& run = runs_[static_cast<std::size_t>(rank)];
  if (!run) run = std::make_unique<RankRun>(*workload_, table_, rank);
  if (run->taken == run->buffer.size()) {
    run->buffer.clear();
    run->taken = 0;
    if (run->done) return 0;
    run->produce();
    if (run->buffer.empty()) return 0;
  }
  const std::size_t count =
      std::min(std::max<std::size_t>(max, 1), run->buffer.size() - run->taken);
  const auto first = run->buffer.begin() + static_cast<std::ptrdiff_t>(run->taken);
  out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(count));
  run->taken += count;
  return count;
}

std::int64_t WorkloadStreams::final_gap(Rank rank) const {
  MAPSIM_EXPECTS(rank >= 0 && rank < rank_count(), "WorkloadStreams::final_gap: no such rank");
  const auto& run = runs_[static_cast<std::size_t>(rank)];
  MAPSIM_EXPECTS(run && run->done && run->taken == run->buffer.size(),
                 "final_gap asked before the rank's stream ended");
  return run->final_gap;
}

}  // namespace mapsim::traces
