#include "cli/LinkOverrides.hpp"

#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::cli {

std::array<bool, topo::kLinkClassCount> classes_of(const topo::Topology& topology) {
  std::array<bool, topo::kLinkClassCount> has{};
  const auto counts = topology.links_per_class();
  for (std::size_t c = 0; c < has.size(); ++c) has[c] = counts[c] > 0;
  has[static_cast<std::size_t>(topo::LinkClass::IntraNode)] = true;
  return has;
}

topo::LinkTable apply_link_overrides(const std::vector<std::string>& overrides,
                                     const topo::Topology& topology) {
  const auto has = classes_of(topology);
  topo::LinkTable table;
  for (const auto& text : overrides) {
    const auto first = text.find(':');
    const auto second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos) {
      throw InputError(fmt::format("--link '{}': expected CLASS:GBPS:NS, e.g. grid:25:100", text));
    }
    const auto link_class = topo::link_class_from_name(text.substr(0, first));
    const auto what = fmt::format("--link '{}'", text);
    if (!has[static_cast<std::size_t>(link_class)]) {
      std::vector<std::string_view> names;
      for (const auto& info : topo::link_classes()) {
        if (has[static_cast<std::size_t>(info.id)]) names.push_back(info.name);
      }
      throw InputError(fmt::format("{}: {} has no {} links; its link classes: {}", what,
                                   topology.spec(), topo::name(link_class),
                                   fmt::join(names, ", ")));
    }
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

}  // namespace mapsim::cli
