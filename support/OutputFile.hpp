#pragma once
// Output files written all or nothing: a failed write (a full disk, a file size limit, an
// exception in the writer) leaves neither a partial file nor a temporary behind, and an existing
// file unchanged.

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace mapsim {

/// Writes `path` with `write`, all or nothing: the bytes go to a temporary file in the same
/// directory ("<name>.tmp-<pid>-<n>"), which is flushed, closed and renamed over `path` only when
/// every write succeeded; on any failure the temporary is removed, an existing `path` is left as it
/// was, and InputError names `what` (e.g. "--csv"), the file and the OS reason (strerror).
/// "-" writes to standard output. A `path` that exists and is not a regular file (a device such as
/// /dev/null, a FIFO) is written in place, never renamed over.
void write_output(const std::filesystem::path& path, std::string_view what,
                  const std::function<void(std::ostream&)>& write);

/// Makes sure `path` ("-" excepted) can be created before long work starts: creates its directory
/// and any missing parents (`--out maps/lu/greedy.map` makes maps/lu), and throws InputError
/// naming `what`, the path and the reason if that fails, if the directory is not writable, or if
/// `path` is a directory.
void prepare_output(const std::filesystem::path& path, std::string_view what);

/// Why writes into `folder` may be failing, when the failing code did not say (SQLite's "disk I/O
/// error", a program that left an empty file): "no space left on the device of 'DIR' (4096 bytes
/// free)", "the file size limit of this process (ulimit -f) is 1024 bytes", or "" if neither
/// holds.
[[nodiscard]] std::string write_failure_cause(const std::filesystem::path& folder);

/// A name for a temporary beside `path` that no other process or call uses:
/// "<path>.tmp-<pid>-<n>" ("out/" counts as "out").
[[nodiscard]] std::filesystem::path temporary_sibling(const std::filesystem::path& path);

/// An output directory written all or nothing: the caller fills path(), an empty temporary
/// directory beside `target` ("<target>.tmp-<pid>-<n>"), and commit() moves it into place. If
/// `target` does not exist, the temporary is renamed to it; if it does, each entry of the
/// temporary replaces the entry of the same name (other entries stay). Destroyed uncommitted (an
/// exception, an interruption), it removes the temporary with everything in it, so an interrupted
/// run leaves `target` as it was and a rerun works.
class OutputDirectory {
 public:
  /// Creates the parents of `target` and the temporary. Throws InputError naming `what` if
  /// `target` exists and is not a directory, or a directory cannot be created.
  OutputDirectory(const std::filesystem::path& target, std::string_view what);
  ~OutputDirectory();
  OutputDirectory(OutputDirectory&& other) noexcept;
  OutputDirectory& operator=(OutputDirectory&& other) noexcept;
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  /// The temporary directory to write into.
  [[nodiscard]] const std::filesystem::path& path() const { return temporary_; }
  /// Where the output goes.
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  /// Moves the temporary's entries into `target`. Throws InputError (and removes the temporary)
  /// if that fails.
  void commit();

 private:
  void discard() noexcept;

  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::string what_;
};

}  // namespace mapsim
