// write_output writes all or nothing: a failed write leaves an existing file byte for byte as it
// was and no temporary beside it. A full disk is a file size limit (RLIMIT_FSIZE) here, which
// fails write(2) with EFBIG once SIGXFSZ is ignored.

#include "support/OutputFile.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::read_file;
using testing::TempDir;

/// The names of the files in `dir`, for checking that no temporary was left behind.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

/// Lowers the file size limit to `bytes` and ignores SIGXFSZ while alive, so writes past the
/// limit fail with EFBIG as on a full disk.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*old_handler_)(int) = nullptr;
};

TEST(WriteOutput, WritesTheFileAndLeavesNoTemporary) {
  TempDir dir;
  const auto file = dir.path() / "out.csv";
  write_output(file, "--csv", [](std::ostream& out) { out << "a,b\n1,2\n"; });
  EXPECT_EQ(read_file(file), "a,b\n1,2\n");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(WriteOutput, ReplacesAnExistingFileKeepingItsPermissions) {
  TempDir dir;
  const auto file = dir.write("out.csv", "old contents that are longer\n");
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_output(file, "--csv", [](std::ostream& out) { out << "new\n"; });
  EXPECT_EQ(read_file(file), "new\n");
  EXPECT_EQ(fs::status(file).permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(WriteOutput, WriterExceptionLeavesTheOldFileAndNoTemporary) {
  TempDir dir;
  const auto file = dir.write("out.csv", "old\n");
  EXPECT_THROW(write_output(file, "--csv",
                            [](std::ostream& out) {
                              out << "partial";
                              throw std::runtime_error("writer failed");
                            }),
               std::runtime_error);
  EXPECT_EQ(read_file(file), "old\n");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(WriteOutput, FullDiskLeavesTheOldFileAndNamesTheReason) {
  TempDir dir;
  const std::string old(100, 'o');
  const auto file = dir.write("out.csv", old);
  try {
    const FileSizeLimit limit(4096);
    // 1 MB: several times the stream's buffer, so the failure comes mid-write, not at the end.
    write_output(file, "--csv", [](std::ostream& out) { out << std::string(1 << 20, 'x'); });
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("--csv"), HasSubstr(file.string()),
                                HasSubstr(std::strerror(EFBIG))));
  }
  EXPECT_EQ(read_file(file), old);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(WriteOutput, FullDiskOnTheLastBufferIsStillAnError) {
  // 5000 bytes fit the stream's buffer: the write fails only on the final flush.
  TempDir dir;
  const auto file = dir.path() / "out.csv";
  {
    const FileSizeLimit limit(4096);
    EXPECT_THROW(
        write_output(file, "--out", [](std::ostream& out) { out << std::string(5000, 'x'); }),
        InputError);
  }
  EXPECT_TRUE(names_in(dir.path()).empty());
}

TEST(WriteOutput, MissingDirectoryNamesWhatAndTheFile) {
  TempDir dir;
  const auto file = dir.path() / "missing" / "out.csv";
  try {
    write_output(file, "--csv", [](std::ostream& out) { out << "x"; });
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("--csv"), HasSubstr(file.string()),
                                HasSubstr(std::strerror(ENOENT))));
  }
}

TEST(WriteOutput, WritesAFifoInPlace) {
  // A path that exists and is not a regular file is written in place, never renamed over: the
  // rule that keeps `--out /dev/null` from replacing the device.
  TempDir dir;
  const auto fifo = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read_file(fifo); });
  write_output(fifo, "--out", [](std::ostream& out) { out << "through the pipe\n"; });
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"pipe"});
}

TEST(WriteOutput, ReplacesTheTargetOfASymbolicLinkAndKeepsTheLink) {
  TempDir dir;
  const auto target = dir.write("real.csv", "old\n");
  const auto link = dir.path() / "link.csv";
  fs::create_symlink("real.csv", link);
  write_output(link, "--csv", [](std::ostream& out) { out << "new\n"; });
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), "new\n");
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"link.csv", "real.csv"}));
}

TEST(WriteOutput, TemporaryNamesDiffer) {
  EXPECT_NE(temporary_sibling("out"), temporary_sibling("out"));
  EXPECT_THAT(temporary_sibling("dir/out").string(), HasSubstr("dir/out.tmp-"));
}

TEST(PrepareOutput, AcceptsAFileInAnExistingDirectoryAndStandardOutput) {
  TempDir dir;
  EXPECT_NO_THROW(prepare_output(dir.path() / "new.csv", "--csv"));
  EXPECT_NO_THROW(prepare_output("-", "--csv"));
  EXPECT_FALSE(fs::exists(dir.path() / "new.csv"));
}

TEST(PrepareOutput, CreatesMissingDirectories) {
  TempDir dir;
  const auto file = dir.path() / "missing" / "deeper" / "out.csv";
  EXPECT_NO_THROW(prepare_output(file, "--links"));
  EXPECT_TRUE(fs::is_directory(dir.path() / "missing" / "deeper"));
  EXPECT_FALSE(fs::exists(file));
}

TEST(PrepareOutput, SaysWhyADirectoryCannotBeCreated) {
  TempDir dir;
  const auto plain = dir.write("plain", "x");
  const auto file = plain / "sub" / "out.csv";
  try {
    prepare_output(file, "--links");
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("--links: cannot write '" + file.string()),
                                HasSubstr("cannot create the directory '" +
                                          (plain / "sub").string() + "': Not a directory")));
  }
}

TEST(PrepareOutput, RejectsADirectoryAsTheFile) {
  TempDir dir;
  EXPECT_THROW(prepare_output(dir.path(), "--out"), InputError);
}

TEST(PrepareOutput, RejectsAParentThatIsAFile) {
  TempDir dir;
  const auto file = dir.write("plain", "x");
  EXPECT_THROW(prepare_output(file / "out.csv", "--out"), InputError);
}

TEST(OutputDirectory, CommitRenamesTheTemporaryToAMissingTarget) {
  TempDir dir;
  const auto target = dir.path() / "out";
  {
    OutputDirectory output(target, "--out");
    EXPECT_EQ(output.path().parent_path(), dir.path());
    std::ofstream(output.path() / "a.txt") << "a";
    output.commit();
  }
  EXPECT_EQ(read_file(target / "a.txt"), "a");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out"});
}

TEST(OutputDirectory, CommitReplacesEntriesOfTheSameNameAndKeepsOthers) {
  TempDir dir;
  const auto target = dir.path() / "out";
  fs::create_directories(target / "sub");
  std::ofstream(target / "a.txt") << "old a";
  std::ofstream(target / "keep.txt") << "keep";
  std::ofstream(target / "sub" / "old.txt") << "old";
  {
    OutputDirectory output(target, "--out");
    std::ofstream(output.path() / "a.txt") << "new a";
    fs::create_directory(output.path() / "sub");
    std::ofstream(output.path() / "sub" / "new.txt") << "new";
    output.commit();
  }
  EXPECT_EQ(read_file(target / "a.txt"), "new a");
  EXPECT_EQ(read_file(target / "keep.txt"), "keep");
  EXPECT_EQ(names_in(target / "sub"), std::vector<std::string>{"new.txt"});
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out"});
}

TEST(OutputDirectory, UncommittedLeavesTheTargetAsItWasAndNoTemporary) {
  TempDir dir;
  const auto target = dir.path() / "out";
  fs::create_directories(target);
  std::ofstream(target / "a.txt") << "old a";
  try {
    OutputDirectory output(target, "--out");
    std::ofstream(output.path() / "a.txt") << "partial";
    throw std::runtime_error("the writer failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_file(target / "a.txt"), "old a");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out"});
}

TEST(OutputDirectory, TrailingSlashPutsTheTemporaryBesideNotInside) {
  TempDir dir;
  OutputDirectory output(dir.path() / "out" / "", "--out");
  EXPECT_EQ(output.path().parent_path(), dir.path());
  output.commit();
  EXPECT_TRUE(fs::is_directory(dir.path() / "out"));
}

TEST(OutputDirectory, DotIsTheDirectoryItNames) {
  TempDir dir;
  const auto inner = dir.path() / "out";
  fs::create_directories(inner);
  struct stat before {};
  ASSERT_EQ(::stat(inner.c_str(), &before), 0);
  OutputDirectory output(inner / ".", "--out");
  EXPECT_EQ(output.path().parent_path(), dir.path());
  std::ofstream(output.path() / "a.txt") << "a";
  output.commit();
  EXPECT_EQ(read_file(inner / "a.txt"), "a");
  // The directory itself stays (a shell working in it sees the files), although it was empty.
  struct stat after {};
  ASSERT_EQ(::stat(inner.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out"});
}

TEST(OutputDirectory, TargetThatIsAFileIsAnInputError) {
  TempDir dir;
  const auto file = dir.write("plain", "x");
  EXPECT_THROW(OutputDirectory(file, "--out"), InputError);
  try {
    OutputDirectory output(file / "below", "--out");
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("--out"), HasSubstr((file / "below").string())));
  }
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"plain"});
}

}  // namespace
}  // namespace mapsim
