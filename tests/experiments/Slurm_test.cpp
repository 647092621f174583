// Slurm batch scripts for sharded sweeps: their content, quoting, and what they run under bash.

#include "experiments/Slurm.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/wait.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

using mapsim::testing::shell;
using mapsim::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool executable(const std::filesystem::path& path) {
  return (std::filesystem::status(path).permissions() & std::filesystem::perms::owner_exec) !=
         std::filesystem::perms::none;
}

/// A folder and file name that need quoting in a shell.
struct Paths {
  std::filesystem::path folder;
  std::filesystem::path config;
  std::filesystem::path database;
  std::filesystem::path mapsim;
};

Paths awkward_paths(const TempDir& dir) {
  Paths p;
  p.folder = dir.path() / "it's my sweep $HOME";
  std::filesystem::create_directories(p.folder);
  p.config = p.folder / "sweep v1.yaml";
  std::ofstream(p.config) << "workloads: [npb:lu:S:4]\n";
  p.database = dir.path() / "results \"all\".db";
  p.mapsim = dir.path() / "bin dir" / "mapsim";
  return p;
}

/// A stand-in for mapsim: writes its arguments, one per line in brackets, to $FAKE_LOG, appends
/// a line to the file after --db, and exits with 3. With FAKE_MERGE set, `merge OUT IN` copies
/// IN to OUT instead (as the array task copies its database).
void write_fake_mapsim(const std::filesystem::path& path) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/bash\n"
                         "if [ \"$1\" = merge ] && [ -n \"${FAKE_MERGE:-}\" ]; then\n"
                         "  cp \"$3\" \"$2\"; exit 0\n"
                         "fi\n"
                         "printf '[%s]\\n' \"$@\" > \"$FAKE_LOG\"\n"
                         "while [ $# -gt 0 ]; do\n"
                         "  if [ \"$1\" = --db ]; then echo ran >> \"$2\"; fi\n"
                         "  shift\n"
                         "done\n"
                         "exit ${FAKE_STATUS:-3}\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add);
}

TEST(Slurm, WritesBothScriptsBesideTheConfig) {
  const TempDir dir;
  SlurmOptions options;
  options.config = dir.path() / "sweep.yaml";
  options.database = dir.path() / "out" / "results.db";
  options.mapsim = "/opt/mapsim/bin/mapsim";
  options.shards = 16;
  options.cpus_per_task = 4;
  const auto scripts = write_slurm_scripts(options);
  EXPECT_EQ(scripts.array, dir.path() / "sweep.sbatch");
  EXPECT_EQ(scripts.merge, dir.path() / "sweep-merge.sbatch");
  EXPECT_EQ(scripts.shards, dir.path() / "sweep-shards");
  EXPECT_TRUE(std::filesystem::is_directory(scripts.shards));
  EXPECT_TRUE(executable(scripts.array));
  EXPECT_TRUE(executable(scripts.merge));

  const auto array = read(scripts.array);
  const auto array_lines = lines_of(array);
  ASSERT_FALSE(array_lines.empty());
  EXPECT_EQ(array_lines[0], "#!/bin/bash");
  EXPECT_THAT(array_lines, ::testing::Contains("#SBATCH --array=1-16"));
  EXPECT_THAT(array_lines, ::testing::Contains("#SBATCH --cpus-per-task=4"));
  EXPECT_THAT(array_lines, ::testing::Contains("#SBATCH --job-name=mapsim-sweep"));
  // Logs go beside the shards, by the script itself (an #SBATCH --output path with spaces
  // would not survive Slurm's parsing).
  EXPECT_THAT(array_lines, ::testing::Contains("exec >>\"$shards/shard-$shard.log\" 2>&1"));
  EXPECT_THAT(array, HasSubstr(fmt::format("'/opt/mapsim/bin/mapsim' run {} --shard \"$shard/16\" "
                                           "--db \"$db\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\"",
                                           shell_quote(options.config.string()))));

  const auto merge = read(scripts.merge);
  EXPECT_EQ(lines_of(merge)[0], "#!/bin/bash");
  EXPECT_THAT(lines_of(merge), ::testing::Contains("#SBATCH --job-name=mapsim-sweep-merge"));
  EXPECT_THAT(merge, HasSubstr(fmt::format("exec '/opt/mapsim/bin/mapsim' merge {} "
                                           "\"${{inputs[@]}}\"",
                                           shell_quote(options.database.string()))));
  EXPECT_THAT(merge, HasSubstr("-ne 16"));

  EXPECT_EQ(scripts.commands,
            fmt::format("array=$(sbatch --parsable {})\nsbatch --dependency=afterok:$array {}\n",
                        shell_quote(scripts.array.string()), shell_quote(scripts.merge.string())));
}

TEST(Slurm, PathsAreMadeAbsoluteAndScriptsReplaced) {
  const TempDir dir;
  SlurmOptions options;
  options.config = dir.path() / "sub" / ".." / "sweep.yaml";
  options.database = "relative.db";
  options.mapsim = "mapsim";
  options.shards = 4;
  auto scripts = write_slurm_scripts(options);
  EXPECT_EQ(scripts.array, dir.path() / "sweep.sbatch");
  const auto database = (std::filesystem::current_path() / "relative.db").lexically_normal();
  EXPECT_THAT(read(scripts.merge), HasSubstr(shell_quote(database.string())));
  EXPECT_THAT(read(scripts.array), HasSubstr("#SBATCH --array=1-4\n"));

  options.shards = 2;
  options.extra_arguments = "--rerun-failed";
  scripts = write_slurm_scripts(options);
  const auto array = read(scripts.array);
  EXPECT_THAT(array, AllOf(HasSubstr("#SBATCH --array=1-2\n"), HasSubstr("\"$shard/2\""),
                           HasSubstr("--jobs \"${SLURM_CPUS_PER_TASK:-1}\" --rerun-failed\n"),
                           Not(HasSubstr("--array=1-4"))));
  // Written whole, then renamed: no temporary files are left.
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_THAT(files, ElementsAre("sweep-merge.sbatch", "sweep-shards", "sweep.sbatch"));
}

TEST(Slurm, RejectsShardCountsOutOfRange) {
  const TempDir dir;
  for (const int shards : {0, -1, 10001}) {
    SlurmOptions options;
    options.config = dir.path() / "sweep.yaml";
    options.database = dir.path() / "results.db";
    options.mapsim = "mapsim";
    options.shards = shards;
    try {
      (void)write_slurm_scripts(options);
      ADD_FAILURE() << shards << " shards accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(),
                  AllOf(HasSubstr(fmt::format("--slurm {}", shards)), HasSubstr("1 .. 10000")));
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // nothing written
  for (const int shards : {1, 10000}) {
    SlurmOptions options;
    options.config = dir.path() / "sweep.yaml";
    options.database = dir.path() / "results.db";
    options.mapsim = "mapsim";
    options.shards = shards;
    EXPECT_THAT(read(write_slurm_scripts(options).array),
                HasSubstr(fmt::format("#SBATCH --array=1-{}\n", shards)));
  }
}

TEST(Slurm, UnwritableFolderIsAnError) {
  const TempDir dir;
  const auto file = dir.write("plain-file", "x");
  SlurmOptions options;
  options.config = file / "sweep.yaml";  // a folder inside a file cannot exist
  options.database = dir.path() / "results.db";
  options.mapsim = "mapsim";
  options.shards = 2;
  try {
    (void)write_slurm_scripts(options);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("--slurm: cannot create the shards' folder"),
                                HasSubstr("sweep-shards"), HasSubstr("not a directory")));
  }
}

TEST(Slurm, ShellQuoteKeepsEveryCharacter) {
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("abc"), "'abc'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("''"), "''\\'''\\'''");
  EXPECT_EQ(shell_quote("$HOME `ls` \"x\" \\n *"), "'$HOME `ls` \"x\" \\n *'");
  const TempDir dir;
  const auto out = dir.path() / "out";
  for (const std::string text : {"plain", "it's", "a'b'c", "$HOME `ls` \"x\" \\n *", "two\nlines",
                                 "semi; colon && echo no", "'", ""}) {
    ASSERT_EQ(shell(fmt::format("printf %s {} > {}", shell_quote(text), shell_quote(out.string()))),
              0)
        << text;
    EXPECT_EQ(read(out), text);
  }
}

TEST(Slurm, ScriptsPassBashSyntaxCheck) {
  const TempDir dir;
  const auto p = awkward_paths(dir);
  SlurmOptions options{p.config, p.database, p.mapsim,
                       3,        2,          "--where " + shell_quote("mapper = 'greedy'")};
  const auto scripts = write_slurm_scripts(options);
  EXPECT_EQ(shell("bash -n " + shell_quote(scripts.array.string())), 0);
  EXPECT_EQ(shell("bash -n " + shell_quote(scripts.merge.string())), 0);
  EXPECT_EQ(shell("bash -n -c " + shell_quote(scripts.commands)), 0);
}

TEST(Slurm, ArrayTaskRunsItsShardAndKeepsItsDatabase) {
  const TempDir dir;
  const auto p = awkward_paths(dir);
  write_fake_mapsim(p.mapsim);
  SlurmOptions options{p.config, p.database, p.mapsim,
                       3,        2,          "--where " + shell_quote("mapper = 'greedy'")};
  const auto scripts = write_slurm_scripts(options);
  const auto tmp = dir.path() / "node tmp";
  std::filesystem::create_directories(tmp);
  const auto log = dir.path() / "log";
  const auto task = fmt::format(
      "cd / && SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_JOB_ID=77 "
      "SLURM_CPUS_PER_TASK=4 TMPDIR={} FAKE_LOG={} FAKE_MERGE=copy bash {} 2> /dev/null",
      shell_quote(tmp.string()), shell_quote(log.string()), shell_quote(scripts.array.string()));
  // The runner's exit status is the task's.
  EXPECT_EQ(shell(task), 3);
  const auto local = tmp / "mapsim-77-2.db";
  EXPECT_THAT(lines_of(read(log)),
              ElementsAre("[run]", "[" + p.config.string() + "]", "[--shard]", "[2/3]", "[--db]",
                          "[" + local.string() + "]", "[--jobs]", "[4]", "[--where]",
                          "[mapper = 'greedy']"));
  // The shard's database is copied beside the config, the local one removed.
  const auto kept = scripts.shards / "shard-2.db";
  EXPECT_EQ(read(kept), "ran\n");
  EXPECT_FALSE(std::filesystem::exists(local));
  // Run again, the task resumes from its copy.
  EXPECT_EQ(shell(task), 3);
  EXPECT_EQ(read(kept), "ran\nran\n");
  EXPECT_FALSE(std::filesystem::exists(scripts.shards / "shard-2.db.tmp"));
  // A shard that finished with failed runs stored (exit status 4) keeps them and succeeds, so
  // that the merge job, which depends on every task's success, still merges them.
  EXPECT_EQ(shell("export FAKE_STATUS=4; " + task), 0);
  EXPECT_EQ(read(kept), "ran\nran\nran\n");
}

TEST(Slurm, MergeJobMergesTheShardsIntoTheDatabase) {
  const TempDir dir;
  const auto p = awkward_paths(dir);
  write_fake_mapsim(p.mapsim);
  const auto scripts = write_slurm_scripts({p.config, p.database, p.mapsim, 3, 2, ""});
  std::ofstream(scripts.shards / "shard-1.db") << "1";
  std::ofstream(scripts.shards / "shard-3.db") << "3";
  std::ofstream(scripts.shards / "shard-1.log") << "not a database";
  const auto log = dir.path() / "log";
  const auto err = dir.path() / "err";
  EXPECT_EQ(shell(fmt::format("cd / && FAKE_LOG={} bash {} 2> {}", shell_quote(log.string()),
                              shell_quote(scripts.merge.string()), shell_quote(err.string()))),
            3);
  EXPECT_THAT(lines_of(read(log)),
              ElementsAre("[merge]", "[" + p.database.string() + "]",
                          "[" + (scripts.shards / "shard-1.db").string() + "]",
                          "[" + (scripts.shards / "shard-3.db").string() + "]"));
  // A missing shard is reported in the merge log beside the shards, and the others are merged.
  EXPECT_THAT(read(scripts.shards / "merge.log"), HasSubstr("2 of 3 shard databases"));
}

TEST(Slurm, SubmitCommandsChainTheMergeAfterTheArray) {
  const TempDir dir;
  const auto p = awkward_paths(dir);
  const auto scripts = write_slurm_scripts({p.config, p.database, p.mapsim, 3, 2, ""});
  // A stand-in sbatch: logs its arguments and answers --parsable with a job id.
  const auto bin = dir.path() / "fake bin";
  std::filesystem::create_directories(bin);
  std::ofstream(bin / "sbatch") << "#!/bin/bash\n"
                                   "printf '[%s]' \"$@\" >> \"$FAKE_LOG\"\n"
                                   "echo >> \"$FAKE_LOG\"\n"
                                   "if [ \"$1\" = --parsable ]; then echo 4242; fi\n";
  std::filesystem::permissions(bin / "sbatch", std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add);
  const auto log = dir.path() / "log";
  EXPECT_EQ(
      shell(fmt::format("PATH={}:\"$PATH\" FAKE_LOG={} bash -e -c {}", shell_quote(bin.string()),
                        shell_quote(log.string()), shell_quote(scripts.commands))),
      0);
  EXPECT_THAT(lines_of(read(log)),
              ElementsAre("[--parsable][" + scripts.array.string() + "]",
                          "[--dependency=afterok:4242][" + scripts.merge.string() + "]"));
}

}  // namespace
}  // namespace mapsim::exp
