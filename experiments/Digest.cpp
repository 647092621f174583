#include "experiments/Digest.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fstream>
#include <openssl/evp.h>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "traces/Otf2Archive.hpp"

namespace mapsim::exp {
namespace {

EVP_MD_CTX* ctx(void* p) {
  return static_cast<EVP_MD_CTX*>(p);
}

void hash_file(Sha256& hash, const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(fmt::format("cannot read '{}': it is a directory", path.string()));
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(fmt::format("cannot read '{}'{}", path.string(),
                                 errno != 0 ? ": " + system_reason(errno) : std::string()));
  }
  std::array<char, 1 << 16> buffer;
  while (in) {
    in.read(buffer.data(), buffer.size());
    hash.update(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) throw InputError(fmt::format("cannot read '{}'", path.string()));
}

}  // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (context_ == nullptr || EVP_DigestInit_ex(ctx(context_), EVP_sha256(), nullptr) != 1)
    throw std::bad_alloc();
}

Sha256::~Sha256() {
  if (context_ != nullptr) EVP_MD_CTX_free(ctx(context_));
}

Sha256::Sha256(Sha256&& other) noexcept : context_(std::exchange(other.context_, nullptr)) {}

Sha256& Sha256::operator=(Sha256&& other) noexcept {
  if (this != &other) {
    if (context_ != nullptr) EVP_MD_CTX_free(ctx(context_));
    context_ = std::exchange(other.context_, nullptr);
  }
  return *this;
}

Sha256& Sha256::update(std::string_view data) {
  MAPSIM_EXPECTS(EVP_DigestUpdate(ctx(context_), data.data(), data.size()) == 1,
                 "SHA-256 update failed");
  return *this;
}

std::string Sha256::hex() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  MAPSIM_EXPECTS(EVP_DigestFinal_ex(ctx(context_), digest.data(), &size) == 1,
                 "SHA-256 final failed");
  std::string text;
  text.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) text += fmt::format("{:02x}", digest[i]);
  return text;
}

std::string sha256(std::string_view data) {
  return Sha256().update(data).hex();
}

std::string file_digest(const std::filesystem::path& path) {
  Sha256 hash;
  hash_file(hash, path);
  return hash.hex();
}

std::string archive_digest(const std::filesystem::path& path) {
  const auto anchor = traces::find_anchor(path);
  const auto root = anchor.parent_path();
  const auto stem = anchor.stem();
  std::vector<std::filesystem::path> files{anchor};
  auto definitions = anchor;
  definitions.replace_extension(".def");
  if (std::filesystem::exists(definitions)) files.push_back(definitions);
  const auto locations = root / stem;
  std::error_code error;
  if (std::filesystem::is_directory(locations, error)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(locations)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  std::sort(files.begin() + 1, files.end());
  Sha256 hash;
  for (const auto& file : files) {
    const auto relative = std::filesystem::relative(file, root).generic_string();
    hash.update(fmt::format("{}\n{}\n", relative, std::filesystem::file_size(file)));
    hash_file(hash, file);
  }
  return hash.hex();
}

}  // namespace mapsim::exp
