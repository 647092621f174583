#include "mappers/ScotchSupport.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "mappers/Hierarchy.hpp"
#include "mappers/MachineView.hpp"
#include "support/Error.hpp"

namespace mapsim::map::scotch {
namespace {

std::mutex& scotch_mutex() {
  static std::mutex mutex;
  return mutex;
}

void check(int status, const char* call) {
  MAPSIM_EXPECTS(status == 0, fmt::format("libscotch: {} failed", call));
}

// Scotch sums edge weights (and weight x distance) in 32 bits: keep the total near 2^24.
constexpr std::uint64_t kWeightBudget = std::uint64_t{1} << 24;

// Up to this many nodes a decomposition-defined target stores exact distances between all its
// domains (quadratic memory: 32 MB at 2048); above, Scotch's multilevel variant estimates them.
constexpr std::size_t kExactDecompositionNodes = 2048;

// Scotch's mesh and torus architectures take at most this many dimensions (ARCHMESHDIMMAX).
constexpr int kMaxMeshDimensions = 5;

}  // namespace

std::unique_lock<std::mutex> lock() {
  return std::unique_lock<std::mutex>(scotch_mutex());
}

Context::Context(Seed seed) {
  check(SCOTCH_contextInit(&context_), "SCOTCH_contextInit");
  check(SCOTCH_contextOptionSetNum(&context_, SCOTCH_OPTIONNUMDETERMINISTIC, 1),
        "SCOTCH_contextOptionSetNum");
  check(SCOTCH_contextThreadSpawn(&context_, 1, nullptr), "SCOTCH_contextThreadSpawn");
  check(SCOTCH_contextRandomClone(&context_), "SCOTCH_contextRandomClone");
  SCOTCH_contextRandomSeed(&context_, static_cast<Num>((seed ^ (seed >> 31)) & 0x7FFFFFFF));
}

GraphData process_graph(const CommGraph& graph, std::span<const Rank> subset) {
  const auto ranks = static_cast<std::size_t>(graph.rank_count());
  std::vector<Rank> all;
  if (subset.empty()) {
    all.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r) all[r] = static_cast<Rank>(r);
    subset = all;
  }
  // Local index of each rank of the subset; a scratch table per thread, cleared after use.
  thread_local std::vector<Num> local;
  if (local.size() < ranks) local.assign(ranks, -1);
  for (std::size_t k = 0; k < subset.size(); ++k) {
    local[static_cast<std::size_t>(subset[k])] = static_cast<Num>(k);
  }
  GraphData data;
  data.start.reserve(subset.size() + 1);
  data.start.push_back(0);
  std::vector<std::uint64_t> bytes;
  // Every edge is counted on both of its arcs, so the sum may pass 2^64: a double is exact enough
  // for a scale factor.
  double total = 0;
  for (const Rank r : subset) {
    for (const auto& nb : graph.neighbors(r)) {
      const Num target = local[static_cast<std::size_t>(nb.rank)];
      if (target < 0) continue;
      data.targets.push_back(target);
      bytes.push_back(nb.bytes());
      total += static_cast<double>(nb.bytes());
    }
    data.start.push_back(static_cast<Num>(data.targets.size()));
  }
  for (const Rank r : subset) local[static_cast<std::size_t>(r)] = -1;
  // total / scale <= kWeightBudget, so each weight fits a Num; at most 2^41.
  const auto scale = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(total / static_cast<double>(kWeightBudget))));
  data.weights.reserve(bytes.size());
  for (const auto b : bytes) {
    // b / scale rounded half up, without the overflow of b + scale / 2 near 2^64.
    const std::uint64_t rounded = b / scale + (b % scale >= scale - scale / 2 ? 1 : 0);
    data.weights.push_back(static_cast<Num>(std::max<std::uint64_t>(1, rounded)));
  }
  return data;
}

Graph::~Graph() {
  if (bound_) SCOTCH_graphExit(&bound_graph_);
  SCOTCH_graphExit(&graph_);
}

Graph::Graph(const GraphData& data, Context* context) {
  check(SCOTCH_graphInit(&graph_), "SCOTCH_graphInit");
  const Num n = data.vertex_count();
  const Num arcs = static_cast<Num>(data.targets.size());
  check(SCOTCH_graphBuild(&graph_, 0, n, data.start.data(), nullptr,
                          data.loads.empty() ? nullptr : data.loads.data(), nullptr, arcs,
                          arcs == 0 ? nullptr : data.targets.data(),
                          data.weights.empty() || arcs == 0 ? nullptr : data.weights.data()),
        "SCOTCH_graphBuild");
  if (context != nullptr) {
    check(SCOTCH_graphInit(&bound_graph_), "SCOTCH_graphInit");
    bound_ = true;
    check(SCOTCH_contextBindGraph(context->get(), &graph_, &bound_graph_),
          "SCOTCH_contextBindGraph");
  }
}

Arch::Arch() {
  check(SCOTCH_archInit(&arch_), "SCOTCH_archInit");
}

namespace {

// The graph of every vertex and link (each pair once each way) with `topology`'s nodes as the
// terminals: decomposition-defined, exact up to kExactDecompositionNodes nodes.
void build_from_links(Arch& arch, const topo::Topology& topology, Context& context) {
  const auto vertices = static_cast<std::size_t>(topology.vertex_count());
  std::vector<std::vector<Num>> adjacency(vertices);
  for (topo::LinkId id = 0; id < topology.link_count(); ++id) {
    const auto link = topology.link(id);
    adjacency[static_cast<std::size_t>(link.from)].push_back(link.to);
  }
  GraphData data;
  data.start.push_back(0);
  for (auto& list : adjacency) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    data.targets.insert(data.targets.end(), list.begin(), list.end());
    data.start.push_back(static_cast<Num>(data.targets.size()));
  }
  Graph graph(data, &context);
  std::vector<Num> nodes(static_cast<std::size_t>(topology.node_count()));
  for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = static_cast<Num>(k);
  if (nodes.size() <= kExactDecompositionNodes) {
    // Decomposition-defined architecture with exact graph distances between all terminals.
    SCOTCH_Strat strategy;
    check(SCOTCH_stratInit(&strategy), "SCOTCH_stratInit");
    const int status = SCOTCH_archBuild0(arch.get(), graph.get(), static_cast<Num>(nodes.size()),
                                         nodes.data(), &strategy);
    SCOTCH_stratExit(&strategy);
    check(status, "SCOTCH_archBuild0");
  } else {
    // Multilevel decomposition (distances estimated), linear in memory.
    check(SCOTCH_archBuild2(arch.get(), graph.get(), static_cast<Num>(nodes.size()), nodes.data()),
          "SCOTCH_archBuild2");
  }
}

// A padded tree-leaf target may hold at most this many times the machine's nodes.
constexpr std::int64_t kTreePadding = 8;

// Pairs sampled per tree level to measure its distance.
constexpr std::int32_t kDistanceSamples = 64;

// A tree-leaf target of the machine's hierarchy: sizes from the root down, each level's width
// the most children any of its vertices has; `terminal` the leaf of every node (depth first).
// False if the padding would pass kTreePadding.
bool build_tree(Arch& arch, const topo::Topology& topology, std::vector<Num>& terminal) {
  const Hierarchy tree(topology);
  const int height = tree.height();
  std::vector<Num> arity(static_cast<std::size_t>(height) + 1, 1);  // by tree level t >= 1
  std::int64_t leaves = 1;
  for (int t = 1; t <= height; ++t) {
    Num widest = 1;
    for (std::int32_t v = 0; v < tree.width(t); ++v)
      widest = std::max(widest, static_cast<Num>(tree.children(t, v).size()));
    arity[static_cast<std::size_t>(t)] = widest;
    leaves *= widest;
    if (leaves > kTreePadding * topology.node_count()) return false;
  }
  // Each node's leaf: its place among its parent's children at every level, mixed radix.
  terminal.assign(static_cast<std::size_t>(topology.node_count()), 0);
  std::int64_t stride = 1;
  for (int t = 1; t <= height; ++t) {
    std::vector<Num> place(static_cast<std::size_t>(tree.width(t - 1)), 0);
    for (std::int32_t v = 0; v < tree.width(t); ++v) {
      const auto children = tree.children(t, v);
      for (std::size_t k = 0; k < children.size(); ++k)
        place[static_cast<std::size_t>(children[k])] = static_cast<Num>(k);
    }
    for (topo::NodeId n = 0; n < topology.node_count(); ++n) {
      terminal[static_cast<std::size_t>(n)] +=
          static_cast<Num>(stride * place[static_cast<std::size_t>(tree.group(t - 1, n))]);
    }
    stride *= arity[static_cast<std::size_t>(t)];
  }
  // The distance of each level: mean hops between nodes of different children of its vertices,
  // node j of child 0 and of child j, over vertices spread evenly; rounded, at least 1, and never
  // less than the level below.
  std::vector<Num> sizes;
  std::vector<Num> links;
  Num below = 1;
  std::vector<Num> distance(static_cast<std::size_t>(height) + 1, 1);
  for (int t = 1; t <= height; ++t) {
    const auto first_nodes = tree.members(t - 1);
    std::int64_t sum = 0;
    std::int64_t pairs = 0;
    const std::int32_t width = tree.width(t);
    const std::int32_t step = std::max<std::int32_t>(1, width / kDistanceSamples);
    for (std::int32_t v = 0; v < width && pairs < 4 * kDistanceSamples; v += step) {
      const auto children = tree.children(t, v);
      for (std::size_t j = 1; j < children.size() && j <= 8; ++j) {
        const auto& a = first_nodes[static_cast<std::size_t>(children[0])];
        const auto& b = first_nodes[static_cast<std::size_t>(children[j])];
        sum += topology.hops(a[j % a.size()], b[j % b.size()]);
        ++pairs;
      }
    }
    const Num mean =
        pairs == 0 ? below : static_cast<Num>(std::llround(static_cast<double>(sum) / pairs));
    below = std::max({below, mean, Num{1}});
    distance[static_cast<std::size_t>(t)] = below;
  }
  for (int t = height; t >= 1; --t) {
    sizes.push_back(arity[static_cast<std::size_t>(t)]);
    links.push_back(distance[static_cast<std::size_t>(t)]);
  }
  check(SCOTCH_archTleaf(arch.get(), static_cast<Num>(sizes.size()), sizes.data(), links.data()),
        "SCOTCH_archTleaf");
  return true;
}

// The target of a whole machine that Scotch can restrict to some of its terminals (an
// architecture with a matching: grids and trees); `terminal` is each node's terminal if not the
// node id. False for the link-graph decompositions (the HAEC Box up to 2048 nodes, kinds without
// a closed form): build_from_links then.
bool build_shaped(Arch& arch, const topo::Topology& topology, bool torus_as_mesh,
                  std::vector<Num>& terminal) {
  const auto dims = topology.dimensions();
  const auto n = static_cast<int>(dims.size());
  const bool mesh =
      topology.kind() == "mesh" || (torus_as_mesh && topology.kind() == "torus" && n <= 3);
  if (topology.kind() == "torus" && !mesh && n <= kMaxMeshDimensions) {
    // Scotch numbers mesh and torus terminals x fastest, as node ids are.
    std::vector<Num> sizes(dims.begin(), dims.end());
    check(SCOTCH_archTorusX(arch.get(), n, sizes.data()), "SCOTCH_archTorusX");
    return true;
  }
  // SCOTCH_archMeshX of Scotch 7.0.3 measures torus distances (wrap-around), so meshes use the
  // 2-D and 3-D architectures, which measure Manhattan distances.
  if (mesh && n <= 2) {
    check(SCOTCH_archMesh2(arch.get(), dims[0], n == 2 ? dims[1] : 1), "SCOTCH_archMesh2");
    return true;
  }
  if (mesh && n == 3) {
    check(SCOTCH_archMesh3(arch.get(), dims[0], dims[1], dims[2]), "SCOTCH_archMesh3");
    return true;
  }
  const bool large = topology.node_count() > static_cast<topo::NodeId>(kExactDecompositionNodes);
  if (topology.kind() == "tianhe3") {
    // A tree: chip rows (5 hops apart), chip columns in a row (3), sides of a chip (2), nodes of
    // a side (1). Exact but for chips in one column (3 hops, counted 5) and the extra hop of a
    // side change between chips. Leaves are numbered depth first: node ids. Used at every size:
    // on 64-node machines (tianhe3:2x2:nodes=16, 4x2:nodes=8) and LU, CG and MG matrices, the
    // exact decomposition-defined target below gave 1.2 to 1.8 times in-order's hop-bytes, this
    // tree 0.56 to 1.0 times (Scotch bisects the link graph, routers and switches included,
    // poorly).
    const std::vector<Num> sizes(dims.begin(), dims.end());  // rows, columns, 2, half
    const std::vector<Num> links{5, 3, 2, 1};
    check(SCOTCH_archTleaf(arch.get(), 4, sizes.data(), links.data()), "SCOTCH_archTleaf");
    return true;
  }
  if (large && topology.kind() == "haec") {
    // A 3-D torus: exact on a board; between boards it adds the on-board distance that a
    // wireless hop does not pay (and wraps around in z, which the box does not).
    check(SCOTCH_archTorus3(arch.get(), dims[0], dims[1], dims[2]), "SCOTCH_archTorus3");
    return true;
  }
  // Hierarchical machines (their compact blocks are prefixes: fat-trees, dragonflies, Cascade,
  // Slurm trees): the tree of their levels. Scotch bisecting their link graph, switches and
  // routers included, is what the Tianhe-3 tree above replaced, and archBuild0's table of
  // distances grows as the square of the nodes.
  if (topology.prefix_blocks() && build_tree(arch, topology, terminal)) return true;
  return false;
}

}  // namespace

void build_target(Target& target, const topo::Topology& topology, Context& context,
                  bool torus_as_mesh) {
  const RootView view = root_view(topology);
  std::vector<Num> terminal;
  if (build_shaped(target.whole_, *view.machine, torus_as_mesh, terminal)) {
    std::vector<Num> keep(view.nodes.size());
    bool identity = true;
    for (std::size_t k = 0; k < keep.size(); ++k) {
      const auto node = static_cast<std::size_t>(view.nodes[k]);
      keep[k] = terminal.empty() ? static_cast<Num>(node) : terminal[node];
      identity = identity && keep[k] == static_cast<Num>(k);
    }
    // Whole and numbered as the nodes: no restriction (the grids and Tianhe-3, as before).
    if (identity && !view.subset && terminal.empty()) return;
    if (identity && SCOTCH_archSize(target.whole_.get()) == static_cast<Num>(keep.size())) return;
    check(SCOTCH_archSub(target.sub_.get(), target.whole_.get(), static_cast<Num>(keep.size()),
                         keep.data()),
          "SCOTCH_archSub");
    target.restricted_ = true;
    return;
  }
  build_from_links(target.whole_, topology, context);
}

void build_target(Arch& arch, const topo::Topology& topology, Context& context,
                  bool torus_as_mesh) {
  std::vector<Num> terminal;
  if (root_view(topology).subset || !build_shaped(arch, topology, torus_as_mesh, terminal)) {
    build_from_links(arch, topology, context);
    return;
  }
  for (std::size_t k = 0; k < terminal.size(); ++k) {
    if (terminal[k] != static_cast<Num>(k) ||
        SCOTCH_archSize(arch.get()) != topology.node_count()) {
      SCOTCH_archExit(arch.get());
      check(SCOTCH_archInit(arch.get()), "SCOTCH_archInit");
      build_from_links(arch, topology, context);
      return;
    }
  }
}

Strategy::Strategy(Num flags, Num parts, double balance) {
  check(SCOTCH_stratInit(&strat_), "SCOTCH_stratInit");
  check(SCOTCH_stratGraphMapBuild(&strat_, flags, parts, balance), "SCOTCH_stratGraphMapBuild");
}

std::vector<Num> map_graph(Graph& graph, SCOTCH_Arch* arch, Strategy& strategy, Num vertices) {
  std::vector<Num> terminal(static_cast<std::size_t>(vertices), -1);
  check(SCOTCH_graphMap(graph.get(), arch, strategy.get(), terminal.data()), "SCOTCH_graphMap");
  return terminal;
}

}  // namespace mapsim::map::scotch
