#pragma once
// Internal: the factory and parameter table of every mapper, for the registry (Registry.cpp).

#include <memory>
#include <span>

#include "mappers/GridEmbedding.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/SpaceFillingCurves.hpp"

namespace mapsim::map {

std::unique_ptr<Mapper> make_in_order(const ParamValues& params);
std::unique_ptr<Mapper> make_round_robin(const ParamValues& params);
std::unique_ptr<Mapper> make_random(const ParamValues& params);
std::unique_ptr<Mapper> make_curve(Curve curve);
std::unique_ptr<Mapper> make_contiguous(const ParamValues& params);
std::unique_ptr<Mapper> make_random_node(const ParamValues& params);
std::unique_ptr<Mapper> make_random_router(const ParamValues& params);
std::unique_ptr<Mapper> make_group_striped(const ParamValues& params);
std::unique_ptr<Mapper> make_treematch(const ParamValues& params);

std::span<const ParamSpec> greedy_params();
std::unique_ptr<Mapper> make_greedy(const ParamValues& params);
std::span<const ParamSpec> minmd_params();
std::unique_ptr<Mapper> make_minmd(const ParamValues& params);
std::unique_ptr<Mapper> make_rcm(const ParamValues& params);

std::span<const ParamSpec> scotch_params();
std::unique_ptr<Mapper> make_scotch(const ParamValues& params);
std::span<const ParamSpec> bisection_params();
std::unique_ptr<Mapper> make_bisection(const ParamValues& params);

std::span<const ParamSpec> grid_params();
std::span<const ParamSpec> affine_params();
std::unique_ptr<Mapper> make_grid_mapper(GridHeuristic heuristic, const ParamValues& params);
std::span<const ParamSpec> bft_params();
std::span<const ParamSpec> mht_params();
std::unique_ptr<Mapper> make_bft(const ParamValues& params);
std::unique_ptr<Mapper> make_mht(const ParamValues& params);
std::unique_ptr<Mapper> make_coce_mht(const ParamValues& params);

}  // namespace mapsim::map
