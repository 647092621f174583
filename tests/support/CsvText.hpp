#pragma once
// Reading machine-readable command output in tests: the cells of a CSV text (RFC 4180: a field
// may be quoted, with quotes inside doubled; no line breaks inside fields).

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

/// The fields of one CSV line, unquoted.
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

/// The value of `column` in data line `row` (0 = the first after the header).
inline std::string csv_cell(const std::string& csv, std::size_t row, const std::string& column) {
  const auto lines = split(csv, '\n');
  if (lines.size() < row + 2) return "<no row>";
  const auto header = csv_fields(lines[0]);
  const auto cells = csv_fields(lines[row + 1]);
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == column) return i < cells.size() ? cells[i] : "";
  }
  return "<no column " + column + ">";
}

}  // namespace mapsim::testing
