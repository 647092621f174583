#pragma once
// Progress of long work on a terminal: "mapsim: reading trace  42% (1.2M/2.9M events)" redrawn in
// place on stderr at most ten times a second. Silent when stderr is not a terminal or the log
// level is below Info, so scripts and tests see no progress lines.

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

}  // namespace mapsim
