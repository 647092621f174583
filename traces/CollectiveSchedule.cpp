#include "traces/CollectiveSchedule.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "traces/OmpiRules.hpp"

namespace mapsim::traces {
namespace {

using A = CollectiveAlgorithm;

std::int64_t divide_rounded(std::int64_t value, std::int64_t by) {
  return by <= 0 ? 0 : (value + by / 2) / by;
}

bool power_of_two(std::int32_t p) {
  return std::has_single_bit(static_cast<std::uint32_t>(p));
}

std::int64_t largest(const std::vector<std::int64_t>& payload) {
  return *std::max_element(payload.begin(), payload.end());
}

std::int64_t total(const std::vector<std::int64_t>& payload) {
  return std::accumulate(payload.begin(), payload.end(), std::int64_t{0});
}

/// MPICH's choice (what mapsim always replayed).
CollectiveAlgorithm mpich_algorithm(CollectiveFamily family, std::int32_t p,
                                    const std::vector<std::int64_t>& payload,
                                    const CollectiveOptions& options) {
  switch (family) {
    case CollectiveFamily::Barrier:
      return A::Bruck;
    case CollectiveFamily::Bcast:
    case CollectiveFamily::Reduce:
    case CollectiveFamily::Gather:
    case CollectiveFamily::Scatter:
      return A::Binomial;
    case CollectiveFamily::Allreduce:
      return p > 1 && largest(payload) >= options.allreduce_ring_from ? A::Ring
                                                                      : A::RecursiveDoubling;
    case CollectiveFamily::Allgather:
    case CollectiveFamily::Allgatherv:
      return power_of_two(p) && total(payload) < options.allgather_ring_from ? A::RecursiveDoubling
                                                                             : A::Ring;
    case CollectiveFamily::Alltoall:
    case CollectiveFamily::Alltoallv:
      return A::Pairwise;
    case CollectiveFamily::ReduceScatter:
      return A::Ring;
  }
  return A::Default;
}

/// The message size Open MPI's rules look at (OmpiRules.hpp), from the per-member payloads.
std::int64_t rule_bytes(CollectiveFamily family, std::int32_t p,
                        const std::vector<std::int64_t>& payload) {
  if (family == CollectiveFamily::Allgatherv) return total(payload) / p;
  return largest(payload);
}

/// `bytes` split into p blocks, the first bytes % p one byte larger.
std::vector<std::int64_t> blocks_of(std::int64_t bytes, std::int32_t p) {
  std::vector<std::int64_t> blocks(static_cast<std::size_t>(p), bytes / p);
  for (std::int64_t i = 0; i < bytes % p; ++i) ++blocks[static_cast<std::size_t>(i)];
  return blocks;
}

}  // namespace

bool rooted(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::Bcast:
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
      return true;
    default:
      return false;
  }
}

std::vector<std::int64_t> collective_payload(CollectiveOp op, std::int32_t root,
                                             std::span<const CollectiveRecord> records) {
  const auto p = static_cast<std::int32_t>(records.size());
  MAPSIM_EXPECTS(p >= 1, "a collective has at least one member");
  MAPSIM_EXPECTS(!rooted(op) || (root >= 0 && root < p), "a rooted collective's root is a member");
  std::vector<std::int64_t> payload(records.size(), 0);
  auto per_member = [&](auto bytes_of) {
    for (std::int32_t i = 0; i < p; ++i) payload[static_cast<std::size_t>(i)] = bytes_of(i);
  };
  auto at = [&](std::int32_t i) -> const CollectiveRecord& {
    return records[static_cast<std::size_t>(i)];
  };
  switch (op) {
    case CollectiveOp::Bcast: {
      std::int64_t b = at(root).received;
      if (b == 0) {
        for (const auto& r : records) b = std::max(b, r.received);
      }
      per_member([&](std::int32_t) { return b; });
      break;
    }
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:  // the whole vector
      per_member([&](std::int32_t i) { return at(i).sent; });
      break;
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
      per_member([&](std::int32_t i) { return at(i).received; });
      break;
    case CollectiveOp::Allreduce:
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
      per_member([&](std::int32_t i) { return divide_rounded(at(i).sent, p); });
      break;
    case CollectiveOp::Scan:
      per_member([&](std::int32_t i) { return divide_rounded(at(i).received, i + 1); });
      break;
    case CollectiveOp::Exscan:
      per_member([&](std::int32_t i) {
        return i > 0 ? divide_rounded(at(i).received, i) : divide_rounded(at(i).sent, p - 1);
      });
      break;
    case CollectiveOp::None:
    case CollectiveOp::Barrier:
    case CollectiveOp::CreateHandle:
    case CollectiveOp::DestroyHandle:
    case CollectiveOp::Other:
      break;
  }
  return payload;
}

CollectiveSchedule::CollectiveSchedule(CollectiveOp op, std::int32_t root,
                                       std::vector<CollectiveRecord> records,
                                       const CollectiveOptions& options)
    : op_(op), size_(static_cast<std::int32_t>(records.size())) {
  const std::int32_t p = size_;
  MAPSIM_EXPECTS(p >= 1, "a collective has at least one member");
  if (rooted(op)) {
    if (root < 0 || root >= p) {
      throw InputError(
          fmt::format("{} on a communicator of {} members has root {}", name(op), p, root));
    }
    root_ = root;
  }
  std::vector<std::int64_t> payload = collective_payload(op, root_, records);
  if (op == CollectiveOp::Scan || op == CollectiveOp::Exscan) {
    add_phase(Pattern::RecursiveDoublingScan, 0, std::move(payload));
    return;
  }
  if (op == CollectiveOp::None || op == CollectiveOp::DestroyHandle || op == CollectiveOp::Other) {
    add_phase(Pattern::None, 0, std::move(payload));
    return;
  }

  CollectiveFamily family{};
  const bool chooses = family_of(op, family);
  MAPSIM_EXPECTS(chooses, "every communicating collective has a family");
  CollectiveAlgorithm algorithm = options.overrides[static_cast<std::size_t>(family)];
  if (algorithm == A::Default) {
    algorithm = options.selector == CollectiveSelector::Ompi
                    ? ompi_algorithm(family, p, rule_bytes(family, p, payload))
                    : mpich_algorithm(family, p, payload, options);
  }
  chosen_ = algorithm;
  ompi_ = options.selector == CollectiveSelector::Ompi;
  build(family, algorithm, payload);
}

void CollectiveSchedule::add_phase(Pattern pattern, std::int32_t root,
                                   std::vector<std::int64_t> payload) {
  phases_.emplace_back(pattern, root, std::move(payload));
}

void CollectiveSchedule::build_reduce_bcast(std::int64_t b) {
  reduce_bcast_ = true;
  const std::int32_t p = size_;
  const std::vector<std::int64_t> whole(static_cast<std::size_t>(p), b);
  build(CollectiveFamily::Reduce, ompi_algorithm(CollectiveFamily::Reduce, p, b), whole);
  build(CollectiveFamily::Bcast, ompi_algorithm(CollectiveFamily::Bcast, p, b), whole);
}

void CollectiveSchedule::build_smpi_ring(std::int64_t b) {
  smpi_ring_ = true;
  const std::int32_t p = size_;
  const auto members = static_cast<std::size_t>(p);
  if (b < p) return build_reduce_bcast(b);  // under a byte per member
  const std::int64_t block = b / p;
  add_phase(Pattern::RingAllreduce, 0, std::vector<std::int64_t>(members, block * p));
  const std::int64_t rest = b % p;
  if (rest > 0) {
    build(CollectiveFamily::Allreduce, ompi_algorithm(CollectiveFamily::Allreduce, p, rest),
          std::vector<std::int64_t>(members, rest));
  }
}

void CollectiveSchedule::build(CollectiveFamily family, CollectiveAlgorithm algorithm,
                               const std::vector<std::int64_t>& payload) {
  const std::int32_t p = size_;
  const std::vector<std::int64_t> zero(payload.size(), 0);
  const std::vector<std::int64_t> uniform(payload.size(), largest(payload));
  auto single = [&](Pattern pattern) { add_phase(pattern, root_, payload); };
  switch (family) {
    case CollectiveFamily::Barrier:
      if (algorithm == A::Linear || algorithm == A::Tree) {
        const bool linear = algorithm == A::Linear;
        add_phase(linear ? Pattern::LinearReduce : Pattern::BinomialReduce, 0, zero);
        add_phase(linear ? Pattern::LinearBcast : Pattern::BinomialBcast, 0, zero);
      } else {
        // Open MPI's recursive doubling folds the members above 2^m onto those below; MPICH's
        // fold (the allreduce's), kept for the mpich selector's override, pairs neighbours.
        const Pattern doubling =
            ompi_ ? Pattern::HighFoldBarrier : Pattern::RecursiveDoublingAllreduce;
        add_phase(algorithm == A::RecursiveDoubling ? doubling : Pattern::Dissemination, 0, zero);
      }
      return;
    case CollectiveFamily::Bcast:
      switch (algorithm) {
        case A::Linear:
          return single(Pattern::LinearBcast);
        case A::Chain:
          return single(Pattern::ChainBcast);
        case A::Binary:
          return single(Pattern::BinaryBcast);
        case A::Knomial:
          return single(Pattern::KnomialBcast);
        case A::ScatterAllgather: {
          // The blocks are numbered by relative rank; the allgather runs over members.
          const auto by_rank = blocks_of(payload.front(), p);
          std::vector<std::int64_t> blocks(payload.size());
          for (std::int32_t i = 0; i < p; ++i) {
            blocks[static_cast<std::size_t>(i)] =
                by_rank[static_cast<std::size_t>((i - root_ + p) % p)];
          }
          add_phase(Pattern::BinomialScatter, root_, blocks);
          add_phase(power_of_two(p) ? Pattern::RecursiveDoublingAllgather : Pattern::RingAllgather,
                    0, blocks);
          return;
        }
        default:
          return single(Pattern::BinomialBcast);
      }
    case CollectiveFamily::Reduce:
      switch (algorithm) {
        case A::Linear:
          return single(Pattern::LinearReduce);
        case A::Chain:
          return single(Pattern::ChainReduce);
        case A::Binary:  // Open MPI's tree is not heap-shaped (CollectivePhase.hpp)
          return single(ompi_ ? Pattern::OmpiTreeReduce : Pattern::BinaryReduce);
        default:
          return single(Pattern::BinomialReduce);
      }
    case CollectiveFamily::Gather:
      return single(algorithm == A::Linear ? Pattern::LinearReduce : Pattern::BinomialGather);
    case CollectiveFamily::Scatter:
      return single(algorithm == A::Linear ? Pattern::LinearScatter : Pattern::BinomialScatter);
    case CollectiveFamily::Allreduce:
      switch (algorithm) {
        case A::Linear:
          if (ompi_) return build_reduce_bcast(largest(payload));
          add_phase(Pattern::LinearReduce, 0, payload);
          add_phase(Pattern::LinearBcast, 0, uniform);
          return;
        case A::Nonoverlapping:
          if (ompi_) return build_reduce_bcast(largest(payload));
          add_phase(Pattern::BinomialReduce, 0, payload);
          add_phase(Pattern::BinomialBcast, 0, uniform);
          return;
        case A::Ring:
          if (ompi_) return build_smpi_ring(largest(payload));
          return single(Pattern::RingAllreduce);
        case A::Rabenseifner:
          return single(Pattern::Rabenseifner);
        default:
          return single(Pattern::RecursiveDoublingAllreduce);
      }
    case CollectiveFamily::Allgather:
    case CollectiveFamily::Allgatherv:
      switch (algorithm) {
        case A::Linear:
          add_phase(Pattern::BinomialGather, 0, payload);
          add_phase(Pattern::BinomialBcast, 0,
                    std::vector<std::int64_t>(payload.size(), total(payload)));
          return;
        case A::Bruck:
          return single(Pattern::BruckAllgather);
        case A::RecursiveDoubling:  // Open MPI falls back to Bruck unless P is a power of two
          return single(power_of_two(p) ? Pattern::RecursiveDoublingAllgather
                                        : Pattern::BruckAllgather);
        case A::NeighborExchange:  // and to the ring for an odd P
          return single(p % 2 == 0 ? Pattern::NeighborExchange : Pattern::RingAllgather);
        default:
          return single(Pattern::RingAllgather);
      }
    case CollectiveFamily::Alltoall:
    case CollectiveFamily::Alltoallv:
      switch (algorithm) {
        case A::Linear:
          return single(Pattern::LinearAlltoall);
        case A::Bruck:
          return single(Pattern::BruckAlltoall);
        default:
          return single(Pattern::PairwiseExchange);
      }
    case CollectiveFamily::ReduceScatter:
      switch (algorithm) {
        case A::Nonoverlapping:
          add_phase(Pattern::BinomialReduce, 0, payload);
          add_phase(Pattern::LinearScatter, 0, blocks_of(payload.front(), p));
          return;
        case A::RecursiveHalving:
          return single(Pattern::RecursiveHalving);
        default:
          return single(Pattern::RingReduceScatter);
      }
  }
}

std::string_view CollectiveSchedule::algorithm() const {
  if (smpi_ring_) return "ring";
  if (reduce_bcast_) return "reduce + bcast";
  if (phases_.size() == 2) {
    switch (phases_.front().pattern()) {
      case Pattern::LinearReduce:
        return "linear reduce + linear bcast";
      case Pattern::BinomialReduce:
        return phases_.back().pattern() == Pattern::LinearScatter
                   ? "binomial reduce + linear scatter"
                   : "binomial reduce + binomial bcast";
      case Pattern::BinomialGather:
        return "binomial gather + binomial bcast";
      default:
        return "binomial scatter + allgather";
    }
  }
  switch (phases_.front().pattern()) {
    case Pattern::None:
      return "none (local)";
    case Pattern::Dissemination:
      return "dissemination";
    case Pattern::BinomialBcast:
    case Pattern::BinomialReduce:
    case Pattern::BinomialGather:
    case Pattern::BinomialScatter:
      return "binomial tree";
    case Pattern::LinearBcast:
    case Pattern::LinearScatter:
    case Pattern::LinearReduce:
      return "linear";
    case Pattern::ChainBcast:
    case Pattern::ChainReduce:
      return "chain";
    case Pattern::BinaryBcast:
    case Pattern::BinaryReduce:
    case Pattern::OmpiTreeReduce:
      return "binary tree";
    case Pattern::KnomialBcast:
      return "4-nomial tree";
    case Pattern::RecursiveDoublingAllreduce:
    case Pattern::HighFoldBarrier:
    case Pattern::RecursiveDoublingAllgather:
    case Pattern::RecursiveDoublingScan:
      return "recursive doubling";
    case Pattern::Rabenseifner:
      return "Rabenseifner";
    case Pattern::RingAllreduce:
    case Pattern::RingAllgather:
    case Pattern::RingReduceScatter:
      return "ring";
    case Pattern::BruckAllgather:
    case Pattern::BruckAlltoall:
      return "Bruck";
    case Pattern::NeighborExchange:
      return "neighbour exchange";
    case Pattern::PairwiseExchange:
      return "pairwise exchange";
    case Pattern::LinearAlltoall:
      return "linear";
    case Pattern::RecursiveHalving:
      return "recursive halving";
  }
  return "unknown";
}

std::int32_t CollectiveSchedule::step_count(std::int32_t member) const {
  std::int32_t count = 0;
  for (const auto& phase : phases_) count += phase.step_count(member);
  return count;
}

CollectiveStep CollectiveSchedule::step(std::int32_t member, std::int32_t k) const {
  for (const auto& phase : phases_) {
    const std::int32_t count = phase.step_count(member);
    if (k < count) return phase.step(member, k);
    k -= count;
  }
  MAPSIM_EXPECTS(false, "collective step out of range");
  return {};
}

}  // namespace mapsim::traces
