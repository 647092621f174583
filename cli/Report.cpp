#include "cli/Report.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"

namespace mapsim::cli {
namespace {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_value(const Record::Field& field) {
  if (field.null) return "null";
  return field.text ? json_string(field.value) : field.value;
}

void write_object(std::ostream& out, const Record& record, std::string_view indent) {
  fmt::print(out, "{{");
  bool first = true;
  for (const auto& field : record.fields()) {
    fmt::print(out, "{}\n{}  {}: {}", first ? "" : ",", indent, json_string(field.key),
               json_value(field));
    first = false;
  }
  fmt::print(out, "{}}}", first ? "" : fmt::format("\n{}", indent));
}

}  // namespace

ReportFormat report_format_from_name(std::string_view name, std::string_view what) {
  if (name == "text") return ReportFormat::Text;
  if (name == "csv") return ReportFormat::Csv;
  if (name == "json") return ReportFormat::Json;
  throw InputError(
      fmt::format("{} '{}': unknown report format; valid: text, csv, json", what, name));
}

void write_csv(std::ostream& out, const Record& settings, std::span<const Record> rows) {
  std::vector<std::string> keys;
  const auto note = [&](const Record& record) {
    for (const auto& field : record.fields()) {
      if (std::find(keys.begin(), keys.end(), field.key) == keys.end()) keys.push_back(field.key);
    }
  };
  note(settings);
  for (const auto& row : rows) note(row);
  std::vector<std::string> line;
  for (const auto& key : keys) line.push_back(csv_field(key));
  fmt::print(out, "{}\n", fmt::join(line, ","));
  for (const auto& row : rows) {
    line.clear();
    for (const auto& key : keys) {
      const auto match = [&](const Record::Field& f) { return f.key == key; };
      auto it = std::find_if(row.fields().begin(), row.fields().end(), match);
      if (it == row.fields().end()) {
        it = std::find_if(settings.fields().begin(), settings.fields().end(), match);
        if (it == settings.fields().end()) {
          line.emplace_back();
          continue;
        }
      }
      line.push_back(csv_field(it->value));
    }
    fmt::print(out, "{}\n", fmt::join(line, ","));
  }
}

void write_json(std::ostream& out, const Record& settings, std::span<const Record> rows) {
  fmt::print(out, "{{\n  \"settings\": ");
  write_object(out, settings, "  ");
  fmt::print(out, ",\n  \"results\": [");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    fmt::print(out, "{}\n    ", i == 0 ? "" : ",");
    write_object(out, rows[i], "    ");
  }
  fmt::print(out, "{}]\n}}\n", rows.empty() ? "" : "\n  ");
}

void print_report(std::FILE* out, ReportFormat format, const Record& settings,
                  std::span<const Record> rows) {
  std::ostringstream text;
  if (format == ReportFormat::Csv) {
    write_csv(text, settings, rows);
  } else {
    write_json(text, settings, rows);
  }
  fmt::print(out, "{}", text.str());
}

}  // namespace mapsim::cli
