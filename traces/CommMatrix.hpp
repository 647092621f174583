#pragma once
// Communication matrix: messages and bytes sent from each rank to each other rank, sparse (CSR).
// Built from a trace (its point-to-point messages, and by default in every command its
// collectives' messages as the replay sends them) or read from CSV `src,dst,messages,bytes`. A
// matrix built from a trace also knows how much of its total the collectives make.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "support/Ids.hpp"

namespace mapsim::traces {

/// The most bytes, and the most messages, a matrix may hold in total: 2^63 - 1. Every sum over a
/// matrix (totals, per rank, per link) is then exact in 64 bits and fits a signed 64-bit integer
/// (and SQLite). Sums that multiply by hops have limits of their own (mappers/Metrics.hpp).
inline constexpr std::uint64_t kMaxMatrixTotal =
    std::uint64_t{std::numeric_limits<std::int64_t>::max()};

/// What one rank sent to another.
struct Traffic {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;

  friend bool operator==(const Traffic&, const Traffic&) = default;
};

class CommMatrix {
 public:
  /// An empty matrix of `ranks` ranks (no memory per rank: rows are stored up to the last one
  /// that sends).
  explicit CommMatrix(Rank ranks = 0);

  [[nodiscard]] Rank rank_count() const { return ranks_; }
  /// Number of ordered pairs (src, dst) with at least one message.
  [[nodiscard]] std::size_t nonzero_count() const { return destinations_.size(); }

  /// The ranks `src` sends to, in increasing order, and what it sends to each (same order).
  [[nodiscard]] std::span<const Rank> destinations(Rank src) const {
    const auto [first, size] = row(src);
    return {destinations_.data() + first, size};
  }
  [[nodiscard]] std::span<const Traffic> traffic(Rank src) const {
    const auto [first, size] = row(src);
    return {traffic_.data() + first, size};
  }
  /// What `src` sends to `dst` (zero if nothing); O(log degree).
  [[nodiscard]] Traffic at(Rank src, Rank dst) const;
  /// Sums of all entries, each at most kMaxMatrixTotal.
  [[nodiscard]] Traffic total() const;
  /// The part of total() that collectives' messages make (zero for a matrix of point-to-point
  /// messages, and for a CSV matrix, which does not say).
  [[nodiscard]] Traffic collective_total() const { return collectives_; }

  /// Equal entries (what the matrix holds, not how its total splits).
  friend bool operator==(const CommMatrix& a, const CommMatrix& b) {
    return a.ranks_ == b.ranks_ && a.row_start_ == b.row_start_ &&
           a.destinations_ == b.destinations_ && a.traffic_ == b.traffic_;
  }

 private:
  friend class CommMatrixBuilder;
  // First entry and size of the row of `src`; rows past the stored ones are empty.
  [[nodiscard]] std::pair<std::size_t, std::size_t> row(Rank src) const {
    const auto s = static_cast<std::size_t>(src);
    if (s + 1 >= row_start_.size()) return {0, 0};
    return {row_start_[s], row_start_[s + 1] - row_start_[s]};
  }

  Rank ranks_ = 0;
  // Offsets into the arrays below of rows 0 to the last non-empty one, and its end: a matrix's
  // memory grows with its entries and its highest sending rank, never with rank_count() alone.
  std::vector<std::size_t> row_start_;
  std::vector<Rank> destinations_;
  std::vector<Traffic> traffic_;
  Traffic collectives_;
};

/// Accumulates traffic pair by pair, in any order, then builds the CSR matrix.
class CommMatrixBuilder {
 public:
  explicit CommMatrixBuilder(Rank ranks);

  /// Adds traffic from src to dst (summed with what is there). Preconditions: ranks in range.
  /// Throws InputError if the matrix's total bytes or messages would pass kMaxMatrixTotal.
  void add(Rank src, Rank dst, std::uint64_t messages, std::uint64_t bytes);
  /// The same for a message of a collective (counted in the matrix's collective_total()).
  void add_collective(Rank src, Rank dst, std::uint64_t messages, std::uint64_t bytes);
  /// Counts `part` of what was added as collectives' messages, for totals known another way
  /// (an extrapolated matrix). Precondition: part is at most what was added.
  void count_as_collectives(Traffic part);
  [[nodiscard]] Rank rank_count() const { return ranks_; }

  [[nodiscard]] CommMatrix build() const;

 private:
  // Per source, (dst, traffic) in insertion order with the last hit remembered: traces send to a
  // few partners over and over, so a short scan from the last hit is faster than hashing.
  struct Row {
    std::vector<std::pair<Rank, Traffic>> entries;
    std::size_t last = 0;
  };
  Rank ranks_ = 0;
  std::vector<Row> rows_;  // up to the highest source added so far
  Traffic total_;
  Traffic collectives_;
};

/// The most ranks a CSV matrix may have: 2^20, as many as a generated workload. Per-rank tables
/// (statistics, mappings) grow with the rank count, so a three-line file declaring millions of
/// ranks is refused rather than allowed to allocate gigabytes.
inline constexpr Rank kMaxCsvRanks = Rank{1} << 20;

/// Opens a matrix file (of any kind) for reading; throws InputError naming it if it is a
/// directory or cannot be opened.
std::ifstream open_matrix_file(const std::filesystem::path& path);

/// True if the file at `path` starts as a CSV matrix does (after an optional UTF-8 byte-order
/// mark, a `# ranks=N` comment or the header `src,dst,messages,bytes`); false if it cannot be
/// read. (A recorded matrix: is_recorded_matrix, traces/RecordedMatrix.hpp.)
bool is_csv_matrix(const std::filesystem::path& path);

/// Reads a CSV matrix: optional '#' comment lines (a `# ranks=N` comment fixes the rank count),
/// the header `src,dst,messages,bytes`, then one row per ordered pair. The rank count is N if
/// given, else `ranks` if given, else the largest rank + 1. Throws InputError naming the file, the
/// line and the field for: a missing file, a missing or wrong header, a wrong number of fields,
/// a negative or non-numeric value, a rank out of range, bytes without messages, a duplicate pair,
/// totals past kMaxMatrixTotal. The rank count (declared or implied) is at most kMaxCsvRanks. A
/// UTF-8 byte-order mark is skipped. Memory grows with the rows given, not with the rank count.
CommMatrix read_matrix_csv(const std::filesystem::path& path, std::optional<Rank> ranks = {});
/// The same from a stream; `name` stands for the file in error messages.
CommMatrix read_matrix_csv(std::istream& in, std::string_view name, std::optional<Rank> ranks = {});

/// Writes `# ranks=N`, the header and one row per non-zero pair, in (src, dst) order; to a file
/// all or nothing (support/OutputFile.hpp).
void write_matrix_csv(const CommMatrix& matrix, const std::filesystem::path& path);
/// The same to a stream.
void write_matrix_csv(const CommMatrix& matrix, std::ostream& out);

}  // namespace mapsim::traces
