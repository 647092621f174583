#pragma once
// Reading machine-readable command output in tests: the cells of a CSV text without quoted
// fields.

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace mapsim::testing {

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, separator)) out.push_back(item);
  return out;
}

/// The value of `column` in data line `row` (0 = the first after the header).
inline std::string csv_cell(const std::string& csv, std::size_t row, const std::string& column) {
  const auto lines = split(csv, '\n');
  if (lines.size() < row + 2) return "<no row>";
  const auto header = split(lines[0], ',');
  const auto cells = split(lines[row + 1], ',');
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == column) return i < cells.size() ? cells[i] : "";
  }
  return "<no column " + column + ">";
}

}  // namespace mapsim::testing
