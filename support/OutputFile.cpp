#include "support/OutputFile.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;

/// An output stream buffer over a file descriptor that remembers the first OS error (errno), so
/// the message can say why a write failed; std::ofstream does not tell.
class FdStreamBuf : public std::streambuf {
 public:
  explicit FdStreamBuf(int fd) : fd_(fd), buffer_(std::size_t{1} << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }

  /// The errno of the first failed write, 0 if none failed.
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }

  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_ != 0) return false;
    const char* at = pbase();
    auto left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0) {
      const ssize_t n = ::write(fd_, at, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      at += n;
      left -= static_cast<std::size_t>(n);
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

[[noreturn]] void fail(std::string_view what, const fs::path& path, int error) {
  throw InputError(fmt::format("{}: cannot write '{}': {}", what, path.string(),
                               error != 0 ? std::strerror(error) : "write failed"));
}

/// Runs `write` into `fd`, flushes, and returns the errno of the first failure (0 if none).
/// Exceptions of `write` propagate.
int write_fd(int fd, const std::function<void(std::ostream&)>& write) {
  FdStreamBuf buffer(fd);
  std::ostream out(&buffer);
  write(out);
  out.flush();
  if (buffer.error() != 0) return buffer.error();
  if (!out) return EIO;
  return 0;
}

void write_stdout(std::string_view what, const std::function<void(std::ostream&)>& write) {
  // Whatever stdio holds goes first; then straight to the descriptor, to know why a write failed.
  std::cout.flush();
  std::fflush(stdout);
  if (const int error = write_fd(STDOUT_FILENO, write); error != 0) {
    throw InputError(
        fmt::format("{}: cannot write standard output: {}", what, std::strerror(error)));
  }
}

/// Writes a file that exists and is not a regular file (a device, a FIFO) in place.
void write_in_place(const fs::path& path, std::string_view what,
                    const std::function<void(std::ostream&)>& write) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(what, path, errno);
  int error = 0;
  try {
    error = write_fd(fd, write);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) fail(what, path, error);
}

}  // namespace

std::string write_failure_cause(const fs::path& folder) {
  std::vector<std::string> causes;
  struct statvfs space {};
  const auto dir = folder.empty() ? fs::path(".") : folder;
  // Under a megabyte free: whatever was being written did not fit.
  constexpr unsigned long long kFull = 1 << 20;
  if (::statvfs(dir.c_str(), &space) == 0) {
    const auto free = static_cast<unsigned long long>(space.f_bavail) * space.f_frsize;
    if (free < kFull)
      causes.push_back(
          fmt::format("no space left on the device of '{}' ({} bytes free)", dir.string(), free));
  }
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    causes.push_back(fmt::format("the file size limit of this process (ulimit -f) is {} bytes",
                                 static_cast<unsigned long long>(limit.rlim_cur)));
  }
  return fmt::format("{}", fmt::join(causes, "; "));
}

fs::path temporary_sibling(const fs::path& path) {
  static std::atomic<unsigned> counter{0};
  fs::path temporary = path.has_filename() ? path : path.parent_path();
  temporary += fmt::format(".tmp-{}-{}", ::getpid(), counter.fetch_add(1));
  return temporary;
}

void write_output(const fs::path& path, std::string_view what,
                  const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write_stdout(what, write);
    return;
  }
  // Follow a symbolic link, so the file it points to is replaced and the link kept.
  fs::path target = path;
  std::error_code ec;
  if (fs::is_symlink(path, ec)) {
    const auto resolved = fs::canonical(path, ec);
    if (!ec) target = resolved;
  }
  struct stat existing {};
  const bool exists = ::stat(target.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode)) {
    write_in_place(target, what, write);
    return;
  }
  const mode_t mode = exists ? (existing.st_mode & 07777) : 0666;
  const fs::path temporary = temporary_sibling(target);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) fail(what, path, errno);
  int error = 0;
  try {
    error = write_fd(fd, write);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  // An existing file keeps its permissions exactly (the umask applied to the open above).
  if (error == 0 && exists && ::fchmod(fd, mode) != 0) error = errno;
  if (error == 0 && ::fsync(fd) != 0 && errno != EINVAL) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temporary.c_str(), target.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    fail(what, path, error);
  }
}

void prepare_output(const fs::path& path, std::string_view what) {
  if (path == "-") return;
  std::error_code ec;
  if (fs::is_directory(path, ec)) fail(what, path, EISDIR);
  fs::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec)) {
    // A parent that is a file fails here with "Not a directory".
    if (fs::create_directories(dir, ec); ec) {
      throw InputError(fmt::format("{}: cannot write '{}': cannot create the directory '{}': {}",
                                   what, path.string(), dir.string(), ec.message()));
    }
  }
  if (!fs::is_directory(dir, ec)) {
    throw InputError(fmt::format("{}: cannot write '{}': '{}' is not a directory", what,
                                 path.string(), dir.string()));
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    const int error = errno;
    throw InputError(fmt::format("{}: cannot write '{}': directory '{}': {}", what, path.string(),
                                 dir.string(), std::strerror(error)));
  }
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
      ::access(path.c_str(), W_OK) != 0) {
    fail(what, path, errno);
  }
}

namespace {

/// `target` without a trailing separator, and absolute if it ends in "." or "..", so that the
/// temporary goes beside it: "out/" is "out", "." is the current directory's path.
fs::path directory_name(const fs::path& target) {
  fs::path path = target.has_filename() ? target : target.parent_path();
  if (path.filename() == "." || path.filename() == "..") {
    path = fs::absolute(path).lexically_normal();
    if (!path.has_filename()) path = path.parent_path();
  }
  return path;
}

}  // namespace

OutputDirectory::OutputDirectory(const fs::path& target, std::string_view what)
    : target_(directory_name(target)), what_(what) {
  std::error_code error;
  // Follow a symbolic link, so the directory it points to receives the output.
  if (fs::is_symlink(target_, error)) {
    if (auto resolved = fs::canonical(target_, error); !error) target_ = std::move(resolved);
  }
  if (fs::exists(target_, error) && !fs::is_directory(target_, error)) {
    throw InputError(
        fmt::format("{}: '{}' exists and is not a directory", what_, target_.string()));
  }
  if (const auto parent = target_.parent_path(); !parent.empty()) {
    fs::create_directories(parent, error);
    if (error) {
      throw InputError(fmt::format("{}: cannot create output directory '{}': {}", what_,
                                   target_.string(), error.message()));
    }
  }
  const auto temporary = temporary_sibling(target_);
  if (!fs::create_directory(temporary, error) || error) {
    throw InputError(fmt::format("{}: cannot create output directory '{}': {}", what_,
                                 temporary.string(),
                                 error ? error.message() : std::string("it exists")));
  }
  temporary_ = temporary;
}

OutputDirectory::~OutputDirectory() {
  discard();
}

OutputDirectory::OutputDirectory(OutputDirectory&& other) noexcept
    : target_(std::move(other.target_)),
      temporary_(std::exchange(other.temporary_, {})),
      what_(std::move(other.what_)) {}

OutputDirectory& OutputDirectory::operator=(OutputDirectory&& other) noexcept {
  if (this != &other) {
    discard();
    target_ = std::move(other.target_);
    temporary_ = std::exchange(other.temporary_, {});
    what_ = std::move(other.what_);
  }
  return *this;
}

void OutputDirectory::discard() noexcept {
  if (temporary_.empty()) return;
  std::error_code ignored;
  fs::remove_all(temporary_, ignored);
  temporary_.clear();
}

void OutputDirectory::commit() {
  MAPSIM_EXPECTS(!temporary_.empty(), "OutputDirectory committed twice");
  const auto failed = [&](const fs::path& file, int error) {
    discard();
    fail(what_, file, error);
  };
  std::error_code error;
  // An existing directory is kept (it may be a shell's working directory), its entries replaced.
  if (!fs::exists(target_, error)) {
    if (::rename(temporary_.c_str(), target_.c_str()) == 0) {
      temporary_.clear();
      return;
    }
    if (errno != ENOTEMPTY && errno != EEXIST) failed(target_, errno);
  }
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(temporary_, error))
    entries.push_back(entry.path());
  if (error) failed(temporary_, error.value());
  for (const auto& from : entries) {
    const auto to = target_ / from.filename();
    // A directory cannot be renamed over a non-empty one, nor a file over a directory.
    if (fs::is_directory(from, error) || fs::is_directory(to, error)) fs::remove_all(to, error);
    if (::rename(from.c_str(), to.c_str()) != 0) failed(to, errno);
  }
  discard();
}

}  // namespace mapsim
