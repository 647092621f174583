// The table of every mapper: name, one-line description, parameters, factory.

#include "mappers/Factories.hpp"
#include "mappers/SearchFactories.hpp"

namespace mapsim::map {
namespace {

template <Curve curve>
std::unique_ptr<Mapper> make_curve_mapper(const ParamValues&) {
  return make_curve(curve);
}

const MapperInfo kMappers[] = {
    {"in-order",
     "rank r on node r / cores in the machine's natural order (launcher default)",
     {},
     make_in_order},
    {"round-robin",
     "ranks dealt cyclically over Tianhe-3 chips, HAEC boards, or planes of the slowest dimension",
     {},
     make_round_robin},
    {"random", "uniformly random placement (seeded)", {}, make_random},
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
    {"rcm",
     "Hoefler & Snir: reverse Cuthill-McKee order of both graphs (Boost.Graph)",
     {},
     make_rcm},
    {"bisection",
     "recursive bisection of process graph and machine (Scotch partitioning)",
     {},
     make_bisection},
    {"scotch", "Scotch static mapping (libscotch), capacity enforced exactly", scotch_params(),
     make_scotch},
    {"minmd", "HAEC thesis Algorithm 2: heaviest pairs first, minimum Manhattan distance",
     minmd_params(), make_minmd},
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
};

}  // namespace

std::span<const MapperInfo> mapper_infos() {
  return kMappers;
}

}  // namespace mapsim::map
