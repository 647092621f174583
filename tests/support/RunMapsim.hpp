#pragma once
// Runs the `mapsim` binary for system tests and captures its exit status, stdout and stderr.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

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

/// Runs `PREFIX mapsim ARGS` through the shell (so ARGS is shell syntax) in `cwd` (default: the
/// current directory); PREFIX is a command that runs mapsim (or empty).
inline RunResult run_mapsim_with(const std::string& prefix, const std::string& args,
                                 const std::filesystem::path& cwd) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mapsim-run-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  const auto out = dir / "stdout";
  const auto err = dir / "stderr";
  const std::string enter = cwd.empty() ? std::string() : "cd '" + cwd.string() + "' && ";
  const std::string command =
      enter + prefix + MAPSIM_BINARY + " " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  std::filesystem::remove_all(dir);
  return result;
}

/// The exit status of a shell command (-1 if it did not exit normally).
inline int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Runs `mapsim ARGS` through the shell (so ARGS is shell syntax) in `cwd` (default: the
/// current directory).
inline RunResult run_mapsim(const std::string& args, const std::filesystem::path& cwd = {}) {
  return run_mapsim_with("", args, cwd);
}

/// Starts `mapsim ARGS` with stdout and stderr going to files; returns its pid.
inline pid_t spawn_mapsim(const std::vector<std::string>& args, const std::filesystem::path& out,
                          const std::filesystem::path& err) {
  std::vector<std::string> words{MAPSIM_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string out_name = out.string();
  const std::string err_name = err.string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out_fd = ::open(out_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0) ::_exit(126);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Waits for `pid` to end: its exit code, -SIGNAL if a signal ended it, or -1000 if it did not
/// end within `timeout` (it is killed then).
inline int wait_for(pid_t pid, std::chrono::seconds timeout = std::chrono::seconds(180)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      if (WIFSIGNALED(status)) return -WTERMSIG(status);
      return -999;
    }
    if (done < 0) return -998;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1000;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

/// `mapsim ARGS` (shell syntax) in `cwd` with a file size limit of `kib` KiB (ulimit -f, in bash's
/// units): every write beyond it fails with EFBIG, as on a full disk.
inline RunResult run_mapsim_with_file_limit(int kib, const std::string& args,
                                            const std::filesystem::path& cwd = {}) {
  return run_mapsim_with("bash -c 'ulimit -f " + std::to_string(kib) + "; exec \"$0\" \"$@\"' ",
                         args, cwd);
}

/// `mapsim ARGS` (shell syntax, run in `cwd`) as a user whom file permissions bind: as root, as
/// user nobody (setpriv, util-linux), since root reads and writes any file; otherwise as is. The
/// files it needs must be readable (and where it writes, writable) for that user.
inline RunResult run_mapsim_unprivileged(const std::string& args,
                                         const std::filesystem::path& cwd = {}) {
  if (::geteuid() != 0) return run_mapsim(args, cwd);
  return run_mapsim_with("setpriv --reuid=65534 --regid=65534 --clear-groups ", args, cwd);
}

}  // namespace mapsim::testing
