#include "cli/LinkOverrides.hpp"

#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::cli {
namespace {

/// The link class `name` names; an unknown name is an error of the option `what` ("--link
/// 'gird:10:100'"), as a class the machine lacks is.
topo::LinkClass class_named(std::string_view name, std::string_view what) {
  try {
    return topo::link_class_from_name(name);
  } catch (const InputError& e) {
    throw e.within(what);
  }
}

}  // namespace

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
    const auto what = fmt::format("--link '{}'", text);
    const auto link_class = class_named(text.substr(0, first), what);
    topology.check_link_class(link_class, what);
    auto& earlier = set_by[static_cast<std::size_t>(link_class)];
    if (!earlier.empty()) {
      throw InputError(fmt::format("{}: the {} links are set twice (first by --link '{}')", what,
                                   topo::name(link_class), earlier));
    }
    earlier = text;
    const double gbps =
        parse_real(text.substr(first + 1, second - first - 1), what + ": bandwidth (GB/s)");
    const double ns = parse_real(text.substr(second + 1), what + ": latency (ns)");
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
    const auto link_class = class_named(fields[0], what);
    topology.check_link_class(link_class, what);
    auto& earlier = set_by[static_cast<std::size_t>(link_class)];
    if (!earlier.empty()) {
      throw InputError(
          fmt::format("{}: the energy of the {} links is set twice (first by "
                      "--link-energy '{}')",
                      what, topo::name(link_class), earlier));
    }
    earlier = text;
    // Each in its range here, so that a value past a double's names the real limit.
    const auto value = [&](std::string_view field, std::string_view name) {
      return parse_real(field, fmt::format("{}: {}", what, name), 0, topo::kMaxEnergyParameter);
    };
    const topo::LinkEnergy energy{value(fields[1], "energy per bit (pJ)"),
                                  value(fields[2], "idle power (W)"),
                                  value(fields[3], "busy power (W)")};
    try {
      table = table.with_energy(link_class, energy);
    } catch (const InputError& e) {
      throw e.within(what);
    }
  }
  return table;
}

void add_link_energy_settings(Record& settings, const std::vector<std::string>& overrides,
                              const topo::Topology& topology, const topo::LinkTable& links) {
  settings.add("link_energy_overrides", fmt::format("{}", fmt::join(overrides, " ")));
  const auto has = topology.has_link_classes();
  for (const auto& info : topo::link_classes()) {
    if (!has[static_cast<std::size_t>(info.id)]) continue;
    const auto& energy = links.energy(info.id);
    settings.add(fmt::format("link_{}_pj_per_bit", info.name), energy.pj_per_bit)
        .add(fmt::format("link_{}_idle_w", info.name), energy.idle_watts)
        .add(fmt::format("link_{}_busy_w", info.name), energy.busy_watts);
  }
}

}  // namespace mapsim::cli
