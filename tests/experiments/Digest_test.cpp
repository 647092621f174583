// Content digests: SHA-256 test vectors, incremental hashing, file and OTF2 archive digests.

#include "experiments/Digest.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::exp {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// FIPS 180-2 / NIST CAVP examples.
constexpr std::string_view kEmpty =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr std::string_view kAbc =
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr std::string_view
    kTwoBlocks =  // "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
constexpr std::string_view kMillionA =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

TEST(Sha256, PublishedTestVectors) {
  EXPECT_EQ(sha256(""), kEmpty);
  EXPECT_EQ(sha256("abc"), kAbc);
  EXPECT_EQ(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), kTwoBlocks);
  EXPECT_EQ(sha256(std::string(1'000'000, 'a')), kMillionA);
}

TEST(Sha256, IncrementalEqualsOneShot) {
  const std::string text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  for (const std::size_t piece : {1U, 3U, 7U, 55U, 56U}) {
    Sha256 hash;
    for (std::size_t at = 0; at < text.size(); at += piece)
      hash.update(std::string_view(text).substr(at, piece));
    EXPECT_EQ(hash.hex(), kTwoBlocks) << piece;
  }
  // Empty updates change nothing; update chains.
  EXPECT_EQ(Sha256().update("").update("a").update("").update("bc").hex(), kAbc);
  EXPECT_EQ(Sha256().hex(), kEmpty);
  // A million 'a' in uneven pieces.
  Sha256 million;
  std::size_t given = 0;
  for (std::size_t piece = 1; given < 1'000'000; piece = piece * 3 + 1) {
    const auto n = std::min(piece, 1'000'000 - given);
    million.update(std::string(n, 'a'));
    given += n;
  }
  EXPECT_EQ(million.hex(), kMillionA);
}

TEST(Sha256, MovedHashContinues) {
  Sha256 first;
  first.update("a");
  Sha256 second(std::move(first));
  second.update("b");
  Sha256 third;
  third = std::move(second);
  third.update("c");
  EXPECT_EQ(third.hex(), kAbc);
}

TEST(Sha256, EveryByteCounts) {
  // Embedded NULs are data; one bit changes the digest.
  EXPECT_NE(sha256(std::string_view("ab\0c", 4)), sha256("abc"));
  EXPECT_NE(sha256(std::string_view("ab\0c", 4)), sha256(std::string_view("ab\0d", 4)));
  EXPECT_NE(sha256("abc"), sha256("abC"));
  const auto digest = sha256("mapsim");
  EXPECT_EQ(digest.size(), 64U);
  EXPECT_EQ(digest.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(FileDigest, IsTheDigestOfTheBytes) {
  const testing::TempDir dir;
  EXPECT_EQ(file_digest(dir.write("abc.txt", "abc")), kAbc);
  EXPECT_EQ(file_digest(dir.write("empty.txt", "")), kEmpty);
  // Larger than one read buffer.
  EXPECT_EQ(file_digest(dir.write("a.txt", std::string(1'000'000, 'a'))), kMillionA);
  std::string binary;
  for (int i = 0; i < 256; ++i) binary.push_back(static_cast<char>(i));
  const auto file = dir.path() / "binary";
  std::ofstream(file, std::ios::binary) << binary;
  EXPECT_EQ(file_digest(file), sha256(binary));
}

TEST(FileDigest, MissingFileNamesThePath) {
  const testing::TempDir dir;
  const auto missing = dir.path() / "nothere.csv";
  try {
    (void)file_digest(missing);
    ADD_FAILURE() << "no error for a missing file";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing.string()));
  }
}

/// A small generated archive: LU class S on 4 ranks, 1 iteration, in `dir` (DIR/traces.otf2).
void generate_archive(const fs::path& dir) {
  traces::write_generated_trace(
      [] {
        traces::GeneratorOptions o;
        o.kernel = "lu";
        o.ranks = 4;
        o.iterations = 1;
        return o;
      }(),
      dir);
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(ArchiveDigest, DirectoryAndAnchorAgree) {
  const testing::TempDir dir;
  const auto archive = dir.path() / "lu";
  generate_archive(archive);
  ASSERT_TRUE(fs::is_regular_file(archive / "traces.otf2"));
  const auto digest = archive_digest(archive);
  EXPECT_EQ(digest.size(), 64U);
  EXPECT_EQ(archive_digest(archive / "traces.otf2"), digest);
  // Not the digest of the anchor file alone: the event files count.
  EXPECT_NE(digest, file_digest(archive / "traces.otf2"));
}

TEST(ArchiveDigest, CopiesElsewhereAgree) {
  const testing::TempDir dir;
  const auto archive = dir.path() / "lu";
  generate_archive(archive);
  const auto copy = dir.path() / "elsewhere" / "deeper" / "renamed";
  fs::create_directories(copy.parent_path());
  fs::copy(archive, copy, fs::copy_options::recursive);
  EXPECT_EQ(archive_digest(copy), archive_digest(archive));
  EXPECT_EQ(archive_digest(copy / "traces.otf2"), archive_digest(archive));
}

TEST(ArchiveDigest, OneByteOfOneEventFileChangesIt) {
  const testing::TempDir dir;
  const auto archive = dir.path() / "lu";
  generate_archive(archive);
  const auto before = archive_digest(archive);
  const auto events = archive / "traces" / "2.evt";
  ASSERT_TRUE(fs::is_regular_file(events));
  auto bytes = read_bytes(events);
  ASSERT_GT(bytes.size(), 100U);
  bytes[100] = static_cast<char>(bytes[100] ^ 1);
  write_bytes(events, bytes);
  const auto after = archive_digest(archive);
  EXPECT_NE(after, before);
  // Back to the original byte, back to the original digest.
  bytes[100] = static_cast<char>(bytes[100] ^ 1);
  write_bytes(events, bytes);
  EXPECT_EQ(archive_digest(archive), before);
}

TEST(ArchiveDigest, FilesBesideTheArchiveDoNotCount) {
  const testing::TempDir dir;
  const auto archive = dir.path() / "lu";
  generate_archive(archive);
  const auto before = archive_digest(archive);
  // Score-P's profile and configuration live beside the archive.
  write_bytes(archive / "profile.cubex", "not part of the trace");
  write_bytes(archive / "scorep.cfg", "SCOREP_ENABLE_TRACING=true\n");
  fs::create_directories(archive / "notes");
  write_bytes(archive / "notes" / "readme.txt", "hello");
  EXPECT_EQ(archive_digest(archive), before);
  // A file under the per-location directory is part of the archive.
  write_bytes(archive / "traces" / "extra.evt", "x");
  EXPECT_NE(archive_digest(archive), before);
}

TEST(ArchiveDigest, MissingArchiveNamesThePath) {
  const testing::TempDir dir;
  const auto missing = dir.path() / "nothere";
  try {
    (void)archive_digest(missing);
    ADD_FAILURE() << "no error for a missing archive";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing.string()));
  }
  // A directory without an anchor file is no archive either.
  const auto empty = dir.path() / "empty";
  fs::create_directories(empty);
  try {
    (void)archive_digest(empty);
    ADD_FAILURE() << "no error for a directory without an anchor";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(empty.string()));
  }
}

}  // namespace
}  // namespace mapsim::exp
