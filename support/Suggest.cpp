#include "support/Suggest.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace mapsim {
namespace {

constexpr std::size_t kMaxPrefixMatches = 4;

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (lower(text[i]) != lower(prefix[i])) return false;
  }
  return true;
}

template <typename Names>
std::string suggestion(const Names& names) {
  if (names.empty()) return "";
  std::string text = names.size() == 1 ? "did you mean " : "did you mean one of ";
  for (std::size_t i = 0; i < names.size(); ++i)
    text += fmt::format("{}'{}'", i == 0 ? "" : ", ", names[i]);
  return text + "?";
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: the transposition looks two rows back.
  std::vector<std::size_t> before(b.size() + 1);
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string_view> closest(std::string_view given,
                                      std::span<const std::string_view> candidates) {
  std::vector<std::string_view> close;
  if (given.empty() || std::find(candidates.begin(), candidates.end(), given) != candidates.end())
    return close;
  const std::size_t limit = std::max<std::size_t>(1, (given.size() + 1) / 3);
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (const auto& candidate : candidates) {
    const auto distance = edit_distance(given, candidate);
    if (distance > limit || distance > best) continue;
    if (distance < best) close.clear();
    best = distance;
    close.push_back(candidate);
  }
  if (!close.empty()) return close;
  for (const auto& candidate : candidates) {
    if (candidate.size() > given.size() && starts_with(candidate, given)) {
      close.push_back(candidate);
      if (close.size() == kMaxPrefixMatches) break;
    }
  }
  return close;
}

std::vector<std::string_view> closest(std::string_view given,
                                      std::span<const std::string> candidates) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return closest(given, views);
}

std::string did_you_mean(std::string_view given, std::span<const std::string_view> candidates) {
  return suggestion(closest(given, candidates));
}

std::string did_you_mean(std::string_view given, std::span<const std::string> candidates) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return did_you_mean(given, views);
}

std::string format_suggestion(std::span<const std::string> names) {
  return suggestion(names);
}

std::string suggest_suffix(std::string_view given, std::span<const std::string_view> candidates) {
  auto text = did_you_mean(given, candidates);
  return text.empty() ? text : "; " + text;
}

std::string suggest_suffix(std::string_view given, std::span<const std::string> candidates) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return suggest_suffix(given, views);
}

}  // namespace mapsim
