#include "support/Progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

#include <fmt/format.h>

#include "support/Log.hpp"

namespace mapsim {
namespace {

constexpr std::int64_t kRedrawNs = 100'000'000;  // ten times a second

std::string count(std::uint64_t n) {
  if (n >= 10'000'000) return fmt::format("{:.1f}M", static_cast<double>(n) / 1e6);
  if (n >= 10'000) return fmt::format("{:.1f}k", static_cast<double>(n) / 1e3);
  return fmt::format("{}", n);
}

std::string duration(double seconds) {
  const auto whole = static_cast<std::int64_t>(std::ceil(seconds));
  if (whole >= 3600) return fmt::format("{}h{:02}m", whole / 3600, whole % 3600 / 60);
  if (whole >= 60) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}s", whole);
}

// Whether a Progress or ProgressStep owns the terminal line.
std::atomic<bool> g_line_taken{false};

/// Whether a new progress display may draw: stderr is a terminal, the log level shows progress and
/// no other display draws (then it takes the line until release_line()).
bool take_line() {
  return ::isatty(STDERR_FILENO) == 1 && log::level() >= log::Level::Info &&
         !g_line_taken.exchange(true);
}

void release_line() {
  g_line_taken.store(false);
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Progress::Progress(std::string label, std::uint64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      enabled_(take_line()) {
  next_draw_ns_ = now_ns() + kRedrawNs;
}

Progress::~Progress() {
  if (!enabled_) return;
  draw(true);
  release_line();
}

void Progress::advance(std::uint64_t n) {
  done_.fetch_add(n, std::memory_order_relaxed);
  if (!enabled_) return;
  const std::int64_t now = now_ns();
  std::int64_t due = next_draw_ns_.load(std::memory_order_relaxed);
  if (now < due || !next_draw_ns_.compare_exchange_strong(due, now + kRedrawNs)) return;
  draw(false);
}

void Progress::draw(bool final) {
  const std::lock_guard lock(draw_mutex_);
  const auto done = done_.load(std::memory_order_relaxed);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string line = fmt::format("mapsim: {} ", label_);
  if (total_ > 0) {
    line += fmt::format("{:3.0f}% ({}/{}{}{})",
                        100.0 * static_cast<double>(done) / static_cast<double>(total_),
                        count(done), count(total_), unit_.empty() ? "" : " ", unit_);
  } else {
    line += fmt::format("{}{}{}", count(done), unit_.empty() ? "" : " ", unit_);
  }
  if (done > 0 && seconds > 0 && total_ > 0 && !final) {
    const double rate = static_cast<double>(done) / seconds;
    line += fmt::format(
        " {}/s, {} left",
        rate >= 10 ? count(static_cast<std::uint64_t>(rate)) : fmt::format("{:.2g}", rate),
        duration(static_cast<double>(total_ - std::min(done, total_)) / rate));
  }
  line += fmt::format(" {:.1f}s", seconds);
  fmt::print(stderr, "\r{:<78}{}", line, final ? "\n" : "");
  std::fflush(stderr);
}

ProgressStep::ProgressStep(std::string label)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), enabled_(take_line()) {
  if (!enabled_) return;
  fmt::print(stderr, "\r{:<78}", fmt::format("mapsim: {} ...", label_));
  std::fflush(stderr);
}

ProgressStep::~ProgressStep() {
  if (!enabled_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  fmt::print(stderr, "\r{:<78}\n", fmt::format("mapsim: {} {:.1f}s", label_, seconds));
  std::fflush(stderr);
  release_line();
}

}  // namespace mapsim
