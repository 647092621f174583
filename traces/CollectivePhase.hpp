#pragma once
// One phase of a collective's point-to-point schedule (CollectiveSchedule.hpp): a communication
// pattern over the P members with per-member payloads. A schedule is one phase, or two run one
// after the other (e.g. a reduce then a bcast). Steps are computed on demand in O(log P) or O(1).
//
// Patterns (r = rank relative to the root, i = communicator rank, b_i = payload of member i):
//   Dissemination          ceil(log2 P) steps: send to i + 2^k, receive from i - 2^k, 0 bytes
//   Binomial{Bcast,...}    MPICH's binomial trees (CollectiveSchedule.hpp)
//   Linear{Bcast,Scatter}  the root sends to r = 1 .. P-1 in turn; the others receive once
//   LinearReduce           every other member sends b_i to the root, which receives in turn
//   Chain{Bcast,Reduce}    r receives from r - 1 then sends to r + 1 (reduce: the reverse)
//   Binary{Bcast,Reduce}   heap-shaped binary tree: parent (r - 1) / 2, children 2r + 1, 2r + 2
//   OmpiTreeReduce         Open MPI's binary tree (ompi_coll_base_topo_build_tree, fan-out 2),
//                          upwards: r at level L (r < 2^(L+1) - 1) has children r + 2^L and
//                          r + 2^(L+1); each member receives from its children, then sends b_i to
//                          its parent
//   KnomialBcast           radix-4 tree: r's parent clears r's lowest non-zero base-4 digit;
//                          children r + j 4^d for digits d below that one, largest first
//   RecursiveDoubling*,    MPICH's (CollectiveSchedule.hpp); the allreduce's fold also serves
//   Ring*, Pairwise...     the recursive doubling barrier (0 bytes)
//   Rabenseifner           the allreduce's fold, then on the 2^m core: reduce-scatter by recursive
//                          halving (round j with newrank xor 2^j, b / 2^(j+1)), allgather by
//                          recursive doubling (round j with xor 2^(m-1-j), b / 2^(m-j))
//   HighFoldBarrier        Open MPI's recursive doubling barrier (0 bytes): with 2^m the largest
//                          power of two <= P, member i >= 2^m exchanges with i - 2^m (send, then
//                          wait for the release); member i < P - 2^m first receives from
//                          i + 2^m, and after the core sends it the release; the core members
//                          0 .. 2^m - 1 exchange with i xor 2^k
//   RecursiveHalving       reduce-scatter: the same fold and halving rounds, then the folded
//                          member receives its block (b / P) back
//   BruckAllgather         ceil(log2 P) steps: send to i - 2^k, receive from i + 2^k, the
//                          min(2^k, P - 2^k) blocks gathered so far
//   NeighborExchange       P / 2 steps (P even): pairs (2j, 2j+1) swap blocks, then alternate
//                          neighbours forward the two blocks they received last
//   LinearAlltoall         P - 1 overlapping steps: send to i - s, receive from i + s (Open MPI's
//                          order: every message posted at once, then all waited for)
//   BruckAlltoall          ceil(log2 P) steps: send to i + 2^k, receive from i - 2^k, the blocks
//                          whose index has bit k set (b_i each)

#include <cstdint>
#include <vector>

namespace mapsim::traces {

struct CollectiveStep;

enum class Pattern : std::uint8_t {
  None,
  Dissemination,
  BinomialBcast,
  BinomialScatter,
  BinomialReduce,
  BinomialGather,
  LinearBcast,
  LinearScatter,
  LinearReduce,
  ChainBcast,
  ChainReduce,
  BinaryBcast,
  BinaryReduce,
  OmpiTreeReduce,
  KnomialBcast,
  RecursiveDoublingAllreduce,
  HighFoldBarrier,
  Rabenseifner,
  RingAllreduce,
  RecursiveDoublingAllgather,
  RingAllgather,
  BruckAllgather,
  NeighborExchange,
  PairwiseExchange,
  LinearAlltoall,
  BruckAlltoall,
  RingReduceScatter,
  RecursiveHalving,
  RecursiveDoublingScan,
};

class CollectivePhase {
 public:
  /// `payload` indexed by communicator rank; `root` 0 for rootless patterns.
  CollectivePhase(Pattern pattern, std::int32_t root, std::vector<std::int64_t> payload);

  [[nodiscard]] Pattern pattern() const { return pattern_; }
  [[nodiscard]] std::int32_t step_count(std::int32_t member) const;
  [[nodiscard]] CollectiveStep step(std::int32_t member, std::int32_t k) const;

 private:
  [[nodiscard]] std::int32_t size() const { return static_cast<std::int32_t>(payload_.size()); }
  [[nodiscard]] std::int32_t relative(std::int32_t member) const;
  [[nodiscard]] std::int32_t absolute(std::int32_t relative_rank) const;
  [[nodiscard]] std::int64_t subtree_bytes(std::int32_t relative_rank) const;
  [[nodiscard]] std::int64_t ring_block(std::int32_t owner, std::int32_t block) const;
  /// Sum of payloads of members first, first + 1, ... (count of them, wrapping around).
  [[nodiscard]] std::int64_t run_bytes(std::int32_t first, std::int32_t count) const;
  [[nodiscard]] CollectiveStep folded_step(std::int32_t member, std::int32_t k) const;

  Pattern pattern_;
  std::int32_t root_ = 0;
  std::vector<std::int64_t> payload_;
  std::vector<std::int64_t> prefix_;  // prefix sums of payload_ by relative rank
};

}  // namespace mapsim::traces
