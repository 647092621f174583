#pragma once
// Reading the flat JSON reports of `mapsim --format json` in tests: the values of one key, in
// order (parsed by hand: GCC 12 warns inside std::regex under the sanitizers).

#include <string>
#include <string_view>
#include <vector>

namespace mapsim::testing {

/// The values of `"key": value` in `json`, in order: strings without their quotes, numbers,
/// true/false and null as written.
inline std::vector<std::string> json_values(std::string_view json, std::string_view key) {
  std::vector<std::string> values;
  // Appended piece by piece: GCC 12 warns (-Wrestrict) on "\"" + std::string(key) inlined.
  std::string pattern(1, '"');
  pattern.append(key).append("\": ");
  for (auto at = json.find(pattern); at != std::string_view::npos;
       at = json.find(pattern, at + 1)) {
    auto begin = at + pattern.size();
    if (begin < json.size() && json[begin] == '"') {
      const auto end = json.find('"', begin + 1);
      values.emplace_back(json.substr(begin + 1, end - begin - 1));
      continue;
    }
    auto end = json.find_first_of(",}\n", begin);
    if (end == std::string_view::npos) end = json.size();
    values.emplace_back(json.substr(begin, end - begin));
  }
  return values;
}

}  // namespace mapsim::testing
