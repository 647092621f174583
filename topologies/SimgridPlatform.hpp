#pragma once
// A machine as a SimGrid 4.1 platform file, so that SMPI replays a trace on the machine mapsim
// replays it on: the same hosts in the same order, the same links with their class's bandwidth
// and latency, and the same route for every pair of the hosts a mapping uses.
//
// Two layouts:
//   native cluster  one <cluster> of SimGrid's own that builds and routes as mapsim does:
//                   TORUS for tori, FAT_TREE for fat-trees, DRAGONFLY for Cascades, with
//                   topo_parameters = mapsim's shape, bw / lat = the machine's one link class
//                   setting, loopback_bw / loopback_lat = the intra-node channel's. SimGrid's
//                   cluster links are SPLITDUPLEX: one link per direction, as mapsim's.
//   explicit routes one <zone routing="Full">: every host (Topology::host_name); link "l<id>"
//                   for each of mapsim's directed links (SHARED, its class's bandwidth and
//                   latency) and "l<L + n>" for node n's intra-node channel (L = link count: the
//                   resource ids of sim/Network.hpp); a route for every ordered pair of the hosts
//                   used listing mapsim's minimal route link by link, and from each used host to
//                   itself its intra-node channel. At most kMaxExplicitHosts hosts used.
//                   With PlatformOptions::energy, each link has <prop id="wattage_range"
//                   value="IDLE:BUSY"/> (SimGrid's link energy plugin).
// PlatformChoice::Auto takes the native cluster when every condition below holds, else explicit
// routes (notes() says why); Native and Explicit force a layout (Native with notes() naming every
// departure; an InputError when the kind has no SimGrid cluster or its links differ).
// A native cluster needs:
//   - one bandwidth and one latency for every link class the machine has (a cluster has one);
//   - one rank per node (cores = 1): a cluster's loopback is FATPIPE (each flow gets its whole
//     bandwidth), where mapsim's intra-node channel is shared like a link;
//   - the same routes between the hosts used:
//       torus    every dimension periodic; SimGrid's TorusZone takes the positive way on a
//                half-ring tie except from coordinate k/2 to 0 (even k >= 4), where it goes the
//                negative way and mapsim the positive way: no used host at k/2 in a dimension
//                where another used host is at 0;
//       fattree  no parallel links below the top level (Pl = 1 for l < H): SimGrid's downward
//                port scan takes another parallel link there (topologies/FatTree.hpp);
//       cascade  one lane per class (GL = CL = RL = 1: SimGrid merges the lanes into one link of
//                GL times the bandwidth), and no group in which a used host of a chassis other
//                than 0 and a used host of another blade meet (SimGrid's route between them
//                forgets the source chassis; topologies/Cascade.hpp);
//     other kinds (mesh, HAEC Box, Tianhe-3, dragonfly, Slurm trees) have no SimGrid cluster.
// Host names: an explicit zone has the machine's names. A cluster names host i prefix + i +
// suffix, without zero padding: the machine's names when they all have that form, else
// "node" + i (default names node00 ... node63 become node0 ... node63); host_name() says which.
// Routes are the minimal routes: SimGrid has one route per pair, so a machine routed per message
// (routing=ecmp, valiant, ugal) is written with its minimal routes, and notes() says so.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "topologies/LinkClass.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::topo {

/// The most hosts an explicit platform routes between: 512 hosts give 261,632 routes, tens of
/// megabytes of XML that SimGrid parses in seconds.
inline constexpr std::int32_t kMaxExplicitHosts = 512;

enum class PlatformChoice : std::uint8_t { Auto, Native, Explicit };
std::string_view name(PlatformChoice choice);
/// "auto", "native" or "explicit"; throws InputError listing them.
PlatformChoice platform_choice_from_name(std::string_view name);

enum class PlatformLayout : std::uint8_t { Torus, FatTree, Dragonfly, Explicit };

struct PlatformOptions {
  PlatformChoice choice = PlatformChoice::Auto;
  /// The nodes a mapping uses, any order, repeats allowed; empty: every node.
  std::vector<NodeId> hosts;
  /// Speed of every host, flops per second (compute actions of a SimGrid TI trace are flops).
  double flops_per_second = 1e9;
  /// Give every link SimGrid's link energy property, wattage_range = "IDLE:BUSY" of its class
  /// (LinkTable::energy; the per-bit term has no SimGrid counterpart and is left out, a note
  /// says so): for SMPI's --cfg=plugin:link_energy. Explicit routes only (a cluster's links
  /// take no properties): Auto takes them, Native is an InputError.
  bool energy = false;
};

class SimgridPlatform {
 public:
  /// Chooses the layout. Throws InputError for a forced layout the machine cannot have, or
  /// explicit routes between more than kMaxExplicitHosts hosts (saying why no cluster fits).
  /// `topology` must outlive the platform.
  SimgridPlatform(const Topology& topology, const LinkTable& links, PlatformOptions options);

  [[nodiscard]] PlatformLayout layout() const { return layout_; }
  /// Whether the links carry SimGrid's energy properties (PlatformOptions::energy).
  [[nodiscard]] bool energy() const { return options_.energy; }
  /// "SimGrid FAT_TREE cluster 2;4,4;1,2;1,1" or "explicit routes between 16 hosts".
  [[nodiscard]] std::string description() const;
  /// Why the layout is not a native cluster, or where a forced one departs from mapsim.
  [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }
  /// The platform's name of node n.
  [[nodiscard]] std::string host_name(NodeId node) const;
  /// The used hosts, sorted.
  [[nodiscard]] const std::vector<NodeId>& hosts() const { return hosts_; }

  /// Writes the platform XML.
  void write(std::ostream& out) const;

 private:
  /// Where a native cluster of `layout` would depart from mapsim, link parameters apart (empty:
  /// it models the same machine).
  [[nodiscard]] std::vector<std::string> cluster_departures(PlatformLayout layout) const;
  /// A pair of used hosts routed differently by the cluster, described; empty if none.
  [[nodiscard]] std::string route_departure(PlatformLayout layout) const;
  /// The cluster's topo_parameters: mapsim's shape in SimGrid's notation.
  [[nodiscard]] std::string topo_parameters() const;
  void write_cluster(std::ostream& out) const;
  void write_explicit(std::ostream& out) const;

  const Topology* topology_;
  LinkTable links_;
  PlatformOptions options_;
  std::vector<NodeId> hosts_;
  PlatformLayout layout_ = PlatformLayout::Explicit;
  std::vector<std::string> notes_;
  std::string prefix_;  // cluster host names: prefix_ + i + suffix_
  std::string suffix_;
};

}  // namespace mapsim::topo
