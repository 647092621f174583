#include "topologies/GridTopology.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"

namespace mapsim::topo {
namespace {

NodeId product(const std::vector<int>& extents) {
  return std::accumulate(extents.begin(), extents.end(), NodeId{1}, std::multiplies<>());
}

/// Ordered-pair histogram of per-dimension distances for one dimension of extent k, in O(k): on
/// a line, distance h >= 1 separates 2 (k - h) ordered pairs; on a ring, each of the k offsets
/// d = 1 .. k - 1 joins k ordered pairs at distance min(d, k - d).
std::vector<std::uint64_t> dimension_histogram(int k, bool torus) {
  const auto n = static_cast<std::uint64_t>(k);
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(torus ? k / 2 + 1 : k), 0);
  counts[0] = n;
  for (std::size_t h = 1; h < counts.size(); ++h) {
    if (!torus) {
      counts[h] = 2 * (n - h);
    } else {
      counts[h] = 2 * h == n ? n : 2 * n;  // half the ring: one offset, not two
    }
  }
  return counts;
}

std::vector<bool> all(std::size_t n, bool value) {
  return std::vector<bool>(n, value);
}

}  // namespace

GridTopology::GridTopology(std::vector<int> extents, bool torus, int cores_per_node)
    : GridTopology(extents, all(extents.size(), torus), cores_per_node) {}

GridTopology::GridTopology(std::vector<int> extents, std::vector<bool> periodic, int cores_per_node)
    : Topology(extents, product(extents), cores_per_node),
      torus_(std::find(periodic.begin(), periodic.end(), true) != periodic.end()),
      periodic_(std::move(periodic)),
      ndims_(static_cast<int>(extents.size())) {
  MAPSIM_EXPECTS(ndims_ >= 1 && ndims_ <= 16, "grid dimensions checked by the spec parser");
  MAPSIM_EXPECTS(periodic_.size() == extents.size(), "one wrap-around flag per dimension");
  const auto n = static_cast<std::size_t>(node_count());
  const auto nd = static_cast<std::size_t>(ndims_);

  coords_.resize(n * nd);
  for (std::size_t node = 0; node < n; ++node) {
    std::size_t rest = node;
    for (std::size_t d = 0; d < nd; ++d) {
      coords_[node * nd + d] = static_cast<std::int32_t>(rest % extents[d]);
      rest /= extents[d];
    }
  }

  for (int d = 0; d < ndims_; ++d) {
    const int k = extents[static_cast<std::size_t>(d)];
    step_base_.push_back(static_cast<int>(steps_.size()) + k - 1);
    int longest = 0;
    for (int delta = -(k - 1); delta <= k - 1; ++delta) {
      int steps = delta;
      if (periodic_[static_cast<std::size_t>(d)]) {
        const int forward = (delta + k) % k;
        steps = 2 * forward <= k ? forward : forward - k;  // a tie goes the positive way
      }
      steps_.push_back(steps);
      hops_.push_back(std::abs(steps));
      longest = std::max(longest, std::abs(steps));
    }
    max_route_links_ += longest;
  }

  ports_.assign(n * nd * 2, -1);
  for (std::size_t node = 0; node < n; ++node) {
    std::size_t stride = 1;
    for (std::size_t d = 0; d < nd; ++d) {
      const int k = extents[d];
      const int c = coords_[node * nd + d];
      for (int minus = 0; minus < 2; ++minus) {
        int next = c + (minus ? -1 : 1);
        const bool wraps = periodic_[d];
        if (wraps && k >= 2) next = (next + k) % k;
        if (next < 0 || next >= k) continue;
        const std::size_t port = (node * nd + d) * 2 + static_cast<std::size_t>(minus);
        if (minus && wraps && k == 2) {  // both directions reach the same neighbour: one link
          ports_[port] = ports_[port - 1];
          continue;
        }
        const auto to = static_cast<VertexId>(node + (static_cast<std::ptrdiff_t>(next) - c) *
                                                         static_cast<std::ptrdiff_t>(stride));
        ports_[port] = static_cast<LinkId>(links_.size());
        links_.push_back({static_cast<VertexId>(node), to, LinkClass::Grid});
      }
      stride *= static_cast<std::size_t>(k);
    }
  }
}

std::string GridTopology::machine_spec() const {
  std::string text = fmt::format("{}:{}", kind(), fmt::join(dimensions(), "x"));
  if (cores_per_node() > 1) text += fmt::format(":cores={}", cores_per_node());
  if (torus_) {
    std::vector<std::string_view> open;
    for (int d = 0; d < ndims_; ++d) {
      if (!is_torus(d)) open.push_back(dimension_name(d));
    }
    if (!open.empty())
      text += fmt::format(" (a block: no wrap-around in {})", fmt::join(open, ", "));
  }
  return text;
}

std::string_view GridTopology::dimension_name(int dim) const {
  static constexpr std::array<std::string_view, 16> kNames{"x",   "y",   "z",   "w",  "d4",  "d5",
                                                           "d6",  "d7",  "d8",  "d9", "d10", "d11",
                                                           "d12", "d13", "d14", "d15"};
  return kNames[static_cast<std::size_t>(dim)];
}

std::vector<NodeLevel> GridTopology::levels() const {
  static constexpr std::array<std::string_view, 3> kShapes{"line", "plane", "block"};
  std::vector<NodeLevel> result;
  std::string names;
  NodeId size = 1;  // nodes per group: k0 ... k(k-1)
  for (int k = 1; k < ndims_; ++k) {
    names += dimension_name(k - 1);
    const NodeId extent = dimensions()[static_cast<std::size_t>(k - 1)];
    size *= extent;
    if (extent == 1 || size == node_count()) continue;
    NodeLevel level;
    level.name = fmt::format("{} {}", names, kShapes[static_cast<std::size_t>(std::min(k, 3) - 1)]);
    level.groups = node_count() / size;
    level.group.resize(static_cast<std::size_t>(node_count()));
    for (NodeId n = 0; n < node_count(); ++n) level.group[static_cast<std::size_t>(n)] = n / size;
    result.push_back(std::move(level));
  }
  return result;
}

std::vector<int> GridTopology::coordinates(NodeId node) const {
  const auto* c = &coords_[static_cast<std::size_t>(node) * ndims_];
  return {c, c + ndims_};
}

NodeId GridTopology::node_at(std::span<const int> coords) const {
  if (static_cast<int>(coords.size()) != ndims_) {
    throw InputError(
        fmt::format("{} has {} coordinates per node, got {}", spec(), ndims_, coords.size()));
  }
  NodeId node = 0;
  NodeId stride = 1;
  for (int d = 0; d < ndims_; ++d) {
    const int k = dimensions()[static_cast<std::size_t>(d)];
    const int c = coords[static_cast<std::size_t>(d)];
    if (c < 0 || c >= k) {
      throw InputError(fmt::format("coordinate {} = {} is outside {} (0 to {})", dimension_name(d),
                                   c, spec(), k - 1));
    }
    node += c * stride;
    stride *= k;
  }
  return node;
}

void GridTopology::route_into(NodeId a, NodeId b, std::vector<LinkId>& path) const {
  path.clear();
  const auto nd = static_cast<std::size_t>(ndims_);
  const std::int32_t* ca = &coords_[static_cast<std::size_t>(a) * nd];
  const std::int32_t* cb = &coords_[static_cast<std::size_t>(b) * nd];
  auto at = static_cast<std::size_t>(a);
  for (std::size_t d = 0; d < nd; ++d) {
    const int steps = steps_[static_cast<std::size_t>(step_base_[d] + cb[d] - ca[d])];
    const std::size_t minus = steps < 0 ? 1 : 0;
    for (int s = std::abs(steps); s > 0; --s) {
      const LinkId id = ports_[(at * nd + d) * 2 + minus];
      path.push_back(id);
      at = static_cast<std::size_t>(links_[static_cast<std::size_t>(id)].to);
    }
  }
}

HopHistogram GridTopology::hop_histogram() const {
  // The hops of a pair are the sum of independent per-dimension distances, so the histogram over
  // all ordered pairs is the convolution of the per-dimension histograms.
  std::vector<std::uint64_t> counts{1};
  for (int d = 0; d < ndims_; ++d) {
    const auto dim = dimension_histogram(dimensions()[static_cast<std::size_t>(d)], is_torus(d));
    std::vector<std::uint64_t> next(counts.size() + dim.size() - 1, 0);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      for (std::size_t j = 0; j < dim.size(); ++j) next[i + j] += counts[i] * dim[j];
    }
    counts = std::move(next);
  }
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  return HopHistogram{std::move(counts)};
}

}  // namespace mapsim::topo

namespace mapsim::topo {

std::optional<BlockStats> GridTopology::block_stats(std::span<const int> extents) const {
  MAPSIM_EXPECTS(static_cast<int>(extents.size()) == ndims_, "one block extent per dimension");
  double volume = 1;
  for (const int e : extents) volume *= e;
  BlockStats stats;
  for (int d = 0; d < ndims_; ++d) {
    const int k = dimensions()[static_cast<std::size_t>(d)];
    const int e = extents[static_cast<std::size_t>(d)];
    MAPSIM_EXPECTS(e >= 1 && e <= k, "a block extent lies between 1 and the dimension's");
    const bool wraps = is_torus(d) && e == k;
    // A cut ring of more than half plus one node: some shortest ways go round outside.
    if (is_torus(d) && !wraps && e > k / 2 + 1) return std::nullopt;
    stats.diameter += wraps ? k / 2 : e - 1;
    // Sum of per-dimension distances over ordered pairs of coordinates: k floor(k^2 / 4) on a
    // ring, (e^3 - e) / 3 on a line; each pair of coordinates stands for (volume / e)^2 pairs.
    const double line =
        wraps ? static_cast<double>(k) * static_cast<double>((std::int64_t{k} * k) / 4)
              : (static_cast<double>(e) * e * e - e) / 3;
    const double others = volume / e;
    stats.total_hops += line * others * others;
  }
  return stats;
}

std::unique_ptr<Topology> GridTopology::block(std::span<const int> extents) const {
  MAPSIM_EXPECTS(block_stats(extents).has_value(), "a block that is a machine of its own");
  std::vector<bool> periodic(extents.size());
  for (int d = 0; d < ndims_; ++d) {
    periodic[static_cast<std::size_t>(d)] =
        is_torus(d) &&
        extents[static_cast<std::size_t>(d)] == dimensions()[static_cast<std::size_t>(d)];
  }
  return std::make_unique<GridTopology>(std::vector<int>(extents.begin(), extents.end()),
                                        std::move(periodic), cores_per_node());
}

}  // namespace mapsim::topo
