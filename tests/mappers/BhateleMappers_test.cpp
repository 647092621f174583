// Bhatele's mappers on machines: regular heuristics with pattern detection, virtual processors
// and 2-D -> 3-D layering; bft, mht and coce-mht.

#include <set>

#include <gtest/gtest.h>

#include "mappers/GridEmbedding.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "support/Error.hpp"
#include "tests/mappers/TestMatrices.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using topo::NodeId;

constexpr const char* kRegular[] = {"mxovlp", "mxov-al", "exco", "coce", "affine", "step"};

TEST(BhateleMappers, OnA2DMeshTheyAreTheGridHeuristics) {
  const auto machine = topo::make_topology("mesh:12x6");
  const auto matrix = testing::stencil_2d(9, 8, false);
  const GridHeuristic heuristics[] = {GridHeuristic::Mxovlp, GridHeuristic::MxovAl,
                                      GridHeuristic::Exco,   GridHeuristic::Coce,
                                      GridHeuristic::Affine, GridHeuristic::Step};
  for (const auto heuristic : heuristics) {
    const auto mapping = make_mapper(name(heuristic))->map(matrix, *machine);
    const auto expected = embed_grid(heuristic, 9, 8, 12, 6);
    EXPECT_EQ(std::vector<NodeId>(mapping.nodes().begin(), mapping.nodes().end()),
              std::vector<NodeId>(expected.begin(), expected.end()))
        << name(heuristic);
  }
}

TEST(BhateleMappers, A3DStencilStacksPlaneByPlane) {
  // 4x4x4 seen as 4x16: four slabs of 4x4, one per z plane, laid identically and stacked.
  const auto machine = topo::make_topology("torus:4x4x4");
  const auto matrix = testing::stencil_3d(4, 4, 4, false);
  for (const char* mapper : kRegular) {
    const auto m = metrics::evaluate(matrix, *machine, make_mapper(mapper)->map(matrix, *machine));
    EXPECT_EQ(m.dilation_max, 1) << mapper;
  }
}

TEST(BhateleMappers, FoldingBeatsStackingFor2DOn3D) {
  // An 8x8 stencil on 4x4x4: slabs of 8x2. Stacked, the rows either side of a cut are a plane
  // apart plus the plane's height; folded, they sit on top of each other.
  const auto machine = topo::make_topology("mesh:4x4x4");
  const auto matrix = testing::stencil_2d(8, 8, false);
  auto hop_bytes = [&](const char* layers) {
    return metrics::hop_bytes(matrix, *machine,
                              make_mapper("mxovlp", {{"layers", layers}})->map(matrix, *machine));
  };
  const auto stacked = hop_bytes("stack");
  const auto folded = hop_bytes("fold");
  EXPECT_LT(folded, stacked);
  EXPECT_EQ(hop_bytes("best"), std::min(stacked, folded));
}

TEST(BhateleMappers, TilesKeepBothAxesOfTheGridOnThePlanes) {
  // An 8x8 stencil on torus:4x4x4 in tiles of 4x4: tile (tx, ty) on plane tx + 2 ty, every rank
  // at its place in its tile, whichever heuristic lays the tile.
  const auto machine = topo::make_topology("torus:4x4x4");
  const auto matrix = testing::stencil_2d(8, 8, false);
  for (const char* mapper : kRegular) {
    const auto tiled = make_mapper(mapper, {{"layers", "tile"}})->map(matrix, *machine);
    const auto folded = make_mapper(mapper, {{"layers", "tile-fold"}})->map(matrix, *machine);
    for (Rank r = 0; r < 64; ++r) {
      const int x = r % 8;
      const int y = r / 8;
      const int plane = x / 4 + 2 * (y / 4);
      EXPECT_EQ(tiled.node(r), x % 4 + 4 * (y % 4 + 4 * plane)) << mapper << " rank " << r;
      // tile-fold: the tiles of odd tx mirrored in x, of odd ty in y.
      const int ix = x / 4 == 1 ? 3 - x % 4 : x % 4;
      const int iy = y / 4 == 1 ? 3 - y % 4 : y % 4;
      EXPECT_EQ(folded.node(r), ix + 4 * (iy + 4 * plane)) << mapper << " rank " << r;
    }
  }
}

TEST(BhateleMappers, FoldedTilesMeetAcrossTheirEdgesOnAMesh) {
  // On mesh:4x4x4, neighbours across a tile's x edge are 3 hops apart in x plus a plane when the
  // tiles are laid the same way, and a plane apart when mirrored; across a y edge, 3 + 2 and 2.
  const auto machine = topo::make_topology("mesh:4x4x4");
  const auto matrix = testing::stencil_2d(8, 8, false);
  auto dilation = [&](const char* layers) {
    return metrics::evaluate(matrix, *machine,
                             make_mapper("mxovlp", {{"layers", layers}})->map(matrix, *machine))
        .dilation_max;
  };
  EXPECT_EQ(dilation("tile"), 5);
  EXPECT_EQ(dilation("tile-fold"), 2);
}

TEST(BhateleMappers, AGridTilesThePlanesTransposedWhenItMustElseFallsBack) {
  // A 4x16 stencil on torus:8x4x2 (planes of 8x4): 4 is no multiple of 8, so the grid is laid
  // transposed, 16x4 in two tiles: rank x + 4 y on (y % 8, x) of plane y / 8.
  const auto machine = topo::make_topology("torus:8x4x2");
  const auto matrix = testing::stencil_2d(4, 16, false);
  const auto mapping = make_mapper("mxovlp", {{"layers", "tile"}})->map(matrix, *machine);
  for (Rank r = 0; r < 64; ++r) {
    const int x = r % 4;
    const int y = r / 4;
    EXPECT_EQ(mapping.node(r), y % 8 + 8 * (x + 4 * (y / 8))) << r;
  }
  // A 6x6 grid does not tile planes of 4x4: mapped by mht, as an irregular pattern.
  const auto cube = topo::make_topology("torus:4x4x4");
  const auto six = testing::stencil_2d(6, 6, false);
  EXPECT_EQ(make_mapper("mxovlp", {{"layers", "tile"}})->map(six, *cube, 3),
            make_mapper("mht")->map(six, *cube, 3));
}

TEST(BhateleMappers, TheDominantPatternIgnoresACollectivesLightPairs) {
  // An 8x4 stencil whose rank 0 sends every rank 8 bytes: irregular to the exact match (mht),
  // the 8x4 grid to the dominant one, which lays it in place on mesh:8x4.
  const auto matrix = testing::stencil_2d_with_broadcast(8, 4, 8);
  const auto machine = topo::make_topology("mesh:8x4");
  EXPECT_EQ(make_mapper("mxovlp")->map(matrix, *machine, 2),
            make_mapper("mht")->map(matrix, *machine, 2));
  const auto dominant = make_mapper("mxovlp", {{"pattern", "dominant"}})->map(matrix, *machine);
  for (Rank r = 0; r < 32; ++r) EXPECT_EQ(dominant.node(r), r) << r;
  EXPECT_THROW((void)make_mapper("mxovlp", {{"pattern", "loose"}}), InputError);
}

TEST(BhateleMappers, TianheChipsHoldBlocksOfTheGrid) {
  // tianhe3:2x2:nodes=16: each chip is a 4x4 block of virtual processors, the chip grid 2x2, so
  // an 8x8 stencil lands with each 4x4 quarter on one chip.
  const auto machine = topo::make_topology("tianhe3:2x2:nodes=16");
  const auto matrix = testing::stencil_2d(8, 8, false);
  for (const char* mapper : {"mxovlp", "step", "affine"}) {
    const auto mapping = make_mapper(mapper)->map(matrix, *machine);
    for (Rank r = 0; r < 64; ++r) {
      const int quarter = (r % 8) / 4 + 2 * ((r / 8) / 4);
      const int chip = mapping.node(r) / 16;
      EXPECT_EQ(chip, quarter) << mapper << " rank " << r;
    }
  }
}

TEST(BhateleMappers, SeveralCoresPerNodeShareBlocks) {
  // mesh:4x4:cores=4: virtual 8x8 processors, 2x2 per node; an 8x8 stencil maps 2x2 blocks.
  const auto machine = topo::make_topology("mesh:4x4:cores=4");
  const auto matrix = testing::stencil_2d(8, 8, false);
  const auto mapping = make_mapper("mxovlp")->map(matrix, *machine);
  for (Rank r = 0; r < 64; ++r) {
    const int x = r % 8;
    const int y = r / 8;
    EXPECT_EQ(mapping.node(r), x / 2 + 4 * (y / 2)) << r;
  }
}

TEST(BhateleMappers, GridParameterOverridesDetection) {
  // A random matrix of 72 ranks forced onto a 9x8 grid: the layout follows the grid.
  const auto machine = topo::make_topology("mesh:12x6");
  const auto matrix = testing::random_matrix(72, 3, 4);
  const auto forced = make_mapper("step", {{"grid", "9x8"}})->map(matrix, *machine);
  const auto expected = embed_grid(GridHeuristic::Step, 9, 8, 12, 6);
  EXPECT_EQ(std::vector<NodeId>(forced.nodes().begin(), forced.nodes().end()),
            std::vector<NodeId>(expected.begin(), expected.end()));
  EXPECT_THROW((void)make_mapper("step", {{"grid", "9x9"}})->map(matrix, *machine), InputError);
}

TEST(BhateleMappers, IrregularGraphsFallBackToTheHeapTraversals) {
  const auto machine = topo::make_topology("torus:4x4x4");
  const auto matrix = testing::random_matrix(64, 3, 8);
  const auto mht = make_mapper("mht")->map(matrix, *machine, 5);
  EXPECT_EQ(make_mapper("mxovlp")->map(matrix, *machine, 5), mht);
  EXPECT_EQ(make_mapper("coce")->map(matrix, *machine, 5),
            make_mapper("coce-mht")->map(matrix, *machine, 5));
}

TEST(IrregularMappers, BftPutsChildrenNextToParents) {
  // A chain 0-1-2-3-4-5 on mesh:6 from the corner node 0: the random start s goes to node 0,
  // its neighbours to the nearest free nodes, and so on; every rank ends within 2 hops of its
  // parent (the second child of a rank may have to go round the first).
  traces::CommMatrixBuilder chain(6);
  for (Rank r = 0; r + 1 < 6; ++r) chain.add(r, r + 1, 1, 10);
  const auto matrix = chain.build();
  const auto machine = topo::make_topology("mesh:6");
  for (const Seed seed : {0, 1, 2, 3, 4}) {
    const auto m =
        metrics::evaluate(matrix, *machine, make_mapper("bft")->map(matrix, *machine, seed));
    EXPECT_LE(m.dilation_max, 2) << seed;
  }
  // A chain started at its end walks the line: with origin=corner rank 0 or 5 at node 0 and
  // dilation 1 — at least one seed of a few starts at an end.
  int straight = 0;
  for (Seed seed = 0; seed < 12; ++seed) {
    const auto m =
        metrics::evaluate(matrix, *machine, make_mapper("bft")->map(matrix, *machine, seed));
    straight += m.dilation_max == 1 ? 1 : 0;
  }
  EXPECT_GT(straight, 0);
}

TEST(IrregularMappers, HeapTraversalsBeatRandomOnAStencil) {
  const auto machine = topo::make_topology("mesh:8x8");
  const auto matrix = testing::stencil_2d(8, 8, false);
  const auto random =
      metrics::hop_bytes(matrix, *machine, make_mapper("random")->map(matrix, *machine, 1));
  for (const char* mapper : {"bft", "mht", "coce-mht"}) {
    const auto hb =
        metrics::hop_bytes(matrix, *machine, make_mapper(mapper)->map(matrix, *machine, 1));
    EXPECT_LT(hb * 2, random) << mapper;
  }
}

TEST(IrregularMappers, CoceMhtPinsTheGraphsCornersToTheMachinesCorners) {
  // The 12x6 stencil's pseudo-peripheral ranks are its corners 71, 0, 11, 60, and the mesh's
  // corner nodes are found the same way; with the grid as big as the mesh they coincide.
  const auto machine = topo::make_topology("mesh:12x6");
  const auto mapping = make_mapper("coce-mht")->map(testing::stencil_2d(12, 6, false), *machine);
  for (const Rank corner : {0, 11, 60, 71}) EXPECT_EQ(mapping.node(corner), corner);
}

TEST(IrregularMappers, MhtStartsAtTheCentre) {
  // 2 ranks on mesh:5x5 run on its compact block, nodes (0,0) and (1,0) (Mapper.hpp), whose
  // centre is (1,0). One pair: the random start goes to the centre node, its partner next to it.
  traces::CommMatrixBuilder pair(2);
  pair.add(0, 1, 1, 10);
  const auto machine = topo::make_topology("mesh:5x5");
  const auto mapping = make_mapper("mht")->map(pair.build(), *machine, 3);
  const NodeId centre = machine->node_at(std::vector<int>{1, 0});
  EXPECT_TRUE(mapping.node(0) == centre || mapping.node(1) == centre);
  EXPECT_EQ(machine->hops(mapping.node(0), mapping.node(1)), 1);
}

}  // namespace
}  // namespace mapsim::map
