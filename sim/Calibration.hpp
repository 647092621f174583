#pragma once
// A calibration: everything a replay charges beyond the machine's link classes, in one named set
// — MPI's per-message overheads (sim/Overheads.hpp), SimGrid's size factors on bandwidth and
// latency (sim/SizeFactors.hpp), reverse traffic and weight-S (sim/FlowModel.hpp), the bytes of
// MPI's envelope on every message (sim/NetworkModel.hpp) — given as a preset or a file:
//
//   none   no overheads, factors of 1, no reverse traffic, weight-S 0, no envelope (mapsim's
//          defaults)
//   smpi   SimGrid 3.32's SMPI network model as it comes: its bandwidth and latency factors,
//          cross-traffic (reverse traffic), weight-S 8775 bytes and SMPI's 16-byte envelope,
//          no MPI overheads (SMPI's smpi/os, smpi/or and smpi/ois default to 0)
//   FILE   `key: value` lines, `#` comments, each key at most once, every key optional (absent:
//          as `none`):
//            overheads: typical,network.o_s=600      (an --overheads spec)
//            bw-factor: 0:0.81;65472:0.94            (SimGrid's notation)
//            lat-factor: 0:2.01;65472:11.64
//            reverse-traffic: true                   (true or false)
//            weight-s: 8775                          (bytes, >= 0)
//            envelope: 16                            (bytes per message, 0 to 1 MiB)
//          (`mapsim calibrate` fits such a file to measured benchmarks: calibrate/Fit.hpp.)
//
// The overheads and the envelope apply under every model; the factors under flow and analytic,
// reverse traffic and weight-S under flow (the packet model takes none of them).

#include <filesystem>
#include <string>
#include <string_view>

#include "sim/NetworkModel.hpp"
#include "sim/Overheads.hpp"
#include "sim/SizeFactors.hpp"

namespace mapsim::sim {

struct Calibration {
  Overheads overheads;
  SizeFactors bandwidth_factor;
  SizeFactors latency_factor;
  bool reverse_traffic = false;
  double weight_s = 0;
  std::int64_t envelope = 0;

  friend bool operator==(const Calibration&, const Calibration&) = default;
};

/// `none` or `smpi`; nullopt-like failure: throws InputError naming `where` and the presets.
Calibration calibration_preset(std::string_view name, std::string_view where);

/// Parses a calibration file's text; `source` (the file's name) prefixes errors with the line.
Calibration parse_calibration(std::string_view text, std::string_view source);

/// A preset's name, or else the file at `spec` read and parsed (`where` names the option).
Calibration load_calibration(const std::string& spec, std::string_view where);

/// The file text of `calibration` (every key, canonical values): parse_calibration of it gives
/// `calibration` back.
std::string to_text(const Calibration& calibration);

/// The calibration's network part applied to a model's options: the envelope for every model, the
/// factors for flow and analytic, reverse traffic and weight-S for flow.
void apply(const Calibration& calibration, std::string_view model, ModelOptions& options);

}  // namespace mapsim::sim
