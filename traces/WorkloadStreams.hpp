#pragma once
// A generated workload replayed without writing or holding its trace: each rank's program runs as
// a coroutine (a Boost.Context fiber with its own small stack) that makes its MPI calls until it
// has produced a window of events, then pauses until the replay has consumed them. Memory is the
// ranks' stacks (64 KiB reserved, a few KiB touched) and windows, whatever the run's length.
//
// The events are exactly those generate_trace() stores (the TraceBuilder rules; both record
// through EventRecorder), so a streamed replay equals the stored one, event for event.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/EventStreams.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::traces {

class WorkloadStreams final : public EventStreams {
 public:
  /// Checks the options (InputError as make_workload) and prepares the ranks; nothing runs yet.
  explicit WorkloadStreams(const GeneratorOptions& options);
  ~WorkloadStreams() override;
  WorkloadStreams(const WorkloadStreams&) = delete;
  WorkloadStreams& operator=(const WorkloadStreams&) = delete;

  [[nodiscard]] Rank rank_count() const override;
  [[nodiscard]] const std::vector<Communicator>& communicators() const override {
    return communicators_;
  }
  [[nodiscard]] std::uint16_t world() const override { return 0; }
  [[nodiscard]] const std::string& source() const override { return source_; }
  /// Unknown without running the program: nullopt.
  [[nodiscard]] std::optional<std::uint64_t> event_count() const override { return {}; }
  std::size_t read(Rank rank, std::vector<Event>& out, std::size_t max) override;
  [[nodiscard]] std::int64_t final_gap(Rank rank) const override;

 private:
  class RankRun;

  std::unique_ptr<Workload> workload_;
  std::shared_ptr<const CommTable> table_;
  std::vector<Communicator> communicators_;
  std::string source_;
  std::vector<std::unique_ptr<RankRun>> runs_;  // created on a rank's first read
};

}  // namespace mapsim::traces
