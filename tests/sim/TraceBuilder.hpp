#pragma once
// Builds small traces by hand for the simulator's tests: one call per MPI operation, in program
// order per rank. Communicator 0 is MPI_COMM_WORLD.

#include <cstdint>
#include <numeric>
#include <vector>

#include "traces/Trace.hpp"

namespace mapsim::testing {

class TraceBuilder {
 public:
  explicit TraceBuilder(Rank ranks) {
    trace_.ranks.resize(static_cast<std::size_t>(ranks));
    traces::Communicator world{"MPI_COMM_WORLD",
                               std::vector<Rank>(static_cast<std::size_t>(ranks))};
    std::iota(world.members.begin(), world.members.end(), 0);
    trace_.communicators.push_back(world);
    trace_.source = "hand-built";
  }

  /// Adds a communicator of the given world ranks; returns its index.
  std::uint16_t communicator(std::vector<Rank> members) {
    trace_.communicators.push_back(traces::Communicator{"sub", std::move(members)});
    return static_cast<std::uint16_t>(trace_.communicators.size() - 1);
  }

  TraceBuilder& send(Rank at, Rank to, std::int64_t bytes, std::int32_t tag = 0,
                     std::int64_t gap = 0) {
    return add(
        at, {.gap = gap, .bytes = bytes, .peer = to, .tag = tag, .kind = traces::EventKind::Send});
  }
  TraceBuilder& isend(Rank at, Rank to, std::int64_t bytes, std::uint32_t request,
                      std::int32_t tag = 0, std::int64_t gap = 0) {
    return add(at, {.gap = gap,
                    .bytes = bytes,
                    .peer = to,
                    .tag = tag,
                    .request = request,
                    .kind = traces::EventKind::Isend});
  }
  TraceBuilder& recv(Rank at, Rank from, std::int64_t bytes, std::int32_t tag = 0,
                     std::int64_t gap = 0) {
    return add(
        at,
        {.gap = gap, .bytes = bytes, .peer = from, .tag = tag, .kind = traces::EventKind::Recv});
  }
  TraceBuilder& irecv(Rank at, Rank from, std::int64_t bytes, std::uint32_t request,
                      std::int32_t tag = 0, std::int64_t gap = 0) {
    return add(at, {.gap = gap,
                    .bytes = bytes,
                    .peer = from,
                    .tag = tag,
                    .request = request,
                    .kind = traces::EventKind::Irecv});
  }
  TraceBuilder& wait(Rank at, std::uint32_t request, std::int64_t gap = 0) {
    return add(at, {.gap = gap, .request = request, .kind = traces::EventKind::Wait});
  }
  TraceBuilder& cancel(Rank at, std::uint32_t request) {
    return add(at, {.request = request, .kind = traces::EventKind::Cancel});
  }
  /// A blocking collective; `root` a world rank or -1.
  TraceBuilder& collective(Rank at, traces::CollectiveOp op, Rank root, std::int64_t sent,
                           std::int64_t received, std::uint16_t comm = 0, std::int64_t gap = 0) {
    return add(at, {.gap = gap,
                    .bytes = sent,
                    .received = received,
                    .peer = root,
                    .comm = comm,
                    .kind = traces::EventKind::Collective,
                    .op = op});
  }
  TraceBuilder& icollective(Rank at, traces::CollectiveOp op, Rank root, std::int64_t sent,
                            std::int64_t received, std::uint32_t request, std::uint16_t comm = 0) {
    return add(at, {.bytes = sent,
                    .received = received,
                    .peer = root,
                    .request = request,
                    .comm = comm,
                    .kind = traces::EventKind::ICollective,
                    .op = op});
  }
  /// The same blocking collective on every member of `comm`.
  TraceBuilder& all(traces::CollectiveOp op, Rank root, std::int64_t sent, std::int64_t received,
                    std::uint16_t comm = 0) {
    for (const Rank r : trace_.communicators[comm].members)
      collective(r, op, root, sent, received, comm);
    return *this;
  }
  TraceBuilder& final_gap(Rank at, std::int64_t gap) {
    trace_.ranks[static_cast<std::size_t>(at)].final_gap = gap;
    return *this;
  }

  [[nodiscard]] const traces::Trace& trace() const { return trace_; }

 private:
  TraceBuilder& add(Rank at, traces::Event event) {
    trace_.ranks[static_cast<std::size_t>(at)].events.push_back(event);
    return *this;
  }

  traces::Trace trace_;
};

}  // namespace mapsim::testing
