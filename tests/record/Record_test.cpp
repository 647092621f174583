// libmapsim-record end to end: the C programs beside this file run under mpirun with the recorder
// preloaded; the point-to-point part of what it writes must be the programs' known pattern, and
// the matrix with collectives what mapsim computes for a trace of the same calls (TraceBuilder,
// Score-P's accounting written out here independently of the recorder). Then mapsim maps a
// recorded matrix onto torus:2x3 and mpirun runs the program under the rankfile it wrote.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "../support/RunMapsim.hpp"
#include "../support/TempDir.hpp"
#include "traces/RecordedMatrix.hpp"
#include "traces/TraceBuilder.hpp"
#include "traces/TraceMatrix.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using traces::CollectiveOp;
using traces::CommMatrix;
using traces::CommSpec;
using traces::kWorld;
using traces::TraceBuilder;

// mpirun as root in a container, more ranks than cores (and what the sanitizers need).
const std::string kMpirun = std::string(MAPSIM_MPIEXEC) + " --allow-run-as-root --oversubscribe " +
                            MAPSIM_RECORD_MPIRUN_OPTIONS;

/// Runs `program` on `ranks` ranks with the recorder writing to `out` (mpirun's output to
/// OUT.log), `options` added to mpirun's and `env` (VAR=value ...) to its environment; returns
/// mpirun's status.
int run_recorded(const std::string& program, int ranks, const fs::path& out,
                 const std::string& options = {}, const std::string& env = {}) {
  const auto log = out.string() + ".log";
  return testing::shell(env + " " + kMpirun + " " + options + " -np " + std::to_string(ranks) +
                        " -x LD_PRELOAD=" + MAPSIM_RECORD_LIBRARY + " -x MAPSIM_RECORD_OUT=" +
                        out.string() + " " + program + " >" + log + " 2>&1");
}

traces::MatrixOptions with_collectives() {
  traces::MatrixOptions options;
  options.collectives = true;
  return options;
}

CommMatrix matrix_of(Rank ranks, const std::vector<std::tuple<Rank, Rank, int, int>>& entries) {
  traces::CommMatrixBuilder builder(ranks);
  for (const auto& [src, dst, messages, bytes] : entries) {
    builder.add(src, dst, static_cast<std::uint64_t>(messages), static_cast<std::uint64_t>(bytes));
  }
  return builder.build();
}

std::vector<Rank> iota(Rank n) {
  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) ranks[static_cast<std::size_t>(r)] = r;
  return ranks;
}

/// The matrix with collectives of a trace whose rank r makes init(), calls(builder, r),
/// finalize().
CommMatrix traced(Rank ranks, std::vector<CommSpec> comms,
                  const std::function<void(TraceBuilder&, Rank)>& calls) {
  TraceBuilder builder("expected");
  builder.begin_trace(ranks, std::move(comms));
  for (Rank r = 0; r < ranks; ++r) {
    builder.begin_rank(r);
    builder.init();
    calls(builder, r);
    builder.finalize();
    builder.end_rank();
  }
  builder.end_trace();
  return traces::matrix_with_collectives(builder.take());
}

std::vector<CommSpec> world(Rank ranks) {
  return {{"MPI_COMM_WORLD", iota(ranks), -1}};
}

// The halo exchange's grid: 2 x 3, row-major.
constexpr Rank kRows = 2;
constexpr Rank kCols = 3;

// Every neighbour pair of the grid: east-west 10 x 800 bytes, north-south 10 x 1,600 bytes.
void for_each_halo_message(const std::function<void(Rank, Rank, int)>& message) {
  for (Rank r = 0; r < kRows * kCols; ++r) {
    const Rank row = r / kCols;
    const Rank col = r % kCols;
    if (col > 0) message(r, r - 1, 800);
    if (col < kCols - 1) message(r, r + 1, 800);
    if (row > 0) message(r, r - kCols, 1600);
    if (row < kRows - 1) message(r, r + kCols, 1600);
  }
}

TEST(Record, HaloExchangeHasItsNeighbourPattern) {
  const TempDir dir;
  const auto out = dir.path() / "halo.csv";
  ASSERT_EQ(run_recorded(MAPSIM_RECORD_HALO2D, 6, out), 0)
      << testing::read_file(out.string() + ".log");
  std::vector<std::tuple<Rank, Rank, int, int>> entries;
  for_each_halo_message(
      [&](Rank from, Rank to, int bytes) { entries.emplace_back(from, to, 10, 10 * bytes); });
  // Point to point only, read as a plain CSV matrix as older mapsims would.
  EXPECT_EQ(traces::read_matrix_csv(out), matrix_of(6, entries));
  EXPECT_EQ(traces::read_matrix_file(out, false), matrix_of(6, entries));

  // With the 10 Allreduces of 8 bytes: P b = 48 sent and received by each rank.
  const auto expected = traced(6, world(6), [](TraceBuilder& b, Rank r) {
    for (int it = 0; it < 10; ++it) {
      for_each_halo_message([&](Rank from, Rank to, int bytes) {
        if (from == r) b.send(to, 0, bytes, kWorld);
      });
      b.collective(CollectiveOp::Allreduce, kWorld, -1, 48, 48);
    }
  });
  EXPECT_EQ(traces::read_recorded_matrix(out, with_collectives()), expected);
  EXPECT_EQ(traces::read_matrix_file(out), expected);

  // mapsim matrix reads it so too.
  const auto csv = dir.path() / "expanded.csv";
  const auto run = testing::run_mapsim("matrix " + out.string() + " --csv " + csv.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(traces::read_matrix_csv(csv), expected);
  const auto p2p_only =
      testing::run_mapsim("matrix " + out.string() + " --p2p-only --csv " + csv.string());
  ASSERT_EQ(p2p_only.exit_code, 0) << p2p_only.err;
  EXPECT_EQ(traces::read_matrix_csv(csv), matrix_of(6, entries));
}

TEST(Record, AllToAllOnFiveRanks) {
  const TempDir dir;
  const auto out = dir.path() / "alltoall.csv";
  constexpr Rank kRanks = 5;  // not a power of two
  ASSERT_EQ(run_recorded(MAPSIM_RECORD_ALLTOALL, kRanks, out), 0)
      << testing::read_file(out.string() + ".log");
  // 3 rounds in which rank r sends (r + 1) x 8 bytes to every other rank.
  std::vector<std::tuple<Rank, Rank, int, int>> entries;
  for (Rank r = 0; r < kRanks; ++r) {
    for (Rank peer = 0; peer < kRanks; ++peer) {
      if (peer != r) entries.emplace_back(r, peer, 3, 3 * (r + 1) * 8);
    }
  }
  EXPECT_EQ(traces::read_matrix_csv(out), matrix_of(kRanks, entries));

  // 2 MPI_Alltoall of 16 ints per peer: 64 P sent and received.
  const auto expected = traced(kRanks, world(kRanks), [](TraceBuilder& b, Rank r) {
    for (int round = 0; round < 3; ++round) {
      for (Rank peer = 0; peer < kRanks; ++peer) {
        if (peer != r) b.send(peer, round, (r + 1) * 8, kWorld);
      }
    }
    for (int k = 0; k < 2; ++k) {
      b.collective(CollectiveOp::Alltoall, kWorld, -1, 64 * kRanks, 64 * kRanks);
    }
  });
  EXPECT_EQ(traces::read_matrix_file(out), expected);
}

TEST(Record, PipelineSendsToTheNextRankOnly) {
  const TempDir dir;
  const auto out = dir.path() / "pipeline.csv";
  constexpr Rank kRanks = 4;
  ASSERT_EQ(run_recorded(MAPSIM_RECORD_PIPELINE, kRanks, out), 0)
      << testing::read_file(out.string() + ".log");
  // 50 x 1,000 (MPI_Send) + 20 x 500 (persistent) + 5 x 64 (MPI_Ssend) = 75 messages, 60,320 B.
  EXPECT_EQ(traces::read_matrix_csv(out),
            matrix_of(kRanks, {{0, 1, 75, 60320}, {1, 2, 75, 60320}, {2, 3, 75, 60320}}));

  // Bcast of 40 bytes from 0: the root sent P b, everyone received b.
  const auto expected = traced(kRanks, world(kRanks), [](TraceBuilder& b, Rank r) {
    if (r + 1 < kRanks) {
      for (int k = 0; k < 75; ++k) b.send(r + 1, 0, k < 50 ? 1000 : k < 70 ? 500 : 64, kWorld);
    }
    b.collective(CollectiveOp::Bcast, kWorld, 0, r == 0 ? 40 * kRanks : 0, 40);
  });
  EXPECT_EQ(traces::read_matrix_file(out), expected);
}

TEST(Record, EveryCollectiveExpandsAsForATrace) {
  const TempDir dir;
  const auto out = dir.path() / "collectives.csv";
  constexpr Rank P = 6;
  ASSERT_EQ(run_recorded(MAPSIM_RECORD_COLLECTIVES, P, out), 0)
      << testing::read_file(out.string() + ".log");
  // The only point-to-point messages: the rings of 7 ints on the two halves, in reverse order
  // ({4, 2, 0}: 4 -> 2 -> 0 -> 4), translated to world ranks.
  EXPECT_EQ(traces::read_matrix_csv(out), matrix_of(P, {{0, 4, 1, 28},
                                                        {1, 5, 1, 28},
                                                        {2, 0, 1, 28},
                                                        {3, 1, 1, 28},
                                                        {4, 2, 1, 28},
                                                        {5, 3, 1, 28}}));

  auto comms = world(P);
  comms.push_back({"even", {4, 2, 0}, 0});
  comms.push_back({"odd", {5, 3, 1}, 0});
  const auto expected = traced(P, comms, [](TraceBuilder& b, Rank r) {
    const auto all = [&](CollectiveOp op, Rank root, std::int64_t sent, std::int64_t received) {
      b.collective(op, kWorld, root, sent, received);
    };
    all(CollectiveOp::Barrier, -1, 0, 0);
    all(CollectiveOp::Bcast, 2, r == 2 ? 800 * P : 0, 800);
    all(CollectiveOp::Reduce, 1, 40, r == 1 ? 40 * P : 0);
    for (int k = 0; k < 3; ++k) all(CollectiveOp::Allreduce, -1, 8000 * P, 8000 * P);
    all(CollectiveOp::Allreduce, -1, 16384 * P, 16384 * P);
    all(CollectiveOp::Allgather, -1, 16 * P, 16 * P);
    all(CollectiveOp::Alltoall, -1, 32 * P, 32 * P);
    all(CollectiveOp::Gather, 0, 20, r == 0 ? 20 * P : 0);
    all(CollectiveOp::Scatter, 4, r == 4 ? 12 * P : 0, 12);
    all(CollectiveOp::ReduceScatterBlock, -1, 16 * P, 16);  // sent: the whole vector
    all(CollectiveOp::Scan, -1, 4 * (P - r), 4 * (r + 1));
    all(CollectiveOp::Exscan, -1, 4 * (P - r - 1), 4 * r);
    all(CollectiveOp::Bcast, 0, r == 0 ? 16 * P : 0, 16);  // Ibcast
    all(CollectiveOp::Allreduce, -1, 64 * P, 64 * P);      // Iallreduce
    // v-forms: counts j + 1 ints to or from rank j, rank r's own r + 1.
    const std::int64_t sum = 4 * P * (P + 1) / 2;
    all(CollectiveOp::Alltoallv, -1, sum, 4 * (r + 1) * P);
    all(CollectiveOp::Gatherv, 3, 4 * (r + 1), r == 3 ? sum : 0);
    all(CollectiveOp::Allgatherv, -1, 4 * (r + 1) * P, sum);
    all(CollectiveOp::Scatterv, 0, r == 0 ? sum + 4 * P : 0, 4 * (r + 2));
    all(CollectiveOp::ReduceScatter, -1, 2 * sum, 8 * (r + 1));
    all(CollectiveOp::Barrier, -1, 0, 0);  // Ibarrier
    const traces::CommId half = r % 2 == 0 ? 1 : 2;
    b.comm_split(kWorld, half);
    const Rank first = r % 2 == 0 ? 4 : 5;  // rank 0 of the half
    b.collective(CollectiveOp::Allreduce, half, -1, 96, 96);
    b.collective(CollectiveOp::Bcast, half, first, r == first ? 120 : 0, 40);
    // The ring: world rank r sends to r - 2, the half's last (0 or 1) to its first (4 or 5).
    b.send(r == first - 4 ? first : r - 2, 9, 28, half);
  });
  EXPECT_EQ(traces::read_matrix_file(out), expected);
}

// The rankfile mapsim writes names nodes node0..node5, which do not exist: local-ssh.sh stands
// in for ssh and starts each node's Open MPI daemon on this machine, with a temporary directory
// each (in this test's) and the hwloc shared-memory topology and PMIx store off (several daemons
// on one machine crash on them). mpirun then places every rank on the node the rankfile says, as
// --display-map shows.
TEST(Record, MappedRankfileRunsTheProgram) {
  const TempDir dir;
  const auto recorded = dir.path() / "halo.csv";
  ASSERT_EQ(run_recorded(MAPSIM_RECORD_HALO2D, 6, recorded), 0);
  const auto rankfile = dir.path() / "halo.rankfile";
  const auto map = testing::run_mapsim("map --matrix " + recorded.string() +
                                       " --topology torus:2x3 --mapper greedy --out " +
                                       rankfile.string() + " --mapping-format rankfile");
  ASSERT_EQ(map.exit_code, 0) << map.err;
  const auto text = testing::read_file(rankfile);
  std::map<std::string, std::string> node_of;  // rank -> node, from "rank 3=node5 slot=0"
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find('=');
    if (!line.starts_with("rank ") || equals == std::string::npos) continue;
    node_of[line.substr(5, equals - 5)] =
        line.substr(equals + 1, line.find(' ', equals) - equals - 1);
  }
  ASSERT_EQ(node_of.size(), 6u) << text;

  const auto again = dir.path() / "again.csv";
  const std::string options = std::string("--mca plm_rsh_agent ") + MAPSIM_LOCAL_SSH +
                              " --mca rtc ^hwloc --rankfile " + rankfile.string() +
                              " --display-map";
  ASSERT_EQ(run_recorded(MAPSIM_RECORD_HALO2D, 6, again, options,
                         "TMPDIR=" + dir.path().string() + " PMIX_MCA_gds=hash"),
            0)
      << testing::read_file(again.string() + ".log");
  // --display-map: "Data for node: node3 ..." then the node's "Process rank: 5" lines.
  const auto log = testing::read_file(again.string() + ".log");
  std::string node;
  std::map<std::string, std::string> placed;
  std::istringstream map_lines(log);
  for (std::string line; std::getline(map_lines, line);) {
    const std::string node_key = "Data for node: ";
    const std::string rank_key = "Process rank: ";
    if (const auto at = line.find(node_key); at != std::string::npos) {
      const auto first = at + node_key.size();
      node = line.substr(first, line.find_first_of(" \t", first) - first);
    } else if (const auto where = line.find(rank_key); where != std::string::npos) {
      const auto first = where + rank_key.size();
      placed[line.substr(first, line.find_first_of(" \t", first) - first)] = node;
    }
  }
  EXPECT_EQ(placed, node_of) << log;
  // Where the ranks run does not change what they send.
  EXPECT_EQ(traces::read_matrix_file(again), traces::read_matrix_file(recorded));
}

}  // namespace
}  // namespace mapsim
