#pragma once
// Damaging archives in tests: writable copies of tests/data's archives, and the error reading one
// gives.

#include <filesystem>
#include <string>

#include "support/Error.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::testing {

/// A writable copy of the archive `name` (a path under tests/data) in `dir` (the data's files may
/// be read-only).
inline std::filesystem::path copy_archive(const std::filesystem::path& dir,
                                          const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path source = fs::path(MAPSIM_TEST_DATA_DIR) / name;
  const auto copy = dir / source.filename();
  fs::copy(source, copy, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(copy)) {
    fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::owner_write,
                    fs::perm_options::add);
  }
  return copy;
}

/// The InputError of reading `path` into a Trace, or "no error".
inline std::string read_trace_error(const std::filesystem::path& path) {
  try {
    (void)traces::read_trace(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace mapsim::testing
