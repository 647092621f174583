#pragma once
// Communication matrix: messages and bytes sent from each rank to each other rank, sparse (CSR).
// Built from a trace (point-to-point by default) or read from CSV `src,dst,messages,bytes`.

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "support/Ids.hpp"

namespace mapsim::traces {

/// What one rank sent to another.
struct Traffic {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;

  friend bool operator==(const Traffic&, const Traffic&) = default;
};

class CommMatrix {
 public:
  /// An empty matrix of `ranks` ranks.
  explicit CommMatrix(Rank ranks = 0);

  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(row_start_.size() - 1); }
  /// Number of ordered pairs (src, dst) with at least one message.
  [[nodiscard]] std::size_t nonzero_count() const { return destinations_.size(); }

  /// The ranks `src` sends to, in increasing order, and what it sends to each (same order).
  [[nodiscard]] std::span<const Rank> destinations(Rank src) const {
    return {destinations_.data() + row_start_[static_cast<std::size_t>(src)], row_size(src)};
  }
  [[nodiscard]] std::span<const Traffic> traffic(Rank src) const {
    return {traffic_.data() + row_start_[static_cast<std::size_t>(src)], row_size(src)};
  }
  /// What `src` sends to `dst` (zero if nothing); O(log degree).
  [[nodiscard]] Traffic at(Rank src, Rank dst) const;
  [[nodiscard]] Traffic total() const;

  friend bool operator==(const CommMatrix&, const CommMatrix&) = default;

 private:
  friend class CommMatrixBuilder;
  [[nodiscard]] std::size_t row_size(Rank src) const {
    const auto s = static_cast<std::size_t>(src);
    return row_start_[s + 1] - row_start_[s];
  }

  std::vector<std::size_t> row_start_;  // rank_count() + 1 offsets into the arrays below
  std::vector<Rank> destinations_;
  std::vector<Traffic> traffic_;
};

/// Accumulates traffic pair by pair, in any order, then builds the CSR matrix.
class CommMatrixBuilder {
 public:
  explicit CommMatrixBuilder(Rank ranks);

  /// Adds traffic from src to dst (summed with what is there). Preconditions: ranks in range.
  void add(Rank src, Rank dst, std::uint64_t messages, std::uint64_t bytes);
  [[nodiscard]] Rank rank_count() const { return static_cast<Rank>(rows_.size()); }

  [[nodiscard]] CommMatrix build() const;

 private:
  // Per source, (dst, traffic) in insertion order with the last hit remembered: traces send to a
  // few partners over and over, so a short scan from the last hit is faster than hashing.
  struct Row {
    std::vector<std::pair<Rank, Traffic>> entries;
    std::size_t last = 0;
  };
  std::vector<Row> rows_;
};

/// Reads a CSV matrix: optional '#' comment lines (a `# ranks=N` comment fixes the rank count),
/// the header `src,dst,messages,bytes`, then one row per ordered pair. The rank count is N if
/// given, else `ranks` if given, else the largest rank + 1. Throws InputError naming the file, the
/// line and the field for: a missing file, a missing or wrong header, a wrong number of fields,
/// a negative or non-numeric value, a rank out of range, bytes without messages, a duplicate pair.
/// Ranks must be below kMaxRanks.
CommMatrix read_matrix_csv(const std::filesystem::path& path, std::optional<Rank> ranks = {});
/// The same from a stream; `name` stands for the file in error messages.
CommMatrix read_matrix_csv(std::istream& in, std::string_view name, std::optional<Rank> ranks = {});

/// Writes `# ranks=N`, the header and one row per non-zero pair, in (src, dst) order.
void write_matrix_csv(const CommMatrix& matrix, const std::filesystem::path& path);

}  // namespace mapsim::traces
