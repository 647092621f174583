#include "experiments/Slurm.hpp"

#include <ostream>
#include <system_error>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/OutputFile.hpp"

namespace mapsim::exp {
namespace {

void write_script(const std::filesystem::path& path, const std::string& text) {
  write_output(path, "--slurm", [&](std::ostream& out) { out << text; });
  // Executable, to run a script by hand (sbatch does not need it).
  std::error_code error;
  std::filesystem::permissions(path, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add, error);
}

}  // namespace

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

SlurmScripts write_slurm_scripts(const SlurmOptions& options) {
  if (options.shards < 1 || options.shards > 10000)
    throw InputError(fmt::format("--slurm {}: expected 1 .. 10000 shards", options.shards));
  const auto config = std::filesystem::absolute(options.config).lexically_normal();
  const auto database = std::filesystem::absolute(options.database).lexically_normal();
  const auto dir = config.parent_path();
  const auto stem = config.stem().string();
  SlurmScripts scripts;
  scripts.array = dir / (stem + ".sbatch");
  scripts.merge = dir / (stem + "-merge.sbatch");
  scripts.shards = dir / (stem + "-shards");
  // The scripts log into this folder.
  std::error_code error;
  std::filesystem::create_directories(scripts.shards, error);
  if (error) {
    throw InputError(fmt::format("--slurm: cannot create the shards' folder '{}': {}",
                                 scripts.shards.string(), system_reason(error.value())));
  }
  const auto mapsim = shell_quote(options.mapsim.string());
  const auto shards = shell_quote(scripts.shards.string());

  write_script(scripts.array, fmt::format(R"(#!/bin/bash
#SBATCH --job-name=mapsim-{stem}
#SBATCH --array=1-{n}
#SBATCH --cpus-per-task={cpus}
# Written by `mapsim run {config_plain} --slurm {n}`: array task I runs shard I of {n} of the
# sweep into a database on the node's local disk, then copies it to {shards_plain}/shard-I.db
# (its log beside it). A task that runs again starts from its copy and resumes. At the time
# limit Slurm sends SIGTERM: mapsim stores what is finished, and the copy is still made.
# The copy is made by SQLite (`mapsim merge` into a new file), never by cp: a runner killed
# after commits leaves runs in the database's -wal file, which cp would leave behind.
set -uo pipefail
trap 'echo "sweep shard $shard: SIGTERM, saving the finished runs" >&2' TERM
shard=$SLURM_ARRAY_TASK_ID
shards={shards}
mkdir -p "$shards"
exec >>"$shards/shard-$shard.log" 2>&1
db="${{TMPDIR:-/tmp}}/mapsim-$SLURM_ARRAY_JOB_ID-$shard.db"
if [ -f "$shards/shard-$shard.db" ]; then cp "$shards/shard-$shard.db" "$db"; fi
{mapsim} run {config} --shard "$shard/{n}" --db "$db" --jobs "${{SLURM_CPUS_PER_TASK:-1}}"{extra}
status=$?
# 4: finished with failed runs stored; they are merged with the rest, so the merge still runs.
if [ $status -eq 4 ]; then echo "sweep shard $shard: finished with failed runs stored" >&2; status=0; fi
copy="$shards/shard-$shard.db.tmp"
rm -f "$copy" "$copy-wal" "$copy-shm" "$copy-journal"
if [ -f "$db" ] && {mapsim} merge "$copy" "$db" && mv "$copy" "$shards/shard-$shard.db"; then
  rm -f "$db" "$db-wal" "$db-shm"
else
  echo "sweep shard $shard: could not copy $db to $shards/shard-$shard.db" >&2
  rm -f "$copy"
  if [ $status -eq 0 ]; then status=1; fi
fi
exit $status
)",
                                          fmt::arg("stem", stem), fmt::arg("n", options.shards),
                                          fmt::arg("cpus", options.cpus_per_task),
                                          fmt::arg("shards_plain", scripts.shards.string()),
                                          fmt::arg("config_plain", config.string()),
                                          fmt::arg("shards", shards), fmt::arg("mapsim", mapsim),
                                          fmt::arg("config", shell_quote(config.string())),
                                          fmt::arg("extra", options.extra_arguments.empty()
                                                                ? std::string()
                                                                : " " + options.extra_arguments)));

  write_script(scripts.merge, fmt::format(R"(#!/bin/bash
#SBATCH --job-name=mapsim-{stem}-merge
# Written by `mapsim run {config_plain} --slurm {n}`: merges the {n} shard databases into
# {database_plain} once the array job is done (submit with --dependency=afterok:ARRAY_JOB_ID).
set -euo pipefail
exec >>{shards}/merge.log 2>&1
shopt -s nullglob
inputs=({shards}/shard-*.db)
if [ ${{#inputs[@]}} -ne {n} ]; then
  echo "mapsim merge: ${{#inputs[@]}} of {n} shard databases in "{shards} >&2
fi
exec {mapsim} merge {database} "${{inputs[@]}}"
)",
                                          fmt::arg("stem", stem), fmt::arg("n", options.shards),
                                          fmt::arg("config_plain", config.string()),
                                          fmt::arg("database_plain", database.string()),
                                          fmt::arg("shards", shards), fmt::arg("mapsim", mapsim),
                                          fmt::arg("database", shell_quote(database.string()))));

  scripts.commands =
      fmt::format("array=$(sbatch --parsable {})\nsbatch --dependency=afterok:$array {}\n",
                  shell_quote(scripts.array.string()), shell_quote(scripts.merge.string()));
  return scripts;
}

}  // namespace mapsim::exp
