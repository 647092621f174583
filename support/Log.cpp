#include "support/Log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace mapsim::log {
namespace {

std::atomic<Level> current_level{Level::Info};
std::mutex write_mutex;

constexpr std::string_view name(Level level) {
  switch (level) {
    case Level::Error:
      return "error";
    case Level::Warning:
      return "warning";
    case Level::Info:
      return "info";
    case Level::Debug:
      return "debug";
  }
  return "log";
}

}  // namespace

void set_level(Level level) {
  current_level.store(level, std::memory_order_relaxed);
}

Level level() {
  return current_level.load(std::memory_order_relaxed);
}

void write(Level level, std::string_view message) {
  const std::lock_guard lock(write_mutex);
  fmt::print(stderr, "mapsim: {}: {}\n", name(level), message);
  std::fflush(stderr);
}

}  // namespace mapsim::log
