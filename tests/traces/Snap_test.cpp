// The snap generator against SNAP 1.12's communication: the worked example on qasnap's sample deck
// (2 x 2 ranks, one thread), the per-rank formulas over several decks, both sweep drivers, the
// collectives, a replay, and every kind of bad deck. Expectations are computed here from SNAP's
// rules (docs/workloads.md, SNAP section), not copied from the generator.

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "tests/traces/TraceChecks.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using testing::count_calls;
using ::testing::HasSubstr;

GeneratorOptions snap(std::string deck, Rank ranks, std::map<std::string, std::int64_t> set = {},
                      std::optional<std::int64_t> iterations = {}) {
  GeneratorOptions options;
  options.kernel = "snap";
  options.deck = std::move(deck);
  options.ranks = ranks;
  options.iterations = iterations;
  options.parameters = std::move(set);
  return options;
}

enum class Kind { Send, Recv, Isend, Irecv, Waitall, Wait, Collective, Handle };

/// One call as a test compares it: point-to-point peer, tag, bytes and communicator; Waitall the
/// number of requests; collectives the operation and the bytes this rank sent.
struct Call {
  Kind kind = Kind::Send;
  Rank peer = -1;
  std::int32_t tag = 0;
  std::int64_t bytes = 0;
  CommId comm = 0;
  CollectiveOp op = CollectiveOp::None;
  friend bool operator==(const Call&, const Call&) = default;
};

std::ostream& operator<<(std::ostream& out, const Call& c) {
  return out << "{kind " << static_cast<int>(c.kind) << ", peer " << c.peer << ", tag " << c.tag
             << ", bytes " << c.bytes << ", comm " << c.comm << "}";
}

/// Records every call of every rank, in program order.
class Recorder final : public MpiCallSink {
 public:
  std::vector<std::vector<Call>> calls;

 private:
  std::vector<Call>& mine() { return calls[static_cast<std::size_t>(current_rank())]; }
  void on_begin_trace() override { calls.assign(static_cast<std::size_t>(rank_count()), {}); }
  void on_begin_rank() override {}
  void on_end_rank() override {}
  void on_end_trace() override {}
  void on_compute(std::int64_t) override {}
  void on_handle(MpiFunction, CommId comm, CommId) override {
    mine().push_back({Kind::Handle, -1, 0, 0, comm, CollectiveOp::None});
  }
  void on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes, CommId comm,
               RequestId) override {
    mine().push_back({blocking ? Kind::Send : Kind::Isend, to, tag, bytes, comm});
  }
  void on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) override {
    mine().push_back({Kind::Recv, from, tag, bytes, comm});
  }
  void on_irecv(const Completion& c) override {
    mine().push_back({Kind::Irecv, c.peer, c.tag, c.bytes, c.comm});
  }
  void on_wait(MpiFunction function, std::span<const Completion> done) override {
    mine().push_back({function == MpiFunction::Wait ? Kind::Wait : Kind::Waitall, -1, 0,
                      static_cast<std::int64_t>(done.size()), 0});
  }
  void on_collective(CollectiveOp op, CommId comm, Rank, std::int64_t sent, std::int64_t) override {
    mine().push_back({Kind::Collective, -1, 0, sent, comm, op});
  }
};

Recorder record(const GeneratorOptions& options) {
  Recorder recorder;
  run_workload(*make_workload(options), recorder);
  return recorder;
}

std::vector<Call> only(const std::vector<Call>& calls, std::initializer_list<Kind> kinds) {
  std::vector<Call> kept;
  for (const auto& c : calls) {
    if (std::find(kinds.begin(), kinds.end(), c.kind) != kinds.end()) kept.push_back(c);
  }
  return kept;
}

std::int64_t count(const std::vector<Call>& calls, Kind kind) {
  return std::count_if(calls.begin(), calls.end(), [&](const Call& c) { return c.kind == kind; });
}

// Communicator ids of a npey x npez run: WORLD 0, comm_snap 1, comm_space 2, ycomm of zproc z
// 3 + z, zcomm of yproc y 3 + npez + y.
CommId ycomm(std::int64_t z) {
  return static_cast<CommId>(3 + z);
}
CommId zcomm(std::int64_t npez, std::int64_t y) {
  return static_cast<CommId>(3 + npez + y);
}

// The sample deck: nx = ny = nz = 6, ichunk 2, nang 10, ng 4; on 2 x 2 ranks ny_l = nz_l = 3,
// nc = 3, and both faces are 10·2·3 doubles = 480 B.
constexpr std::int64_t kSampleFace = 10 * 2 * 3 * 8;

TEST(SnapGenerator, SampleClassicDriverIsTheWorkedExampleCallForCall) {
  // One inner per outer and one outer: the first sweep is the one of SNAP's worked example.
  const auto rec = record(snap("sample", 4, {{"multiswp", 0}, {"inners", 1}}, 1));
  const auto p2p = only(rec.calls[0], {Kind::Recv, Kind::Isend, Kind::Waitall});
  // Rank 0 = (y0, z0): y neighbour r1 on ycomm(0), z neighbour r2 on zcomm(y0). Corners in
  // corner_sch order for npey <= npez: (1,1), (2,1), (2,2), (1,2); tag = 16384·g + 2·nc·corner
  // + iop with corner = (jd−1) + 2(kd−1), i.e. offsets 0, 6, 18, 12. The Waitall completes the
  // previous chunk op's Isends (its count) and is skipped the very first time (nothing pending).
  const Call y_in{Kind::Recv, 1, 0, kSampleFace, ycomm(0)};
  const Call z_in{Kind::Recv, 2, 0, kSampleFace, zcomm(2, 0)};
  const Call y_out{Kind::Isend, 1, 0, kSampleFace, ycomm(0)};
  const Call z_out{Kind::Isend, 2, 0, kSampleFace, zcomm(2, 0)};
  std::vector<Call> expected;
  std::int64_t pending = 0;
  const auto with_tag = [](Call c, std::int32_t tag) {
    c.tag = tag;
    return c;
  };
  const auto waitall = [&](std::int64_t sends_after) {
    if (pending > 0) expected.push_back({Kind::Waitall, -1, 0, pending, 0});
    pending = sends_after;
  };
  for (std::int32_t g = 1; g <= 4; ++g) {  // (1,1): receive only
    for (std::int32_t iop = 1; iop <= 6; ++iop) {
      expected.push_back(with_tag(y_in, 16384 * g + iop));
      expected.push_back(with_tag(z_in, 16384 * g + iop));
    }
  }
  for (std::int32_t g = 1; g <= 4; ++g) {  // (2,1): from z, to y
    for (std::int32_t iop = 1; iop <= 6; ++iop) {
      expected.push_back(with_tag(z_in, 16384 * g + 6 + iop));
      waitall(1);
      expected.push_back(with_tag(y_out, 16384 * g + 6 + iop));
    }
  }
  for (std::int32_t g = 1; g <= 4; ++g) {  // (2,2): starts here, to y and z
    for (std::int32_t iop = 1; iop <= 6; ++iop) {
      waitall(2);
      expected.push_back(with_tag(y_out, 16384 * g + 18 + iop));
      expected.push_back(with_tag(z_out, 16384 * g + 18 + iop));
    }
  }
  for (std::int32_t g = 1; g <= 4; ++g) {  // (1,2): from y, to z
    for (std::int32_t iop = 1; iop <= 6; ++iop) {
      expected.push_back(with_tag(y_in, 16384 * g + 12 + iop));
      waitall(1);
      expected.push_back(with_tag(z_out, 16384 * g + 12 + iop));
    }
  }
  ASSERT_GE(p2p.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(p2p[i], expected[i]) << "call " << i;
  // 24 Isends per group-sweep: 12 to each neighbour.
  EXPECT_EQ(count(std::vector<Call>(p2p.begin(),
                                    p2p.begin() + static_cast<std::ptrdiff_t>(expected.size())),
                  Kind::Isend),
            4 * 24);
}

TEST(SnapGenerator, SampleConcurrentDriverStartsAsSnapDoes) {
  const auto rec = record(snap("sample", 4));
  const auto p2p = only(rec.calls[0], {Kind::Irecv, Kind::Isend, Kind::Waitall});
  // Corners 1 = (1,1), 2 = (2,1), 3 = (1,2), 4 = (2,2); tag 16384·g + 4096·(c−1) + ic_op. Rank 0
  // posts the first receives of every corner that has an upstream neighbour, then sweeps corner
  // 4, which starts at it: tag 16384 + 3·4096 + 1 = 28673 to r1 and r2, no wait before.
  const std::vector<Call> first{
      {Kind::Irecv, 1, 16385, kSampleFace, ycomm(0)},
      {Kind::Irecv, 2, 16385, kSampleFace, zcomm(2, 0)},
      {Kind::Irecv, 2, 16384 + 4096 + 1, kSampleFace, zcomm(2, 0)},
      {Kind::Irecv, 1, 16384 + 8192 + 1, kSampleFace, ycomm(0)},
      {Kind::Isend, 1, 28673, kSampleFace, ycomm(0)},
      {Kind::Isend, 2, 28673, kSampleFace, zcomm(2, 0)},
  };
  ASSERT_GE(p2p.size(), first.size());
  EXPECT_EQ(std::vector<Call>(p2p.begin(), p2p.begin() + 6), first);
  // Next round: corner 2 (2,1) is ready too (r2, upstream in z, did its first op in the first
  // round) and ties with corner 4 on tcor (nstg − 0 − stage 1 = nstg − 1 − stage 0); the lower
  // corner wins. It waits for its z receive, then sends +y to r1 only (no z neighbour downstream),
  // tag 16384 + 4096 + 1.
  EXPECT_EQ(p2p[6], (Call{Kind::Waitall, -1, 0, 1, 0}));
  EXPECT_EQ(p2p[7], (Call{Kind::Isend, 1, 16384 + 4096 + 1, kSampleFace, ycomm(0)}));
}

TEST(SnapGenerator, SampleCountsMatchTheObservedRun) {
  // Default schedule: 2 outers x 5 inners + the extra outer = 11 inners of 4 groups, 44
  // group-sweeps, as many as the observed run (which converged in 17 + 14 + 9 + 4). Per rank:
  // 44·24 = 1056 Isends and as many receives; multiswp=0 makes 44·6·3 = 792 Waitalls on rank 0
  // (3 corners with a downstream neighbour; one Waitall moves from the start to the end).
  for (const std::int64_t driver : {0, 1}) {
    const auto rec = record(snap("sample", 4, {{"multiswp", driver}}));
    for (Rank r = 0; r < 4; ++r) {
      const auto& calls = rec.calls[static_cast<std::size_t>(r)];
      EXPECT_EQ(count(calls, Kind::Isend), 1056) << r;
      EXPECT_EQ(count(calls, driver == 0 ? Kind::Recv : Kind::Irecv) -
                    (r == 0 && driver == 0 ? 8 : 0),  // rank 0's output gather
                1056)
          << r;
      if (driver == 0) {
        EXPECT_EQ(count(calls, Kind::Waitall), 792) << r;
      }
    }
    // Output: ranks 2 and 3 own k-plane nz/2+1 = 4 and send 4 groups x 6·3 doubles (144 B).
    for (Rank r = 0; r < 4; ++r) {
      const auto sends = only(rec.calls[static_cast<std::size_t>(r)], {Kind::Send});
      EXPECT_EQ(sends.size(), r >= 2 ? 4u : 0u);
      for (const auto& s : sends) EXPECT_EQ(s, (Call{Kind::Send, 0, s.tag, 144, 2}));
    }
  }
}

TEST(SnapGenerator, ThreeByTwoFaces) {
  // npey 3, npez 2: y-faces nang·ichunk·nz_l = 10·2·3 doubles = 480 B, z-faces 10·2·2 = 320 B.
  // An interior-y rank has a downstream neighbour in every corner: 44·6·4 = 1056 Waitalls.
  const auto rec = record(snap("sample", 6, {{"npey", 3}, {"npez", 2}, {"multiswp", 0}}));
  for (Rank r = 0; r < 6; ++r) {
    const auto z = r / 3;
    for (const auto& c : only(rec.calls[static_cast<std::size_t>(r)], {Kind::Isend, Kind::Recv})) {
      if (c.comm == ycomm(z)) {
        EXPECT_EQ(c.bytes, 480) << r;
      } else if (c.comm != 2) {
        EXPECT_EQ(c.bytes, 320) << r;
      }
    }
  }
  EXPECT_EQ(count(rec.calls[4], Kind::Waitall), 1056);
  EXPECT_EQ(count(rec.calls[1], Kind::Waitall), 1056);
  // Rank 4 = (y1, z1) talks to 3 and 5 in y and to 1 in z.
  std::vector<Rank> peers;
  for (const auto& c : only(rec.calls[4], {Kind::Isend})) peers.push_back(c.peer);
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  EXPECT_EQ(peers, (std::vector<Rank>{1, 3, 5}));
}

struct Shape {
  std::string deck;
  Rank ranks;
  std::map<std::string, std::int64_t> set;
  // The deck's sizes after the overrides, for the formulas.
  std::int64_t npey, npez, nx, ny, nz, ichunk, nang, ng, steps;
};

TEST(SnapGenerator, PerRankFormulasOverSeveralDecks) {
  // One outer of one inner plus the extra outer: 2 sweeps of all groups per time step.
  const std::vector<Shape> shapes{
      {"sample", 4, {}, 2, 2, 6, 6, 6, 2, 10, 4, 1},
      {"sample", 6, {{"npey", 3}}, 3, 2, 6, 6, 6, 2, 10, 4, 1},
      {"sample", 6, {{"npey", 1}, {"ichunk", 3}}, 1, 6, 6, 6, 6, 3, 10, 4, 1},
      {"benchmark", 16, {{"ng", 3}}, 4, 4, 640, 16, 16, 64, 48, 3, 2},
      {"benchmark", 8, {{"ng", 2}, {"npey", 2}}, 2, 4, 640, 16, 16, 64, 48, 2, 2},
      {"ohtma", 32, {{"ng", 2}}, 16, 2, 32, 128, 16, 8, 48, 2, 1},
  };
  for (const auto& s : shapes) {
    SCOPED_TRACE(s.deck + " on " + std::to_string(s.ranks));
    for (const std::int64_t driver : {0, 1}) {
      auto set = s.set;
      set["multiswp"] = driver;
      set["inners"] = 1;
      set["soloutp"] = 0;
      const auto counter = count_calls(snap(s.deck, s.ranks, set, 1));
      const auto matrix = counter.matrix();
      const std::int64_t sweeps = 2 * s.steps;
      const std::int64_t g = sweeps * s.ng;  // group-sweeps
      const std::int64_t nc = s.nx / s.ichunk;
      const std::int64_t ny_l = s.ny / s.npey, nz_l = s.nz / s.npez;
      std::int64_t grid_messages = 0;
      for (Rank r = 0; r < s.ranks; ++r) {
        const std::int64_t y = r % s.npey, z = r / s.npey;
        const std::int64_t n_y = (y > 0) + (y < s.npey - 1);
        const std::int64_t n_z = (z > 0) + (z < s.npez - 1);
        const auto sends = counter.count(r, testing::Call::Isend);
        EXPECT_EQ(sends, g * 4 * nc * (n_y + n_z)) << "rank " << r << " driver " << driver;
        EXPECT_EQ(counter.count(r, driver == 0 ? testing::Call::Recv : testing::Call::Irecv),
                  g * 4 * nc * (n_y + n_z));
        std::int64_t bytes = 0;
        for (const auto& t : matrix.traffic(r)) bytes += static_cast<std::int64_t>(t.bytes);
        EXPECT_EQ(bytes, g * 32 * s.nang * s.nx * (n_y * nz_l + n_z * ny_l)) << "rank " << r;
        grid_messages += sends;
      }
      const std::int64_t edges = s.npez * (s.npey - 1) + s.npey * (s.npez - 1);
      EXPECT_EQ(grid_messages, g * 8 * nc * edges);
    }
  }
}

TEST(SnapGenerator, BothDriversSendTheSameMultisetOfMessages) {
  // Peers, sizes and communicators agree; only tags, call types and order differ.
  const auto messages = [](std::int64_t driver) {
    const auto rec = record(snap("sample", 6, {{"multiswp", driver}, {"npey", 3}}));
    std::vector<std::tuple<Rank, Rank, std::int64_t, CommId>> all;
    for (Rank r = 0; r < 6; ++r) {
      for (const auto& c : rec.calls[static_cast<std::size_t>(r)]) {
        if (c.kind == Kind::Isend || c.kind == Kind::Send)
          all.emplace_back(r, c.peer, c.bytes, c.comm);
      }
    }
    std::sort(all.begin(), all.end());
    return all;
  };
  EXPECT_EQ(messages(0), messages(1));
}

TEST(SnapGenerator, EverySendIsMatchedAndTheTraceIsWellFormed) {
  for (const std::int64_t driver : {0, 1}) {
    for (const auto& options : {snap("sample", 4, {{"multiswp", driver}}),
                                snap("sample", 6, {{"multiswp", driver}, {"npey", 3}}),
                                snap("benchmark", 16, {{"multiswp", driver}, {"ng", 2}}, 1)}) {
      const auto trace = generate_trace(options);
      EXPECT_THAT(testing::unmatched_messages(trace), ::testing::IsEmpty()) << driver;
      EXPECT_THAT(testing::model_violations(trace), ::testing::IsEmpty()) << driver;
    }
  }
}

TEST(SnapGenerator, Collectives) {
  // Start: Barrier, 5 Bcast 4 B, Bcast 120 B, Bcast 120 B, Barrier, Bcast 4 B, Allreduce 4 B
  // (pinit_omp), 6 Allreduce 4 B (setup 4, translv 2). Per inner Allreduce 8·ng B, per outer 8 B;
  // 3 outers x 2 inners + the extra outer = 7 inners, 4 outers. End (soloutp = 1): Bcast 4 B,
  // Barrier, Bcast 4 B. All on comm_snap (id 1). The sample has ng = 4: 32-byte Allreduces.
  const auto rec = record(snap("sample", 4, {{"inners", 2}, {"outers", 3}}));
  std::vector<std::pair<CollectiveOp, std::int64_t>> expected;  // (op, payload bytes)
  const auto add = [&](CollectiveOp op, std::int64_t bytes, int times = 1) {
    for (int i = 0; i < times; ++i) expected.emplace_back(op, bytes);
  };
  add(CollectiveOp::Barrier, 0);
  add(CollectiveOp::Bcast, 4, 5);
  add(CollectiveOp::Bcast, 120, 2);
  add(CollectiveOp::Barrier, 0);
  add(CollectiveOp::Bcast, 4);
  add(CollectiveOp::Allreduce, 4, 7);
  for (int outer = 0; outer < 4; ++outer) {
    add(CollectiveOp::Allreduce, 32, outer < 3 ? 2 : 1);
    add(CollectiveOp::Allreduce, 8);
  }
  add(CollectiveOp::Bcast, 4);
  add(CollectiveOp::Barrier, 0);
  add(CollectiveOp::Bcast, 4);
  for (Rank r = 0; r < 4; ++r) {
    std::vector<std::pair<CollectiveOp, std::int64_t>> got;
    for (const auto& c : only(rec.calls[static_cast<std::size_t>(r)], {Kind::Collective})) {
      EXPECT_EQ(c.comm, 1);
      // Score-P's sent bytes: Allreduce b·P, Bcast root b·P and others 0 (Mpi in Workload.hpp).
      const std::int64_t payload = c.op == CollectiveOp::Allreduce ? c.bytes / 4
                                   : c.op == CollectiveOp::Bcast   ? (r == 0 ? c.bytes / 4 : -1)
                                                                   : c.bytes;
      got.emplace_back(c.op, payload);
    }
    auto want = expected;
    if (r != 0) {
      for (auto& [op, bytes] : want) {
        if (op == CollectiveOp::Bcast) bytes = -1;  // non-roots send nothing
      }
    }
    EXPECT_EQ(got, want) << "rank " << r;
  }
}

TEST(SnapGenerator, ReplaysToCompletionWithBothDrivers) {
  // The sample deck (eager messages) and the benchmark deck, whose 98,304-byte faces go by
  // rendezvous: both drivers' orders complete.
  for (const std::int64_t driver : {0, 1}) {
    for (const auto& options :
         {snap("sample", 4, {{"multiswp", driver}}),
          snap("benchmark", 16, {{"multiswp", driver}, {"ng", 2}, {"inners", 2}}, 2)}) {
      const Trace trace = generate_trace(options);
      const auto topology = topo::make_topology("torus:4x4");
      std::vector<topo::NodeId> nodes(static_cast<std::size_t>(options.ranks));
      std::iota(nodes.begin(), nodes.end(), 0);
      const auto result = sim::simulate(trace, *topology, topo::Mapping(nodes));
      EXPECT_GT(result.makespan, 0);
      EXPECT_EQ(result.rank_finish.size(), static_cast<std::size_t>(options.ranks));
    }
  }
}

TEST(SnapGenerator, DecompositionWhenTheRankCountDiffers) {
  // The sample deck on 6 ranks without npey/npez: the most nearly square grid dividing ny = nz =
  // 6, npey <= npez on a tie: 2 x 3, so y-faces 10·2·2 doubles (320 B), z-faces 10·2·3 (480 B).
  const auto rec = record(snap("sample", 6));
  for (const auto& c : only(rec.calls[0], {Kind::Isend})) {
    EXPECT_EQ(c.bytes, c.comm == ycomm(0) ? 320 : 480);
  }
  EXPECT_EQ(make_workload(snap("sample", 6))->rank_count(), 6);
  // ohtma: npey 16, npez = N/16, per-rank sizes constant.
  EXPECT_EQ(make_workload(snap("ohtma", 256))->rank_count(), 256);
  EXPECT_EQ(make_workload(snap("ohtma", 4096, {{"multiswp", 0}}))->rank_count(), 4096);
  // --iterations is the outer count; the outers parameter the same.
  EXPECT_EQ(make_workload(snap("sample", 4, {}, 7))->iterations(), 7);
  EXPECT_EQ(make_workload(snap("sample", 4, {{"outers", 5}}))->iterations(), 5);
  EXPECT_EQ(make_workload(snap("sample", 4))->iterations(), 2);
}

TEST(SnapGenerator, RejectsBadDecksKeysAndValues) {
  EXPECT_THAT(testing::workload_error(snap("sampel", 4)),
              AllOf(HasSubstr("unknown snap deck 'sampel'"), HasSubstr("sample, benchmark, ohtma"),
                    HasSubstr("did you mean 'sample'")));
  // Without a deck, the sample deck.
  EXPECT_EQ(make_workload(snap("", 9))->rank_count(), 9);
  EXPECT_THAT(testing::workload_error(snap("", 7)),
              HasSubstr("snap deck 'sample': no npey x npez grid of 7 ranks"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"npy", 2}})),
              AllOf(HasSubstr("unknown parameter 'npy'"), HasSubstr("npey, npez"),
                    HasSubstr("did you mean")));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"npey", 3}, {"npez", 2}})),
              AllOf(HasSubstr("npey*npez = 3*2 = 6"), HasSubstr("rank count")));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"npey", 4}})),
              HasSubstr("npey = 4 must divide ny = 6"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"nz", 5}})),
              HasSubstr("npez = 2 must divide nz = 5"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"ichunk", 4}})),
              HasSubstr("ichunk = 4 must divide nx = 6"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"multiswp", 2}})),
              AllOf(HasSubstr("multiswp = 2 is out of range 0 .. 1")));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"nang", 0}})),
              HasSubstr("nang = 0 is out of range"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"inners", 6}})),
              HasSubstr("inners = 6 exceeds iitm = 5"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"outers", 31}})),
              HasSubstr("outers = 31 exceeds oitm = 30"));
  EXPECT_THAT(testing::workload_error(snap("sample", 5, {{"npey", 2}})),
              HasSubstr("npey = 2 does not divide the rank count 5"));
  EXPECT_THAT(testing::workload_error(snap("sample", 7)),
              HasSubstr("no npey x npez grid of 7 ranks"));
  EXPECT_THAT(testing::workload_error(snap("ohtma", 40)),
              HasSubstr("40 ranks is not a multiple of npey = 16"));
  EXPECT_THAT(testing::workload_error(snap("sample", 4, {{"kplane", 7}})), HasSubstr("kplane = 7"));
  // Deck parameters belong to snap and sweep3d only.
  auto lu = snap("sample", 4);
  lu.kernel = "lu";
  EXPECT_THAT(testing::workload_error(lu), HasSubstr("apply to snap and sweep3d only"));
}

}  // namespace
}  // namespace mapsim::traces
