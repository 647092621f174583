#include "experiments/HeatMap.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "experiments/ReportWriter.hpp"
#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::exp {
namespace {

using topo::LinkId;

/// A run on `machine` whose links carry `loads` (link id -> bytes): static bytes, and the same
/// as replayed bytes if `replayed`.
LinkLoadRun make_run(const topo::Topology& machine, const std::map<LinkId, std::int64_t>& loads,
                     bool replayed = true) {
  LinkLoadRun run;
  run.key = "0123456789abcdef";
  run.name = "Lu D/in-order";
  run.workload = "npb:lu:D";
  run.machine = machine.spec();
  run.topology = machine.spec();
  run.mapper = "in-order";
  run.model = "flow";
  run.replayed = replayed;
  for (const auto& [id, bytes] : loads) {
    const auto link = machine.link(id);
    LinkLoad row;
    row.link = id;
    row.from = link.from;
    row.to = link.to;
    row.link_class = std::string(topo::name(link.link_class));
    row.static_bytes = bytes;
    if (replayed) {
      row.bytes = bytes;
      row.busy_ps = 1000;
      row.utilisation = 0.5;
    }
    run.links.push_back(row);
  }
  return run;
}

/// CSV rows (after the header) as fields; quoted fields may hold commas.
std::vector<std::vector<std::string>> csv_rows(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (const char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        fields.emplace_back();
      } else {
        fields.back() += c;
      }
    }
    rows.push_back(fields);
  }
  return rows;
}

constexpr std::size_t kLoadColumn = 6;

/// Number of times `needle` occurs in `text`.
std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

/// The first link of `machine` from `from` to `to`.
LinkId find_link(const topo::Topology& machine, topo::VertexId from, topo::VertexId to) {
  for (LinkId id = 0; id < machine.link_count(); ++id) {
    const auto link = machine.link(id);
    if (link.from == from && link.to == to) return id;
  }
  ADD_FAILURE() << "no link " << from << " -> " << to;
  return -1;
}

/// The links of `machine` for which `keep(link)` holds, in id order.
template <typename Keep>
std::vector<LinkId> links_where(const topo::Topology& machine, const Keep& keep) {
  std::vector<LinkId> ids;
  for (LinkId id = 0; id < machine.link_count(); ++id) {
    if (keep(machine.link(id))) ids.push_back(id);
  }
  return ids;
}

/// A gnuplot data file's blocks (its `index`es, apart by two blank lines): rows of numbers.
using Block = std::vector<std::vector<double>>;
std::vector<Block> data_blocks(const std::string& data) {
  std::vector<Block> blocks(1);
  std::istringstream in(data);
  std::string line;
  int blank = 0;
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (++blank == 2) blocks.emplace_back();
      continue;
    }
    blank = 0;
    std::istringstream fields(line);
    std::vector<double> row;
    for (double v = 0; fields >> v;) row.push_back(v);
    blocks.back().push_back(row);
  }
  return blocks;
}

constexpr double kTolerance = 1e-9;

/// The row "x y dx dy load" of the cell of `block` centred at (x, y); nullptr if none is.
const std::vector<double>* find_cell(const Block& block, double x, double y) {
  for (const auto& row : block) {
    if (row.size() == 5 && std::abs(row[0] - x) < kTolerance && std::abs(row[1] - y) < kTolerance)
      return &row;
  }
  return nullptr;
}

/// The load of that cell, -1 if there is none.
double cell_load(const Block& block, double x, double y) {
  const auto* row = find_cell(block, x, y);
  return row != nullptr ? (*row)[4] : -1;
}

/// Renders `chart` in `dir` with gnuplot as SVG and as PNG: gnuplot says nothing (no empty data
/// set, no bad option), the SVG is complete and the PNG has PNG's signature.
void expect_renders(const mapsim::testing::TempDir& dir, const Chart& chart) {
  for (const auto& [name, content] : chart.data_files) dir.write(name, content);
  dir.write("x.gp",
            fmt::format("set terminal svg size {0},{1}; set output 'x.svg'\n{2}unset output\n"
                        "reset\nset terminal pngcairo size {0},{1}; set output 'x.png'\n{2}",
                        chart.width, chart.height, chart.plot));
  std::filesystem::remove(dir.path() / "x.svg");
  std::filesystem::remove(dir.path() / "x.png");
  const auto command =
      "cd '" + dir.path().string() + "' && /usr/bin/gnuplot x.gp > gnuplot.out 2> gnuplot.err";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream err(dir.path() / "gnuplot.err");
  const std::string warnings((std::istreambuf_iterator<char>(err)), {});
  EXPECT_EQ(warnings, "");
  std::ifstream svg(dir.path() / "x.svg");
  std::string text((std::istreambuf_iterator<char>(svg)), {});
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  EXPECT_TRUE(text.ends_with("</svg>")) << text.substr(text.size() > 200 ? text.size() - 200 : 0);
  std::ifstream png(dir.path() / "x.png", std::ios::binary);
  const std::string png_text((std::istreambuf_iterator<char>(png)), {});
  EXPECT_GT(png_text.size(), 1000u);
  EXPECT_TRUE(png_text.starts_with("\x89PNG\r\n\x1a\n"));
}

TEST(HeatMap, CsvHasOneRowPerLoadedLinkWithItsLoad) {
  // mesh:4x4: 4 rows and 4 columns of 3 neighbour pairs each, both ways: 2 * 24 = 48 links, of
  // which 3 carried bytes: the csv lists those 3 in link order (an idle link has no row).
  const auto machine = topo::make_topology("mesh:4x4");
  ASSERT_EQ(machine->link_count(), 48);
  const std::map<LinkId, std::int64_t> loads{{0, 600}, {5, 300}, {47, 100}};
  const auto chart = heatmap_chart(make_run(*machine, loads), *machine);
  const auto rows = csv_rows(chart.csv);
  ASSERT_EQ(rows.size(), loads.size());
  std::size_t i = 0;
  for (const auto& [id, bytes] : loads) {
    ASSERT_EQ(rows[i].size(), 10u) << "row " << i;
    EXPECT_EQ(rows[i][0], std::to_string(id));
    EXPECT_EQ(rows[i][kLoadColumn], std::to_string(bytes));
    ++i;
  }
  // Link 0 runs from node 0 (0,0) to its +x neighbour, node 1 (1,0).
  EXPECT_EQ(rows[0][1], "0");
  EXPECT_EQ(rows[0][2], "1");
  EXPECT_EQ(rows[0][3], "grid");
  EXPECT_EQ(rows[0][4], "0 0");
  EXPECT_EQ(rows[0][5], "1 0");
  EXPECT_EQ(chart.kind, "heatmap");
  EXPECT_EQ(chart.name, "heatmap-lu_d_in-order");
  EXPECT_EQ(chart.title, "link loads: npb:lu:D on mesh:4x4, in-order (flow)");
  ASSERT_EQ(chart.data_files.size(), 1u);
  EXPECT_EQ(chart.data_files[0].first, chart.name + ".dat");
}

TEST(HeatMap, BusiestLinksTableIsDescendingWithShares) {
  // Loads 100, 600, 300 on links 3, 9, 20: total 1000, shares 60%, 30%, 10%.
  const auto machine = topo::make_topology("mesh:4x4");
  const auto chart = heatmap_chart(make_run(*machine, {{3, 100}, {9, 600}, {20, 300}}), *machine);
  ASSERT_EQ(chart.table_rows.size(), 3u);
  const std::vector<std::pair<std::string, std::string>> expected{
      {"9", "60.0%"}, {"20", "30.0%"}, {"3", "10.0%"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(chart.table_rows[i].size(), chart.table_header.size());
    EXPECT_EQ(chart.table_rows[i][0], expected[i].first);
    EXPECT_EQ(chart.table_rows[i][5], expected[i].second);
  }
  EXPECT_EQ(chart.table_rows[0][4], "600");
  EXPECT_EQ(chart.table_rows[0][1], machine->vertex_name(machine->link(9).from));
  EXPECT_EQ(chart.table_rows[0][2], machine->vertex_name(machine->link(9).to));
}

TEST(HeatMap, BusiestLinksTableKeepsTenRows) {
  // Links 0..11 carry 1..12 bytes: the table shows links 11 down to 2; total 78, so link 11's
  // share is 12 / 78 = 15.4% and link 2's 3 / 78 = 3.8%.
  const auto machine = topo::make_topology("mesh:4x4");
  std::map<LinkId, std::int64_t> loads;
  for (LinkId id = 0; id < 12; ++id) loads[id] = id + 1;
  const auto chart = heatmap_chart(make_run(*machine, loads), *machine);
  ASSERT_EQ(chart.table_rows.size(), 10u);
  EXPECT_EQ(chart.table_rows.front()[0], "11");
  EXPECT_EQ(chart.table_rows.front()[5], "15.4%");
  EXPECT_EQ(chart.table_rows.back()[0], "2");
  EXPECT_EQ(chart.table_rows.back()[5], "3.8%");
}

TEST(HeatMap, ColourScaleIsGivenOrTheBusiestLink) {
  const auto machine = topo::make_topology("mesh:4x4");
  const auto run = make_run(*machine, {{3, 100}, {9, 600}});
  EXPECT_NE(heatmap_chart(run, *machine, 5000.0).plot.find("set cbrange [0:5000]\n"),
            std::string::npos);
  EXPECT_NE(heatmap_chart(run, *machine).plot.find("set cbrange [0:600]\n"), std::string::npos);
  // No load at all: [0:1], a scale gnuplot can draw.
  const auto idle = make_run(*machine, {{3, 0}});
  EXPECT_NE(heatmap_chart(idle, *machine).plot.find("set cbrange [0:1]\n"), std::string::npos);
}

TEST(HeatMap, ReplayedBytesWhenPresentElseStaticBytes) {
  const auto machine = topo::make_topology("mesh:4x4");
  auto run = make_run(*machine, {{3, 100}, {9, 50}});
  run.links[0].bytes = 700;           // link 3: replay carried 700, static routes 100
  run.links[1].bytes = std::nullopt;  // link 9: no replayed value, static 50
  const auto replayed = csv_rows(heatmap_chart(run, *machine).csv);
  ASSERT_EQ(replayed.size(), 2U);  // links 3 and 9, in link order
  EXPECT_EQ(replayed[0][kLoadColumn], "700");
  EXPECT_EQ(replayed[0][7], "100");
  EXPECT_EQ(replayed[0][8], "700");
  EXPECT_EQ(replayed[1][kLoadColumn], "50");
  EXPECT_EQ(replayed[1][8], "");

  run.replayed = false;
  const auto chart = heatmap_chart(run, *machine);
  EXPECT_EQ(csv_rows(chart.csv)[0][kLoadColumn], "100");
  EXPECT_EQ(chart.title, "link loads: npb:lu:D on mesh:4x4, in-order (flow), static routes");
  EXPECT_NE(chart.plot.find("set cbrange [0:100]\n"), std::string::npos);
}

TEST(HeatMap, UnknownOrMismatchedLinkIsAnInputError) {
  // mesh:4x4 has links 0..47 and intra-node channels 48..63.
  const auto machine = topo::make_topology("mesh:4x4");
  auto run = make_run(*machine, {{3, 100}});
  run.links.push_back(LinkLoad{64, 0, 0, "intra-node", 0, 5, 0, 0.0});
  try {
    (void)heatmap_chart(run, *machine);
    FAIL() << "link 64 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("link 64"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Lu D/in-order"), std::string::npos) << e.what();
  }
  // Link 3 exists, but not from vertex 7 to 8.
  auto mismatched = make_run(*machine, {{3, 100}});
  mismatched.links[0].from = 7;
  mismatched.links[0].to = 8;
  EXPECT_THROW((void)heatmap_chart(mismatched, *machine), InputError);
  // A channel id with another class is no channel.
  auto not_channel = make_run(*machine, {{3, 100}});
  not_channel.links.push_back(LinkLoad{50, 2, 2, "grid", 0, 5, 0, 0.0});
  EXPECT_THROW((void)heatmap_chart(not_channel, *machine), InputError);
}

TEST(HeatMap, IntraNodeChannelsAreLeftOut) {
  // Channel 48 + 2 is node 2's: skipped, so its 999 bytes are in no row and not the busiest.
  const auto machine = topo::make_topology("mesh:4x4");
  auto run = make_run(*machine, {{3, 100}});
  run.links.push_back(LinkLoad{50, 2, 2, "intra-node", 0, 999, 0, 0.0});
  const auto chart = heatmap_chart(run, *machine);
  EXPECT_EQ(csv_rows(chart.csv).size(), 1u);  // link 3 only
  EXPECT_EQ(chart.csv.find("999"), std::string::npos);
  EXPECT_NE(chart.plot.find("set cbrange [0:100]\n"), std::string::npos);
  ASSERT_EQ(chart.table_rows.size(), 1u);
  EXPECT_EQ(chart.table_rows[0][5], "100.0%");
}

TEST(HeatMap, TorusWrapLinksAreStubsAtTheEdge) {
  // torus:4x4: 16 nodes with 4 links each. Node 3 (3,0) wraps to node 0 (0,0) going +x: a stub
  // leaving node 3 to the right, from x = 3 + 0.15, offset 0.1 to the right of +x (y = -0.1),
  // 0.4 long.
  const auto machine = topo::make_topology("torus:4x4");
  ASSERT_EQ(machine->link_count(), 64);
  const auto wrap = find_link(*machine, 3, 0);
  const auto chart = heatmap_chart(make_run(*machine, {{wrap, 42}}), *machine);
  EXPECT_EQ(csv_rows(chart.csv).size(), 1u);  // the wrap link
  const auto& data = chart.data_files[0].second;
  EXPECT_NE(data.find("3.15 -0.1 0.4 0 42\n"), std::string::npos) << data;
  EXPECT_NE(chart.plot.find("with vectors head"), std::string::npos);
  // No segment crosses the panel: every vector is at most 0.7 long.
  std::istringstream in(data);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    double x = 0, y = 0, dx = 0, dy = 0, load = 0;
    if (fields >> x >> y >> dx >> dy >> load) {
      EXPECT_LE(std::abs(dx) + std::abs(dy), 0.7 + 1e-9) << line;
    }
  }
}

TEST(HeatMap, ThreeDimensionalTorusHasOnePanelPerPlane) {
  // torus:4x4x2: planes z = 0 and z = 1, side by side. Node 5 (1,1,0) has one link up to node
  // 21 (1,1,1) (z has size 2: one link each way): a marker "1 1 77" in plane 0.
  const auto machine = topo::make_topology("torus:4x4x2");
  const auto up = find_link(*machine, 5, 21);
  const auto chart = heatmap_chart(make_run(*machine, {{up, 77}}), *machine);
  EXPECT_NE(chart.plot.find("set multiplot layout 1,2 "), std::string::npos) << chart.plot;
  EXPECT_EQ(count(chart.plot, "\nplot "), 2u);
  EXPECT_NE(chart.plot.find("set title 'z=0'"), std::string::npos);
  EXPECT_NE(chart.plot.find("set title 'z=1'"), std::string::npos);
  EXPECT_NE(chart.plot.find("with points pt 5 ps 2 lc palette"), std::string::npos);
  EXPECT_NE(chart.data_files[0].second.find("\n1 1 77\n"), std::string::npos);
  EXPECT_EQ(csv_rows(chart.csv).size(), 1u);
}

TEST(HeatMap, ManyPlanesShowTheSixteenBusiest) {
  // mesh:2x2x20: 20 planes; planes 3, 5, 7 and 9 carry nothing, so they are the ones left out.
  const auto machine = topo::make_topology("mesh:2x2x20");
  std::map<LinkId, std::int64_t> loads;
  for (int z = 0; z < 20; ++z) {
    if (z == 3 || z == 5 || z == 7 || z == 9) continue;
    loads[find_link(*machine, 4 * z, 4 * z + 1)] = 10 + z;
  }
  const auto chart = heatmap_chart(make_run(*machine, loads), *machine);
  EXPECT_EQ(count(chart.plot, "\nplot "), 16u);
  EXPECT_NE(chart.plot.find("set multiplot layout 4,4 "), std::string::npos);
  EXPECT_EQ(chart.plot.find("set title 'z=3'"), std::string::npos);
  EXPECT_NE(chart.plot.find("set title 'z=19'"), std::string::npos);
  EXPECT_NE(chart.about.find("16 of 20 planes"), std::string::npos) << chart.about;
}

TEST(HeatMap, HaecBoardsArePanelsAndWirelessLinksMarkers) {
  // haec:2x2x2: two boards of a 2x2 torus (8 optical links each) and 2 * 4 * 4 = 32 wireless
  // links. Node 0 (0,0,0) sends 90 bytes to node 7 (1,1,1): a marker at (0,0) on board 0.
  const auto machine = topo::make_topology("haec:2x2x2");
  ASSERT_EQ(machine->link_count(), 48);
  const auto wireless = find_link(*machine, 0, 7);
  const auto chart = heatmap_chart(make_run(*machine, {{wireless, 90}, {0, 30}}), *machine);
  EXPECT_EQ(csv_rows(chart.csv).size(), 2u);  // the two loaded links
  EXPECT_EQ(count(chart.plot, "\nplot "), 2u);
  EXPECT_NE(chart.plot.find("set title 'board z=1'"), std::string::npos);
  EXPECT_NE(chart.data_files[0].second.find("\n0 0 90\n"), std::string::npos);
}

TEST(HeatMap, Tianhe3CellsAreSideRouters) {
  // tianhe3:1x2:nodes=4: one row of 2 chips, 2 nodes per side, 4 side routers: cells x = chip
  // column * 2 + side. Node 0's link up to router (0,0 left) carries 10: panel 1, cell (0, 0).
  // The right router of chip 1 (router 3) sending 55 to its row switch: panel 2, cell (3, 0).
  const auto machine = topo::make_topology("tianhe3:1x2:nodes=4");
  const auto nodes = machine->node_count();
  ASSERT_EQ(nodes, 8);
  const auto up = find_link(*machine, 0, nodes + 0);
  const auto to_switch = find_link(*machine, nodes + 3, nodes + 4);  // row switch 0 follows
  const auto chart = heatmap_chart(make_run(*machine, {{up, 10}, {to_switch, 55}}), *machine);
  EXPECT_EQ(csv_rows(chart.csv).size(), 2u);
  const auto& data = chart.data_files[0].second;
  const auto second = data.find("\n\n\n");
  ASSERT_NE(second, std::string::npos);
  EXPECT_NE(data.substr(0, second).find("0 0 10\n"), std::string::npos) << data;
  EXPECT_NE(data.substr(second).find("\n3 0 55\n"), std::string::npos) << data;
  EXPECT_EQ(count(chart.plot, "\nplot "), 2u);
  EXPECT_NE(chart.plot.find("chip row"), std::string::npos);
  // Routers have no coordinates: the CSV names them.
  EXPECT_NE(chart.csv.find("router (chip 0,0 left)"), std::string::npos);
}

TEST(HeatMap, RendersThroughGnuplot) {
  const mapsim::testing::TempDir dir;
  for (const char* spec : {"mesh:4x4", "mesh:8", "torus:4x4", "torus:4x4x2", "mesh:2x2x20",
                           "haec:2x2x2", "tianhe3:1x2:nodes=4", "tianhe3:2x2:nodes=4",
                           "tianhe3:1x1:nodes=2", "tianhe3:3x1:nodes=2"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    std::map<LinkId, std::int64_t> loads;
    for (LinkId id = 0; id < machine->link_count(); ++id) loads[id] = (id * 7919) % 1000;
    auto run = make_run(*machine, loads);
    run.mapper = "o'brien_x^2";  // a quote for gnuplot's strings, markup it must not apply
    expect_renders(dir, heatmap_chart(run, *machine));
  }
}

// ---- Hierarchical machines ----

/// The vertex named `name` (a router or switch), e.g. "switch leaf4".
topo::VertexId vertex_named(const topo::Topology& machine, const std::string& name) {
  for (topo::VertexId v = machine.node_count(); v < machine.vertex_count(); ++v) {
    if (machine.vertex_name(v) == name) return v;
  }
  ADD_FAILURE() << "no vertex " << name;
  return -1;
}

/// dragonfly:5,4,1,2: 20 nodes, one per router; router (g, r) is vertex 20 + 4 g + r. Two
/// global links join each pair of groups (A H / (G - 1) = 8 / 4).
struct SmallDragonfly {
  std::unique_ptr<topo::Topology> machine = topo::make_topology("dragonfly:5,4,1,2");
  static topo::VertexId router(int g, int r) { return 20 + 4 * g + r; }
  [[nodiscard]] std::vector<LinkId> global(int g, int h) const {
    return links_where(*machine, [&](const topo::Link& l) {
      return l.link_class == topo::LinkClass::DfGlobal && (l.from - 20) / 4 == g &&
             (l.to - 20) / 4 == h;
    });
  }
  /// Global links 1 -> 3 carry 300 and 700; router (1,2) sends 250 to router (1,0); node 19
  /// sends 90 up to its router (4,3), which sends 40 down to it: 1380 bytes in all.
  [[nodiscard]] std::map<LinkId, std::int64_t> loads() const {
    const auto one_three = global(1, 3);
    EXPECT_EQ(one_three.size(), 2u);
    return {{one_three.at(0), 300},
            {one_three.at(1), 700},
            {find_link(*machine, router(1, 2), router(1, 0)), 250},
            {find_link(*machine, 19, router(4, 3)), 90},
            {find_link(*machine, router(4, 3), 19), 40}};
  }
};

TEST(HeatMap, DragonflyCellsAreGroupPairsAndRouters) {
  const SmallDragonfly df;
  const auto chart = heatmap_chart(make_run(*df.machine, df.loads()), *df.machine);
  const auto blocks = data_blocks(chart.data_files[0].second);
  ASSERT_EQ(blocks.size(), 3u);  // the group matrix, local links, host links
  // Matrix: x the group entered, y the group left; the busiest of the two links 1 -> 3.
  EXPECT_EQ(cell_load(blocks[0], 3, 1), 700);
  EXPECT_EQ(cell_load(blocks[0], 1, 3), 0);   // links 3 -> 1 exist and carried nothing
  EXPECT_EQ(cell_load(blocks[0], 2, 2), -1);  // no link within a group: no cell
  EXPECT_EQ(blocks[0].size(), 20u);           // 5 x 4 ordered pairs of groups
  const auto* cell = find_cell(blocks[0], 3, 1);
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)[2], 0.5);  // a cell per group: half a group each way
  EXPECT_EQ((*cell)[3], 0.5);
  // Routers: x their place in the group, y the group.
  EXPECT_EQ(cell_load(blocks[1], 2, 1), 250);
  EXPECT_EQ(cell_load(blocks[1], 0, 1), 0);
  EXPECT_EQ(blocks[1].size(), 20u);
  EXPECT_EQ(cell_load(blocks[2], 3, 4), 90);  // the busier of its host links, either way
  EXPECT_EQ(blocks[2].size(), 20u);
  EXPECT_EQ(count(chart.plot, "\nplot "), 3u);
  EXPECT_NE(chart.plot.find("set multiplot layout 1,3 "), std::string::npos);
  EXPECT_NE(chart.plot.find("with boxxy"), std::string::npos);
  EXPECT_NE(chart.about.find("busiest global link from group i to group j"), std::string::npos)
      << chart.about;
  EXPECT_EQ(chart.about.find("binned"), std::string::npos);
  // Without a replay, the loads are those of the minimal routes (not dimension order).
  const auto static_chart = heatmap_chart(make_run(*df.machine, df.loads(), false), *df.machine);
  EXPECT_NE(static_chart.about.find("the run's static minimal routes"), std::string::npos);
}

TEST(HeatMap, LinkLoadsPerClassAddUpByHand) {
  // SmallDragonfly: 40 host, 60 local and 40 global links (8 used global ports per group). Host
  // links carried 90 + 40 = 130 of 1380 bytes (9.4%), local 250 (18.1%), global 1000 (72.5%).
  const SmallDragonfly df;
  const auto& machine = *df.machine;
  const auto chart = heatmap_chart(make_run(machine, df.loads()), machine);
  ASSERT_EQ(chart.more_tables.size(), 1u);
  const auto& table = chart.more_tables[0];
  EXPECT_EQ(table.suffix, "classes");
  const std::vector<std::string> header{"class", "links", "loaded links",
                                        "bytes", "share", "busiest link",
                                        "from",  "to",    "its bytes"};
  EXPECT_EQ(table.header, header);
  const auto busiest = df.global(1, 3).at(1);
  const auto name = [&](topo::VertexId v) { return machine.vertex_name(v); };
  const std::vector<std::vector<std::string>> rows{
      {"df-host", "40", "2", "130", "9.4%",
       std::to_string(find_link(machine, 19, SmallDragonfly::router(4, 3))), name(19),
       name(SmallDragonfly::router(4, 3)), "90"},
      {"df-local", "60", "1", "250", "18.1%",
       std::to_string(
           find_link(machine, SmallDragonfly::router(1, 2), SmallDragonfly::router(1, 0))),
       "router (group 1, 2)", "router (group 1, 0)", "250"},
      {"df-global", "40", "2", "1000", "72.5%", std::to_string(busiest),
       name(machine.link(busiest).from), name(machine.link(busiest).to), "700"}};
  EXPECT_EQ(table.rows, rows);
  // The chart's own table is still the busiest links.
  EXPECT_EQ(chart.table_header.size(), 6u);
  EXPECT_EQ(chart.table_rows.front()[4], "700");
}

TEST(HeatMap, LinkLoadsPerClassOnAnOldKindListEveryClass) {
  // tianhe3:1x2:nodes=4: 16 node, 4 cross and 16 switch links; only a node link carried bytes:
  // the other classes have their rows, with nothing carried and no busiest link.
  const auto machine = topo::make_topology("tianhe3:1x2:nodes=4");
  const auto up = find_link(*machine, 0, machine->node_count());
  const auto chart = heatmap_chart(make_run(*machine, {{up, 10}}), *machine);
  const auto& rows = chart.more_tables.at(0).rows;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"th3-node", "16", "1", "10", "100.0%",
                                               std::to_string(up), machine->vertex_name(0),
                                               machine->vertex_name(machine->node_count()), "10"}));
  EXPECT_EQ(rows[1],
            (std::vector<std::string>{"th3-cross", "4", "0", "0", "0.0%", "-", "-", "-", "0"}));
  EXPECT_EQ(rows[2][0], "th3-switch");
  // Nothing carried at all: no share.
  const auto idle = heatmap_chart(make_run(*machine, {{up, 0}}), *machine);
  EXPECT_EQ(idle.more_tables.at(0).rows[0][4], "-");
}

TEST(HeatMap, CascadeRoutersRunChassisThenBlade) {
  // cascade:3,1;2,1;3,1;2: 3 groups of 2 chassis of 3 blades, 2 nodes each: 36 nodes; router
  // (g, c, b) is vertex 36 + (2 g + c) 3 + b, at place 3 c + b in its group.
  const auto machine = topo::make_topology("cascade:3,1;2,1;3,1;2");
  const auto router = [](int g, int c, int b) { return 36 + (2 * g + c) * 3 + b; };
  const auto blue = find_link(*machine, router(0, 0, 2), router(2, 0, 0));  // group 0 -> 2
  const auto green = find_link(*machine, router(1, 1, 0), router(1, 1, 2));
  const auto black = find_link(*machine, router(2, 0, 1), router(2, 1, 1));
  const auto chart =
      heatmap_chart(make_run(*machine, {{blue, 800}, {green, 120}, {black, 60}}), *machine);
  const auto blocks = data_blocks(chart.data_files[0].second);
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(cell_load(blocks[0], 2, 0), 800);
  EXPECT_EQ(cell_load(blocks[0], 0, 2), 0);
  EXPECT_EQ(cell_load(blocks[0], 1, 1), -1);
  EXPECT_EQ(cell_load(blocks[1], 3, 1), 120);  // chassis 1, blade 0 of group 1
  EXPECT_EQ(cell_load(blocks[1], 1, 2), 60);   // chassis 0, blade 1 of group 2
  EXPECT_EQ(blocks[1].size(), 18u);
  // A border between the chassis, each router labelled chassis/blade.
  EXPECT_NE(chart.plot.find("set arrow 1 from first 2.5, graph 0"), std::string::npos);
  EXPECT_NE(chart.plot.find("'1/0' 3"), std::string::npos) << chart.plot;
  EXPECT_NE(chart.plot.find("chassis / blade in its group"), std::string::npos);
  EXPECT_NE(chart.about.find("global (blue)"), std::string::npos) << chart.about;
  const auto& classes = chart.more_tables.at(0).rows;
  ASSERT_EQ(classes.size(), 4u);
  EXPECT_EQ(classes[3],
            (std::vector<std::string>{"df-blue", "6", "1", "800", "81.6%", std::to_string(blue),
                                      machine->vertex_name(router(0, 0, 2)),
                                      machine->vertex_name(router(2, 0, 0)), "800"}));  // 800 / 980
}

TEST(HeatMap, FatTreeRowsAreSwitchLevels) {
  // fattree:2;4,4;1,2;1,2: 16 nodes, 4 leaf switches (vertices 16..19) with 2 parents each over
  // 2 parallel links, 2 top switches (20, 21). A row spans [0, 1]: switch q of n at (q + 0.5) / n,
  // 0.92 of its width drawn (few cells), 0.8 of the row's height.
  const auto machine = topo::make_topology("fattree:2;4,4;1,2;1,2");
  const auto parallel_up =
      links_where(*machine, [](const topo::Link& l) { return l.from == 18 && l.to == 21; });
  const auto parallel_down =
      links_where(*machine, [](const topo::Link& l) { return l.from == 20 && l.to == 19; });
  ASSERT_EQ(parallel_up.size(), 2u);
  ASSERT_EQ(parallel_down.size(), 2u);
  const std::map<LinkId, std::int64_t> loads{{find_link(*machine, 5, 17), 100},
                                             {parallel_up[0], 30},
                                             {parallel_up[1], 70},
                                             {parallel_down[0], 55},
                                             {find_link(*machine, 16, 1), 44}};
  const auto chart = heatmap_chart(make_run(*machine, loads), *machine);
  const auto blocks = data_blocks(chart.data_files[0].second);
  ASSERT_EQ(blocks.size(), 2u);  // up-links, down-links
  // Up: row 0 the nodes' links into each leaf switch, row 1 the leaf switches' up-links.
  EXPECT_EQ(cell_load(blocks[0], 0.375, 0), 100);  // node 5 into leaf switch 1
  EXPECT_EQ(cell_load(blocks[0], 0.625, 1), 70);   // leaf 2's busier parallel link
  EXPECT_EQ(blocks[0].size(), 8u);                 // no row for the top switches
  const auto* cell = find_cell(blocks[0], 0.625, 1);
  ASSERT_NE(cell, nullptr);
  EXPECT_NEAR((*cell)[2], 0.125 * 0.92, kTolerance);
  EXPECT_NEAR((*cell)[3], 0.4, kTolerance);
  // Down: row 1 the leaf switches to their nodes, row 2 the top switches (2: wider cells).
  EXPECT_EQ(cell_load(blocks[1], 0.125, 1), 44);
  EXPECT_EQ(cell_load(blocks[1], 0.25, 2), 55);
  EXPECT_EQ(cell_load(blocks[1], 0.75, 2), 0);
  EXPECT_EQ(blocks[1].size(), 6u);
  EXPECT_NE(chart.plot.find("set multiplot layout 2,1 "), std::string::npos);
  EXPECT_NE(chart.plot.find("'nodes' 0"), std::string::npos);
  EXPECT_NE(chart.about.find("busiest up-link"), std::string::npos);
  EXPECT_EQ(chart.about.find("binned"), std::string::npos);
}

TEST(HeatMap, SlurmTreeSwitchesSitAtTheirLevel) {
  // three-level.conf: leaf1..leaf4 (level 1), agg1, agg2 (level 2), core (level 3); leaf4 hangs
  // straight from the core, so its up-link (ft-1) reaches level 3. Nodes 8 and 9 are leaf4's.
  const auto machine = topo::make_topology("slurm:" MAPSIM_TEST_DATA_DIR "/slurm/three-level.conf");
  const auto leaf4 = vertex_named(*machine, "switch leaf4");
  const auto agg2 = vertex_named(*machine, "switch agg2");
  const auto core = vertex_named(*machine, "switch core");
  const std::map<LinkId, std::int64_t> loads{{find_link(*machine, leaf4, core), 900},
                                             {find_link(*machine, core, leaf4), 20},
                                             {find_link(*machine, core, agg2), 65},
                                             {find_link(*machine, 8, leaf4), 33}};
  const auto chart = heatmap_chart(make_run(*machine, loads), *machine);
  const auto blocks = data_blocks(chart.data_files[0].second);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(cell_load(blocks[0], 0.875, 1), 900);  // leaf4: the last of 4 leaf switches
  EXPECT_EQ(cell_load(blocks[0], 0.875, 0), 33);
  EXPECT_EQ(cell_load(blocks[0], 0.75, 2), 0);  // agg2 up to the core: a link, no bytes
  EXPECT_EQ(cell_load(blocks[1], 0.5, 3), 65);  // the core's busiest down-link
  EXPECT_EQ(blocks[0].size(), 4u + 4u + 2u);    // nodes, leaf and aggregation rows
  EXPECT_EQ(blocks[1].size(), 4u + 2u + 1u);
  EXPECT_NE(chart.plot.find("'level 3' 3"), std::string::npos);
}

TEST(HeatMap, LargeDragonflyBinsGroupsKeepingTheBusiest) {
  // dragonfly:129,8,4,16: 4128 nodes, 129 groups: binned 2 to a cell, 65 cells (the last holds
  // group 128 alone). Router (g, r) is vertex 4128 + 8 g + r; one global link per pair of groups.
  const auto machine = topo::make_topology("dragonfly:129,8,4,16");
  const auto router = [](int g, int r) { return 4128 + 8 * g + r; };
  const auto global = [&](int g, int h) {
    const auto ids = links_where(*machine, [&](const topo::Link& l) {
      return l.link_class == topo::LinkClass::DfGlobal && (l.from - 4128) / 8 == g &&
             (l.to - 4128) / 8 == h;
    });
    EXPECT_EQ(ids.size(), 1u);
    return ids.at(0);
  };
  const std::map<LinkId, std::int64_t> loads{
      {global(127, 128), 5000},
      {global(126, 128), 3000},
      {find_link(*machine, router(127, 3), router(127, 0)), 900},
      {find_link(*machine, router(126, 3), router(126, 1)), 400}};
  const auto chart = heatmap_chart(make_run(*machine, loads), *machine);
  const auto blocks = data_blocks(chart.data_files[0].second);
  ASSERT_EQ(blocks.size(), 3u);
  // Row cell 63 holds groups 126 and 127 (centre 126.5, half height 1), column cell 64 group
  // 128 (centre 128, half width 0.5): the busier of the two links.
  const auto* cell = find_cell(blocks[0], 128, 126.5);
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)[4], 5000);
  EXPECT_EQ((*cell)[2], 0.5);
  EXPECT_EQ((*cell)[3], 1.0);
  EXPECT_EQ(blocks[0].size(), 65u * 65u - 1u);  // all but group 128 with itself
  EXPECT_EQ(cell_load(blocks[1], 3, 126.5), 900);
  EXPECT_EQ(blocks[1].size(), 8u * 65u);  // 8 routers a group: not binned
  EXPECT_NE(chart.about.find("129 groups, 2 to a cell (65 cells)"), std::string::npos)
      << chart.about;
  EXPECT_EQ(chart.about.find("routers per group,"), std::string::npos);
}

TEST(HeatMap, LargeFatTreeBinsSwitchesKeepingTheBusiest) {
  // fattree:k-ary-n-tree:16,3: 4096 nodes, 256 switches per level (leaf switch q is vertex
  // 4096 + q): 2 to a cell, 128 cells a row, each filling its width 1 / 128.
  const auto machine = topo::make_topology("fattree:k-ary-n-tree:16,3");
  const auto up_from = [&](topo::VertexId leaf) {
    return links_where(*machine,
                       [&](const topo::Link& l) { return l.from == leaf && l.to >= 4096 + 256; })
        .at(0);
  };
  const auto chart = heatmap_chart(
      make_run(*machine, {{up_from(4096 + 255), 7000}, {up_from(4096 + 254), 100}}), *machine);
  const auto blocks = data_blocks(chart.data_files[0].second);
  ASSERT_EQ(blocks.size(), 2u);
  const auto* cell = find_cell(blocks[0], 255.0 / 256, 1);  // leaf switches 254 and 255
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)[4], 7000);
  EXPECT_NEAR((*cell)[2], 1.0 / 256, kTolerance);
  EXPECT_EQ(blocks[0].size(), 3u * 128u);
  for (int level = 1; level <= 3; ++level) {
    EXPECT_NE(
        chart.about.find(fmt::format("level {}: 256 switches, 2 to a cell (128 cells)", level)),
        std::string::npos)
        << chart.about;
  }
}

TEST(HeatMap, HierarchyRendersThroughGnuplot) {
  // Every new kind, small and large (binned), and machines with panels left out: one group (no
  // global links), one router per group (no local links), a tree of one switch (no up-links).
  const mapsim::testing::TempDir dir;
  for (const std::string spec :
       {"dragonfly:9,4,2,2", "dragonfly:129,8,4,16", "dragonfly:1,4,2,1", "dragonfly:3,1,2,2",
        "cascade:2,2;2,2;2,1;2", "cascade:3,1;2,1;3,1;2", "cascade:16,1;6,1;16,1;4",
        "cascade:1,1;1,1;1,1;4", "fattree:2;4,4;1,2;1,2", "fattree:k-ary-n-tree:4,3",
        "fattree:k-ary-n-tree:16,3", "fattree:leaf-spine:6,4", "fattree:1;4;1;1",
        "slurm:" MAPSIM_TEST_DATA_DIR "/slurm/three-level.conf",
        "slurm:" MAPSIM_TEST_DATA_DIR "/slurm/uneven-parents.conf",
        "slurm:" MAPSIM_TEST_DATA_DIR "/slurm/single.conf"}) {
    SCOPED_TRACE(spec);
    const auto machine = topo::make_topology(spec);
    std::map<LinkId, std::int64_t> loads;
    for (LinkId id = 0; id < machine->link_count(); ++id) loads[id] = (id * 7919) % 1000;
    auto run = make_run(*machine, loads);
    run.mapper = "o'brien_x^2";
    expect_renders(dir, heatmap_chart(run, *machine));
  }
}

TEST(HeatMap, ReportShowsAndWritesTheClassTable) {
  const mapsim::testing::TempDir dir;
  const SmallDragonfly df;
  const auto chart = heatmap_chart(make_run(*df.machine, df.loads()), *df.machine);
  ReportOptions options;
  options.out = dir.path() / "report";
  options.command = "mapsim report r.db --out report";
  const auto summary = write_report({chart}, options);
  const auto file = chart.name + ".classes.csv";
  ASSERT_EQ(summary.files.size(), 1u);
  EXPECT_NE(std::find(summary.files[0].begin(), summary.files[0].end(), file),
            summary.files[0].end());
  std::ifstream csv(options.out / file);
  const std::string text((std::istreambuf_iterator<char>(csv)), {});
  EXPECT_TRUE(text.starts_with(
      "class,links,loaded links,bytes,share,busiest link,from,to,its bytes\ndf-host,40,2,130,"))
      << text;
  EXPECT_NE(text.find(",\"router (group 1, 2)\",\"router (group 1, 0)\",250\n"), std::string::npos)
      << text;
  std::ifstream md(options.out / "index.md");
  const std::string index((std::istreambuf_iterator<char>(md)), {});
  EXPECT_NE(index.find("Link loads per class"), std::string::npos);
  EXPECT_NE(index.find(fmt::format("[{0}]({0})", file)), std::string::npos);
  EXPECT_NE(index.find("| df-global | 40 | 2 | 1000 | 72.5% |"), std::string::npos) << index;
  std::ifstream html(options.out / "index.html");
  const std::string page((std::istreambuf_iterator<char>(html)), {});
  EXPECT_NE(page.find("<td>df-local</td><td>60</td>"), std::string::npos);
  EXPECT_NE(page.find(fmt::format("<a href=\"{0}\">{0}</a>", file)), std::string::npos);
}

}  // namespace
}  // namespace mapsim::exp
