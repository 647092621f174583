#pragma once
// Content digests: SHA-256 (OpenSSL's EVP interface) as 64 lowercase hex digits. Run keys and
// the identity of input files are digests, so that a result is found again whatever the file's
// name or place, and a changed byte anywhere in an input makes a new run.

#include <filesystem>
#include <string>
#include <string_view>

namespace mapsim::exp {

/// Incremental SHA-256.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&& other) noexcept;
  Sha256& operator=(Sha256&& other) noexcept;
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  Sha256& update(std::string_view data);
  /// The digest of everything given so far; the object cannot be updated afterwards.
  [[nodiscard]] std::string hex();

 private:
  void* context_;  // EVP_MD_CTX
};

/// SHA-256 of `data`, hex.
std::string sha256(std::string_view data);

/// SHA-256 of a file's bytes. Throws InputError naming the file if it cannot be read.
std::string file_digest(const std::filesystem::path& path);

/// SHA-256 of an OTF2 archive's content, given its anchor file or directory: the anchor file,
/// the global definitions (`traces.def`) and every file under the per-location directory, each
/// with its path relative to the archive and its size, in sorted path order. Copies of one
/// archive in different places have the same digest. Files beside the archive that are not part
/// of it (Score-P's profile, configuration) do not count. Throws InputError naming the path if it
/// is missing or unreadable.
std::string archive_digest(const std::filesystem::path& path);

}  // namespace mapsim::exp
