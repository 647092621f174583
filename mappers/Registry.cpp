// The table of every mapper: name, one-line description, parameters, factory.

#include "mappers/Factories.hpp"
#include "mappers/ReplaySearch.hpp"
#include "mappers/SearchFactories.hpp"

namespace mapsim::map {
namespace {

template <Curve curve>
std::unique_ptr<Mapper> make_curve_mapper(const ParamValues&) {
  return make_curve(curve);
}

template <GridHeuristic heuristic>
std::unique_ptr<Mapper> make_grid(const ParamValues& params) {
  return make_grid_mapper(heuristic, params);
}

const MapperInfo kMappers[] = {
    {"in-order",
     "rank r on node r / cores in the machine's natural order (launcher default)",
     {},
     make_in_order},
    {"round-robin",
     "ranks dealt cyclically over Tianhe-3 chips, HAEC boards, planes of the slowest dimension, "
     "or the outermost groups of a hierarchy (pods, dragonfly groups)",
     {},
     make_round_robin},
    {"random", "uniformly random placement (seeded)", {}, make_random},
    {"contiguous",
     "job placement: the first nodes in natural order (in-order; Jain et al. 2014)",
     {},
     make_contiguous},
    {"random-node",
     "job placement: random nodes, each filled with consecutive ranks (RDN)",
     {},
     make_random_node},
    {"random-router",
     "job placement: the nodes of randomly chosen routers (RDR)",
     {},
     make_random_router},
    {"group-striped",
     "job placement: the job's nodes dealt round-robin over the groups (RRN)",
     {},
     make_group_striped},
    {"sweep", "space-filling curve: raster order, x fastest", {}, make_curve_mapper<Curve::Sweep>},
    {"scan",
     "space-filling curve: boustrophedon (snake) order, never jumps",
     {},
     make_curve_mapper<Curve::Scan>},
    {"peano",
     "space-filling curve: Peano (3^k grids; others restricted from the enclosing one)",
     {},
     make_curve_mapper<Curve::Peano>},
    {"gray",
     "space-filling curve: Gray code of the bit-interleaved coordinates",
     {},
     make_curve_mapper<Curve::Gray>},
    {"hilbert",
     "space-filling curve: Hilbert, n-D by Skilling's transform",
     {},
     make_curve_mapper<Curve::Hilbert>},
    {"greedy", "Hoefler & Snir greedy: heaviest ranks first, next to their heaviest partner",
     greedy_params(), make_greedy},
    {"treematch",
     "TreeMatch (Jeannot et al. 2014): ranks grouped by traffic down the machine's hierarchy",
     {},
     make_treematch},
    {"rcm",
     "Hoefler & Snir: reverse Cuthill-McKee order of both graphs (Boost.Graph)",
     {},
     make_rcm},
    {"bisection", "recursive bisection of process graph and machine (Scotch partitioning)",
     bisection_params(), make_bisection},
    {"scotch", "Scotch static mapping (libscotch), capacity enforced exactly", scotch_params(),
     make_scotch},
    {"minmd", "HAEC thesis Algorithm 2: heaviest pairs first, minimum Manhattan distance",
     minmd_params(), make_minmd},
    {"mxovlp", "Bhatele, regular 2-D grids: maximum overlap, recursively", grid_params(),
     make_grid<GridHeuristic::Mxovlp>},
    {"mxov-al", "Bhatele, regular 2-D grids: maximum overlap with alignment at each step",
     grid_params(), make_grid<GridHeuristic::MxovAl>},
    {"exco", "Bhatele, regular 2-D grids: expand from a corner", grid_params(),
     make_grid<GridHeuristic::Exco>},
    {"coce", "Bhatele, regular 2-D grids: from all four corners to the centre", grid_params(),
     make_grid<GridHeuristic::Coce>},
    {"affine", "Bhatele, regular 2-D grids: affine stretch (x,y) -> (Px x/Ox, Py y/Oy)",
     affine_params(), make_grid<GridHeuristic::Affine>},
    {"step", "Bhatele, regular 2-D grids: staircase bands of object columns", grid_params(),
     make_grid<GridHeuristic::Step>},
    {"bft", "Bhatele, irregular graphs: breadth-first traversal, next to the parent", bft_params(),
     make_bft},
    {"mht", "Bhatele, irregular graphs: max-heap traversal, at the neighbours' centroid",
     mht_params(), make_mht},
    {"coce-mht",
     "Bhatele, irregular graphs: four corners, then max-heap traversal inwards",
     {},
     make_coce_mht},
    {"ohtma",
     "OHTMA (Li et al. 2020): greedy, pair exchanges with locking, backtracking to the best prefix",
     ohtma_params(), make_ohtma},
    {"bokhari",
     "Bokhari's MAPPER: pairwise exchanges and probabilistic jumps from sweep (cardinality)",
     bokhari_params(), make_bokhari},
    {"genetic", "HAEC thesis GA: roulette wheel, ordered crossover, swap mutation (100 x 10)",
     genetic_params(), make_genetic},
    {"sampling", "best of N uniformly random mappings (N = 10000)", sampling_params(),
     make_sampling},
    {"best", "mapsim's own: best constructive starts, then parallel iterated swap local search",
     best_params(), make_best},
    {"replay-search",
     "mapsim's own: searches with the simulator in the loop for the shortest replayed makespan "
     "(needs a trace)",
     replay_search_params(), make_replay_search, true},
};

}  // namespace

std::span<const MapperInfo> mapper_infos() {
  return kMappers;
}

}  // namespace mapsim::map
