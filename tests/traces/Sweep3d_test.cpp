// The sweep3d generator against Sweep3D 2.2b as written: the driver's printed message count,
// the per-block call table of the 2 × 2 worked example, the per-rank formulas, the collectives,
// matching, a replay, and the deck parameters' validation. Every expected value is computed here
// from the code's own formulas (decomp.f, sweep.f, driver.f), not taken from the generator.

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

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using testing::Call;
using testing::CollectiveRecord;
using testing::count_calls;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

GeneratorOptions deck(std::string name, Rank ranks,
                      std::map<std::string, std::int64_t> parameters = {},
                      std::optional<std::int64_t> iterations = {}) {
  GeneratorOptions options;
  options.kernel = "sweep3d";
  options.ranks = ranks;
  options.deck = std::move(name);
  options.parameters = std::move(parameters);
  options.iterations = iterations;
  return options;
}

/// A deck's numbers as the test's own copy of read_input.f and decomp.f use them.
struct Shape {
  std::int64_t npe_i, npe_j, it_g, jt_g, kt, mk, mmi, mm;
  [[nodiscard]] std::int64_t mmo() const { return mm / mmi; }
  [[nodiscard]] std::int64_t kb() const { return (kt + mk - 1) / mk; }
  [[nodiscard]] std::int64_t it(std::int64_t pi) const {
    return it_g / npe_i + (pi < it_g % npe_i ? 1 : 0);
  }
  [[nodiscard]] std::int64_t jt(std::int64_t pj) const {
    return jt_g / npe_j + (pj < jt_g % npe_j ? 1 : 0);
  }
  /// driver.f's "global messages per iteration": 8·mmo·kb·E over the E mesh edges.
  [[nodiscard]] std::int64_t global_messages() const {
    const std::int64_t edges = npe_j * (npe_i - 1) + npe_i * (npe_j - 1);
    return 8 * mmo() * kb() * edges;
  }
};

std::int64_t total_sends(const testing::CallCounter& counted) {
  std::int64_t sends = 0;
  for (Rank r = 0; r < static_cast<Rank>(counted.calls.size()); ++r) {
    sends += counted.count(r, Call::Send);
  }
  return sends;
}

TEST(Sweep3dGenerator, GlobalMessagesPerIterationAsTheDriverPrints) {
  // input.50 on 2 × 3: mmo = 6/3 = 2, kb = 50/10 = 5, E = 3·1 + 2·2 = 7 → 560 (the shipped
  // output.50.mpi_2x3 prints 560); input.150: mmo = 6/2 = 3, kb = 150/30 = 5 → 840; the worked
  // example on 2 × 2: mmo 2, kb 8/4 = 2, E = 4 → 128.
  const Shape input50{2, 3, 50, 50, 50, 10, 3, 6};
  const Shape input150{2, 3, 150, 150, 150, 30, 2, 6};
  const Shape example{2, 2, 8, 8, 8, 4, 3, 6};
  EXPECT_EQ(input50.global_messages(), 560);
  EXPECT_EQ(input150.global_messages(), 840);
  EXPECT_EQ(example.global_messages(), 128);
  EXPECT_EQ(total_sends(count_calls(deck("input.50", 6, {}, 1))), 560);
  EXPECT_EQ(total_sends(count_calls(deck("input.150", 6, {}, 1))), 840);
  EXPECT_EQ(total_sends(count_calls(deck("example", 4, {}, 1))), 128);
  // Over the deck's own 12 (input.50) and 2 (example) iterations.
  EXPECT_EQ(total_sends(count_calls(deck("input.50", 6))), 12 * 560);
  EXPECT_EQ(total_sends(count_calls(deck("example", 4))), 2 * 128);
}

TEST(Sweep3dGenerator, WorkedExampleRankZeroCallsPerBlock) {
  // The fact sheet's B6 table: rank 0 at (1,1), east r1, north r2; both faces 4·4·3 doubles =
  // 384 B; 4 blocks (2 angle blocks × 2 k-blocks) per octant, octants 1 … 8 in order.
  struct Op {
    bool send;
    Rank peer;
    std::int32_t tag;
    bool operator==(const Op&) const = default;
  };
  std::vector<Op> per_iteration;
  for (std::int32_t iq = 1; iq <= 8; ++iq) {
    for (int block = 0; block < 4; ++block) {
      if (iq <= 2) {  // (−i,−j): both faces arrive from east and north
        per_iteration.push_back({false, 1, 3000 * iq});
        per_iteration.push_back({false, 2, 4000 * iq});
      } else if (iq <= 4) {  // (−i,+j)
        per_iteration.push_back({false, 1, 3000 * iq});
        per_iteration.push_back({true, 2, 2000 * iq});
      } else if (iq <= 6) {  // (+i,−j)
        per_iteration.push_back({false, 2, 4000 * iq});
        per_iteration.push_back({true, 1, 1000 * iq});
      } else {  // (+i,+j)
        per_iteration.push_back({true, 1, 1000 * iq});
        per_iteration.push_back({true, 2, 2000 * iq});
      }
    }
  }
  const Trace trace = generate_trace(deck("example", 4));
  std::vector<Op> seen;
  std::int64_t sent = 0, received = 0;
  for (const Event& e : trace.ranks[0].events) {
    if (e.kind != EventKind::Send && e.kind != EventKind::Recv) continue;
    EXPECT_EQ(e.bytes, 384);
    seen.push_back({e.kind == EventKind::Send, e.peer, e.tag});
    (e.kind == EventKind::Send ? sent : received) += e.bytes;
  }
  std::vector<Op> expected = per_iteration;
  expected.insert(expected.end(), per_iteration.begin(), per_iteration.end());
  EXPECT_EQ(seen, expected);
  // 32 sends and 32 receives per iteration, 12,288 B each way; 2 iterations as observed.
  EXPECT_EQ(
      std::count_if(per_iteration.begin(), per_iteration.end(), [](const Op& o) { return o.send; }),
      32);
  EXPECT_EQ(sent, 2 * 12'288);
  EXPECT_EQ(received, 2 * 12'288);
}

TEST(Sweep3dGenerator, PerRankFormulasOverSeveralDecks) {
  // B4: per rank and iteration 4·mmo·kb·(Ni + Nj) sends and receives, and
  // 32·mm·kb·mk·(Ni·jt + Nj·it) bytes, Ni/Nj its E–W/N–S neighbours. Uneven splits included:
  // 50 over 3 is 17, 17, 16; 50 over 4 is 13, 13, 12, 12; mk = 7 leaves a last k-block of one
  // plane, whose messages still carry 7.
  struct Case {
    GeneratorOptions options;
    Shape shape;
  };
  const std::vector<Case> cases{
      {deck("input.50", 6, {}, 2), {2, 3, 50, 50, 50, 10, 3, 6}},
      {deck("input.50", 9, {{"npe_i", 3}, {"npe_j", 3}}, 1), {3, 3, 50, 50, 50, 10, 3, 6}},
      {deck("input.50", 12, {}, 1), {3, 4, 50, 50, 50, 10, 3, 6}},  // most square, npe_i ≤ npe_j
      {deck("input.50", 12, {{"npe_i", 4}, {"mk", 7}}, 1), {4, 3, 50, 50, 50, 7, 3, 6}},
      {deck("input.150", 6, {}, 1), {2, 3, 150, 150, 150, 30, 2, 6}},
      {deck("example", 4, {{"mmi", 1}, {"mm", 3}}, 2), {2, 2, 8, 8, 8, 4, 1, 3}},
      {deck("example", 4, {{"mk", 20}}, 1), {2, 2, 8, 8, 8, 8, 3, 6}},  // mk = min(mk, kt)
      {deck("ohtma", 32, {}, 1), {16, 2, 160, 20, 150, 10, 3, 6}},
      {testing::generator("sweep3d", 'S', 6, 1), {2, 3, 32, 32, 32, 10, 3, 6}},  // mapsim's own
  };
  for (const auto& [options, s] : cases) {
    SCOPED_TRACE(describe(options) + " " + options.deck);
    const auto iterations = *make_workload(options)->iterations();
    const auto counted = count_calls(options);
    const auto matrix = counted.matrix();
    EXPECT_EQ(total_sends(counted), s.global_messages() * iterations);
    for (Rank r = 0; r < s.npe_i * s.npe_j; ++r) {
      const std::int64_t pi = r % s.npe_i;
      const std::int64_t pj = r / s.npe_i;
      const std::int64_t ni = (pi > 0 ? 1 : 0) + (pi + 1 < s.npe_i ? 1 : 0);
      const std::int64_t nj = (pj > 0 ? 1 : 0) + (pj + 1 < s.npe_j ? 1 : 0);
      const std::int64_t messages = 4 * s.mmo() * s.kb() * (ni + nj) * iterations;
      const std::int64_t bytes =
          32 * s.mm * s.kb() * s.mk * (ni * s.jt(pj) + nj * s.it(pi)) * iterations;
      EXPECT_EQ(counted.count(r, Call::Send), messages) << "rank " << r;
      EXPECT_EQ(counted.count(r, Call::Recv), messages) << "rank " << r;
      std::uint64_t row = 0;
      for (const auto& traffic : matrix.traffic(r)) row += traffic.bytes;
      EXPECT_EQ(row, static_cast<std::uint64_t>(bytes)) << "rank " << r;
    }
  }
}

TEST(Sweep3dGenerator, UnevenSplitGivesFacesOfSeventeenAndSixteen) {
  // input.50 on 3 × 3: it = jt = 17, 17, 16. I-faces jt·10·3·8 B: 4080 B on rows 0 and 1, 3840 B
  // on row 2; J-faces it·10·3·8 B likewise by column. 4·mmo·kb = 40 messages per link.
  const auto m = count_calls(deck("input.50", 9, {{"npe_i", 3}, {"npe_j", 3}}, 1)).matrix();
  EXPECT_EQ(m.at(0, 1), (Traffic{40, 40 * 4080}));
  EXPECT_EQ(m.at(7, 6), (Traffic{40, 40 * 3840}));  // row 2: jt = 16
  EXPECT_EQ(m.at(0, 3), (Traffic{40, 40 * 4080}));
  EXPECT_EQ(m.at(5, 2), (Traffic{40, 40 * 3840}));  // column 2: it = 16
  EXPECT_EQ(m.at(0, 4), (Traffic{}));               // no diagonals
}

std::vector<CollectiveRecord> expected_collectives(Rank rank, std::int64_t ranks,
                                                   std::int64_t iterations) {
  using Op = CollectiveOp;
  std::vector<CollectiveRecord> list;
  const auto bcast = [&](std::int64_t b) {
    list.emplace_back(Op::Bcast, 0, rank == 0 ? b * ranks : 0, b);
  };
  const auto allreduce = [&](std::int64_t b) {
    list.emplace_back(Op::Allreduce, -1, b * ranks, b * ranks);
  };
  const auto barrier = [&] { list.emplace_back(Op::Barrier, -1, 0, 0); };
  list.emplace_back(Op::CreateHandle, -1, 0, 0);  // MPI_Init
  bcast(4);                                       // numtasks
  bcast(4 * ranks);                               // task ids
  barrier();
  bcast(64);  // 16 ints
  bcast(32);  // 4 doubles
  barrier();  // inner.f, before the timed loop
  for (std::int64_t i = 0; i < iterations; ++i) {
    allreduce(4);  // fixups, SUM
    allreduce(8);  // flux error, MAX
  }
  barrier();
  for (int i = 0; i < 8; ++i) allreduce(8);        // source, absorption, 6 leakages
  list.emplace_back(Op::DestroyHandle, -1, 0, 0);  // MPI_Finalize
  return list;
}

TEST(Sweep3dGenerator, CollectivesAtStartPerIterationAndAtTheEnd) {
  for (const auto& [options, ranks, iterations] :
       {std::tuple{deck("input.50", 6, {}, 3), 6, 3}, std::tuple{deck("example", 4), 4, 2},
        std::tuple{testing::generator("sweep3d", 'S', 3, 1), 3, 1}}) {
    const auto counted = count_calls(options);
    for (Rank r = 0; r < ranks; ++r) {
      EXPECT_EQ(counted.collectives[static_cast<std::size_t>(r)],
                expected_collectives(r, ranks, iterations))
          << options.deck << " rank " << r;
    }
  }
  // The worked example's observed totals: Allreduce 2×4 B + 10×8 B, Bcasts 4/16/64/32 B, 3
  // Barriers.
  const auto counted = count_calls(deck("example", 4));
  std::map<std::pair<CollectiveOp, std::int64_t>, int> tally;
  for (const auto& [op, root, sent, received] : counted.collectives[1]) {
    ++tally[{op, op == CollectiveOp::Allreduce ? sent / 4 : received}];
  }
  EXPECT_EQ((tally[{CollectiveOp::Allreduce, 4}]), 2);
  EXPECT_EQ((tally[{CollectiveOp::Allreduce, 8}]), 10);
  EXPECT_EQ((tally[{CollectiveOp::Bcast, 4}]), 1);
  EXPECT_EQ((tally[{CollectiveOp::Bcast, 16}]), 1);
  EXPECT_EQ((tally[{CollectiveOp::Bcast, 64}]), 1);
  EXPECT_EQ((tally[{CollectiveOp::Bcast, 32}]), 1);
  EXPECT_EQ((tally[{CollectiveOp::Barrier, 0}]), 3);
}

TEST(Sweep3dGenerator, EverySendHasItsReceive) {
  for (const auto& options :
       {deck("input.50", 6, {}, 1), deck("input.50", 12, {{"mk", 7}}, 1), deck("example", 4),
        deck("ohtma", 32, {}, 1), deck("input.150", 5, {}, 1),
        testing::generator("sweep3d", 'S', 8, 1), deck("example", 1)}) {
    const Trace trace = generate_trace(options);
    EXPECT_THAT(testing::unmatched_messages(trace), IsEmpty()) << options.deck;
    EXPECT_THAT(testing::model_violations(trace), IsEmpty()) << options.deck;
  }
}

TEST(Sweep3dGenerator, ChoosesTheMeshAndIterations) {
  // 6 ranks keep input.50's 2 × 3 (rank 0's north is rank 2); 8 ranks → 2 × 4 (npe_i ≤ npe_j);
  // ohtma on 64 ranks → 16 × 4 with 10 × 10 columns per rank (faces 10·10·3·8 = 2400 B).
  EXPECT_GT(count_calls(deck("input.50", 6, {}, 1)).matrix().at(0, 2).messages, 0u);
  EXPECT_GT(count_calls(deck("input.50", 8, {}, 1)).matrix().at(0, 2).messages, 0u);
  EXPECT_EQ(count_calls(deck("input.50", 8, {}, 1)).matrix().at(0, 3), (Traffic{}));
  const auto ohtma = count_calls(deck("ohtma", 64, {}, 1)).matrix();
  EXPECT_EQ(ohtma.at(0, 1), (Traffic{4 * 2 * 15, 4 * 2 * 15 * 2400}));
  EXPECT_EQ(ohtma.at(0, 16), (Traffic{4 * 2 * 15, 4 * 2 * 15 * 2400}));
  EXPECT_EQ(make_workload(deck("input.50", 6))->iterations(), 12);
  EXPECT_EQ(make_workload(deck("input.150", 6))->iterations(), 12);
  EXPECT_EQ(make_workload(deck("example", 4))->iterations(), 2);
  EXPECT_EQ(make_workload(deck("example", 4, {}, 5))->iterations(), 5);
  EXPECT_EQ(make_workload(testing::generator("sweep3d", 'S', 4))->iterations(), 12);
  // One rank sweeps alone: no messages.
  EXPECT_EQ(total_sends(count_calls(deck("input.50", 1, {}, 1))), 0);
  // isct changes only the source's computation, not the communication.
  EXPECT_EQ(count_calls(deck("input.50", 6, {{"isct", 0}}, 1)).matrix(),
            count_calls(deck("input.50", 6, {}, 1)).matrix());
}

TEST(Sweep3dGenerator, ReplaysToCompletion) {
  const Trace trace = generate_trace(deck("example", 4));
  const auto topology = topo::make_topology("torus:2x2x2");
  std::vector<topo::NodeId> nodes(4);
  std::iota(nodes.begin(), nodes.end(), 0);
  const auto result = sim::simulate(trace, *topology, topo::Mapping(nodes));
  EXPECT_GT(result.makespan, 0);
  EXPECT_EQ(result.rank_finish.size(), 4u);
}

TEST(Sweep3dGenerator, RejectsBadDecksKeysAndValues) {
  EXPECT_THAT(testing::workload_error(deck("input.5", 6)),
              AllOf(HasSubstr("unknown sweep3d deck 'input.5'"), HasSubstr("input.50, input.150"),
                    HasSubstr("did you mean")));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"npe_k", 2}})),
              AllOf(HasSubstr("unknown sweep3d parameter 'npe_k'"),
                    HasSubstr("npe_i, npe_j, it_g, jt_g, kt, mk, mmi, mm, isct"),
                    HasSubstr("did you mean")));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"mmi", 0}})), HasSubstr("mmi=0"));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"kt", -3}})), HasSubstr("kt=-3"));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"isct", 2}})), HasSubstr("isct=2"));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"mm", 4}})), HasSubstr("mm=4"));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"mmi", 4}})),
              AllOf(HasSubstr("mmi=4"), HasSubstr("mm=6"), HasSubstr("multiple")));
  EXPECT_THAT(testing::workload_error(deck("input.50", 4, {{"npe_i", 2}, {"npe_j", 3}})),
              AllOf(HasSubstr("npe_i=2"), HasSubstr("npe_j=3"), HasSubstr("4 requested")));
  EXPECT_THAT(testing::workload_error(deck("input.50", 7, {{"npe_j", 2}})),
              AllOf(HasSubstr("npe_j=2"), HasSubstr("7 ranks")));
  EXPECT_THAT(testing::workload_error(deck("ohtma", 24)),
              AllOf(HasSubstr("npe_i=16"), HasSubstr("24 ranks")));
  EXPECT_THAT(testing::workload_error(deck("input.50", 6, {{"it_g", 1}})),
              AllOf(HasSubstr("it_g=1"), HasSubstr("npe_i=2")));
  EXPECT_THAT(testing::workload_error(deck("example", 9 * 3)),
              HasSubstr("jt_g=8"));  // 3 × 9 on 8 cells
  EXPECT_THAT(testing::workload_error(testing::generator("sweep3d", 'S', 37)),
              HasSubstr("sweep3d class S cannot run on 37 ranks"));
  EXPECT_EQ(testing::workload_error(deck("ohtma", 24, {{"npe_i", 4}})), "(no error)");
}

}  // namespace
}  // namespace mapsim::traces
