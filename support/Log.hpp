#pragma once
// One small logging facility: levelled messages to stderr, never mixed with results on stdout.

#include <string_view>

#include <fmt/format.h>

namespace mapsim::log {

enum class Level { Error, Warning, Info, Debug };

/// Messages above this level are dropped. Info by default; the CLI's --quiet / --verbose set it.
void set_level(Level level);
Level level();

/// Writes one line "mapsim: <level>: <message>" to stderr (thread-safe).
void write(Level level, std::string_view message);

template <typename... Args>
void warning(fmt::format_string<Args...> format, Args&&... args) {
  if (level() >= Level::Warning)
    write(Level::Warning, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
  if (level() >= Level::Info) write(Level::Info, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
  if (level() >= Level::Debug)
    write(Level::Debug, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace mapsim::log
