#pragma once
// The synthetic workload of the replay benchmarks (sim_bench, sim_replay_bench): 64 ranks on an
// 8 x 8 periodic grid, each iteration 2 us of computation, then Irecv/Isend with its 4
// neighbours and a Wait per request, and an Allreduce of 512 bytes every 10th iteration.

#include <cstdint>

#include "traces/Trace.hpp"

namespace mapsim::bench {

inline traces::Trace halo_trace(int iterations, std::int64_t bytes) {
  constexpr int kSide = 8;
  traces::Trace trace;
  trace.ranks.resize(kSide * kSide);
  traces::Communicator world{"MPI_COMM_WORLD", {}};
  for (Rank r = 0; r < kSide * kSide; ++r) world.members.push_back(r);
  trace.communicators.push_back(world);
  for (Rank r = 0; r < kSide * kSide; ++r) {
    const int x = r % kSide;
    const int y = r / kSide;
    const Rank peers[4] = {((x + 1) % kSide) + kSide * y, ((x + kSide - 1) % kSide) + kSide * y,
                           x + kSide * ((y + 1) % kSide), x + kSide * ((y + kSide - 1) % kSide)};
    const std::int32_t back[4] = {1, 0, 3, 2};  // the tag the neighbour uses towards us
    auto& events = trace.ranks[static_cast<std::size_t>(r)].events;
    std::uint32_t request = 0;
    for (int it = 0; it < iterations; ++it) {
      const std::uint32_t first = request;
      for (int d = 0; d < 4; ++d) {
        events.push_back({.bytes = bytes,
                          .peer = peers[d],
                          .tag = back[d],
                          .request = request++,
                          .kind = traces::EventKind::Irecv});
      }
      for (int d = 0; d < 4; ++d) {
        events.push_back({.bytes = bytes,
                          .peer = peers[d],
                          .tag = d,
                          .request = request++,
                          .kind = traces::EventKind::Isend});
      }
      for (std::uint32_t q = first; q < request; ++q)
        events.push_back({.request = q, .kind = traces::EventKind::Wait});
      events[events.size() - 16].gap = 2'000'000;  // 2 us of computation before the exchange
      if (it % 10 == 9) {
        events.push_back({.bytes = 8 * 64,
                          .received = 8 * 64,
                          .kind = traces::EventKind::Collective,
                          .op = traces::CollectiveOp::Allreduce});
      }
    }
  }
  return trace;
}

}  // namespace mapsim::bench
