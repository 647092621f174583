#pragma once
// Runs code with stderr on a pseudo-terminal (or a file) and returns what it wrote: progress
// displays draw on a terminal only. Link with `util` (openpty).

#include <cstddef>
#include <cstdio>
#include <pty.h>
#include <string>
#include <unistd.h>

namespace mapsim::testing {

/// Runs `work` with stderr redirected to `fd`, then restores it.
template <typename Work>
void with_stderr(int fd, Work work) {
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  ::dup2(fd, STDERR_FILENO);
  work();
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
}

/// What `work` writes to stderr when stderr is a pseudo-terminal (keep it under the terminal's
/// buffer, a few KiB: nothing reads while `work` runs).
template <typename Work>
std::string stderr_on_terminal(Work work) {
  int master = -1;
  int slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return "openpty failed";
  with_stderr(slave, work);
  ::close(slave);
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = ::read(master, buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  ::close(master);
  return text;
}

/// What `work` writes to stderr when stderr is a file.
template <typename Work>
std::string stderr_in_file(Work work) {
  std::FILE* file = std::tmpfile();
  if (file == nullptr) return "tmpfile failed";
  with_stderr(::fileno(file), work);
  std::string text;
  std::rewind(file);
  char buffer[512];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  return text;
}

}  // namespace mapsim::testing
