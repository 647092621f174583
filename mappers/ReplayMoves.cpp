#include "mappers/ReplayMoves.hpp"

#include <algorithm>
#include <numeric>

#include "support/Error.hpp"

namespace mapsim::map::replay {

void WeightedPairs::add(Rank a, Rank b, std::uint64_t bytes) {
  if (bytes == 0) return;
  pairs_.emplace_back(a, b);
  cumulative_.push_back((cumulative_.empty() ? 0 : cumulative_.back()) + bytes);
}

std::optional<std::pair<Rank, Rank>> WeightedPairs::draw(Random& random) const {
  if (pairs_.empty()) return std::nullopt;
  const auto x = random.below(cumulative_.back());
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), x);
  return pairs_[static_cast<std::size_t>(it - cumulative_.begin())];
}

Traffic::Traffic(const CommGraph& graph)
    : heaviest(static_cast<std::size_t>(graph.rank_count()), -1) {
  for (Rank i = 0; i < graph.rank_count(); ++i) {
    std::uint64_t most = 0;
    for (const auto& n : graph.neighbors(i)) {
      if (n.bytes() > most) {
        most = n.bytes();
        heaviest[static_cast<std::size_t>(i)] = n.rank;
      }
      if (i < n.rank) pairs.add(i, n.rank, n.bytes());
    }
  }
}

WeightedPairs pairs_on_busiest_links(const CommGraph& graph, const topo::Topology& topology,
                                     const topo::Mapping& mapping, const Judgement& judgement,
                                     std::size_t top) {
  std::vector<topo::LinkId> links(judgement.link_busy.size());
  std::iota(links.begin(), links.end(), topo::LinkId{0});
  top = std::min(top, links.size());
  std::partial_sort(links.begin(), links.begin() + static_cast<std::ptrdiff_t>(top), links.end(),
                    [&](topo::LinkId a, topo::LinkId b) {
                      const auto ba = judgement.link_busy[static_cast<std::size_t>(a)];
                      const auto bb = judgement.link_busy[static_cast<std::size_t>(b)];
                      return ba != bb ? ba > bb : a < b;
                    });
  std::vector<bool> hot(judgement.link_busy.size());
  for (std::size_t k = 0; k < top; ++k) {
    if (judgement.link_busy[static_cast<std::size_t>(links[k])] > 0)
      hot[static_cast<std::size_t>(links[k])] = true;
  }
  std::vector<topo::LinkId> route;
  const auto crosses = [&](topo::NodeId a, topo::NodeId b) {
    if (a == b) return false;
    route.clear();
    topology.route_into(a, b, route);
    return std::any_of(route.begin(), route.end(),
                       [&](topo::LinkId l) { return hot[static_cast<std::size_t>(l)]; });
  };
  WeightedPairs pairs;
  for (Rank i = 0; i < graph.rank_count(); ++i) {
    for (const auto& n : graph.neighbors(i)) {
      if (n.rank <= i) continue;
      const auto a = mapping.node(i);
      const auto b = mapping.node(n.rank);
      if (crosses(a, b) || crosses(b, a)) pairs.add(i, n.rank, n.bytes());
    }
  }
  return pairs;
}

Placement::Placement(const topo::Topology& topology, const topo::Mapping& mapping)
    : topology_(topology),
      nodes_(mapping.nodes().begin(), mapping.nodes().end()),
      cores_(topo::cores_of(mapping)),
      named_cores_(!mapping.cores().empty()),
      ranks_on_(static_cast<std::size_t>(topology.node_count())) {
  for (Rank r = 0; r < static_cast<Rank>(nodes_.size()); ++r)
    ranks_on_[static_cast<std::size_t>(nodes_[static_cast<std::size_t>(r)])].push_back(r);
  if (topology.allocation().empty()) {
    usable_.resize(static_cast<std::size_t>(topology.node_count()));
    std::iota(usable_.begin(), usable_.end(), topo::NodeId{0});
  } else {
    usable_.assign(topology.allocation().begin(), topology.allocation().end());
  }
}

std::optional<topo::Mapping> Placement::moved_near(Rank a, topo::NodeId target,
                                                   Random& random) const {
  struct Option {
    topo::NodeId node;
    Rank partner;  ///< -1: a free core
  };
  std::vector<Option> options;
  const auto from = node(a);
  for (const auto n : usable_) {
    if (n == from || topology_.hops(target, n) > 1) continue;
    for (const auto r : ranks_on_[static_cast<std::size_t>(n)]) options.push_back({n, r});
    if (static_cast<int>(ranks_on_[static_cast<std::size_t>(n)].size()) <
        topology_.cores_per_node())
      options.push_back({n, -1});
  }
  if (options.empty()) return std::nullopt;
  const auto& pick = options[random.below(options.size())];
  auto nodes = nodes_;
  auto cores = cores_;
  const auto sa = static_cast<std::size_t>(a);
  if (pick.partner >= 0) {
    const auto sb = static_cast<std::size_t>(pick.partner);
    std::swap(nodes[sa], nodes[sb]);
    std::swap(cores[sa], cores[sb]);
  } else {
    nodes[sa] = pick.node;
    cores[sa] = free_core(pick.node);
  }
  if (!named_cores_) return topo::Mapping(std::move(nodes));
  return topo::Mapping(std::move(nodes), std::move(cores));
}

std::int32_t Placement::free_core(topo::NodeId n) const {
  std::vector<bool> taken(static_cast<std::size_t>(topology_.cores_per_node()));
  for (const auto r : ranks_on_[static_cast<std::size_t>(n)])
    taken[static_cast<std::size_t>(cores_[static_cast<std::size_t>(r)])] = true;
  const auto it = std::find(taken.begin(), taken.end(), false);
  return static_cast<std::int32_t>(it - taken.begin());
}

std::vector<topo::Mapping> symmetric_variants(const topo::Topology& topology,
                                              const topo::Mapping& mapping) {
  std::vector<topo::Mapping> variants;
  if (!topology.has_grid()) return variants;
  const auto extents = topology.dimensions();
  const int dims = static_cast<int>(extents.size());
  for (int d = 0; d < dims; ++d) {
    for (const bool rotate : {false, true}) {
      if (rotate && !topology.is_torus(d)) continue;
      const int extent = extents[static_cast<std::size_t>(d)];
      if (extent < 2) continue;
      std::vector<topo::NodeId> nodes;
      nodes.reserve(mapping.nodes().size());
      for (const auto n : mapping.nodes()) {
        auto coords = topology.coordinates(n);
        auto& c = coords[static_cast<std::size_t>(d)];
        c = rotate ? (c + 1) % extent : extent - 1 - c;
        nodes.push_back(topology.node_at(coords));
      }
      topo::Mapping variant =
          mapping.cores().empty()
              ? topo::Mapping(std::move(nodes))
              : topo::Mapping(std::move(nodes), {mapping.cores().begin(), mapping.cores().end()});
      try {
        topo::validate(variant, topology);
      } catch (const InputError&) {
        continue;
      }
      variants.push_back(std::move(variant));
    }
  }
  return variants;
}

std::optional<topo::Mapping> reflected_block(const topo::Topology& topology,
                                             const topo::Mapping& mapping, Random& random) {
  if (!topology.has_grid()) return std::nullopt;
  const auto extents = topology.dimensions();
  const auto dims = extents.size();
  const auto d = static_cast<std::size_t>(random.below(dims));
  if (extents[d] < 2) return std::nullopt;
  std::vector<int> low(dims);
  std::vector<int> size(dims);
  for (std::size_t k = 0; k < dims; ++k) {
    const int min = k == d ? 2 : 1;
    size[k] =
        min + static_cast<int>(random.below(static_cast<std::uint64_t>(extents[k] - min + 1)));
    low[k] = static_cast<int>(random.below(static_cast<std::uint64_t>(extents[k] - size[k] + 1)));
  }
  std::vector<topo::NodeId> nodes(mapping.nodes().begin(), mapping.nodes().end());
  bool moved = false;
  for (auto& n : nodes) {
    auto c = topology.coordinates(n);
    bool inside = true;
    for (std::size_t k = 0; k < dims && inside; ++k)
      inside = c[k] >= low[k] && c[k] < low[k] + size[k];
    if (!inside) continue;
    c[d] = 2 * low[d] + size[d] - 1 - c[d];
    const auto to = topology.node_at(c);
    moved = moved || to != n;
    n = to;
  }
  if (!moved) return std::nullopt;
  topo::Mapping variant =
      mapping.cores().empty()
          ? topo::Mapping(std::move(nodes))
          : topo::Mapping(std::move(nodes), {mapping.cores().begin(), mapping.cores().end()});
  try {
    topo::validate(variant, topology);
  } catch (const InputError&) {
    return std::nullopt;
  }
  return variant;
}

}  // namespace mapsim::map::replay
