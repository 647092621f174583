#pragma once
// Rows of the results database made from what the libraries measured: a mapping's static metrics
// (schema::static_columns()) and a replay's result (schema::simulation_columns()).

#include <cstdint>
#include <string_view>

#include "experiments/Schema.hpp"
#include "mappers/Metrics.hpp"
#include "sim/Energy.hpp"
#include "sim/Result.hpp"

namespace mapsim::exp {

/// An unsigned count as an SQLite integer; throws InputError naming `what` for a count beyond
/// 2^63 - 1, which cannot be stored exactly.
std::int64_t exact(std::uint64_t value, std::string_view what);

/// The static metrics in schema::static_columns() order (per-direction link loads).
schema::Row static_row(const map::metrics::Metrics& metrics);

/// A replay's result and its network's energy in schema::simulation_columns() order.
schema::Row simulation_row(const sim::Result& result, const sim::Energy& energy);

}  // namespace mapsim::exp
