#include "topologies/LinkClass.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Suggest.hpp"

namespace mapsim::topo {
namespace {

constexpr double GBps = 1e9;  // bytes per second
constexpr double ns = 1e-9;   // seconds

// The one table of defaults. Sources and assumptions:
// - grid: a torus/mesh link of 25 GB/s and 100 ns per hop (a 200 Gb/s HPC link).
// - HAEC Box: optical board links of 200 Gb/s; wireless board-to-board links of 100 Gb/s, the
//   target of the HAEC wireless work; both a few centimetres long, so latency is the transceivers'.
// - Tianhe-3 prototype: 200 Gb/s node links to the router chip; the cross link between a chip's
//   two halves is on-package, twice as fast; router-to-switch links are cables, with more latency.
// - intra-node: an MPI shared-memory channel (single-copy), about 20 GB/s and 200 ns.
constexpr std::array<LinkClassInfo, kLinkClassCount> kLinkClasses{{
    {LinkClass::Grid, "grid", "mesh or torus link", {25 * GBps, 100 * ns}},
    {LinkClass::HaecOptical,
     "haec-optical",
     "HAEC Box optical link on a board",
     {25 * GBps, 50 * ns}},
    {LinkClass::HaecWireless,
     "haec-wireless",
     "HAEC Box wireless link between adjacent boards",
     {12.5 * GBps, 50 * ns}},
    {LinkClass::Th3Node, "th3-node", "Tianhe-3 node to its side router", {25 * GBps, 100 * ns}},
    {LinkClass::Th3Cross,
     "th3-cross",
     "Tianhe-3 cross link between a chip's two side routers",
     {50 * GBps, 20 * ns}},
    {LinkClass::Th3Switch,
     "th3-switch",
     "Tianhe-3 side router to row or column switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::IntraNode,
     "intra-node",
     "shared-memory channel between ranks on one node",
     {20 * GBps, 200 * ns}},
}};

}  // namespace

std::span<const LinkClassInfo> link_classes() {
  return kLinkClasses;
}

std::string_view name(LinkClass link_class) {
  return kLinkClasses[static_cast<int>(link_class)].name;
}

LinkClass link_class_from_name(std::string_view name) {
  std::string valid;
  std::vector<std::string_view> names;
  for (const auto& info : kLinkClasses) {
    if (info.name == name) return info.id;
    valid += valid.empty() ? "" : ", ";
    valid += info.name;
    names.push_back(info.name);
  }
  throw InputError(fmt::format("unknown link class '{}'; valid classes: {}{}", name, valid,
                               suggest_suffix(name, names)));
}

LinkTable::LinkTable() {
  for (const auto& info : kLinkClasses) params_[static_cast<int>(info.id)] = info.defaults;
}

LinkTable LinkTable::with(LinkClass link_class, LinkParams params) const {
  // Negated comparisons: NaN fails them too.
  if (!(params.bandwidth >= kMinBandwidth && params.bandwidth <= kMaxBandwidth)) {
    throw InputError(fmt::format(
        "bandwidth of link class '{}' is {:g} GB/s, out of range [{:g}, {:g}] GB/s (it must be "
        "positive, and at most a petabyte per second)",
        name(link_class), params.bandwidth / GBps, kMinBandwidth / GBps, kMaxBandwidth / GBps));
  }
  if (!(params.latency >= 0 && params.latency <= kMaxLatency)) {
    throw InputError(fmt::format(
        "latency of link class '{}' is {:g} ns, out of range [0, {:g}] ns (zero or positive, at "
        "most a second per link)",
        name(link_class), params.latency / ns, kMaxLatency / ns));
  }
  LinkTable copy = *this;
  copy.params_[static_cast<int>(link_class)] = params;
  return copy;
}

}  // namespace mapsim::topo
