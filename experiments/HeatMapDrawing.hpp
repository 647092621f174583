#pragma once
// What the heat-map drawings share: HeatMap.cpp (meshes, tori, HAEC Box, Tianhe-3; the chart
// around every drawing) and HierarchyHeatMap.cpp (dragonflies, Cascade, fat-trees, Slurm trees).
// Internal to the experiments library.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/ReportData.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::exp::heatmap {

// Page layout in pixels: left (tics, y label), right (colour box), bottom, top (title); between
// panels (tics and x label below, panel title above). kMarginsX/Y are the sums.
inline constexpr int kLeft = 90, kRight = 190, kBottom = 80, kTop = 100;
inline constexpr int kPanelGapX = 90, kPanelGapY = 100;
inline constexpr int kMarginsX = kLeft + kRight, kMarginsY = kBottom + kTop;

/// The run's load per network link, checked against the machine.
struct Loads {
  std::vector<std::int64_t> bytes;      // per link id < link_count()
  std::vector<const LinkLoad*> stored;  // the stored row, or nullptr (a link with no load)
  std::int64_t busiest = 0;
  std::int64_t total = 0;
};

/// `text` in quotes `q`, a quote inside doubled: a gnuplot string ('), a CSV field (").
inline std::string quote(std::string_view text, char q) {
  std::string out(1, q);
  for (const char c : text) {
    if (c == q) out += q;
    out += c;
  }
  return out + q;
}
inline std::string gp_string(std::string_view text) {
  return quote(text, '\'');
}

/// The blocks of one gnuplot data file, addressed by `index`; an empty block is left out (gnuplot
/// would not count it), so add() returns -1 for it.
struct DataFile {
  std::string text;
  int blocks = 0;
  int add(const std::string& rows) {
    if (rows.empty()) return -1;
    if (blocks > 0) text += "\n\n";
    text += rows;
    return blocks++;
  }
};

/// What a layout adds to the chart: its data file, its panels' commands (with "@TITLE" where
/// the multiplot's title and margins go) and its reading.
struct Drawing {
  std::string data;
  std::string plot;
  std::string about;
  int width = 960, height = 540;
};

/// Dragonfly and Cascade: the group x group matrix of global links, and per router (its place
/// in its group x its group) the busiest local link it sends on and the busiest host link.
Drawing group_drawing(const topo::Topology& machine, const Loads& loads, const std::string& file);

/// Fat-trees and Slurm trees: a row of cells per switch level, one per switch, coloured by the
/// busiest up-link (one panel) and down-link (the other) each switch sends on; host links as the
/// nodes' row (up) and the leaf switches' row (down).
Drawing tree_drawing(const topo::Topology& machine, const Loads& loads, const std::string& file);

}  // namespace mapsim::exp::heatmap
