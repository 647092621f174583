// The flow model's bundle index (sim/KeyIndex.hpp): open addressing with linear probing and
// backward-shift deletion. Keys that share a home slot (found with the header's slot formula)
// probe past each other, also across the end of the table; erasing from the middle of a run keeps
// the rest reachable; and a long random sequence of inserts and erases agrees with
// std::unordered_map at every step.

#include "sim/KeyIndex.hpp"

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

namespace mapsim::sim {
namespace {

// slot(k) of the header in a table of 64 slots (its first size).
std::size_t home_of(std::uint64_t key) {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 58);
}

// The first `n` keys (from 1 up) whose home slot is `slot` in a table of 64.
std::vector<std::uint64_t> keys_at(std::size_t slot, std::size_t n) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t k = 1; keys.size() < n; ++k) {
    if (home_of(k) == slot) keys.push_back(k);
  }
  return keys;
}

TEST(KeyIndex, FindsWhatItHoldsAndNothingElse) {
  KeyIndex index;
  EXPECT_FALSE(index.find(7).has_value());
  index.erase(7);  // absent: nothing happens
  index.insert(7, 70);
  index.insert(8, 80);
  EXPECT_EQ(index.find(7), 70u);
  EXPECT_EQ(index.find(8), 80u);
  EXPECT_FALSE(index.find(9).has_value());
  EXPECT_EQ(index.size(), 2u);
  index.erase(7);
  EXPECT_FALSE(index.find(7).has_value());
  EXPECT_EQ(index.find(8), 80u);
  EXPECT_EQ(index.size(), 1u);
}

TEST(KeyIndex, ErasingInsideARunOfOneHomeKeepsTheRestReachable) {
  const auto keys = keys_at(10, 4);  // all four probe from slot 10: 10, 11, 12, 13
  for (std::size_t removed = 0; removed < keys.size(); ++removed) {
    KeyIndex index;
    for (std::uint32_t i = 0; i < keys.size(); ++i) index.insert(keys[i], i);
    index.erase(keys[removed]);
    for (std::uint32_t i = 0; i < keys.size(); ++i) {
      if (i == removed) {
        EXPECT_FALSE(index.find(keys[i]).has_value()) << "removed key " << i;
      } else {
        EXPECT_EQ(index.find(keys[i]), i) << "key " << i << " after erasing key " << removed;
      }
    }
  }
}

TEST(KeyIndex, ErasingShiftsBackOnlyTheKeysThatProbedPastTheHole) {
  // a and b (home 20) sit at slots 20 and 21; c (home 21) at 22; d (home 23) at 23. Erasing a
  // moves b back to 20 and c to 21; d, at its home, stays. Erasing c then leaves b and d.
  const auto at20 = keys_at(20, 2);
  const auto c = keys_at(21, 1).front();
  const auto d = keys_at(23, 1).front();
  KeyIndex index;
  index.insert(at20[0], 1);
  index.insert(at20[1], 2);
  index.insert(c, 3);
  index.insert(d, 4);
  index.erase(at20[0]);
  EXPECT_EQ(index.find(at20[1]), 2u);
  EXPECT_EQ(index.find(c), 3u);
  EXPECT_EQ(index.find(d), 4u);
  index.erase(c);
  EXPECT_EQ(index.find(at20[1]), 2u);
  EXPECT_EQ(index.find(d), 4u);
  EXPECT_FALSE(index.find(c).has_value());
}

TEST(KeyIndex, RunsWrapAroundTheEndOfTheTable) {
  const auto keys = keys_at(63, 3);  // slots 63, 0, 1
  const auto zero = keys_at(0, 1).front();
  KeyIndex index;
  for (std::uint32_t i = 0; i < keys.size(); ++i) index.insert(keys[i], i);
  index.insert(zero, 9);  // its home is taken: it probes to slot 2
  index.erase(keys[0]);   // the hole at 63: keys[1] and keys[2] shift back across the end
  EXPECT_EQ(index.find(keys[1]), 1u);
  EXPECT_EQ(index.find(keys[2]), 2u);
  EXPECT_EQ(index.find(zero), 9u);
  index.erase(keys[1]);
  EXPECT_EQ(index.find(keys[2]), 2u);
  EXPECT_EQ(index.find(zero), 9u);
  EXPECT_EQ(index.size(), 2u);
}

TEST(KeyIndex, AgreesWithAnUnorderedMapOverARandomHistory) {
  // Keys from a small range, so that inserts, finds and erases meet; the table grows past 64.
  std::mt19937_64 random(12345);
  KeyIndex index;
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  for (std::uint32_t step = 0; step < 200000; ++step) {
    const std::uint64_t key = random() % 3000 + (random() % 2 == 0 ? 0 : (std::uint64_t{1} << 40));
    const bool held = reference.count(key) > 0;
    if (!held && random() % 3 != 0) {
      index.insert(key, step);
      reference.emplace(key, step);
    } else if (held && random() % 2 == 0) {
      index.erase(key);
      reference.erase(key);
    }
    const auto found = index.find(key);
    ASSERT_EQ(found.has_value(), reference.count(key) > 0) << "step " << step << " key " << key;
    if (found) {
      ASSERT_EQ(*found, reference.at(key)) << "step " << step;
    }
    ASSERT_EQ(index.size(), reference.size()) << "step " << step;
  }
  for (const auto& [key, id] : reference) EXPECT_EQ(index.find(key), id);
}

}  // namespace
}  // namespace mapsim::sim
