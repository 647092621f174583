// An OTF2 archive replayed while it is read, each rank's location in windows
// (traces/Otf2Streams.hpp), measures what the replay of the archive read into memory measures, on
// every real Score-P trace of the tests, under every network model.

#include <numeric>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "SameResult.hpp"
#include "SimTestSupport.hpp"
#include "traces/Otf2Streams.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::testing {
namespace {

const std::string kTraces = std::string(MAPSIM_TEST_DATA_DIR) + "/";

const char* const kRealTraces[] = {
    "npb/lu.S.8",
    "npb/lu.S.12",
    "npb/bt.S.9",
    "npb/sp.S.4",
    "npb/sp.S.9",
    "npb/cg.S.8",
    "npb/mg.S.8",
    "npb/mg.S.24",
    "npb/ft.S.12",
    "npb/is.S.2",
    "npb/ep.S.5",
    "public/pipit_ping-pong-otf2",
    "public/pipit_ping-pong-otf2-papi",
    "public/sstmacro_otf2_test_traces",
    "public/tracer_stencil4d_32",
    "public/casita_10_scorep_mpi_tags",
    "public/casita_4_mpi_ls_barr",
    "public/casita_2_jacobi_blame_cpu_015",
    "public/casita_1_xeonphi_jacobi_01",
};

TEST(StreamedArchives, ReplayAsTheArchiveInMemoryOnEveryRealTrace) {
  for (const char* name : kRealTraces) {
    SCOPED_TRACE(name);
    const auto path = kTraces + name;
    const auto stored = traces::read_trace(path);
    const auto ranks = stored.rank_count();
    std::vector<topo::NodeId> nodes(static_cast<std::size_t>(ranks));
    std::iota(nodes.begin(), nodes.end(), 0);
    std::shuffle(nodes.begin(), nodes.end(), std::mt19937(11));
    const auto topology = topo::make_topology("torus:4x4x2");
    const topo::Mapping mapping(nodes);
    for (const auto& model : kModels) {
      SCOPED_TRACE(model);
      sim::SimConfig config;
      config.model = model;
      const auto expected = sim::simulate(stored, *topology, mapping, config);
      traces::Otf2Streams streams(path);
      expect_same_result(sim::simulate(streams, *topology, mapping, config), expected);
    }
  }
}

}  // namespace
}  // namespace mapsim::testing
