#include "experiments/ResultRows.hpp"

#include <limits>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::exp {

std::int64_t exact(std::uint64_t value, std::string_view what) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    throw InputError(
        fmt::format("{} = {} exceeds 2^63 - 1 and cannot be stored exactly", what, value));
  }
  return static_cast<std::int64_t>(value);
}

schema::Row static_row(const map::metrics::Metrics& m) {
  schema::Row row{
      exact(m.bytes, "bytes"),
      exact(m.messages, "IePLC"),
      exact(m.self_messages, "self messages"),
      exact(m.intra_node_messages, "IaNLC"),
      exact(m.inter_node_messages, "IeNLC"),
      exact(m.hop_bytes, "hop-bytes"),
      exact(m.hop_messages, "hop-messages"),
      std::int64_t{m.dilation_max},
      m.dilation_average,
      exact(m.directed_bytes.max, "busiest link bytes"),
      m.directed_bytes.average,
      exact(m.directed_bytes.min, "least link bytes"),
      exact(m.directed_messages.max, "busiest link messages"),
      m.directed_messages.average,
      m.directed_bytes.used,
      m.max_link_seconds,
      exact(m.inter_socket_messages, "inter-socket messages"),
      m.traffic_energy_joules,
      m.link_load_squares,
      m.latency_seconds,
  };
  MAPSIM_EXPECTS(row.size() == schema::static_columns().size(),
                 "static_row and schema::static_columns() disagree");
  return row;
}

schema::Row simulation_row(const sim::Result& r, const sim::Energy& energy) {
  schema::Row row{
      std::int64_t{r.makespan},
      std::int64_t{r.mpi_time_max},
      r.mpi_time_mean,
      r.max_link_utilisation,
      r.mean_link_utilisation,
      std::int64_t{r.links_used},
      exact(r.messages, "messages"),
      exact(r.message_bytes, "message bytes"),
      exact(r.collectives, "collectives"),
      exact(r.collective_messages, "collective messages"),
      exact(r.collective_bytes, "collective bytes"),
      exact(r.unmatched_messages, "unmatched messages"),
      exact(r.cancelled, "cancelled requests"),
      exact(r.latency.count(), "transfers"),
      r.latency.mean(),
      std::int64_t{r.latency.percentile(0.5)},
      std::int64_t{r.latency.percentile(0.9)},
      std::int64_t{r.latency.percentile(0.99)},
      std::int64_t{r.latency.max()},
      r.latency.mean_slowdown(),
      r.latency.aggregate_slowdown(),
      exact(r.trace_events, "trace events"),
      exact(r.engine_events, "engine events"),
      r.wall_seconds,
      energy.joules(),
      energy.dynamic_joules,
      energy.static_joules,
      energy.watts(),
      std::int64_t{r.critical_path.compute},
      std::int64_t{r.critical_path.overhead},
      std::int64_t{r.critical_path.latency},
      std::int64_t{r.critical_path.bandwidth},
      std::int64_t{r.critical_path.contention},
      std::int64_t{r.critical_path.waiting},
      exact(r.critical_path.messages, "critical-path transfers"),
  };
  MAPSIM_EXPECTS(row.size() == schema::simulation_columns().size(),
                 "simulation_row and schema::simulation_columns() disagree");
  return row;
}

}  // namespace mapsim::exp
