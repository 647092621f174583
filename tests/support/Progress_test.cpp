// Progress draws on a terminal only: run it once with stderr on a pseudo-terminal and once on a
// file.

#include "support/Progress.hpp"

#include <cstdio>
#include <fcntl.h>
#include <pty.h>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

namespace mapsim {
namespace {

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

TEST(Progress, DrawsTheFinalCountOnATerminal) {
  int master = -1;
  int slave = -1;
  ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  with_stderr(slave, [] {
    Progress progress("reading", 200, "events");
    progress.advance(150);
    progress.advance(50);
  });
  ::close(slave);
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = ::read(master, buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  ::close(master);
  EXPECT_NE(text.find("mapsim: reading 100% (200/200 events)"), std::string::npos) << text;
}

TEST(Progress, IsSilentWhenStderrIsNotATerminal) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  with_stderr(::fileno(file), [] {
    Progress progress("reading", 10);
    progress.advance(10);
  });
  EXPECT_EQ(std::ftell(file), 0L);
  std::fclose(file);
}

}  // namespace
}  // namespace mapsim
