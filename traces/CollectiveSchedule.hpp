#pragma once
// Point-to-point schedules of MPI collectives: how the simulator replays a collective and how a
// communication matrix "with collectives" counts its traffic. Both use these, so they agree.
//
// Every member of a communicator of P members runs a sequence of steps. A step sends send_bytes
// to member send_to and/or receives one message from member recv_from (communicator ranks, -1 for
// none) and ends when both are done (MPI_Sendrecv semantics), or at once if it overlaps (then the
// next step without overlap, or the schedule's end, waits for it); a message's size is its
// sender's.
// Which algorithm runs is chosen by CollectiveOptions (CollectiveAlgorithm.hpp): MPICH's choices
// below by default, Open MPI 4.1's rules (OmpiRules.hpp) with `ompi`, or per-operation overrides;
// the other algorithms' patterns are in CollectivePhase.hpp and docs/models.md.
// MPICH's algorithms (r is a member's rank relative to the root):
//   Barrier, CreateHandle  dissemination: ceil(log2 P) steps, i -> i + 2^k, from i - 2^k, 0 bytes
//   Bcast                  binomial tree: receive from r - lowbit(r), then send to r + 2^j, j down
//   Reduce                 binomial tree: receive from r + 2^j (j up) while bit j of r is 0, then
//                          send to r - lowbit(r)
//   Gather(v), Scatter(v)  binomial trees as Reduce / Bcast, each message carrying its subtree's
//                          data
//   Allreduce              recursive doubling (exchange with i xor 2^k; the first 2 (P - 2^m)
//                          members fold into pairs when P is not a power of two), or ring
//                          (reduce-scatter then allgather, 2 (P - 1) steps of b / P to i + 1)
//   Allgather(v)           recursive doubling when P is a power of two (round k sends the 2^k
//                          blocks gathered so far), else ring (P - 1 steps of one block to i + 1)
//   Alltoall(v,w)          pairwise exchange: step s = 1 .. P-1 sends to i + s, receives from i - s
//   Reduce_scatter(_block) ring reduce-scatter: P - 1 steps of total / P to i + 1
//   Scan, Exscan           recursive doubling: exchange with i xor 2^k while that member exists
//   DestroyHandle, Other   nothing (local)
//
// Payloads come from what each member recorded, under Score-P's accounting (P = size, b = payload;
// checked against Score-P's scorep_mpi_coll byte counting and docs/workloads.md sec. 1):
//   Bcast: root sent P b, everyone received b      -> b = the root's received
//   Reduce, Gather(v): each sent its own b_i       -> b_i = sent_i
//   Scatter(v): each received its own b_i          -> b_i = received_i
//   Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter_block: sent P b_i -> b_i = sent_i / P
//   Reduce_scatter: sent = the whole vector        -> block = sent_i / P
//   Scan: received (me + 1) b                      -> b = received_i / (me + 1); Exscan: me b
// v-variants record only totals, so a member's total is spread evenly over its peers. MPI_IN_PLACE
// calls record slightly less ((P - 1) b); the schedule does not try to tell them apart.

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "traces/CollectiveAlgorithm.hpp"
#include "traces/CollectivePhase.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// What one member recorded for one collective (Event::bytes and Event::received).
struct CollectiveRecord {
  std::int64_t sent = 0;
  std::int64_t received = 0;
};

/// Whether `op` has a root (bcast, reduce, gather(v), scatter(v)).
bool rooted(CollectiveOp op);

/// Each member's payload in bytes (indexed by communicator rank) of a collective whose members
/// recorded `records`, as the schedules derive it (the table above); zeros for barriers and
/// local operations. `root`: the communicator rank of a rooted operation's root (checked).
std::vector<std::int64_t> collective_payload(CollectiveOp op, std::int32_t root,
                                             std::span<const CollectiveRecord> records);

struct CollectiveStep {
  std::int32_t send_to = -1;    ///< communicator rank, -1 if the step sends nothing
  std::int32_t recv_from = -1;  ///< communicator rank, -1 if the step receives nothing
  std::int64_t send_bytes = 0;
  /// The member posts its next step at once, without waiting for this one's messages (Open
  /// MPI's linear all-to-all posts every receive and send, then waits for all). A step without
  /// it, and the end of the schedule, wait for every message still pending.
  bool overlap = false;

  friend bool operator==(const CollectiveStep&, const CollectiveStep&) = default;
};

class CollectiveSchedule {
 public:
  /// `records` indexed by communicator rank; `root` a communicator rank, or -1 for rootless ops.
  /// Throws InputError for a root outside the communicator of a rooted operation.
  CollectiveSchedule(CollectiveOp op, std::int32_t root, std::vector<CollectiveRecord> records,
                     const CollectiveOptions& options = {});

  [[nodiscard]] std::int32_t size() const { return size_; }
  [[nodiscard]] CollectiveOp op() const { return op_; }
  /// e.g. "binomial tree", "ring", "pairwise exchange", "linear reduce + linear bcast".
  [[nodiscard]] std::string_view algorithm() const;
  /// The algorithm the options chose (CollectiveAlgorithm::Default for scan and local operations).
  [[nodiscard]] CollectiveAlgorithm chosen() const { return chosen_; }

  /// Steps of `member`, computed on demand in O(log P) or O(1): a schedule holds O(P) memory even
  /// for an all-to-all of P (P - 1) messages.
  [[nodiscard]] std::int32_t step_count(std::int32_t member) const;
  [[nodiscard]] CollectiveStep step(std::int32_t member, std::int32_t k) const;

 private:
  void add_phase(Pattern pattern, std::int32_t root, std::vector<std::int64_t> payload);
  void build(CollectiveFamily family, CollectiveAlgorithm algorithm,
             const std::vector<std::int64_t>& payload);
  /// Open MPI's ring allreduce of b bytes per member as SMPI runs it (allreduce__lr, which its
  /// `ompi` selector calls for the ring and, below a segment per member, the segmented ring):
  /// below a byte per member (b < P) a reduce then a bcast from member 0, each by Open MPI's
  /// rules; else the ring on blocks of floor(b / P) bytes (its own block copied locally, free),
  /// then the remaining b mod P bytes allreduced again by Open MPI's rules.
  void build_smpi_ring(std::int64_t b);
  /// A reduce of b bytes to member 0, then a bcast of them from it, each by Open MPI's rules:
  /// Open MPI's (and SMPI's) allreduce `nonoverlapping`, SMPI's allreduce `basic_linear`.
  void build_reduce_bcast(std::int64_t b);

  CollectiveOp op_;
  CollectiveAlgorithm chosen_ = CollectiveAlgorithm::Default;  ///< Default for scan and local ops
  bool ompi_ = false;          // Open MPI's rules: their ring allreduce is SMPI's (build_smpi_ring)
  bool smpi_ring_ = false;     // built by build_smpi_ring
  bool reduce_bcast_ = false;  // built by build_reduce_bcast
  std::int32_t root_ = 0;
  std::int32_t size_ = 0;
  std::vector<CollectivePhase> phases_;  // run one after the other; O(P) memory each
};

}  // namespace mapsim::traces
