#pragma once
// libmapsim-record: what an MPI program sends, counted inside the program through the MPI
// profiling interface (PMPI) and written at MPI_Finalize as one file mapsim reads
// (docs/record.md, traces/RecordedMatrix.hpp).
//
// Per rank it keeps:
// - point to point: per destination world rank, the messages and bytes sent (count x type size),
//   in a hash map with the last destination remembered (programs send to a few peers over and
//   over);
// - collectives: per communicator, the calls in order as runs of equal calls (operation, root as a
//   world rank, bytes sent and received under Score-P's accounting, docs/record.md), so a loop of
//   10^6 equal Allreduces is one run;
// - communicators: the world ranks of each one's members, cached by handle on first use and
//   dropped at MPI_Comm_free (the calls made on it are kept).
// Per-call work is O(1) amortised (a hash lookup by handle, one by peer), except the v- and
// w-collectives, which sum their P counts as the call itself reads them.
//
// A communicator is identified across ranks by its members and its ordinal among the
// communicators with the same members, in the order of their first collective call: MPI orders
// blocking collectives on communicators that share members the same way on every member, so the
// ordinal agrees. (Programs that start non-blocking collectives on two communicators with the same
// members in different orders on different ranks are the exception, documented.)

#include <cstdint>
#include <map>
#include <memory>
#include <mpi.h>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mapsim::record {

/// The collective operations recorded, named in the file as mapsim's traces::name(CollectiveOp).
enum class Op : std::int32_t {
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
  CreateHandle,
};

const char* name(Op op);

struct PeerTraffic {
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
};

/// Equal consecutive collective calls of one rank on one communicator.
struct Run {
  Op op = Op::Barrier;
  std::int32_t root = -1;  // world rank
  std::int64_t sent = 0;
  std::int64_t received = 0;
  std::int64_t times = 0;
};

struct CommState {
  std::vector<std::int32_t> members;  // world ranks by communicator rank
  std::vector<std::int32_t> remote;   // intercommunicators: the remote group's world ranks
  std::int32_t me = 0;                // this rank's rank in the communicator
  bool inter = false;
  std::int32_t ordinal = -1;  // among communicators with these members; set at the first call
  std::vector<Run> runs;
};

class Recorder {
 public:
  static Recorder& instance();

  /// After PMPI_Init: learns the world and starts recording.
  void start(int thread_level);
  /// Before PMPI_Finalize: gathers everything to rank 0, which writes the file; stops recording.
  void finish();
  [[nodiscard]] bool active() const { return active_; }

  /// A message of `count` elements of `type` to `dest` (a rank of `comm`).
  void send(MPI_Comm comm, int dest, int count, MPI_Datatype type);
  /// A collective call; `root` a rank of `comm` or -1. Ignored on intercommunicators.
  void collective(MPI_Comm comm, Op op, int root, std::int64_t sent, std::int64_t received) {
    collective(this->comm(comm), op, root, sent, received);
  }
  /// The same on a communicator already looked up.
  void collective(CommState& state, Op op, int root, std::int64_t sent, std::int64_t received);
  /// The cached state of `comm` (members, my rank): looked up or built.
  CommState& comm(MPI_Comm comm);
  void forget(MPI_Comm comm);

  /// Persistent sends: remembered at MPI_*send_init, counted at every MPI_Start.
  void persistent(MPI_Request request, MPI_Comm comm, int dest, int count, MPI_Datatype type);
  void started(MPI_Request request);
  void freed(MPI_Request request);

  /// The lock every entry point holds: a real mutex only under MPI_THREAD_MULTIPLE.
  [[nodiscard]] std::unique_lock<std::mutex> lock() {
    return multithreaded_ ? std::unique_lock<std::mutex>(mutex_) : std::unique_lock<std::mutex>();
  }

 private:
  Recorder() = default;
  void add(std::int32_t dest_world, std::int64_t bytes, std::int64_t times);
  [[nodiscard]] std::vector<std::int64_t> serialise() const;
  void write(MPI_Comm gather) const;

  bool active_ = false;
  bool multithreaded_ = false;
  std::mutex mutex_;
  std::int32_t world_rank_ = 0;
  std::int32_t world_size_ = 0;

  std::unordered_map<std::int32_t, PeerTraffic> peers_;
  std::int32_t last_peer_ = -1;
  PeerTraffic* last_traffic_ = nullptr;

  // Every communicator seen, in order of first use; freed ones stay for their calls.
  std::vector<std::unique_ptr<CommState>> comms_;
  std::unordered_map<MPI_Comm, CommState*> by_handle_;
  std::map<std::vector<std::int32_t>, std::int32_t> ordinals_;  // members -> communicators so far

  struct Persistent {
    std::int32_t dest = -1;  // world rank, -1 for MPI_PROC_NULL
    std::int64_t bytes = 0;
  };
  std::unordered_map<MPI_Request, Persistent> persistent_;
};

}  // namespace mapsim::record
