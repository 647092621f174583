#include "experiments/HeatMap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "experiments/HeatMapDrawing.hpp"
#include "experiments/ReportCharts.hpp"
#include "sim/Network.hpp"
#include "support/Error.hpp"

namespace mapsim::exp {

using namespace heatmap;

namespace {

constexpr int kMaxPanels = 16;
constexpr std::size_t kTableRows = 10;
// Grid panels, in node spacings: a segment runs from 0.15 to 0.85 of the way between its nodes,
// its two directions 0.1 to either side; a wrap-around stub is 0.4 long from 0.15 off its node.
constexpr double kStart = 0.15, kLength = 0.7, kStub = 0.4, kOffset = 0.1;

std::string run_label(const LinkLoadRun& run) {
  return fmt::format("run '{}'", run.name.empty() ? run.key : run.name);
}

Loads collect(const LinkLoadRun& run, const topo::Topology& machine) {
  const auto links = machine.link_count();
  Loads loads{std::vector<std::int64_t>(static_cast<std::size_t>(links), 0),
              std::vector<const LinkLoad*>(static_cast<std::size_t>(links), nullptr), 0, 0};
  const auto sockets = machine.sockets_per_node();
  const std::int64_t channels =
      std::int64_t{machine.node_count()} * (sockets == 1 ? 1 : sockets + 1);
  for (const auto& row : run.links) {
    if (row.link < 0 || row.link >= links) {
      // The nodes' channels follow the links, each from its node to itself (sim/Network.hpp).
      if (row.link >= links && row.link < links + channels) {
        const auto channel = sim::node_channel(machine, static_cast<sim::ResourceId>(row.link));
        if (row.link_class == topo::name(channel.link_class) && row.from == channel.node &&
            row.to == channel.node) {
          continue;
        }
      }
      throw InputError(fmt::format(
          "{}: stored link {} ({} -> {}, class '{}') does not exist on {}, which has links 0 to "
          "{} and node channels {} to {}",
          run_label(run), row.link, row.from, row.to, row.link_class, machine.spec(), links - 1,
          links, links + channels - 1));
    }
    const auto id = static_cast<topo::LinkId>(row.link);
    const auto link = machine.link(id);
    if (row.from != link.from || row.to != link.to) {
      throw InputError(fmt::format(
          "{}: stored link {} goes from vertex {} to {}, but link {} of {} goes from {} to {}; "
          "were the links stored for another machine?",
          run_label(run), row.link, row.from, row.to, row.link, machine.spec(), link.from,
          link.to));
    }
    auto& slot = loads.stored[static_cast<std::size_t>(id)];
    if (slot != nullptr) {
      throw InputError(fmt::format("{}: link {} is stored twice", run_label(run), row.link));
    }
    slot = &row;
    const auto bytes = run.replayed && row.bytes ? *row.bytes : row.static_bytes;
    loads.bytes[static_cast<std::size_t>(id)] = bytes;
    loads.busiest = std::max(loads.busiest, bytes);
    loads.total += bytes;
  }
  return loads;
}

/// A node's coordinates ("1 2 0"); other vertices (Tianhe-3 routers, switches) by name.
std::string where(const topo::Topology& machine, topo::VertexId v) {
  if (v < machine.node_count()) return fmt::format("{}", fmt::join(machine.coordinates(v), " "));
  const auto name = machine.vertex_name(v);
  return name.find_first_of(",\"\n") == std::string::npos ? name : quote(name, '"');
}

std::string csv(const LinkLoadRun& run, const topo::Topology& machine, const Loads& loads) {
  std::string text =
      "link,from,to,class,from_coordinates,to_coordinates,load_bytes,static_bytes,bytes,"
      "utilisation\n";
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const auto* row = loads.stored[static_cast<std::size_t>(id)];
    // Links that carried nothing are left out (a HAEC Box of 4096 nodes has 2 M links).
    if (row == nullptr && loads.bytes[static_cast<std::size_t>(id)] == 0) continue;
    const auto link = machine.link(id);
    // A link the run did not store carried nothing: 0 where the run has a value of that kind.
    const auto optional_text = [&](auto value) {
      if (row != nullptr) return value ? fmt::format("{}", *value) : std::string();
      return run.replayed ? std::string("0") : std::string();
    };
    text += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", id, link.from, link.to,
                        topo::name(link.link_class), where(machine, link.from),
                        where(machine, link.to), loads.bytes[static_cast<std::size_t>(id)],
                        row != nullptr ? row->static_bytes : 0,
                        optional_text(row != nullptr ? row->bytes : std::nullopt),
                        optional_text(row != nullptr ? row->utilisation : std::nullopt));
  }
  return text;
}

/// The busiest links with a load, busiest first (ties by link id).
std::vector<std::vector<std::string>> busiest_table(const topo::Topology& machine,
                                                    const Loads& loads) {
  std::vector<topo::LinkId> ids;
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    if (loads.bytes[static_cast<std::size_t>(id)] > 0) ids.push_back(id);
  }
  const auto by_load = [&](topo::LinkId a, topo::LinkId b) {
    const auto la = loads.bytes[static_cast<std::size_t>(a)];
    const auto lb = loads.bytes[static_cast<std::size_t>(b)];
    return la != lb ? la > lb : a < b;
  };
  const auto shown = std::min(ids.size(), kTableRows);
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(shown), ids.end(),
                    by_load);
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto link = machine.link(ids[i]);
    const auto bytes = loads.bytes[static_cast<std::size_t>(ids[i])];
    rows.push_back({std::to_string(ids[i]), machine.vertex_name(link.from),
                    machine.vertex_name(link.to), std::string(topo::name(link.link_class)),
                    std::to_string(bytes),
                    fmt::format("{:.1f}%", 100.0 * static_cast<double>(bytes) /
                                               static_cast<double>(loads.total))});
  }
  return rows;
}

/// Per link class the machine has: its links, how many carried bytes, their bytes and share of
/// all bytes, and its busiest link (ties: the lowest id).
ChartTable class_table(const topo::Topology& machine, const Loads& loads) {
  struct Sum {
    std::int64_t loaded = 0, bytes = 0;
    topo::LinkId busiest = -1;
  };
  std::array<Sum, topo::kLinkClassCount> sums{};
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const auto bytes = loads.bytes[static_cast<std::size_t>(id)];
    if (bytes == 0) continue;  // links_per_class counts it; it adds to nothing else
    auto& sum = sums[static_cast<std::size_t>(machine.link(id).link_class)];
    ++sum.loaded;
    sum.bytes += bytes;
    if (sum.busiest < 0 || bytes > loads.bytes[static_cast<std::size_t>(sum.busiest)])
      sum.busiest = id;
  }
  ChartTable table{"classes",
                   "Link loads per class: the machine's links of each class, how many carried "
                   "bytes, the bytes they carried and their share of all bytes on the network, "
                   "and the busiest link of the class.",
                   {"class", "links", "loaded links", "bytes", "share", "busiest link", "from",
                    "to", "its bytes"},
                   {}};
  const auto counts = machine.links_per_class();
  for (const auto& info : topo::link_classes()) {
    const auto c = static_cast<std::size_t>(info.id);
    if (counts[c] == 0) continue;
    const auto& sum = sums[c];
    const auto share = loads.total > 0
                           ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(sum.bytes) /
                                                        static_cast<double>(loads.total))
                           : std::string("-");
    std::vector<std::string> row{std::string(info.name), std::to_string(counts[c]),
                                 std::to_string(sum.loaded), std::to_string(sum.bytes), share};
    if (sum.busiest >= 0) {
      const auto link = machine.link(sum.busiest);
      row.insert(row.end(), {std::to_string(sum.busiest), machine.vertex_name(link.from),
                             machine.vertex_name(link.to),
                             std::to_string(loads.bytes[static_cast<std::size_t>(sum.busiest)])});
    } else {
      row.insert(row.end(), {"-", "-", "-", "0"});
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

// Mesh, torus and HAEC Box: panels of the first two dimensions, one per plane of the others.

struct Plane {
  std::string nodes, segments, stubs, markers;
  std::int64_t busiest = -1;  // its busiest link (in the plane or leaving it)
};

Drawing grid_drawing(const topo::Topology& machine, const Loads& loads, const std::string& file) {
  const auto dims = machine.dimensions();
  const bool haec = machine.kind() == "haec";
  const int width = dims[0];
  const int height = dims.size() > 1 ? dims[1] : 1;
  const int node_count = machine.node_count();
  const int plane_nodes = width * height;
  const int plane_count = node_count / plane_nodes;  // node ids run x, then y, then the planes
  std::vector<Plane> planes(static_cast<std::size_t>(plane_count));
  std::vector<std::int64_t> leaving(static_cast<std::size_t>(node_count), -1);
  const auto plane_of = [&](topo::NodeId node) { return node / plane_nodes; };

  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const auto link = machine.link(id);
    const auto bytes = loads.bytes[static_cast<std::size_t>(id)];
    auto& plane = planes[static_cast<std::size_t>(plane_of(link.from))];
    plane.busiest = std::max(plane.busiest, bytes);
    if (plane_of(link.to) != plane_of(link.from)) {
      auto& busiest = leaving[static_cast<std::size_t>(link.from)];
      busiest = std::max(busiest, bytes);
      continue;
    }
    const auto from = machine.coordinates(link.from);
    const auto to = machine.coordinates(link.to);
    const int d = from[0] != to[0] ? 0 : 1;  // the dimension the link runs along
    const int delta = to[static_cast<std::size_t>(d)] - from[static_cast<std::size_t>(d)];
    const bool wraps = std::abs(delta) != 1;  // a torus wrap-around: across the whole ring
    const int direction = wraps ? (delta > 0 ? -1 : 1) : delta;
    // Unit direction (ux, uy); each direction is offset to its right, (uy, -ux).
    const double ux = d == 0 ? direction : 0, uy = d == 1 ? direction : 0;
    const double x = from[0] + kStart * ux + kOffset * uy;
    const double y = (dims.size() > 1 ? from[1] : 0) + kStart * uy - kOffset * ux;
    const double length = wraps ? kStub : kLength;
    (wraps ? plane.stubs : plane.segments) +=
        fmt::format("{} {} {} {} {}\n", x, y, length * ux, length * uy, bytes);
  }
  for (topo::NodeId node = 0; node < node_count; ++node) {
    const auto c = machine.coordinates(node);
    auto& plane = planes[static_cast<std::size_t>(plane_of(node))];
    const int y = dims.size() > 1 ? c[1] : 0;
    plane.nodes += fmt::format("{} {}\n", c[0], y);
    const auto out = leaving[static_cast<std::size_t>(node)];
    if (out >= 0) plane.markers += fmt::format("{} {} {}\n", c[0], y, out);
  }

  // The planes shown: all, or the kMaxPanels with the busiest links, in plane order.
  std::vector<int> shown(static_cast<std::size_t>(plane_count));
  std::iota(shown.begin(), shown.end(), 0);
  if (plane_count > kMaxPanels) {
    std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) {
      return planes[static_cast<std::size_t>(a)].busiest >
             planes[static_cast<std::size_t>(b)].busiest;
    });
    shown.resize(kMaxPanels);
    std::sort(shown.begin(), shown.end());
  }
  const int panels = static_cast<int>(shown.size());
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(panels))));
  const int rows = (panels + columns - 1) / columns;

  Drawing drawing;
  DataFile data;
  std::string& plot = drawing.plot;
  plot += fmt::format("set xrange [-0.6:{}]\nset yrange [-0.6:{}]\nset size ratio -1\n",
                      width - 0.4, height - 0.4);
  plot += fmt::format("set xlabel {}\n", gp_string(machine.dimension_name(0)));
  plot += width <= 16 ? "set xtics 1\n" : "set xtics autofreq\n";
  if (dims.size() > 1) {
    plot += fmt::format("set ylabel {}\n", gp_string(machine.dimension_name(1)));
    plot += height <= 16 ? "set ytics 1\n" : "set ytics autofreq\n";
  } else {
    plot += "unset ytics\n";
  }
  plot += fmt::format("set multiplot layout {},{} @TITLE\n", rows, columns);
  for (const int p : shown) {
    auto& plane = planes[static_cast<std::size_t>(p)];
    const auto c = machine.coordinates(p * plane_nodes);  // the plane's first node
    std::vector<std::string> title;
    for (std::size_t d = 2; d < dims.size(); ++d) {
      title.push_back(fmt::format("{}={}", machine.dimension_name(static_cast<int>(d)), c[d]));
    }
    plot += fmt::format("set title '{}{}'\n", haec ? "board " : "", fmt::join(title, " "));
    std::vector<std::string> clauses;
    const auto clause = [&](const std::string& rows_text, std::string_view style) {
      const int index = data.add(rows_text);
      if (index >= 0) {
        clauses.push_back(fmt::format("{} index {} {} notitle",
                                      clauses.empty() ? gp_string(file) : "''", index, style));
      }
    };
    clause(plane.nodes, "using 1:2 with points pt 7 ps 0.5 lc rgb '#969696'");
    clause(plane.segments, "using 1:2:3:4:5 with vectors nohead lw 3 lc palette");
    clause(plane.stubs, "using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette");
    clause(plane.markers, "using 1:2:3 with points pt 5 ps 2 lc palette");
    plot += fmt::format("plot {}\n", fmt::join(clauses, ", \\\n     "));
  }
  plot += "unset multiplot\n";
  drawing.data = std::move(data.text);

  std::vector<std::string_view> across;  // the dimensions across the planes
  for (std::size_t d = 2; d < dims.size(); ++d) {
    across.push_back(machine.dimension_name(static_cast<int>(d)));
  }
  const auto out_of_plane =
      haec ? std::string(
                 " A square at a node is the busiest wireless link from it to the boards "
                 "above and below.")
      : across.empty() ? std::string()
                       : fmt::format(
                             " A square at a node is the busiest of its links along {} "
                             "(up or down, out of the panel's plane).",
                             fmt::join(across, ", "));
  drawing.about = fmt::format(
      "Each directed {} link is a segment between its nodes, offset to the right of its "
      "direction of travel, so the two directions lie side by side{}.{}",
      haec ? "optical" : "network",
      machine.kind() == "mesh" ? ""
                               : "; a wrap-around link is an arrow leaving the panel at its edge",
      out_of_plane);
  if (plane_count > kMaxPanels) {
    drawing.about +=
        fmt::format(" Shown: the {} of {} planes with the busiest links.", kMaxPanels, plane_count);
  }
  const int panel_px = columns <= 2 ? 380 : 300;
  const double aspect = std::clamp((height + 0.2) / (width + 0.2), 0.3, 1.4);
  drawing.width = std::max(720, columns * (panel_px + kPanelGapX) + kMarginsX);
  drawing.height = static_cast<int>(rows * (panel_px * aspect + kPanelGapY)) + kMarginsY;
  return drawing;
}

// Tianhe-3: side routers as cells of the chip grid, rows x (columns x sides).

Drawing tianhe3_drawing(const topo::Topology& machine, const Loads& loads,
                        const std::string& file) {
  const auto dims = machine.dimensions();  // row, column, side, slot
  const int rows = dims[0], columns = dims[1], sides = dims[2];
  const int routers = rows * columns * sides;
  const int nodes = machine.node_count();
  std::vector<std::int64_t> node_links(static_cast<std::size_t>(routers), 0);
  std::vector<std::int64_t> network_links(static_cast<std::size_t>(routers), 0);
  const auto router_of = [&](topo::VertexId v) { return v >= nodes && v < nodes + routers; };
  for (topo::LinkId id = 0; id < machine.link_count(); ++id) {
    const auto link = machine.link(id);
    const auto bytes = loads.bytes[static_cast<std::size_t>(id)];
    // The cross link counts for the router it leaves; node and switch links for their router.
    const auto router = (router_of(link.from) ? link.from : link.to) - nodes;
    MAPSIM_EXPECTS(router >= 0 && router < routers, "every Tianhe-3 link has a side router");
    auto& cells = link.link_class == topo::LinkClass::Th3Node ? node_links : network_links;
    auto& cell = cells[static_cast<std::size_t>(router)];
    cell = std::max(cell, bytes);
  }
  DataFile data;
  for (const auto* cells : {&node_links, &network_links}) {
    std::string rows_text;
    for (int r = 0; r < routers; ++r) {
      const int chip = r / sides;
      rows_text += fmt::format("{} {} {}\n", (chip % columns) * sides + r % sides, chip / columns,
                               (*cells)[static_cast<std::size_t>(r)]);
    }
    data.add(rows_text);
  }

  Drawing drawing;
  drawing.data = std::move(data.text);
  std::string& plot = drawing.plot;
  const int cells = columns * sides;
  // Row 0 at the top, as the chips are numbered; x: chip column, then side.
  plot += fmt::format("set xrange [-0.5:{}]\nset yrange [{}:-0.5]\nset size ratio -1\n",
                      cells - 0.5, rows - 0.5);
  plot += "set xlabel 'chip column / side (L left, R right)'\nset ylabel 'chip row'\n";
  std::vector<std::string> tics;
  const int stride = std::max(1, columns / 16);
  for (int c = 0; c < columns; c += stride) {
    if (columns * sides <= 16) {
      for (int s = 0; s < sides; ++s) {
        tics.push_back(fmt::format("'{}{}' {}", c, s == 0 ? 'L' : 'R', c * sides + s));
      }
    } else {
      tics.push_back(fmt::format("'{}' {}", c, c * sides + (sides - 1) / 2.0));
    }
  }
  plot += fmt::format("set xtics ({})\n", fmt::join(tics, ", "));
  plot += rows <= 16 ? "set ytics 1\n" : "set ytics autofreq\n";
  for (int c = 1; c < columns && columns <= 64; ++c) {  // chip borders
    plot += fmt::format(
        "set arrow {} from first {}, graph 0 to first {}, graph 1 nohead front lc rgb '#ffffff' "
        "lw 2\n",
        c, c * sides - 0.5, c * sides - 0.5);
  }
  const bool stacked = cells > 2 * rows;
  plot += fmt::format("set multiplot layout {} @TITLE\n", stacked ? "2,1" : "1,2");
  const std::array<std::string_view, 2> titles{"node links", "switch and cross links"};
  for (std::size_t panel = 0; panel < titles.size(); ++panel) {
    plot += fmt::format(
        "set title '{}: the busiest per side router'\nplot {} index {} using 1:2:(0.5):(0.5):3 "
        "with boxxy fs solid 1.0 noborder fc palette notitle\n",
        titles[panel], gp_string(file), panel);
  }
  plot += "unset multiplot\n";
  drawing.about =
      "Each cell is a side router of a chip (left, then right side of each chip column). Left "
      "or top panel: the busiest link between the router and its nodes, either way; right or "
      "bottom panel: the busiest of its links to and from its row and column switches and its "
      "cross link to the chip's other side.";
  drawing.width = stacked ? 960 : 1180;
  const int panel_width =
      stacked ? drawing.width - kMarginsX : (drawing.width - kMarginsX - kPanelGapX) / 2;
  const int panel_height =
      std::clamp(panel_width * rows / cells, 60, 420) + kPanelGapY;  // square cells
  drawing.height = (stacked ? 2 : 1) * panel_height + kMarginsY;
  return drawing;
}

}  // namespace

Chart heatmap_chart(const LinkLoadRun& run, const topo::Topology& machine,
                    std::optional<double> colour_max) {
  MAPSIM_EXPECTS(!colour_max || std::isfinite(*colour_max), "a finite colour scale");
  const auto loads = collect(run, machine);
  Chart chart;
  chart.name = "heatmap-" + sanitize_name(run.name.empty() ? run.key : run.name);
  chart.kind = "heatmap";
  chart.title = fmt::format("link loads: {} on {}, {} ({}){}", run.workload, run.machine,
                            run.mapper, run.model, run.replayed ? "" : ", static routes");
  chart.csv = csv(run, machine, loads);
  chart.table_header = {"link", "from", "to", "class", "bytes", "share"};
  chart.table_rows = busiest_table(machine, loads);
  chart.more_tables.push_back(class_table(machine, loads));

  const std::string file = chart.name + ".dat";
  const auto kind = machine.kind();
  const bool groups = kind == "dragonfly" || kind == "cascade";
  const bool tree = kind == "fattree" || kind == "slurm";
  auto drawing = kind == "tianhe3" ? tianhe3_drawing(machine, loads, file)
                 : groups          ? group_drawing(machine, loads, file)
                 : tree            ? tree_drawing(machine, loads, file)
                                   : grid_drawing(machine, loads, file);
  // Margins and gaps in pixels, as fractions of the page: room for tics, labels and titles.
  const double w = drawing.width, h = drawing.height;
  const double bottom = kBottom / h, top = 1 - kTop / h;
  double scale_max = colour_max.value_or(static_cast<double>(loads.busiest));
  if (scale_max <= 0) scale_max = 1;  // nothing carried: any scale shows it
  std::string plot = fmt::format(
      "set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')\n"
      "set cbrange [0:{}]\nset cblabel 'bytes on the link'\nset format cb '%.1s %cB'\n"
      "set colorbox user origin screen {:.4f},{:.4f} size screen {:.4f},{:.4f}\n",
      scale_max, 1 - 150.0 / w, bottom, 20.0 / w, top - bottom);
  plot += drawing.plot;
  const auto at = plot.find("@TITLE");
  MAPSIM_EXPECTS(at != std::string::npos, "every drawing has a multiplot title");
  plot.replace(at, 6,
               fmt::format("title {} noenhanced margins {:.4f},{:.4f},{:.4f},{:.4f} spacing "
                           "{:.4f},{:.4f}",
                           gp_string(chart.title), kLeft / w, 1 - kRight / w, bottom, top,
                           kPanelGapX / w, kPanelGapY / h));
  chart.plot = std::move(plot);
  chart.data_files = {{file, std::move(drawing.data)}};
  chart.width = drawing.width;
  chart.height = drawing.height;
  chart.about = fmt::format(
      "{} Colour: the bytes {} over the link (scale 0 to {} B); the table lists the busiest "
      "links and their share of all bytes on the network.",
      drawing.about,
      run.replayed     ? "the replay carried"
      : groups || tree ? "of the run's static minimal routes"
                       : "of the run's static dimension-order routes",
      scale_max);
  return chart;
}

}  // namespace mapsim::exp
