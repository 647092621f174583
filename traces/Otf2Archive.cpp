#include "traces/Otf2Archive.hpp"

#include <array>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/RecordedMatrix.hpp"

namespace mapsim::traces {
namespace {

namespace fs = std::filesystem;

// libotf2's error callback is process-wide; what it reports belongs to the thread that called
// into libotf2, so the messages are kept per thread.
thread_local std::string otf2_messages;

OTF2_ErrorCode record_otf2_error(void* /*user*/, const char* /*file*/, uint64_t /*line*/,
                                 const char* /*function*/, OTF2_ErrorCode code, const char* format,
                                 va_list args) {
  if (format != nullptr && otf2_messages.size() < 4096) {
    std::vector<char> text(512);
    va_list copy;
    va_copy(copy, args);
    const int length = std::vsnprintf(text.data(), text.size(), format, copy);
    va_end(copy);
    if (length > 0) {
      if (!otf2_messages.empty()) otf2_messages += "; ";
      otf2_messages.append(
          text.data(), std::min<std::size_t>(static_cast<std::size_t>(length), text.size() - 1));
    }
  }
  return code;
}

void install_error_callback() {
  static std::once_flag once;
  std::call_once(once, [] { OTF2_Error_RegisterCallback(record_otf2_error, nullptr); });
}

}  // namespace

std::string take_otf2_messages() {
  return std::exchange(otf2_messages, {});
}

std::string file_problem(const fs::path& file) {
  std::error_code error;
  const auto status = fs::status(file, error);
  if (status.type() == fs::file_type::not_found) return "does not exist";
  if (error) return fmt::format("cannot be examined: {}", error.message());
  if (!fs::is_regular_file(status)) return "is not a regular file";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot be opened: {}", std::generic_category().message(errno));
  ::close(fd);
  if (fs::file_size(file, error) == 0 && !error) return "is empty (0 bytes)";
  return {};
}

fs::path find_anchor(const fs::path& path) {
  std::error_code error;
  const auto status = fs::status(path, error);
  if (!fs::exists(status)) {
    throw InputError(fmt::format("trace '{}' does not exist", path.string()));
  }
  if (!fs::is_directory(status)) return path;
  if (fs::is_regular_file(path / "traces.otf2")) return path / "traces.otf2";
  std::vector<fs::path> anchors;
  for (const auto& entry : fs::directory_iterator(path, error)) {
    if (entry.path().extension() == ".otf2" && entry.is_regular_file()) {
      anchors.push_back(entry.path());
    }
  }
  if (anchors.size() == 1) return anchors.front();
  if (anchors.empty()) {
    throw InputError(fmt::format(
        "'{}' is not an OTF2 archive: it holds no anchor file (traces.otf2 or another *.otf2)",
        path.string()));
  }
  throw InputError(fmt::format("'{}' holds {} anchor files (*.otf2); name the one to read",
                               path.string(), anchors.size()));
}

Otf2Archive::Otf2Archive(const fs::path& path) : anchor_(find_anchor(path)) {
  // libotf2 leaks its half-built archive when the anchor file is not one; checking the header
  // of OTF2 files first (a chunk marker, the byte order 'B' or '#', "OTF2") also gives a clearer
  // message for the common mistake.
  {
    std::ifstream in(anchor_, std::ios::binary);
    std::array<char, 6> head{};
    in.read(head.data(), head.size());
    const std::string_view text(head.data(), head.size());
    if (!in) {
      if (const auto problem = file_problem(anchor_); !problem.empty()) {
        throw InputError(
            fmt::format("{}: the archive's anchor file {}", anchor_.string(), problem));
      }
    }
    if (!in || head[0] != '\x03' || (head[1] != 'B' && head[1] != '#') ||
        text.substr(2) != "OTF2") {
      if (is_csv_matrix(anchor_) || is_recorded_matrix(anchor_)) {
        throw InputError(fmt::format(
            "{}: a communication matrix, not a trace: it holds how much the ranks send each "
            "other, not in which order or when, so it can be mapped (mapsim map --matrix) but not "
            "replayed; a replay needs an OTF2 trace (e.g. recorded by Score-P) or a generated "
            "workload",
            anchor_.string()));
      }
      throw InputError(
          fmt::format("{}: not a readable OTF2 anchor file (it does not start with OTF2's header)",
                      anchor_.string()));
    }
  }
  install_error_callback();
  take_otf2_messages();
  reader_ = OTF2_Reader_Open(anchor_.c_str());
  if (reader_ == nullptr) {
    const auto messages = take_otf2_messages();
    throw InputError(fmt::format("{}: not a readable OTF2 anchor file{}", anchor_.string(),
                                 messages.empty() ? "" : " (" + messages + ")"));
  }
  check(OTF2_Reader_SetSerialCollectiveCallbacks(reader_), "setting up the reader");
}

Otf2Archive::~Otf2Archive() {
  if (reader_ != nullptr) {
    OTF2_Reader_Close(reader_);
    take_otf2_messages();  // errors while closing after a failure are not news
  }
}

Otf2Archive::Otf2Archive(Otf2Archive&& other) noexcept
    : reader_(std::exchange(other.reader_, nullptr)), anchor_(std::move(other.anchor_)) {}

Otf2Archive& Otf2Archive::operator=(Otf2Archive&& other) noexcept {
  if (this != &other) {
    if (reader_ != nullptr) OTF2_Reader_Close(reader_);
    reader_ = std::exchange(other.reader_, nullptr);
    anchor_ = std::move(other.anchor_);
  }
  return *this;
}

fs::path Otf2Archive::location_directory() const {
  auto directory = anchor_;
  directory.replace_extension();
  return directory;
}

void Otf2Archive::check(OTF2_ErrorCode code, std::string_view what) const {
  if (code == OTF2_SUCCESS) {
    return;
  }
  const auto messages = take_otf2_messages();
  throw InputError(fmt::format("{}: {}: {} ({}){}", anchor_.string(), what,
                               OTF2_Error_GetName(code), OTF2_Error_GetDescription(code),
                               messages.empty() ? "" : " [" + messages + "]"));
}

std::string Otf2Archive::version() const {
  uint8_t major = 0;
  uint8_t minor = 0;
  uint8_t bugfix = 0;
  if (OTF2_Reader_GetVersion(reader_, &major, &minor, &bugfix) != OTF2_SUCCESS) {
    take_otf2_messages();
    return {};
  }
  return fmt::format("{}.{}.{}", major, minor, bugfix);
}

std::string Otf2Archive::creator() const {
  char* text = nullptr;
  if (OTF2_Reader_GetCreator(reader_, &text) != OTF2_SUCCESS || text == nullptr) {
    take_otf2_messages();
    return {};
  }
  std::string creator(text);
  std::free(text);  // libotf2 hands over a malloc'ed copy
  return creator;
}

}  // namespace mapsim::traces
