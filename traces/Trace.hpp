#pragma once
// The trace model: what an MPI application did, per rank, in the order it did it — compact enough
// to hold millions of events, complete enough to replay them.
//
// Each rank has a stream of Events, one per MPI operation that communicates or completes a
// request. `gap` is the computation before the operation: the time the rank spent outside MPI
// since the previous MPI call returned (time inside MPI calls that replay nothing, such as
// MPI_Comm_rank or a failed MPI_Test, is not computation and is not counted).
//
// Semantics, shared by the reader, the generators and the simulator:
// - Send / Recv: blocking point-to-point; `peer` is the other side's MPI_COMM_WORLD rank, `tag`
//   and `comm` the matching key, `bytes` the payload (for Recv: the bytes delivered).
// - Isend / Irecv: non-blocking; `request` is unique within the rank's stream (readers renumber
//   the ids MPI reuses). An Irecv sits where it was posted and carries the source, tag and size
//   of the message that completed it.
// - Wait: the rank blocks until `request` has completed. Waitall / Waitsome / a successful
//   MPI_Test become one Wait per completed request, in the order the trace completed them.
// - Cancel: `request` was cancelled and never completes.
// - Collective / ICollective: `op` on `comm`, `root` a world rank (or -1), `bytes` sent and
//   `received` by this rank as the tracer recorded them. ICollective starts a non-blocking
//   collective identified by `request`, completed by a later Wait.
// Timestamps are integer picoseconds since the trace's global start.

#include <cstdint>
#include <string>
#include <vector>

#include "support/Ids.hpp"

namespace mapsim::traces {

enum class EventKind : std::uint8_t {
  Send,
  Isend,
  Recv,
  Irecv,
  Wait,
  Cancel,
  Collective,
  ICollective
};

/// MPI collective operations (the set OTF2 records).
enum class CollectiveOp : std::uint8_t {
  None,
  Barrier,
  Bcast,
  Gather,
  Gatherv,
  Scatter,
  Scatterv,
  Allgather,
  Allgatherv,
  Alltoall,
  Alltoallv,
  Alltoallw,
  Allreduce,
  Reduce,
  ReduceScatter,
  ReduceScatterBlock,
  Scan,
  Exscan,
  CreateHandle,   ///< communicator creation (MPI_Comm_split, _dup, ...) recorded as a collective
  DestroyHandle,  ///< MPI_Comm_free
  Other,          ///< window allocation and other handle operations
};

std::string_view name(EventKind kind);
std::string_view name(CollectiveOp op);

/// One MPI operation of one rank. 40 bytes.
struct Event {
  std::int64_t gap = 0;       ///< ps of computation before this operation
  std::int64_t bytes = 0;     ///< point-to-point payload; collective: bytes this rank sent
  std::int64_t received = 0;  ///< collective: bytes this rank received
  Rank peer = -1;             ///< point-to-point: the other world rank; collective: root or -1
  std::int32_t tag = 0;       ///< point-to-point tag
  std::uint32_t request = 0;  ///< Isend, Irecv, ICollective, Wait, Cancel: the request
  std::uint16_t comm = 0;     ///< index into Trace::communicators
  EventKind kind = EventKind::Send;
  CollectiveOp op = CollectiveOp::None;

  friend bool operator==(const Event&, const Event&) = default;
};
static_assert(sizeof(Event) == 40, "keep the event compact: it is stored once per MPI operation");

struct Communicator {
  std::string name;  ///< e.g. "MPI_COMM_WORLD", "MPI_COMM_WORLD:split" as the tracer named it
  std::vector<Rank> members;  ///< world ranks, indexed by rank within the communicator

  friend bool operator==(const Communicator&, const Communicator&) = default;
};

struct RankStream {
  std::vector<Event> events;
  std::int64_t final_gap = 0;  ///< ps of computation after the last event, to the rank's end

  friend bool operator==(const RankStream&, const RankStream&) = default;
};

struct Trace {
  std::vector<RankStream> ranks;            ///< indexed by world rank
  std::vector<Communicator> communicators;  ///< Event::comm indexes this
  std::uint16_t world = 0;                  ///< index of MPI_COMM_WORLD in communicators
  std::string source;                       ///< where it came from (path, or generator and options)

  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(ranks.size()); }
  [[nodiscard]] std::size_t event_count() const;

  friend bool operator==(const Trace&, const Trace&) = default;
};

}  // namespace mapsim::traces
