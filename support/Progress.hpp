#pragma once
// Progress of long work on a terminal: "mapsim: sweep  42% (126/300 runs) 3.1/s, 41s left, 40.2s"
// redrawn in place on stderr at most ten times a second (the rate and the time left once a unit
// is done and the total is known). Silent when stderr is not a terminal or the log
// level is below Info, so scripts and tests see no progress lines. One line at a time: a
// Progress or ProgressStep started while another draws stays silent (a replay's inside a sweep's).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace mapsim {

class Progress {
 public:
  /// `total` units of work; 0 if unknown (then only the count is shown).
  Progress(std::string label, std::uint64_t total, std::string unit = "");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Records `n` more units done; thread-safe and cheap between redraws.
  void advance(std::uint64_t n = 1);

  /// Whether it draws (stderr is a terminal and the log level shows progress): callers that log
  /// a line per unit of work do so only when it does not.
  [[nodiscard]] bool active() const { return enabled_; }

 private:
  void draw(bool final);

  std::string label_;
  std::string unit_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> next_draw_ns_{0};
  std::chrono::steady_clock::time_point start_;
  std::mutex draw_mutex_;
  bool enabled_;
};

/// A long step that cannot be counted (one mapper's run): "mapsim: mapping with best ..." on
/// stderr when it starts, completed in place as "mapsim: mapping with best 12.3s" when it ends.
/// No redraws in between (no thread, no spinner). Silent like Progress.
class ProgressStep {
 public:
  explicit ProgressStep(std::string label);
  ~ProgressStep();
  ProgressStep(const ProgressStep&) = delete;
  ProgressStep& operator=(const ProgressStep&) = delete;

  [[nodiscard]] bool active() const { return enabled_; }

 private:
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  bool enabled_;
};

}  // namespace mapsim
