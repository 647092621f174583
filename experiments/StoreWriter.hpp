#pragma once
// The one thread that writes a sweep's results: workers hand it claims, finished runs and
// releases; it applies them in order, one transaction each, and refreshes the heartbeat of the
// runs it holds every kHeartbeatSeconds. Workers never touch the database, so they never wait
// for a lock; the writer's connection waits (busy timeout) if another process writes.
//
// After a failed write nothing more is written, and every request is still answered: those
// queued behind the failure, and any made later, get its error (a worker waiting for a claim
// never waits forever).

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

#include "experiments/Store.hpp"

namespace mapsim::exp {

class StoreWriter {
 public:
  /// Opens (creating if missing) the database and starts the thread.
  StoreWriter(const std::filesystem::path& database, Owner owner,
              double heartbeat_seconds = kHeartbeatSeconds);
  /// Finishes the queue and stops the thread (errors are lost here: call finish()).
  ~StoreWriter();
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  /// Claims runs (see Store::claim) and waits for the answer.
  std::vector<bool> claim(std::vector<RunIdentity> runs, bool rerun_failed);
  /// Queues a finished run. Its answer (false: the row was taken over) arrives in the future.
  std::future<bool> commit(RunRecord record);
  /// Queues the release of unfinished claimed runs.
  void release(std::vector<std::string> keys);
  /// Writes everything queued, stops the thread and rethrows the first write error, if any.
  void finish();

  [[nodiscard]] const Owner& owner() const { return owner_; }
  /// Requests waiting for the thread (not the one it is applying).
  [[nodiscard]] std::size_t queued() const;
  /// Commits made and the time the thread spent in them (seconds).
  [[nodiscard]] std::uint64_t commits() const;
  [[nodiscard]] double commit_seconds() const;

 private:
  /// A request: `run` applies it; `refuse` answers it with the error that stopped the writer.
  struct Task {
    std::function<void(Store&)> run;
    std::function<void(std::exception_ptr)> refuse;
  };

  void loop();
  void submit(Task task);

  Owner owner_;
  Store store_;
  double heartbeat_seconds_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::uint64_t commits_ = 0;
  double commit_seconds_ = 0;
  std::thread thread_;
};

}  // namespace mapsim::exp
