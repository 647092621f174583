#include "mappers/BestMapper.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "mappers/GoalCosts.hpp"
#include "mappers/LinkLoadTracker.hpp"
#include "mappers/Ohtma.hpp"
#include "mappers/RegularPattern.hpp"
#include "mappers/SearchFactories.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Search-based mappers are not starts: they cost too much for what they add. Nor are the job
// placement policies: placements of a job rather than mappings of its traffic (contiguous is
// in-order, random-node with one core per node random; random routers and striped groups are poor
// places to search from).
constexpr std::string_view kNotStarts[] = {"ohtma",       "bokhari",       "genetic",
                                           "sampling",    "best",          "contiguous",
                                           "random-node", "random-router", "group-striped"};

// Starts only on machines whose hierarchy is their own shape (Topology::prefix_blocks: fat-trees,
// dragonflies, Cascade, Slurm trees, some nodes of a machine), not on meshes, tori, the HAEC Box
// and Tianhe-3, where the grid mappers and Scotch already cover the ground (and where adding a
// start would change best's results on the machines it has always mapped).
constexpr std::string_view kHierarchyStarts[] = {"treematch"};

// Bhatele's heuristics for regular grids: on an irregular pattern they only repeat mht and
// coce-mht (their fall-backs), so they are left out there.
constexpr std::string_view kGridHeuristics[] = {"mxovlp", "mxov-al", "exco",
                                                "coce",   "affine",  "step"};

template <std::size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// Starts fast enough to also run on the whole of a dense matrix (at most 3 s on FT's 4.2 million
// pairs at 4096 ranks, where scotch takes 80-240 s and Bhatele's heuristics 15 s; rcm and bft
// are as fast but their orders of an all-to-all are poor places to start).
constexpr std::string_view kWholeOnDense[] = {"greedy", "bisection", "minmd"};

// Not starts on a dense matrix: Bhatele's heuristics for irregular graphs take about a second
// each even on its skeleton and start far from the others on all-to-alls (FT.D.4096: 1.18-1.40
// of in-order's hop-bytes, where the others reach 0.93-0.97).
constexpr std::string_view kNotOnDense[] = {"mht", "coce-mht"};

// Variants run as further starts: bisection as split, without orienting the halves by traffic
// (better on some all-to-alls on the HAEC Box).
struct Variant {
  std::string_view mapper;
  std::string_view key;
  std::string_view value;
};
constexpr Variant kVariants[] = {{"bisection", "orient", "none"}};

// Above kDenseDegree (LocalSearch.hpp) the starts see a skeleton of the matrix.
constexpr std::size_t kSkeletonPartners = 16;

// Every rank's kSkeletonPartners heaviest partners. When a rank has more partners of the
// lightest weight it keeps than room for them (all-to-alls: thousands of equal partners), it keeps
// some spread evenly over them in rank order (from an offset that depends on the rank), and
// those stand for all: their traffic is scaled by (partners of that weight) / (kept ones), so
// the skeleton keeps each rank's volume and the balance between its heavy and light partners.
// A pair kept by both ranks gets the mean factor.
traces::CommMatrix skeleton(const CommGraph& graph) {
  struct Kept {
    Rank u;
    Rank v;
    double factor;
  };
  std::vector<Kept> kept;
  std::vector<Neighbor> sorted;
  std::vector<Neighbor> boundary;
  for (Rank r = 0; r < graph.rank_count(); ++r) {
    const auto all = graph.neighbors(r);
    sorted.assign(all.begin(), all.end());
    const std::size_t keep = std::min(kSkeletonPartners, sorted.size());
    if (keep == 0) continue;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Neighbor& a, const Neighbor& b) {
      return a.bytes() > b.bytes();  // stable: equal weights stay in rank order
    });
    const std::uint64_t lightest = sorted[keep - 1].bytes();
    std::size_t heavier = 0;  // partners heavier than the boundary weight: all kept
    while (sorted[heavier].bytes() > lightest) ++heavier;
    boundary.clear();
    for (std::size_t k = heavier; k < sorted.size() && sorted[k].bytes() == lightest; ++k)
      boundary.push_back(sorted[k]);
    for (std::size_t k = 0; k < heavier; ++k)
      kept.push_back({std::min(r, sorted[k].rank), std::max(r, sorted[k].rank), 1.0});
    const std::size_t slots = keep - heavier;
    const std::size_t m = boundary.size();
    const double factor = static_cast<double>(m) / static_cast<double>(slots);
    for (std::size_t j = 0; j < slots; ++j) {
      const std::size_t at = (j * m / slots + static_cast<std::size_t>(r)) % m;
      const Rank l = boundary[at].rank;
      kept.push_back({std::min(r, l), std::max(r, l), factor});
    }
  }
  std::sort(kept.begin(), kept.end(),
            [](const Kept& a, const Kept& b) { return a.u < b.u || (a.u == b.u && a.v < b.v); });
  traces::CommMatrixBuilder builder(graph.rank_count());
  for (std::size_t k = 0; k < kept.size();) {
    const Rank u = kept[k].u;
    const Rank v = kept[k].v;
    double factor = 0;
    std::size_t same = 0;
    for (; k < kept.size() && kept[k].u == u && kept[k].v == v; ++k, ++same)
      factor += kept[k].factor;
    factor /= static_cast<double>(same);
    const auto partners = graph.neighbors(u);
    const auto it = std::lower_bound(partners.begin(), partners.end(), v,
                                     [](const Neighbor& nb, Rank rank) { return nb.rank < rank; });
    auto scaled = [&](std::uint64_t bytes) {
      return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * factor));
    };
    if (it->messages_out > 0) builder.add(u, v, it->messages_out, scaled(it->bytes_out));
    if (it->messages_in > 0) builder.add(v, u, it->messages_in, scaled(it->bytes_in));
  }
  return builder.build();
}

}  // namespace

traces::CommMatrix critical_path_weights(const traces::CommMatrix& matrix,
                                         const topo::Topology& topology, const TimeOracle& oracle,
                                         Seed seed) {
  const topo::Mapping in_order = make_mapper("in-order")->map(matrix, topology, seed);
  Fidelity contention_free;
  contention_free.model = "analytic";
  contention_free.compute_scale = 0;
  contention_free.critical_messages = true;
  const auto judged = oracle.judge(std::span(&in_order, 1), contention_free);
  MAPSIM_EXPECTS(judged.size() == 1, "one judgement per mapping");
  const auto& path = judged.front().critical_messages;
  std::map<std::pair<Rank, Rank>, std::uint64_t> on_path;
  for (const auto& pair : path) ++on_path[pair];
  // k = round(M / C), at least 1: the path's messages weigh as much as all of the matrix's.
  const std::uint64_t all = matrix.total().messages;
  const std::uint64_t k =
      path.empty() ? 0
                   : std::max<std::uint64_t>(
                         1, (all + path.size() / 2) / static_cast<std::uint64_t>(path.size()));
  const CommGraph graph(matrix);
  traces::CommMatrixBuilder weights(matrix.rank_count());
  for (Rank i = 0; i < graph.rank_count(); ++i) {
    for (const auto& nb : graph.neighbors(i)) {
      if (nb.messages_out == 0 && nb.bytes_out == 0) continue;
      const auto found = on_path.find({i, nb.rank});
      const std::uint64_t critical = found == on_path.end() ? 0 : found->second;
      if (found != on_path.end()) on_path.erase(found);
      weights.add(i, nb.rank, nb.messages_out + k * critical, nb.bytes_out);
    }
  }
  // Path messages the matrix does not hold (a collective's, with the matrix of point-to-point
  // only): their messages, and as many bytes.
  for (const auto& [pair, critical] : on_path)
    weights.add(pair.first, pair.second, k * critical, k * critical);
  oracle.report(fmt::format(
      "best: objective=critical-latency: {} of {} messages on the critical path of in-order's "
      "contention-free replay, each weighing {} more",
      path.size(), all, k));
  return weights.build();
}

BestResult run_best(const traces::CommMatrix& matrix, const topo::Topology& topology,
                    const BestOptions& options, Seed seed, const traces::CommMatrix* objective) {
  // Latency weighs pairs by their messages: the search (and the starts' ranking) runs on the
  // message graph, the starts map the matrix as given (on a dense matrix, the skeleton of the
  // message graph, like the others' skeleton of theirs).
  const CommGraph matrix_graph(objective != nullptr ? *objective : matrix);
  std::vector<topo::NodeId> reference;
  if (GoalSetup::needs_reference(options.goal)) {
    const auto in_order = make_mapper("in-order")->map(matrix, topology, seed);
    reference.assign(in_order.nodes().begin(), in_order.nodes().end());
  }
  const GoalSetup setup(options.goal, matrix_graph, topology, reference, options.energy_weight, 8,
                        8, options.links);
  const CommGraph& graph = setup.graph();
  const SearchSpace& space = setup.space();
  std::optional<traces::CommMatrix> sparse;
  std::optional<CommGraph> sparse_graph;
  if (space.dense()) {
    sparse = skeleton(graph);
    sparse_graph.emplace(*sparse);
  }
  const traces::CommMatrix& input = sparse ? *sparse : matrix;
  const CommGraph& input_graph = sparse_graph ? *sparse_graph : graph;
  const bool regular = !detect_pattern(input_graph).empty();

  struct Job {
    std::string_view name;
    bool whole;  // on the whole matrix although the others see its skeleton
    const Variant* variant;
  };
  std::vector<Job> jobs;
  for (const auto& info : mapper_infos()) {
    if (listed(kNotStarts, info.name)) continue;
    if (!topology.prefix_blocks() && listed(kHierarchyStarts, info.name)) continue;
    if (!regular && listed(kGridHeuristics, info.name)) continue;
    if (sparse && listed(kNotOnDense, info.name)) continue;
    const bool whole_too = sparse && listed(kWholeOnDense, info.name);
    jobs.push_back({info.name, false, nullptr});
    if (whole_too) jobs.push_back({info.name, true, nullptr});
    for (const auto& variant : kVariants) {
      if (variant.mapper != info.name) continue;
      jobs.push_back({info.name, false, &variant});
      if (whole_too) jobs.push_back({info.name, true, &variant});
    }
  }
  std::vector<std::optional<BestStart>> found(jobs.size() + 1);
  tbb::parallel_for(std::size_t{0}, found.size(), [&](std::size_t k) {
    BestStart start;
    if (k == jobs.size()) {
      start.name = "ohtma-greedy";
      start.nodes = ohtma_greedy(input_graph, topology);
    } else {
      const Job& job = jobs[k];
      ParamList params;
      start.name = job.name;
      if (job.variant != nullptr) {
        params.emplace_back(job.variant->key, job.variant->value);
        start.name += fmt::format(" {}={}", job.variant->key, job.variant->value);
      }
      if (job.whole) start.name += " (whole matrix)";
      try {
        const auto mapping =
            make_mapper(job.name, params)->map(job.whole ? matrix : input, topology, seed);
        start.nodes.assign(mapping.nodes().begin(), mapping.nodes().end());
      } catch (const InputError&) {
        return;  // this mapper cannot handle the input (e.g. a grid it needs)
      }
    }
    start.cost = search_cost(space, options.goal, start.nodes);
    found[k] = std::move(start);
  });

  BestResult result;
  for (auto& start : found) {
    if (start) result.starts.push_back(std::move(*start));
  }
  MAPSIM_EXPECTS(!result.starts.empty(), "best: no constructive start");
  std::stable_sort(result.starts.begin(), result.starts.end(),
                   [](const BestStart& a, const BestStart& b) { return a.cost < b.cost; });
  // Merge identical mappings (the first name stays).
  std::vector<BestStart> distinct;
  for (auto& start : result.starts) {
    const bool seen = std::any_of(distinct.begin(), distinct.end(), [&](const BestStart& d) {
      return d.cost == start.cost && d.nodes == start.nodes;
    });
    if (!seen) distinct.push_back(std::move(start));
  }
  result.starts = std::move(distinct);

  const auto chains = static_cast<std::size_t>(std::max(1, options.chains));
  const std::size_t from = std::min<std::size_t>({chains, result.starts.size(), 2});
  LocalSearchOptions search{options.goal, 0, options.time_limit};
  search.work = options.work_per_rank * static_cast<std::uint64_t>(matrix.rank_count()) / chains;
  std::vector<LocalSearchResult> runs(chains);
  tbb::parallel_for(
      std::size_t{0}, chains,
      [&](std::size_t c) {
        runs[c] =
            local_search(space, result.starts[c % from].nodes, search, Random::stream(seed, c));
      },
      tbb::simple_partitioner{});
  std::size_t best = 0;
  for (std::size_t c = 1; c < chains; ++c) {
    if (runs[c].cost < runs[best].cost) best = c;
  }
  result.nodes = std::move(runs[best].nodes);
  result.cost = runs[best].cost;
  result.best_chain = static_cast<int>(best);
  return result;
}

namespace {

constexpr ParamSpec kBestParams[] = {
    {"objective", ParamType::Choice, "hop-bytes",
     "hop-bytes; congestion (the busiest link's time, bytes over its bandwidth, then the sum of "
     "squared link times); congestion-smooth (sum over links of load^2 / bandwidth); energy "
     "(the traffic energy: bytes x energy per bit of the route's links); latency (messages x "
     "the route's latency); hybrid (a weighted sum of congestion, congestion-smooth and hop-bytes, "
     "each relative to in-order's); time+energy (hybrid's time proxy and the traffic energy, "
     "each relative to in-order's, weighted by energy-weight); critical-latency (latency of the "
     "messages on the critical path of one contention-free replay of in-order: needs a trace)",
     0, 0,
     "hop-bytes|congestion|congestion-smooth|energy|latency|hybrid|time+energy|critical-latency"},
    {"energy-weight", ParamType::Real, "0.5",
     "objective=time+energy: the traffic energy's weight w, the time proxy's 1 - w", 0, 1},
    {"chains", ParamType::Integer, "2", "local-search chains, run in parallel", 1, 256},
    {"work", ParamType::Integer, "50000",
     "local-search budget in work units per rank (neighbour terms evaluated), shared by the "
     "chains; deterministic",
     0, 1000000000},
    {"time-limit", ParamType::Real, "0",
     "wall-clock seconds for the local search instead of the work budget, 0 for none (the "
     "result then depends on the machine's speed and load)",
     0, 1e9},
};

constexpr std::string_view kCriticalLatency = "critical-latency";

class Best final : public Mapper {
 public:
  explicit Best(const ParamValues& params)
      : critical_(params.text("objective") == kCriticalLatency),
        options_{critical_ ? SearchGoal::Latency : parse_search_goal(params.text("objective")),
                 static_cast<int>(params.integer("chains")),
                 static_cast<std::uint64_t>(params.integer("work")), params.real("time-limit"),
                 params.real("energy-weight")} {}
  /// `best` under `options`, its objective summed over `weights` (critical-latency's).
  Best(const BestOptions& options, std::shared_ptr<const traces::CommMatrix> weights)
      : options_(options), weights_(std::move(weights)) {}

  [[nodiscard]] bool needs_oracle() const override { return critical_; }
  [[nodiscard]] bool weighs_link_energy() const override {
    return options_.goal == SearchGoal::Energy || options_.goal == SearchGoal::TimeEnergy;
  }

 protected:
  topo::Mapping compute(const Problem& p) const override {
    BestOptions options = options_;
    options.links = p.links;
    return topo::Mapping(run_best(p.matrix, p.topology, options, p.seed, weights_.get()).nodes);
  }

  // The starts map the matrix (a stencil's grid embeddings among them); the search and the
  // starts' ranking weigh the critical path.
  topo::Mapping search(const Problem& p, const TimeOracle& oracle) const override {
    auto weights = std::make_shared<const traces::CommMatrix>(
        critical_path_weights(p.matrix, p.topology, oracle, p.seed));
    return Best(options_, std::move(weights)).map(p.matrix, p.topology, p.seed, nullptr, p.links);
  }

 private:
  bool critical_ = false;
  BestOptions options_;
  std::shared_ptr<const traces::CommMatrix>
      weights_;  // the objective's matrix, if not the problem's
};

}  // namespace

std::span<const ParamSpec> best_params() {
  return kBestParams;
}
std::unique_ptr<Mapper> make_best(const ParamValues& params) {
  return std::make_unique<Best>(params);
}

}  // namespace mapsim::map
