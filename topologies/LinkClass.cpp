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
// - intra-node: an MPI shared-memory channel (single-copy), about 20 GB/s and 200 ns, between
//   ranks on one socket (on a node of one socket, between any two of its ranks).
// - inter-socket: the same channel between two sockets of a node, through the processors'
//   coherent interconnect (Intel UPI, AMD Infinity Fabric): a copy that crosses it runs at about
//   half the single-socket rate and costs about twice its latency (12 GB/s, 400 ns; the OSU
//   figures below in docs/models.md). One channel per node, shared by all its cross-socket
//   traffic.
// - fat-trees and Slurm trees (InfiniBand HDR as modelled): 200 Gb/s links (25 GB/s); a link's
//   latency is the switch it enters (about 130 ns port to port on an HDR switch) plus its cable:
//   130 ns into a leaf switch, 150 ns between switch levels (longer cables). Every level has the
//   same bandwidth (a full-bisection tree); a tapered tree has fewer up-links (its W parameters)
//   or slower classes (--link ft-2:...).
// - dragonflies (HPE Slingshot as modelled: De Sensi et al., SC 2020): 200 Gb/s links (25 GB/s)
//   and about 300 ns per Rosetta switch; global (optical, inter-group) cables are longer:
//   350 ns.
// - Cray Cascade / XC (Aries, Alverson et al. 2012): green backplane links of three 14 Gb/s lanes
//   (5.25 GB/s), black copper cables of the same, blue optical links of three 12.5 Gb/s lanes
//   (4.7 GB/s); about 100 ns per Aries router. Parallel links (GL, CL, RL) are separate links.
//   The host link is df-host, shared with the dragonfly (set --link df-host:10:... for an Aries
//   NIC's PCIe 3 x16).
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
    {LinkClass::FtHost,
     "ft-host",
     "fat-tree or Slurm tree: node to its leaf switch",
     {25 * GBps, 130 * ns}},
    {LinkClass::Ft1,
     "ft-1",
     "fat-tree or Slurm tree: level-1 to level-2 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::Ft2,
     "ft-2",
     "fat-tree or Slurm tree: level-2 to level-3 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::Ft3,
     "ft-3",
     "fat-tree or Slurm tree: level-3 to level-4 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::Ft4,
     "ft-4",
     "fat-tree or Slurm tree: level-4 to level-5 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::Ft5,
     "ft-5",
     "fat-tree or Slurm tree: level-5 to level-6 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::Ft6,
     "ft-6",
     "fat-tree or Slurm tree: level-6 to level-7 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::Ft7,
     "ft-7",
     "fat-tree or Slurm tree: level-7 to level-8 switch",
     {25 * GBps, 150 * ns}},
    {LinkClass::DfHost,
     "df-host",
     "dragonfly or Cascade: node to its router",
     {25 * GBps, 300 * ns}},
    {LinkClass::DfLocal,
     "df-local",
     "dragonfly: router to router in a group",
     {25 * GBps, 300 * ns}},
    {LinkClass::DfGlobal,
     "df-global",
     "dragonfly: router to router between groups",
     {25 * GBps, 350 * ns}},
    {LinkClass::DfGreen,
     "df-green",
     "Cascade: router to router in a chassis (backplane)",
     {5.25 * GBps, 100 * ns}},
    {LinkClass::DfBlack,
     "df-black",
     "Cascade: router to router between chassis of a group",
     {5.25 * GBps, 100 * ns}},
    {LinkClass::DfBlue,
     "df-blue",
     "Cascade: router to router between groups (optical)",
     {4.7 * GBps, 100 * ns}},
    {LinkClass::InterSocket,
     "inter-socket",
     "shared-memory channel between ranks on two sockets of one node",
     {12 * GBps, 400 * ns}},
}};

}  // namespace

LinkEnergy default_energy(LinkClass link_class) {
  // Assumptions, as modelled (docs/models.md, "Energy", gives the sources): the energy a bit
  // costs to cross a link (its serialiser, the switch it enters) and a port's power, idle and
  // busy. Electrical links of current HPC networks (200 Gb/s SerDes with a switch hop): about
  // 5 pJ/bit, 3 W idle to 4 W busy per direction; optical ones (longer, with E/O conversion):
  // 10 pJ/bit, 4 to 5 W. HAEC Box: short on-board optical links, 2 pJ/bit, 0.5 to 1 W; its
  // wireless links between boards, 20 pJ/bit (wireless transceivers spend more per bit), 0 W
  // idle and 2 W busy: a node reaches every node of the adjacent boards by steering one
  // transceiver's beam, so a "link" is a pair the beam may join, not a device that idles (the
  // 16x16x16 Box has 1,966,080 of them; at 1 W each their idle power alone would be 2 MW).
  // Tianhe-3's cross link is on the package: 1 pJ/bit, 0.2 to 0.5 W. A node's channels (shared
  // memory) spend the memory's energy per bit copied, read and written (about 20 pJ/bit within a
  // socket, 30 across the sockets' interconnect), and no power of their own: the node's idle power
  // is the node's, not the network's.
  switch (link_class) {
    case LinkClass::HaecOptical:
      return {2, 0.5, 1};
    case LinkClass::HaecWireless:
      return {20, 0, 2};
    case LinkClass::Th3Cross:
      return {1, 0.2, 0.5};
    case LinkClass::IntraNode:
      return {20, 0, 0};
    case LinkClass::InterSocket:
      return {30, 0, 0};
    case LinkClass::DfGlobal:
    case LinkClass::DfBlue:
      return {10, 4, 5};
    default:
      return {5, 3, 4};
  }
}

std::span<const LinkClassInfo> link_classes() {
  return kLinkClasses;
}

LinkClass tree_link_class(int level) {
  MAPSIM_EXPECTS(level >= 0 && level < kMaxTreeLevels, "a tree level from 0 to 7");
  return level == 0 ? LinkClass::FtHost
                    : static_cast<LinkClass>(static_cast<int>(LinkClass::Ft1) + level - 1);
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
  for (const auto& info : kLinkClasses) {
    params_[static_cast<int>(info.id)] = info.defaults;
    energy_[static_cast<int>(info.id)] = default_energy(info.id);
  }
}

LinkTable LinkTable::with_energy(LinkClass link_class, LinkEnergy energy) const {
  const auto check = [&](double value, std::string_view what, std::string_view unit) {
    // Negated comparisons: NaN fails them too.
    if (!(value >= 0 && value <= kMaxEnergyParameter)) {
      throw InputError(fmt::format("{} of link class '{}' is {:g} {}, out of range [0, {:g}]", what,
                                   name(link_class), value, unit, kMaxEnergyParameter));
    }
  };
  check(energy.pj_per_bit, "energy per bit", "pJ");
  check(energy.idle_watts, "idle power", "W");
  check(energy.busy_watts, "busy power", "W");
  if (energy.busy_watts < energy.idle_watts) {
    throw InputError(fmt::format(
        "busy power of link class '{}' is {:g} W, below its idle power {:g} W (a link's power "
        "rises with its load: idle + (busy - idle) x utilisation)",
        name(link_class), energy.busy_watts, energy.idle_watts));
  }
  LinkTable copy = *this;
  copy.energy_[static_cast<int>(link_class)] = energy;
  return copy;
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
