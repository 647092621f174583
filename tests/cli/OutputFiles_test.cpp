// Outputs are all or nothing (issue 15): a full disk, simulated by a file size limit (`ulimit -f`,
// which fails write(2) with EFBIG as mapsim ignores SIGXFSZ), makes the command fail naming the
// file and the reason, leaves no temporary behind and an existing output byte for byte as it was;
// a failed write to standard output is an error; an interrupted `mapsim generate` leaves nothing
// behind that blocks a rerun.

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::read_file;
using testing::RunResult;
using testing::TempDir;

const std::string kLu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";

/// Runs `mapsim ARGS` after the shell commands `setup` (e.g. "ulimit -f 8", which limits the
/// files mapsim writes to 4 KiB under dash, 8 KiB under bash), its standard output going to
/// `stdout_to` (e.g. "/dev/full") or, if empty, captured.
RunResult run_after(const std::string& setup, const std::string& args,
                    const std::string& stdout_to = "") {
  // Not a TempDir: that would be the test's own directory.
  static int runs = 0;
  const auto capture =
      fs::temp_directory_path() / fmt::format("mapsim-output-files-{}-{}", ::getpid(), runs++);
  fs::create_directories(capture);
  const auto out = capture / "stdout";
  const auto err = capture / "stderr";
  const std::string command =
      fmt::format("{}; exec {} {} >{} 2>{}", setup, MAPSIM_BINARY, args,
                  stdout_to.empty() ? out.string() : stdout_to, err.string());
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  fs::remove_all(capture);
  return result;
}

/// The names in `dir`, sorted: a temporary left behind shows up here.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

/// Every regular file below `dir` with its contents, by relative path.
std::map<std::string, std::string> contents_below(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).string()] = read_file(entry.path());
  }
  return files;
}

TEST(OutputFiles, StandardOutputOnAFullDiskIsAnError) {
  // `list` prints more than stdio's buffer, --help less: both fail, on a write and on the flush.
  for (const std::string args : {"list", "--help", "topo torus:4x4"}) {
    const auto r = run_after("true", args, "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_THAT(r.err, HasSubstr("cannot write standard output: No space left on device")) << args;
  }
}

TEST(OutputFiles, MatrixCsvOnAFullDiskLeavesTheOldFile) {
  const TempDir dir;
  // 64 ranks, all pairs: about 60 KB of CSV, far above the limit.
  std::string csv = "src,dst,messages,bytes\n";
  for (int src = 0; src < 64; ++src) {
    for (int dst = 0; dst < 64; ++dst) {
      if (src != dst) csv += fmt::format("{},{},3,4096\n", src, dst);
    }
  }
  const auto in = dir.write("in.csv", csv);
  const auto out = dir.write("out.csv", "old contents\n");
  const auto r =
      run_after("ulimit -f 8", "matrix " + in.string() + " --csv " + out.string(), "/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              AllOf(HasSubstr("--csv"), HasSubstr(out.string()), HasSubstr(std::strerror(EFBIG))));
  EXPECT_EQ(read_file(out), "old contents\n");
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"in.csv", "out.csv"}));

  // Without the limit the same command replaces the file.
  const auto ok = run_after("true", "matrix " + in.string() + " --csv " + out.string());
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_THAT(read_file(out), HasSubstr("63,62,3,4096\n"));
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"in.csv", "out.csv"}));
}

TEST(OutputFiles, MatrixCsvIntoAFileAsDirectoryFailsBeforeReading) {
  const TempDir dir;
  const auto plain = dir.write("plain", "x");
  const auto out = plain / "out.csv";
  const auto r = run_after("true", "matrix " + kLu + " --csv " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              AllOf(HasSubstr("--csv"), HasSubstr(out.string()), HasSubstr("is not a directory")));
  EXPECT_EQ(r.out, "");  // checked before the trace was read and summarised
}

// `--out DIR/...` (and --csv, --links) create the missing directories.
TEST(OutputFiles, OutputsIntoMissingDirectoriesCreateThem) {
  const TempDir dir;
  const auto base = dir.path();
  const auto matrix =
      run_after("true", "matrix " + kLu + " --csv " + (base / "a/b/m.csv").string());
  EXPECT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_TRUE(fs::is_regular_file(base / "a/b/m.csv"));
  const auto one =
      run_after("true", "map --trace " + kLu + " --topology torus:2x2x2 --mapper greedy --out " +
                            (base / "c/d/greedy.map").string());
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(fs::is_regular_file(base / "c/d/greedy.map"));
  const auto many = run_after("true", "map --trace " + kLu +
                                          " --topology torus:2x2x2 --mapper greedy,rcm --out " +
                                          (base / "e/f/").string());
  EXPECT_EQ(many.exit_code, 0) << many.err;
  EXPECT_TRUE(fs::is_regular_file(base / "e/f/greedy.map"));
  EXPECT_TRUE(fs::is_regular_file(base / "e/f/rcm.map"));
  const auto links =
      run_after("true", "simulate --trace " + kLu + " --topology torus:2x2x2 --links " +
                            (base / "g/links.csv").string());
  EXPECT_EQ(links.exit_code, 0) << links.err;
  EXPECT_TRUE(fs::is_regular_file(base / "g/links.csv"));
}

TEST(OutputFiles, GenerateOnAFullDiskLeavesTheOldArchive) {
  const TempDir dir;
  const auto out = dir.path() / "trace";
  const auto first = run_after("true", "generate ep --ranks 2 --out " + out.string());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto before = contents_below(out);
  ASSERT_TRUE(before.contains("traces.otf2"));

  const auto r =
      run_after("ulimit -f 8", "generate lu --class S --ranks 4 --force --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  // OTF2 words EFBIG its own way ("File is too large").
  EXPECT_THAT(r.err, AllOf(HasSubstr((out / "traces.otf2").string()), HasSubstr("too large")));
  EXPECT_EQ(contents_below(out), before);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"trace"});
}

TEST(OutputFiles, InterruptedGenerateLeavesNothingAndARerunWorks) {
  const TempDir dir;
  const auto out = dir.path() / "trace";
  const auto log = dir.path() / "log";
  // Long enough (several seconds) that the interruption comes while ranks are being written.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::execl(MAPSIM_BINARY, MAPSIM_BINARY, "generate", "lu", "--class", "B", "--ranks", "64",
            "--iterations", "1000", "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // The temporary archive directory appears once the writer has started (after the signal
  // handler is installed).
  bool started = false;
  for (int i = 0; i < 60'000 && !started; ++i) {
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      if (entry.path().filename().string().starts_with("trace.tmp-")) started = true;
    }
    if (!started) ::usleep(1000);
  }
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(started);
  ASSERT_TRUE(WIFEXITED(status)) << read_file(log);
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_file(log);
  EXPECT_THAT(read_file(log), HasSubstr("interrupted"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"log"});

  const auto rerun = run_after("true", "generate ep --ranks 2 --out " + out.string());
  EXPECT_EQ(rerun.exit_code, 0) << rerun.err;
  EXPECT_TRUE(fs::exists(out / "traces.otf2"));
}

TEST(OutputFiles, ExportOnAFullDiskLeavesTheOldDirectory) {
  const TempDir dir;
  const auto out = dir.path() / "ti";
  fs::create_directories(out);
  std::ofstream(out / "index.txt") << "old index\n";
  std::ofstream(out / "keep.txt") << "not mapsim's\n";
  const auto before = contents_below(out);
  const std::string args = "export " + kLu + " --format simgrid-ti --out " + out.string();
  const auto r = run_after("ulimit -f 8", args);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr(out.string()), HasSubstr(std::strerror(EFBIG))));
  EXPECT_EQ(contents_below(out), before);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"ti"});

  // Without the limit: the new files replace the old ones, others stay; the index names the
  // rank files where they ended up.
  const auto ok = run_after("true", args);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(read_file(out / "keep.txt"), "not mapsim's\n");
  EXPECT_THAT(read_file(out / "index.txt"), HasSubstr((out / "rank-7.txt").string()));
  EXPECT_TRUE(fs::exists(out / "rank-0.txt"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"ti"});
}

}  // namespace
}  // namespace mapsim
