// One matrix everywhere (issue 23): `matrix`, `map`, `simulate --mapper`, `advise` and sweeps give
// the mappers the same matrix of a trace — its point-to-point messages and its collectives'
// messages as the replay sends them by default, point-to-point only with --p2p-only (matrix:
// {collectives: false} in a config), under Open MPI's algorithms with --collectives ompi (mpi:
// {collectives: ompi}), and sweeps replay as `simulate` does under the same algorithms — on every
// trace in tests/data; and they say so when the matrix could mislead (empty, mostly collectives).

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Sqlite.hpp"
#include "mappers/Metrics.hpp"
#include "tests/cli/SmallSweep.hpp"
#include "tests/support/JsonText.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/CommMatrix.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::json_values;
using ::testing::Not;
using testing::run_mapsim;
using testing::sh;
using testing::TempDir;

const fs::path kTraces = fs::path(MAPSIM_TEST_DATA_DIR) / "npb";
constexpr const char* kMachine = "torus:2x3x4";  // 24 nodes: every trace's ranks fit

std::vector<fs::path> test_traces() {
  std::vector<fs::path> traces;
  for (const auto& entry : fs::directory_iterator(kTraces)) traces.push_back(entry.path());
  std::sort(traces.begin(), traces.end());
  return traces;
}

// What the matrix counts: collectives under MPICH's algorithms (the default), none, or Open MPI's.
enum class Counting : std::uint8_t { Default, P2pOnly, Ompi };

class OneMatrix : public ::testing::TestWithParam<Counting> {};

TEST_P(OneMatrix, MatrixMapSimulateAndSweepsAgreeOnEveryTrace) {
  const bool p2p_only = GetParam() == Counting::P2pOnly;
  const bool ompi = GetParam() == Counting::Ompi;
  const std::string flag = p2p_only ? " --p2p-only" : ompi ? " --collectives ompi" : "";
  const auto topology = topo::make_topology(kMachine);
  const auto traces = test_traces();
  ASSERT_GE(traces.size(), 10U);
  for (const auto& trace : traces) {
    SCOPED_TRACE(trace.filename().string() + flag);
    const TempDir dir;
    // The matrix as `matrix` writes it.
    const auto csv = dir.path() / "m.csv";
    const auto m = run_mapsim("matrix " + sh(trace) + flag + " --csv " + sh(csv));
    ASSERT_EQ(m.exit_code, 0) << m.err;
    const auto matrix = traces::read_matrix_csv(csv);

    // `map` maps that matrix: its totals, and in-order's hop-bytes computed here from the CSV.
    const auto mapping_file = dir.path() / "greedy.map";
    const auto map = run_mapsim("map --trace " + sh(trace) + " --topology " + kMachine +
                                " --mapper in-order,greedy --format json" + flag);
    ASSERT_EQ(map.exit_code, 0) << map.err;
    EXPECT_EQ(json_values(map.out, "messages"),
              std::vector<std::string>{std::to_string(matrix.total().messages)});
    EXPECT_EQ(json_values(map.out, "message_bytes"),
              std::vector<std::string>{std::to_string(matrix.total().bytes)});
    const auto in_order = topo::in_order_mapping(matrix.rank_count(), *topology);
    const auto hop_bytes = json_values(map.out, "hop_bytes");
    ASSERT_EQ(hop_bytes.size(), 2U);
    EXPECT_EQ(hop_bytes[0], std::to_string(map::metrics::hop_bytes(matrix, *topology, in_order)));
    const auto greedy = run_mapsim("map --trace " + sh(trace) + " --topology " + kMachine +
                                   " --mapper greedy --out " + sh(mapping_file) + flag);
    ASSERT_EQ(greedy.exit_code, 0) << greedy.err;

    // `simulate --mapper greedy` replays the mapping `map` wrote: the same mapping, so the same
    // replay to the picosecond.
    const std::string replay = "simulate --trace " + sh(trace) + " --topology " + kMachine +
                               " --model analytic --compute-scale 0 --format json";
    const auto mapped = run_mapsim(replay + " --mapper greedy" + flag);
    const auto given =
        run_mapsim(replay + " --mapping " + sh(mapping_file) + (ompi ? " --collectives ompi" : ""));
    ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
    ASSERT_EQ(given.exit_code, 0) << given.err;
    EXPECT_EQ(json_values(mapped.out, "makespan_ps"), json_values(given.out, "makespan_ps"));
    EXPECT_EQ(json_values(mapped.out, "makespan_ps").size(), 1U);

    // `advise` maps the same matrix: its in-order row has map's hop-bytes.
    const auto advise = run_mapsim("advise " + sh(trace) + " --topology " + kMachine +
                                   " --mapper in-order --format json" + flag);
    ASSERT_EQ(advise.exit_code, 0) << advise.err;
    EXPECT_EQ(json_values(advise.out, "hop_bytes"), std::vector<std::string>{hop_bytes[0]});

    // A sweep with the same matrix setting stores the same hop-bytes for both mappers.
    const auto config = dir.write(
        "c.yaml", "workloads: [{trace: \"" + trace.string() + "\"}]\nmachines: [\"" + kMachine +
                      "\"]\nmappers: [in-order, greedy]\nmodels: [static, analytic]\n"
                      "sim: {compute-scale: 0}\nmatrix: {collectives: " +
                      (p2p_only ? "false" : "true") + "}\n" +
                      (ompi ? "mpi: {collectives: ompi}\n" : ""));
    const auto db = dir.path() / "r.db";
    const auto run = run_mapsim("run " + sh(config) + " --db " + sh(db));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    exp::sql::Connection connection(db, exp::sql::Connection::Mode::ReadOnly);
    for (const auto& [mapper, value] : {std::pair{std::string("in-order"), hop_bytes[0]},
                                        std::pair{std::string("greedy"), hop_bytes[1]}}) {
      EXPECT_EQ(std::to_string(connection.query_integer(
                    "SELECT hop_bytes FROM results WHERE model = 'static' AND mapper = '" + mapper +
                    "'")),
                value)
          << mapper;
    }
    // and replays greedy's mapping as `simulate` does, under the same collective algorithms.
    EXPECT_EQ(
        std::to_string(connection.query_integer(
            "SELECT makespan_ps FROM results WHERE model = 'analytic' AND mapper = 'greedy'")),
        json_values(mapped.out, "makespan_ps").front());
  }
}

INSTANTIATE_TEST_SUITE_P(CollectivesIncludedAndExcluded, OneMatrix,
                         ::testing::Values(Counting::Default, Counting::P2pOnly, Counting::Ompi),
                         [](const auto& param) {
                           return param.param == Counting::Default   ? "Default"
                                  : param.param == Counting::P2pOnly ? "P2pOnly"
                                                                     : "Ompi";
                         });

// ep.S.5 has no point-to-point messages: by default its matrix is its collectives' messages,
// said as a note; with --p2p-only it is empty, said as a warning that names what to do — in
// map, simulate --mapper and matrix alike.
TEST(OneMatrix, SaysWhenTheMatrixIsEmptyOrMostlyCollectives) {
  const auto ep = sh(kTraces / "ep.S.5");
  for (const std::string& command :
       {"map --trace " + ep + " --topology torus:2x2x2 --mapper greedy",
        "simulate --trace " + ep + " --topology torus:2x2x2 --mapper greedy --model analytic",
        "matrix " + ep}) {
    SCOPED_TRACE(command);
    const auto all = run_mapsim(command);
    ASSERT_EQ(all.exit_code, 0) << all.err;
    EXPECT_THAT(all.err, HasSubstr("info: "));
    EXPECT_THAT(all.err, HasSubstr("the input sends no point-to-point bytes: the matrix is its "
                                   "collectives' messages as the replay sends them (--p2p-only "
                                   "leaves them out)"));
    EXPECT_THAT(all.err, Not(HasSubstr("warning")));
    const auto p2p = run_mapsim(command + " --p2p-only");
    ASSERT_EQ(p2p.exit_code, 0) << p2p.err;
    EXPECT_THAT(p2p.err, HasSubstr("warning: "));
    EXPECT_THAT(p2p.err, HasSubstr("the matrix is empty: every placement has hop-bytes 0"));
    EXPECT_THAT(p2p.err, HasSubstr("--p2p-only leaves the input's 40 collective calls out, drop "
                                   "it to map the collectives' messages"));
  }
  // A trace with point-to-point traffic and collectives: no caveat with them included; with
  // --p2p-only a note counts the calls left out.
  const auto lu = sh(kTraces / "lu.S.8");
  const auto quiet = run_mapsim("map --trace " + lu + " --topology torus:2x2x2 --mapper greedy");
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  const auto noted =
      run_mapsim("map --trace " + lu + " --topology torus:2x2x2 --mapper greedy --p2p-only");
  EXPECT_THAT(noted.err, HasSubstr("the matrix leaves the input's 192 collective calls out "
                                   "(--p2p-only), though the replay sends their messages"));
}

// A matrix recorded by libmapsim-record (docs/record.md) is one more input with collectives: map
// and sweeps count them by default and leave them out alike.
TEST(OneMatrix, RecordedMatricesFollowTheSameSetting) {
  const TempDir dir;
  std::string text = "# mapsim-record 1\n# ranks=4\n# comm 0 0-3\n";
  for (int r = 0; r < 4; ++r) {
    text += "# calls 0 " + std::to_string(r) +
            " Allreduce:-1:4000:4000*3 Bcast:0:" + (r == 0 ? "3000" : "0") + ":1000\n";
  }
  text += "src,dst,messages,bytes\n0,1,5,800\n2,3,5,800\n";
  const auto recorded = dir.write("rec.csv", text);
  for (const bool p2p_only : {false, true}) {
    SCOPED_TRACE(p2p_only ? "p2p only" : "with collectives");
    const auto map = run_mapsim("map --matrix " + sh(recorded) +
                                " --topology torus:2x2 --mapper in-order,greedy --format json" +
                                (p2p_only ? " --p2p-only" : ""));
    ASSERT_EQ(map.exit_code, 0) << map.err;
    const auto hop_bytes = json_values(map.out, "hop_bytes");
    ASSERT_EQ(hop_bytes.size(), 2U);
    // 2 x 800 bytes point-to-point; the collectives add 4 Allreduces and a Bcast's messages.
    const auto bytes = json_values(map.out, "message_bytes");
    ASSERT_EQ(bytes.size(), 1U);
    if (p2p_only) {
      EXPECT_EQ(bytes[0], "1600");
    } else {
      EXPECT_GT(std::stoull(bytes[0]), 1600U);
    }
    const auto config =
        dir.write("c.yaml", "workloads: [{matrix: \"" + recorded.string() +
                                "\"}]\nmachines: [torus:2x2]\nmappers: [in-order, greedy]\nmodels: "
                                "[static]\nmatrix: {collectives: " +
                                (p2p_only ? "false" : "true") + "}\n");
    const auto db = dir.path() / (p2p_only ? "p.db" : "c.db");
    const auto run = run_mapsim("run " + sh(config) + " --db " + sh(db));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    exp::sql::Connection connection(db, exp::sql::Connection::Mode::ReadOnly);
    EXPECT_EQ(std::to_string(connection.query_integer(
                  "SELECT hop_bytes FROM results WHERE mapper = 'in-order'")),
              hop_bytes[0]);
    EXPECT_EQ(connection.query_integer("SELECT collectives FROM results WHERE mapper = 'greedy'"),
              p2p_only ? 0 : 1);
  }
}

TEST(OneMatrix, P2pOnlyIsRefusedWhereItCannotApply) {
  const TempDir dir;
  const auto csv = dir.write("m.csv", "src,dst,messages,bytes\n0,1,1,8\n");
  const auto map =
      run_mapsim("map --matrix " + sh(csv) + " --topology torus:2x2 --mapper greedy --p2p-only");
  EXPECT_EQ(map.exit_code, 2);
  EXPECT_THAT(map.err, HasSubstr("--p2p-only needs a trace; the CSV matrix"));
  const auto matrix = run_mapsim("matrix " + sh(csv) + " --p2p-only");
  EXPECT_NE(matrix.exit_code, 0);
  EXPECT_THAT(matrix.err, HasSubstr("--p2p-only needs a trace"));
  const auto simulate = run_mapsim("simulate --trace npb:lu:S:4 --topology torus:2x2 --p2p-only");
  EXPECT_EQ(simulate.exit_code, 2);
  EXPECT_THAT(simulate.err, HasSubstr("--p2p-only needs --mapper"));
  // map and advise say under which algorithms the collectives were counted (MPICH's: nothing).
  const auto map_ompi =
      run_mapsim("map --trace npb:is:S:16 --topology torus:4x4 --mapper greedy --collectives ompi");
  EXPECT_EQ(map_ompi.exit_code, 0) << map_ompi.err;
  EXPECT_THAT(map_ompi.out + map_ompi.err, HasSubstr("bytes under ompi)"));
  const auto map_csv = run_mapsim("map --matrix " + sh(csv) +
                                  " --topology torus:2x2 --mapper greedy --collectives ompi");
  EXPECT_EQ(map_csv.exit_code, 2);
  EXPECT_THAT(map_csv.err, HasSubstr("--collectives needs a trace"));
  const auto both = run_mapsim("matrix npb:lu:S:4 --collectives ompi --p2p-only");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("--p2p-only leaves them out"));
  // The old boolean switch is gone: --collectives now takes the algorithms' selector.
  const auto old = run_mapsim("matrix npb:lu:S:4 --collectives");
  EXPECT_EQ(old.exit_code, 2);
}

// A sweep with mpi: {overheads: ...} replays as `simulate --overheads` does (issue 24; here for
// the sweep-against-command comparison this file makes).
TEST(OneMatrix, SweepsReplayWithTheConfigsOverheads) {
  const std::string kLu = std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8";
  TempDir dir;
  const auto config = dir.write(
      "c.yaml",
      fmt::format("workloads: [{{trace: \"{}\"}}]\nmachines: [\"torus:2x2:cores=2\"]\n"
                  "mappers: [in-order]\nmpi: {{overheads: \"typical,network.o_r=700\"}}\n",
                  kLu));
  const auto db = dir.path() / "r.db";
  const auto run = run_mapsim(fmt::format("run {} --db {}", config.string(), db.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto simulated = run_mapsim(
      fmt::format("simulate --trace {} --topology torus:2x2:cores=2 --format json --overheads "
                  "typical,network.o_r=700",
                  kLu));
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  exp::sql::Connection connection(db, exp::sql::Connection::Mode::ReadOnly);
  EXPECT_EQ(std::to_string(connection.query_integer("SELECT makespan_ps FROM results")),
            json_values(simulated.out, "makespan_ps").front());
  EXPECT_THAT(connection.query_text("SELECT config FROM runs"),
              HasSubstr("overheads: intra-node.o_s=100,intra-node.o_r=100,intra-node.g=50,"
                        "network.o_s=400,network.o_r=700,network.g=100\n"));
}

}  // namespace
}  // namespace mapsim
