#pragma once
// An open OTF2 archive for reading: owns the libotf2 reader handle (move-only RAII) and turns
// libotf2 error codes into InputError messages that name the archive.
//
// libotf2 reports errors through a process-wide callback that by default prints to stderr; the
// first Otf2Archive installs one that records the message instead, so that it ends up in the
// InputError (and nothing is printed behind the caller's back).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include <otf2/OTF2_ErrorCodes.h>
#include <otf2/OTF2_Reader.h>

namespace mapsim::traces {

class Otf2Archive {
 public:
  /// Opens `path`: an anchor file (`traces.otf2`) or the directory that holds one. Throws
  /// InputError if there is no such file, the directory holds no anchor file, or libotf2 cannot
  /// open it.
  explicit Otf2Archive(const std::filesystem::path& path);
  ~Otf2Archive();
  Otf2Archive(Otf2Archive&& other) noexcept;
  Otf2Archive& operator=(Otf2Archive&& other) noexcept;
  Otf2Archive(const Otf2Archive&) = delete;
  Otf2Archive& operator=(const Otf2Archive&) = delete;

  [[nodiscard]] OTF2_Reader* get() const { return reader_; }
  /// The anchor file, e.g. ".../lu.S.8/traces.otf2".
  [[nodiscard]] const std::filesystem::path& anchor() const { return anchor_; }
  /// The directory holding the per-location files (`<anchor without .otf2>/`).
  [[nodiscard]] std::filesystem::path location_directory() const;

  /// Throws InputError "ANCHOR: WHAT: NAME (description) [libotf2's message]" unless `code` is
  /// OTF2_SUCCESS.
  void check(OTF2_ErrorCode code, std::string_view what) const;

  /// OTF2 archive version ("3.0.2") and creator ("Score-P 8.4"), empty if not recorded.
  [[nodiscard]] std::string version() const;
  [[nodiscard]] std::string creator() const;

 private:
  OTF2_Reader* reader_ = nullptr;
  std::filesystem::path anchor_;
};

/// The anchor file of `path` (itself if a file; DIR/traces.otf2 or DIR's only *.otf2 if a
/// directory). Throws InputError naming the path if there is none.
std::filesystem::path find_anchor(const std::filesystem::path& path);

/// What keeps `file` from being read as an OTF2 file, as a phrase to follow its name: "does not
/// exist", "is empty (0 bytes)", "cannot be opened: Permission denied", "is not a regular file";
/// empty if it opens and holds data. For messages after libotf2 failed on the file.
std::string file_problem(const std::filesystem::path& file);

/// Messages libotf2 reported on this thread since the last call (and forgets them).
std::string take_otf2_messages();

}  // namespace mapsim::traces
