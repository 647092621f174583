#include "mappers/SpaceFillingCurves.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using Key = std::uint64_t;

int bits_for(int extent) {
  int b = 0;
  while ((1 << b) < extent) ++b;
  return b;
}

int trits_for(int extent) {
  int k = 0;
  for (std::int64_t p = 1; p < extent; p *= 3) ++k;
  return k;
}

// Skilling's AxesToTranspose: turns coordinates into the "transposed" Hilbert index, whose bits
// read level by level (X[0] most significant within a level) give the index.
Key hilbert_key(std::vector<std::uint32_t> x, int bits) {
  const auto n = x.size();
  if (bits == 0) return 0;
  const std::uint32_t top = 1u << (bits - 1);
  for (std::uint32_t q = top; q > 1; q >>= 1) {  // inverse undo
    const std::uint32_t p = q - 1;
    for (std::size_t i = 0; i < n; ++i) {
      if ((x[i] & q) != 0) {
        x[0] ^= p;
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (std::size_t i = 1; i < n; ++i) x[i] ^= x[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1) {
    if ((x[n - 1] & q) != 0) t ^= q - 1;
  }
  for (auto& xi : x) xi ^= t;
  Key key = 0;
  for (int level = bits - 1; level >= 0; --level) {
    for (std::size_t i = 0; i < n; ++i) key = key << 1 | ((x[i] >> level) & 1u);
  }
  return key;
}

Key morton_key(const std::vector<std::uint32_t>& x, int bits) {
  Key key = 0;
  for (int level = bits - 1; level >= 0; --level) {
    for (const auto xi : x) key = key << 1 | ((xi >> level) & 1u);
  }
  return key;
}

Key gray_key(const std::vector<std::uint32_t>& x, int bits) {
  // The rank of a code word in the reflected Gray sequence is its inverse Gray code.
  Key g = morton_key(x, bits);
  for (Key shift = g >> 1; shift != 0; shift >>= 1) g ^= shift;
  return g;
}

Key peano_key(const std::vector<std::uint32_t>& x, int trits) {
  const auto n = x.size();
  std::vector<std::uint32_t> power(static_cast<std::size_t>(trits) + 1, 1);
  for (int l = 1; l <= trits; ++l)
    power[static_cast<std::size_t>(l)] = power[static_cast<std::size_t>(l) - 1] * 3;
  std::vector<unsigned> own(n, 0);
  unsigned all = 0;
  Key key = 0;
  for (int level = trits - 1; level >= 0; --level) {
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned c = x[i] / power[static_cast<std::size_t>(level)] % 3;
      const unsigned digit = ((all - own[i]) & 1u) != 0 ? 2 - c : c;
      key = key * 3 + digit;
      all += digit;
      own[i] += digit;
    }
  }
  return key;
}

std::vector<std::int32_t> scan_order(std::span<const int> extents, std::int64_t cells) {
  // Mixed-radix reflected counting: the digit of dimension d runs backwards when the number
  // formed by the more significant digits (the count of completed snakes of dimension d) is odd.
  const auto n = extents.size();
  std::vector<std::int64_t> stride(n + 1, 1);
  for (std::size_t d = 0; d < n; ++d) stride[d + 1] = stride[d] * extents[d];
  std::vector<std::int32_t> order(static_cast<std::size_t>(cells));
  for (std::int64_t i = 0; i < cells; ++i) {
    std::int64_t cell = 0;
    for (std::size_t d = 0; d < n; ++d) {
      std::int64_t digit = i / stride[d] % extents[d];
      if ((i / stride[d + 1]) % 2 == 1) digit = extents[d] - 1 - digit;
      cell += digit * stride[d];
    }
    order[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(cell);
  }
  return order;
}

}  // namespace

std::string_view name(Curve curve) {
  switch (curve) {
    case Curve::Sweep:
      return "sweep";
    case Curve::Scan:
      return "scan";
    case Curve::Peano:
      return "peano";
    case Curve::Gray:
      return "gray";
    case Curve::Hilbert:
      return "hilbert";
  }
  return "?";
}

std::vector<std::int32_t> curve_order(std::span<const int> extents, Curve curve) {
  std::int64_t cells = 1;
  for (const int e : extents) cells *= e;
  if (curve == Curve::Sweep) {
    std::vector<std::int32_t> order(static_cast<std::size_t>(cells));
    std::iota(order.begin(), order.end(), 0);
    return order;
  }
  if (curve == Curve::Scan) return scan_order(extents, cells);

  // The dimensions that matter (extent > 1) and their strides in the cell id.
  std::vector<int> active_extent;
  std::vector<std::int64_t> active_stride;
  std::int64_t stride = 1;
  int side = 1;
  for (const int e : extents) {
    if (e > 1) {
      active_extent.push_back(e);
      active_stride.push_back(stride);
      side = std::max(side, e);
    }
    stride *= e;
  }
  const auto n = static_cast<int>(active_extent.size());
  const int digits = curve == Curve::Peano ? trits_for(side) : bits_for(side);
  const double key_bits = curve == Curve::Peano ? n * digits * 1.5849625007211562 : n * digits;
  if (key_bits > 63.99) {
    throw InputError(
        fmt::format("the {} curve cannot order a {} grid: it needs {:.0f}-bit keys "
                    "(at most 64)",
                    name(curve), fmt::join(extents, "x"), key_bits));
  }
  std::vector<std::pair<Key, std::int32_t>> keyed(static_cast<std::size_t>(cells));
  std::vector<std::uint32_t> x(static_cast<std::size_t>(n));
  for (std::int64_t cell = 0; cell < cells; ++cell) {
    for (int d = 0; d < n; ++d) {
      const auto k = static_cast<std::size_t>(d);
      x[k] = static_cast<std::uint32_t>(cell / active_stride[k] % active_extent[k]);
    }
    Key key = 0;
    switch (curve) {
      case Curve::Peano:
        key = peano_key(x, digits);
        break;
      case Curve::Gray:
        key = gray_key(x, digits);
        break;
      case Curve::Hilbert:
        key = hilbert_key(x, digits);
        break;
      case Curve::Sweep:
      case Curve::Scan:
        break;
    }
    keyed[static_cast<std::size_t>(cell)] = {key, static_cast<std::int32_t>(cell)};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::int32_t> order;
  order.reserve(keyed.size());
  for (const auto& [key, cell] : keyed) order.push_back(cell);
  return order;
}

}  // namespace mapsim::map
