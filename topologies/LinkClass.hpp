#pragma once
// Link classes and their bandwidth and latency. The defaults are stated once, in the table in
// LinkClass.cpp; experiment configs override them per class ([network] section) through
// LinkTable::with.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace mapsim::topo {

enum class LinkClass : std::uint8_t {
  Grid,          ///< mesh and torus link
  HaecOptical,   ///< HAEC Box on-board optical link (the 2-D torus of a board)
  HaecWireless,  ///< HAEC Box wireless link between adjacent boards
  Th3Node,       ///< Tianhe-3 node to side router
  Th3Cross,      ///< Tianhe-3 cross link between the left and right router of one chip
  Th3Switch,     ///< Tianhe-3 side router to row or column switch
  IntraNode,     ///< shared-memory channel between ranks on one socket of a node (the whole node
                 ///< when it has one socket; not a network link)
  FtHost,        ///< fat-tree or Slurm tree: node to its leaf switch
  Ft1,           ///< fat-tree or Slurm tree: level-1 switch to level-2 switch
  Ft2,           ///< ... level 2 to level 3
  Ft3,
  Ft4,
  Ft5,
  Ft6,
  Ft7,          ///< level 7 to level 8, the highest a tree may have
  DfHost,       ///< dragonfly or Cascade: node to its router
  DfLocal,      ///< dragonfly: router to router within a group
  DfGlobal,     ///< dragonfly: router to router between groups
  DfGreen,      ///< Cascade: router to router within a chassis (backplane)
  DfBlack,      ///< Cascade: router to router between chassis of a group (copper)
  DfBlue,       ///< Cascade: router to router between groups (optical)
  InterSocket,  ///< between ranks on different sockets of one node (spec option sockets=)
};
inline constexpr int kLinkClassCount = 22;
/// Switch levels of a tree (fat-tree, Slurm tree): ft-1 .. ft-(kMaxTreeLevels - 1) join them.
inline constexpr int kMaxTreeLevels = 8;

/// The class of the links from tree switch level `level` (1 .. kMaxTreeLevels - 1) to the next;
/// level 0 is the nodes' links (ft-host).
LinkClass tree_link_class(int level);

/// The accepted ranges (LinkTable::with): bandwidth 1 kB/s to 1 PB/s (1e-6 to 1e6 GB/s), latency
/// 0 to 1 s per link. Beyond them a link is no machine's, and the replay's picosecond times would
/// either round to nothing or run past the simulated clock's 106 days.
inline constexpr double kMinBandwidth = 1e3;   // bytes per second
inline constexpr double kMaxBandwidth = 1e15;  // bytes per second
inline constexpr double kMaxLatency = 1.0;     // seconds

/// Bandwidth in bytes per second, latency in seconds (per traversal of one link).
struct LinkParams {
  double bandwidth = 0;
  double latency = 0;
};

/// Energy of a link of a class (docs/models.md, "Energy"), after SimGrid's link energy plugin
/// with a per-bit term:
///   dynamic  E_dyn = 8 B pj_per_bit 1e-12 J for B bytes crossing the link
///   static   P(t) = idle + (busy - idle) u(t), u the link's utilisation (throughput over
///            bandwidth; SimGrid's wattage_range), so over a replay of T seconds in which the link
///            carried B bytes at bandwidth bw: E_static = idle T + (busy - idle) B / bw
struct LinkEnergy {
  double pj_per_bit = 0;
  double idle_watts = 0;
  double busy_watts = 0;

  friend bool operator==(const LinkEnergy&, const LinkEnergy&) = default;
};

/// The accepted range of each energy parameter (LinkTable::with_energy): 0 to 1e6 (pJ per bit,
/// or watts per link), busy at least idle.
inline constexpr double kMaxEnergyParameter = 1e6;

struct LinkClassInfo {
  LinkClass id;
  std::string_view name;
  std::string_view description;
  LinkParams defaults;
};

/// The default energy parameters of a class (the table in LinkClass.cpp, with its sources).
LinkEnergy default_energy(LinkClass link_class);

/// Every link class with its name, description and default parameters.
std::span<const LinkClassInfo> link_classes();

std::string_view name(LinkClass link_class);

/// The class named `name` ("grid", "haec-wireless", ...); throws InputError listing valid names.
LinkClass link_class_from_name(std::string_view name);

/// Parameters of every link class: the defaults, with overrides applied by `with` and
/// `with_energy`.
class LinkTable {
 public:
  LinkTable();

  [[nodiscard]] const LinkParams& operator[](LinkClass link_class) const {
    return params_[static_cast<int>(link_class)];
  }
  [[nodiscard]] const LinkEnergy& energy(LinkClass link_class) const {
    return energy_[static_cast<int>(link_class)];
  }

  /// A copy with one class's parameters replaced; throws InputError unless the bandwidth is in
  /// [kMinBandwidth, kMaxBandwidth] and the latency in [0, kMaxLatency].
  [[nodiscard]] LinkTable with(LinkClass link_class, LinkParams params) const;
  /// A copy with one class's energy parameters replaced; throws InputError unless each is in
  /// [0, kMaxEnergyParameter] and busy_watts >= idle_watts.
  [[nodiscard]] LinkTable with_energy(LinkClass link_class, LinkEnergy energy) const;

 private:
  std::array<LinkParams, kLinkClassCount> params_;
  std::array<LinkEnergy, kLinkClassCount> energy_;
};

}  // namespace mapsim::topo
