#pragma once
// The MPI calls of a synthetic program, fed one rank at a time to a sink: the OTF2 archive writer
// (Otf2Writer) or the in-memory TraceBuilder. Both receive the same calls, so an archive written
// by one reads back as the Trace the other builds.
//
// Protocol: begin_trace(ranks, communicators); then for every rank 0, 1, ..., N-1 in order:
// begin_rank(r), the rank's calls, end_rank(); then end_trace(). Sinks that generate ranks in
// parallel or interleaved (one sink per rank, e.g. the matrix builder and the streamed replay)
// share one CommTable and begin with RankOrder::Any: any ranks, each at most once, in any order.
// Peers and roots are MPI_COMM_WORLD ranks; `comm` indexes the communicator table, whose entry 0 is
// MPI_COMM_WORLD. compute(ns) is time the rank spends outside MPI before its next call. Requests
// are numbered per rank 0, 1, 2, ... in posting order and never reused; every request must be
// completed by a wait/waitall before end_rank(). Misuse (a peer outside the communicator, an
// unknown request, a rank out of order) is a bug in the generator and throws InternalError.
//
// Semantics follow Score-P 8.4 (see docs/workloads.md §1): init() is MPI_Init, a CREATE_HANDLE
// collective on WORLD; finalize() a DESTROY_HANDLE on WORLD; comm_split / comm_dup a
// CREATE_HANDLE on the parent communicator; collective sizes are what Score-P records as sent and
// received by this rank (the caller computes them).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "support/Ids.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

using CommId = std::uint16_t;
using RequestId = std::uint32_t;
inline constexpr CommId kWorld = 0;

/// A communicator of the program: MPI_COMM_WORLD (entry 0) or one created by comm_split/dup.
struct CommSpec {
  std::string name;           ///< "MPI_COMM_WORLD", or the program's name for it ("comm_solve")
  std::vector<Rank> members;  ///< world ranks, indexed by rank within the communicator
  std::int32_t parent = -1;   ///< the communicator it was created from; -1 for WORLD

  friend bool operator==(const CommSpec&, const CommSpec&) = default;
};

/// The MPI functions a sink sees (collectives are named by their CollectiveOp).
enum class MpiFunction : std::uint8_t { Init, Finalize, CommSplit, CommDup, Wait, Waitall };

/// A request completed by wait/waitall, with what the sink needs to record its completion.
struct Completion {
  RequestId request = 0;
  bool receive = false;  ///< Irecv (else Isend)
  Rank peer = -1;        ///< world rank
  std::int32_t tag = 0;
  std::int64_t bytes = 0;
  CommId comm = kWorld;
};

/// The communicators of a program with the index sinks look ranks up in; built once, shared by
/// every sink of the program.
struct CommTable {
  Rank ranks = 0;
  std::vector<CommSpec> comms;
  std::vector<std::vector<std::pair<Rank, Rank>>> by_world;  ///< [comm]: (world, local), sorted

  /// The rank of world rank `world` within `comm`, or -1 if it is not a member. O(log size).
  [[nodiscard]] Rank local_rank(CommId comm, Rank world) const;
};

/// Checks the communicators (entry 0 WORLD with every rank in order, parents defined first,
/// members in range and distinct; InternalError otherwise) and indexes them.
std::shared_ptr<const CommTable> make_comm_table(Rank ranks, std::vector<CommSpec> communicators);

/// Which ranks a sink receives: all of them in order 0, 1, ..., N-1, or any of them (each at most
/// once) in any order.
enum class RankOrder : std::uint8_t { All, Any };

class MpiCallSink {
 public:
  virtual ~MpiCallSink() = default;
  MpiCallSink(const MpiCallSink&) = delete;
  MpiCallSink& operator=(const MpiCallSink&) = delete;

  void begin_trace(Rank ranks, std::vector<CommSpec> communicators);
  void begin_trace(std::shared_ptr<const CommTable> table, RankOrder order = RankOrder::All);
  void begin_rank(Rank rank);
  void end_rank();
  void end_trace();

  void compute(std::int64_t ns);
  void init();
  void finalize();
  void comm_split(CommId parent, CommId created);
  void comm_dup(CommId parent, CommId created);
  void send(Rank to, std::int32_t tag, std::int64_t bytes, CommId comm);
  void recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm);
  RequestId isend(Rank to, std::int32_t tag, std::int64_t bytes, CommId comm);
  /// `bytes` is the size of the message that will complete the receive (not the posted buffer).
  RequestId irecv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm);
  void wait(RequestId request);
  /// Completes the requests in the order given, as MPI_Waitall reports them.
  void waitall(std::span<const RequestId> requests);
  /// `root` is a world rank, or -1 for collectives without one.
  void collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                  std::int64_t received);

  [[nodiscard]] Rank rank_count() const { return table_->ranks; }
  [[nodiscard]] const std::vector<CommSpec>& communicators() const { return table_->comms; }
  /// The rank between begin_rank and end_rank.
  [[nodiscard]] Rank current_rank() const { return rank_; }
  /// The rank of world rank `world` within `comm`, or -1 if it is not a member. O(log size).
  [[nodiscard]] Rank local_rank(CommId comm, Rank world) const;

 protected:
  MpiCallSink() = default;
  MpiCallSink(MpiCallSink&&) noexcept = default;
  MpiCallSink& operator=(MpiCallSink&&) noexcept = default;

  virtual void on_begin_trace() = 0;
  virtual void on_begin_rank() = 0;
  virtual void on_end_rank() = 0;
  virtual void on_end_trace() = 0;
  virtual void on_compute(std::int64_t ns) = 0;
  /// Init, Finalize, CommSplit, CommDup: the handle collective on `comm` creating `created`
  /// (WORLD for Init; unused for Finalize).
  virtual void on_handle(MpiFunction function, CommId comm, CommId created) = 0;
  virtual void on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes, CommId comm,
                       RequestId request) = 0;
  virtual void on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) = 0;
  virtual void on_irecv(const Completion& posted) = 0;
  /// MPI_Wait (one completion) or MPI_Waitall.
  virtual void on_wait(MpiFunction function, std::span<const Completion> completed) = 0;
  virtual void on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                             std::int64_t received) = 0;

 private:
  void check_in_rank(const char* call) const;
  void check_peer(Rank peer, CommId comm) const;
  RequestId post(bool receive, Rank peer, std::int32_t tag, std::int64_t bytes, CommId comm);
  void complete(MpiFunction function, std::span<const RequestId> requests);

  std::shared_ptr<const CommTable> table_;
  RankOrder order_ = RankOrder::All;
  std::vector<bool> begun_;  // RankOrder::Any: the ranks begun so far
  Rank rank_ = -1;
  Rank next_rank_ = 0;
  bool in_trace_ = false;
  RequestId next_request_ = 0;
  std::vector<Completion> pending_;  // posted, not yet completed (a handful at a time)
  std::vector<Completion> completed_;
};

}  // namespace mapsim::traces
