#include "sim/Calibration.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::sim {
namespace {

constexpr std::array<std::string_view, 6> kKeys{"overheads",       "bw-factor", "lat-factor",
                                                "reverse-traffic", "weight-s",  "envelope"};

}  // namespace

Calibration calibration_preset(std::string_view name, std::string_view where) {
  if (name == "none") return {};
  if (name == "smpi") {
    Calibration smpi;
    smpi.bandwidth_factor = SizeFactors::parse(
        "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
        "1426:0.608902;732:0.341987;257:0.338112;0:0.812084",
        "the smpi calibration");
    smpi.latency_factor = SizeFactors::parse(
        "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;"
        "732:1.9503;257:1.95341;0:2.01467",
        "the smpi calibration");
    smpi.reverse_traffic = true;
    smpi.weight_s = 8775;
    smpi.envelope = kSmpiEnvelope;
    return smpi;
  }
  throw InputError(fmt::format(
      "{}: unknown calibration preset '{}' (none, smpi, or a calibration file)", where, name));
}

Calibration parse_calibration(std::string_view text, std::string_view source) {
  Calibration calibration;
  std::array<bool, kKeys.size()> seen{};
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    auto line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto where = fmt::format("{}:{}", source, line_number);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      throw InputError(fmt::format("{}: '{}' is not 'key: value' (keys: {})", where, line,
                                   fmt::join(kKeys, ", ")));
    }
    const auto key = trim(line.substr(0, colon));
    const auto value = trim(line.substr(colon + 1));
    std::size_t index = kKeys.size();
    for (std::size_t k = 0; k < kKeys.size(); ++k) {
      if (kKeys[k] == key) index = k;
    }
    if (index == kKeys.size()) {
      throw InputError(
          fmt::format("{}: unknown key '{}' (keys: {})", where, key, fmt::join(kKeys, ", ")));
    }
    if (seen[index]) throw InputError(fmt::format("{}: '{}' is given twice", where, key));
    seen[index] = true;
    const auto what = fmt::format("{} ({})", where, key);
    if (key == "overheads") {
      calibration.overheads = parse_overheads(value, what);
    } else if (key == "bw-factor") {
      calibration.bandwidth_factor = SizeFactors::parse(value, what);
    } else if (key == "lat-factor") {
      calibration.latency_factor = SizeFactors::parse(value, what);
    } else if (key == "reverse-traffic") {
      if (value != "true" && value != "false") {
        throw InputError(
            fmt::format("{}: reverse-traffic is true or false, not '{}'", where, value));
      }
      calibration.reverse_traffic = value == "true";
    } else if (key == "weight-s") {
      calibration.weight_s = parse_real(value, what, 0, 1e12);
    } else {
      calibration.envelope = parse_integer(value, what, 0, kMaxEnvelope);
    }
  }
  if (std::none_of(seen.begin(), seen.end(), [](bool s) { return s; })) {
    throw InputError(
        fmt::format("{}: the calibration sets nothing (keys: {}); for no calibration give 'none'",
                    source, fmt::join(kKeys, ", ")));
  }
  return calibration;
}

Calibration load_calibration(const std::string& spec, std::string_view where) {
  if (spec == "none" || spec == "smpi") return calibration_preset(spec, where);
  std::error_code error;
  if (std::filesystem::is_directory(spec, error)) {
    throw InputError(
        fmt::format("{}: calibration file '{}' is a directory, not a file", where, spec));
  }
  std::ifstream in(spec, std::ios::binary);
  if (!in) {
    throw InputError(fmt::format("{}: cannot read calibration file '{}': {} (presets: none, smpi)",
                                 where, spec, std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_calibration(text.str(), spec);
}

std::string to_text(const Calibration& c) {
  return fmt::format(
      "# mapsim calibration (docs/models.md, \"Calibration\")\n"
      "overheads: {}\nbw-factor: {}\nlat-factor: {}\nreverse-traffic: {}\nweight-s: {}\n"
      "envelope: {}\n",
      to_string(c.overheads), c.bandwidth_factor.to_string(), c.latency_factor.to_string(),
      c.reverse_traffic, c.weight_s, c.envelope);
}

void apply(const Calibration& calibration, std::string_view model, ModelOptions& options) {
  options.envelope = calibration.envelope;
  if (model == "flow" || model == "analytic") {
    options.bandwidth_factor = calibration.bandwidth_factor;
    options.latency_factor = calibration.latency_factor;
  }
  if (model == "flow") {
    options.reverse_traffic = calibration.reverse_traffic;
    options.weight_s = calibration.weight_s;
  }
}

}  // namespace mapsim::sim
