// Writes an OTF2 trace of one collective repeated, for bench/smpi_collectives.sh: every rank of
// MPI_COMM_WORLD calls OP with a payload of BYTES, REPEAT times, nothing else (no computation).
// Byte counts are recorded as Score-P records them (traces/CollectiveSchedule.hpp): bcast: the
// root sent P b, everyone received b; reduce: each sent b, the root received P b; allreduce,
// allgather, alltoall: each sent and received P b (b: the vector, one member's block, one
// peer's block); barrier: nothing.
//
//   collective_trace OUT RANKS REPEAT OP BYTES      (OP: barrier, bcast, reduce, allreduce,
//                                                    allgather, alltoall; root: rank 0)
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "traces/Otf2Writer.hpp"

namespace {

using mapsim::traces::CollectiveOp;

struct Recorded {
  std::int64_t sent = 0;
  std::int64_t received = 0;
};

Recorded recorded(CollectiveOp op, std::int64_t p, std::int64_t b, bool root) {
  switch (op) {
    case CollectiveOp::Bcast:
      return {root ? p * b : 0, b};
    case CollectiveOp::Reduce:
      return {b, root ? p * b : 0};
    case CollectiveOp::Allreduce:
    case CollectiveOp::Allgather:
    case CollectiveOp::Alltoall:
      return {p * b, p * b};
    default:
      return {};
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: collective_trace OUT RANKS REPEAT OP BYTES\n");
    return 2;
  }
  try {
    const std::string_view name = argv[4];
    CollectiveOp op{};
    if (name == "barrier") {
      op = CollectiveOp::Barrier;
    } else if (name == "bcast") {
      op = CollectiveOp::Bcast;
    } else if (name == "reduce") {
      op = CollectiveOp::Reduce;
    } else if (name == "allreduce") {
      op = CollectiveOp::Allreduce;
    } else if (name == "allgather") {
      op = CollectiveOp::Allgather;
    } else if (name == "alltoall") {
      op = CollectiveOp::Alltoall;
    } else {
      std::fprintf(stderr, "collective_trace: unknown OP %s\n", argv[4]);
      return 2;
    }
    const auto ranks = static_cast<mapsim::Rank>(std::stoi(argv[2]));
    const int repeat = std::stoi(argv[3]);
    const std::int64_t bytes = std::stoll(argv[5]);
    const bool rooted = op == CollectiveOp::Bcast || op == CollectiveOp::Reduce;
    mapsim::traces::Otf2WriterOptions options;
    options.overwrite = true;
    options.program = "collective_trace";
    mapsim::traces::Otf2Writer writer(argv[1], options);
    std::vector<mapsim::Rank> world(static_cast<std::size_t>(ranks));
    std::iota(world.begin(), world.end(), 0);
    writer.begin_trace(ranks, {mapsim::traces::CommSpec{"MPI_COMM_WORLD", world, -1}});
    for (mapsim::Rank r = 0; r < ranks; ++r) {
      writer.begin_rank(r);
      writer.init();
      for (int k = 0; k < repeat; ++k) {
        const auto [sent, received] = recorded(op, ranks, bytes, r == 0);
        writer.collective(op, mapsim::traces::kWorld, rooted ? 0 : -1, sent, received);
      }
      writer.finalize();
      writer.end_rank();
    }
    writer.end_trace();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "collective_trace: %s\n", e.what());
    return 1;
  }
  return 0;
}
