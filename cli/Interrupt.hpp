#pragma once
// Ctrl-C (SIGINT) and SIGTERM (e.g. Slurm's time limit) during long commands: while an
// InterruptGuard lives, the first signal only sets interrupted(), so the command can stop
// cleanly (finish the current unit of work, remove partial output); a second one kills at once.

#include <atomic>
#include <csignal>

namespace mapsim::cli {

/// Set by the first SIGINT or SIGTERM while a guard lives; cleared when a guard is created.
std::atomic<bool>& interrupted();

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace mapsim::cli
