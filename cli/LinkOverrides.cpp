#include "cli/LinkOverrides.hpp"

#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::cli {

topo::LinkTable apply_link_overrides(const std::vector<std::string>& overrides,
                                     const topo::Topology& topology) {
  topo::LinkTable table;
  std::array<std::string, topo::kLinkClassCount> set_by;  // the --link that set each class
  for (const auto& text : overrides) {
    const auto first = text.find(':');
    const auto second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos) {
      throw InputError(fmt::format("--link '{}': expected CLASS:GBPS:NS, e.g. grid:25:100", text));
    }
    const auto link_class = topo::link_class_from_name(text.substr(0, first));
    const auto what = fmt::format("--link '{}'", text);
    topology.check_link_class(link_class, what);
    auto& earlier = set_by[static_cast<std::size_t>(link_class)];
    if (!earlier.empty()) {
      throw InputError(fmt::format("{}: the {} links are set twice (first by --link '{}')", what,
                                   topo::name(link_class), earlier));
    }
    earlier = text;
    const double gbps = parse_real(text.substr(first + 1, second - first - 1), what + " bandwidth");
    const double ns = parse_real(text.substr(second + 1), what + " latency");
    try {
      table = table.with(link_class, {gbps * 1e9, ns * 1e-9});
    } catch (const InputError& e) {
      throw e.within(what);
    }
  }
  return table;
}

topo::LinkTable apply_link_energy(const std::vector<std::string>& overrides,
                                  const topo::Topology& topology, topo::LinkTable table) {
  std::array<std::string, topo::kLinkClassCount> set_by;  // the --link-energy of each class
  for (const auto& text : overrides) {
    const auto what = fmt::format("--link-energy '{}'", text);
    const auto fields = split_fields(text, ':');
    if (fields.size() != 4) {
      throw InputError(
          fmt::format("{}: expected CLASS:PJ_PER_BIT:IDLE_W:BUSY_W, e.g. grid:5:3:4 ({} field(s))",
                      what, fields.size()));
    }
    const auto link_class = topo::link_class_from_name(fields[0]);
    topology.check_link_class(link_class, what);
    auto& earlier = set_by[static_cast<std::size_t>(link_class)];
    if (!earlier.empty()) {
      throw InputError(
          fmt::format("{}: the energy of the {} links is set twice (first by "
                      "--link-energy '{}')",
                      what, topo::name(link_class), earlier));
    }
    earlier = text;
    const topo::LinkEnergy energy{parse_real(fields[1], what + " energy per bit (pJ)"),
                                  parse_real(fields[2], what + " idle power (W)"),
                                  parse_real(fields[3], what + " busy power (W)")};
    try {
      table = table.with_energy(link_class, energy);
    } catch (const InputError& e) {
      throw e.within(what);
    }
  }
  return table;
}

}  // namespace mapsim::cli
