#pragma once
// Where the flow model's progressive filling finds its bottleneck (sim/FlowModel.hpp): the first
// least value of an array of links' shares, a scan comparing each value by '<' and then '=='
// (+0 and -0 alike) would find, among values below infinity.
//
// first_least scans the whole array. LeastShare keeps the array in blocks of kBlock values with
// each block's least value, for components of many links, where a round changes a few shares
// and the scan would read them all:
//
//     least = the first block whose least equals the least of the blocks' leasts, then the first
//             value in that block equal to it
//
// which is the same index. set() keeps a block's least: a value below it becomes it; when the
// value that held it changes, the block is scanned again (shares only grow as the rounds fix
// flows, so that is the common case for the bottleneck's block alone). A round then reads
// size / kBlock leasts and one block instead of size values.

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace mapsim::sim {

/// The values' sizes are multiples of this (padded with infinity).
inline constexpr std::size_t kShareBlock = 8;

/// The first index of the least value below infinity in `values` (whose size is a multiple of
/// kShareBlock), or its size if there is none. x86-64 compares two values per instruction in four
/// independent running minima, so that the scan is not a chain of dependent comparisons.
[[nodiscard]] std::size_t first_least(std::span<const double> values);

class LeastShare {
 public:
  static constexpr std::size_t kBlock = 64;
  static constexpr double kNone = std::numeric_limits<double>::infinity();

  /// Takes `values` (any size; infinity for none), O(values.size()).
  void assign(std::span<const double> values);
  /// Sets value i (< the size given to assign).
  void set(std::size_t i, double value) {
    const double old = values_[i];
    values_[i] = value;
    double& least = leasts_[i / kBlock];
    if (value < least) {
      least = value;
    } else if (old == least && !(value == least)) {
      rescan(i / kBlock);
    }
  }
  /// The first index of the least value below infinity, or the size given to assign if there is
  /// none.
  [[nodiscard]] std::size_t least() const;
  [[nodiscard]] double value(std::size_t i) const { return values_[i]; }

 private:
  void rescan(std::size_t block);

  std::size_t size_ = 0;
  std::vector<double> values_;  // padded to whole blocks
  std::vector<double> leasts_;  // per block, padded to a multiple of kShareBlock
};

}  // namespace mapsim::sim
