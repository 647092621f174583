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
  IntraNode,     ///< shared-memory channel between ranks on the same node (not a network link)
};
inline constexpr int kLinkClassCount = 7;

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

struct LinkClassInfo {
  LinkClass id;
  std::string_view name;
  std::string_view description;
  LinkParams defaults;
};

/// Every link class with its name, description and default parameters.
std::span<const LinkClassInfo> link_classes();

std::string_view name(LinkClass link_class);

/// The class named `name` ("grid", "haec-wireless", ...); throws InputError listing valid names.
LinkClass link_class_from_name(std::string_view name);

/// Parameters of every link class: the defaults, with overrides applied by `with`.
class LinkTable {
 public:
  LinkTable();

  [[nodiscard]] const LinkParams& operator[](LinkClass link_class) const {
    return params_[static_cast<int>(link_class)];
  }

  /// A copy with one class's parameters replaced; throws InputError unless the bandwidth is in
  /// [kMinBandwidth, kMaxBandwidth] and the latency in [0, kMaxLatency].
  [[nodiscard]] LinkTable with(LinkClass link_class, LinkParams params) const;

 private:
  std::array<LinkParams, kLinkClassCount> params_;
};

}  // namespace mapsim::topo
