#pragma once
// Internal: the factory and parameter table of every search-based mapper (Mapper library II),
// for the registry (Registry.cpp).

#include <memory>
#include <span>

#include "mappers/Mapper.hpp"

namespace mapsim::map {

std::span<const ParamSpec> ohtma_params();
std::unique_ptr<Mapper> make_ohtma(const ParamValues& params);
std::span<const ParamSpec> bokhari_params();
std::unique_ptr<Mapper> make_bokhari(const ParamValues& params);
std::span<const ParamSpec> genetic_params();
std::unique_ptr<Mapper> make_genetic(const ParamValues& params);
std::span<const ParamSpec> sampling_params();
std::unique_ptr<Mapper> make_sampling(const ParamValues& params);
std::span<const ParamSpec> best_params();
std::unique_ptr<Mapper> make_best(const ParamValues& params);

}  // namespace mapsim::map
