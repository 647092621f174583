// The communication-matrix heat map of a report: cells summed by hand, binning at many ranks,
// and a workload's matrix recomputed as its sweep computed it.

#include "experiments/MatrixHeatMap.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "traces/WorkloadMatrix.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::exp {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(MatrixHeatMap, OneCellPerRankUpToTheLimit) {
  traces::CommMatrixBuilder builder(3);
  builder.add(0, 1, 2, 100);
  builder.add(2, 0, 1, 8);
  builder.add_collective(1, 2, 1, 50);
  const auto chart = matrix_chart("w", builder.build());
  EXPECT_EQ(chart.name, "matrix-w");
  EXPECT_EQ(chart.csv,
            "src_first,src_last,dst_first,dst_last,messages,bytes\n"
            "0,0,1,1,2,100\n1,1,2,2,1,50\n2,2,0,0,1,8\n");
  // The image grid: column, row, bytes; NaN where nothing is sent.
  ASSERT_EQ(chart.data_files.size(), 1U);
  EXPECT_EQ(chart.data_files[0].first, "matrix-w.dat");
  EXPECT_THAT(chart.data_files[0].second, HasSubstr("1 0 100\n"));
  EXPECT_THAT(chart.data_files[0].second, HasSubstr("0 0 NaN\n"));
  EXPECT_THAT(chart.plot, HasSubstr("with image"));
  EXPECT_THAT(chart.plot, Not(HasSubstr("cells of")));
  ASSERT_EQ(chart.table_rows.size(), 1U);
  EXPECT_EQ(chart.table_rows[0], (std::vector<std::string>{"3", "1 x 1", "3", "4", "158", "50"}));
  EXPECT_THAT(chart.about, HasSubstr("(31.6 % of the bytes)"));  // 50 of 158
  ASSERT_EQ(chart.more_tables.size(), 1U);
  EXPECT_EQ(chart.more_tables[0].rows.front(), (std::vector<std::string>{"0", "1", "2", "100"}));
}

TEST(MatrixHeatMap, BinsRanksIntoAtMostTheLimitOfCellsPerSide) {
  // 300 ranks: cells of 3 ranks (ceil(300 / 128)), 100 per side; rank r sends r + 1 bytes to
  // rank (r + 1) mod 300.
  traces::CommMatrixBuilder builder(300);
  for (Rank r = 0; r < 300; ++r)
    builder.add(r, (r + 1) % 300, 1, static_cast<std::uint64_t>(r + 1));
  const auto chart = matrix_chart("ring", builder.build());
  EXPECT_THAT(chart.plot, HasSubstr("(cells of 3 ranks)"));
  EXPECT_THAT(chart.plot, HasSubstr("set xrange [-0.5:99.5]"));
  // Cell (0, 0): ranks 0 -> 1 and 1 -> 2: 1 + 2 bytes; cell (0, 1): rank 2 -> 3: 3 bytes.
  EXPECT_THAT(chart.csv, HasSubstr("\n0,2,0,2,2,3\n0,2,3,5,1,3\n"));
  // The last rank wraps to rank 0: cell (99, 0).
  EXPECT_THAT(chart.csv, HasSubstr("\n297,299,0,2,1,300\n"));
  const auto lines =
      std::count(chart.data_files[0].second.begin(), chart.data_files[0].second.end(), '\n');
  EXPECT_EQ(lines, 100 * 100 + 100);  // every cell, a blank line after each row
}

TEST(MatrixHeatMap, RecomputesAGeneratedWorkloadAsTheSweepDid) {
  std::string why;
  for (const bool collectives : {true, false}) {
    const StoredWorkload workload{"npb:cg:S:8", "generated", "npb:cg:S:8", collectives};
    const auto matrix = recompute_matrix(workload, why);
    ASSERT_TRUE(matrix.has_value());
    traces::MatrixOptions options;
    options.collectives = collectives;
    EXPECT_EQ(*matrix,
              traces::workload_matrix(traces::parse_generator_spec("npb:cg:S:8"), options));
    EXPECT_EQ(matrix->collective_total().bytes > 0, collectives);
  }
  const StoredWorkload missing{"t", "trace", "no/such/trace", true};
  EXPECT_FALSE(recompute_matrix(missing, why).has_value());
  EXPECT_THAT(why, HasSubstr("'no/such/trace' is not found from the working directory"));
}

}  // namespace
}  // namespace mapsim::exp
