#pragma once
// One-way times from an OTF2 trace of a ping-pong between two ranks, as Score-P records
// osu_latency or IMB PingPong: the same series the benchmark would print, measured from the
// trace's own timestamps.
//
// Method:
// 1. The archive is read once through the trace reader (traces/TraceReader.hpp), which checks it
//    (missing, unreadable, truncated files are its errors) and tells which ranks exchange
//    point-to-point messages. Exactly one pair of ranks must; other ranks may exist and stay
//    idle or take part in collectives only (a barrier between sizes, MPI_Init, ...).
// 2. The two ranks' event records are read again with their timestamps (the trace model keeps
//    the computation between MPI calls, not the time inside them, which is most of a round
//    trip), through libotf2 on the reader's archive and definitions (traces/Otf2Archive.hpp,
//    Otf2Definitions.hpp). Per rank, in record order: a send (MpiSend, MpiIsend) starts when its
//    MPI call is entered (the Enter of MPI_Send or MPI_Isend); a receive (MpiRecv, MpiIrecv)
//    completes when its MPI call is left (the Leave of MPI_Recv, or of the MPI_Wait/Waitall in
//    which the Irecv completed). Collectives and other records are not looked at.
// 3. The initiator A is the rank whose first point-to-point operation is a send; the other, B,
//    must start with a receive. A's operations must alternate send n, receive n (each ping
//    answered by a reply of its size), B's receive n, send n. Round trip i takes from A's i-th
//    send start to A's i-th receive completion (A's clock only: no clock skew between ranks);
//    its one-way time is half of it:
//
//      t_i = (leave(receive_i) - enter(send_i)) / 2
//
// 4. The round trips are grouped by message size; a size's one-way time is the median of its
//    t_i over every repetition (the mean of the middle two for an even count). No repetition is
//    dropped: the warm-up iterations osu_latency runs before its timed ones (100 before 10000
//    for small sizes, 10 before 1000 for large ones) are traced too but are a minority at each
//    size, and the median ignores them and any other outlier (a preempted repetition) as long as
//    fewer than half are slow. Sizes ascend.
//
// Errors (InputError naming the anchor file): those of the reader; no point-to-point messages at
// all; messages between more than one pair of ranks (the pairs named); a rank exchanging
// messages with itself; operations that do not alternate (a rank sending twice without a reply,
// both ranks sending first, a ping without a reply at the end); a reply of another size than its
// ping.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "calibrate/BenchmarkOutput.hpp"
#include "support/Ids.hpp"

namespace mapsim::calib {

/// A ping-pong found in a trace.
struct PingPong {
  Series series;        ///< "OTF2 ping-pong", one-way times; source: the path as given
  Rank initiator = -1;  ///< A: sends the pings
  Rank responder = -1;  ///< B: sends the replies
  std::size_t round_trips = 0;
  std::vector<std::size_t> repetitions;  ///< round trips per point of the series
};

/// Whether `path` names an OTF2 trace for `mapsim calibrate`: a directory holding traces.otf2,
/// or a file (existing or not) whose name ends in .otf2.
bool is_otf2_trace(const std::filesystem::path& path);

/// The ping-pong in the OTF2 archive at `path` (anchor file or its directory); see above.
PingPong read_ping_pong(const std::filesystem::path& path);

/// Its series alone, as read_benchmark_file gives a benchmark's.
Series read_ping_pong_trace(const std::filesystem::path& path);

}  // namespace mapsim::calib
