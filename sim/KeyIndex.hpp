#pragma once
// A map from 64-bit keys (already hashed) to 32-bit ids in one flat array, for the flow model's
// bundles: a flow that joins looks its route's bundle up and a bundle that empties leaves, once per
// flow, so the lookups must not allocate as std::unordered_map's nodes do.
//
// Open addressing with linear probing: key k lives in the first free slot at or after
// slot(k) = (k * 0x9E3779B97F4A7C15) >> (64 - log2 capacity). The table grows (doubling) before
// it is half full, so a probe ends after a few slots. erase() shifts the following entries of the
// run back into the gap (no tombstones), so every key stays reachable from its slot without a gap.

#include <cstdint>
#include <optional>
#include <vector>

namespace mapsim::sim {

class KeyIndex {
 public:
  /// The id stored under `key`, if any.
  [[nodiscard]] std::optional<std::uint32_t> find(std::uint64_t key) const {
    if (size_ == 0) return std::nullopt;
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      const Entry& e = entries_[i];
      if (e.id == kEmpty) return std::nullopt;
      if (e.key == key) return e.id;
    }
  }

  /// Stores `id` (not UINT32_MAX) under `key`, which must not be present.
  void insert(std::uint64_t key, std::uint32_t id) {
    if (2 * (size_ + 1) > entries_.size()) grow();
    std::size_t i = slot(key);
    while (entries_[i].id != kEmpty) i = (i + 1) & mask_;
    entries_[i] = Entry{key, id};
    ++size_;
  }

  /// Removes `key`; nothing if it is absent.
  void erase(std::uint64_t key) {
    if (size_ == 0) return;
    std::size_t hole = slot(key);
    for (; entries_[hole].id != kEmpty; hole = (hole + 1) & mask_) {
      if (entries_[hole].key == key) break;
    }
    if (entries_[hole].id == kEmpty) return;  // absent
    // Backward shift: an entry after the hole moves into it unless its home slot lies
    // cyclically in (hole, its position], where the hole does not interrupt its probe.
    for (std::size_t i = (hole + 1) & mask_; entries_[i].id != kEmpty; i = (i + 1) & mask_) {
      const std::size_t home = slot(entries_[i].key);
      const bool stays = hole < i ? (hole < home && home <= i) : (hole < home || home <= i);
      if (stays) continue;
      entries_[hole] = entries_[i];
      hole = i;
    }
    entries_[hole].id = kEmpty;
    --size_;
  }

  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Entry {
    std::uint64_t key = 0;
    std::uint32_t id = kEmpty;
  };

  [[nodiscard]] std::size_t slot(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void grow() {
    std::vector<Entry> old = std::move(entries_);
    const std::size_t capacity = old.empty() ? 64 : 2 * old.size();
    entries_.assign(capacity, Entry{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (const Entry& e : old) {
      if (e.id != kEmpty) insert(e.key, e.id);
    }
  }

  std::vector<Entry> entries_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace mapsim::sim
