#pragma once
// Machine-readable reports of `map` and `simulate`: the effective settings once, then one record
// per result (a mapper, a mapping), as CSV or JSON. Every key names its unit (`_bytes`, `_s`,
// `_ps`, `_hops`) unless it is a count or a ratio.
//
//   CSV:  a header line, then one line per result with the settings repeated in every line, so
//         that files of several commands concatenate (after their headers) into one table.
//   JSON: {"settings": {...}, "results": [{...}, ...]}.

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

namespace mapsim::cli {

enum class ReportFormat : std::uint8_t { Text, Csv, Json };

/// "text", "csv" or "json"; throws InputError listing them, naming `what` ("--format").
ReportFormat report_format_from_name(std::string_view name, std::string_view what);

/// Keys with formatted values, in order.
class Record {
 public:
  struct Field {
    std::string key;
    std::string value;  ///< as written in CSV; in JSON a string if `text`, else a number
    bool text = false;
    bool null = false;  ///< no value: empty in CSV, null in JSON
  };

  Record& add(std::string_view key, std::string_view value) {
    fields_.push_back({std::string(key), std::string(value), true, false});
    return *this;
  }
  Record& add(std::string_view key, const char* value) { return add(key, std::string_view(value)); }
  Record& add(std::string_view key, const std::string& value) {
    return add(key, std::string_view(value));
  }
  template <typename T>
  requires std::is_arithmetic_v<T> Record& add(std::string_view key, T value) {
    if constexpr (std::is_same_v<T, bool>) {
      fields_.push_back({std::string(key), value ? "true" : "false", false, false});
    } else if constexpr (std::is_floating_point_v<T>) {
      const bool finite = value == value && value - value == 0;
      fields_.push_back({std::string(key), finite ? fmt::format("{}", value) : "", false, !finite});
    } else {
      fields_.push_back({std::string(key), fmt::format("{}", value), false, false});
    }
    return *this;
  }
  Record& add_null(std::string_view key) {
    fields_.push_back({std::string(key), "", false, true});
    return *this;
  }
  Record& append(const Record& other) {
    fields_.insert(fields_.end(), other.fields_.begin(), other.fields_.end());
    return *this;
  }

  [[nodiscard]] const std::vector<Field>& fields() const { return fields_; }

 private:
  std::vector<Field> fields_;
};

/// The settings' columns, then every key any row has (in the order first seen); a row without a
/// key leaves its field empty.
void write_csv(std::ostream& out, const Record& settings, std::span<const Record> rows);
void write_json(std::ostream& out, const Record& settings, std::span<const Record> rows);

/// The report in `format` (csv or json) to `out` in one write.
void print_report(std::FILE* out, ReportFormat format, const Record& settings,
                  std::span<const Record> rows);

}  // namespace mapsim::cli
