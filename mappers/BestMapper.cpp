#include "mappers/BestMapper.hpp"

#include <algorithm>
#include <optional>

#include <tbb/parallel_for.h>

#include "mappers/Ohtma.hpp"
#include "mappers/SearchFactories.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

// Search-based mappers are not starts: they cost too much for what they add.
constexpr std::string_view kNotStarts[] = {"ohtma", "bokhari", "genetic", "sampling", "best"};

bool is_start(std::string_view name) {
  return std::find(std::begin(kNotStarts), std::end(kNotStarts), name) == std::end(kNotStarts);
}

}  // namespace

BestResult run_best(const traces::CommMatrix& matrix, const topo::Topology& topology,
                    const BestOptions& options, Seed seed) {
  const CommGraph graph(matrix);
  const SearchSpace space(graph, topology);

  std::vector<std::string_view> names;
  for (const auto& info : mapper_infos()) {
    if (is_start(info.name)) names.push_back(info.name);
  }
  std::vector<std::optional<BestStart>> found(names.size() + 1);
  tbb::parallel_for(std::size_t{0}, found.size(), [&](std::size_t k) {
    BestStart start;
    if (k == names.size()) {
      start.name = "ohtma-greedy";
      start.nodes = ohtma_greedy(graph, topology);
    } else {
      start.name = std::string(names[k]);
      try {
        const auto mapping = make_mapper(names[k])->map(matrix, topology, seed);
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
     "hop-bytes, or congestion (largest dimension-order link load, then sum of squared loads)", 0,
     0, "hop-bytes|congestion"},
    {"chains", ParamType::Integer, "4", "local-search chains, run in parallel", 1, 256},
    {"work", ParamType::Integer, "20000",
     "local-search budget in work units per rank (neighbour terms evaluated), shared by the "
     "chains; deterministic",
     0, 1000000000},
    {"time-limit", ParamType::Real, "0",
     "wall-clock seconds for the local search instead of the work budget, 0 for none (the "
     "result then depends on the machine's speed and load)",
     0, 1e9},
};

class Best final : public Mapper {
 public:
  explicit Best(const ParamValues& params)
      : options_{params.text("objective") == "congestion" ? SearchGoal::Congestion
                                                          : SearchGoal::HopBytes,
                 static_cast<int>(params.integer("chains")),
                 static_cast<std::uint64_t>(params.integer("work")), params.real("time-limit")} {}

 protected:
  topo::Mapping compute(const Problem& p) const override {
    return topo::Mapping(run_best(p.matrix, p.topology, options_, p.seed).nodes);
  }

 private:
  BestOptions options_;
};

}  // namespace

std::span<const ParamSpec> best_params() {
  return kBestParams;
}
std::unique_ptr<Mapper> make_best(const ParamValues& params) {
  return std::make_unique<Best>(params);
}

}  // namespace mapsim::map
