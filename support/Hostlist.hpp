#pragma once
// Slurm hostlist expressions: "nid[0001-0128,0200]", "rack[1-2]-node[01-04]", "a1,b7".
//
// Grammar (as Slurm's hostlist.c reads them): items separated by commas outside brackets; an item
// is text with zero or more bracket groups, each a comma-separated list of numbers N or ranges
// N-M (N <= M). An item expands to the cartesian product of its groups, the last group fastest.
// A number written with leading zeros sets the width: "[01-10]" gives 01, 02, ..., 10; without
// them the numbers are as short as they are ("[8-10]": 8, 9, 10).
// compress_hostlist is the inverse for a set of names: names that differ only in a trailing
// number of one width are merged into one bracket group, ranges of consecutive numbers joined.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mapsim {

/// The most names one expression may expand to (a guard against "n[0-999999999]"), and the most
/// characters they may hold together (against long names in a product of groups: 1,000 names of
/// 200 characters times 1,000 would take gigabytes).
inline constexpr std::size_t kMaxHostlistNames = std::size_t{1} << 22;
inline constexpr std::size_t kMaxHostlistChars = std::size_t{1} << 26;

/// The names of `expression`, in the order it lists them. Throws InputError naming `where` and
/// the expression for unbalanced or nested brackets, an empty item or group, a range whose end is
/// below its start or that is not a number, and more than kMaxHostlistNames names or
/// kMaxHostlistChars characters of names.
std::vector<std::string> expand_hostlist(std::string_view expression, std::string_view where);

/// A compact expression of `names` (sorted by prefix, then number); expand_hostlist of it gives
/// the same names, sorted.
std::string compress_hostlist(std::span<const std::string> names);

}  // namespace mapsim
