#pragma once
// Sweeps on a Slurm cluster: `mapsim run CONFIG --slurm N` writes two batch scripts, and submits
// nothing. The array job runs shard I of N (`--shard I/N`) as array task I, into a database on
// the node's local disk ($TMPDIR), and copies it to a shards folder beside the config when the
// shard ends (a re-run of a task resumes from its copy); the copy is SQLite's (`mapsim merge`
// into a new file), which reads through the write-ahead log of a runner that was killed. The merge
// job, submitted to depend on the array, merges the shards into the sweep's database (`mapsim
// merge`). Slurm does the scheduling, retries and accounting; mapsim only stripes the runs
// deterministically.
//
//   mapsim run sweep.yaml --slurm 16 --db results.db   # writes sweep.sbatch, sweep-merge.sbatch
//   array=$(sbatch --parsable sweep.sbatch)
//   sbatch --dependency=afterok:$array sweep-merge.sbatch

#include <filesystem>
#include <string>

namespace mapsim::exp {

struct SlurmOptions {
  std::filesystem::path config;    ///< the sweep's config file
  std::filesystem::path database;  ///< where the merged results go
  std::filesystem::path mapsim;    ///< the mapsim binary the jobs run
  int shards = 1;
  int cpus_per_task = 2;        ///< also the runner's --jobs
  std::string extra_arguments;  ///< passed to every shard's `mapsim run` (shell-quoted already)
};

struct SlurmScripts {
  std::filesystem::path array;   ///< CONFIG-stem.sbatch beside the config
  std::filesystem::path merge;   ///< CONFIG-stem-merge.sbatch
  std::filesystem::path shards;  ///< the folder the shard databases are copied to
  std::string commands;          ///< the commands that submit them, one per line
};

/// Writes both scripts (replacing older ones). Throws InputError naming a file that cannot be
/// written or a shard count out of 1 .. 10000.
SlurmScripts write_slurm_scripts(const SlurmOptions& options);

/// `text` quoted for a POSIX shell ('...', with ' as '\'').
std::string shell_quote(std::string_view text);

}  // namespace mapsim::exp
