#include "experiments/HeatMap.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

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
    const auto chart = heatmap_chart(run, *machine);
    for (const auto& [name, content] : chart.data_files) dir.write(name, content);
    dir.write("x.gp", fmt::format("set terminal svg size {},{}; set output 'x.svg'\n{}",
                                  chart.width, chart.height, chart.plot));
    std::filesystem::remove(dir.path() / "x.svg");
    const auto command =
        "cd '" + dir.path().string() + "' && /usr/bin/gnuplot x.gp > gnuplot.out 2> gnuplot.err";
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::ifstream err(dir.path() / "gnuplot.err");
    const std::string warnings((std::istreambuf_iterator<char>(err)), {});
    EXPECT_EQ(warnings, "");  // gnuplot says nothing: no empty data set, no bad option
    std::ifstream svg(dir.path() / "x.svg");
    std::string text((std::istreambuf_iterator<char>(svg)), {});
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    EXPECT_TRUE(text.ends_with("</svg>")) << text.substr(text.size() > 200 ? text.size() - 200 : 0);
  }
}

}  // namespace
}  // namespace mapsim::exp
