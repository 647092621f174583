#pragma once
// A trace in SimGrid's time-independent (TI) format, so that SMPI (`smpirun -replay`) replays the
// same messages mapsim replays: one action file per rank (`rank-<r>.txt`) and `index.txt` listing
// them, as SimGrid 3.32's replay reads them (sizes in bytes, every peer a world rank).
//
// What SMPI receives, action by action:
// - Point-to-point as recorded: send / isend `dst tag bytes`, recv / irecv `src tag bytes`,
//   `wait src dst tag` where the trace completed the request. Messages are matched as the replay
//   matches them (the k-th send on (src, dst, comm, tag) with the k-th receive on it), and every
//   message gets its own tag, the count of messages from src to dst so far, so that SMPI's
//   matching and request lookup (keyed by src, dst, tag) are exact whatever the communicators.
//   Receives carry the sender's size. Cancelled requests are left out; a send that no receive
//   matches becomes an isend that is never waited for.
// - Collectives are not handed to SMPI's own algorithms: each is written as the point-to-point
//   schedule mapsim replays (CollectiveSchedule.hpp, under options.collectives: MPICH's or Open
//   MPI's algorithms, as `--collectives` chose), one `irecv` / `isend` / `wait` group per
//   step, so both simulators move the same messages between the same ranks. A non-blocking
//   collective runs where it starts (its Wait writes nothing).
// - With native_collectives, each collective is instead one line for bench/smpi_replayer.c, an
//   MPI program that runs it as that MPI collective on its communicator (so that SMPI's
//   collective selector picks the algorithm): `coll OP COMM ROOT B0 .. B(P-1)`, with OP the
//   operation (barrier, bcast, reduce, allreduce, allgather(v), alltoall(v), gather(v),
//   scatter(v), reduce_scatter, scan, exscan; a communicator's creation as a barrier, as the
//   replay takes it), COMM the communicator's index, ROOT its communicator rank or -1, and Bi
//   member i's payload as collective_payload derives it. communicators.txt lists every
//   communicator: `ID P m0 .. m(P-1)`, its world ranks. SimGrid's own replay cannot read these
//   lines. A non-blocking collective runs where it starts.
// - Computation: `compute F` with F = gap (s) * flops_per_second, from MPI_Init to MPI_Finalize
//   as the replay's default window; none with `compute = false` (communication only).

#include <cstdint>
#include <filesystem>

#include "traces/CollectiveSchedule.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// The fastest host speed accepted, an exaflop per second (the slowest: 1 flop/s).
inline constexpr double kMaxFlopsPerSecond = 1e18;

struct SimgridTiOptions {
  /// Write compute actions (false: communication only).
  bool compute = true;
  /// The speed of the SimGrid hosts the trace is replayed on; compute actions are in flops.
  double flops_per_second = 1e9;
  /// The collectives' algorithms (the replay's choice; MPICH's by default).
  CollectiveOptions collectives;
  /// Write each collective as one `coll` line and communicators.txt (see above), not as its
  /// point-to-point schedule.
  bool native_collectives = false;
};

struct SimgridTiStats {
  std::uint64_t actions = 0;
  std::uint64_t messages = 0;  ///< point-to-point and collective-schedule messages (not `coll`)
  std::uint64_t dropped_cancelled = 0;
};

/// Writes `trace` into `dir` (created if missing; existing rank files are replaced), all or
/// nothing: the files are written beside `dir` and moved into it when complete. Throws
/// InputError if the trace cannot be replayed (a receive that no send matches, a collective some
/// member never reaches) or a file cannot be written, naming it, and if the host speed is out of
/// [1, kMaxFlopsPerSecond].
SimgridTiStats write_simgrid_ti(const Trace& trace, const std::filesystem::path& dir,
                                const SimgridTiOptions& options = {});

}  // namespace mapsim::traces
