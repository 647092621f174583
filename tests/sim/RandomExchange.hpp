#pragma once
// A random exchange for the simulator's tests: on `ranks` ranks, `rounds` times, every rank
// Isends 1 B to 200 KB (eager and rendezvous) to three random peers, which Irecv it; then every
// rank Waits for its requests (ids unique per rank over the whole trace) and all Allreduce.

#include <cstdint>
#include <random>
#include <vector>

#include "TraceBuilder.hpp"

namespace mapsim::testing {

inline traces::Trace random_exchange(Rank ranks, int rounds, unsigned seed) {
  std::mt19937 rng(seed);
  TraceBuilder b(ranks);
  std::uniform_int_distribution<Rank> peer(0, ranks - 1);
  std::uniform_int_distribution<std::int64_t> size(1, 200'000);
  std::uint32_t request = 1;
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::vector<std::uint32_t>> waits(static_cast<std::size_t>(ranks));
    for (Rank s = 0; s < ranks; ++s) {
      for (int k = 0; k < 3; ++k) {
        const Rank d = peer(rng);
        const auto bytes = size(rng);
        b.isend(s, d, bytes, request, round);
        waits[static_cast<std::size_t>(s)].push_back(request++);
        b.irecv(d, s, bytes, request, round);
        waits[static_cast<std::size_t>(d)].push_back(request++);
      }
    }
    for (Rank r = 0; r < ranks; ++r)
      for (const auto rq : waits[static_cast<std::size_t>(r)]) b.wait(r, rq);
    b.all(traces::CollectiveOp::Allreduce, -1, 8 * ranks, 8 * ranks);
  }
  return b.trace();
}

}  // namespace mapsim::testing
