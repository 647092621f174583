#include "traces/CommMatrix.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include <fmt/format.h>
#include <fmt/os.h>

#include "support/Error.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"

namespace mapsim::traces {

CommMatrix::CommMatrix(Rank ranks) : ranks_(ranks), row_start_(1, 0) {}

Traffic CommMatrix::at(Rank src, Rank dst) const {
  const auto row = destinations(src);
  const auto it = std::lower_bound(row.begin(), row.end(), dst);
  if (it == row.end() || *it != dst) return {};
  return traffic(src)[static_cast<std::size_t>(it - row.begin())];
}

Traffic CommMatrix::total() const {
  Traffic sum;
  for (const auto& t : traffic_) {
    sum.messages += t.messages;
    sum.bytes += t.bytes;
  }
  return sum;
}

CommMatrixBuilder::CommMatrixBuilder(Rank ranks) : ranks_(ranks) {}

void CommMatrixBuilder::add(Rank src, Rank dst, std::uint64_t messages, std::uint64_t bytes) {
  MAPSIM_EXPECTS(src >= 0 && src < rank_count() && dst >= 0 && dst < rank_count(),
                 "ranks are checked by the caller");
  // Both totals bound every entry, so no entry can wrap either.
  if (bytes > kMaxMatrixTotal - total_.bytes || messages > kMaxMatrixTotal - total_.messages) {
    throw InputError(fmt::format(
        "the communication matrix's total {} are too large (limit {}, the most mapsim sums "
        "exactly): adding {} messages of {} bytes from rank {} to rank {} to {} messages of {} "
        "bytes",
        bytes > kMaxMatrixTotal - total_.bytes ? "bytes" : "messages", kMaxMatrixTotal, messages,
        bytes, src, dst, total_.messages, total_.bytes));
  }
  total_.bytes += bytes;
  total_.messages += messages;
  const auto s = static_cast<std::size_t>(src);
  if (s >= rows_.size()) rows_.resize(s + 1);
  Row& row = rows_[s];
  const std::size_t n = row.entries.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = row.last + k < n ? row.last + k : row.last + k - n;
    if (row.entries[i].first == dst) {
      row.entries[i].second.messages += messages;
      row.entries[i].second.bytes += bytes;
      row.last = i;
      return;
    }
  }
  row.last = n;
  row.entries.push_back({dst, {messages, bytes}});
}

void CommMatrixBuilder::add_collective(Rank src, Rank dst, std::uint64_t messages,
                                       std::uint64_t bytes) {
  add(src, dst, messages, bytes);
  collectives_.messages += messages;
  collectives_.bytes += bytes;
}

void CommMatrixBuilder::count_as_collectives(Traffic part) {
  MAPSIM_EXPECTS(part.messages <= total_.messages - collectives_.messages &&
                     part.bytes <= total_.bytes - collectives_.bytes,
                 "a part of what was added");
  collectives_.messages += part.messages;
  collectives_.bytes += part.bytes;
}

CommMatrix CommMatrixBuilder::build() const {
  CommMatrix matrix(rank_count());
  matrix.collectives_ = collectives_;
  for (std::size_t src = 0; src < rows_.size(); ++src) {
    auto entries = rows_[src].entries;
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [dst, traffic] : entries) {
      if (traffic.messages == 0 && traffic.bytes == 0) continue;
      matrix.destinations_.push_back(dst);
      matrix.traffic_.push_back(traffic);
    }
    matrix.row_start_.push_back(matrix.destinations_.size());
  }
  // Rows end at the last non-empty one (one form per matrix, for operator==).
  auto& starts = matrix.row_start_;
  while (starts.size() > 1 && starts[starts.size() - 1] == starts[starts.size() - 2]) {
    starts.pop_back();
  }
  return matrix;
}

namespace {

constexpr std::string_view kHeader = "src,dst,messages,bytes";
constexpr std::string_view kFields[] = {"src", "dst", "messages", "bytes"};

}  // namespace

std::ifstream open_matrix_file(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(fmt::format("matrix file '{}' is a directory, not a file", path.string()));
  }
  std::ifstream in(path);
  if (!in) {
    throw InputError(
        fmt::format("cannot open matrix file '{}': {}", path.string(), std::strerror(errno)));
  }
  return in;
}

bool is_csv_matrix(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  const auto content = trim(line);
  if (content == kHeader) return true;
  if (!content.starts_with('#')) return false;
  return trim(content.substr(1)).starts_with("ranks=");
}

CommMatrix read_matrix_csv(const std::filesystem::path& path, std::optional<Rank> ranks) {
  std::ifstream in = open_matrix_file(path);
  return read_matrix_csv(in, path.string(), ranks);
}

CommMatrix read_matrix_csv(std::istream& in, std::string_view name, std::optional<Rank> ranks) {
  const auto where = [&](std::size_t line) { return fmt::format("{}:{}", name, line); };
  constexpr std::int64_t kMaxRank = kMaxCsvRanks - 1;
  constexpr auto kMaxCount = static_cast<std::int64_t>(std::numeric_limits<std::int64_t>::max());

  struct Row {
    Rank src, dst;
    Traffic traffic;
    std::size_t line;
  };
  std::vector<Row> rows;
  std::optional<Rank> declared;
  std::size_t declared_line = 0;
  std::string text;
  std::size_t line = 0;
  bool header = false;
  Traffic total;
  while (std::getline(in, text)) {
    ++line;
    // A UTF-8 byte-order mark, as spreadsheet programs write.
    if (line == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
    const auto content = trim(text);
    if (!header && (content.empty() || content.front() == '#')) {
      const auto comment = trim(content.substr(content.empty() ? 0 : 1));
      if (comment.starts_with("ranks=")) {
        // Twice would be last-one-wins without a word: refused.
        if (declared) {
          throw InputError(fmt::format("{}: '# ranks=' is given twice (first at line {})",
                                       where(line), declared_line));
        }
        declared = static_cast<Rank>(parse_integer(
            trim(comment.substr(6)), fmt::format("{}: ranks", where(line)), 1, kMaxRank + 1));
        declared_line = line;
      }
      continue;
    }
    if (!header) {
      if (content != kHeader) {
        throw InputError(
            fmt::format("{}: expected the header '{}', got '{}'", where(line), kHeader, content));
      }
      header = true;
      continue;
    }
    if (content.empty()) continue;
    std::int64_t values[4] = {};
    std::size_t field = 0;
    std::size_t start = 0;
    for (;; ++field) {
      const auto comma = content.find(',', start);
      if (field == 4) {
        throw InputError(fmt::format("{}: expected 4 fields {}, got more", where(line), kHeader));
      }
      const auto value =
          trim(content.substr(start, comma == std::string_view::npos ? comma : comma - start));
      values[field] =
          parse_integer(value, fmt::format("{}: field '{}'", where(line), kFields[field]), 0,
                        field < 2 ? kMaxRank : kMaxCount);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (field != 3) {
      throw InputError(
          fmt::format("{}: expected 4 fields {}, got {}", where(line), kHeader, field + 1));
    }
    if (values[2] == 0 && values[3] != 0) {
      throw InputError(fmt::format("{}: {} bytes from {} to {} but 0 messages", where(line),
                                   values[3], values[0], values[1]));
    }
    for (const auto& [sum, value, what] : {std::tuple{&total.messages, values[2], "messages"},
                                           std::tuple{&total.bytes, values[3], "bytes"}}) {
      const auto add = static_cast<std::uint64_t>(value);
      if (add > kMaxMatrixTotal - *sum) {
        throw InputError(fmt::format(
            "{}: the matrix's total {} are too large (limit {}, the most mapsim sums exactly): "
            "{} in the rows before and {} in this one",
            where(line), what, kMaxMatrixTotal, *sum, add));
      }
      *sum += add;
    }
    rows.push_back({static_cast<Rank>(values[0]),
                    static_cast<Rank>(values[1]),
                    {static_cast<std::uint64_t>(values[2]), static_cast<std::uint64_t>(values[3])},
                    line});
  }
  if (!header) {
    throw InputError(fmt::format(
        "{}: the header '{}' is missing (the file is empty or only comments)", name, kHeader));
  }

  Rank count = declared.value_or(ranks.value_or(0));
  if (declared && ranks && *declared != *ranks) {
    throw InputError(fmt::format("{}: the file declares ranks={} but {} ranks are expected", name,
                                 *declared, *ranks));
  }
  if (!declared && !ranks) {
    for (const auto& row : rows) count = std::max({count, row.src + 1, row.dst + 1});
  }
  std::map<std::pair<Rank, Rank>, std::size_t> seen;
  CommMatrixBuilder builder(count);
  for (const auto& row : rows) {
    for (const auto& [rank, field] : {std::pair{row.src, "src"}, std::pair{row.dst, "dst"}}) {
      if (rank >= count) {
        throw InputError(
            fmt::format("{}: field '{}': rank {} is out of range (the matrix has {} ranks)",
                        where(row.line), field, rank, count));
      }
    }
    const auto [it, fresh] = seen.emplace(std::pair{row.src, row.dst}, row.line);
    if (!fresh) {
      throw InputError(fmt::format("{}: duplicate pair {} -> {} (first on line {})",
                                   where(row.line), row.src, row.dst, it->second));
    }
    builder.add(row.src, row.dst, row.traffic.messages, row.traffic.bytes);
  }
  return builder.build();
}

void write_matrix_csv(const CommMatrix& matrix, const std::filesystem::path& path) {
  write_output(path, "matrix file", [&](std::ostream& out) { write_matrix_csv(matrix, out); });
}

void write_matrix_csv(const CommMatrix& matrix, std::ostream& out) {
  out << fmt::format("# ranks={}\n{}\n", matrix.rank_count(), kHeader);
  for (Rank src = 0; src < matrix.rank_count(); ++src) {
    const auto dsts = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      out << fmt::format("{},{},{},{}\n", src, dsts[k], traffic[k].messages, traffic[k].bytes);
    }
  }
}

}  // namespace mapsim::traces
