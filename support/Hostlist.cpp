#include "support/Hostlist.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim {
namespace {

[[noreturn]] void fail(std::string_view where, std::string_view expression, std::string_view what) {
  throw InputError(fmt::format("{}: hostlist '{}': {}", where, expression, what));
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// One bracket group expanded to its numbers as text, zero-padded to their low bound's width.
std::vector<std::string> expand_group(std::string_view group, std::string_view where,
                                      std::string_view expression) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    const auto comma = group.find(',', at);
    const auto entry = group.substr(at, comma == std::string_view::npos ? comma : comma - at);
    const auto dash = entry.find('-');
    const auto low = entry.substr(0, dash);
    const auto high = dash == std::string_view::npos ? low : entry.substr(dash + 1);
    if (!all_digits(low) || !all_digits(high) || low.size() > 18 || high.size() > 18) {
      fail(where, expression,
           fmt::format("'[{}]' holds '{}', which is not a number N or a range N-M", group, entry));
    }
    const auto first = std::stoll(std::string(low));
    const auto last = std::stoll(std::string(high));
    if (last < first) {
      fail(where, expression, fmt::format("the range '{}' ends below its start", entry));
    }
    if (static_cast<std::uint64_t>(last - first) >= kMaxHostlistNames) {
      fail(where, expression,
           fmt::format("the range '{}' has more than {} names", entry, kMaxHostlistNames));
    }
    for (auto n = first; n <= last; ++n) out.push_back(fmt::format("{:0{}}", n, low.size()));
    if (out.size() > kMaxHostlistNames) {
      fail(where, expression, fmt::format("more than {} names", kMaxHostlistNames));
    }
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

void expand_item(std::string_view item, std::string_view where, std::string_view expression,
                 std::vector<std::string>& names, std::size_t& chars) {
  if (item.empty()) fail(where, expression, "it has an empty name (two commas, or one at an end)");
  // The item as literal parts and groups: the product is built left to right.
  std::vector<std::string> partial{""};
  std::size_t at = 0;
  while (at < item.size()) {
    const auto open = item.find_first_of("[]", at);
    const auto literal = item.substr(at, open == std::string_view::npos ? open : open - at);
    for (auto& p : partial) p += literal;
    if (open == std::string_view::npos) break;
    if (item[open] == ']') fail(where, expression, "a ']' has no '['");
    const auto close = item.find_first_of("[]", open + 1);
    if (close == std::string_view::npos || item[close] == '[') {
      fail(where, expression, "a '[' is not closed by ']' (brackets do not nest)");
    }
    const auto group = item.substr(open + 1, close - open - 1);
    if (group.empty()) fail(where, expression, "'[]' is empty");
    const auto numbers = expand_group(group, where, expression);
    if (partial.size() * numbers.size() > kMaxHostlistNames) {
      fail(where, expression, fmt::format("more than {} names", kMaxHostlistNames));
    }
    // An upper bound of the product's characters: the longest partial name and number.
    std::size_t longest = 0;
    std::size_t widest = 0;
    for (const auto& p : partial) longest = std::max(longest, p.size());
    for (const auto& n : numbers) widest = std::max(widest, n.size());
    if (chars + partial.size() * numbers.size() * (longest + widest) > kMaxHostlistChars) {
      fail(where, expression,
           fmt::format("its names would take more than {} MiB", kMaxHostlistChars >> 20));
    }
    std::vector<std::string> next;
    next.reserve(partial.size() * numbers.size());
    for (const auto& p : partial)
      for (const auto& n : numbers) next.push_back(p + n);
    partial = std::move(next);
    at = close + 1;
  }
  if (names.size() + partial.size() > kMaxHostlistNames) {
    fail(where, expression, fmt::format("more than {} names", kMaxHostlistNames));
  }
  // (Counted for the next items' bound; names without groups are no longer than the expression.)
  for (auto& p : partial) {
    chars += p.size();
    names.push_back(std::move(p));
  }
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view expression, std::string_view where) {
  std::vector<std::string> names;
  std::size_t chars = 0;  // of the names so far
  if (expression.empty()) fail(where, expression, "it is empty");
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= expression.size(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    // The last item ends the expression whatever its brackets: "n[1-" is an error, not nothing.
    if ((c == ',' && depth == 0) || i == expression.size()) {
      expand_item(expression.substr(start, i - start), where, expression, names, chars);
      start = i + 1;
    }
  }
  return names;
}

std::string compress_hostlist(std::span<const std::string> names) {
  // Names by (prefix, digits of the trailing number); names without one stand alone.
  std::map<std::pair<std::string, std::size_t>, std::vector<std::int64_t>> numbered;
  std::vector<std::string> plain;
  for (const auto& name : names) {
    std::size_t digits = 0;
    while (digits < name.size() && digits < 18 && name[name.size() - 1 - digits] >= '0' &&
           name[name.size() - 1 - digits] <= '9') {
      ++digits;
    }
    if (digits == 0) {
      plain.push_back(name);
      continue;
    }
    numbered[{name.substr(0, name.size() - digits), digits}].push_back(
        std::stoll(name.substr(name.size() - digits)));
  }
  std::vector<std::tuple<std::string, std::int64_t, std::string>> items;  // sort key, text
  for (auto& [key, numbers] : numbered) {
    const auto& [prefix, width] = key;
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    if (numbers.size() == 1) {
      items.emplace_back(prefix, numbers[0], fmt::format("{}{:0{}}", prefix, numbers[0], width));
      continue;
    }
    std::string group;
    for (std::size_t i = 0; i < numbers.size();) {
      std::size_t j = i;
      while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
      if (!group.empty()) group += ',';
      group += fmt::format("{:0{}}", numbers[i], width);
      if (j > i) group += fmt::format("-{:0{}}", numbers[j], width);
      i = j + 1;
    }
    items.emplace_back(prefix, numbers[0], fmt::format("{}[{}]", prefix, group));
  }
  for (const auto& name : plain) items.emplace_back(name, -1, name);
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  std::string text;
  for (const auto& item : items) {
    if (!text.empty()) text += ',';
    text += std::get<2>(item);
  }
  return text;
}

}  // namespace mapsim
