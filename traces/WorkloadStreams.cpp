#include "traces/WorkloadStreams.hpp"

// Under AddressSanitizer the fibers switch with ucontext, which tells ASan about each stack switch
// (Boost.Context's fcontext does not); elsewhere the faster fcontext switch is used.
#if defined(__SANITIZE_ADDRESS__)
#define BOOST_USE_UCONTEXT
#define BOOST_USE_ASAN
#endif
#include <algorithm>
#include <exception>

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <fmt/format.h>

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

}  // namespace

/// One rank's program as a fiber: records its calls into `buffer` and pauses whenever the buffer
/// holds a window.
class WorkloadStreams::RankRun final : public EventRecorder {
 public:
  RankRun(const Workload& workload, std::shared_ptr<const CommTable> table, Rank rank)
      : workload_(&workload), rank_(rank) {
    begin_trace(std::move(table), RankOrder::Any);
  }

  /// Runs the rank until it has produced a window of events or ended.
  void produce() {
    MAPSIM_EXPECTS(!done, "a finished rank was resumed");
    if (!started_) {
      started_ = true;
      fiber_ =
          context::fiber(std::allocator_arg, context::protected_fixedsize_stack(kStackBytes),
                         [this](context::fiber&& consumer) { return body(std::move(consumer)); });
    }
    fiber_ = std::move(fiber_).resume();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  std::vector<Event> buffer;
  std::size_t taken = 0;  // buffer[0, taken) has been handed out
  bool done = false;
  std::int64_t final_gap = 0;

 private:
  context::fiber body(context::fiber&& consumer) {
    consumer_ = std::move(consumer);
    try {
      run_workload_rank(*workload_, *this, rank_);
    } catch (const context::detail::forced_unwind&) {
      throw;  // the fiber is being destroyed unfinished: let Boost.Context unwind it
    } catch (...) {
      error_ = std::current_exception();
    }
    done = true;
    return std::move(consumer_);
  }

  void on_begin_trace() override {}
  std::vector<Event>& events_of(Rank /*rank*/) override { return buffer; }
  void ended(Rank /*rank*/, std::int64_t gap) override { final_gap = gap; }
  void appended() override {
    if (buffer.size() >= kWindowEvents) consumer_ = std::move(consumer_).resume();
  }

  const Workload* workload_;
  Rank rank_;
  bool started_ = false;
  std::exception_ptr error_;
  context::fiber consumer_;
  context::fiber fiber_;  // last: destroyed first, unwinding the rank while the rest lives
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
