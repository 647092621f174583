#include "experiments/StoreWriter.hpp"

#include <chrono>

#include "support/Log.hpp"

namespace mapsim::exp {

StoreWriter::StoreWriter(const std::filesystem::path& database, Owner owner,
                         double heartbeat_seconds)
    : owner_(std::move(owner)),
      store_(database, Store::Access::Write),
      heartbeat_seconds_(heartbeat_seconds),
      thread_([this] { loop(); }) {}

StoreWriter::~StoreWriter() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void StoreWriter::submit(Task task) {
  {
    const std::unique_lock lock(mutex_);
    if (!error_) {
      queue_.push_back(std::move(task));
      wake_.notify_all();
      return;
    }
  }
  task.refuse(error_);  // the writer has stopped: answered at once
}

std::vector<bool> StoreWriter::claim(std::vector<RunIdentity> runs, bool rerun_failed) {
  auto promise = std::make_shared<std::promise<std::vector<bool>>>();
  auto answer = promise->get_future();
  submit({[this, promise, runs = std::move(runs), rerun_failed](Store& store) {
            try {
              promise->set_value(store.claim(runs, owner_, rerun_failed));
            } catch (...) {
              promise->set_exception(std::current_exception());
              throw;
            }
          },
          [promise](std::exception_ptr error) { promise->set_exception(error); }});
  return answer.get();
}

std::future<bool> StoreWriter::commit(RunRecord record) {
  auto promise = std::make_shared<std::promise<bool>>();
  auto answer = promise->get_future();
  submit({[this, promise, record = std::move(record)](Store& store) {
            const auto start = std::chrono::steady_clock::now();
            try {
              const bool ours = store.commit(record, owner_);
              promise->set_value(ours);
            } catch (...) {
              promise->set_exception(std::current_exception());
              throw;
            }
            const std::lock_guard lock(mutex_);
            ++commits_;
            commit_seconds_ +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          },
          [promise](std::exception_ptr error) { promise->set_exception(error); }});
  return answer;
}

void StoreWriter::release(std::vector<std::string> keys) {
  // Refused: the rows stay `running` and read as stale once this process is gone; finish()
  // reports the error.
  submit({[this, keys = std::move(keys)](Store& store) { store.release(keys, owner_); },
          [](std::exception_ptr) {}});
}

void StoreWriter::finish() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(error_);
}

std::size_t StoreWriter::queued() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

std::uint64_t StoreWriter::commits() const {
  const std::lock_guard lock(mutex_);
  return commits_;
}

double StoreWriter::commit_seconds() const {
  const std::lock_guard lock(mutex_);
  return commit_seconds_;
}

void StoreWriter::loop() {
  using Clock = std::chrono::steady_clock;
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(heartbeat_seconds_));
  auto next_heartbeat = Clock::now() + period;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_until(lock, next_heartbeat, [&] { return stopping_ || !queue_.empty(); });
    while (!queue_.empty()) {
      auto task = std::move(queue_.front());
      queue_.pop_front();
      if (error_) {
        // After a failed write nothing more is written, but every request gets its answer.
        const auto error = error_;
        lock.unlock();
        task.refuse(error);
        lock.lock();
        continue;
      }
      lock.unlock();
      try {
        task.run(store_);
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        continue;
      }
      lock.lock();
    }
    if (stopping_) return;
    if (Clock::now() >= next_heartbeat) {
      next_heartbeat = Clock::now() + period;
      if (error_) continue;
      lock.unlock();
      try {
        store_.heartbeat(owner_);
      } catch (const std::exception& e) {
        // A missed heartbeat is harmless unless they all fail; the next commit reports errors.
        log::warning("heartbeat of running runs failed: {}", e.what());
      }
      lock.lock();
    }
  }
}

}  // namespace mapsim::exp
