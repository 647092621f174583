#pragma once
// Runs the `mapsim` binary for system tests and captures its exit status, stdout and stderr.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace mapsim::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs `mapsim ARGS` through the shell (so ARGS is shell syntax) in `cwd` (default: the
/// current directory).
inline RunResult run_mapsim(const std::string& args, const std::filesystem::path& cwd = {}) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mapsim-run-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  const auto out = dir / "stdout";
  const auto err = dir / "stderr";
  const std::string enter = cwd.empty() ? std::string() : "cd '" + cwd.string() + "' && ";
  const std::string command =
      enter + std::string(MAPSIM_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace mapsim::testing
