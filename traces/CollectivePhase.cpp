#include "traces/CollectivePhase.hpp"

#include <algorithm>
#include <bit>

#include "support/Error.hpp"
#include "traces/CollectiveSchedule.hpp"

namespace mapsim::traces {
namespace {

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

/// Children of relative rank r in a binomial tree of p members, largest subtree first: masks
/// first_mask, first_mask / 2, ..., 1. Returns first_mask (0 if r is a leaf).
std::int32_t first_child_mask(std::int32_t r, std::int32_t p) {
  std::int32_t mask = (r == 0 ? power_ceil(p) : lowbit(r)) >> 1;
  while (mask > 0 && r + mask >= p) mask >>= 1;
  return mask;
}

std::int32_t child_count(std::int32_t r, std::int32_t p) {
  const std::int32_t first = first_child_mask(r, p);
  return first == 0 ? 0 : std::countr_zero(static_cast<std::uint32_t>(first)) + 1;
}

constexpr std::int32_t kRadix = 4;  // Open MPI's coll_tuned_bcast_knomial_radix default

/// The place value 4^d of r's lowest non-zero base-4 digit; for the root, the first power of 4
/// >= p.
std::int32_t knomial_unit(std::int32_t r, std::int32_t p) {
  std::int32_t unit = 1;
  if (r == 0) {
    while (unit < p) unit *= kRadix;
    return unit;
  }
  while ((r / unit) % kRadix == 0) unit *= kRadix;
  return unit;
}

/// The k-th child of r (largest subtree first), or -1 past the last.
std::int32_t knomial_child(std::int32_t r, std::int32_t p, std::int32_t k) {
  for (std::int32_t unit = knomial_unit(r, p) / kRadix; unit >= 1; unit /= kRadix) {
    for (std::int32_t j = 1; j < kRadix; ++j) {
      const std::int64_t child = r + std::int64_t{j} * unit;
      if (child >= p) break;
      if (k-- == 0) return static_cast<std::int32_t>(child);
    }
  }
  return -1;
}

std::int32_t knomial_children(std::int32_t r, std::int32_t p) {
  std::int32_t count = 0;
  while (knomial_child(r, p, count) >= 0) ++count;
  return count;
}

/// Blocks j in [0, p) with bit k set: what Bruck's all-to-all forwards in round k.
std::int64_t bruck_blocks(std::int32_t p, std::int32_t k) {
  const std::int64_t d = std::int64_t{1} << k;
  return (p >> (k + 1)) * d + std::max<std::int64_t>(0, (p & (2 * d - 1)) - d);
}

/// Open MPI's binary tree (fan-out 2): member r's level L has the members 2^L - 1 .. 2^(L+1) - 2;
/// returns 2^L, the distance to its first child (r + 2^L, then r + 2^(L+1)).
std::int32_t ompi_tree_delta(std::int32_t r) {
  std::int32_t delta = 1;
  while (r >= 2 * delta - 1) delta *= 2;
  return delta;
}

std::int32_t ompi_tree_children(std::int32_t r, std::int32_t p) {
  const std::int32_t delta = ompi_tree_delta(r);
  return (r + delta < p ? 1 : 0) + (r + 2 * delta < p ? 1 : 0);
}

bool folds(Pattern pattern) {
  return pattern == Pattern::RecursiveDoublingAllreduce || pattern == Pattern::Rabenseifner ||
         pattern == Pattern::RecursiveHalving;
}

}  // namespace

CollectivePhase::CollectivePhase(Pattern pattern, std::int32_t root,
                                 std::vector<std::int64_t> payload)
    : pattern_(pattern), root_(root), payload_(std::move(payload)) {
  const std::int32_t p = size();
  MAPSIM_EXPECTS(p >= 1 && root >= 0 && root < p, "a collective phase has a member root");
  prefix_.assign(static_cast<std::size_t>(p) + 1, 0);
  for (std::int32_t r = 0; r < p; ++r) {
    prefix_[static_cast<std::size_t>(r) + 1] =
        prefix_[static_cast<std::size_t>(r)] + payload_[static_cast<std::size_t>(absolute(r))];
  }
}

std::int32_t CollectivePhase::relative(std::int32_t member) const {
  return (member - root_ + size()) % size();
}

std::int32_t CollectivePhase::absolute(std::int32_t relative_rank) const {
  return (relative_rank + root_) % size();
}

std::int64_t CollectivePhase::subtree_bytes(std::int32_t r) const {
  const std::int32_t end = r == 0 ? size() : std::min(size(), r + lowbit(r));
  return prefix_[static_cast<std::size_t>(end)] - prefix_[static_cast<std::size_t>(r)];
}

std::int64_t CollectivePhase::ring_block(std::int32_t owner, std::int32_t block) const {
  const std::int64_t b = payload_[static_cast<std::size_t>(owner)];
  return b / size() + (block < b % size() ? 1 : 0);
}

std::int64_t CollectivePhase::run_bytes(std::int32_t first, std::int32_t count) const {
  std::int64_t bytes = 0;
  const std::int32_t p = size();
  auto sum = [&](std::int32_t from, std::int32_t to) {  // absolute [from, to), root_ is 0
    return prefix_[static_cast<std::size_t>(to)] - prefix_[static_cast<std::size_t>(from)];
  };
  const std::int32_t end = first + count;
  bytes += sum(first, std::min(end, p));
  if (end > p) bytes += sum(0, end - p);
  return bytes;
}

std::int32_t CollectivePhase::step_count(std::int32_t member) const {
  const std::int32_t p = size();
  if (p == 1) return 0;
  const std::int32_t r = relative(member);
  switch (pattern_) {
    case Pattern::None:
      return 0;
    case Pattern::Dissemination:
    case Pattern::RecursiveDoublingAllgather:
    case Pattern::BruckAllgather:
    case Pattern::BruckAlltoall:
      return log2_ceil(p);
    case Pattern::BinomialBcast:
    case Pattern::BinomialScatter:
    case Pattern::BinomialReduce:
    case Pattern::BinomialGather:
      return child_count(r, p) + (r != 0 ? 1 : 0);
    case Pattern::LinearBcast:
    case Pattern::LinearScatter:
    case Pattern::LinearReduce:
      return r == 0 ? p - 1 : 1;
    case Pattern::ChainBcast:
    case Pattern::ChainReduce:
      return (r > 0 ? 1 : 0) + (r < p - 1 ? 1 : 0);
    case Pattern::BinaryBcast:
    case Pattern::BinaryReduce:
      return (r > 0 ? 1 : 0) + (2 * r + 1 < p ? 1 : 0) + (2 * r + 2 < p ? 1 : 0);
    case Pattern::OmpiTreeReduce:
      return (r > 0 ? 1 : 0) + ompi_tree_children(r, p);
    case Pattern::KnomialBcast:
      return (r > 0 ? 1 : 0) + knomial_children(r, p);
    case Pattern::RecursiveDoublingAllreduce:
    case Pattern::Rabenseifner:
    case Pattern::RecursiveHalving: {
      const std::int32_t p2 = power_floor(p);
      const std::int32_t rem = p - p2;
      const std::int32_t core = log2_ceil(p2) * (pattern_ == Pattern::Rabenseifner ? 2 : 1);
      if (member < 2 * rem) return member % 2 == 0 ? 2 : 2 + core;
      return core;
    }
    case Pattern::RingAllreduce:
      return 2 * (p - 1);
    case Pattern::HighFoldBarrier: {
      const std::int32_t p2 = power_floor(p);
      if (member >= p2) return 1;
      return log2_ceil(p2) + (member < p - p2 ? 2 : 0);
    }
    case Pattern::RingAllgather:
    case Pattern::PairwiseExchange:
    case Pattern::LinearAlltoall:
    case Pattern::RingReduceScatter:
      return p - 1;
    case Pattern::NeighborExchange:
      return p / 2;
    case Pattern::RecursiveDoublingScan: {
      std::int32_t count = 0;
      for (std::int32_t mask = 1; mask < p; mask <<= 1) count += (member ^ mask) < p ? 1 : 0;
      return count;
    }
  }
  return 0;
}

CollectiveStep CollectivePhase::folded_step(std::int32_t member, std::int32_t k) const {
  const std::int32_t p = size();
  const std::int64_t own = payload_[static_cast<std::size_t>(member)];
  const std::int32_t p2 = power_floor(p);
  const std::int32_t rem = p - p2;
  const std::int32_t m = log2_ceil(p2);
  const bool folded = member < 2 * rem;
  if (folded && member % 2 == 0) {  // hands its vector to member + 1, gets its result back
    return k == 0 ? CollectiveStep{member + 1, -1, own} : CollectiveStep{-1, member + 1, 0};
  }
  std::int32_t round = k;
  if (folded) {
    if (k == 0) return {-1, member - 1, 0};
    if (k == step_count(member) - 1) {
      const std::int64_t back = pattern_ == Pattern::RecursiveHalving ? own / p : own;
      return {member - 1, -1, back};
    }
    round = k - 1;
  }
  const std::int32_t newrank = folded ? member / 2 : member - rem;
  std::int32_t distance = 1 << round;
  std::int64_t bytes = own;
  if (pattern_ == Pattern::Rabenseifner) {
    if (round < m) {
      bytes = own >> (round + 1);
    } else {
      distance = 1 << (2 * m - 1 - round);
      bytes = own >> (2 * m - round);
    }
  } else if (pattern_ == Pattern::RecursiveHalving) {
    distance = 1 << (m - 1 - round);
    bytes = own >> (round + 1);
  }
  const std::int32_t partner_new = newrank ^ distance;
  const std::int32_t partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
  return {partner, partner, bytes};
}

CollectiveStep CollectivePhase::step(std::int32_t member, std::int32_t k) const {
  MAPSIM_EXPECTS(k >= 0 && k < step_count(member), "collective step out of range");
  const std::int32_t p = size();
  const std::int64_t own = payload_[static_cast<std::size_t>(member)];
  const std::int32_t next = (member + 1) % p;
  const std::int32_t previous = (member - 1 + p) % p;
  const std::int32_t r = relative(member);
  if (folds(pattern_)) return folded_step(member, k);
  switch (pattern_) {
    case Pattern::None:
    case Pattern::RecursiveDoublingAllreduce:
    case Pattern::Rabenseifner:
    case Pattern::RecursiveHalving:
      break;
    case Pattern::Dissemination: {
      const std::int32_t d = 1 << k;
      return {(member + d) % p, ((member - d) % p + p) % p, 0};
    }
    case Pattern::BinomialBcast:
    case Pattern::BinomialScatter: {
      if (r != 0 && k == 0) return {-1, absolute(r - lowbit(r)), 0};
      const std::int32_t child = r + (first_child_mask(r, p) >> (k - (r != 0 ? 1 : 0)));
      const std::int64_t bytes = pattern_ == Pattern::BinomialBcast ? own : subtree_bytes(child);
      return {absolute(child), -1, bytes};
    }
    case Pattern::BinomialReduce:
    case Pattern::BinomialGather: {
      if (k < child_count(r, p)) return {-1, absolute(r + (1 << k)), 0};
      const std::int64_t bytes = pattern_ == Pattern::BinomialReduce ? own : subtree_bytes(r);
      return {absolute(r - lowbit(r)), -1, bytes};
    }
    case Pattern::LinearBcast:
    case Pattern::LinearScatter: {
      if (r != 0) return {-1, root_, 0};
      const std::int32_t to = absolute(k + 1);
      return {to, -1,
              pattern_ == Pattern::LinearBcast ? own : payload_[static_cast<std::size_t>(to)]};
    }
    case Pattern::LinearReduce:
      if (r != 0) return {root_, -1, own};
      return {-1, absolute(k + 1), 0};
    case Pattern::ChainBcast:
      if (r > 0 && k == 0) return {-1, absolute(r - 1), 0};
      return {absolute(r + 1), -1, own};
    case Pattern::ChainReduce:
      if (r < p - 1 && k == 0) return {-1, absolute(r + 1), 0};
      return {absolute(r - 1), -1, own};
    case Pattern::BinaryBcast:
      if (r > 0 && k == 0) return {-1, absolute((r - 1) / 2), 0};
      return {absolute(2 * r + 1 + (k - (r > 0 ? 1 : 0))), -1, own};
    case Pattern::BinaryReduce: {
      const std::int32_t children = step_count(member) - (r > 0 ? 1 : 0);
      if (k < children) return {-1, absolute(2 * r + 1 + k), 0};
      return {absolute((r - 1) / 2), -1, own};
    }
    case Pattern::OmpiTreeReduce: {
      const std::int32_t children = ompi_tree_children(r, p);
      const std::int32_t delta = ompi_tree_delta(r);
      if (k < children) return {-1, absolute(r + delta * (k + 1)), 0};
      // The parent: on the level above (delta / 2 members from delta / 2 - 1 on), the one whose
      // children include r.
      const std::int32_t above = delta / 2;
      return {absolute(above - 1 + (r - (above - 1)) % above), -1, own};
    }
    case Pattern::KnomialBcast: {
      if (r > 0 && k == 0) {
        const std::int32_t unit = knomial_unit(r, p);
        return {-1, absolute(r - (r / unit) % kRadix * unit), 0};
      }
      return {absolute(knomial_child(r, p, k - (r > 0 ? 1 : 0))), -1, own};
    }
    case Pattern::HighFoldBarrier: {
      const std::int32_t p2 = power_floor(p);
      if (member >= p2) return {member - p2, member - p2, 0};
      const bool folded = member < p - p2;
      if (folded && k == 0) return {-1, member + p2, 0};
      const std::int32_t core = k - (folded ? 1 : 0);
      if (core == log2_ceil(p2)) return {member + p2, -1, 0};
      return {member ^ (1 << core), member ^ (1 << core), 0};
    }
    case Pattern::RingAllreduce: {
      const std::int32_t block =
          k < p - 1 ? (member - k + p) % p : (member + 1 - (k - (p - 1)) + 2 * p) % p;
      return {next, previous, ring_block(member, block)};
    }
    case Pattern::RecursiveDoublingAllgather: {
      const std::int32_t mask = 1 << k;
      const std::int32_t start = member & ~(mask - 1);
      const std::int64_t bytes = prefix_[static_cast<std::size_t>(start + mask)] -
                                 prefix_[static_cast<std::size_t>(start)];
      return {member ^ mask, member ^ mask, bytes};
    }
    case Pattern::RingAllgather:
      return {next, previous, payload_[static_cast<std::size_t>((member - k + p) % p)]};
    case Pattern::BruckAllgather: {
      const std::int32_t d = 1 << k;
      return {(member - d + p) % p, (member + d) % p, run_bytes(member, std::min(d, p - d))};
    }
    case Pattern::NeighborExchange: {
      const bool even = member % 2 == 0;
      const std::int32_t neighbour[2] = {even ? next : previous, even ? previous : next};
      if (k == 0) return {neighbour[0], neighbour[0], own};
      const std::int32_t start = even ? member : member - 1;  // the pair held after step 0
      std::int32_t from = start;
      if (k >= 2) {
        const std::int32_t q = (k - 1) % 2;
        const std::int32_t updates = q == 1 ? k / 2 : (k - 1) / 2;
        const std::int32_t offset = (q == 0) == even ? 2 : -2;
        from = ((start + offset * updates) % p + p) % p;
      }
      const std::int32_t partner = neighbour[k % 2];
      return {partner, partner, run_bytes(from, 2)};
    }
    case Pattern::PairwiseExchange:
      return {(member + k + 1) % p, (member - k - 1 + p) % p, own};
    case Pattern::LinearAlltoall:
      return {(member - k - 1 + p) % p, (member + k + 1) % p, own, true};
    case Pattern::BruckAlltoall: {
      const std::int32_t d = 1 << k;
      return {(member + d) % p, (member - d + p) % p, own * bruck_blocks(p, k)};
    }
    case Pattern::RingReduceScatter:
      return {next, previous, ring_block(member, (member - k - 1 + p) % p)};
    case Pattern::RecursiveDoublingScan: {
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
