#include "traces/CollectiveSchedule.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

std::int64_t divide_rounded(std::int64_t value, std::int64_t by) {
  return by <= 0 ? 0 : (value + by / 2) / by;
}

std::int32_t lowbit(std::int32_t r) {
  return r & -r;
}

/// The smallest power of two >= p.
std::int32_t power_ceil(std::int32_t p) {
  return static_cast<std::int32_t>(std::bit_ceil(static_cast<std::uint32_t>(p)));
}

/// The largest power of two <= p (p >= 1).
std::int32_t power_floor(std::int32_t p) {
  return static_cast<std::int32_t>(std::bit_floor(static_cast<std::uint32_t>(p)));
}

std::int32_t log2_ceil(std::int32_t p) {
  return static_cast<std::int32_t>(std::bit_width(static_cast<std::uint32_t>(p - 1)));
}

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

}  // namespace

CollectiveSchedule::CollectiveSchedule(CollectiveOp op, std::int32_t root,
                                       std::vector<CollectiveRecord> records,
                                       const CollectiveOptions& options)
    : op_(op), payload_(records.size(), 0) {
  const auto p = static_cast<std::int32_t>(records.size());
  MAPSIM_EXPECTS(p >= 1, "a collective has at least one member");
  if (rooted(op)) {
    if (root < 0 || root >= p) {
      throw InputError(
          fmt::format("{} on a communicator of {} members has root {}", name(op), p, root));
    }
    root_ = root;
  }
  auto per_member = [&](auto bytes_of) {
    for (std::int32_t i = 0; i < p; ++i) payload_[static_cast<std::size_t>(i)] = bytes_of(i);
  };
  const auto& rec = records;
  auto at = [&](std::int32_t i) -> const CollectiveRecord& {
    return rec[static_cast<std::size_t>(i)];
  };

  switch (op) {
    case CollectiveOp::Barrier:
    case CollectiveOp::CreateHandle:
      algorithm_ = Algorithm::Dissemination;
      break;
    case CollectiveOp::Bcast: {
      std::int64_t b = at(root_).received;
      if (b == 0) {
        for (const auto& r : rec) b = std::max(b, r.received);
      }
      per_member([&](std::int32_t) { return b; });
      algorithm_ = Algorithm::BinomialBcast;
      break;
    }
    case CollectiveOp::Reduce:
      per_member([&](std::int32_t i) { return at(i).sent; });
      algorithm_ = Algorithm::BinomialReduce;
      break;
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
      per_member([&](std::int32_t i) { return at(i).sent; });
      algorithm_ = Algorithm::BinomialGather;
      break;
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
      per_member([&](std::int32_t i) { return at(i).received; });
      algorithm_ = Algorithm::BinomialScatter;
      break;
    case CollectiveOp::Allreduce: {
      per_member([&](std::int32_t i) { return divide_rounded(at(i).sent, p); });
      const auto largest = *std::max_element(payload_.begin(), payload_.end());
      algorithm_ = p > 1 && largest >= options.allreduce_ring_from
                       ? Algorithm::RingAllreduce
                       : Algorithm::RecursiveDoublingAllreduce;
      break;
    }
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv: {
      per_member([&](std::int32_t i) { return divide_rounded(at(i).sent, p); });
      std::int64_t total = 0;
      for (const auto b : payload_) total += b;
      algorithm_ =
          std::has_single_bit(static_cast<std::uint32_t>(p)) && total < options.allgather_ring_from
              ? Algorithm::RecursiveDoublingAllgather
              : Algorithm::RingAllgather;
      break;
    }
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
      per_member([&](std::int32_t i) { return divide_rounded(at(i).sent, p); });
      algorithm_ = Algorithm::PairwiseExchange;
      break;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
      per_member([&](std::int32_t i) { return at(i).sent; });  // the whole vector
      algorithm_ = Algorithm::RingReduceScatter;
      break;
    case CollectiveOp::Scan:
      per_member([&](std::int32_t i) { return divide_rounded(at(i).received, i + 1); });
      algorithm_ = Algorithm::RecursiveDoublingScan;
      break;
    case CollectiveOp::Exscan:
      per_member([&](std::int32_t i) {
        return i > 0 ? divide_rounded(at(i).received, i) : divide_rounded(at(i).sent, p - 1);
      });
      algorithm_ = Algorithm::RecursiveDoublingScan;
      break;
    case CollectiveOp::None:
    case CollectiveOp::DestroyHandle:
    case CollectiveOp::Other:
      algorithm_ = Algorithm::None;
      break;
  }

  // Subtree sums walk members in relative order (root first); the allgather uses absolute order,
  // with root_ 0.
  prefix_.assign(static_cast<std::size_t>(p) + 1, 0);
  for (std::int32_t r = 0; r < p; ++r) {
    prefix_[static_cast<std::size_t>(r) + 1] =
        prefix_[static_cast<std::size_t>(r)] + payload_[static_cast<std::size_t>(absolute(r))];
  }
}

std::string_view CollectiveSchedule::algorithm() const {
  switch (algorithm_) {
    case Algorithm::None:
      return "none (local)";
    case Algorithm::Dissemination:
      return "dissemination";
    case Algorithm::BinomialBcast:
    case Algorithm::BinomialReduce:
    case Algorithm::BinomialGather:
    case Algorithm::BinomialScatter:
      return "binomial tree";
    case Algorithm::RecursiveDoublingAllreduce:
    case Algorithm::RecursiveDoublingAllgather:
    case Algorithm::RecursiveDoublingScan:
      return "recursive doubling";
    case Algorithm::RingAllreduce:
    case Algorithm::RingAllgather:
    case Algorithm::RingReduceScatter:
      return "ring";
    case Algorithm::PairwiseExchange:
      return "pairwise exchange";
  }
  return "unknown";
}

std::int32_t CollectiveSchedule::relative(std::int32_t member) const {
  return (member - root_ + size()) % size();
}

std::int32_t CollectiveSchedule::absolute(std::int32_t relative_rank) const {
  return (relative_rank + root_) % size();
}

std::int64_t CollectiveSchedule::subtree_bytes(std::int32_t r) const {
  const std::int32_t end = r == 0 ? size() : std::min(size(), r + lowbit(r));
  return prefix_[static_cast<std::size_t>(end)] - prefix_[static_cast<std::size_t>(r)];
}

std::int64_t CollectiveSchedule::ring_block(std::int32_t owner, std::int32_t block) const {
  const std::int64_t b = payload_[static_cast<std::size_t>(owner)];
  return b / size() + (block < b % size() ? 1 : 0);
}

namespace {

/// Children of relative rank r in a binomial tree of p members, largest subtree first: masks
/// first_mask, first_mask / 2, ..., 1. Returns first_mask (0 if r is a leaf).
std::int32_t first_child_mask(std::int32_t r, std::int32_t p) {
  std::int32_t mask = (r == 0 ? power_ceil(p) : lowbit(r)) >> 1;
  while (mask > 0 && r + mask >= p) mask >>= 1;
  return mask;
}

/// Number of children of relative rank r, i.e. of masks m = 1, 2, ... below lowbit(r) (all of
/// them for the root) with r + m < p.
std::int32_t child_count(std::int32_t r, std::int32_t p) {
  const std::int32_t first = first_child_mask(r, p);
  return first == 0 ? 0 : std::countr_zero(static_cast<std::uint32_t>(first)) + 1;
}

}  // namespace

std::int32_t CollectiveSchedule::step_count(std::int32_t member) const {
  const std::int32_t p = size();
  if (p == 1) return 0;
  switch (algorithm_) {
    case Algorithm::None:
      return 0;
    case Algorithm::Dissemination:
      return log2_ceil(p);
    case Algorithm::BinomialBcast:
    case Algorithm::BinomialScatter:
    case Algorithm::BinomialReduce:
    case Algorithm::BinomialGather: {
      const std::int32_t r = relative(member);
      return child_count(r, p) + (r != 0 ? 1 : 0);
    }
    case Algorithm::RecursiveDoublingAllreduce: {
      const std::int32_t p2 = power_floor(p);
      const std::int32_t rem = p - p2;
      if (member < 2 * rem) return member % 2 == 0 ? 2 : 2 + log2_ceil(p2);
      return log2_ceil(p2);
    }
    case Algorithm::RingAllreduce:
      return 2 * (p - 1);
    case Algorithm::RecursiveDoublingAllgather:
      return log2_ceil(p);
    case Algorithm::RingAllgather:
    case Algorithm::PairwiseExchange:
    case Algorithm::RingReduceScatter:
      return p - 1;
    case Algorithm::RecursiveDoublingScan: {
      std::int32_t count = 0;
      for (std::int32_t mask = 1; mask < p; mask <<= 1) count += (member ^ mask) < p ? 1 : 0;
      return count;
    }
  }
  return 0;
}

CollectiveStep CollectiveSchedule::step(std::int32_t member, std::int32_t k) const {
  MAPSIM_EXPECTS(k >= 0 && k < step_count(member), "collective step out of range");
  const std::int32_t p = size();
  const std::int64_t own = payload_[static_cast<std::size_t>(member)];
  const std::int32_t next = (member + 1) % p;
  const std::int32_t previous = (member - 1 + p) % p;
  switch (algorithm_) {
    case Algorithm::None:
      break;
    case Algorithm::Dissemination: {
      const std::int32_t d = 1 << k;
      return {(member + d) % p, ((member - d) % p + p) % p, 0};
    }
    case Algorithm::BinomialBcast:
    case Algorithm::BinomialScatter: {
      const std::int32_t r = relative(member);
      if (r != 0 && k == 0) return {-1, absolute(r - lowbit(r)), 0};
      const std::int32_t child = r + (first_child_mask(r, p) >> (k - (r != 0 ? 1 : 0)));
      const std::int64_t bytes =
          algorithm_ == Algorithm::BinomialBcast ? own : subtree_bytes(child);
      return {absolute(child), -1, bytes};
    }
    case Algorithm::BinomialReduce:
    case Algorithm::BinomialGather: {
      const std::int32_t r = relative(member);
      if (k < child_count(r, p)) return {-1, absolute(r + (1 << k)), 0};
      const std::int64_t bytes = algorithm_ == Algorithm::BinomialReduce ? own : subtree_bytes(r);
      return {absolute(r - lowbit(r)), -1, bytes};
    }
    case Algorithm::RecursiveDoublingAllreduce: {
      const std::int32_t p2 = power_floor(p);
      const std::int32_t rem = p - p2;
      const bool folded = member < 2 * rem;
      if (folded && member % 2 == 0) {  // hands its vector to member + 1, gets the result back
        return k == 0 ? CollectiveStep{member + 1, -1, own} : CollectiveStep{-1, member + 1, 0};
      }
      std::int32_t round = k;
      if (folded) {
        if (k == 0) return {-1, member - 1, 0};
        if (k == step_count(member) - 1) return {member - 1, -1, own};
        round = k - 1;
      }
      const std::int32_t newrank = folded ? member / 2 : member - rem;
      const std::int32_t partner_new = newrank ^ (1 << round);
      const std::int32_t partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
      return {partner, partner, own};
    }
    case Algorithm::RingAllreduce: {
      const std::int32_t block =
          k < p - 1 ? (member - k + p) % p : (member + 1 - (k - (p - 1)) + 2 * p) % p;
      return {next, previous, ring_block(member, block)};
    }
    case Algorithm::RecursiveDoublingAllgather: {
      const std::int32_t mask = 1 << k;
      const std::int32_t start = member & ~(mask - 1);
      const std::int64_t bytes = prefix_[static_cast<std::size_t>(start + mask)] -
                                 prefix_[static_cast<std::size_t>(start)];
      return {member ^ mask, member ^ mask, bytes};
    }
    case Algorithm::RingAllgather:
      return {next, previous, payload_[static_cast<std::size_t>((member - k + p) % p)]};
    case Algorithm::PairwiseExchange:
      return {(member + k + 1) % p, (member - k - 1 + p) % p, own};
    case Algorithm::RingReduceScatter:
      return {next, previous, ring_block(member, (member - k - 1 + p) % p)};
    case Algorithm::RecursiveDoublingScan: {
      std::int32_t seen = 0;
      for (std::int32_t mask = 1; mask < p; mask <<= 1) {
        const std::int32_t partner = member ^ mask;
        if (partner >= p) continue;
        if (seen++ == k) return {partner, partner, own};
      }
      break;
    }
  }
  MAPSIM_EXPECTS(false, "no such collective step");
  return {};
}

}  // namespace mapsim::traces
