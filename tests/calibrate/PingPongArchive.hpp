#pragma once
// Writing OTF2 archives of a ping-pong with known timings (traces/Otf2Writer), as Score-P records
// osu_latency: for each size, `repetitions` round trips in which the initiator sends a ping and
// receives the reply, the responder receives it and replies, then a barrier on every rank.
//
// Otf2Writer's calls each last `call_ns` on the rank's own clock (1 ns ticks), and time between
// calls is computation: a round trip of R ns is the initiator's send call (call_ns), R - 2 call_ns
// of waiting, its receive call (call_ns), so that from entering the send to leaving the receive
// takes exactly R ns. The responder's clock runs alongside (receive, R - 2 call_ns, send); the
// reader takes the times of the initiator only.

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <numeric>
#include <vector>

#include "traces/Otf2Writer.hpp"

namespace mapsim::testing {

struct PingPongArchive {
  Rank ranks = 2;
  Rank initiator = 0;
  Rank responder = 1;
  std::vector<std::int64_t> sizes;
  int repetitions = 5;
  /// The round trip of repetition `rep` of size `bytes`, ns (at least 2 call_ns).
  std::function<std::int64_t(std::int64_t bytes, int rep)> round_trip_ns;
  /// The size of the reply to a ping of `bytes` (a ping-pong's: the same).
  std::function<std::int64_t(std::int64_t bytes)> reply = [](std::int64_t bytes) { return bytes; };
  /// Isend + Irecv + Waitall instead of Send and Recv.
  bool nonblocking = false;
  std::int64_t call_ns = 100;

  /// Writes the archive into `dir`; returns its anchor file.
  std::filesystem::path write(const std::filesystem::path& dir) const {
    traces::Otf2WriterOptions options;
    options.call_ns = call_ns;
    options.program = "osu_latency";
    traces::Otf2Writer writer(dir, options);
    std::vector<Rank> world(static_cast<std::size_t>(ranks));
    std::iota(world.begin(), world.end(), 0);
    writer.begin_trace(ranks, {{"MPI_COMM_WORLD", world, -1}});
    for (Rank r = 0; r < ranks; ++r) {
      writer.begin_rank(r);
      writer.init();
      for (const auto n : sizes) {
        for (int rep = 0; rep < repetitions; ++rep) {
          const auto wait = round_trip_ns(n, rep) - 2 * call_ns;
          if (r == initiator) exchange(writer, responder, n, reply(n), wait);
          if (r == responder) respond(writer, initiator, n, reply(n), wait);
        }
        writer.collective(traces::CollectiveOp::Barrier, traces::kWorld, -1, 0, 0);
      }
      writer.finalize();
      writer.end_rank();
    }
    writer.end_trace();
    return writer.anchor();
  }

 private:
  /// The initiator's round trip: ping, wait, reply.
  void exchange(traces::MpiCallSink& sink, Rank peer, std::int64_t ping, std::int64_t pong,
                std::int64_t wait) const {
    if (!nonblocking) {
      sink.send(peer, 1, ping, traces::kWorld);
      sink.compute(wait);
      sink.recv(peer, 1, pong, traces::kWorld);
      return;
    }
    // Isend first (the round trip starts when it is entered), then Irecv: three calls before the
    // wait, one more than the blocking pair.
    const auto s = sink.isend(peer, 1, ping, traces::kWorld);
    const auto r = sink.irecv(peer, 1, pong, traces::kWorld);
    sink.compute(wait - call_ns);
    const std::array<traces::RequestId, 2> both{s, r};
    sink.waitall(both);
  }
  void respond(traces::MpiCallSink& sink, Rank peer, std::int64_t ping, std::int64_t pong,
               std::int64_t wait) const {
    sink.recv(peer, 1, ping, traces::kWorld);
    sink.compute(wait);
    sink.send(peer, 1, pong, traces::kWorld);
  }
};

/// 1 byte and the powers of two up to 1 MiB: 21 sizes.
inline std::vector<std::int64_t> mib_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 1; n <= (std::int64_t{1} << 20); n *= 2) sizes.push_back(n);
  return sizes;
}

}  // namespace mapsim::testing
