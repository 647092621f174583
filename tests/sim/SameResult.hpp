#pragma once
// Two replays measured the same: every field of the Result but the wall-clock time.

#include <gtest/gtest.h>

#include "sim/Result.hpp"

namespace mapsim::testing {

inline void expect_same_result(const sim::Result& a, const sim::Result& b) {
  EXPECT_EQ(a.model, b.model);
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.rank_finish, b.rank_finish);
  EXPECT_EQ(a.rank_mpi_time, b.rank_mpi_time);
  EXPECT_EQ(a.mpi_time_max, b.mpi_time_max);
  EXPECT_EQ(a.mpi_time_mean, b.mpi_time_mean);
  EXPECT_EQ(a.resource_bytes, b.resource_bytes);
  EXPECT_EQ(a.resource_busy, b.resource_busy);
  EXPECT_EQ(a.resource_utilisation, b.resource_utilisation);
  EXPECT_EQ(a.link_count, b.link_count);
  EXPECT_EQ(a.max_link_utilisation, b.max_link_utilisation);
  EXPECT_EQ(a.mean_link_utilisation, b.mean_link_utilisation);
  EXPECT_EQ(a.links_used, b.links_used);
  EXPECT_EQ(a.messages, b.messages);
  EXPECT_EQ(a.message_bytes, b.message_bytes);
  EXPECT_EQ(a.collective_messages, b.collective_messages);
  EXPECT_EQ(a.collective_bytes, b.collective_bytes);
  EXPECT_EQ(a.collectives, b.collectives);
  EXPECT_EQ(a.unmatched_messages, b.unmatched_messages);
  EXPECT_EQ(a.cancelled, b.cancelled);
  EXPECT_EQ(a.trace_events, b.trace_events);
  EXPECT_EQ(a.engine_events, b.engine_events);
  EXPECT_EQ(a.latency.count(), b.latency.count());
  EXPECT_EQ(a.latency.mean(), b.latency.mean());
  EXPECT_EQ(a.latency.max(), b.latency.max());
  EXPECT_EQ(a.latency.percentile(0.5), b.latency.percentile(0.5));
  EXPECT_EQ(a.latency.percentile(0.99), b.latency.percentile(0.99));
  EXPECT_EQ(a.latency.mean_slowdown(), b.latency.mean_slowdown());
  EXPECT_EQ(a.critical_path.compute, b.critical_path.compute);
  EXPECT_EQ(a.critical_path.overhead, b.critical_path.overhead);
  EXPECT_EQ(a.critical_path.latency, b.critical_path.latency);
  EXPECT_EQ(a.critical_path.bandwidth, b.critical_path.bandwidth);
  EXPECT_EQ(a.critical_path.contention, b.critical_path.contention);
  EXPECT_EQ(a.critical_path.waiting, b.critical_path.waiting);
  EXPECT_EQ(a.critical_path.messages, b.critical_path.messages);
}

}  // namespace mapsim::testing
