// Heat maps of hierarchical machines (HeatMapDrawing.hpp): dragonflies and Cascade as groups and
// routers, fat-trees and Slurm trees as rows of switches per level. Readable at thousands of
// nodes: an axis of more than kMaxCells groups, routers or switches is binned, a cell showing the
// busiest link of its items, and the chart's `about` says so.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "experiments/HeatMapDrawing.hpp"
#include "support/Error.hpp"
#include "topologies/FatTree.hpp"
#include "topologies/SlurmTree.hpp"

namespace mapsim::exp::heatmap {
namespace {

using topo::LinkClass;

/// At most this many cells along an axis of a panel (3 pixels or more each in a panel of about
/// 400): beyond it, neighbouring items share a cell.
constexpr int kMaxCells = 128;
/// Rows with at most this many cells leave a gap between neighbours, so that equal loads stay
/// apart; more cells fill their row.
constexpr int kGappedCells = 64;
constexpr int kPanelPx = 360;       // a panel of the group drawing
constexpr int kDensePanelPx = 480;  // ... with more than kGappedCells groups
constexpr int kRowPx = 44;          // a level of the tree drawing
constexpr int kTreeWidth = 1100;

/// An axis of `count` items (groups, routers, switches) drawn as at most kMaxCells cells, `per`
/// consecutive items to a cell (the last may hold fewer); a cell shows the busiest of its items.
struct Axis {
  int count = 0;
  int per = 1;
  explicit Axis(int items) : count(items), per(std::max(1, (items + kMaxCells - 1) / kMaxCells)) {}
  [[nodiscard]] int cells() const { return (count + per - 1) / per; }
  [[nodiscard]] bool binned() const { return per > 1; }
  /// "129 groups, 2 to a cell (65 cells)".
  [[nodiscard]] std::string binning(std::string_view items) const {
    return fmt::format("{} {}, {} to a cell ({} cells)", count, items, per, cells());
  }
};

/// What `about` adds when axes are binned (`binned`: Axis::binning of each).
std::string binning_note(const std::vector<std::string>& binned) {
  return fmt::format(
      " Too many to draw one by one, so binned: {}; each cell shows the busiest link of its bin.",
      fmt::join(binned, "; "));
}

/// Where a panel's cells go: item i of an axis at i (cells centred on the items), or stretched so
/// that the columns span [0, 1]; shifted up by `y`; `fill_x`, `fill_y`: the part of a cell drawn.
struct CellStyle {
  bool stretch = false;
  double y = 0;
  double fill_x = 1, fill_y = 1;
};

/// The busiest load per cell of columns x rows (binned axes), -1 where no link is: nothing is
/// drawn there.
class Cells {
 public:
  Cells(Axis columns, Axis rows)
      : columns_(columns),
        rows_(rows),
        load_(static_cast<std::size_t>(columns.cells()) * static_cast<std::size_t>(rows.cells()),
              -1) {}

  void add(int column, int row, std::int64_t bytes) {
    MAPSIM_EXPECTS(column >= 0 && column < columns_.count && row >= 0 && row < rows_.count,
                   "a heat-map cell within its panel");
    auto& cell = load_[index(column / columns_.per, row / rows_.per)];
    cell = std::max(cell, bytes);
  }

  /// Data rows "x y dx dy load" (centre, half sizes) for gnuplot's boxxy, one per cell with a link.
  [[nodiscard]] std::string text(const CellStyle& style) const {
    std::string out;
    for (int r = 0; r < rows_.cells(); ++r) {
      const auto [y, dy] = span(rows_, r);
      for (int c = 0; c < columns_.cells(); ++c) {
        const auto load = load_[index(c, r)];
        if (load < 0) continue;
        auto [x, dx] = span(columns_, c);
        if (style.stretch) {
          x = (x + 0.5) / columns_.count;
          dx /= columns_.count;
        }
        out += fmt::format("{} {} {} {} {}\n", x, y + style.y, dx * style.fill_x, dy * style.fill_y,
                           load);
      }
    }
    return out;
  }

 private:
  [[nodiscard]] std::size_t index(int column_cell, int row_cell) const {
    return static_cast<std::size_t>(row_cell) * static_cast<std::size_t>(columns_.cells()) +
           static_cast<std::size_t>(column_cell);
  }
  /// Centre and half size of cell k, in items.
  static std::pair<double, double> span(const Axis& axis, int k) {
    const int lo = k * axis.per;
    const int hi = std::min(axis.count, lo + axis.per);
    return {(lo + hi - 1) / 2.0, (hi - lo) / 2.0};
  }

  Axis columns_, rows_;
  std::vector<std::int64_t> load_;
};

/// A panel: the gnuplot settings before it, its title and its cells (data rows).
struct Panel {
  std::string settings;
  std::string title;
  std::string cells;
};

/// The multiplot of `panels` in a `rows` x `columns` layout, each panel's cells as boxxy
/// coloured by load. Panels without cells are left out by the caller.
std::string plot_panels(const std::vector<Panel>& panels, int rows, int columns,
                        const std::string& file, DataFile& data) {
  std::string plot = fmt::format("set multiplot layout {},{} @TITLE\n", rows, columns);
  for (const auto& panel : panels) {
    const int index = data.add(panel.cells);
    MAPSIM_EXPECTS(index >= 0, "a heat-map panel has cells");
    plot += panel.settings;
    plot += fmt::format(
        "set title {}\nplot {} index {} using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc "
        "palette notitle\n",
        gp_string(panel.title), gp_string(file), index);
  }
  return plot + "unset multiplot\n";
}

/// gnuplot tics for an axis of `count` items at 0, 1, ...: every item, or gnuplot's choice.
std::string_view tics(int count) {
  return count <= 16 ? "1" : "autofreq";
}

// ---- Dragonfly and Cascade ----

/// The routers of a dragonfly or Cascade: per router, its group and its place in the group;
/// places in a sub-group (a Cascade chassis) when the machine has a level between.
struct Routers {
  std::vector<int> group, place;
  int groups = 0;
  int columns = 0;    // the most routers of a group
  int subgroups = 1;  // per group: Cascade's chassis (1 for a dragonfly)
  std::string router_name, subgroup_name;
};

Routers routers_of(const topo::Topology& machine) {
  const auto levels = machine.levels();  // router (blade), [chassis,] group
  MAPSIM_EXPECTS(levels.size() >= 2, "a dragonfly has router and group levels");
  const auto& router = levels.front();
  const auto& top = levels.back();
  Routers r;
  r.groups = top.groups;
  r.router_name = router.name;
  if (levels.size() > 2) {
    const auto& sub = levels[levels.size() - 2];
    r.subgroups = sub.groups / top.groups;
    r.subgroup_name = sub.name;
  }
  r.group.assign(static_cast<std::size_t>(router.groups), -1);
  std::vector<int> first(static_cast<std::size_t>(top.groups), router.groups);
  for (std::size_t n = 0; n < router.group.size(); ++n) {
    const auto index = static_cast<std::size_t>(router.group[n]);
    r.group[index] = top.group[n];
    auto& f = first[static_cast<std::size_t>(top.group[n])];
    f = std::min(f, router.group[n]);
  }
  r.place.resize(r.group.size());
  for (std::size_t i = 0; i < r.group.size(); ++i) {
    MAPSIM_EXPECTS(r.group[i] >= 0, "every router of a dragonfly has nodes");
    r.place[i] = static_cast<int>(i) - first[static_cast<std::size_t>(r.group[i])];
    r.columns = std::max(r.columns, r.place[i] + 1);
  }
  return r;
}

/// The router panels' x axis: routers in their group; on Cascade, chassis borders and labels.
std::string router_axis(const Routers& routers, const Axis& axis) {
  std::string text = fmt::format("set size noratio\nset xrange [-0.5:{}]\n", routers.columns - 0.5);
  if (routers.subgroups <= 1) {
    return text + fmt::format("set xlabel {}\nset xtics {}\n",
                              gp_string(routers.router_name + " in its group"),
                              tics(routers.columns));
  }
  const int per = routers.columns / routers.subgroups;  // blades per chassis
  text += fmt::format(
      "set xlabel {}\n",
      gp_string(fmt::format("{} / {} in its group", routers.subgroup_name, routers.router_name)));
  std::vector<std::string> labels;
  if (routers.columns <= 16) {
    for (int x = 0; x < routers.columns; ++x)
      labels.push_back(fmt::format("'{}/{}' {}", x / per, x % per, x));
  } else {
    const int stride = std::max(1, routers.subgroups / 16);
    for (int s = 0; s < routers.subgroups; s += stride)
      labels.push_back(fmt::format("'{}' {}", s, s * per + (per - 1) / 2.0));
  }
  text += fmt::format("set xtics ({})\n", fmt::join(labels, ", "));
  if (!axis.binned() && routers.subgroups <= 64) {
    for (int s = 1; s < routers.subgroups; ++s) {
      text += fmt::format(
          "set arrow {} from first {}, graph 0 to first {}, graph 1 nohead front lc rgb '#ffffff' "
          "lw 2\n",
          s, s * per - 0.5, s * per - 0.5);
    }
  }
  return text;
}

// ---- Fat-trees and Slurm trees ----

/// The switches of a tree, switch s being vertex node_count() + s: its level (1: leaf switch)
/// and its place among its level's switches (in vertex order); per level l, count[l] switches.
struct Switches {
  std::vector<int> level, place;
  std::vector<int> count;  // index 0 unused
  int height = 0;
};

Switches switches_of(const topo::Topology& machine) {
  const int nodes = machine.node_count();
  Switches s;
  s.level.resize(static_cast<std::size_t>(machine.vertex_count() - nodes));
  if (const auto* tree = dynamic_cast<const topo::FatTree*>(&machine)) {
    s.height = tree->shape().levels;
    int l = 1;
    for (std::size_t i = 0; i < s.level.size(); ++i) {
      const auto v = nodes + static_cast<topo::VertexId>(i);
      while (l < s.height && v >= tree->switch_vertex(l + 1, 0)) ++l;
      s.level[i] = l;
    }
  } else if (const auto* slurm = dynamic_cast<const topo::SlurmTree*>(&machine)) {
    s.height = slurm->tree_levels();
    for (std::size_t i = 0; i < s.level.size(); ++i)
      s.level[i] = slurm->switch_level(static_cast<std::int32_t>(i));
  } else {
    MAPSIM_EXPECTS(false, "a tree heat map is of a fat-tree or a Slurm tree");
  }
  s.count.assign(static_cast<std::size_t>(s.height) + 1, 0);
  s.place.resize(s.level.size());
  for (std::size_t i = 0; i < s.level.size(); ++i)
    s.place[i] = s.count[static_cast<std::size_t>(s.level[i])]++;
  return s;
}

/// The y tics of a tree panel: its rows `from` .. `to`, "nodes" for row 0, "level l" above.
std::string level_tics(int from, int to) {
  std::vector<std::string> labels;
  for (int l = from; l <= to; ++l)
    labels.push_back(l == 0 ? std::string("'nodes' 0") : fmt::format("'level {}' {}", l, l));
  return fmt::format("set yrange [{}:{}]\nset ytics ({})\n", from - 0.5, to + 0.5,
                     fmt::join(labels, ", "));
}

}  // namespace

Drawing group_drawing(const topo::Topology& machine, const Loads& loads, const std::string& file) {
  const bool cascade = machine.kind() == "cascade";
  const auto routers = routers_of(machine);
  const int nodes = machine.node_count();
  const Axis groups(routers.groups), places(routers.columns);
  Cells global(groups, groups), local(places, groups), host(places, groups);
  const auto router = [&](topo::VertexId v) {
    const auto r = static_cast<std::size_t>(v - nodes);
    MAPSIM_EXPECTS(v >= nodes && r < routers.group.size(), "a dragonfly link joins routers");
    return r;
  };
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const auto link = machine.link(id);
    const auto bytes = loads.bytes[static_cast<std::size_t>(id)];
    switch (link.link_class) {
      case LinkClass::DfHost: {
        const auto r = router(link.from < nodes ? link.to : link.from);
        host.add(routers.place[r], routers.group[r], bytes);
        break;
      }
      case LinkClass::DfLocal:
      case LinkClass::DfGreen:
      case LinkClass::DfBlack: {
        const auto r = router(link.from);
        local.add(routers.place[r], routers.group[r], bytes);
        break;
      }
      case LinkClass::DfGlobal:
      case LinkClass::DfBlue:  // row: the group it leaves; column: the group it enters
        global.add(routers.group[router(link.to)], routers.group[router(link.from)], bytes);
        break;
      default:
        MAPSIM_EXPECTS(false, "a dragonfly's links are of the dragonfly classes");
    }
  }

  const auto global_name = cascade ? "global (blue)" : "global";
  const auto local_name = cascade ? "local (green and black)" : "local";
  // Group 0 at the top, as the groups are numbered.
  const auto y_axis = [&](std::string_view label) {
    return fmt::format("set yrange [{}:-0.5]\nset ylabel '{}'\nset ytics {}\n",
                       routers.groups - 0.5, label, tics(routers.groups));
  };
  const auto router_settings = router_axis(routers, places) + y_axis("group");
  std::vector<Panel> panels;
  std::vector<std::string> reading;
  const auto add = [&](std::string settings, std::string title, std::string cells,
                       std::string what) {
    if (cells.empty()) return;
    panels.push_back({std::move(settings), std::move(title), std::move(cells)});
    reading.push_back(fmt::format("({}) {}", panels.size(), what));
  };
  add(fmt::format("set size ratio -1\nset xrange [-0.5:{}]\nset xlabel 'to group'\nset xtics {}\n",
                  routers.groups - 0.5, tics(routers.groups)) +
          y_axis("from group"),
      fmt::format("{} links, group to group", cascade ? "blue" : "global"), global.text({}),
      fmt::format("the cell in row i, column j is the busiest {} link from group i to group j "
                  "(white: no link)",
                  global_name));
  add(router_settings, fmt::format("{} links sent, per router", cascade ? "green+black" : "local"),
      local.text({}),
      fmt::format("per router (x: its place in its group{}; y: its group), the busiest {} link "
                  "it sends on",
                  routers.subgroups > 1
                      ? fmt::format(", by {} then {}", routers.subgroup_name, routers.router_name)
                      : std::string(),
                  local_name));
  add(router_settings, "host links, per router", host.text({}),
      "per router, the busiest link between it and its nodes, either way");

  Drawing drawing;
  DataFile data;
  const int count = static_cast<int>(panels.size());
  drawing.plot = plot_panels(panels, 1, count, file, data);
  drawing.data = std::move(data.text);
  drawing.about = fmt::format("Panels, left to right: {}.", fmt::join(reading, "; "));
  if (groups.binned() || places.binned()) {
    std::vector<std::string> binned;
    if (groups.binned()) binned.push_back(groups.binning("groups"));
    if (places.binned()) binned.push_back(places.binning("routers per group"));
    drawing.about += binning_note(binned);
  }
  const int panel_px = groups.cells() > kGappedCells ? kDensePanelPx : kPanelPx;
  drawing.width = count * (panel_px + kPanelGapX) + kMarginsX;
  drawing.height = panel_px + kPanelGapY + kMarginsY;
  return drawing;
}

Drawing tree_drawing(const topo::Topology& machine, const Loads& loads, const std::string& file) {
  const auto switches = switches_of(machine);
  const int nodes = machine.node_count();
  const int height = switches.height;
  // up[l]: the switches of level l (the leaf switches for l = 0, the nodes' links into them);
  // down[l - 1]: the switches of level l.
  std::vector<Cells> up, down;
  for (int l = 0; l < height; ++l)
    up.emplace_back(Axis(switches.count[static_cast<std::size_t>(std::max(l, 1))]), Axis(1));
  for (int l = 1; l <= height; ++l)
    down.emplace_back(Axis(switches.count[static_cast<std::size_t>(l)]), Axis(1));
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const auto link = machine.link(id);
    const auto bytes = loads.bytes[static_cast<std::size_t>(id)];
    const auto end = [&](topo::VertexId v) { return static_cast<std::size_t>(v - nodes); };
    if (link.from < nodes) {  // a node up to its leaf switch
      up[0].add(switches.place[end(link.to)], 0, bytes);
      continue;
    }
    const auto from = end(link.from);
    const int level = switches.level[from];
    const int to_level = link.to < nodes ? 0 : switches.level[end(link.to)];
    MAPSIM_EXPECTS(level != to_level, "a tree link joins two levels");
    auto& row = to_level > level ? up[static_cast<std::size_t>(level)]
                                 : down[static_cast<std::size_t>(level - 1)];
    row.add(switches.place[from], 0, bytes);
  }

  std::vector<Panel> panels;
  for (const bool upward : {true, false}) {
    const int first = upward ? 0 : 1;
    std::string cells;
    for (int l = first; l < first + height; ++l) {
      const auto& row =
          upward ? up[static_cast<std::size_t>(l)] : down[static_cast<std::size_t>(l - 1)];
      const int count = switches.count[static_cast<std::size_t>(std::max(l, 1))];
      const double fill = Axis(count).cells() <= kGappedCells ? 0.92 : 1.0;
      cells += row.text({true, static_cast<double>(l), fill, 0.8});
    }
    panels.push_back(
        {"set xrange [0:1]\nunset xtics\nset xlabel 'switches of each level, in order (a row "
         "spans the width)'\n" +
             level_tics(first, first + height - 1),
         upward ? "up-links: the busiest each switch sends on (nodes: into each leaf switch)"
                : "down-links: the busiest each switch sends on (level 1: to its nodes)",
         std::move(cells)});
  }

  Drawing drawing;
  DataFile data;
  drawing.plot = plot_panels(panels, static_cast<int>(panels.size()), 1, file, data);
  drawing.data = std::move(data.text);
  drawing.about = fmt::format(
      "Each row is a level of switches (level 1: the leaf switches), left to right in switch "
      "order{}, spread over the panel's width, so a level of fewer switches has wider cells. Top "
      "panel: the busiest up-link each switch sends on, and in the row 'nodes', per leaf switch, "
      "the busiest link from one of its nodes up to it. Bottom panel: the busiest down-link each "
      "switch sends on (level 1: to its nodes). A switch with no such link (a root) has no cell.",
      machine.kind() == "slurm" ? " (as the topology file lists them)" : "");
  std::vector<std::string> binned;
  for (int l = 1; l <= height; ++l) {
    const Axis axis(switches.count[static_cast<std::size_t>(l)]);
    if (axis.binned()) binned.push_back(fmt::format("level {}: {}", l, axis.binning("switches")));
  }
  if (!binned.empty()) drawing.about += binning_note(binned);
  drawing.width = kTreeWidth;
  const int panel_height = std::max(2, height) * kRowPx + kPanelGapY;
  drawing.height = static_cast<int>(panels.size()) * panel_height + kMarginsY;
  return drawing;
}

}  // namespace mapsim::exp::heatmap
